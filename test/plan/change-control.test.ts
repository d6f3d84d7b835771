// Change control's gate (src/plan/change-control.ts), below the commands:
// what each kind of step writes (its scopes and the versions it promotes),
// the settings a run coordinates with, and the gate itself called with a
// real context over the emulator on port 0: a lock of another holder, a
// freeze, a blocked version refuse the plan (BlockedError, nothing sent);
// the ways out of an incident and --break-glass go through; a holding
// command takes its lock and gives it back.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, uid, type Harness } from '../e2e/helpers.js';
import { runContexts, type RunContext } from '../support/run-contexts.js';
import type { GlobalOptions } from '../../src/options.js';
import { blockOf, coordinates, DEFAULT_RUN_TTL_MS, gate, givenLockId, holdScopes, intentOf, isBlocked, lockTimeoutMs, newRunLockId, parseScopeOrThrow, planIntent, prefetchControl, recordControl, refuseBeforeAsking, runTtlMs } from '../../src/plan/change-control.js';
import { appendEntry, describeJournal, isUnreadable, newEntry, readEntries, type JournalEntry } from '../../src/service/journal.js';
import { ApiError, BlockedError, CancelledError, NetworkError, UsageError } from '../../src/errors.js';
import type { RequestOptions } from '../../src/http/client.js';
import type { Plan, Step } from '../../src/plan/plan.js';
import { failure } from '../support/failure.js';
import { scripted, type Hook, type Scripted } from '../support/scripted-client.js';
import { ciLockId, compactTime, lockAssetOf, lockName, type ControlFacts, type Scope } from '../../src/rules/change-control.js';
import { acquireLock, ciJobOf, readControlFacts } from '../../src/service/change-control.js';

const runs = runContexts('change-control');
let h: Harness;
beforeAll(() => {
  h = runs.h;
});

type Ctx = RunContext;
function context(globals: GlobalOptions = {}, command = 'deploy', env: Record<string, string | undefined> = {}): Promise<Ctx> {
  return runs.context({ AHS_JOURNAL: '', ...env }, globals, { command, arguments: [] });
}

const step = (kind: string, params: Record<string, unknown>): Step => ({ id: uid('s'), kind, params }) as Step;
const plan = (steps: Step[], extra: Partial<Plan> = {}): Plan => ({ steps, done: async () => undefined, ...extra }) as unknown as Plan;
const deploy = (assetId: string, versionId: string, envId = 'prod', intent = 'LIVE') => step('version.deploy', { assetId, versionId, platform: 'ios', body: { envId, intent } });

describe('what a step writes', () => {
  const ch = (assetId: string, env: string) => ({ kind: 'channel', assetId, platform: 'ios', env });
  const rows: Array<[string, Step, string | undefined, unknown]> = [
    ['a LIVE deploy', deploy('A', 'V1'), undefined, { scopes: [ch('A', 'prod')], promotes: [{ assetId: 'A', versionId: 'V1' }] }],
    ['a DEFAULT deploy', deploy('A', 'V1', 'dev', 'DEFAULT'), undefined, { scopes: [ch('A', 'dev')], promotes: [{ assetId: 'A', versionId: 'V1' }] }],
    ['an OFFLINE deploy', deploy('A', 'V1', 'prod', 'OFFLINE'), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['a deploy of a version not known yet', step('version.deploy', { assetId: 'A', versionId: { $ref: 's', field: 'versionId' }, platform: 'ios', body: { envId: 'prod', intent: 'LIVE' } }), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['a deploy to no environment', step('version.deploy', { assetId: 'A', versionId: 'V', platform: 'ios', body: {} }), 'prod', { scopes: [], promotes: [] }],
    ['a deploy of an asset not known yet', step('version.deploy', { assetId: { $ref: 's', field: 'assetId' }, versionId: 'V', platform: 'ios', body: { envId: 'prod' } }), undefined, { scopes: [], promotes: [] }],
    ['a deploy to no platform', step('version.deploy', { assetId: 'A', versionId: 'V', body: { envId: 'prod' } }), undefined, { scopes: [], promotes: [] }],
    ['a promotion', step('version.promote', { assetId: 'A', versionId: 'V2', platform: 'ios', envId: 'prod' }), undefined, { scopes: [ch('A', 'prod')], promotes: [{ assetId: 'A', versionId: 'V2' }] }],
    ['a promotion of a version not known yet', step('version.promote', { assetId: 'A', versionId: { $ref: 's', field: 'versionId' }, platform: 'ios', envId: 'prod' }), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['a promotion of no environment', step('version.promote', { assetId: 'A', versionId: 'V2', platform: 'ios' }), 'prod', { scopes: [], promotes: [] }],
    ['a promotion of no asset', step('version.promote', { versionId: 'V2', platform: 'ios', envId: 'prod' }), undefined, { scopes: [], promotes: [] }],
    ['a promotion of no platform', step('version.promote', { assetId: 'A', versionId: 'V2', envId: 'prod' }), undefined, { scopes: [], promotes: [] }],
    ['an undeploy of two platforms', step('asset.undeploy', { assetId: 'A', body: { envId: 'prod', targetPlatforms: ['ios', 7, 'web'] } }), undefined, { scopes: [ch('A', 'prod'), { kind: 'channel', assetId: 'A', platform: 'web', env: 'prod' }], promotes: [] }],
    ['an undeploy of no platform list', step('asset.undeploy', { assetId: 'A', body: { envId: 'prod' } }), undefined, { scopes: [], promotes: [] }],
    ['an undeploy of no environment', step('asset.undeploy', { assetId: 'A', body: { targetPlatforms: ['ios'] } }), 'prod', { scopes: [], promotes: [] }],
    ['an undeploy of no asset', step('asset.undeploy', { body: { envId: 'prod', targetPlatforms: ['ios'] } }), undefined, { scopes: [], promotes: [] }],
    ['a collection deploy', step('collection.deploy', { collectionId: 'C', envId: 'dev' }), 'prod', { scopes: [{ kind: 'collection', collectionId: 'C', env: 'dev' }], promotes: [] }],
    ['an item upload in the run\'s environment', step('item.upload', { collectionId: 'C' }), 'prod', { scopes: [{ kind: 'collection', collectionId: 'C', env: 'prod' }], promotes: [] }],
    ['an item upload with no environment', step('item.upload', { collectionId: 'C' }), undefined, { scopes: [], promotes: [] }],
    ['an item remove of no collection', step('item.remove', { envId: 'prod' }), undefined, { scopes: [], promotes: [] }],
    ['an asset create', step('asset.create', { body: { assetId: 'A' } }), 'prod', { scopes: [], promotes: [] }],
  ];
  it.each(rows)('%s', (_name, s, env, intent) => {
    expect(intentOf(s, env)).toEqual(intent);
  });

  it('each collection kind writes its collection in the environment', () => {
    for (const kind of ['collection.undeploy', 'collection.reconcile', 'collection.update', 'collection.delete', 'collection.restore', 'collection.purge', 'item.remove', 'item.converge']) {
      expect(intentOf(step(kind, { collectionId: 'C' }), 'prod').scopes).toEqual([{ kind: 'collection', collectionId: 'C', env: 'prod' }]);
    }
  });

  it('a plan\'s intent: its steps\' scopes and promotions, each once', () => {
    const intent = planIntent(plan([deploy('A', 'V1'), step('version.promote', { assetId: 'A', versionId: 'V1', platform: 'ios', envId: 'prod' }), deploy('B', 'V1', 'dev')]), undefined);
    expect(intent.scopes.map((s) => JSON.stringify(s))).toEqual([
      JSON.stringify({ kind: 'channel', assetId: 'A', platform: 'ios', env: 'prod' }),
      JSON.stringify({ kind: 'channel', assetId: 'B', platform: 'ios', env: 'dev' }),
    ]);
    expect(intent.promotes).toEqual([{ assetId: 'A', versionId: 'V1' }, { assetId: 'B', versionId: 'V1' }]);
  });

  it('a holding command locks its one scope, or each environment of several', () => {
    const a = { kind: 'channel' as const, assetId: 'A', platform: 'ios', env: 'prod' };
    const b = { kind: 'collection' as const, collectionId: 'C', env: 'prod' };
    const c = { kind: 'channel' as const, assetId: 'B', platform: 'ios', env: 'dev' };
    expect(holdScopes([])).toEqual([]);
    expect(holdScopes([a])).toEqual([a]);
    expect(holdScopes([a, b, c])).toEqual([{ kind: 'env', env: 'prod' }, { kind: 'env', env: 'dev' }]);
  });
});

describe('the settings a run coordinates with', () => {
  const ctx = (globals: GlobalOptions, env: Record<string, string> = {}) => ({ globals, io: { env } as never });
  it('--lock-id, else AHS_LOCK_ID (empty: none), checked', () => {
    expect(givenLockId(ctx({ lockId: 'abc123' }, { AHS_LOCK_ID: 'zzz999' }))).toBe('abc123');
    expect(givenLockId(ctx({}, { AHS_LOCK_ID: 'zzz999' }))).toBe('zzz999');
    expect(givenLockId(ctx({}, { AHS_LOCK_ID: '' }))).toBeUndefined();
    expect(givenLockId(ctx({}))).toBeUndefined();
    expect(() => givenLockId(ctx({ lockId: 'NOT A LOCK' }))).toThrow(new UsageError('--lock-id "NOT A LOCK" is not a lock id: use the one ahs lock acquire printed (6 to 32 lower-case letters, digits and dashes)'));
    expect(newRunLockId()).toMatch(/^run-[0-9a-f]{12}$/);
    expect(newRunLockId()).not.toBe(newRunLockId());
  });

  it('--lock-timeout as ms, never past --timeout; 0 when not given', () => {
    expect(lockTimeoutMs({ globals: {} })).toBe(0);
    expect(lockTimeoutMs({ globals: { lockTimeout: '5s' } })).toBe(5000);
    expect(lockTimeoutMs({ globals: { lockTimeout: '5m', timeout: 30 } })).toBe(30_000);
    expect(lockTimeoutMs({ globals: { lockTimeout: '5s', timeout: 30 } })).toBe(5000);
    expect(() => lockTimeoutMs({ globals: { lockTimeout: 'soon' } })).toThrow(new UsageError('--lock-timeout "soon" is not a duration: give it as 0s, 30s, 5m or 1h'));
  });

  it('a scope in words, or the rules\' error; change control\'s refusal told from others', () => {
    expect(parseScopeOrThrow('A/ios/prod')).toEqual({ kind: 'channel', assetId: 'A', platform: 'ios', env: 'prod' });
    expect(() => parseScopeOrThrow('a b')).toThrow(UsageError);
    expect(isBlocked(new BlockedError('x', 'lock'))).toBe(true);
    expect(isBlocked(new UsageError('x'))).toBe(false);
    expect(isBlocked(new Error('x'))).toBe(false);
  });
});

describe('the gate', () => {
  async function asset(): Promise<{ id: string; v1: string; v2: string }> {
    const id = uid('cc');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    const v2 = await h.uploadVersion(id, 'ios', '1.1');
    return { id, v1, v2 };
  }

  it('nothing to check: an empty plan, a plan told to skip, a context without settings, a plan that writes no scope', async () => {
    const ctx = await context();
    const empty = plan([]);
    expect((await gate(empty, ctx)).plan).toBe(empty);
    // Another holder's lock on what they write: not checked, so not refused.
    const locked = uid('cc');
    await h.createAsset(locked);
    const lockId = (await h.ahs(['lock', 'acquire', `${locked}/ios/prod`, '--ttl', '10m', '--json'])).json().lockId as string;
    const skip = plan([deploy(locked, 'V1')], { control: { skip: true } });
    expect((await gate(skip, ctx)).plan).toBe(skip);
    const bare = plan([deploy(locked, 'V1')]);
    const { settings: _settings, ...withoutSettings } = ctx;
    expect((await gate(bare, withoutSettings as never)).plan).toBe(bare);
    expect((await h.ahs(['lock', 'release', `${locked}/ios/prod`, '--lock-id', lockId])).exitCode).toBe(0);
    const create = plan([step('asset.create', { body: { assetId: 'A' } })]);
    const open = await gate(create, ctx);
    expect(open.plan).toBe(create);
    expect(open.ctx).toBe(ctx);
    await open.end();
    // A holding command's plan that writes no scope: nothing read, no lock taken.
    const holding = await through(await context({ lockTtl: '5s' }, 'apply'));
    const free = await gate(create, holding.ctx);
    expect(free.before).toBeUndefined();
    expect(free.ctx).toBe(holding.ctx);
    expect(holding.api.sent).toEqual([]);
    await free.end();
  });

  it('--break-glass needs --reason', async () => {
    const error = await failure(gate(plan([deploy('A', 'V1')]), await context({ breakGlass: true })));
    expect(error).toEqual(new UsageError('--break-glass needs --reason R: the reason is recorded in the journal with the write'));
  });

  it('another holder\'s lock refuses the write, naming the holder; --dry-run says a real run would be refused; the holder\'s own lock id goes through', async () => {
    const { id, v1 } = await asset();
    const acquired = await h.ahs(['lock', 'acquire', `${id}/ios/prod`, '--ttl', '10m', '--reason', 'release train', '--json']);
    expect(acquired.exitCode, acquired.stderr).toBe(0);
    const lockId = acquired.json().lockId as string;
    const plain = await context();
    const counted = await through(plain);
    const refused = await failure(gate(plan([deploy(id, v1)]), counted.ctx));
    expect(refused).toBeInstanceOf(BlockedError);
    expect(refused).toMatchObject({ blockedBy: 'lock' });
    expect(refused.message).toContain(`${id}/ios/prod`);
    expect(refused.message).toContain('release train');
    // A person's lock, no --lock-timeout: refused at once (no wait said, no prediction), explained from the cell the check read.
    expect(plain.io.err.text).toBe('');
    expect(counted.api.sent.filter((r) => isLockRead(r) && r.path.includes('/ahs-control-lock-') && r.query?.state === 'DEFAULT')).toHaveLength(1);
    const dry = await context({ dryRun: true });
    expect(await failure(gate(plan([deploy(id, v1)]), dry))).toBeInstanceOf(BlockedError);
    expect(dry.io.err.text).toContain('a real run would be refused: ');
    const mine = await context({ lockId });
    const passed = await gate(plan([deploy(id, v1)]), mine);
    await passed.end();
    // A holding command given the id renews the lock it holds, and leaves it held.
    const holding = await context({ lockId }, 'apply');
    const held = await gate(plan([deploy(id, v1)]), holding);
    // Taken beside the plan's first steps, held before the first that writes the scope.
    await held.before!([deploy(id, v1)]);
    expect(holding.io.err.text).toContain(`holding the lock on ${id}/ios/prod (lock id ${lockId}, given)`);
    await held.end();
    const status = await h.ahs(['lock', 'status', `${id}/ios/prod`, '--json']);
    expect(JSON.stringify(status.json())).toContain(lockId);
    expect((await h.ahs(['lock', 'release', `${id}/ios/prod`, '--lock-id', lockId])).exitCode).toBe(0);
    await (await gate(plan([deploy(id, v1)]), await context())).end();
  });

  it('a holding command takes a lock of its own for its run (a short lease, renewed) and gives it back; a dry run and a command that does not hold take none', async () => {
    const { id, v1 } = await asset();
    const status = async () => (await h.ahs(['lock', 'status', `${id}/ios/prod`, '--json'])).json();
    const ctx = await context({ lockTtl: '3s' }, 'apply');
    const held = await gate(plan([deploy(id, v1)]), ctx);
    await held.before!([deploy(id, v1)]);
    expect(held.ctx).not.toBe(ctx);
    expect(held.ctx.signal.aborted).toBe(false);
    const taken = await status();
    expect(taken).toMatchObject({ held: true, command: 'apply' });
    expect(taken.lockId).toMatch(/^run-[0-9a-f]{12}$/);
    // Its own short lease goes unsaid.
    expect(ctx.io.err.text).not.toContain('holding the lock');
    // Another run is refused while it is held: it watches the lease, which is renewed (its holder is alive).
    const other = await context();
    const refused = await failure(gate(plan([deploy(id, v1)]), other));
    expect(refused).toBeInstanceOf(BlockedError);
    expect(refused.message).toContain(`${id}/ios/prod is locked by a run that is alive (it renewed its lease)`);
    // Named as its record says: who, the command it runs.
    expect(refused.message).toContain(`held by ${DEMO_USER} (apply), lock id ${taken.lockId}`);
    expect(other.io.err.text).toContain(`is locked by another run (lock id ${taken.lockId}, lease ends `);
    await held.end();
    expect(await status()).toMatchObject({ held: false });
    await (await gate(plan([deploy(id, v1)]), await context())).end();
    // A dry run: checked only, no lock taken.
    const dry = await context({ dryRun: true }, 'apply');
    const predicted = await gate(plan([deploy(id, v1)]), dry);
    expect(predicted.before).toBeUndefined();
    await predicted.end();
    // A command that does not hold takes none.
    const deployer = await context({ lockTimeout: '5s' }, 'deploy');
    const checked = await gate(plan([deploy(id, v1)]), deployer);
    expect(checked.before).toBeUndefined();
    await checked.end();
    expect(await status()).toMatchObject({ held: false });
  });

  it('a holder that waits (--lock-timeout) for a lock released meanwhile takes it', async () => {
    const { id, v1 } = await asset();
    const other = await h.ahs(['lock', 'acquire', `${id}/ios/prod`, '--ttl', '10m', '--json']);
    const otherId = other.json().lockId as string;
    const ctx = await context({ lockTimeout: '20s' }, 'rollout');
    const waiting = gate(plan([deploy(id, v1)]), ctx);
    // The release comes while it waits (its wait line says so).
    for (let i = 0; i < 200 && !ctx.io.err.text.includes('is locked by another run'); i++) await new Promise((resolve) => setImmediate(resolve));
    expect((await h.ahs(['lock', 'release', `${id}/ios/prod`, '--lock-id', otherId])).exitCode).toBe(0);
    const held = await waiting;
    await held.before!([deploy(id, v1)]);
    const status = (await h.ahs(['lock', 'status', `${id}/ios/prod`, '--json'])).json();
    expect(status).toMatchObject({ held: true, command: 'rollout' });
    expect(status.lockId).not.toBe(otherId);
    await held.end();
  });

  it('a freeze refuses a write, naming it, who and why; rollback goes through; --break-glass --reason goes through, said and recorded', async () => {
    const { id, v1 } = await asset();
    const frozen = await h.ahs(['freeze', 'staging', '--for', '2h', '--reason', 'holiday', '--json']);
    expect(frozen.exitCode, frozen.stderr).toBe(0);
    try {
      const refused = await failure(gate(plan([deploy(id, v1, 'staging')]), await context()));
      expect(refused).toMatchObject({ blockedBy: 'freeze', until: frozen.json().until });
      expect(refused.message).toMatch(new RegExp(`^staging is frozen \\(.+\\) by ${DEMO_USER} at .+: holiday; frozen until .+; nothing was sent \\(rollback, rollout abort and version unblock still go through; --break-glass --reason R lets one write through, recorded\\)$`));
      for (const command of ['rollback', 'rollout abort', 'version unblock']) await (await gate(plan([deploy(id, v1, 'staging')]), await context({}, command))).end();
      // A plan may say it is exempt itself.
      await (await gate(plan([deploy(id, v1, 'staging')], { control: { freezeExempt: true } }), await context())).end();
      const glass = await context({ breakGlass: true, reason: 'INC-7' });
      const through = await gate(plan([deploy(id, v1, 'staging')], { journal: { command: 'deploy' } }), glass);
      expect(through.plan.journal).toMatchObject({ command: 'deploy', control: { action: 'break-glass', target: 'staging', reason: 'INC-7', freezes: [{ env: 'staging', window: expect.any(String) }] } });
      expect(glass.io.err.text).toMatch(/--break-glass: going through the freeze of staging \(.+\); recorded with the reason "INC-7"/);
      // Another environment is not frozen.
      const other = plan([deploy(id, v1, 'dev')]);
      expect((await gate(other, await context())).plan).toBe(other);
      // Two frozen environments in one write: both named, recorded and said.
      expect((await h.ahs(['freeze', 'dev', '--for', '2h', '--reason', 'audit'])).exitCode).toBe(0);
      const twice = await context({ breakGlass: true, reason: 'INC-8' });
      const both = await gate(plan([deploy(id, v1, 'staging'), deploy(id, v1, 'dev')]), twice);
      const target = (both.plan.journal as { control?: { target?: string } } | undefined)?.control?.target;
      expect(target?.split(',').sort()).toEqual(['dev', 'staging']);
      expect(twice.io.err.text).toMatch(/--break-glass: going through the freeze of (staging|dev) \(.+\), (staging|dev) \(.+\); recorded with the reason "INC-8"/);
    } finally {
      expect((await h.ahs(['unfreeze', 'staging'])).exitCode).toBe(0);
      expect((await h.ahs(['unfreeze', 'dev'])).exitCode).toBe(0);
    }
  });

  it('a blocked version is refused where it would be made LIVE or DEFAULT, naming who and why; OFFLINE goes through', async () => {
    const { id, v1, v2 } = await asset();
    const blocked = await h.ahs(['version', 'block', id, v2, '--reason', 'crash on start', '--env', 'prod']);
    expect(blocked.exitCode, blocked.stderr).toBe(0);
    const refused = await failure(gate(plan([deploy(id, v2)]), await context()));
    expect(refused).toMatchObject({ blockedBy: 'version', until: null });
    expect(refused.message).toMatch(new RegExp(`^version ${v2} of ${id} is blocked by ${DEMO_USER} at .+: crash on start; nothing was sent \\(ahs version unblock ${id} ${v2} --reason R lifts it\\)$`));
    await (await gate(plan([deploy(id, v2, 'prod', 'OFFLINE')]), await context())).end();
    await (await gate(plan([deploy(id, v1)]), await context())).end();
  });
});

describe('what a raw request writes (ahs api)', () => {
  const P = '/api/v2/demo';
  const raw = (path: unknown, extra: Record<string, unknown> = {}) => step('api.request', { method: 'POST', path, ...extra });
  const ch = (assetId: string, env: string, platform = 'ios') => ({ kind: 'channel', assetId, platform, env });
  const none = { scopes: [], promotes: [] };
  const rows: Array<[string, Step, string | undefined, unknown]> = [
    ['a LIVE deploy naming its channel', raw(`${P}/va/A/versions/V/deploy`, { query: { targetPlatformId: 'ios' }, body: { envId: 'prod', intent: 'LIVE' } }), 'dev', { scopes: [ch('A', 'prod')], promotes: [{ assetId: 'A', versionId: 'V' }] }],
    ['a DEFAULT deploy, its channel in the path\'s query', raw(`${P}/va/A/versions/V/deploy?targetPlatformId=web&envId=stg`, { body: { intent: 'DEFAULT' } }), undefined, { scopes: [ch('A', 'stg', 'web')], promotes: [{ assetId: 'A', versionId: 'V' }] }],
    ['an OFFLINE deploy', raw(`${P}/va/A/versions/V/deploy`, { query: { targetPlatformId: 'ios' }, body: { envId: 'prod', intent: 'OFFLINE' } }), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['a write of an asset in an environment, no platform: the environment', raw(`${P}/va/A/undeploy`, { body: { envId: 'prod', intent: 'LIVE' } }), undefined, { scopes: [{ kind: 'env', env: 'prod' }], promotes: [] }],
    ['another action of a version', raw(`${P}/va/A/versions/V/undeploy`, { body: { envId: 'prod', intent: 'LIVE', targetPlatformId: 'ios' } }), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['a deploy not under versions', raw(`${P}/va/A/other/V/deploy`, { body: { envId: 'prod', intent: 'LIVE', targetPlatformId: 'ios' } }), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['the versions of an asset', raw(`${P}/va/A/versions`, { body: { envId: 'prod', intent: 'LIVE', targetPlatformId: 'ios' } }), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['the environment named in the body first, then the query, then the path', raw(`${P}/va/A?envId=path`, { query: { envId: 'query' }, body: { envId: 'body' } }), undefined, { scopes: [{ kind: 'env', env: 'body' }], promotes: [] }],
    ['the query before the path', raw(`${P}/va/A?envId=path`, { query: { envId: 'query' }, body: { envId: '' } }), undefined, { scopes: [{ kind: 'env', env: 'query' }], promotes: [] }],
    ['the path when nothing else names one (an empty or non-string value does not)', raw(`${P}/va/A?envId=path`, { query: { envId: '' }, body: { envId: 7 } }), undefined, { scopes: [{ kind: 'env', env: 'path' }], promotes: [] }],
    ['a platform named empty: the environment', raw(`${P}/va/A`, { body: { envId: 'prod', targetPlatformId: '' } }), undefined, { scopes: [{ kind: 'env', env: 'prod' }], promotes: [] }],
    ['an asset id encoded in the path', raw(`${P}/va/my%20asset/versions/V%2F1/deploy`, { body: { envId: 'prod', intent: 'LIVE', targetPlatformId: 'ios' } }), undefined, { scopes: [ch('my asset', 'prod')], promotes: [{ assetId: 'my asset', versionId: 'V/1' }] }],
    ['a segment that does not decode: as it is', raw(`${P}/va/A%E0%A4%A`, { body: { envId: 'prod' }, query: { targetPlatformId: 'ios' } }), undefined, { scopes: [ch('A%E0%A4%A', 'prod')], promotes: [] }],
    ['a write of an asset naming no environment: none', raw(`${P}/va/A`, { body: { assetName: 'x' } }), 'prod', none],
    ['the asset list: none', raw(`${P}/va`, { body: { envId: 'prod' } }), 'prod', none],
    ['a collection in the run\'s environment', raw(`${P}/vc/C/items`), 'prod', { scopes: [{ kind: 'collection', collectionId: 'C', env: 'prod' }], promotes: [] }],
    ['a collection in the environment it names', raw(`${P}/vc/C/deploy`, { body: { envId: 'dev' } }), 'prod', { scopes: [{ kind: 'collection', collectionId: 'C', env: 'dev' }], promotes: [] }],
    ['a collection and no environment: none', raw(`${P}/vc/C`), undefined, none],
    ['the collection list: none', raw(`${P}/vc`), 'prod', none],
    ['another root: none', raw(`${P}/users/U`, { body: { envId: 'prod' } }), 'prod', none],
    ['a path without the domain\'s prefix: none', raw('/va/A', { body: { envId: 'prod' } }), 'prod', none],
    ['no path: none', raw(undefined, { body: { envId: 'prod' } }), 'prod', none],
    // As the client sends it (the URL of the base and the path): the query is all after the first ?, dot segments resolved, no fragment.
    ['a query holding a second ?: the environment after it', raw(`${P}/va/A/versions/V/deploy?note=a?b&envId=prod&targetPlatformId=ios`, { body: { intent: 'LIVE' } }), undefined, { scopes: [ch('A', 'prod')], promotes: [{ assetId: 'A', versionId: 'V' }] }],
    ['dot segments: the path they resolve to', raw(`${P}/va/A/../../vc/C`), 'prod', { scopes: [{ kind: 'collection', collectionId: 'C', env: 'prod' }], promotes: [] }],
    ['encoded dot segments too', raw(`${P}/vc/C/%2e%2e/%2E%2E/va/A`, { body: { envId: 'prod', targetPlatformId: 'ios' } }), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['a fragment, not sent: it names nothing', raw(`${P}/va/A#?envId=prod&targetPlatformId=ios`), 'prod', none],
    ['a deploy with no body, its channel in the query: no promotion', raw(`${P}/va/A/versions/V/deploy?envId=prod&targetPlatformId=ios`), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['an empty version id: no promotion', raw(`${P}/va/A/versions//deploy`, { body: { envId: 'prod', intent: 'LIVE', targetPlatformId: 'ios' } }), undefined, { scopes: [ch('A', 'prod')], promotes: [] }],
    ['a path no URL is made of: none', raw(':0x', { body: { envId: 'prod' } }), 'prod', none],
  ];
  it.each(rows)('%s', (_name, s, env, intent) => {
    expect(intentOf(s, env)).toEqual(intent);
  });

  it('a deploy or an undeploy with no body writes nothing it can name; an unknown kind nothing', () => {
    expect(intentOf(step('version.deploy', { assetId: 'A', versionId: 'V', platform: 'ios' }), 'prod')).toEqual({ scopes: [], promotes: [] });
    expect(intentOf(step('asset.undeploy', { assetId: 'A' }), 'prod')).toEqual({ scopes: [], promotes: [] });
    expect(intentOf(step('version.upload', { assetId: 'A', envId: 'prod', collectionId: 'C' }), 'prod')).toEqual({ scopes: [], promotes: [] });
  });
});

describe('how a run coordinates: its lock, its wait, its lease', () => {
  const ctx = (globals: GlobalOptions, env: Record<string, string> = {}) => ({ globals, io: { env } as never });
  it.each<[string, GlobalOptions, Record<string, string>, boolean]>([
    ['nothing given', {}, {}, false],
    ['--lock-id', { lockId: 'abc123' }, {}, true],
    ['AHS_LOCK_ID', {}, { AHS_LOCK_ID: 'abc123' }, true],
    ['AHS_LOCK_ID empty', {}, { AHS_LOCK_ID: '' }, false],
    ['--lock-timeout', { lockTimeout: '5s' }, {}, true],
    ['--lock-ttl', { lockTtl: '5s' }, {}, true],
    ['--timeout only', { timeout: 30 }, {}, false],
  ])('%s', (_name, globals, env, expected) => {
    expect(coordinates(ctx(globals, env))).toBe(expected);
  });

  it('--lock-ttl as ms, 1s or more; 15 s when not given', () => {
    expect(runTtlMs({ globals: {} })).toBe(DEFAULT_RUN_TTL_MS);
    expect(DEFAULT_RUN_TTL_MS).toBe(15_000);
    expect(runTtlMs({ globals: { lockTtl: '1s' } })).toBe(1000);
    expect(runTtlMs({ globals: { lockTtl: '2m' } })).toBe(120_000);
    for (const given of ['999ms', '0s', 'soon']) {
      expect(() => runTtlMs({ globals: { lockTtl: given } })).toThrow(new UsageError(`--lock-ttl ${JSON.stringify(given)} is not a lease: give a duration of 1s or more, such as 15s`));
    }
  });
});

// The gate against a service that answers otherwise than the emulator does by
// itself: the run's own client, each request seen first by a hook that may
// fail it, hold it while something else happens, or send it.
async function through(ctx: Ctx, hook?: Hook): Promise<{ ctx: Ctx; api: Scripted }> {
  const api = scripted(await ctx.api(), hook);
  return { ctx: { ...ctx, api: async () => api } as Ctx, api };
}
const isLockWrite = (r: RequestOptions) => r.method !== 'GET' && /\/va\/ahs-control-lock/.test(r.path);
const isLockRead = (r: RequestOptions) => r.method === 'GET' && /\/va\/ahs-control-lock[^/]*\/asset-urls$/.test(r.path);
const isControlRead = (r: RequestOptions) => r.method === 'GET' && /\/va\/ahs-control\/versions$/.test(r.path);
const refusal = (status: number, title: string) => new ApiError(status, { type: 'about:blank', title, status, detail: title });

describe('the gate, further', () => {
  async function asset(): Promise<{ id: string; v1: string; v2: string; scope: string }> {
    const id = uid('cc');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    const v2 = await h.uploadVersion(id, 'ios', '1.1');
    return { id, v1, v2, scope: `${id}/ios/prod` };
  }
  const status = async (scope: string) => (await h.ahs(['lock', 'status', scope, '--json'])).json();
  async function acquire(scope: string, ...extra: string[]): Promise<string> {
    const taken = await h.ahs(['lock', 'acquire', scope, '--ttl', '10m', '--json', ...extra]);
    expect(taken.exitCode, taken.stderr).toBe(0);
    return taken.json().lockId as string;
  }

  it('the command a plan names decides its exemption and its lock before the run\'s', async () => {
    const { id, v1, scope } = await asset();
    expect((await h.ahs(['freeze', 'staging', '--for', '1h', '--reason', 'audit'])).exitCode).toBe(0);
    try {
      await (await gate(plan([deploy(id, v1, 'staging')], { control: { command: 'rollback' } }), await context({}, 'deploy'))).end();
      expect(await failure(gate(plan([deploy(id, v1, 'staging')], { control: { command: 'deploy' } }), await context({}, 'rollback')))).toMatchObject({ blockedBy: 'freeze' });
    } finally {
      expect((await h.ahs(['unfreeze', 'staging'])).exitCode).toBe(0);
    }
    // A plan that says it holds takes its lock whatever the command; one that says it does not takes none.
    const told = await gate(plan([deploy(id, v1)], { control: { hold: true, command: 'deploy', ttlMs: 120_000 } }), await context());
    await told.before!([deploy(id, v1)]);
    const held = await status(scope);
    expect(held).toMatchObject({ held: true, command: 'deploy' });
    expect(Date.parse(held.leaseEnd) - Date.parse(held.since)).toBeGreaterThanOrEqual(120_000);
    await told.end();
    expect(await status(scope)).toMatchObject({ held: false });
    const not = await gate(plan([deploy(id, v1)], { control: { hold: false } }), await context({ lockTtl: '5s' }, 'apply'));
    expect(not.before).toBeUndefined();
    await not.end();
  });

  it('the run\'s environment names what a write without one writes; settings that cannot be read name none', async () => {
    const collection = uid('col');
    // A collection's lock names an existing one.
    expect((await h.call('POST', '/vc', { collectionId: collection, collectionName: collection, allowedAssetTypes: ['1001'], createdBy: DEMO_USER })).status).toBe(201);
    const otherId = await acquire(`${collection}@prod`);
    const upload = plan([step('item.upload', { collectionId: collection })]);
    const refused = await failure(gate(upload, await context({}, 'item upload', { AHS_ENV: 'prod' })));
    expect(refused).toMatchObject({ blockedBy: 'lock' });
    expect(refused.message).toContain(`${collection}@prod is locked: held by`);
    const ctx = await context({}, 'item upload', { AHS_ENV: 'prod' });
    const unreadable = { ...ctx, settings: () => Promise.reject(new Error('no settings')) } as unknown as Ctx;
    expect((await gate(upload, unreadable)).plan).toBe(upload);
    expect((await h.ahs(['lock', 'release', `${collection}@prod`, '--lock-id', otherId])).exitCode).toBe(0);
  });

  it('a write that is not a holder waits with --lock-timeout for a lock released meanwhile, saying so; one that is not released is refused after the wait', async () => {
    const { id, v1, scope } = await asset();
    const otherId = await acquire(scope);
    const ctx = await context({ lockTimeout: '20s' }, 'deploy');
    const waiting = gate(plan([deploy(id, v1)]), ctx);
    for (let i = 0; i < 400 && !ctx.io.err.text.includes('waiting up to'); i++) await new Promise((resolve) => setImmediate(resolve));
    expect(ctx.io.err.text).toMatch(new RegExp(`${scope} is locked by another run \\(lock id ${otherId}, lease ends \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\): waiting up to 20s \\(--lock-timeout\\)`));
    expect((await h.ahs(['lock', 'release', scope, '--lock-id', otherId])).exitCode).toBe(0);
    const open = await waiting;
    expect(open.before).toBeUndefined();
    await open.end();
    const againId = await acquire(scope);
    const short = await failure(gate(plan([deploy(id, v1)]), await context({ lockTimeout: '300ms' }, 'deploy')));
    expect(short).toBeInstanceOf(BlockedError);
    expect(short.message).toContain(`lock id ${againId}`);
    expect(short.message).toContain('(waited 1s, --lock-timeout)');
    expect((await h.ahs(['lock', 'release', scope, '--lock-id', againId])).exitCode).toBe(0);
  });

  it('another run\'s lease is watched within --timeout: one that outlasts it refuses at once; without readable settings, within 30 s', async () => {
    const { id, v1, scope } = await asset();
    const base = await context();
    const lease = await acquireLock({ settings: base.settings, deliveryClient: base.deliveryClient }, await base.api(), { scope: parseScopeOrThrow(scope), lockId: newRunLockId(), ttlMs: 20_000, user: DEMO_USER, command: 'apply', env: {}, waitMs: 0, signal: base.signal });
    const short = await context({ timeout: 5 });
    const refused = await failure(gate(plan([deploy(id, v1)]), short));
    expect(refused.message).toMatch(new RegExp(`^${scope} is locked: held by .*lock id ${lease.lockId}`));
    // Settings that cannot be read: the watch's own budget, 30 s. The lease is over when the watch reads the cell again (the
    // service answers it free; the emulator's clock is left as it is: moved, it would read to the second only, for the leases of the tests after).
    let cellReads = 0;
    const free = { results: [], totalResults: 0, pageNumber: 1, pageSize: 1000 };
    const blind = await through({ ...(await context()), settings: () => Promise.reject(new Error('no settings')) } as unknown as Ctx, (request, send) =>
      isLockRead(request) && request.path.includes(`/${lockAssetOf(parseScopeOrThrow(scope))}/`) && ++cellReads >= 2 ? Promise.resolve(free) : send(),
    );
    const open = await gate(plan([deploy(id, v1)]), blind.ctx);
    expect(open.plan.steps).toHaveLength(1);
    expect(cellReads).toBe(3);
    await open.end();
  });

  it('a write that meets other runs\' leases in turn watches each, and says once that it waits', async () => {
    const { id, v1, scope } = await asset();
    const sentinel = lockAssetOf(parseScopeOrThrow(scope));
    const lease = (versionId: string, lockId: string) => {
      const now = Date.now();
      const versionName = lockName({ lockId, leaseEnd: Math.ceil((now + 1000) / 1000) * 1000, since: now - 5000 });
      return { assetId: sentinel, version: 1, versionId, versionName, targetPlatform: 'generic', assetType: '9999', secured: false, state: 'DEFAULT', envId: 'prod' };
    };
    // The cell as the service answers each read: a lease, gone when watched; another's; gone; free.
    const answers = [[lease('L1', 'run-00000000aaaa')], [], [lease('L2', 'run-00000000bbbb')], [], []];
    let reads = 0;
    const base = await context();
    const { ctx } = await through(base, (request, send) => {
      if (!(isLockRead(request) && request.path.includes(`/${sentinel}/`))) return send();
      const results = answers[Math.min(reads++, answers.length - 1)]!;
      return Promise.resolve({ results, totalResults: results.length, pageNumber: 1, pageSize: 1000 });
    });
    const open = await gate(plan([deploy(id, v1)]), ctx);
    expect(reads).toBe(5);
    const said = base.io.err.text.split('\n').filter((l) => l.includes('is locked by another run'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(new RegExp(`^${scope} is locked by another run \\(lock id run-00000000aaaa, lease ends [^)]+\\): waiting to see whether it renews it \\(a killed run's lease ends by itself\\)$`));
    await open.end();
  });

  it('a dry run that meets another run\'s lease says at once that a real run would be refused, watching nothing', async () => {
    const { id, v1, scope } = await asset();
    const holder = await gate(plan([deploy(id, v1)]), await context({ lockTtl: '30s' }, 'apply'));
    await holder.before!([deploy(id, v1)]);
    try {
      const dry = await context({ dryRun: true }, 'deploy');
      const refused = await failure(gate(plan([deploy(id, v1)]), dry));
      expect(refused).toMatchObject({ blockedBy: 'lock' });
      expect(refused.message).toMatch(new RegExp(`^${scope} is locked: held by .*lock id run-`));
      expect(dry.io.err.text).toContain('a real run would be refused: ');
      expect(dry.io.err.text).not.toContain('waiting');
    } finally {
      await holder.end();
    }
  });

  it('a holding run given a lock id that holds nothing takes a lock of its own, and gives it back', async () => {
    const { id, v1, scope } = await asset();
    const ctx = await context({ lockId: 'nothing-held-1' }, 'apply');
    const held = await gate(plan([deploy(id, v1)]), ctx);
    await held.before!([deploy(id, v1)]);
    const taken = await status(scope);
    expect(taken).toMatchObject({ held: true, command: 'apply' });
    expect(taken.lockId).toMatch(/^run-/);
    expect(ctx.io.err.text).not.toContain('holding the lock');
    await held.end();
    expect(await status(scope)).toMatchObject({ held: false });
  });

  it('a holding run waiting with --lock-timeout says what it waits for', async () => {
    const { id, v1, scope } = await asset();
    const otherId = await acquire(scope);
    const ctx = await context({ lockTimeout: '20s' }, 'rollout');
    const held = await gate(plan([deploy(id, v1)]), ctx);
    const taking = held.before!([deploy(id, v1)]);
    for (let i = 0; i < 400 && !ctx.io.err.text.includes('waiting for it'); i++) await new Promise((resolve) => setImmediate(resolve));
    expect(ctx.io.err.text).toContain(`${scope} is locked by another run: waiting for it (--lock-timeout 20s)`);
    expect((await h.ahs(['lock', 'release', scope, '--lock-id', otherId])).exitCode).toBe(0);
    await taking;
    expect(await status(scope)).toMatchObject({ held: true, command: 'rollout' });
    await held.end();
  });

  it('a holding run that meets another run\'s live lease watches it, says so, and is refused when it renews', async () => {
    const { id, v1, scope } = await asset();
    const other = await gate(plan([deploy(id, v1)]), await context({ lockTtl: '1s' }, 'apply'));
    await other.before!([deploy(id, v1)]);
    try {
      const otherId = (await status(scope)).lockId as string;
      const ctx = await context({ lockTtl: '5s' }, 'apply');
      const held = await gate(plan([deploy(id, v1)]), ctx);
      const refused = await failure(held.before!([deploy(id, v1)]));
      expect(refused).toBeInstanceOf(BlockedError);
      expect(refused.message).toContain(`${scope} is locked by a run that is alive (it renewed its lease)`);
      expect(refused.message).toContain(`held by ${DEMO_USER} (apply), lock id ${otherId}`);
      expect(ctx.io.err.text).toMatch(new RegExp(`${scope} is locked by another run \\(lock id ${otherId}, lease ends [^)]+\\): waiting to see whether it renews it \\(a killed run's lease ends by itself\\)`));
      await held.end();
    } finally {
      await other.end();
    }
  });

  it('a holding run that cannot take a lock another holder has: its steps beside the lock go, the first that writes the scope is refused', async () => {
    const { id, v1, scope } = await asset();
    const otherId = await acquire(scope);
    const held = await gate(plan([deploy(id, v1)], { control: { hold: true } }), await context());
    await held.before!([step('version.upload', { assetId: id }), step('asset.update', { assetId: id })]);
    const refused = await failure(held.before!([step('version.upload', { assetId: id }), deploy(id, v1)]));
    expect(refused).toMatchObject({ blockedBy: 'lock' });
    expect(refused.message).toContain(`lock id ${otherId}`);
    await held.end();
    expect(await status(scope)).toMatchObject({ held: true, lockId: otherId });
    expect((await h.ahs(['lock', 'release', scope, '--lock-id', otherId])).exitCode).toBe(0);
  });

  it.each<[string, Error, boolean]>([
    ['a 400', refusal(400, 'unknown environment'), true],
    ['a 403', refusal(403, 'the key is scoped to another environment'), true],
    ['a 499', refusal(499, 'odd'), true],
    ['a 409', refusal(409, 'conflict'), false],
    ['a 500', refusal(500, 'broken'), false],
    ['a lost answer', new NetworkError('the connection was reset'), false],
  ])('a lock the service refuses to record (%s): said, and the run goes on without it only for a refusal of its own', async (_name, error, goesOn) => {
    const { id, v1, scope } = await asset();
    const base = await context({ lockTtl: '5s' }, 'apply');
    const { ctx } = await through(base, (request, send) => (isLockWrite(request) && request.method === 'POST' && /\/versions$/.test(request.path) ? Promise.reject(error) : send()));
    const held = await gate(plan([deploy(id, v1)]), ctx);
    if (goesOn) {
      await held.before!([deploy(id, v1)]);
      expect(base.io.err.text).toContain(`the lock on ${scope} could not be taken (the service answered ${(error as ApiError).status}: ${error.message}); going on without it`);
    } else {
      expect(await failure(held.before!([deploy(id, v1)]))).toBe(error);
      expect(base.io.err.text).not.toContain('going on without it');
    }
    await held.end();
    expect(await status(scope)).toMatchObject({ held: false });
  });

  it('a release that fails is said, the lease left to end by itself', async () => {
    const { id, v1, scope } = await asset();
    const base = await context({}, 'apply');
    let ending = false;
    const { ctx } = await through(base, (request, send) => (ending && isLockWrite(request) ? Promise.reject(new NetworkError('the connection was reset')) : send()));
    const held = await gate(plan([deploy(id, v1)], { control: { hold: true } }), ctx);
    await held.before!([deploy(id, v1)]);
    ending = true;
    await held.end();
    expect(base.io.err.text).toContain(`the lock on ${scope} was not released (the connection was reset); its lease ends by itself within 15s`);
    expect(await status(scope)).toMatchObject({ held: true });
    h.emu.advanceClock(16_000);
    expect(await status(scope)).toMatchObject({ held: false, expired: true });
  });

  it('an environment\'s lock: another holder\'s refuses a holding run at the gate; given its id, the run renews it and takes no lock of its own', async () => {
    const { id, v1 } = await asset();
    const channelScope = `${id}/ios/dev`;
    const envLock = await acquire('dev');
    try {
      expect(await failure(gate(plan([deploy(id, v1, 'dev')]), await context({ lockTtl: '5s' }, 'apply')))).toMatchObject({ blockedBy: 'lock' });
      const ctx = await context({ lockId: envLock }, 'apply');
      const held = await gate(plan([deploy(id, v1, 'dev')]), ctx);
      await held.before!([deploy(id, v1, 'dev')]);
      expect(ctx.io.err.text).toContain(`holding the lock on dev (lock id ${envLock}, given)`);
      expect(await status(channelScope)).toMatchObject({ held: false });
      await held.end();
      expect(await status('dev')).toMatchObject({ held: true, lockId: envLock });
    } finally {
      expect((await h.ahs(['lock', 'release', 'dev', '--lock-id', envLock])).exitCode).toBe(0);
    }
  });

  it('a CI job\'s re-run writes through the lock its earlier attempt left; the same attempt\'s other leg (or another job) is refused', async () => {
    const { id, v1, scope } = await asset();
    const job = { GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '77', GITHUB_JOB: 'deploy' };
    const key = ciJobOf(job)!.key;
    const base = await context();
    const earlier = await acquireLock({ settings: base.settings, deliveryClient: base.deliveryClient }, await base.api(), { scope: parseScopeOrThrow(scope), lockId: ciLockId(key, 1, 'aaaaaa'), ttlMs: 600_000, user: DEMO_USER, command: 'lock acquire', env: job, waitMs: 0, signal: base.signal });
    await (await gate(plan([deploy(id, v1)]), await context({}, 'deploy', { ...job, GITHUB_RUN_ATTEMPT: '2' }))).end();
    for (const env of [{ ...job, GITHUB_RUN_ATTEMPT: '1' }, { ...job, GITHUB_JOB: 'test', GITHUB_RUN_ATTEMPT: '2' }]) {
      expect(await failure(gate(plan([deploy(id, v1)]), await context({}, 'deploy', env)))).toMatchObject({ blockedBy: 'lock' });
    }
    expect((await h.ahs(['lock', 'release', scope, '--lock-id', earlier.lockId])).exitCode).toBe(0);
  });

  it('a cell whose free version cannot be made: the run ends all the same, its lock left to end by itself, said', async () => {
    const { id, v1, scope } = await asset();
    let taken = false;
    let refused = 0;
    const base = await context({ lockTtl: '30s' }, 'apply');
    // The lock's own upload goes; once it is taken, the free version's is refused.
    const { ctx } = await through(base, async (request, send) => {
      if (taken && request.method === 'POST' && /\/va\/ahs-control-lock-[^/]+\/versions$/.test(request.path)) {
        refused++;
        throw refusal(403, 'no uploads now');
      }
      const answer = await send();
      if (request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'DEFAULT') taken = true;
      return answer;
    });
    const held = await gate(plan([deploy(id, v1)]), ctx);
    await held.before!([deploy(id, v1)]);
    await held.end();
    expect(refused).toBeGreaterThan(0);
    expect(base.io.err.text).toContain(`the lock on ${scope} was not released (no uploads now); its lease ends by itself within 30s`);
    expect(await status(scope)).toMatchObject({ held: true, command: 'apply' });
  });

  it('a renewal is a new lease of the same holder since the same time; the lease it replaced is deleted', async () => {
    const { id, v1, scope } = await asset();
    let renewed = (): void => undefined;
    const renewal = new Promise<void>((resolve) => (renewed = resolve));
    let promotions = 0;
    const refused: unknown[] = [];
    // A lease of 3 s, renewed every second: room for a slow run (the mutation run's instrumented code) to read it between.
    const { ctx } = await through(await context({ lockTtl: '3s' }, 'apply'), async (request, send) => {
      const promotion = request.method === 'POST' && request.path.includes('/ahs-control-lock-') && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'DEFAULT';
      const answer = await send().catch((error: unknown) => {
        if (promotion) refused.push(error);
        throw error;
      });
      if (promotion && ++promotions === 2) renewed();
      return answer;
    });
    const held = await gate(plan([deploy(id, v1)]), ctx);
    await held.before!([deploy(id, v1)]);
    const first = await status(scope);
    await renewal;
    const second = await status(scope);
    expect(second).toMatchObject({ held: true, lockId: first.lockId, since: first.since, command: 'apply' });
    expect(second.versionId).not.toBe(first.versionId);
    // Each renewal promoted over the lease it read then (none refused: not over the cell the gate read before the lock).
    expect(refused).toEqual([]);
    await held.end();
    expect((await h.records(lockAssetOf(parseScopeOrThrow(scope)))).filter((r) => r.includes(`/${first.versionId}=`))).toEqual([]);
  });

  it('a renewal waits for nobody: given --lock-timeout, it finds another run\'s lease in its place and stops the run at once', async () => {
    const { id, v1, scope } = await asset();
    let takeover = false;
    let otherId: string | undefined;
    const base = await context({ lockTtl: '1s', lockTimeout: '20s' }, 'apply');
    const { ctx } = await through(base, async (request, send) => {
      if (!takeover || !isLockRead(request) || !request.path.includes('/ahs-control-lock-') || request.query?.state !== 'DEFAULT') return send();
      takeover = false;
      // The renewal's read, held while the lock is broken and another run's lease (not renewed) takes its place.
      expect((await h.ahs(['lock', 'break', scope, '--reason', 'taken'])).exitCode).toBe(0);
      otherId = newRunLockId();
      const other = await context();
      await acquireLock({ settings: other.settings, deliveryClient: other.deliveryClient }, await other.api(), { scope: parseScopeOrThrow(scope), lockId: otherId, ttlMs: 20_000, user: DEMO_USER, command: 'apply', env: {}, waitMs: 0, signal: other.signal });
      return send();
    });
    const held = await gate(plan([deploy(id, v1)]), ctx);
    await held.before!([deploy(id, v1)]);
    const stopped = new Promise((resolve) => held.ctx.signal.addEventListener('abort', resolve, { once: true }));
    takeover = true;
    await stopped;
    const lost = held.ctx.signal.reason as BlockedError;
    expect(lost).toBeInstanceOf(BlockedError);
    expect(lost.message).toMatch(new RegExp(`^${scope} is locked: held by .*lock id ${otherId}, [^;]*; nothing was sent`));
    expect(base.io.err.text).not.toContain('waiting');
    await held.end();
    expect(await status(scope)).toMatchObject({ held: true, lockId: otherId });
  });

  it('a renewal that finds the lock taken stops the run through its signal, naming the new holder; one that fails stops it so', async () => {
    const { id, v1, scope } = await asset();
    let otherId: string | undefined;
    let renewals = 0;
    const base = await context({ lockTtl: '1s' }, 'apply');
    const { ctx } = await through(base, async (request, send) => {
      // The renewal's read of its cell's Default (not the sweep's or the free version's reads beside the run).
      if (renewals === 0 || !isLockRead(request) || !request.path.includes('/ahs-control-lock-') || request.query?.state !== 'DEFAULT') return send();
      renewals = 0;
      // The renewal's read, held while another holder breaks the lock and takes it.
      expect((await h.ahs(['lock', 'break', scope, '--reason', 'taken'])).exitCode).toBe(0);
      otherId = await acquire(scope);
      return send();
    });
    const held = await gate(plan([deploy(id, v1)]), ctx);
    await held.before!([deploy(id, v1)]);
    const stopped = new Promise((resolve) => held.ctx.signal.addEventListener('abort', resolve, { once: true }));
    renewals = 1;
    await stopped;
    const lost = held.ctx.signal.reason as BlockedError;
    expect(lost).toBeInstanceOf(BlockedError);
    expect(lost.message).toMatch(new RegExp(`^${scope} is locked: held by .*lock id ${otherId}`));
    await held.end();
    expect(await status(scope)).toMatchObject({ held: true, lockId: otherId });
    expect((await h.ahs(['lock', 'release', scope, '--lock-id', otherId!])).exitCode).toBe(0);

    let failing = false;
    const next = await context({ lockTtl: '1s' }, 'apply');
    const broken = await through(next, (request, send) => (failing && isLockRead(request) ? Promise.reject(new Error('the service went away')) : send()));
    const run = await gate(plan([deploy(id, v1)]), broken.ctx);
    await run.before!([deploy(id, v1)]);
    const cut = new Promise((resolve) => run.ctx.signal.addEventListener('abort', resolve, { once: true }));
    failing = true;
    await cut;
    failing = false;
    expect(run.ctx.signal.reason).toEqual(new BlockedError(`the lock on ${scope} could not be renewed (change control could not be read (the service went away): the write was stopped, nothing was sent; ahs lock status and ahs freeze list read it); the run stopped before its next write`, 'lock'));
    await run.end();
  });

  it('a holding run: its reason on its lock; its signal heard by many requests at once without a warning; nothing deleted that it did not replace', async () => {
    const { id, v1, scope } = await asset();
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on('warning', warned);
    try {
      const { ctx, api } = await through(await context({ lockTtl: '30s', reason: 'release train' }, 'apply'));
      const held = await gate(plan([deploy(id, v1)]), ctx);
      await held.before!([deploy(id, v1)]);
      expect(await status(scope)).toMatchObject({ held: true, command: 'apply', reason: 'release train' });
      // Taken from the cell the check read: read once.
      expect(api.sent.filter((r) => isLockRead(r) && r.path.includes('/ahs-control-lock-') && r.query?.state === 'DEFAULT')).toHaveLength(1);
      // An apply's uploads: more than 10 requests listening to the run's signal at once.
      for (let i = 0; i < 12; i++) held.ctx.signal.addEventListener('abort', () => undefined);
      await new Promise((resolve) => setImmediate(resolve));
      await held.end();
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
      // A lock taken afresh replaced no lease of its own: no version deleted.
      expect(api.sent.filter((r) => r.method === 'DELETE')).toEqual([]);
    } finally {
      process.off('warning', warned);
    }
  });

  it('Ctrl-C reaches a holding run\'s requests through its own signal, until the run ends', async () => {
    const { id, v1 } = await asset();
    const outer = new AbortController();
    const ctx = await runs.context({ AHS_JOURNAL: '' }, { lockTtl: '5s' }, { command: 'apply', arguments: [] }, outer.signal);
    const held = await gate(plan([deploy(id, v1)]), ctx);
    await held.before!([deploy(id, v1)]);
    expect(held.ctx.signal.aborted).toBe(false);
    const reason = new Error('interrupted');
    outer.abort(reason);
    expect(held.ctx.signal.aborted).toBe(true);
    expect(held.ctx.signal.reason).toBe(reason);
    await held.end();
    // Ended: the run's signal no longer follows Ctrl-C (another channel: the cut run's lease is left to end by itself).
    const second = await asset();
    const later = new AbortController();
    const again = await gate(plan([deploy(second.id, second.v1)]), await runs.context({ AHS_JOURNAL: '' }, { lockTtl: '5s' }, { command: 'apply', arguments: [] }, later.signal));
    await again.before!([deploy(second.id, second.v1)]);
    await again.end();
    later.abort(new Error('after'));
    expect(again.ctx.signal.aborted).toBe(false);
    // Cut after the gate's reads, before it holds: the run's signal is cut already, and the lock is not taken.
    const gone = new AbortController();
    const cutBase = await runs.context({ AHS_JOURNAL: '' }, { lockTtl: '5s' }, { command: 'apply', arguments: [] }, gone.signal);
    let reads = 0;
    const cutting = await through(cutBase, async (request, send) => {
      try {
        return await send();
      } finally {
        // The gate's one round: ahs-control's versions, the environment's lock cell and the channel's.
        if (request.method === 'GET' && ++reads === 3) gone.abort(reason);
      }
    });
    const cut = await gate(plan([deploy(id, v1)]), cutting.ctx);
    expect(cut.ctx.signal.aborted).toBe(true);
    expect(cut.ctx.signal.reason).toBe(reason);
    expect(await failure(cut.before!([deploy(id, v1)]))).toBeInstanceOf(CancelledError);
    await cut.end();
  });
});

describe('reads started early, and a refusal before a question', () => {
  async function asset(): Promise<{ id: string; v1: string; v2: string; scope: Scope }> {
    const id = uid('cc');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    const v2 = await h.uploadVersion(id, 'ios', '1.1');
    return { id, v1, v2, scope: { kind: 'channel', assetId: id, platform: 'ios', env: 'prod' } };
  }
  const reads = (api: Scripted) => api.sent.filter((r) => r.method === 'GET').map((r) => r.path.replace(/^\/api\/v2\/demo/, '')).sort();

  it('the gate takes the reads prefetchControl started for the scopes it writes (no round of its own), once; for other scopes it reads its own', async () => {
    const { id, v1, scope } = await asset();
    const { ctx, api } = await through(await context());
    await prefetchControl(ctx, [scope]);
    const early = reads(api);
    expect(early).toHaveLength(3);
    await (await gate(plan([deploy(id, v1)]), ctx)).end();
    expect(reads(api)).toEqual(early);
    // Taken once: the next gate reads again.
    await (await gate(plan([deploy(id, v1)]), ctx)).end();
    expect(reads(api)).toEqual([...early, ...early].sort());
    // Started for another scope: the gate reads its own.
    const other = await through(await context());
    await prefetchControl(other.ctx, [{ kind: 'channel', assetId: id, platform: 'web', env: 'prod' }]);
    await (await gate(plan([deploy(id, v1)]), other.ctx)).end();
    expect(reads(other.api)).toHaveLength(6);
    // Started for the same scopes named in another order: taken.
    const web: Scope = { kind: 'channel', assetId: id, platform: 'web', env: 'prod' };
    const both = await through(await context());
    await prefetchControl(both.ctx, [web, scope]);
    const prefetchedReads = reads(both.api);
    await (await gate(plan([deploy(id, v1), step('version.deploy', { assetId: id, versionId: v1, platform: 'web', body: { envId: 'prod', intent: 'LIVE' } })]), both.ctx)).end();
    expect(reads(both.api)).toEqual(prefetchedReads);
  });

  it('before a question: what waiting would not lift refuses; what the gate would wait for, a dry run, or no reads started, do not', async () => {
    const { id, v1, v2, scope } = await asset();
    const otherScope: Scope = { kind: 'channel', assetId: id, platform: 'web', env: 'prod' };
    const promotes = (versionId: string) => [{ assetId: id, versionId }];
    const ask = async (globals: GlobalOptions = {}, command = 'promote-default', prefetch: Scope[] | null = [scope], versionId = v1, hook?: Hook) => {
      const { ctx, api } = await through(await context(globals, command), hook);
      if (prefetch) await prefetchControl(ctx, prefetch);
      const sent = api.sent.length;
      const refused = await refuseBeforeAsking(ctx, [scope], promotes(versionId)).then(() => undefined, (error: unknown) => error as BlockedError);
      return { refused, sentAfter: api.sent.slice(sent) };
    };
    // Nothing in the way.
    expect((await ask()).refused).toBeUndefined();
    // A run that names no command (the library's): the same.
    const norun = await through(await runs.context({ AHS_JOURNAL: '' }));
    await prefetchControl(norun.ctx, [scope]);
    await refuseBeforeAsking(norun.ctx, [scope], promotes(v1));
    await (await gate(plan([deploy(id, v1)]), norun.ctx)).end();
    // A blocked version.
    expect((await h.ahs(['version', 'block', id, v2, '--reason', 'bad build', '--env', 'prod'])).exitCode).toBe(0);
    const blocked = await ask({}, 'promote-default', [scope], v2);
    expect(blocked.refused).toMatchObject({ blockedBy: 'version' });
    expect(blocked.refused!.message).toMatch(new RegExp(`^version ${v2} of ${id} is blocked by ${DEMO_USER} at .+: bad build; nothing was sent`));
    expect((await ask({ dryRun: true }, 'promote-default', [scope], v2)).refused).toBeUndefined();
    expect((await ask({}, 'promote-default', null, v2)).refused).toBeUndefined();
    expect((await ask({}, 'promote-default', null, v2)).sentAfter).toEqual([]);
    expect((await ask({}, 'promote-default', [otherScope], v2)).refused).toBeUndefined();
    expect((await ask({}, 'promote-default', [scope], v2, (request, send) => (isControlRead(request) ? Promise.reject(new Error('unreadable')) : send()))).refused).toBeUndefined();
    // Reads started and then not taken (the command stopped before its plan), failing meanwhile: nothing unhandled.
    const dropped = await through(await context(), (request, send) => (isControlRead(request) ? Promise.reject(new Error('unreadable')) : send()));
    await prefetchControl(dropped.ctx, [scope]);
    await new Promise((resolve) => setImmediate(resolve));
    const { ctx: bare } = await through(await context());
    await prefetchControl(bare, [scope]);
    const { settings: _settings, ...withoutSettings } = bare;
    await refuseBeforeAsking(withoutSettings as never, [scope], promotes(v2));
    // Another holder's lock: refused, unless the run waits for it (--lock-timeout).
    const lockId = (await h.ahs(['lock', 'acquire', `${id}/ios/prod`, '--ttl', '10m', '--json'])).json().lockId as string;
    const locked = await ask();
    expect(locked.refused).toMatchObject({ blockedBy: 'lock' });
    expect(locked.refused!.message).toContain(`lock id ${lockId}`);
    expect((await ask({ lockTimeout: '10s' })).refused).toBeUndefined();
    expect((await ask({ lockId })).refused).toBeUndefined();
    expect((await h.ahs(['lock', 'release', `${id}/ios/prod`, '--lock-id', lockId])).exitCode).toBe(0);
    // Another run's own lease: the gate watches it.
    const holder = await gate(plan([deploy(id, v1)]), await context({ lockTtl: '30s' }, 'apply'));
    await holder.before!([deploy(id, v1)]);
    expect((await ask()).refused).toBeUndefined();
    await holder.end();
    // A freeze, and the ways out of an incident.
    expect((await h.ahs(['freeze', 'prod', '--for', '1h', '--reason', 'launch'])).exitCode).toBe(0);
    try {
      const frozen = await ask();
      expect(frozen.refused).toMatchObject({ blockedBy: 'freeze' });
      expect(frozen.refused!.message).toMatch(/^prod is frozen \(until .+\) by .+: launch; frozen until /);
      expect((await ask({}, 'rollback')).refused).toBeUndefined();
      expect((await ask({ breakGlass: true, reason: 'INC-1' })).refused).toBeUndefined();
    } finally {
      expect((await h.ahs(['unfreeze', 'prod'])).exitCode).toBe(0);
    }
  });
});

describe('what would refuse a write now (blockOf: rollout status, a rollout\'s --dry-run)', () => {
  it('a freeze, another holder\'s lock: the refusal as the gate words it, nothing waited for or sent, facts read already not read again; the ways out and free scopes: none', async () => {
    const id = uid('cc');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    const scope: Scope = { kind: 'channel', assetId: id, platform: 'ios', env: 'prod' };
    const intent = { scopes: [scope], promotes: [{ assetId: id, versionId: v1 }] };
    const check = async (command = 'rollout start', read?: Promise<ControlFacts>) => {
      const { ctx, api } = await through(await context({}, command));
      const blocked = await blockOf(ctx, intent, command, read);
      return { blocked, writes: api.sent.filter((r) => r.method !== 'GET') };
    };
    expect((await check()).blocked).toBeUndefined();
    const { settings: _settings, ...withoutSettings } = await context();
    expect(await blockOf(withoutSettings as never, intent, 'rollout start')).toBeUndefined();
    expect(await blockOf(await context(), { scopes: [], promotes: [] }, 'rollout start')).toBeUndefined();
    const lockId = (await h.ahs(['lock', 'acquire', `${id}/ios/prod`, '--ttl', '10m', '--reason', 'train', '--json'])).json().lockId as string;
    const locked = await check();
    expect(locked.blocked).toMatchObject({ blockedBy: 'lock' });
    expect(locked.blocked!.message).toMatch(new RegExp(`^${id}/ios/prod is locked: held by .*lock id ${lockId}, .*reason: train`));
    expect(locked.writes).toEqual([]);
    // Facts read already: decided on them, nothing read again.
    const { ctx: early, api: earlyApi } = await through(await context({}, 'rollout start'));
    const read = readControlFacts(await early.api(), [scope]);
    await read;
    const before = earlyApi.sent.length;
    expect(await blockOf(early, intent, 'rollout start', read)).toMatchObject({ blockedBy: 'lock' });
    expect(earlyApi.sent.slice(before).filter((r) => /\/va\/ahs-control(-lock[^/]*)?\/(asset-urls|versions)$/.test(r.path))).toEqual([]);
    expect((await h.ahs(['lock', 'release', `${id}/ios/prod`, '--lock-id', lockId])).exitCode).toBe(0);
    expect((await h.ahs(['freeze', 'prod', '--for', '1h', '--reason', 'launch'])).exitCode).toBe(0);
    try {
      expect((await check()).blocked).toMatchObject({ blockedBy: 'freeze' });
      expect((await check('rollback')).blocked).toBeUndefined();
    } finally {
      expect((await h.ahs(['unfreeze', 'prod'])).exitCode).toBe(0);
    }
  });
});

describe('a change-control command\'s journal entry', () => {
  it('its command and arguments as run (else the action, none), its change and its control field', async () => {
    const journal = uid('jcc');
    const created = await h.call('POST', '/vc', { collectionId: journal, collectionName: journal, description: describeJournal({ envId: 'prod' }), allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await appendEntry(await context(), journal, newEntry({ command: 'journal init', arguments: [journal], actor: DEMO_USER, changes: [], outcome: 'applied', exitCode: 0 }));
    const env = { AHS_JOURNAL: journal };
    const change = { address: 'lock.A/ios/prod', before: null, after: { lockId: 'abc123' } };
    const control = { action: 'lock' as const, target: 'A/ios/prod', reason: 'release train' };
    await recordControl(await runs.context(env, {}, { command: 'lock acquire', arguments: ['A/ios/prod'] }), change, control);
    await recordControl(await runs.context(env), { ...change, before: change.after, after: null }, { action: 'unlock', target: 'A/ios/prod' });
    const read: JournalEntry[] = [];
    for await (const entry of readEntries(await context(), journal)) if (!isUnreadable(entry) && entry.command !== 'journal init') read.push(entry);
    // Newest first.
    expect(read.map((e) => [e.command, e.arguments, e.changes, e.outcome, e.exitCode, 'control' in e ? e.control : undefined])).toEqual([
      ['unlock', [], [{ ...change, before: change.after, after: null }], 'applied', 0, { action: 'unlock', target: 'A/ios/prod' }],
      ['lock acquire', ['A/ios/prod'], [change], 'applied', 0, control],
    ]);
  });
});

describe('a refusal explained without its record', () => {
  async function asset(): Promise<{ id: string; v1: string }> {
    const id = uid('cc');
    await h.createAsset(id);
    return { id, v1: await h.uploadVersion(id, 'ios', '1.0') };
  }
  /** A record of ahs-control made by hand: its name only, deployed nowhere (so its content does not read back). */
  async function record(name: string): Promise<string> {
    await h.call('POST', '/va', { assetId: 'ahs-control', assetName: 'ahs-control', assetType: '9999', createdBy: DEMO_USER });
    return h.uploadVersion('ahs-control', 'generic', name);
  }

  it('a freeze whose reason does not read back is named without it; one whose records cannot be read again, without who', async () => {
    const { id, v1 } = await asset();
    const versionId = await record(`freeze hand until ${compactTime(Date.now() + 3_600_000 + 2000)}`);
    try {
      const refused = await failure(gate(plan([deploy(id, v1, 'hand')]), await context()));
      expect(refused.message).toMatch(new RegExp(`^hand is frozen \\(until [^)]+\\) by ${DEMO_USER} at [^:]+:\\d\\d:\\d\\d[.\\dZ]*; frozen until `));
      let listed = 0;
      const { ctx } = await through(await context(), (request, send) => (isControlRead(request) && ++listed === 2 ? Promise.reject(new Error('gone')) : send()));
      const unnamed = await failure(gate(plan([deploy(id, v1, 'hand')]), ctx));
      expect(unnamed.message).toMatch(/^hand is frozen \(until [^)]+\); frozen until /);
    } finally {
      await h.call('DELETE', `/va/ahs-control/versions/${versionId}`);
    }
  });

  it('a block whose reason does not read back is named without it', async () => {
    const { id, v1 } = await asset();
    const versionId = await record(`block ${id}/${v1}`);
    try {
      const refused = await failure(gate(plan([deploy(id, v1)]), await context()));
      expect(refused.message).toMatch(new RegExp(`^version ${v1} of ${id} is blocked by ${DEMO_USER} at [^;:]+:\\d\\d:\\d\\d[.\\dZ]*; nothing was sent`));
      const { ctx } = await through(await context(), (request, send) => (request.method === 'GET' && request.path.endsWith(`/va/ahs-control/versions/${versionId}`) ? Promise.reject(new Error('gone')) : send()));
      const unnamed = await failure(gate(plan([deploy(id, v1)]), ctx));
      expect(unnamed.message).toBe(`version ${v1} of ${id} is blocked; nothing was sent (ahs version unblock ${id} ${v1} --reason R lifts it)`);
    } finally {
      await h.call('DELETE', `/va/ahs-control/versions/${versionId}`);
    }
  });
});
