// The executor's journal record (src/plan/journal-record.ts), below the
// commands: what each kind of write records (the address, before, after,
// what is not known), what a run's results add up to, and the append itself
// against the emulator on port 0 with a real context: a marked journal gets
// one entry, anything else a warning or nothing, and the command's outcome
// never changes.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_USER, uid, type Harness } from '../e2e/helpers.js';
import { runContexts, type RunContext } from '../support/run-contexts.js';
import type { GlobalOptions } from '../../src/options.js';
import { appendRolloutEntry, changeOf, changesOf, journaled, recordRolloutEvent, startRecording } from '../../src/plan/journal-record.js';
import { byAnother } from '../../src/plan/answers.js';
import { appendEntry, describeJournal, isUnreadable, newEntry, readEntries, type JournalEntry } from '../../src/service/journal.js';
import { OutcomeUnknownError, UsageError } from '../../src/errors.js';
import type { Plan, Results, Step } from '../../src/plan/plan.js';
import type { ApiClient, RequestOptions } from '../../src/http/client.js';
import type { Settings } from '../../src/config/settings.js';

const runs = runContexts('journal-record');
let h: Harness;
beforeAll(() => {
  h = runs.h;
});

type Ctx = RunContext;
function context(env: Record<string, string | undefined> = {}, globals: GlobalOptions = {}, run: { command: string; arguments: string[] } | null = { command: 'deploy', arguments: ['A', 'V1'] }, signal?: AbortSignal): Promise<Ctx> {
  return runs.context(env, globals, run ?? undefined, signal);
}

/** `ctx` with its client's item uploads (the journal's appends) answered by `refuse` instead of the service. */
async function appendsRefused(ctx: Ctx, refuse: () => Error): Promise<Ctx> {
  const real = await ctx.api();
  const api = Object.create(real) as ApiClient;
  api.json = ((request: RequestOptions) => (request.method === 'POST' && request.path.endsWith('/items') ? Promise.reject(refuse()) : real.json(request))) as ApiClient['json'];
  return { ...ctx, api: async () => api } as Ctx;
}

async function startJournal(id = uid('jr')): Promise<string> {
  const created = await h.call('POST', '/vc', { collectionId: id, collectionName: id, description: describeJournal({ envId: 'prod' }), allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await appendEntry(await context(), id, newEntry({ command: 'journal init', arguments: [id], actor: DEMO_USER, changes: [], outcome: 'applied', exitCode: 0 }));
  return id;
}

async function entries(journal: string): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  for await (const entry of readEntries(await context(), journal)) if (!isUnreadable(entry)) out.push(entry);
  return out.filter((e) => e.command !== 'journal init');
}

function results(answers: Record<string, unknown>, failures: Record<string, unknown> = {}): Results {
  return {
    of: (s: Step) => answers[s.id] as never,
    has: (s: Step) => s.id in answers,
    failureOf: (s: Step) => failures[s.id] as never,
  } as Results;
}

const step = (kind: string, params: Record<string, unknown>, extra: Partial<Step> = {}): Step => ({ id: uid('s'), kind, params, ...extra }) as Step;

describe('what each kind of write records', () => {
  const file = { name: 'b.zip', size: 7, path: '/x/b.zip' };
  const rows: Array<[string, Step, unknown, boolean, unknown]> = [
    ['an upload answered', step('version.upload', { assetId: 'A', platform: 'ios', fields: { versionName: 'n' }, file }), { versionId: 'V1', versionName: 'N', fileName: 'f.zip', size: 9 }, true,
      { address: 'version.A.V1', before: null, after: { versionId: 'V1', versionName: 'N', platform: 'ios', fileName: 'f.zip', size: 9 } }],
    ['an upload answered without its fields', step('version.upload', { assetId: 'A', platform: 'ios', fields: { versionName: 'n' }, file }), { versionId: 'V1' }, true,
      { address: 'version.A.V1', before: null, after: { versionId: 'V1', versionName: 'n', platform: 'ios', fileName: 'b.zip', size: 7 } }],
    ['an upload answered with no id', step('version.upload', { assetId: 'A', platform: 'ios', file }), {}, true,
      { address: 'version.A.(known after apply)', before: null, after: { versionId: null, platform: 'ios', fileName: 'b.zip', size: 7 }, unknownAfter: ['versionId'] }],
    ['an upload whose outcome is unknown', step('version.upload', { assetId: 'A', platform: 'ios', fields: { versionName: 'n' }, file }), undefined, false,
      { address: 'version.A.(known after apply)', before: null, after: { versionId: null, versionName: 'n', platform: 'ios', fileName: 'b.zip', size: 7 }, unknownAfter: ['versionId'] }],
    ['a version delete', step('version.delete', { assetId: 'A', versionId: 'V1' }), {}, true, { address: 'version.A.V1', before: { versionId: 'V1' }, after: null }],
    ['a deploy that read the channel', step('version.deploy', { assetId: 'A', versionId: 'V1', platform: 'ios', body: { envId: 'prod', intent: 'LIVE' }, channel: { records: { V1: 'OFFLINE' } } }), { assetVersion: { versionId: 'V1', state: 'LIVE' } }, true,
      { address: 'channel.A.ios.prod', before: { version: 'V1', state: 'OFFLINE' }, after: { version: 'V1', state: 'LIVE' } }],
    ['a deploy that read the channel, the version not on it', step('version.deploy', { assetId: 'A', versionId: 'V1', platform: 'ios', body: { envId: 'prod', intent: 'LIVE' }, channel: { records: {} } }), { assetVersion: { versionId: 'V1' } }, true,
      { address: 'channel.A.ios.prod', before: { version: 'V1', state: null }, after: { version: 'V1', state: 'LIVE' } }],
    ['a deploy predicted from a read', step('version.deploy', { assetId: 'A', versionId: 'V1', platform: 'ios', body: { envId: 'prod', intent: 'DEFAULT' } }, { prediction: { current: 'LIVE', decision: { ok: true } } as never }), undefined, false,
      { address: 'channel.A.ios.prod', before: { version: 'V1', state: 'LIVE' }, after: { version: 'V1', state: 'DEFAULT' }, unknownAfter: ['state'] }],
    ['a deploy predicted from a read of nothing', step('version.deploy', { assetId: 'A', versionId: 'V1', platform: 'ios', body: { envId: 'prod', intent: 'LIVE' } }, { prediction: { current: null, decision: { ok: true } } as never }), { assetVersion: { versionId: 'V1', state: 'LIVE' } }, true,
      { address: 'channel.A.ios.prod', before: { version: 'V1', state: null }, after: { version: 'V1', state: 'LIVE' } }],
    ['a deploy that read nothing', step('version.deploy', { assetId: 'A', versionId: 'V1', platform: 'ios', body: { envId: 'prod' } }), {}, true,
      { address: 'channel.A.ios.prod', before: { version: 'V1', state: null }, after: { version: 'V1', state: null }, unknownBefore: ['state'] }],
    ['a promotion answered with the previous Default', step('version.promote', { assetId: 'A', versionId: 'V2', platform: 'ios', envId: 'prod', channel: { records: { V0: 'DEFAULT' } } }), { previousDefault: 'V1', assetVersion: { versionId: 'V2' } }, true,
      { address: 'channel.A.ios.prod', before: { default: 'V1' }, after: { default: 'V2' } }],
    ['a promotion answered with none before', step('version.promote', { assetId: 'A', versionId: 'V2', platform: 'ios', envId: 'prod', channel: { records: { V0: 'DEFAULT' } } }), { previousDefault: null }, true,
      { address: 'channel.A.ios.prod', before: { default: null }, after: { default: 'V2' } }],
    ['a promotion unknown, the Default as read', step('version.promote', { assetId: 'A', versionId: 'V2', platform: 'ios', envId: 'prod', channel: { records: { V9: 'LIVE', V0: 'DEFAULT' } } }), undefined, false,
      { address: 'channel.A.ios.prod', before: { default: 'V0' }, after: { default: 'V2' }, unknownAfter: ['default'] }],
    ['a promotion unknown, nothing read', step('version.promote', { assetId: 'A', versionId: 'V2', platform: 'ios', envId: 'prod' }), undefined, false,
      { address: 'channel.A.ios.prod', before: { default: null }, after: { default: 'V2' }, unknownAfter: ['default'] }],
    ['an asset create answered', step('asset.create', { body: { assetId: 'A', assetName: 'n', description: 'd' } }), { assetId: 'A', assetName: 'n', assetType: '1001', gone: undefined }, true,
      { address: 'asset.A', before: null, after: { assetId: 'A', assetName: 'n', assetType: '1001', description: 'd' } }],
    ['an asset create answered, no description', step('asset.create', { body: { assetId: 'A', assetName: 'n' } }), { assetId: 'A', assetName: 'n' }, true,
      { address: 'asset.A', before: null, after: { assetId: 'A', assetName: 'n' } }],
    ['an asset create unknown', step('asset.create', { body: { assetId: 'A', assetName: 'n', x: undefined } }), undefined, false, { address: 'asset.A', before: null, after: { assetId: 'A', assetName: 'n' } }],
    ['an asset update: only what changed; the description never read', step('asset.update', { assetId: 'A', before: { assetName: 'Old', assetType: '1001', active: true }, body: { assetName: 'New', assetType: '1001', active: true, description: 'd', updatedBy: 'u', localCacheMaxAge: undefined } }), {}, true,
      { address: 'asset.A', before: { assetName: 'Old' }, after: { assetName: 'New', description: 'd' }, unknownBefore: ['description'] }],
    ['an asset update whose before holds the description: still the service\'s to say, so unknown', step('asset.update', { assetId: 'A', before: { assetName: 'n', description: 'd' }, body: { assetName: 'n', description: 'd' } }), {}, true,
      { address: 'asset.A', before: {}, after: { description: 'd' }, unknownBefore: ['description'] }],
    ['an asset update of a field never read', step('asset.update', { assetId: 'A', before: { assetName: 'Old' }, body: { assetName: 'Old', active: false } }), {}, true,
      { address: 'asset.A', before: {}, after: { active: false }, unknownBefore: ['active'] }],
    ['an asset update that read nothing first', step('asset.update', { assetId: 'A', body: { assetName: 'New', updatedBy: 'u' } }), {}, true, { address: 'asset.A', before: null, after: { assetName: 'New' }, unknownBefore: ['assetName'] }],
    ['an asset update that read nothing and sent nothing', step('asset.update', { assetId: 'A', body: { updatedBy: 'u' } }), {}, true, { address: 'asset.A', before: null, after: {} }],
    ['an asset delete', step('asset.delete', { assetId: 'A' }), {}, true, { address: 'asset.A', before: { assetId: 'A' }, after: null }],
    ['an undeploy', step('asset.undeploy', { assetId: 'A', body: { envId: 'prod' }, records: [{ versionId: 'V1', targetPlatform: 'ios', state: 'LIVE', other: 1 }] }), {}, true,
      { address: 'asset.A.deployments.prod', before: { records: [{ versionId: 'V1', platform: 'ios', state: 'LIVE' }] }, after: { records: [] } }],
    ['an undeploy of no records read', step('asset.undeploy', { assetId: 'A', body: { envId: 'prod' } }), {}, true, { address: 'asset.A.deployments.prod', before: { records: [] }, after: { records: [] } }],
    ['a collection create answered', step('collection.create', { collectionId: 'C', body: { collectionId: 'C', sent: 1 } }), { collectionId: 'C', answered: 2 }, true, { address: 'collection.C', before: null, after: { collectionId: 'C', answered: 2 } }],
    ['a collection create unknown', step('collection.create', { collectionId: 'C', body: { collectionId: 'C', sent: 1 } }), undefined, false, { address: 'collection.C', before: null, after: { collectionId: 'C', sent: 1 } }],
    ['a collection update over the collection read', step('collection.update', { collectionId: 'C', before: { collectionName: 'a', maxAssets: 5 }, body: { collectionName: 'b', maxAssets: 5, updatedBy: 'u' } }), {}, true,
      { address: 'collection.C', before: { collectionName: 'a' }, after: { collectionName: 'b' } }],
    ['a collection update over its prediction', step('collection.update', { collectionId: 'C', body: { collectionName: 'b' } }, { prediction: { current: { collectionName: 'a' }, decision: { ok: true } } as never }), {}, true,
      { address: 'collection.C', before: { collectionName: 'a' }, after: { collectionName: 'b' } }],
    ['a collection update over a prediction of nothing', step('collection.update', { collectionId: 'C', body: { collectionName: 'b' } }, { prediction: { current: 'gone', decision: { ok: true } } as never }), {}, true,
      { address: 'collection.C', before: null, after: { collectionName: 'b' }, unknownBefore: ['collectionName'] }],
    ['a collection delete', step('collection.delete', { collectionId: 'C' }), {}, true, { address: 'collection.C', before: { deleted: false }, after: { deleted: true } }],
    ['a collection restore', step('collection.restore', { collectionId: 'C' }), {}, true, { address: 'collection.C', before: { deleted: true }, after: { deleted: false } }],
    ['a collection purge', step('collection.purge', { collectionId: 'C' }), {}, true, { address: 'collection.C', before: { deleted: true }, after: null }],
    ['a collection deploy predicted', step('collection.deploy', { collectionId: 'C', envId: 'prod', state: 'LIVE' }, { prediction: { current: 'OFFLINE', decision: { ok: true } } as never }), {}, true,
      { address: 'collection.C.deployment.prod', before: { state: 'OFFLINE' }, after: { state: 'LIVE' } }],
    ['a collection deploy predicted as never deployed', step('collection.deploy', { collectionId: 'C', envId: 'prod', state: 'LIVE' }, { prediction: { current: null, decision: { ok: true } } as never }), {}, true,
      { address: 'collection.C.deployment.prod', before: { state: null }, after: { state: 'LIVE' } }],
    ['a collection deploy not predicted, in the key\'s environment', step('collection.deploy', { collectionId: 'C', state: 'LIVE' }), {}, true,
      { address: "collection.C.deployment.(the key's environment)", before: null, after: { state: 'LIVE' }, unknownBefore: ['state'] }],
    ['a collection deploy predicted as something else', step('collection.deploy', { collectionId: 'C', envId: 'dev', state: 'LIVE' }, { prediction: { current: { x: 1 }, decision: { ok: true } } as never }), {}, true,
      { address: 'collection.C.deployment.dev', before: null, after: { state: 'LIVE' } }],
    ['a collection undeploy', step('collection.undeploy', { collectionId: 'C', envId: 'prod' }), {}, true, { address: 'collection.C.deployment.prod', before: { state: 'LIVE' }, after: { state: null } }],
    ['a reconcile', step('collection.reconcile', { collectionId: 'C' }), {}, true, { address: 'collection.C.deployment.*', before: { state: 'LIVE' }, after: { state: 'LIVE' } }],
    ['an item upload answered', step('item.upload', { collectionId: 'C', fields: { assetItemName: 'a.txt' }, file }), { assetItemId: 'I1', size: 3 }, true, { address: 'item.C.a.txt', before: null, after: { itemId: 'I1', size: 3 } }],
    ['an item upload unknown', step('item.upload', { collectionId: 'C', fields: { assetItemName: 'a.txt' }, file }), undefined, false, { address: 'item.C.a.txt', before: null, after: { itemId: null, size: 7 }, unknownAfter: ['itemId'] }],
    ['an item remove, by name', step('item.remove', { collectionId: 'C', itemId: 'I1', name: 'a.txt' }), {}, true, { address: 'item.C.a.txt', before: { itemId: 'I1' }, after: null }],
    ['an item remove, by id', step('item.remove', { collectionId: 'C', itemId: 'I1' }), {}, true, { address: 'item.C.I1', before: { itemId: 'I1' }, after: null }],
    ['a raw write with a body and a query', step('api.request', { method: 'POST', path: '/api/v2/demo/va', query: { dryRun: 'false' }, body: { assetId: 'A' } }), { assetId: 'A' }, true,
      { address: 'request.POST', before: null, after: { method: 'POST', path: '/api/v2/demo/va', query: '{"dryRun":"false"}', body: '{"assetId":"A"}' } }],
    ['a raw write with no body and an empty query, its answer lost', step('api.request', { method: 'DELETE', path: '/api/v2/demo/va/A', query: {} }), undefined, false,
      { address: 'request.DELETE', before: null, after: { method: 'DELETE', path: '/api/v2/demo/va/A' }, unknownAfter: ['answer'] }],
    ['a raw write whose body is over 2,000 characters: cut, marked', step('api.request', { method: 'PUT', path: '/p', body: 'x'.repeat(2100) }), {}, true,
      { address: 'request.PUT', before: null, after: { method: 'PUT', path: '/p', body: `"${'x'.repeat(1999)}…` } }],
    ['a raw write whose body is 2,000 characters exactly: whole', step('api.request', { method: 'PUT', path: '/p', body: 'y'.repeat(1998) }), {}, true,
      { address: 'request.PUT', before: null, after: { method: 'PUT', path: '/p', body: `"${'y'.repeat(1998)}"` } }],
    ['a step that changes nothing tracked', step('item.converge', { collectionId: 'C' }), {}, true, undefined],
  ];
  it.each(rows)('%s', (_name, s, answer, answered, change) => {
    expect(changeOf(s, answer, answered)).toEqual(change);
  });
});

describe('what a run\'s results add up to', () => {
  it('the answered steps, then the unknown one; not a failed step, not one another run made, not an update that changed nothing', () => {
    const promote = step('version.promote', { assetId: 'A', versionId: 'V2', platform: 'ios', envId: 'prod' });
    const again = step('version.promote', { assetId: 'A', versionId: 'V2', platform: 'ios', envId: 'dev' });
    const unchanged = step('asset.update', { assetId: 'A', before: { assetName: 'n' }, body: { assetName: 'n' } });
    const sentNothing = step('asset.update', { assetId: 'A', body: {} });
    const failed = step('version.delete', { assetId: 'A', versionId: 'V1' });
    const notSent = step('version.delete', { assetId: 'A', versionId: 'V3' });
    const lost = step('item.upload', { collectionId: 'C', fields: { assetItemName: 'a' }, file: { name: 'a', size: 1, path: '/a' } });
    const quiet = step('item.converge', { collectionId: 'C' });
    const run = results(
      { [promote.id]: { previousDefault: 'V1' }, [again.id]: byAnother({ previousDefault: 'V1' }), [unchanged.id]: {}, [sentNothing.id]: {}, [quiet.id]: {} },
      { [failed.id]: { error: new UsageError('refused') }, [lost.id]: { error: new OutcomeUnknownError('lost') } },
    );
    const { changes, unknown } = changesOf([promote, again, unchanged, sentNothing, failed, notSent, lost, quiet], run);
    expect(changes.map((c) => c.address)).toEqual(['channel.A.ios.prod', 'asset.A', 'item.C.a']);
    expect(changes[1]).toEqual({ address: 'asset.A', before: null, after: {} });
    expect(unknown).toBe(true);
    expect(changesOf([promote], run).unknown).toBe(false);
  });
});

describe('the append', () => {
  const plan = (steps: Step[], journal?: Plan['journal']): Plan => ({ steps, done: async () => undefined, ...(journal ? { journal } : {}) }) as unknown as Plan;
  const promoted = (assetId = uid('A')) => {
    const s = step('version.promote', { assetId, versionId: 'V2', platform: 'ios', envId: 'prod' });
    return { s, answers: { [s.id]: { previousDefault: 'V1', assetVersion: { versionId: 'V2' } } } };
  };

  it('a run that changed something: one entry in the journal named, with the run\'s command, arguments (the key redacted), actor, CI run and exit code 0', async () => {
    const journal = await startJournal();
    const ctx = await context({ AHS_JOURNAL: journal, GITHUB_SERVER_URL: 'https://gh.example', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '7' }, {}, { command: 'promote-default', arguments: ['A', `--key=${DEMO_API_KEY}`] });
    await ctx.settings();
    const { s, answers } = promoted();
    await journaled(ctx, plan([s]), () => results(answers), async () => undefined);
    const [entry, ...rest] = await entries(journal);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ command: 'promote-default', actor: DEMO_USER, outcome: 'applied', exitCode: 0, ci: { runUrl: 'https://gh.example/o/r/actions/runs/7' }, changes: [{ address: s.params && `channel.${(s.params as { assetId: string }).assetId}.ios.prod`, before: { default: 'V1' }, after: { default: 'V2' } }] });
    expect(entry!.arguments[0]).toBe('A');
    expect(entry!.arguments[1]).not.toContain(DEMO_API_KEY);
    expect(ctx.io.err.text).toBe('');
  });

  it('the plan names its command, arguments, rollout and control; a failed run records its exit code and rethrows; an unknown outcome says so', async () => {
    const journal = await startJournal();
    const ctx = await context({ AHS_JOURNAL: journal });
    const { s, answers } = promoted();
    const rollout = { asset: 'A', version: 'V2', platform: 'ios', waves: ['prod'], wave: 'prod', action: 'promote' };
    const failure = new UsageError('stopped after the first step');
    await expect(journaled(ctx, appendRolloutEntry(plan([s], { command: 'rollout', arguments: ['x'], control: { action: 'break-glass', target: 'prod' } }), () => rollout as never), () => results(answers), async () => {
      throw failure;
    })).rejects.toBe(failure);
    const lost = new OutcomeUnknownError('the answer was lost');
    await expect(journaled(ctx, plan([], { record: undefined as never }), () => results({}), async () => {
      throw lost;
    })).rejects.toBe(lost);
    const plain = new Error('a bug');
    await expect(journaled(ctx, plan([s]), () => results(answers), async () => {
      throw plain;
    })).rejects.toBe(plain);
    const [bug, unknown, first] = await entries(journal);
    expect(first).toMatchObject({ command: 'rollout', arguments: ['x'], exitCode: 2, outcome: 'applied', rollout, control: { action: 'break-glass', target: 'prod' } });
    expect(unknown).toMatchObject({ command: 'deploy', arguments: ['A', 'V1'], exitCode: lost.exitCode, outcome: 'unknown', changes: [] });
    expect(bug).toMatchObject({ exitCode: 1, outcome: 'applied' });
  });

  it('nothing changed, or the plan records nothing, or no journal: no entry, no warning', async () => {
    const journal = await startJournal();
    const ctx = await context({ AHS_JOURNAL: journal });
    const { s, answers } = promoted();
    await journaled(ctx, plan([s]), () => results({}), async () => undefined);
    await journaled(ctx, plan([s], { record: false }), () => results(answers), async () => undefined);
    const off = await context({ AHS_JOURNAL: '' });
    await journaled(off, plan([s]), () => results(answers), async () => undefined);
    // No setting, and the domain has no ahs-journal: silently none.
    const byDefault = await context();
    await journaled(byDefault, plan([s]), () => results(answers), async () => undefined);
    expect(await entries(journal)).toEqual([]);
    expect(ctx.io.err.text + off.io.err.text + byDefault.io.err.text).toBe('');
  });

  it('a journal setting naming a content collection: the outcome kept, one warning naming the setting, nothing added', async () => {
    const content = uid('content');
    expect((await h.call('POST', '/vc', { collectionId: content, collectionName: content, description: 'bundle', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    const ctx = await context({ AHS_JOURNAL: content, GITHUB_ACTIONS: 'true' });
    const { s, answers } = promoted('A');
    await journaled(ctx, plan([s]), () => results(answers), async () => undefined);
    const warning = `this deploy (channel.A.ios.prod) was not recorded: the journal setting (AHS_JOURNAL) names ${content}, and ${content} is not an ahs journal (its description does not say "ahs journal"); nothing was added to it. Start a journal with \`ahs journal init\`, or fix AHS_JOURNAL`;
    expect(ctx.io.err.text).toContain(warning);
    expect(ctx.io.err.text).toContain('::warning title=ahs journal::');
    expect((await h.call('GET', `/vc/${content}/items`)).body.results).toEqual([]);
    const absent = await context({}, { journal: uid('none') });
    await journaled(absent, plan([s]), () => results(answers), async () => undefined);
    expect(absent.io.err.text).toMatch(/names .+, and there is no collection .+; nothing was added to it\. Start a journal with `ahs journal init`, or fix --journal\n/);
    expect(absent.io.err.text).not.toContain('::warning');
  });

  it('an append that fails is one warning naming the journal and what was not recorded; the outcome is kept', async () => {
    const journal = await startJournal();
    // No acting user to record it as.
    const ctx = await context({ AHS_JOURNAL: journal, AHS_USER: undefined });
    const { s, answers } = promoted('A');
    await journaled(ctx, plan([s]), () => results(answers), async () => undefined);
    expect(ctx.io.err.text).toContain(`the journal ${journal} did not record this deploy (channel.A.ios.prod): no acting user (--user) to record it as; ahs profile check says whether the journal is reachable`);
    // The journal's read refused (a wrong key): warned, never thrown.
    const refused = await context({ AHS_JOURNAL: journal, AHS_API_KEY: 'wrong' });
    await journaled(refused, plan([], {}), () => results({}), async () => {
      throw new OutcomeUnknownError('lost');
    }).catch(() => undefined);
    expect(refused.io.err.text).toMatch(new RegExp(`the journal ${journal} did not record this deploy \\(its outcome\\): .+; ahs profile check says whether the journal is reachable`));
    expect(await entries(journal)).toEqual([]);
  });

  it('a write outside the executor (ahs api) is recorded by the same rules', async () => {
    const journal = await startJournal();
    const ctx = await context({ AHS_JOURNAL: journal }, {}, { command: 'api', arguments: ['POST', '/va'] });
    const recording = startRecording(ctx);
    await recording.record({ command: 'api', arguments: ['POST', '/va'], changes: [{ address: 'request.POST./va', before: null, after: { status: 201 } }], outcome: 'applied', exitCode: 0 });
    expect((await entries(journal)).map((e) => [e.command, e.changes[0]!.address])).toEqual([['api', 'request.POST./va']]);
    const off = await context({ AHS_JOURNAL: '' });
    await startRecording(off).record({ command: 'api', arguments: [], changes: [], outcome: 'applied', exitCode: 0 });
    expect(await entries(journal)).toHaveLength(1);
  });

  it('a rollout\'s own event goes to the journal it names; a context without settings records nothing', async () => {
    const journal = await startJournal();
    const ctx = await context({}, {}, { command: 'rollout', arguments: ['A', 'V2'] });
    const rollout = { asset: 'A', version: 'V2', platform: 'ios', waves: ['prod'], wave: 'prod', action: 'intent', previousDefault: 'V1' } as never;
    expect(await recordRolloutEvent(ctx, journal, rollout, 3, [{ address: 'channel.A.ios.prod', before: null, after: null }])).toBe(true);
    expect(await recordRolloutEvent(ctx, journal, rollout)).toBe(true);
    const [second, first] = await entries(journal);
    expect(first).toMatchObject({ command: 'rollout', arguments: ['A', 'V2'], exitCode: 3, rollout, changes: [{ address: 'channel.A.ios.prod' }] });
    expect(second).toMatchObject({ exitCode: 0, changes: [] });
    expect(await recordRolloutEvent({ output: ctx.output, io: ctx.io }, journal, rollout)).toBe(false);
    const content = uid('content');
    expect((await h.call('POST', '/vc', { collectionId: content, collectionName: content, description: 'x', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    expect(await recordRolloutEvent(ctx, content, rollout)).toBe(false);
    const noRun = await context({}, {}, null);
    expect(await recordRolloutEvent(noRun, journal, rollout)).toBe(true);
    expect((await entries(journal))[0]).toMatchObject({ command: 'rollout', arguments: [] });
  });

  it('appendRolloutEntry: the plan\'s journal keeps its fields and gains the rollout, made from the results when it is a function', () => {
    const base = plan([], { command: 'rollout', arguments: ['a'] });
    const fixed = appendRolloutEntry(base, { wave: 'dev' } as never);
    const given = fixed.journal!.rollout as (r: Results) => Record<string, unknown>;
    expect(fixed.journal).toMatchObject({ command: 'rollout', arguments: ['a'] });
    expect(given(results({}))).toEqual({ wave: 'dev' });
    const made = appendRolloutEntry(base, (r) => ({ wave: r.has({ id: 'x' } as Step) ? 'yes' : 'no' }) as never);
    expect((made.journal!.rollout as (r: Results) => unknown)(results({ x: 1 }))).toEqual({ wave: 'yes' });
    expect(base.journal!.rollout).toBeUndefined();
  });

  it('a run cut by Ctrl-C is still recorded: the journal read again and the entry appended by a client of its own', async () => {
    const journal = await startJournal();
    const interrupt = new AbortController();
    const ctx = await context({ AHS_JOURNAL: journal }, {}, undefined, interrupt.signal);
    const { s, answers } = promoted();
    // Ctrl-C as the run's writes end: the journal's read, started beside them, is cut.
    await journaled(ctx, plan([s]), () => results(answers), async () => {
      interrupt.abort();
    });
    expect((await entries(journal)).map((e) => [e.command, e.changes[0]!.address])).toEqual([['deploy', `channel.${(s.params as { assetId: string }).assetId}.ios.prod`]]);
    expect(ctx.io.err.text).toBe('');
  });

  it('a context whose settings cannot be read records nothing and keeps the outcome; a rollout\'s event is not taken', async () => {
    const journal = await startJournal();
    const base = await context({ AHS_JOURNAL: journal });
    const broken = { ...base, settings: async () => Promise.reject(new Error('the profiles file is not JSON')) } as Ctx;
    const { s, answers } = promoted();
    await journaled(broken, plan([s]), () => results(answers), async () => undefined);
    expect(await recordRolloutEvent(broken, journal, { asset: 'A', version: 'V2', platform: 'ios', waves: ['prod'], wave: 'prod', action: 'intent' } as never)).toBe(false);
    expect(await entries(journal)).toEqual([]);
    expect(base.io.err.text).toBe('');
  });

  it('a context without a redactor records the arguments as given, and warns as the others do', async () => {
    const journal = await startJournal();
    const ctx = { ...(await context({ AHS_JOURNAL: journal }, {}, { command: 'deploy', arguments: ['A', '--note=x'] })), redactor: undefined } as unknown as Ctx;
    const { s, answers } = promoted('A');
    await journaled(ctx, plan([s]), () => results(answers), async () => undefined);
    expect((await entries(journal))[0]!.arguments).toEqual(['A', '--note=x']);
    const content = uid('content');
    expect((await h.call('POST', '/vc', { collectionId: content, collectionName: content, description: 'bundle', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    const other = { ...(await context({ AHS_JOURNAL: content })), redactor: undefined } as unknown as Ctx;
    await journaled(other, plan([s]), () => results(answers), async () => undefined);
    expect(other.io.err.text).toContain(`was not recorded: the journal setting (AHS_JOURNAL) names ${content}, and ${content} is not an ahs journal`);
  });

  it('a journal setting naming a deleted journal, or set in a profile: the warning says which and what to fix', async () => {
    const journal = await startJournal();
    expect((await h.call('DELETE', `/vc/${journal}`, { deletedBy: DEMO_USER })).status).toBeLessThan(300);
    const ctx = await context({ AHS_JOURNAL: journal });
    const { s, answers } = promoted('A');
    await journaled(ctx, plan([s]), () => results(answers), async () => undefined);
    expect(ctx.io.err.text).toContain(`this deploy (channel.A.ios.prod) was not recorded: the journal setting (AHS_JOURNAL) names ${journal}, and the collection ${journal} is deleted; nothing was added to it. Start a journal with \`ahs journal init\`, or fix AHS_JOURNAL`);
    const base = await context();
    const real = await base.settings();
    const profiled: Settings = { ...real, profileName: 'ci', resolve: (name) => (name === 'journal' ? { value: journal, source: 'profile' } : real.resolve(name)) };
    const fromProfile = { ...base, settings: async () => profiled } as Ctx;
    await journaled(fromProfile, plan([s]), () => results(answers), async () => undefined);
    expect(base.io.err.text).toContain(`the journal setting (profile ci's key journal) names ${journal}, and the collection ${journal} is deleted; nothing was added to it. Start a journal with \`ahs journal init\`, or fix the profile's key journal`);
  });

  it('a failed append\'s reason is given without its closing dot or spaces', async () => {
    const journal = await startJournal();
    const ctx = await appendsRefused(await context({ AHS_JOURNAL: journal }), () => new Error('the service is down for maintenance. \n'));
    const { s, answers } = promoted('A');
    await journaled(ctx, plan([s]), () => results(answers), async () => undefined);
    expect(ctx.io.err.text).toContain(`the journal ${journal} did not record this deploy (channel.A.ios.prod): the service is down for maintenance; ahs profile check says whether the journal is reachable`);
  });

  it('a step whose outcome is unknown and that changes nothing tracked: an entry of outcome unknown, with no changes', async () => {
    const journal = await startJournal();
    const ctx = await context({ AHS_JOURNAL: journal });
    const converge = step('item.converge', { collectionId: 'C' });
    await journaled(ctx, plan([converge]), () => results({}, { [converge.id]: { error: new OutcomeUnknownError('lost') } }), async () => undefined);
    expect((await entries(journal)).map((e) => [e.command, e.outcome, e.exitCode, e.changes])).toEqual([['deploy', 'unknown', 0, []]]);
  });

  it('a run with no command line and a plan that names none is recorded as a write; a plan\'s rollout field given as a value is kept', async () => {
    const journal = await startJournal();
    const ctx = await context({ AHS_JOURNAL: journal }, {}, null);
    const { s, answers } = promoted();
    const rollout = { asset: 'A', version: 'V2', platform: 'ios', waves: ['prod'], wave: 'prod', action: 'promote' };
    await journaled(ctx, plan([s], { rollout: rollout as never }), () => results(answers), async () => undefined);
    expect(await entries(journal)).toMatchObject([{ command: 'write', arguments: [], rollout }]);
  });

  it('GITHUB_ACTIONS set to anything but true: the warning without its ::warning line', async () => {
    const content = uid('content');
    expect((await h.call('POST', '/vc', { collectionId: content, collectionName: content, description: 'bundle', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    const ctx = await context({ AHS_JOURNAL: content, GITHUB_ACTIONS: 'false' });
    const { s, answers } = promoted('A');
    await journaled(ctx, plan([s]), () => results(answers), async () => undefined);
    expect(ctx.io.err.text).toContain('was not recorded');
    expect(ctx.io.err.text).not.toContain('::warning');
  });

  it('a journal that continues elsewhere is appended to there at once: its collection, read beside the writes, names the link', async () => {
    const journal = await startJournal();
    const next = uid('next');
    expect((await h.call('POST', '/vc', { collectionId: next, collectionName: next, description: describeJournal({ envId: 'prod' }), allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 1, description: describeJournal({ envId: 'prod', next }), updatedBy: DEMO_USER })).status).toBe(200);
    const base = await context({ AHS_JOURNAL: journal });
    const real = await base.api();
    const posted: string[] = [];
    const api = Object.create(real) as ApiClient;
    api.json = ((request: RequestOptions) => {
      if (request.method === 'POST') posted.push(request.path.replace(/^\/api\/v2\/demo/, ''));
      return real.json(request);
    }) as ApiClient['json'];
    const ctx = { ...base, api: async () => api } as Ctx;
    const { s, answers } = promoted();
    await journaled(ctx, plan([s]), () => results(answers), async () => undefined);
    expect(posted).toEqual([`/vc/${next}/items`]);
    expect(base.io.err.text).toBe('');
  });

  it('a rollout\'s event with a context that has settings but no client is not taken', async () => {
    const journal = await startJournal();
    const ctx = await context();
    const noClient = { output: ctx.output, io: ctx.io, settings: ctx.settings } as never;
    expect(await recordRolloutEvent(noClient, journal, { asset: 'A', version: 'V2', platform: 'ios', waves: ['prod'], wave: 'prod', action: 'intent' } as never)).toBe(false);
    expect(await entries(journal)).toEqual([]);
  });
});
