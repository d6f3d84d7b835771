// The journal's storage, reading and setting, below the commands
// (src/service/journal.ts, history.ts, rollout-journal.ts,
// journal-setting.ts): the service's functions called directly with a real
// context over the emulator on port 0, so that the mutation run reaches
// them in a few seconds a test. What a user would see: the entries read
// back (time, author, item, collection), what is unreadable and why, the
// continuation of a full journal, history's filters and rollback's proof,
// the journal a run uses and the words that name it.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, uid, type Harness } from '../e2e/helpers.js';
import type { Context } from '../../src/context.js';
import { runContexts } from '../support/run-contexts.js';
import type { GlobalOptions } from '../../src/options.js';
import { appendEntry, ciRunOf, deployContinuation, describeJournal, entryName, entryUpload, historyErased, isJournalCollection, isUnreadable, covers, journalChain, journalMark, newEntry, nextJournalId, parseJournalDescription, readEntries, type EntryDocumentV2, type EntryRead, type JournalContext, type JournalEntry, type KnownChain } from '../../src/service/journal.js';
import { addressParts, CLOCK_MARGIN_MS, historyEntries, widened, journalRollbackTarget, markDisagreements, matches, provenance, readDefault, readHistory, unreadableLine, type HistoryEntry, type RangeEnd } from '../../src/service/history.js';
import { journalOf, rolloutEntries } from '../../src/service/rollout-journal.js';
import { choiceText, journalChoice, journalErasure, journalId, requireJournal } from '../../src/service/journal-setting.js';
import { resolveSettings } from '../../src/config/settings.js';
import { ApiError, NotFoundError, OutcomeUnknownError, UsageError } from '../../src/errors.js';
import type { RequestOptions } from '../../src/http/client.js';
import { readCollection } from '../../src/service/collections.js';
import { failure } from '../support/failure.js';
import { lines, scripted, type Hook, type Scripted } from '../support/scripted-client.js';

const runs = runContexts('journal-store');
/** A second service whose delivery network has a host and path of its own (a CDN), not the API's. */
const cdn = runContexts('journal-store-cdn', { variation: { deliveryPrefix: '/cdn' } });
let h: Harness;
beforeAll(() => {
  h = runs.h;
});

/** A real context of a run with `env` over the harness's (AHS_JOURNAL etc.) and `globals`. */
function context(env: Record<string, string | undefined> = {}, globals: GlobalOptions = {}): Promise<Context> {
  return runs.context(env, globals);
}

/** A marked journal of its own, LIVE in prod (or in no environment: `envId` undefined), holding its first entry. */
async function startJournal(id = uid('js'), envId: string | null = 'prod'): Promise<string> {
  const created = await h.call('POST', '/vc', { collectionId: id, collectionName: id, description: describeJournal(envId ? { envId } : {}), allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const ctx = await context();
  await appendEntry(ctx, id, doc('journal init', { arguments: [id] }));
  if (envId) expect((await h.call('POST', `/vc/${id}/deployments`, { state: 'LIVE', createdBy: DEMO_USER, envId })).status).toBeLessThan(300);
  return id;
}

let nonce = 0;
function doc(command: string, fields: Partial<EntryDocumentV2> = {}): EntryDocumentV2 {
  nonce += 1;
  return newEntry({ command, arguments: [], actor: DEMO_USER, changes: [], outcome: 'applied', exitCode: 0, ...fields }, `n${String(nonce).padStart(8, '0')}${process.pid}`);
}

function promotion(assetId: string, before: string | null, after: string, envId = 'prod', platform = 'ios') {
  return { address: `channel.${assetId}.${platform}.${envId}`, before: { default: before }, after: { default: after } };
}

/** Uploads an item as a service's client would (not ahs): its file `content` named `fileName`. */
async function plant(collectionId: string, content: string, fileName = 'entry.json'): Promise<string> {
  const form = new FormData();
  form.set('assetItemName', `${new Date().toISOString()} planted`);
  form.set('assetType', '9999');
  form.set('createdBy', DEMO_USER);
  form.set('assetFile', new Blob([content], { type: 'application/json' }), fileName);
  const answer = await h.call('POST', `/vc/${collectionId}/items`, form);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.assetItemId as string;
}

/** The service's delivery document lists every item of a LIVE collection as it is added: nothing to do. */
async function redeploy(_collectionId: string): Promise<void> {}

const BIG = ['x'.repeat(1000), 'y'.repeat(1000), 'z'.repeat(1000)];

async function all<T>(entries: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const entry of entries) out.push(entry);
  return out;
}

const readable = (entries: EntryRead[]) => entries.filter((e): e is JournalEntry => !isUnreadable(e));

describe('the journal\'s pure parts', () => {
  it('the CI run of GitHub Actions, in parts; nothing outside CI', () => {
    const base = { GITHUB_SERVER_URL: 'https://github.com//', GITHUB_REPOSITORY: 'a/b', GITHUB_RUN_ID: '9' };
    expect(ciRunOf(base)).toEqual({ runUrl: 'https://github.com/a/b/actions/runs/9' });
    expect(ciRunOf({ GITHUB_SHA: 's' })).toEqual({ sha: 's' });
    expect(ciRunOf({ GITHUB_REF: 'r' })).toEqual({ ref: 'r' });
    expect(ciRunOf({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'a/b' })).toBeUndefined();
    expect(ciRunOf({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_RUN_ID: '9' })).toBeUndefined();
    expect(ciRunOf({ GITHUB_REPOSITORY: 'a/b', GITHUB_RUN_ID: '9' })).toBeUndefined();
  });

  it('an entry name keeps letters, digits, space, dot, underscore and dash; the rest become one dash each run; trailing spaces cut', () => {
    const at = new Date('2026-01-02T03:04:05.006Z');
    expect(entryName('item sync a_b.c-d', at)).toBe('2026-01-02T03:04:05.006Z item sync a_b.c-d');
    expect(entryName('deploy é€/x', at)).toBe('2026-01-02T03:04:05.006Z deploy -x');
    expect(entryName(`${'a'.repeat(38)} b`, at)).toBe(`2026-01-02T03:04:05.006Z ${'a'.repeat(38)}`);
    expect(entryName('x').startsWith(new Date().toISOString().slice(0, 10))).toBe(true);
  });

  it('a description names the mark, the environment and the continuation; anything else reads as no links', () => {
    expect(describeJournal({})).toBe('ahs journal');
    expect(describeJournal({ envId: 'prod' })).toBe('ahs journal; env=prod');
    expect(describeJournal({ next: 'j--2' })).toBe('ahs journal; next=j--2');
    expect(parseJournalDescription('ahs journal; env=prod; next=j--2')).toEqual({ envId: 'prod', next: 'j--2' });
    expect(parseJournalDescription('env=dev')).toEqual({ envId: 'dev' });
    expect(parseJournalDescription('ahs journal;next=x_y')).toEqual({ next: 'x_y' });
    expect(parseJournalDescription('ahs journal;env=prod;  next=j--2')).toEqual({ envId: 'prod', next: 'j--2' });
    expect(parseJournalDescription('next=j--3; env=dev')).toEqual({ envId: 'dev', next: 'j--3' });
    expect(parseJournalDescription('ahs journal; myenv=prod; the next=j')).toEqual({});
    expect(parseJournalDescription(null)).toEqual({});
    expect(parseJournalDescription(undefined)).toEqual({});
    expect(nextJournalId('j--9')).toBe('j--10');
    expect(nextJournalId('j--x')).toBe('j--x--2');
    expect(nextJournalId('j--12')).toBe('j--13');
    expect(nextJournalId('j--9x')).toBe('j--9x--2');
    expect(nextJournalId('j')).toBe('j--2');
    expect(nextJournalId(`${'a'.repeat(46)}--9`)).toBe(`${'a'.repeat(46)}--10`.slice(-50).padStart(50, 'a').slice(0, 46) + '--10');
  });

  it('a journal is marked by its description; confirmations add words only for one', () => {
    expect(isJournalCollection({ description: 'ahs journal; env=prod' })).toBe(true);
    expect(isJournalCollection({ description: 'the ahs journal' })).toBe(false);
    expect(isJournalCollection({ description: null })).toBe(false);
    expect(isJournalCollection({})).toBe(false);
    expect(isJournalCollection(undefined)).toBe(false);
    expect(historyErased({ description: 'ahs journal' })).toMatch(/^ It is an ahs journal: .*erases that history\.$/);
    expect(historyErased({ description: 'bundle' })).toBe('');
    expect(historyErased(undefined)).toBe('');
  });

  it('journalMark: absent, deleted, not marked, without its first entry, or marked', () => {
    const base = { collectionId: 'j', collectionName: 'j', description: 'ahs journal', deleted: false, assetItems: [{ assetItemId: 'i' }] } as never;
    expect(journalMark('j', undefined)).toEqual({ marked: false, why: 'there is no collection j', absent: true });
    expect(journalMark('j', { ...(base as object), deleted: true } as never)).toEqual({ marked: false, why: 'the collection j is deleted' });
    expect(journalMark('j', { ...(base as object), description: 'bundle' } as never)).toEqual({ marked: false, why: 'j is not an ahs journal (its description does not say "ahs journal")' });
    expect(journalMark('j', { ...(base as object), assetItems: [] } as never)).toEqual({ marked: false, why: 'j holds no first entry (ahs journal init j gives it one)' });
    expect(journalMark('j', base)).toEqual({ marked: true });
    expect(journalMark('j', { ...(base as object), assetItems: undefined } as never)).toEqual({ marked: true });
  });

  it('an entry upload: the item named by time and command, the file named by the document, the content the document', () => {
    const d = doc('release', { arguments: ['b'] });
    const at = new Date('2026-01-02T03:04:05.006Z');
    const upload = entryUpload(d, at);
    expect(upload.assetItemName).toBe('2026-01-02T03:04:05.006Z release');
    expect(upload.fileName.startsWith(`ahs2.${d.id}.`)).toBe(true);
    expect(JSON.parse(upload.content)).toEqual(d);
    expect(newEntry({ command: 'x', arguments: [], actor: 'a', changes: [], outcome: 'applied', exitCode: 0 }).id).toMatch(/^[0-9a-z]{16}$/);
    expect(newEntry({ command: 'x', arguments: [], actor: 'a', changes: [], outcome: 'applied', exitCode: 0 }, 'abcdefgh').apiVersion).toBe('ahs/journal/v2');
  });
});

describe('appending and reading entries', () => {
  it('entries come back newest first from their names, with the service\'s time, author, item and collection', async () => {
    const journal = await startJournal();
    const ctx = await context();
    const a = doc('deploy', { changes: [promotion('A', null, 'V1')] });
    const b = doc('promote-default', { changes: [promotion('A', 'V1', 'V2')] });
    const first = await appendEntry(ctx, journal, a);
    const second = await appendEntry(ctx, journal, b);
    expect(first.collectionId).toBe(journal);
    expect(second.item.assetItemName).toMatch(/ promote-default$/);
    const entries = readable(await all(readEntries(ctx, journal)));
    expect(entries.map((e) => e.command)).toEqual(['promote-default', 'deploy', 'journal init']);
    const [newest] = entries;
    expect(newest).toMatchObject({ ...b, createdBy: DEMO_USER, itemId: second.item.assetItemId, itemName: second.item.assetItemName, collectionId: journal });
    expect(Date.parse(newest!.createdAt)).toBeGreaterThanOrEqual(Date.parse(entries[1]!.createdAt));
  });

  it('an entry too large for its name, a v1 entry and one whose name was shortened are read from their content', async () => {
    const journal = await startJournal();
    const ctx = await context();
    const big = doc('apply', { arguments: BIG });
    await appendEntry(ctx, journal, big);
    const v1 = { apiVersion: 'ahs/journal/v1', command: 'old', arguments: [], actor: DEMO_USER, changes: [], outcome: 'applied', exitCode: 0 };
    await plant(journal, JSON.stringify(v1));
    const shortened = doc('release');
    await plant(journal, JSON.stringify(shortened), `ahs2.${shortened.id}.eyJhcGk.json`);
    await redeploy(journal);
    const entries = await all(readEntries(ctx, journal));
    expect(entries.filter(isUnreadable)).toEqual([]);
    expect(entries.map((e) => (e as JournalEntry).command)).toEqual(['release', 'old', 'apply', 'journal init']);
    expect((entries[2] as JournalEntry).arguments).toEqual(big.arguments);
    expect((entries[0] as JournalEntry & { id?: string }).id).toBe(shortened.id);
  });

  it('what is not an entry is unreadable with its item id and why; the entries around it are read', async () => {
    const journal = await startJournal();
    const ctx = await context();
    const nullChange = await plant(journal, JSON.stringify({ apiVersion: 'ahs/journal/v1', command: 'x', arguments: [], actor: 'a', changes: [null], outcome: 'applied', exitCode: 0 }));
    const notJson = await plant(journal, '{not json');
    const late = await plant(journal, '{}');
    await appendEntry(ctx, journal, doc('deploy'));
    const entries = await all(readEntries(ctx, journal));
    expect(entries.map((e) => (isUnreadable(e) ? `unreadable ${e.itemId}` : e.command))).toEqual(['deploy', `unreadable ${late}`, `unreadable ${notJson}`, `unreadable ${nullChange}`, 'journal init']);
    const byId = new Map(entries.filter(isUnreadable).map((e) => [e.itemId, e]));
    expect(byId.get(nullChange)!.reason).toMatch(/^changes\.0: /);
    expect(byId.get(late)!.reason).toBe("apiVersion: Invalid discriminator value. Expected 'ahs/journal/v1' | 'ahs/journal/v2'");
    expect(byId.get(notJson)!.reason).toMatch(/^its content could not be read \(/);
    expect(byId.get(late)).toMatchObject({ unreadable: true, createdBy: DEMO_USER, collectionId: journal });
    expect(byId.get(late)!.itemName).toMatch(/ planted$/);
    expect(unreadableLine(byId.get(late)!)).toBe(`unreadable entry ${late} in ${journal} (${byId.get(late)!.createdAt} by ${DEMO_USER}): ${byId.get(late)!.reason}; it is not used`);
    expect(unreadableLine({ ...byId.get(late)!, createdBy: '', reason: 'bad\u001b[31m' })).toBe(`unreadable entry ${late} in ${journal} (${byId.get(late)!.createdAt}): bad\\e[31m; it is not used`);
  });

  it('a journal read in no environment: an entry that needs its content is unreadable, naming journal init --env', async () => {
    const journal = await startJournal(uid('js'), null);
    const ctx = await context();
    await appendEntry(ctx, journal, doc('apply', { arguments: BIG }));
    await appendEntry(ctx, journal, doc('deploy'));
    const entries = await all(readEntries(ctx, journal));
    expect(entries.map((e) => (isUnreadable(e) ? e.reason : e.command))).toEqual(['deploy', `its content cannot be read: the journal collection ${journal} names no environment it is read in (ahs journal init --env ENV)`, 'journal init']);
  });

  it('a range keeps the entries created within it, both ends included', async () => {
    const journal = await startJournal();
    const ctx = await context();
    await appendEntry(ctx, journal, doc('one'));
    const entries = readable(await all(readEntries(ctx, journal)));
    const times = entries.map((e) => new Date(e.createdAt));
    const newest = times[0]!;
    const oldest = times[times.length - 1]!;
    expect(readable(await all(readEntries(ctx, journal, { since: newest }))).map((e) => e.command)).toContain('one');
    expect(readable(await all(readEntries(ctx, journal, { since: new Date(newest.getTime() + 1) })))).toEqual([]);
    expect(readable(await all(readEntries(ctx, journal, { until: new Date(oldest.getTime() - 1) })))).toEqual([]);
    expect(readable(await all(readEntries(ctx, journal, { until: oldest }))).map((e) => e.command)).toContain('journal init');
    expect(readable(await all(readEntries(ctx, journal, { since: oldest, until: newest }))).length).toBe(entries.length);
  });

  it('a full journal continues in ID--2: linked, LIVE where the journal is read, and read newest first across both', async () => {
    const journal = await startJournal();
    const ctx = await context();
    await appendEntry(ctx, journal, doc('one'));
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 2, updatedBy: DEMO_USER })).status).toBe(200);
    const landed = await appendEntry(ctx, journal, doc('two', { arguments: BIG }));
    expect(landed.collectionId).toBe(`${journal}--2`);
    const full = await h.call('GET', `/vc/${journal}`);
    expect(full.body.description).toBe(`ahs journal; env=prod; next=${journal}--2`);
    const next = await h.call('GET', `/vc/${journal}--2`);
    expect(next.body.description).toBe('ahs journal; env=prod');
    expect((await h.call('GET', `/vc/${journal}--2/deployments/prod`)).status).toBe(200);
    // A later writer that knows the link goes straight there.
    const third = await appendEntry(ctx, journal, doc('three'), full.body);
    expect(third.collectionId).toBe(`${journal}--2`);
    const fourth = await appendEntry(ctx, journal, doc('four'));
    expect(fourth.collectionId).toBe(`${journal}--2`);
    const entries = await all(readEntries(ctx, journal));
    expect(entries.map((e) => (isUnreadable(e) ? e.reason : `${e.command} ${e.collectionId}`))).toEqual([`four ${journal}--2`, `three ${journal}--2`, `two ${journal}--2`, `one ${journal}`, `journal init ${journal}`]);
    const chain = await journalChain(await ctx.api(), journal);
    expect(chain.map((link) => [link.collectionId, link.envId])).toEqual([[journal, 'prod'], [`${journal}--2`, 'prod']]);
  });

  it('two writers that fill a journal at once both land in the one continuation', async () => {
    const journal = await startJournal();
    const ctx = await context();
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 1, updatedBy: DEMO_USER })).status).toBe(200);
    const landed = await Promise.all([appendEntry(ctx, journal, doc('a')), appendEntry(ctx, journal, doc('b'))]);
    expect(landed.map((l) => l.collectionId)).toEqual([`${journal}--2`, `${journal}--2`]);
    expect(readable(await all(readEntries(ctx, journal))).map((e) => e.command).sort()).toEqual(['a', 'b', 'journal init']);
  });

  it('a continuation already there that is not a journal is not taken over', async () => {
    const journal = await startJournal();
    const ctx = await context();
    expect((await h.call('POST', '/vc', { collectionId: `${journal}--2`, collectionName: 'other', description: 'content', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 1, updatedBy: DEMO_USER })).status).toBe(200);
    const error = await failure(appendEntry(ctx, journal, doc('a')));
    expect(error.message).toMatch(/409|exists|already/i);
    expect((await h.call('GET', `/vc/${journal}`)).body.description).toBe('ahs journal; env=prod');
  });

  it('a journal whose links go round ends, and a chain stops at a link that is not a journal', async () => {
    const journal = await startJournal();
    const ctx = await context();
    const api = await ctx.api();
    expect((await h.call('PATCH', `/vc/${journal}`, { description: `ahs journal; env=prod; next=${journal}`, updatedBy: DEMO_USER })).status).toBe(200);
    expect((await journalChain(api, journal)).map((l) => l.collectionId)).toEqual([journal]);
    expect((await h.call('PATCH', `/vc/${journal}`, { description: `ahs journal; env=prod; next=${journal}-nothing`, updatedBy: DEMO_USER })).status).toBe(200);
    expect((await journalChain(api, journal)).map((l) => l.collectionId)).toEqual([journal]);
  });

  it('reading a journal that is not one: absent (naming journal init), or a content collection (naming the setting)', async () => {
    const ctx = await context();
    const api = await ctx.api();
    const absent = await failure(journalChain(api, 'no-such-journal'));
    expect(absent).toBeInstanceOf(NotFoundError);
    expect(absent.message).toBe('the journal no-such-journal does not exist: start it with `ahs journal init no-such-journal`, or fix the journal setting (--journal, AHS_JOURNAL, profile key journal)');
    const absentDefault = await failure(journalChain(api, 'ahs-journal'));
    expect(absentDefault.message).toBe('the journal ahs-journal does not exist: start it with `ahs journal init`, or fix the journal setting (--journal, AHS_JOURNAL, profile key journal)');
    const content = uid('content');
    expect((await h.call('POST', '/vc', { collectionId: content, collectionName: content, description: 'bundle', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    const notOne = await failure(all(readEntries(ctx, content)));
    expect(notOne).toBeInstanceOf(UsageError);
    expect(notOne.message).toBe(`${content} is not an ahs journal (its description does not say "ahs journal"): history reads only a journal; start one with \`ahs journal init\`, or fix the journal setting (--journal, AHS_JOURNAL, profile key journal)`);
  });

  it('a continuation\'s deployment that another writer made already is the same; another failure is not', async () => {
    const journal = await startJournal();
    const api = await (await context()).api();
    await deployContinuation(api, journal, 'prod', DEMO_USER);
    const refused = await (await context({ AHS_API_KEY: 'wrong-key' })).api();
    const error = await failure(deployContinuation(refused, journal, 'prod', DEMO_USER));
    expect(error.message).toMatch(/key|auth|401|403/i);
  });
});

describe('history', () => {
  it('address parts of each kind', () => {
    expect(addressParts('channel.A.ios.prod')).toStrictEqual({ kind: 'channel', id: 'A', platform: 'ios', envId: 'prod' });
    expect(addressParts('collection.C.deployment.prod')).toStrictEqual({ kind: 'collection', id: 'C', envId: 'prod' });
    expect(addressParts('collection.C')).toStrictEqual({ kind: 'collection', id: 'C' });
    expect(addressParts('asset.A.deployments.dev')).toStrictEqual({ kind: 'asset', id: 'A', envId: 'dev' });
    expect(addressParts('asset.A')).toStrictEqual({ kind: 'asset', id: 'A' });
    expect(addressParts('version.A.V1')).toStrictEqual({ kind: 'version', id: 'A' });
    expect(addressParts('')).toStrictEqual({ kind: '', id: undefined });
  });

  const upload = { address: 'version.A.V1', before: null, after: { versionId: 'V1', platform: 'ios' } };
  const rows: Array<[string, { address: string; before: any; after: any }, object, boolean]> = [
    ['a channel, by id', promotion('A', null, 'V1'), { id: 'A' }, true],
    ['a channel, another id', promotion('A', null, 'V1'), { id: 'B' }, false],
    ['a channel, its platform', promotion('A', null, 'V1'), { platform: 'ios' }, true],
    ['a channel, another platform', promotion('A', null, 'V1'), { platform: 'web' }, false],
    ['a channel, its environment', promotion('A', null, 'V1'), { envId: 'prod' }, true],
    ['a channel, another environment', promotion('A', null, 'V1'), { envId: 'dev' }, false],
    ['an upload, its platform (from after)', upload, { platform: 'ios' }, true],
    ['an upload, another platform', upload, { platform: 'web' }, false],
    ['a version delete, its platform (from before)', { address: 'version.A.V1', before: { platform: 'web' }, after: null }, { platform: 'web' }, true],
    ['an upload, an environment (none)', upload, { envId: 'prod' }, false],
    ['a collection, a platform (none: kept)', { address: 'collection.C', before: null, after: { platform: 5 } }, { platform: 'ios' }, true],
    ['a channel without its platform part, a platform', { address: 'channel.A', before: null, after: null }, { platform: 'ios' }, false],
    ['a collection deployment, its environment', { address: 'collection.C.deployment.prod', before: null, after: { state: 'LIVE' } }, { envId: 'prod', id: 'C' }, true],
    ['nothing asked', upload, {}, true],
  ];
  it.each(rows)('matches: %s', (_name, change, filter, kept) => {
    expect(matches(change as never, filter)).toBe(kept);
  });

  it('entries narrowed to what the filter names, at most --limit of them kept, unreadable ones passed on uncounted', async () => {
    const journal = await startJournal();
    const ctx = await context();
    const asset = uid('H');
    await appendEntry(ctx, journal, doc('deploy', { changes: [promotion(asset, null, 'V1', 'staging'), { address: `version.${asset}.V1`, before: null, after: { versionId: 'V1', platform: 'ios' } }] }));
    const bad = await plant(journal, JSON.stringify({ apiVersion: 'ahs/journal/v1' }), `ahs2.${'b'.repeat(16)}..json`);
    await appendEntry(ctx, journal, doc('promote-default', { changes: [promotion(asset, 'V1', 'V2', 'prod')] }));
    await appendEntry(ctx, journal, doc('lock', { control: { action: 'lock', target: `channel.${asset}.ios.prod` } }));
    await appendEntry(ctx, journal, doc('lock', { control: { action: 'lock', target: 'channel.other.ios.prod' } }));
    await appendEntry(ctx, journal, doc('lock', { changes: [promotion('other', null, 'V1')], control: { action: 'lock', target: `channel.${asset}.ios.prod` } }));
    await redeploy(journal);
    const commands = async (filter: object) => (await all(historyEntries(ctx, journal, filter))).map((e) => (isUnreadable(e) ? 'unreadable' : `${e.command}:${e.changes.map((c) => c.address.split('.').slice(-2).join('.')).join('+')}`));
    expect(await commands({ id: asset })).toEqual([`lock:`, 'promote-default:ios.prod', 'unreadable', 'deploy:ios.staging+A.V1'.replace('A.V1', `${asset}.V1`.split('.').slice(-2).join('.'))]);
    expect(await commands({ id: asset, envId: 'prod' })).toEqual(['lock:', 'promote-default:ios.prod', 'unreadable']);
    expect(await commands({ id: asset, envId: 'staging' })).toEqual(['unreadable', 'deploy:ios.staging']);
    expect(await commands({ id: asset, platform: 'web' })).toEqual(['unreadable']);
    expect(await commands({ id: asset, limit: 1 })).toEqual(['lock:']);
    expect(await commands({ id: asset, limit: 2 })).toEqual(['lock:', 'promote-default:ios.prod']);
    expect(await commands({ id: asset, limit: 0 })).toEqual([]);
    // Not narrowed: every entry whole (the control ones with no change too).
    const whole = await all(historyEntries(ctx, journal));
    expect(whole.length).toBe(7);
    expect(whole.filter(isUnreadable).map((e) => e.itemId)).toEqual([bad]);
    expect((whole[whole.length - 2] as HistoryEntry).changes.length).toBe(2);
  });

  it('a relative range is measured on the service\'s clock; --since in the future keeps nothing', async () => {
    const journal = await startJournal();
    const ctx = await context();
    await appendEntry(ctx, journal, doc('recent'));
    const back = (ms: number): RangeEnd => Object.assign(new Date(0), { backMs: ms });
    expect(readable((await all(readHistory(ctx, journal, { since: back(60_000) }))) as EntryRead[]).map((e) => e.command)).toEqual(['recent', 'journal init']);
    expect(await all(readHistory(ctx, journal, { until: back(60_000) }))).toEqual([]);
    expect(await all(readHistory(ctx, journal, { since: back(-60_000) }))).toEqual([]);
    // An absolute end is taken as given.
    expect(await all(readHistory(ctx, journal, { since: new Date(Date.now() + 3_600_000) }))).toEqual([]);
  });

  it('a relative range on a runner whose clock is off the service\'s: a few minutes off, the early listing serves it, filtered to the range; 3 h fast, it is listed again', async () => {
    // 17 minutes before the runner's now on the service's clock (the journal's first entry among them), then 5: the service 5 minutes behind the runner.
    h.emu.setClockOffset(-17 * 60_000);
    const journal = await startJournal();
    const ctx = await context();
    const back = (ms: number): RangeEnd => Object.assign(new Date(0), { backMs: ms });
    const listings: string[] = [];
    const counted = await context();
    const api = await counted.api();
    const get = api.get.bind(api);
    let journalListed = journal;
    api.get = ((path: string, query?: Record<string, unknown>, options?: unknown) => {
      if (path.endsWith(`/vc/${journalListed}/items`)) listings.push(String(query?.startDate));
      return get(path, query as never, options as never);
    }) as typeof api.get;
    try {
      await appendEntry(ctx, journal, doc('twelve minutes ago'));
      h.emu.setClockOffset(-5 * 60_000);
      await appendEntry(ctx, journal, doc('just now'));
      const tenMinutes = readable((await all(readHistory(counted, journal, { since: back(10 * 60_000) }))) as EntryRead[]).map((e) => e.command);
      expect(tenMinutes).toEqual(['just now']);
      // One listing of the journal: the early one, sent beside the collection's read on this runner's clock, so wider
      // than the range by the margin (it held the entry of 12 minutes ago, filtered out).
      expect(listings.length).toBe(1);
      expect(Date.parse(listings[0]!)).toBeLessThanOrEqual(Date.now() - 10 * 60_000 - CLOCK_MARGIN_MS + 1000);
      // The runner 3 h fast: the early listing starts after the range does; listed again from the service's time.
      listings.length = 0;
      h.emu.setClockOffset(-3 * 3_600_000);
      const behind = await startJournal();
      await appendEntry(ctx, behind, doc('three hours behind'));
      journalListed = behind;
      const fast = readable((await all(readHistory(counted, behind, { since: back(10 * 60_000) }))) as EntryRead[]).map((e) => e.command);
      expect(fast).toEqual(['three hours behind', 'journal init']);
      expect(listings.length).toBe(2);
      expect(Date.parse(listings[1]!)).toBeLessThan(Date.parse(listings[0]!));
    } finally {
      h.emu.setClockOffset(0);
    }
  });

  it('no journal set and no ahs-journal: said as such; a named journal that is absent keeps its own error', async () => {
    const none = await failure(all(readHistory(await context(), 'ahs-journal')));
    expect(none).toBeInstanceOf(UsageError);
    expect(none.message).toBe("history needs a journal, and none is set: start one with `ahs journal init --env ENV` (with no journal setting, the domain's ahs-journal is used once it exists), or name one with --journal ID or AHS_JOURNAL");
    const relative = await failure(all(readHistory(await context(), 'ahs-journal', { since: Object.assign(new Date(0), { backMs: 1000 }) }, 'rollback', 'or else')));
    expect(relative.message).toBe('rollback needs a journal, and none is set: start one with `ahs journal init --env ENV` or else');
    const named = await failure(all(readHistory(await context({ AHS_JOURNAL: 'no-such' }), 'no-such')));
    expect(named).toBeInstanceOf(NotFoundError);
  });

  it('the newest Default change of each channel is marked with the Default now, and a change made outside ahs said', async () => {
    const asset = uid('M');
    await h.createAsset(asset);
    const v1 = await h.uploadVersion(asset, 'ios');
    const v2 = await h.uploadVersion(asset, 'ios');
    expect((await h.deploy(asset, v1, 'ios', 'prod', 'LIVE')).status).toBeLessThan(300);
    expect((await h.deploy(asset, v1, 'ios', 'prod', 'DEFAULT')).status).toBeLessThan(300);
    const api = await (await context()).api();
    const entry = (changes: object[]) => ({ changes }) as unknown as HistoryEntry;
    const newest = { ...promotion(asset, v1, v2) };
    const older = { ...promotion(asset, null, v1) };
    const staging = { ...promotion(asset, null, v1, 'staging') };
    const upload = { address: `version.${asset}.${v1}`, before: null, after: { default: v1 } };
    const cleared = { address: `channel.${asset}.ios.dev`, before: { default: v1 }, after: { default: null } };
    const partial = { address: `channel.${asset}`, before: null, after: { default: v1 } };
    const noEnv = { address: `channel.${asset}.ios`, before: null, after: { default: v1 } };
    const noId = { address: 'channel..ios.prod', before: null, after: { default: v1 } };
    const removed = { address: `channel.${asset}.ios.prod`, before: { default: v1 }, after: null };
    const entries = [entry([removed, newest, upload, cleared, partial, noEnv, noId]), entry([older, staging])];
    const disagreements = await markDisagreements(api, entries);
    expect(disagreements.sort((a, b) => a.address.localeCompare(b.address))).toEqual([
      { address: `channel.${asset}.ios.prod`, journal: v2, current: v1 },
      { address: `channel.${asset}.ios.staging`, journal: v1, current: null },
    ]);
    expect(newest).toMatchObject({ current: { default: v1 }, disagrees: true });
    expect(older).not.toHaveProperty('current');
    expect(upload).not.toHaveProperty('current');
    expect(cleared).not.toHaveProperty('current');
    expect(partial).not.toHaveProperty('current');
    expect(noEnv).not.toHaveProperty('current');
    expect(noId).not.toHaveProperty('current');
    expect(removed).not.toHaveProperty('current');
    const agree = { ...promotion(asset, null, v1) };
    expect(await markDisagreements(api, [entry([agree])], new Map([[agree.address, Promise.resolve(v1)]]))).toEqual([]);
    expect(agree).toMatchObject({ current: { default: v1 }, disagrees: false });
    expect(await readDefault(api, asset, 'ios', 'prod')).toBe(v1);
    expect(await readDefault(api, asset, 'ios', 'dev')).toBeNull();
  });

  it('rollback\'s proof: the latest change of the channel\'s Default, if it made the Default now; every other case names --to', async () => {
    const journal = await startJournal();
    const ctx = await context();
    const asset = uid('R');
    const channel = { assetId: asset, platform: 'ios', envId: 'prod' };
    const name = `${asset}/ios/prod`;
    const none = await failure(journalRollbackTarget(ctx, journal, channel, 'V1'));
    expect(none.message).toBe(`the journal holds no change of the Default of ${name}: which was the Default before V1 cannot be proven; name it with --to VERSION_ID`);
    const first = await appendEntry(ctx, journal, doc('deploy', { changes: [promotion(asset, null, 'V1'), promotion(asset, 'V0', 'V9', 'dev')] }));
    const firstDefault = await failure(journalRollbackTarget(ctx, journal, channel, 'V1', '`to`'));
    expect(firstDefault.message).toMatch(new RegExp(`^the journal's last change of ${name} \\(.+ by ${DEMO_USER}, deploy\\) made V1 its first Default: there is nothing to roll back to; name a version with \`to\`$`));
    await appendEntry(ctx, journal, doc('release', { changes: [{ address: `channel.${asset}.ios.prod`, before: { default: '' }, after: { default: 'V1' } }] }));
    expect((await failure(journalRollbackTarget(ctx, journal, channel, 'V1'))).message).toMatch(/made V1 its first Default/);
    await appendEntry(ctx, journal, doc('release', { changes: [{ address: `channel.${asset}.ios.prod`, before: null, after: { default: 'V1' } }] }));
    expect((await failure(journalRollbackTarget(ctx, journal, channel, 'V1'))).message).toMatch(/made V1 its first Default/);
    // A change of the channel that is not of its Default (a removal, a state) is passed over.
    await appendEntry(ctx, journal, doc('undeploy', { changes: [{ address: `channel.${asset}.ios.prod`, before: { default: 'V1' }, after: null }] }));
    expect((await failure(journalRollbackTarget(ctx, journal, channel, 'V1'))).message).toMatch(/made V1 its first Default/);
    await appendEntry(ctx, journal, doc('deploy', { changes: [{ address: `channel.${asset}.ios.prod`, before: { version: 'V5', state: null }, after: { version: 'V5', state: 'LIVE' } }] }));
    const promoted = await appendEntry(ctx, journal, doc('promote-default', { changes: [promotion(asset, 'V1', 'V2')] }));
    const target = await journalRollbackTarget(ctx, journal, channel, 'V2');
    expect(target.versionId).toBe('V1');
    expect(target.entry.itemId).toBe(promoted.item.assetItemId);
    expect(target.unreadable).toEqual([]);
    const moved = await failure(journalRollbackTarget(ctx, journal, channel, 'V3'));
    expect(moved.message).toMatch(new RegExp(`^the Default of ${name} is V3, but the journal's last change of it \\(.+ by ${DEMO_USER}, promote-default\\) made it V2: it was moved outside ahs, so which was the Default before cannot be proven; name the version with --to VERSION_ID$`));
    // Unreadable entries newer than the proof are shown with it, never used.
    const bad = await plant(journal, '{}', `ahs2.${'c'.repeat(16)}..json`);
    await redeploy(journal);
    const withBad = await journalRollbackTarget(ctx, journal, channel, 'V2');
    expect(withBad.unreadable.map((e) => e.itemId)).toEqual([bad]);
    expect(first.collectionId).toBe(journal);
    const other = { assetId: uid('none'), platform: 'ios', envId: 'prod' };
    const bad2 = await plant(journal, '{}', `ahs2.${'d'.repeat(16)}..json`);
    const bad3 = await plant(journal, '{}', `ahs2.${'e'.repeat(16)}..json`);
    const bad4 = await plant(journal, '{}', `ahs2.${'f'.repeat(16)}..json`);
    await redeploy(journal);
    const skipped = await failure(journalRollbackTarget(ctx, journal, other, 'V1'));
    expect(skipped.message).toBe(`the journal holds no change of the Default of ${other.assetId}/ios/prod (5 unreadable entries, ${[bad4, bad3, bad2].join(', ')}, decide nothing): which was the Default before V1 cannot be proven; name it with --to VERSION_ID`);
    const one = await startJournal();
    const onlyBad = await plant(one, '{}', `ahs2.${'g'.repeat(16)}..json`);
    await redeploy(one);
    expect((await failure(journalRollbackTarget(ctx, one, other, 'V1'))).message).toContain(`(1 unreadable entry, ${onlyBad}, decide nothing)`);
  });

  it('provenance: time, author and the CI run when there is one', () => {
    const entry = { createdAt: '2026-01-02T03:04:05Z', createdBy: 'a@b.c' } as JournalEntry;
    expect(provenance(entry)).toBe('2026-01-02T03:04:05Z by a@b.c');
    expect(provenance({ ...entry, ci: { runUrl: 'https://ci/1' } } as JournalEntry)).toBe('2026-01-02T03:04:05Z by a@b.c, run https://ci/1');
    expect(provenance({ ...entry, ci: { sha: 's' } } as JournalEntry)).toBe('2026-01-02T03:04:05Z by a@b.c');
  });
});

describe('the journal setting', () => {
  const settings = (env: Record<string, string>, globals: GlobalOptions = {}, given = {}) => resolveSettings(globals, env, undefined, given);
  it('which journal, from where, and how a message names it', () => {
    expect(journalChoice(settings({}))).toEqual({ id: 'ahs-journal', source: 'default', setting: "no journal setting: the domain's ahs-journal" });
    expect(journalChoice(settings({ AHS_JOURNAL: 'j' }))).toEqual({ id: 'j', source: 'env', setting: 'AHS_JOURNAL' });
    expect(journalChoice(settings({ AHS_JOURNAL: '' }))).toEqual({ id: undefined, source: 'off', setting: 'AHS_JOURNAL' });
    expect(journalChoice(settings({}, { journal: 'f' }))).toEqual({ id: 'f', source: 'flag', setting: '--journal' });
    expect(journalChoice(settings({}, { journal: false }))).toEqual({ id: undefined, source: 'off', setting: '--no-journal' });
    expect(journalChoice(settings({}, {}, { journal: 'o' }))).toEqual({ id: 'o', source: 'option', setting: 'the journal option' });
    expect(journalChoice({ profileName: 'ci', resolve: () => ({ value: 'p', source: 'profile' }) })).toEqual({ id: 'p', source: 'profile', setting: "profile ci's key journal" });
    expect(choiceText(journalChoice(settings({ AHS_JOURNAL: '' })))).toBe('none: turned off for this run (AHS_JOURNAL)');
    expect(choiceText(journalChoice(settings({})))).toBe("ahs-journal (no journal setting: the domain's ahs-journal, used when it exists and is marked as a journal)");
    expect(choiceText(journalChoice(settings({ AHS_JOURNAL: 'j' })))).toBe('j (from AHS_JOURNAL)');
  });

  it('the journal a run reads, one it needs, and the words a destructive command adds', async () => {
    const on = { settings: async () => settings({ AHS_JOURNAL: 'team-j' }) };
    const off = { settings: async () => settings({}, { journal: false }) };
    expect(await journalId(on)).toBe('team-j');
    expect(await journalId(off)).toBeUndefined();
    expect(await requireJournal(on, 'rollback')).toBe('team-j');
    const refused = await failure(requireJournal(off, 'rollback'));
    expect(refused).toBeInstanceOf(UsageError);
    expect(refused.message).toBe('rollback needs a journal, and it is turned off for this run (--no-journal): start one with `ahs journal init --env ENV` (it records its id in the profile), or name one with --journal ID or AHS_JOURNAL');
    expect((await failure(requireJournal(off, 'history', 'or not'))).message).toMatch(/`ahs journal init --env ENV` or not$/);
    expect(await journalErasure(on, 'team-j')).toBe(" (the ahs journal: it erases the team's history of writes)");
    expect(await journalErasure(on, 'team-j--3')).toBe(" (the ahs journal: it erases the team's history of writes)");
    expect(await journalErasure(on, 'team-jx')).toBe('');
    expect(await journalErasure(on, 'other')).toBe('');
    expect(await journalErasure(off, 'ahs-journal')).toBe('');
    const long = 'j'.repeat(45);
    expect(await journalErasure({ settings: async () => settings({ AHS_JOURNAL: long }) }, `${'j'.repeat(40)}--2`)).not.toBe('');
  });
});

describe('a rollout\'s entries', () => {
  it('journalOf: the journal named; with no setting the domain\'s ahs-journal only when it is one; none when off', async () => {
    expect(await journalOf(await context({ AHS_JOURNAL: 'named' }))).toBe('named');
    expect(await journalOf(await context({ AHS_JOURNAL: '' }))).toBeUndefined();
    expect(await journalOf(await context())).toBeUndefined();
  });

  it('the entries of one rollout, newest first, with the service\'s time and the actor; others and unreadable ones left out', async () => {
    const journal = await startJournal();
    const ctx = await context({ AHS_JOURNAL: journal });
    const asset = uid('RO');
    const field = (action: string, extra: object = {}) => ({ asset, version: 'V2', platform: 'web', waves: ['dev', 'prod'], wave: 'dev', action, ...extra }) as never;
    const since = new Date(Date.now() - 60_000);
    await appendEntry(ctx, journal, doc('rollout', { rollout: field('intent') }));
    // An entry whose actor is empty (not one ahs writes) is told by the item's author.
    await plant(journal, JSON.stringify(doc('rollout', { rollout: field('promote'), actor: '' })));
    await appendEntry(ctx, journal, doc('rollout', { rollout: { ...(field('promote') as object), version: 'V3' } as never }));
    await appendEntry(ctx, journal, doc('rollout', { rollout: { ...(field('promote') as object), platform: 'ios' } as never }));
    await appendEntry(ctx, journal, doc('rollout', { rollout: { ...(field('promote') as object), asset: 'other' } as never }));
    await appendEntry(ctx, journal, doc('deploy'));
    await plant(journal, '{}', `ahs2.${'h'.repeat(16)}..json`);
    await redeploy(journal);
    const found = await rolloutEntries(ctx, journal, { asset, version: 'V2', platform: 'web' }, since);
    expect(found.map((e) => [e.rollout.action, e.actor])).toEqual([
      ['promote', DEMO_USER],
      ['intent', DEMO_USER],
    ]);
    expect(found[0]!.at).toBeGreaterThanOrEqual(found[1]!.at);
    expect(found[0]!.at).toBeGreaterThan(since.getTime());
    expect(await rolloutEntries(ctx, journal, { asset, version: 'V2', platform: 'web' }, new Date(Date.now() + 3_600_000))).toEqual([]);
  });

  it('the domain\'s ahs-journal used by default that is not there holds no entry; a named one that is not there is an error', async () => {
    expect(await rolloutEntries(await context(), 'ahs-journal', { asset: 'A', version: 'V', platform: 'web' }, new Date(0))).toEqual([]);
    const named = await failure(rolloutEntries(await context({ AHS_JOURNAL: 'nope' }), 'nope', { asset: 'A', version: 'V', platform: 'web' }, new Date(0)));
    expect(named).toBeInstanceOf(NotFoundError);
  });

  it('the domain\'s ahs-journal used by default that is a content collection holds no entry; named, it is an error', async () => {
    // On a service of its own: this file's other tests need a domain without an ahs-journal.
    expect((await cdn.h.call('POST', '/vc', { collectionId: 'ahs-journal', collectionName: 'ahs-journal', description: 'bundle', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    const key = { asset: 'A', version: 'V', platform: 'web' };
    expect(await rolloutEntries(await cdn.context(), 'ahs-journal', key, new Date(0))).toEqual([]);
    const named = await failure(rolloutEntries(await cdn.context({ AHS_JOURNAL: 'ahs-journal' }), 'ahs-journal', key, new Date(0)));
    expect(named).toBeInstanceOf(UsageError);
    expect(named.message).toMatch(/^ahs-journal is not an ahs journal/);
    expect(await journalOf(await cdn.context())).toBeUndefined();
    expect(await journalOf(await cdn.context({ AHS_JOURNAL: 'ahs-journal' }))).toBe('ahs-journal');
    // Any other failure of the default's read is the failure, not an empty journal.
    const refused = await failure(rolloutEntries(await cdn.context({ AHS_API_KEY: 'wrong-key' }), 'ahs-journal', key, new Date(0)));
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(403);
  });
});

// The journal against a service that answers otherwise than the emulator
// does by itself: the run's own client over the emulator, each request seen
// first by a hook that may answer in the service's place (a refusal, a full
// collection, a listing with junk in it) or send it and then lose the
// answer. What is sent is recorded: a journal's reads and writes cost the
// round trips its comments promise.
const isPost = (r: RequestOptions, path: RegExp) => r.method === 'POST' && path.test(r.path);
const isGet = (r: RequestOptions, path: RegExp) => r.method === 'GET' && path.test(r.path);
const refusal = (status: number, title: string, detail = title) => new ApiError(status, { type: 'about:blank', title, status, detail });

interface Through {
  ctx: JournalContext;
  api: Scripted;
  /** The delivery clients asked for (their base URLs), and how many were closed. */
  delivery: { opened: string[]; closed: number };
}

/** A run's context whose client goes through `hook`, and whose delivery client goes through `onDelivery` (its requests by URL). */
async function through(hook?: Hook, onDelivery?: Hook, env: Record<string, string | undefined> = {}, signal?: AbortSignal, from: typeof runs = runs): Promise<Through> {
  const ctx = await from.context(env);
  const api = scripted(await ctx.api(), hook);
  const delivery = { opened: [] as string[], closed: 0 };
  const deliveryClient = async (base: string, connections?: number) => {
    delivery.opened.push(base);
    const real = await ctx.deliveryClient(base, connections);
    const client = scripted(real, onDelivery);
    client.close = async () => {
      delivery.closed += 1;
      await real.close();
    };
    return client;
  };
  return { ctx: { ...ctx, api: async () => api, deliveryClient, ...(signal ? { signal } : {}) }, api, delivery };
}

describe('the journal against a service that answers otherwise', () => {
  it('an append to a journal with room is one request; a read of one collection two, none from the delivery network when every entry is in its name', async () => {
    const journal = await startJournal();
    const { ctx, api, delivery } = await through();
    await appendEntry(ctx, journal, doc('deploy'));
    expect(lines(api)).toEqual([`POST /vc/${journal}/items`]);
    api.sent.length = 0;
    expect(readable(await all(readEntries(ctx, journal))).map((e) => e.command)).toEqual(['deploy', 'journal init']);
    expect(lines(api).sort()).toEqual([`GET /vc/${journal}`, `GET /vc/${journal}/items`]);
    expect(delivery.opened).toEqual([]);
    // The journal's collection already being read (by the caller): only the listing.
    api.sent.length = 0;
    const first = readCollection(await (await context()).api(), journal);
    expect(readable(await all(readEntries(ctx, journal, {}, first))).length).toBe(2);
    expect(lines(api)).toEqual([`GET /vc/${journal}/items`]);
    // A chain the run fills on its first read: the second read lists only.
    const known: KnownChain = {};
    api.sent.length = 0;
    await all(readEntries(ctx, journal, {}, known));
    expect(known.links?.map((link) => [link.collectionId, link.envId])).toEqual([[journal, 'prod']]);
    expect(lines(api).sort()).toEqual([`GET /vc/${journal}`, `GET /vc/${journal}/items`]);
    api.sent.length = 0;
    expect(readable(await all(readEntries(ctx, journal, {}, known))).length).toBe(2);
    expect(lines(api)).toEqual([`GET /vc/${journal}/items`]);
  });

  it('a range is asked of the listing (startDate, endDate), and applied again to what a service answers outside it', async () => {
    const journal = await startJournal();
    await appendEntry(await context(), journal, doc('later'));
    const { ctx, api } = await through();
    const times = readable(await all(readEntries(ctx, journal))).map((e) => new Date(e.createdAt));
    const [newest, oldest] = [times[0]!, times[times.length - 1]!];
    api.sent.length = 0;
    await all(readEntries(ctx, journal, { since: oldest, until: newest }));
    const listing = api.sent.find((r) => isGet(r, /\/items$/))!;
    expect(listing.query).toMatchObject({ startDate: oldest.toISOString(), endDate: newest.toISOString() });
    // A service that ignores the dates: the range still holds.
    const deaf = await through((request, send) => {
      if (!isGet(request, /\/items$/)) return send();
      const { startDate: _since, endDate: _until, ...rest } = request.query ?? {};
      return send({ ...request, query: rest });
    });
    expect(readable(await all(readEntries(deaf.ctx, journal, { since: newest }))).map((e) => e.command)).toEqual(['later']);
    expect(readable(await all(readEntries(deaf.ctx, journal, { until: oldest }))).map((e) => e.command)).toEqual(['journal init']);
    expect(readable(await all(readEntries(deaf.ctx, journal, { since: new Date(newest.getTime() + 1) })))).toEqual([]);
  });

  it('an answer lost after the entry was stored is settled by one read of the last minute\'s items: that entry, stored once', async () => {
    const journal = await startJournal();
    const { ctx, api } = await through(async (request, send) => {
      if (!isPost(request, /\/items$/)) return send();
      await send();
      throw new OutcomeUnknownError('the answer was lost');
    });
    const entry = doc('deploy');
    const before = Date.now();
    const landed = await appendEntry(ctx, journal, entry);
    const after = Date.now();
    expect(lines(api)).toEqual([`POST /vc/${journal}/items`, `GET /vc/${journal}/items`]);
    const since = Date.parse(String(api.sent[1]!.query!.startDate));
    // A minute before the send, on the service's clock (its Date header: to the second).
    expect(since).toBeGreaterThanOrEqual(before - 62_000);
    expect(since).toBeLessThanOrEqual(after - 58_000);
    const stored = readable(await all(readEntries(await context(), journal)));
    expect(stored.map((e) => e.command)).toEqual(['deploy', 'journal init']);
    expect(landed).toMatchObject({ collectionId: journal, item: { assetItemId: stored[0]!.itemId } });
  });

  it('an answer lost before the service stored it: the error, after the one read; nothing else is made', async () => {
    const journal = await startJournal();
    const lost = new OutcomeUnknownError('the answer was lost');
    const { ctx, api } = await through(async (request, send) => {
      if (isPost(request, /\/items$/)) throw lost;
      return send();
    });
    expect(await failure(appendEntry(ctx, journal, doc('deploy')))).toBe(lost);
    expect(lines(api)).toEqual([`POST /vc/${journal}/items`, `GET /vc/${journal}/items`]);
    expect(await readCollection(await (await context()).api(), `${journal}--2`)).toBeUndefined();
  });

  const refusals: Array<[string, () => Error]> = [
    ['a 400 that is not about room', () => refusal(400, 'assetType 1001 is not allowed in this collection')],
    ['a 409 that names a limit', () => refusal(409, 'the limit of writers was reached')],
    ['a 500 that says full', () => refusal(500, 'the disk is full')],
    ['an error of the client that says full', () => new Error('the queue is full')],
  ];
  it.each(refusals)('an append refused otherwise is the error, at once: %s', async (_name, make) => {
    const journal = await startJournal();
    const error = make();
    const { ctx, api } = await through(async (request, send) => {
      if (isPost(request, /\/items$/)) throw error;
      return send();
    });
    expect(await failure(appendEntry(ctx, journal, doc('deploy')))).toBe(error);
    expect(lines(api)).toEqual([`POST /vc/${journal}/items`]);
  });

  it('a 400 that names the limit in its detail only is a full journal: it continues', async () => {
    const journal = await startJournal();
    const { ctx } = await through(async (request, send) => {
      if (isPost(request, new RegExp(`/vc/${journal}/items$`))) throw refusal(400, 'Bad Request', 'maxAssets reached');
      return send();
    });
    expect((await appendEntry(ctx, journal, doc('deploy'))).collectionId).toBe(`${journal}--2`);
    expect((await h.call('GET', `/vc/${journal}`)).body.description).toBe(`ahs journal; env=prod; next=${journal}--2`);
  });

  it('a chain of full collections that links on and on ends after 1,000 tries, saying so', async () => {
    const id = uid('loop');
    const { ctx, api } = await through(async (request) => {
      if (isPost(request, /\/items$/)) throw refusal(400, 'the collection is full');
      return { collectionId: id, collectionName: id, description: `ahs journal; next=${id}`, deleted: false, assetItems: [] };
    });
    const error = await failure(appendEntry(ctx, id, doc('deploy')));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(`the journal ${id} links on and on: fix its collections' descriptions (next=ID)`);
    expect(api.sent.filter((r) => isPost(r, /\/items$/)).length).toBe(1000);
  });

  it('a full journal whose link names a continuation made by hand: the entry lands there, nothing is created', async () => {
    const journal = await startJournal();
    const other = uid('hand');
    expect((await h.call('POST', '/vc', { collectionId: other, collectionName: other, description: 'ahs journal; env=prod', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 1, description: `ahs journal; env=prod; next=${other}`, updatedBy: DEMO_USER })).status).toBe(200);
    expect((await appendEntry(await context(), journal, doc('deploy'))).collectionId).toBe(other);
    expect(await readCollection(await (await context()).api(), `${journal}--2`)).toBeUndefined();
    expect((await h.call('GET', `/vc/${journal}`)).body.description).toBe(`ahs journal; env=prod; next=${other}`);
  });

  it('a continuation another writer created first is taken (409): linked, and the entry lands in it', async () => {
    const journal = await startJournal();
    expect((await h.call('POST', '/vc', { collectionId: `${journal}--2`, collectionName: 'theirs', description: 'ahs journal; env=prod', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 1, updatedBy: DEMO_USER })).status).toBe(200);
    const { ctx, api } = await through();
    expect((await appendEntry(ctx, journal, doc('deploy'))).collectionId).toBe(`${journal}--2`);
    expect(lines(api)).toContain(`GET /vc/${journal}--2`);
    expect((await h.call('GET', `/vc/${journal}`)).body.description).toBe(`ahs journal; env=prod; next=${journal}--2`);
  });

  it('a continuation\'s create whose answer was lost is read: made, it is linked and used; not made, the error', async () => {
    const journal = await startJournal();
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 1, updatedBy: DEMO_USER })).status).toBe(200);
    const lost = new OutcomeUnknownError('the answer was lost');
    const { ctx } = await through(async (request, send) => {
      if (!isPost(request, /\/vc$/)) return send();
      await send();
      throw lost;
    });
    expect((await appendEntry(ctx, journal, doc('deploy'))).collectionId).toBe(`${journal}--2`);
    expect((await h.call('GET', `/vc/${journal}`)).body.description).toBe(`ahs journal; env=prod; next=${journal}--2`);
    const unmade = await startJournal();
    expect((await h.call('PATCH', `/vc/${unmade}`, { maxAssets: 1, updatedBy: DEMO_USER })).status).toBe(200);
    const never = await through(async (request, send) => {
      if (isPost(request, /\/vc$/)) throw lost;
      return send();
    });
    expect(await failure(appendEntry(never.ctx, unmade, doc('deploy')))).toBe(lost);
    expect((await h.call('GET', `/vc/${unmade}`)).body.description).toBe('ahs journal; env=prod');
  });

  it('a continuation\'s create refused otherwise is the error, even with a journal of that name there', async () => {
    const journal = await startJournal();
    expect((await h.call('POST', '/vc', { collectionId: `${journal}--2`, collectionName: 'theirs', description: 'ahs journal; env=prod', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 1, updatedBy: DEMO_USER })).status).toBe(200);
    const refused = refusal(403, 'the key may not create collections');
    const { ctx } = await through(async (request, send) => {
      if (isPost(request, /\/vc$/)) throw refused;
      return send();
    });
    expect(await failure(appendEntry(ctx, journal, doc('deploy')))).toBe(refused);
    expect((await h.call('GET', `/vc/${journal}`)).body.description).toBe('ahs journal; env=prod');
  });

  const deployments: Array<[string, () => Error, boolean]> = [
    ['400 (deployed already)', () => refusal(400, 'already LIVE'), true],
    ['409 (another deployment at once)', () => refusal(409, 'a deployment is in progress'), true],
    ['403', () => refusal(403, 'forbidden'), false],
    ['an error of the client', () => new Error('socket hang up'), false],
  ];
  it.each(deployments)('a continuation\'s deployment answered %s: the same (true) or the error', async (_name, make, same) => {
    const error = make();
    const { api } = await through(async () => {
      throw error;
    });
    const deployed = deployContinuation(api, 'j--2', 'prod', DEMO_USER);
    if (same) await expect(deployed).resolves.toBeUndefined();
    else expect(await failure(deployed)).toBe(error);
    expect(lines(api)).toEqual(['POST /vc/j--2/deployments']);
  });

  /** A journal with an entry too large for its name (read from its content) between two read from their names. */
  async function journalWithContent(): Promise<{ journal: string; big: string }> {
    const journal = await startJournal();
    const ctx = await context();
    const big = (await appendEntry(ctx, journal, doc('apply', { arguments: BIG }))).item.assetItemId;
    await appendEntry(ctx, journal, doc('deploy'));
    return { journal, big };
  }
  const summary = (entries: EntryRead[]) => entries.map((e) => (isUnreadable(e) ? `unreadable ${e.itemId}: ${e.reason}` : e.command));

  it('an entry read from its content: one delivery client, of the delivery URL set (or the one the deployment gives), closed once, also when the reader stops early', async () => {
    const { journal, big } = await journalWithContent();
    const slash = `${h.env.AHS_DELIVERY_URL}/`;
    const set = await through(undefined, undefined, { AHS_DELIVERY_URL: slash });
    expect(summary(await all(readEntries(set.ctx, journal)))).toEqual(['deploy', 'apply', 'journal init']);
    expect(set.delivery).toEqual({ opened: [slash], closed: 1 });
    const unset = await through(undefined, undefined, { AHS_DELIVERY_URL: undefined });
    expect(summary(await all(readEntries(unset.ctx, journal)))).toEqual(['deploy', 'apply', 'journal init']);
    expect(unset.delivery).toEqual({ opened: [h.env.AHS_DELIVERY_URL], closed: 1 });
    for await (const entry of readEntries(set.ctx, journal)) if (!isUnreadable(entry) && entry.command === 'apply') break;
    expect(set.delivery.closed).toBe(2);
    expect(big).not.toBe('');
  });

  it('a delivery document that is not one, or not read: the error, the client closed', async () => {
    const { journal } = await journalWithContent();
    const notOne = await through(undefined, async () => null);
    const error = await failure(all(readEntries(notOne.ctx, journal)));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/^http\S+ did not answer with a collection delivery document \(assetItemUrls: expected an array\)$/);
    expect(notOne.delivery.closed).toBe(1);
    const down = refusal(503, 'the delivery network is down');
    const unread = await through(undefined, async () => {
      throw down;
    });
    expect(await failure(all(readEntries(unread.ctx, journal)))).toBe(down);
    expect(unread.delivery.closed).toBe(1);
  });

  it('a delivery document without an entry, or listing junk beside it; a file that fails, its reason cut at 120 characters', async () => {
    const { journal, big } = await journalWithContent();
    let documentUrl = '';
    const without = await through(undefined, async (request, send) => {
      const answer = (await send()) as { assetItemUrls?: Array<{ assetItemId: string }> };
      if (!Array.isArray(answer?.assetItemUrls)) return answer;
      documentUrl = request.path;
      return { ...answer, assetItemUrls: answer.assetItemUrls.filter((entry) => entry.assetItemId !== big) };
    });
    expect(summary(await all(readEntries(without.ctx, journal)))).toEqual(['deploy', `unreadable ${big}: its content is not in ${journal}'s delivery document (deployed before it was added?)`, 'journal init']);
    expect(documentUrl).toMatch(/^http/);
    const junk = await through(undefined, async (_request, send) => {
      const answer = (await send()) as { assetItemUrls?: unknown[] };
      if (!Array.isArray(answer?.assetItemUrls)) return answer;
      return { ...answer, assetItemUrls: [null, 5, { assetItemId: 7, downloadUrl: '/api/vi/x' }, ...answer.assetItemUrls, { assetItemId: big, downloadUrl: 7 }, { assetItemId: big }] };
    });
    expect(summary(await all(readEntries(junk.ctx, journal)))).toEqual(['deploy', 'apply', 'journal init']);
    const failing = await through(undefined, async (request, send) => {
      const answer = await send();
      if (Array.isArray((answer as { assetItemUrls?: unknown })?.assetItemUrls)) return answer;
      throw new Error(`${'e'.repeat(150)} ${request.path}`);
    });
    expect(summary(await all(readEntries(failing.ctx, journal)))).toEqual(['deploy', `unreadable ${big}: its content could not be read (${'e'.repeat(120)})`, 'journal init']);
  });

  it('a file read cut by the run\'s interrupt is the interrupt, not an unreadable entry', async () => {
    const { journal } = await journalWithContent();
    const controller = new AbortController();
    const cut = new Error('aborted');
    const { ctx } = await through(
      undefined,
      async (_request, send) => {
        const answer = await send();
        if (Array.isArray((answer as { assetItemUrls?: unknown })?.assetItemUrls)) return answer;
        controller.abort();
        throw cut;
      },
      {},
      controller.signal,
    );
    expect(await failure(all(readEntries(ctx, journal)))).toBe(cut);
  });

  it('the listing is checked item by item: junk left out, missing names and authors read as empty', async () => {
    const journal = await startJournal();
    const ctx0 = await context();
    const [init] = readable(await all(readEntries(ctx0, journal)));
    await appendEntry(ctx0, journal, doc('apply', { arguments: BIG }));
    const now = new Date().toISOString();
    const junk = [null, 5, 'item', { createdAt: now }, { assetItemId: 7, createdAt: now }, { assetItemId: 'j1', createdAt: 7 }, { assetItemId: 'j2', createdAt: 'yesterday' }, { assetItemId: 'j3' }];
    const { ctx } = await through(async (request, send) => {
      const answer = (await send()) as { results?: Array<Record<string, unknown>> };
      if (!isGet(request, /\/items$/) || !Array.isArray(answer?.results)) return answer;
      // The apply entry's item as a service might list it: a name and an author not strings, no file name (read from its content).
      const odd = answer.results.map((item) => (String(item.assetItemName).endsWith(' apply') ? { ...item, assetItemName: 5, createdBy: null, fileName: 42 } : item));
      return { ...answer, results: [...junk, ...odd] };
    });
    const entries = await all(readEntries(ctx, journal));
    expect(entries.map((e) => (isUnreadable(e) ? `unreadable ${e.itemId}` : `${e.command} [${e.itemName}] [${e.createdBy}]`))).toEqual(['apply [] []', `journal init [${init!.itemName}] [${DEMO_USER}]`]);
  });

  it('entries of the same time come newest id first, whatever the listing\'s order; the time decides before the id', async () => {
    const journal = await startJournal();
    const ctx0 = await context();
    for (const command of ['a', 'b', 'c']) await appendEntry(ctx0, journal, doc(command));
    const same = '2026-01-01T00:00:00.000Z';
    const tied = await through(async (request, send) => {
      const answer = (await send()) as { results?: Array<Record<string, unknown>> };
      if (!isGet(request, /\/items$/) || !Array.isArray(answer?.results)) return answer;
      // Neither in the order of the ids nor in its reverse: the second first.
      const results = answer.results.map((item) => ({ ...item, createdAt: same }));
      return { ...answer, results: [...results.slice(1), results[0]!] };
    });
    const entries = readable(await all(readEntries(tied.ctx, journal)));
    const ids = entries.map((e) => e.itemId);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(new Set(entries.map((e) => e.createdAt))).toEqual(new Set([same]));
    // The time first: the highest id made the oldest.
    const byId = [...ids].sort();
    const aged = await through(async (request, send) => {
      const answer = (await send()) as { results?: Array<Record<string, unknown>> };
      if (!isGet(request, /\/items$/) || !Array.isArray(answer?.results)) return answer;
      return { ...answer, results: answer.results.map((item) => ({ ...item, createdAt: new Date(Date.parse(same) + byId.indexOf(String(item.assetItemId)) * -1000).toISOString() })) };
    });
    expect(readable(await all(readEntries(aged.ctx, journal))).map((e) => e.itemId)).toEqual(byId);
  });

  it('the listing of the journal refused: its error', async () => {
    const journal = await startJournal();
    const refused = refusal(403, 'the key may not list items');
    const { ctx } = await through(async (request, send) => {
      if (isGet(request, /\/items$/)) throw refused;
      return send();
    });
    expect(await failure(all(readEntries(ctx, journal)))).toBe(refused);
  });

  it('an entry that needs its content as the oldest of a range is read too', async () => {
    const journal = await startJournal();
    const ctx = await context();
    const init = readable(await all(readEntries(ctx, journal)))[0]!;
    await appendEntry(ctx, journal, doc('apply', { arguments: BIG }));
    const since = new Date(Date.parse(init.createdAt) + 1);
    expect(summary(await all(readEntries(ctx, journal, { since })))).toEqual(['apply']);
  });

  it('a chain read with its first collection given reads only the others, each link with its own collection; it stops at a link that is not a journal', async () => {
    const journal = await startJournal();
    const ctx = await context();
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 1, updatedBy: DEMO_USER })).status).toBe(200);
    await appendEntry(ctx, journal, doc('two'));
    const { api } = await through();
    const chain = await journalChain(api, journal, readCollection(await ctx.api(), journal));
    expect(chain.map((link) => [link.collectionId, link.collection.collectionId])).toEqual([[journal, journal], [`${journal}--2`, `${journal}--2`]]);
    expect(lines(api)).toEqual([`GET /vc/${journal}--2`]);
    const content = uid('content');
    expect((await h.call('POST', '/vc', { collectionId: content, collectionName: content, description: 'bundle', allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    expect((await h.call('PATCH', `/vc/${journal}`, { description: `ahs journal; env=prod; next=${content}`, updatedBy: DEMO_USER })).status).toBe(200);
    expect((await journalChain(api, journal)).map((l) => l.collectionId)).toEqual([journal]);
  });

  it('with no delivery URL set, the content is asked of the host the deployment names, not of the API\'s (the setting\'s default)', async () => {
    const journal = uid('cdn');
    const ch = cdn.h;
    expect((await ch.call('POST', '/vc', { collectionId: journal, collectionName: journal, description: describeJournal({ envId: 'prod' }), allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    const writer = await cdn.context();
    await appendEntry(writer, journal, doc('journal init'));
    expect((await ch.call('POST', `/vc/${journal}/deployments`, { state: 'LIVE', createdBy: DEMO_USER, envId: 'prod' })).status).toBeLessThan(300);
    await appendEntry(writer, journal, doc('apply', { arguments: BIG }));
    expect(ch.env.AHS_DELIVERY_URL).not.toBe(ch.env.AHS_BASE_URL);
    const { ctx, delivery } = await through(undefined, undefined, { AHS_DELIVERY_URL: undefined }, undefined, cdn);
    // Its host is not one the settings name, so the key is not sent there: this service's delivery refuses it.
    const refused = await failure(all(readEntries(ctx, journal)));
    expect(refused.message).toMatch(/secured; send an API key/);
    expect(delivery).toEqual({ opened: [ch.env.AHS_DELIVERY_URL], closed: 1 });
    const set = await through(undefined, undefined, {}, undefined, cdn);
    expect(summary(await all(readEntries(set.ctx, journal)))).toEqual(['apply', 'journal init']);
    expect(set.delivery.opened).toEqual([ch.env.AHS_DELIVERY_URL]);
  });
});

describe('history\'s reads', () => {
  it('a range relative at both ends is listed once, the early listing widened at both ends', async () => {
    const journal = await startJournal();
    await appendEntry(await context(), journal, doc('recent'));
    const { ctx, api } = await through();
    const back = (ms: number): RangeEnd => Object.assign(new Date(0), { backMs: ms });
    const found = readable((await all(readHistory(ctx, journal, { since: back(10 * 60_000), until: back(-60_000) }))) as EntryRead[]).map((e) => e.command);
    expect(found).toEqual(['recent', 'journal init']);
    const listings = api.sent.filter((r) => isGet(r, /\/items$/));
    expect(listings.length).toBe(1);
    expect(Date.parse(String(listings[0]!.query!.endDate))).toBeGreaterThanOrEqual(Date.now() + CLOCK_MARGIN_MS);
  });

  it('a Default already being read is not read again; an address without its platform is not read at all', async () => {
    const { api } = await through();
    const entry = (changes: object[]) => ({ changes }) as unknown as HistoryEntry;
    const known = { ...promotion('K', null, 'V1') };
    const noPlatform = { address: 'channel.K..prod', before: null, after: { default: 'V1' } };
    expect(await markDisagreements(api, [entry([known, noPlatform])], new Map([[known.address, Promise.resolve('V0')]]))).toEqual([{ address: known.address, journal: 'V1', current: 'V0' }]);
    expect(known).toMatchObject({ current: { default: 'V0' }, disagrees: true });
    expect(noPlatform).not.toHaveProperty('current');
    expect(api.sent).toEqual([]);
  });
});

describe('the early listing of a relative range (history)', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    ['open outer covers any range', {}, { since: at('2026-01-01T00:00:00Z') }, true],
    ['an outer start at or before the inner one', { since: at('2026-01-01T00:00:00Z') }, { since: at('2026-01-01T00:00:00Z') }, true],
    ['an outer start after the inner one', { since: at('2026-01-01T00:00:01Z') }, { since: at('2026-01-01T00:00:00Z') }, false],
    ['an outer start, an inner range open at its start', { since: at('2026-01-01T00:00:00Z') }, {}, false],
    ['an outer end at or after the inner one', { until: at('2026-01-02T00:00:00Z') }, { until: at('2026-01-02T00:00:00Z') }, true],
    ['an outer end before the inner one', { until: at('2026-01-01T23:59:59Z') }, { until: at('2026-01-02T00:00:00Z') }, false],
    ['an outer end, an inner range open at its end', { until: at('2026-01-02T00:00:00Z') }, {}, false],
    ['both ends inside', { since: at('2026-01-01T00:00:00Z'), until: at('2026-01-03T00:00:00Z') }, { since: at('2026-01-02T00:00:00Z'), until: at('2026-01-02T01:00:00Z') }, true],
  ])('%s', (_name, outer, inner, expected) => {
    expect(covers(outer, inner)).toBe(expected);
  });

  it.each([
    ['no end', undefined, 0, undefined],
    ['an absolute end, as given', at('2026-01-01T00:00:00Z'), -600_000, '2026-01-01T00:00:00.000Z'],
    ['a relative end, moved earlier', Object.assign(new Date(0), { backMs: 60_000 }), -600_000, new Date(Date.parse('2026-06-01T12:00:00Z') - 660_000).toISOString()],
    ['a relative end, moved later', Object.assign(new Date(0), { backMs: 60_000 }), 600_000, new Date(Date.parse('2026-06-01T12:00:00Z') + 540_000).toISOString()],
  ])('widened: %s', (_name, end, margin, expected) => {
    expect(widened(end as RangeEnd | undefined, Date.parse('2026-06-01T12:00:00Z'), margin)?.toISOString()).toBe(expected);
  });
});
