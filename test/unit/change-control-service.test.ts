// Change control's reads and writes in the service
// (src/service/change-control.ts), below the commands and the gate: the
// functions called with a real run's context over the emulator on port 0,
// its client's requests seen first by a hook that may fail one, lose its
// answer, or hold it while another holder moves (the races of the
// compare-and-set). What is asserted is what a user would get: the lock
// cell's state afterwards (read back as `lock status` reads it), the error
// and its words, and what was sent.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, uid, type Harness } from '../e2e/helpers.js';
import { runContexts } from '../support/run-contexts.js';
import { failure } from '../support/failure.js';
import { scripted, type Hook } from '../support/scripted-client.js';
import { ApiError, BlockedError, CancelledError, NetworkError, OutcomeUnknownError, UsageError } from '../../src/errors.js';
import type { RequestOptions } from '../../src/http/client.js';
import { blockName, ciLockId, CONTROL_ASSET, freezeName, LOCK_ASSET, lockAssetOf, lockName, scopeText, type Scope } from '../../src/rules/change-control.js';
import {
  acquireLock,
  addBlock,
  addFreeze,
  blockFileName,
  blocksAmong,
  blocksOf,
  ciJobOf,
  ciSelfId,
  describeHolder,
  freeVersion,
  LeaseKeeper,
  listFreezes,
  listLocks,
  lockStatus,
  newExplicitLockId,
  readBlock,
  readCell,
  readControlFacts,
  readControlRecords,
  reasonOfBlockFile,
  releaseHeld,
  releaseLock,
  removeBlock,
  removeFreezes,
  sweepCell,
  unreadable,
  watchLock,
  type AcquireOptions,
  type HeldLock,
  type LockStatus,
} from '../../src/service/change-control.js';
import type { AssetUrl, Version } from '../../src/rules/schemas.js';
import { memoryMultipart } from '../../src/service/multipart.js';

const runs = runContexts('cc-service');
let h: Harness;
beforeAll(() => {
  h = runs.h;
});


/** A run's context and its client, each request seen first by `hook`. */
async function service(hook?: Hook, env: Record<string, string | undefined> = {}) {
  const ctx = await runs.context({ AHS_JOURNAL: '', ...env });
  const api = scripted(await ctx.api(), hook);
  return { ctx, api, reader: { settings: ctx.settings, deliveryClient: ctx.deliveryClient } };
}
const line = (r: RequestOptions) => `${r.method} ${r.path.replace(/^\/api\/v2\/demo/, '')}`;
const refusal = (status: number, title: string) => new ApiError(status, { type: 'about:blank', title, status, detail: title });
const channel = (env = 'prod'): Extract<Scope, { kind: 'channel' }> => ({ kind: 'channel', assetId: uid('a'), platform: 'ios', env });
const quiet = new AbortController().signal;
/** A lease's end or a since as a refusal says it: the ISO text, then the rest of the message at once. */
const ISO = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';
const take = (scope: Scope, lockId: string, extra: Partial<AcquireOptions> = {}): AcquireOptions => ({ scope, lockId, ttlMs: 60_000, user: DEMO_USER, command: 'test', env: {}, waitMs: 0, signal: quiet, ...extra });
const status = async (scope: Scope) => {
  const read = await h.ahs(['lock', 'status', scopeText(scope), '--json']);
  expect(read.exitCode, read.stderr).toBe(0);
  return read.json();
};

describe('names and words', () => {
  const GH = { GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '42', GITHUB_JOB: 'deploy' };
  it.each<[string, Record<string, string>, { attempt: number } | undefined]>([
    ['a job', GH, { attempt: 1 }],
    ['its third attempt', { ...GH, GITHUB_RUN_ATTEMPT: '3' }, { attempt: 3 }],
    ['attempt 9999', { ...GH, GITHUB_RUN_ATTEMPT: '9999' }, { attempt: 9999 }],
    ['attempt 10000: 1', { ...GH, GITHUB_RUN_ATTEMPT: '10000' }, { attempt: 1 }],
    ['attempt 0: 1', { ...GH, GITHUB_RUN_ATTEMPT: '0' }, { attempt: 1 }],
    ['attempt 1.5: 1', { ...GH, GITHUB_RUN_ATTEMPT: '1.5' }, { attempt: 1 }],
    ['attempt x: 1', { ...GH, GITHUB_RUN_ATTEMPT: 'x' }, { attempt: 1 }],
    ['not GitHub Actions', { ...GH, GITHUB_ACTIONS: 'false' }, undefined],
    ['no run id', { ...GH, GITHUB_RUN_ID: '' }, undefined],
    ['no job', { ...GH, GITHUB_JOB: '' }, undefined],
  ])('the CI job of %s', (_name, env, expected) => {
    const job = ciJobOf(env);
    if (!expected) return expect(job).toBeUndefined();
    expect(job).toEqual({ key: expect.stringMatching(/^[0-9a-f]{10}$/), attempt: expected.attempt });
  });

  it('a job\'s key is its server, repository, run and job; the lock ids made from it', () => {
    const key = ciJobOf(GH)!.key;
    for (const other of [{ GITHUB_SERVER_URL: 'https://ghe.example' }, { GITHUB_REPOSITORY: 'o/s' }, { GITHUB_RUN_ID: '43' }, { GITHUB_JOB: 'test' }]) expect(ciJobOf({ ...GH, ...other })!.key).not.toBe(key);
    expect(ciJobOf({ ...GH, GITHUB_RUN_ATTEMPT: '2' })!.key).toBe(key);
    // Without a server or repository named, the job still has a key of its own.
    expect(ciJobOf({ ...GH, GITHUB_SERVER_URL: '', GITHUB_REPOSITORY: '' })!.key).not.toBe(key);
    // Unset is the same job as empty (a runner that leaves them out).
    expect(ciJobOf({ ...GH, GITHUB_SERVER_URL: undefined, GITHUB_REPOSITORY: undefined })!.key).toBe(ciJobOf({ ...GH, GITHUB_SERVER_URL: '', GITHUB_REPOSITORY: '' })!.key);
    expect(newExplicitLockId({ ...GH, GITHUB_RUN_ATTEMPT: '2' })).toMatch(new RegExp(`^gh-${key}-2-[0-9a-f]{6}$`));
    expect(newExplicitLockId({})).toMatch(/^[0-9a-f]{12}$/);
    expect(newExplicitLockId({})).not.toBe(newExplicitLockId({}));
    expect(ciSelfId({ ...GH, GITHUB_RUN_ATTEMPT: '2' })).toBe(ciLockId(key, 2, '000000'));
    expect(ciSelfId({})).toBeUndefined();
  });

  it('a block\'s reason in its file name, cut to fit, and read back only from such a name', () => {
    expect(blockFileName('crash on start')).toBe(`block.${Buffer.from('crash on start').toString('base64url')}.json`);
    const long = 'é'.repeat(200);
    const cut = blockFileName(long);
    const encoded = /^block\.([A-Za-z0-9_-]+)\.json$/.exec(cut)![1]!;
    expect(encoded.length).toBeLessThanOrEqual(180);
    expect(encoded.length).toBeGreaterThan(170);
    expect(long.startsWith(reasonOfBlockFile(cut)!)).toBe(true);
    expect(reasonOfBlockFile(blockFileName('x'.repeat(135)))).toBe('x'.repeat(135));
    expect(reasonOfBlockFile(blockFileName('x'.repeat(136)))).toBe('x'.repeat(135));
    expect(reasonOfBlockFile(blockFileName('crash on start'))).toBe('crash on start');
    for (const name of [undefined, '', 'bundle.zip', 'block..json', 'block.YQ.json.gz', 'xblock.YQ.json', `block.${Buffer.from('a\nb').toString('base64url')}.json`, `block.${Buffer.from('a\u007fb').toString('base64url')}.json`, 'block.=.json', 'block.A.json']) {
      expect(reasonOfBlockFile(name)).toBeUndefined();
    }
  });

  it('a holder in words', () => {
    const base = { holder: 'ana@example.com', command: 'release', ci: { runUrl: 'https://ci/run/1' }, reason: 'hotfix', since: '2026-12-01T14:02:00.000Z', leaseEnd: '2026-12-01T14:17:00.000Z', lockId: 'abc123' };
    expect(describeHolder(base)).toBe('held by ana@example.com (release, https://ci/run/1), lock id abc123, since 2026-12-01T14:02:00.000Z, lease ends 2026-12-01T14:17:00.000Z; reason: hotfix');
    expect(describeHolder({ ...base, holder: null, command: null, ci: null, reason: null })).toBe('held by an unknown holder, lock id abc123, since 2026-12-01T14:02:00.000Z, lease ends 2026-12-01T14:17:00.000Z');
    expect(describeHolder({ ...base, ci: null })).toContain('(release), lock id');
    expect(describeHolder({ ...base, command: null })).toContain('(https://ci/run/1), lock id');
  });

  it('the blocks among ahs-control\'s versions', () => {
    const v = (versionName: string) => ({ versionName, versionId: `id-${versionName.length}`, createdBy: 'u', createdAt: 't' }) as never;
    expect(blocksOf([v('block A/V1'), v('freeze prod until 20261224T000000Z'), v(`block #${'0'.repeat(16)}`), v('block A')])).toEqual([
      { name: 'block A/V1', versionId: 'id-10', createdBy: 'u', createdAt: 't' },
      { name: `block #${'0'.repeat(16)}`, versionId: 'id-23', createdBy: 'u', createdAt: 't' },
    ]);
  });

  describe('the blocks among an asset\'s versions, from ahs-control\'s records', () => {
    const record = (versionName: string, versionId: string, fileName?: string, createdBy = 'ana@example.com') => ({ versionId, versionName, createdBy, createdAt: '2026-12-01T10:00:00Z', ...(fileName ? { fileName } : {}) }) as never;
    const long = `a-${'x'.repeat(70)}`;
    const records = [
      record(blockName('A', 'V1'), 'B1', blockFileName('crash on start')),
      record(blockName('A', 'V2'), 'B2', 'control.json', 'ben@example.com'),
      record(blockName('Z', 'V3'), 'B3', blockFileName('elsewhere')),
      record(freezeName('prod', { kind: 'until', until: Date.UTC(2026, 11, 24) }), 'F1'),
      record(blockName(long, 'V1'), 'B4', blockFileName('hashed')),
    ];
    it.each<[string, string, string[], Array<[string, string, string, string | null]>]>([
      ['one blocked, its reason from its file name', 'A', ['V1'], [['V1', 'B1', 'ana@example.com', 'crash on start']]],
      ['in the order asked, a record whose file name was changed has no reason', 'A', ['V2', 'V1'], [['V2', 'B2', 'ben@example.com', null], ['V1', 'B1', 'ana@example.com', 'crash on start']]],
      ['a version not among those asked', 'A', ['V2'], [['V2', 'B2', 'ben@example.com', null]]],
      ['none blocked', 'A', ['V3', 'V9'], []],
      ['nothing asked', 'A', [], []],
      ['another asset\'s block', 'Z', ['V1', 'V3'], [['V3', 'B3', 'ana@example.com', 'elsewhere']]],
      ['a long name\'s block (named by its hash)', long, ['V1', 'V2'], [['V1', 'B4', 'ana@example.com', 'hashed']]],
    ])('%s', (_name, assetId, versionIds, expected) => {
      expect(blocksAmong(records, assetId, versionIds)).toEqual(expected.map(([versionId, blockVersionId, actor, reason]) => ({ assetId, versionId, blockVersionId, actor, createdAt: '2026-12-01T10:00:00Z', reason })));
    });
    it('no records: no blocks', () => expect(blocksAmong([], 'A', ['V1'])).toEqual([]));
  });

  it('a read that failed, as exit 6 naming it (a network error as it is)', () => {
    const lost = new NetworkError('the connection was reset');
    expect(unreadable(lost)).toBe(lost);
    const read = unreadable(new Error('the service answered 500. '));
    expect(read).toBeInstanceOf(NetworkError);
    expect(read.message).toBe('change control could not be read (the service answered 500): the write was stopped, nothing was sent; ahs lock status and ahs freeze list read it');
    expect(unreadable('odd').message).toBe('change control could not be read (odd): the write was stopped, nothing was sent; ahs lock status and ahs freeze list read it');
    expect(unreadable(null).message).toContain('(null)');
  });
});

describe('reads', () => {
  it('a cell with no sentinel asset is free; a read that fails otherwise is the failure, and a check\'s is exit 6', async () => {
    const scope = channel();
    const { api } = await service();
    expect(await readCell(api, scope)).toEqual({ scope });
    const refused = refusal(403, 'forbidden');
    const failing = await service((request, send) => (request.method === 'GET' ? Promise.reject(refused) : send()));
    expect(await failure(readCell(failing.api, scope))).toBe(refused);
    const check = await failure(readControlFacts(failing.api, [scope]));
    expect(check).toBeInstanceOf(NetworkError);
    expect(check.message).toMatch(/^change control could not be read \(forbidden\): the write was stopped, nothing was sent/);
    // One round: ahs-control's versions and each cell, at once.
    const { api: counted } = await service();
    const facts = await readControlFacts(counted, [scope, { kind: 'collection', collectionId: 'C', env: 'prod' }]);
    expect(facts.cells.map((c) => scopeText(c.scope))).toEqual(['prod', scopeText(scope), 'C@prod']);
    expect(counted.sent.map(line).sort()).toEqual([`GET /va/${CONTROL_ASSET}/versions`, `GET /va/${LOCK_ASSET}/asset-urls`, `GET /va/${lockAssetOf(scope)}/asset-urls`, `GET /va/${lockAssetOf({ kind: 'collection', collectionId: 'C', env: 'prod' })}/asset-urls`].sort());
    expect(Math.abs(facts.now - Date.now())).toBeLessThan(60_000);
  });

  it('ahs-control not there (404) is no freezes and no blocks; any other refusal of its listing is the failure, and a check\'s is exit 6', async () => {
    const listing = (error: Error) => service((request, send) => (request.method === 'GET' && request.path.endsWith(`/va/${CONTROL_ASSET}/versions`) ? Promise.reject(error) : send()));
    const none = await listing(refusal(404, 'no such asset'));
    expect(await readControlRecords(none.api)).toEqual([]);
    expect((await readControlFacts(none.api, [])).records).toEqual([]);
    const broken = refusal(500, 'broken');
    const down = await listing(broken);
    expect(await failure(readControlRecords(down.api))).toBe(broken);
    expect((await failure(readControlFacts(down.api, []))).message).toMatch(/^change control could not be read \(broken\): the write was stopped/);
  });

  it('a held lock\'s status: holder, command, CI run, reason, since, lease end; expired once its lease passed on the service\'s clock; free', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '7', GITHUB_SHA: 'abc', GITHUB_REF: 'refs/heads/main' };
    const held = await acquireLock(reader, api, take(scope, 'holder-one', { reason: 'release train', command: 'release', env, ttlMs: 30_000 }));
    const read = await lockStatus(reader, api, scope);
    expect(read).toEqual({
      scope: scopeText(scope),
      held: true,
      lockId: 'holder-one',
      holder: DEMO_USER,
      command: 'release',
      ci: { runUrl: 'https://github.com/o/r/actions/runs/7', sha: 'abc', ref: 'refs/heads/main' },
      reason: 'release train',
      // To the second, as the lock's name carries it.
      since: new Date(Math.floor(held.since / 1000) * 1000).toISOString(),
      leaseEnd: new Date(held.leaseEnd).toISOString(),
      expired: false,
      versionId: held.versionId,
    });
    expect(held.leaseEnd % 1000).toBe(0);
    expect(held.leaseEnd - held.since).toBeGreaterThanOrEqual(30_000);
    expect(held.leaseEnd - held.since).toBeLessThan(32_000);
    h.emu.advanceClock(31_000);
    expect(await lockStatus(reader, api, scope)).toMatchObject({ held: false, expired: true, lockId: 'holder-one', versionId: held.versionId });
    // Taken over after its lease ended: a new holder's own since.
    const next = await acquireLock(reader, api, take(scope, 'holder-two'));
    expect(next.replaced).toBe(held.versionId);
    expect(next.since).toBeGreaterThan(held.since);
    expect(await releaseHeld(api, next, DEMO_USER)).toBe(true);
    // Free (its free version the Default), or never locked: the cell's read and nothing else (no holder to read about).
    for (const cell of [scope, channel()]) {
      api.sent.length = 0;
      expect(await lockStatus(reader, api, cell)).toEqual({ scope: scopeText(cell), held: false, lockId: null, holder: null, command: null, ci: null, reason: null, since: null, leaseEnd: null, expired: false, versionId: null });
      expect(api.sent.map(line)).toEqual([`GET /va/${lockAssetOf(cell)}/asset-urls`]);
    }
  });

  it('a holder whose version\'s record cannot be read is named by its content; one whose content cannot be read either, unknown', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const held = await acquireLock(reader, api, take(scope, 'holder-one'));
    const versionPath = new RegExp(`/va/${lockAssetOf(scope)}/versions/${held.versionId}$`);
    const noRecord = await service((request, send) => (request.method === 'GET' && versionPath.test(request.path) ? Promise.reject(new Error('gone')) : send()));
    expect(await lockStatus(noRecord.reader, noRecord.api, scope)).toMatchObject({ holder: DEMO_USER, command: 'test' });
    const nothing = await service((request, send) => (request.method === 'GET' && /\/versions\/[^/]+(\/asset-urls)?$/.test(request.path) ? Promise.reject(new Error('gone')) : send()));
    expect(await lockStatus(nothing.reader, nothing.api, scope)).toMatchObject({ held: true, holder: null, command: null, ci: null, reason: null });
    // The service recorded another creator than the content says (its own account of who sent it): the service's word.
    const recorded = await service((request, send) => send().then((answer) => (request.method === 'GET' && versionPath.test(request.path) ? { ...(answer as object), createdBy: 'gateway@example.com' } : answer)));
    expect(await lockStatus(recorded.reader, recorded.api, scope)).toMatchObject({ held: true, holder: 'gateway@example.com', command: 'test' });
    await releaseHeld(api, held, DEMO_USER);
  });

  it('every lock held now, sorted, in one environment when given; an inner lock whose record does not read back named by its sentinel', async () => {
    const env = 'staging';
    const a: Scope = { kind: 'channel', assetId: `a-${uid('l')}`, platform: 'ios', env };
    const b: Scope = { kind: 'collection', collectionId: `b-${uid('l')}`, env };
    const elsewhere: Scope = { kind: 'channel', assetId: a.assetId, platform: 'ios', env: 'dev' };
    const { api, reader } = await service();
    const held = [await acquireLock(reader, api, take(b, 'holder-b')), await acquireLock(reader, api, take(a, 'holder-a')), await acquireLock(reader, api, take(elsewhere, 'holder-d'))];
    const ended = await acquireLock(reader, api, take(channel(env), 'holder-e', { ttlMs: 1000 }));
    h.emu.advanceClock(2000);
    try {
      const listed = (await listLocks(reader, api, env)).filter((s) => [a, b].some((x) => s.scope === scopeText(x)) || s.lockId === 'holder-e');
      expect(listed.map((s) => [s.scope, s.lockId, s.held])).toEqual([[scopeText(a), 'holder-a', true], [scopeText(b), 'holder-b', true]]);
      const everywhere = (await listLocks(reader, api)).map((s) => s.lockId);
      expect(everywhere).toEqual(expect.arrayContaining(['holder-a', 'holder-b', 'holder-d']));
      expect(everywhere).not.toContain('holder-e');
      const sorted = (await listLocks(reader, api)).map((s) => s.scope);
      expect(sorted).toEqual([...sorted].sort((x, y) => x.localeCompare(y)));
      // The content of a's lock not readable: its sentinel and environment named.
      const blind = await service((request, send) => (request.method === 'GET' && request.path.includes(`/va/${lockAssetOf(a)}/versions/`) ? Promise.reject(new Error('gone')) : send()));
      const unreadableOne = (await listLocks(blind.reader, blind.api, env)).find((s) => s.lockId === 'holder-a');
      expect(unreadableOne).toMatchObject({ scope: `${lockAssetOf(a)}@${env} (unreadable record)`, held: true });
      // A sentinel deleted between the listing and its read: none there.
      const vanished = await service((request, send) => (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(b)}/asset-urls`) ? Promise.reject(refusal(404, 'not found')) : send()));
      expect((await listLocks(vanished.reader, vanished.api, env)).map((s) => s.lockId)).not.toContain('holder-b');
      const broken = await service((request, send) => (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(b)}/asset-urls`) ? Promise.reject(refusal(500, 'broken')) : send()));
      expect((await failure(listLocks(broken.reader, broken.api, env))).message).toBe('broken');
    } finally {
      for (const lock of [...held, ended]) await releaseHeld(api, lock, DEMO_USER);
    }
  });
});

describe('an environment\'s lock listed', () => {
  it('is listed under its environment, as its scope, with its holder', async () => {
    const { api, reader } = await service();
    const env: Scope = { kind: 'env', env: 'dev' };
    const lock = await acquireLock(reader, api, take(env, 'holder-env'));
    try {
      expect((await listLocks(reader, api, 'dev')).filter((s) => s.lockId === 'holder-env').map((s) => [s.scope, s.held])).toEqual([['dev', true]]);
      expect((await listLocks(reader, api, 'prod')).map((s) => s.lockId)).not.toContain('holder-env');
      // Its record's content read once (for its holder's words), not once more for its scope: an environment's sentinel names it.
      api.sent.length = 0;
      await listLocks(reader, api, 'dev');
      expect(api.sent.filter((r) => r.path.includes(`/va/${LOCK_ASSET}/versions/${lock.versionId}/`)).map(line)).toEqual([`GET /va/${LOCK_ASSET}/versions/${lock.versionId}/asset-urls`]);
    } finally {
      await releaseHeld(api, lock, DEMO_USER);
    }
    expect((await listLocks(reader, api, 'dev')).map((s) => s.lockId)).not.toContain('holder-env');
  });
});

describe('taking a lock', () => {
  it('taken, renewed by its holder (a new version over its own), and a lease that outlasts a fresh one left as it is', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const first = await acquireLock(reader, api, take(scope, 'holder-one', { ttlMs: 600_000 }));
    expect(first.replaced).toBeUndefined();
    // Renewed with a shorter lease than it has: nothing sent but the read.
    api.sent.length = 0;
    const kept = await acquireLock(reader, api, take(scope, 'holder-one', { ttlMs: 5000 }));
    expect(kept).toEqual({ scope, lockId: 'holder-one', versionId: first.versionId, leaseEnd: first.leaseEnd, since: Math.floor(first.since / 1000) * 1000 });
    expect(api.sent.map(line)).toEqual([`GET /va/${lockAssetOf(scope)}/asset-urls`]);
    // Renewed with a longer one: a new version, the same since, the former one replaced.
    api.sent.length = 0;
    const renewed = await acquireLock(reader, api, take(scope, 'holder-one', { ttlMs: 1_200_000 }));
    // A renewal reads its own cell only: it overlaps nothing it did not overlap when it was taken.
    expect(api.sent.filter((r) => r.method === 'GET').map(line)).toEqual([`GET /va/${lockAssetOf(scope)}/asset-urls`]);
    expect(renewed.versionId).not.toBe(first.versionId);
    expect(renewed.replaced).toBe(first.versionId);
    expect(renewed.since).toBe(Math.floor(first.since / 1000) * 1000);
    expect(renewed.leaseEnd).toBeGreaterThan(first.leaseEnd);
    expect(await status(scope)).toMatchObject({ held: true, lockId: 'holder-one', versionId: renewed.versionId });
    // Another holder is refused at once, naming it.
    const refused = await failure(acquireLock(reader, api, take(scope, 'holder-two')));
    expect(refused).toBeInstanceOf(BlockedError);
    expect(refused.message).toMatch(new RegExp(`^${scope.assetId}/ios/prod is locked: held by ${DEMO_USER} \\(test\\), lock id holder-one, since ${ISO}, lease ends ${ISO}; nothing was sent \\(ahs lock status ${scope.assetId}/ios/prod; a lock that must go now, in an incident: ahs lock break ${scope.assetId}/ios/prod --reason R\\)$`));
    expect(refused).toMatchObject({ blockedBy: 'lock', until: new Date(renewed.leaseEnd).toISOString() });
    expect(await releaseHeld(api, renewed, DEMO_USER)).toBe(true);
  });

  it('the first decision taken from the cell the check read (no second read); a stopped run stops before it', async () => {
    const scope = channel();
    const { api, reader } = await service();
    api.sent.length = 0;
    const held = await acquireLock(reader, api, take(scope, 'holder-one', { first: { scope } }));
    // Its only read: the environment's cell, for an overlapping lock, after its own was taken.
    expect(api.sent.filter((r) => r.method === 'GET').map(line)).toEqual([`GET /va/${LOCK_ASSET}/asset-urls`]);
    const stop = new AbortController();
    const why = new BlockedError('stopped for a reason', 'lock');
    stop.abort(why);
    expect(await failure(acquireLock(reader, api, take(scope, 'holder-one', { signal: stop.signal })))).toBe(why);
    const cut = new AbortController();
    cut.abort(new Error('Ctrl-C'));
    expect(await failure(acquireLock(reader, api, take(scope, 'holder-one', { signal: cut.signal })))).toBeInstanceOf(CancelledError);
    await releaseHeld(api, held, DEMO_USER);
  });

  it('waits for another holder with --lock-timeout (told once), and takes it when released; refused after the wait', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const other = await acquireLock(reader, api, take(scope, 'holder-one'));
    const waits: string[] = [];
    // Released once it has read the cell a second time (still held): told once however long it waits.
    let again = (): void => undefined;
    const readTwice = new Promise<void>((resolve) => (again = resolve));
    let reads = 0;
    const waiter = await service(async (request, send) => {
      const answer = await send();
      if (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(scope)}/asset-urls`) && ++reads === 2) again();
      return answer;
    });
    const waiting = acquireLock(waiter.reader, waiter.api, take(scope, 'holder-two', { waitMs: 20_000, onWait: (holder) => waits.push(holder.lockId) }));
    await readTwice;
    expect(waits).toEqual(['holder-one']);
    await releaseHeld(api, other, DEMO_USER);
    const held = await waiting;
    expect(waits).toEqual(['holder-one']);
    expect(await status(scope)).toMatchObject({ held: true, lockId: 'holder-two' });
    const refused = await failure(acquireLock(reader, api, take(scope, 'holder-three', { waitMs: 300 })));
    expect(refused.message).toMatch(/lock id holder-two, .*\(waited 1s, --lock-timeout\); nothing was sent/);
    await releaseHeld(api, held, DEMO_USER);
  });

  it('watches another run\'s lease: a dead one\'s is taken over when it ends, a live one (renewed) refuses; one that outlasts the watch refuses at once', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const dead = await acquireLock(reader, api, take(scope, 'run-000000000001', { ttlMs: 5000 }));
    const watched: string[] = [];
    // Its lease ends on the service's clock while it is watched (after its second read of the cell: told once all the same).
    let reads = 0;
    const watcher = await service((request, send) => {
      if (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(scope)}/asset-urls`) && ++reads === 3) h.emu.advanceClock(6000);
      return send();
    });
    const next = await acquireLock(watcher.reader, watcher.api, take(scope, 'holder-two', { watchMs: 10_000, onWatch: (holder) => watched.push(holder.lockId) }));
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(watched).toEqual(['run-000000000001']);
    expect(next.replaced).toBe(dead.versionId);
    await releaseHeld(api, next, DEMO_USER);
    // Alive: renewed while watched.
    const alive = await acquireLock(reader, api, take(scope, 'run-000000000002', { ttlMs: 2000 }));
    let renewed: HeldLock | undefined;
    const watching = acquireLock(reader, api, take(scope, 'holder-three', { watchMs: 10_000, onWatch: () => void acquireLock(reader, api, take(scope, 'run-000000000002', { ttlMs: 4000 })).then((lock) => (renewed = lock)) }));
    const refused = await failure(watching);
    expect(refused.message).toMatch(new RegExp(`^${scope.assetId}/ios/prod is locked by a run that is alive \\(it renewed its lease\\): held by .*lock id run-000000000002, since ${ISO}, lease ends ${ISO}; nothing was sent \\(`));
    expect(renewed).toBeDefined();
    // A lease longer than the watch: refused at once; a lock that is not a run's: refused at once.
    const long = await failure(acquireLock(reader, api, take(scope, 'holder-four', { watchMs: 500 })));
    expect(long.message).toMatch(/is locked: held by .*lock id run-000000000002/);
    await releaseHeld(api, renewed!, DEMO_USER);
    void alive;
  });

  it('an earlier attempt of the same CI job is taken over at once; the same attempt (a matrix leg) is not', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const earlier = await acquireLock(reader, api, take(scope, ciLockId('0123456789', 1, 'aaaaaa'), { ttlMs: 600_000 }));
    const later = await acquireLock(reader, api, take(scope, ciLockId('0123456789', 2, 'bbbbbb')));
    expect(later.replaced).toBe(earlier.versionId);
    expect(await failure(acquireLock(reader, api, take(scope, ciLockId('0123456789', 2, 'cccccc'))))).toBeInstanceOf(BlockedError);
    await releaseHeld(api, later, DEMO_USER);
  });

  it('a lock overlapping another holder\'s is given back: a channel\'s inside a locked environment, an environment\'s over a locked channel (named by its record, or by its sentinel)', async () => {
    const env = 'dev';
    const inner = channel(env);
    const { api, reader } = await service();
    const envLock = await acquireLock(reader, api, take({ kind: 'env', env }, 'holder-env'));
    try {
      const refused = await failure(acquireLock(reader, api, take(inner, 'holder-inner')));
      expect(refused.message).toMatch(new RegExp(`^dev is locked: held by .*lock id holder-env, since ${ISO}, lease ends ${ISO}; nothing was sent \\(ahs lock status dev;`));
      expect(await status(inner)).toMatchObject({ held: false });
      // Its own environment lock does not clash with itself.
      const mine = await acquireLock(reader, api, take(channel(env), 'holder-env'));
      await releaseHeld(api, mine, DEMO_USER);
    } finally {
      await releaseHeld(api, envLock, DEMO_USER);
    }
    const innerLock = await acquireLock(reader, api, take(inner, 'holder-inner'));
    try {
      const refused = await failure(acquireLock(reader, api, take({ kind: 'env', env }, 'holder-env')));
      expect(refused.message).toMatch(new RegExp(`^${inner.assetId}/ios/dev is locked: held by .*lock id holder-inner`));
      expect(await status({ kind: 'env', env })).toMatchObject({ held: false });
      const blind = await service((request, send) => (request.method === 'GET' && request.path.includes(`/va/${lockAssetOf(inner)}/versions/`) ? Promise.reject(new Error('gone')) : send()));
      const unnamed = await failure(acquireLock(blind.reader, blind.api, take({ kind: 'env', env }, 'holder-env')));
      expect(unnamed).toBeInstanceOf(BlockedError);
      expect(unnamed.message).toMatch(new RegExp(`^dev overlaps a lock inside it \\(${lockAssetOf(inner)}, lock id holder-inner, lease ends \\d{4}-.+Z\\); nothing was sent$`));
      expect((unnamed as BlockedError).until).toBe(new Date(innerLock.leaseEnd).toISOString());
    } finally {
      await releaseHeld(api, innerLock, DEMO_USER);
    }
    // Free again: the environment's lock is taken.
    const taken = await acquireLock(reader, api, take({ kind: 'env', env }, 'holder-env'));
    await releaseHeld(api, taken, DEMO_USER);
  });

  it('a lock whose record names a scope of another sentinel (copied there by hand): listed by its sentinel, and an environment\'s lock over it refused naming the sentinel, not the record\'s words', async () => {
    const env = 'dev';
    const [here, named] = [channel(env), channel(env)];
    const { api, reader } = await service();
    // The sentinel made, its free version the Default; then a lock version uploaded by hand whose content names another channel.
    await releaseHeld(api, await acquireLock(reader, api, take(here, 'holder-zero')), DEMO_USER);
    const free = (await readCell(api, here)).defaultVersionId!;
    const now = api.serviceNow();
    const [since, leaseEnd] = [Math.floor(now / 1000) * 1000, Math.ceil((now + 600_000) / 1000) * 1000];
    const doc = { apiVersion: 'ahs/lock/v1', scope: scopeText(named), lockId: 'holder-copy', actor: DEMO_USER, command: 'by hand', since: new Date(since).toISOString(), leaseEnd: new Date(leaseEnd).toISOString() };
    const copy = await api.json<Version>({ method: 'POST', path: api.path('va', lockAssetOf(here), 'versions'), query: { targetPlatformId: 'generic' }, stream: memoryMultipart({ versionName: lockName({ lockId: 'holder-copy', leaseEnd, since }), createdBy: DEMO_USER }, 'control.json', JSON.stringify(doc)) });
    expect((await h.deploy(lockAssetOf(here), copy.versionId, 'generic', env, 'LIVE')).status).toBeLessThan(300);
    expect((await h.deploy(lockAssetOf(here), copy.versionId, 'generic', env, 'DEFAULT', { currentVersionId: free, currentAssetIntent: 'LIVE' })).status).toBeLessThan(300);
    try {
      const listed = (await listLocks(reader, api, env)).filter((s) => s.lockId === 'holder-copy');
      expect(listed.map((s) => [s.scope, s.held, s.leaseEnd])).toEqual([[`${lockAssetOf(here)}@${env} (unreadable record)`, true, new Date(leaseEnd).toISOString()]]);
      const refused = await failure(acquireLock(reader, api, take({ kind: 'env', env }, 'holder-env')));
      expect(refused.message).toBe(`${env} overlaps a lock inside it (${lockAssetOf(here)}, lock id holder-copy, lease ends ${new Date(leaseEnd).toISOString()}); nothing was sent`);
      expect(await status({ kind: 'env', env })).toMatchObject({ held: false });
    } finally {
      await releaseLock(reader, api, here, undefined, DEMO_USER);
    }
  });

  it('an environment\'s lock whose check of the locks inside it cannot be read is given back, and the failure is the error; a sentinel gone meanwhile holds nothing', async () => {
    const env = 'dev';
    const inner = channel(env);
    const { api, reader } = await service();
    const innerLock = await acquireLock(reader, api, take(inner, 'holder-inner'));
    await releaseHeld(api, innerLock, DEMO_USER);
    // The inner cell's read fails (500): the environment's lock just taken is released, not left held for its lease.
    const broken = refusal(500, 'broken');
    const failing = await service((request, send) => (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(inner)}/asset-urls`) ? Promise.reject(broken) : send()));
    expect(await failure(acquireLock(failing.reader, failing.api, take({ kind: 'env', env }, 'holder-env', { ttlMs: 900_000 })))).toBe(broken);
    expect(await status({ kind: 'env', env })).toMatchObject({ held: false });
    // Its release failing too: the read's failure is the error (the lease is left to end by itself).
    let unread = false;
    const both = await service((request, send) => {
      if (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(inner)}/asset-urls`)) {
        unread = true;
        return Promise.reject(broken);
      }
      return unread && request.method === 'POST' && request.path.endsWith('/deploy') ? Promise.reject(refusal(503, 'unavailable')) : send();
    });
    expect(await failure(acquireLock(both.reader, both.api, take({ kind: 'env', env }, 'holder-env', { ttlMs: 1000 })))).toBe(broken);
    h.emu.advanceClock(2000);
    // Deleted between the listing and its read (404): nothing held there, the lock is taken.
    const vanished = await service((request, send) => (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(inner)}/asset-urls`) ? Promise.reject(refusal(404, 'not found')) : send()));
    const taken = await acquireLock(vanished.reader, vanished.api, take({ kind: 'env', env }, 'holder-env'));
    expect(await status({ kind: 'env', env })).toMatchObject({ held: true, lockId: 'holder-env' });
    await releaseHeld(api, taken, DEMO_USER);
  });

  it('a promotion another run won: tried again from a re-read (lost), lost while renewing, and given up after 8 tries', async () => {
    const scope = channel();
    const { api, reader } = await service();
    // Another holder's promotion lands while this one's is sent: it waits no more (refused, naming the winner).
    let raced = false;
    const racing = await service(async (request, send) => {
      if (!raced && request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'DEFAULT') {
        raced = true;
        await acquireLock(reader, api, take(scope, 'holder-winner'));
        return send();
      }
      return send();
    });
    // Its first decision from the cell the check read (free): lost, the next is from a read of its own.
    const lost = await failure(acquireLock(racing.reader, racing.api, take(scope, 'holder-loser', { first: { scope } })));
    expect(lost.message).toMatch(/lock id holder-winner/);
    expect(await status(scope)).toMatchObject({ lockId: 'holder-winner' });
    // A renewal that loses: the lock was lost.
    let stolen = false;
    const renewing = await service(async (request, send) => {
      if (!stolen && request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'DEFAULT') {
        stolen = true;
        const current = await lockStatus(reader, api, scope);
        await releaseLock(reader, api, scope, undefined, DEMO_USER);
        await acquireLock(reader, api, take(scope, 'holder-thief'));
        void current;
      }
      return send();
    });
    const gone = await failure(acquireLock(renewing.reader, renewing.api, take(scope, 'holder-winner', { ttlMs: 3_600_000 })));
    expect(gone.message).toMatch(new RegExp(`^the lock was lost while renewing it: held by .*lock id holder-thief, since ${ISO}, lease ends ${ISO}; nothing was sent \\(`));
    await releaseLock(reader, api, scope, undefined, DEMO_USER);
    // Every promotion refused, the cell never moving: given up.
    const stuck = await service((request, send) => (request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'DEFAULT' ? Promise.reject(refusal(409, 'moved')) : send()));
    const given = await failure(acquireLock(stuck.reader, stuck.api, take(channel(), 'holder-one')));
    expect(given).toBeInstanceOf(NetworkError);
    expect(given.message).toMatch(/^change control could not be read \(the lock of .+ could not be taken after 8 tries\)/);
    expect(stuck.api.sent.filter((r) => r.method === 'POST' && r.path.endsWith('/deploy') && (r.body as { intent?: string }).intent === 'DEFAULT')).toHaveLength(8);
  });

  it.each<[string, Error, boolean]>([
    ['refused as LIVE already (400)', refusal(400, 'already LIVE'), true],
    ['its answer lost', new OutcomeUnknownError('the answer was lost'), true],
    ['refused otherwise (403)', refusal(403, 'forbidden'), false],
    ['surely not sent', new NetworkError('could not connect'), false],
  ])('the lock version\'s LIVE deploy %s: the promotion goes on, or the error', async (_name, error, taken) => {
    const scope = channel();
    const { reader } = await service();
    // Applied and then answered so (LIVE already, an answer lost on its way back), or not applied.
    const odd = await service(async (request, send) => {
      if (!(request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'LIVE')) return send();
      if (taken) await send();
      throw error;
    });
    if (taken) {
      const held = await acquireLock(odd.reader, odd.api, take(scope, 'holder-one'));
      expect(await status(scope)).toMatchObject({ held: true, lockId: 'holder-one', versionId: held.versionId });
      await releaseHeld((await service()).api, held, DEMO_USER);
    } else {
      expect(await failure(acquireLock(odd.reader, odd.api, take(scope, 'holder-one')))).toBe(error);
      expect(await lockStatus(reader, (await service()).api, scope)).toMatchObject({ held: false });
    }
  });

  it('a lost answer: the upload found by its name, the promotion by the cell; an answer surely not applied is the error; a 5xx too', async () => {
    const { reader } = await service();
    const scope = channel();
    const losing = (matches: (r: RequestOptions) => boolean, error: Error) => {
      let lost = false;
      return service(async (request, send) => {
        if (lost || !matches(request)) return send();
        lost = true;
        await send();
        throw error;
      });
    };
    const isUpload = (r: RequestOptions) => r.method === 'POST' && /\/versions$/.test(r.path);
    const isPromotion = (r: RequestOptions) => r.method === 'POST' && r.path.endsWith('/deploy') && (r.body as { intent?: string }).intent === 'DEFAULT';
    // The sentinel made (a first upload is refused 404 before it is), and free again.
    await releaseHeld((await service()).api, await acquireLock(reader, (await service()).api, take(scope, 'holder-zero')), DEMO_USER);
    const upload = await losing(isUpload, new OutcomeUnknownError('the answer was lost'));
    const held = await acquireLock(upload.reader, upload.api, take(scope, 'holder-one'));
    expect(upload.api.sent.filter(isUpload)).toHaveLength(1);
    expect(await status(scope)).toMatchObject({ lockId: 'holder-one', versionId: held.versionId });
    const promoted = await losing(isPromotion, new OutcomeUnknownError('the answer was lost'));
    const renewed = await acquireLock(promoted.reader, promoted.api, take(scope, 'holder-one', { ttlMs: 3_600_000 }));
    expect(await status(scope)).toMatchObject({ versionId: renewed.versionId });
    // Not applied (refused before it was sent): the error, after the re-read.
    const notSent = new NetworkError('could not connect');
    const refusing = await service((request, send) => (isPromotion(request) ? Promise.reject(notSent) : send()));
    expect(await failure(acquireLock(refusing.reader, refusing.api, take(channel(), 'holder-two')))).toBe(notSent);
    for (const broken of [refusal(503, 'unavailable'), refusal(500, 'broken')]) {
      const down = await service((request, send) => (isPromotion(request) ? Promise.reject(broken) : send()));
      expect(await failure(acquireLock(down.reader, down.api, take(channel(), 'holder-two')))).toBe(broken);
    }
    // An upload lost and not found (it never reached the service): the error.
    const vanished = new OutcomeUnknownError('the answer was lost');
    const nowhere = await service((request, send) => (isUpload(request) && request.path.includes(lockAssetOf(scope)) ? Promise.reject(vanished) : send()));
    await releaseLock(reader, (await service()).api, scope, 'holder-one', DEMO_USER);
    expect(await failure(acquireLock(nowhere.reader, nowhere.api, take(scope, 'holder-two')))).toBe(vanished);
    expect(await status(scope)).toMatchObject({ held: false });
  });
});

describe('watching, releasing, sweeping', () => {
  it('a write watching another run\'s lease: on when it ends or is released, refused when renewed or when it outlasts the budget; --lock-timeout waits for any holder', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const cellNow = () => readCell(api, scope);
    // Ended: the lease runs out on the service's clock while it is watched.
    const short = await acquireLock(reader, api, take(scope, 'run-00000000000a', { ttlMs: 20_000 }));
    const ending = watchLock(reader, api, await cellNow(), 30_000, quiet);
    h.emu.advanceClock(21_000);
    await ending;
    expect(await status(scope)).toMatchObject({ held: false });
    // Released while watched.
    const released = await acquireLock(reader, api, take(scope, 'run-00000000000b', { ttlMs: 20_000 }));
    const watching = watchLock(reader, api, await cellNow(), 30_000, quiet);
    await releaseHeld(api, released, DEMO_USER);
    await watching;
    // Renewed: alive.
    const live = await acquireLock(reader, api, take(scope, 'run-00000000000c', { ttlMs: 20_000 }));
    const first = await cellNow();
    const renewed = await acquireLock(reader, api, take(scope, 'run-00000000000c', { ttlMs: 40_000 }));
    const alive = await failure(watchLock(reader, api, first, 60_000, quiet));
    expect(alive.message).toMatch(new RegExp(`^${scope.assetId}/ios/prod is locked by a run that is alive \\(it renewed its lease\\): held by .*lock id run-00000000000c, since ${ISO}, lease ends ${ISO}; nothing was sent \\(`));
    // Outlasting the budget: refused at once.
    expect((await failure(watchLock(reader, api, await cellNow(), 1000, quiet))).message).toMatch(new RegExp(`^${scope.assetId}/ios/prod is locked: held by .*lock id run-00000000000c, since ${ISO}, lease ends ${ISO}; nothing was sent \\(`));
    // Stopped: the stop's reason.
    const stop = new AbortController();
    stop.abort(new Error('Ctrl-C'));
    expect(await failure(watchLock(reader, api, await cellNow(), 60_000, stop.signal))).toBeInstanceOf(CancelledError);
    const told = new AbortController();
    const why = new BlockedError('lost', 'lock');
    told.abort(why);
    expect(await failure(watchLock(reader, api, await cellNow(), 60_000, told.signal, 5000))).toBe(why);
    await releaseHeld(api, renewed, DEMO_USER);
    void live;
    void short;
    // --lock-timeout: a person's lock waited for, then refused naming the wait; released within it: on.
    const person = await acquireLock(reader, api, take(scope, 'holder-person'));
    // Without a wait: refused at once, no wait named.
    expect((await failure(watchLock(reader, api, await cellNow(), 60_000, quiet))).message).toMatch(new RegExp(`^${scope.assetId}/ios/prod is locked: held by .*lock id holder-person, since ${ISO}, lease ends ${ISO}; nothing was sent \\(`));
    // Stopped while it waits: the stop's reason, not a refusal after the wait.
    expect(await failure(watchLock(reader, api, await cellNow(), 60_000, told.signal, 300))).toBe(why);
    const waited = await failure(watchLock(reader, api, await cellNow(), 60_000, quiet, 300));
    expect(waited.message).toMatch(/lock id holder-person, .*\(waited 1s, --lock-timeout\); nothing was sent/);
    const waiting = watchLock(reader, api, await cellNow(), 60_000, quiet, 20_000);
    await releaseHeld(api, person, DEMO_USER);
    await waiting;
    // --lock-timeout over another run's lease: waited for, then watched as any run's (its lease ends within the budget: on).
    const runLease = await acquireLock(reader, api, take(scope, 'run-00000000000d', { ttlMs: 20_000 }));
    let reads = 0;
    const watcher = await service((request, send) => {
      if (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(scope)}/asset-urls`) && ++reads === 2) h.emu.advanceClock(21_000);
      return send();
    });
    await watchLock(watcher.reader, watcher.api, await cellNow(), 60_000, quiet, 300);
    expect(reads).toBe(2);
    void runLease;
  });

  it('release and break: free stays free; another holder is not released by a wrong id (refused while it holds); a break ends whoever holds it', async () => {
    const scope = channel();
    const { api, reader } = await service();
    expect(await releaseLock(reader, api, scope, 'holder-one', DEMO_USER)).toBeUndefined();
    const held = await acquireLock(reader, api, take(scope, 'holder-one', { reason: 'train' }));
    const wrong = await failure(releaseLock(reader, api, scope, 'holder-two', DEMO_USER));
    expect(wrong).toBeInstanceOf(BlockedError);
    expect(wrong.message).toMatch(new RegExp(`^${scope.assetId}/ios/prod is not held by holder-two: held by .*lock id holder-one, since ${ISO}, lease ends ${ISO}; reason: train; nothing was sent \\(`));
    const ended = await releaseLock(reader, api, scope, 'holder-one', DEMO_USER);
    expect(ended).toMatchObject({ lockId: 'holder-one', held: true, reason: 'train', versionId: held.versionId });
    expect(await status(scope)).toMatchObject({ held: false });
    expect(await releaseLock(reader, api, scope, 'holder-one', DEMO_USER)).toBeUndefined();
    // A wrong id over a lease that ended: nothing to release.
    await acquireLock(reader, api, take(scope, 'holder-three', { ttlMs: 1000 }));
    h.emu.advanceClock(2000);
    expect(await releaseLock(reader, api, scope, 'holder-two', DEMO_USER)).toBeUndefined();
    expect(await status(scope)).toMatchObject({ lockId: 'holder-three', expired: true });
    // A break: whoever holds it.
    await acquireLock(reader, api, take(scope, 'holder-four'));
    expect(await releaseLock(reader, api, scope, undefined, DEMO_USER)).toMatchObject({ lockId: 'holder-four' });
    expect(await status(scope)).toMatchObject({ held: false, lockId: null });
    // Free (its free version the Default): a break ends nothing, and sends nothing but the read.
    api.sent.length = 0;
    expect(await releaseLock(reader, api, scope, undefined, DEMO_USER)).toBeUndefined();
    expect(api.sent.map(line)).toEqual([`GET /va/${lockAssetOf(scope)}/asset-urls`]);
    // Never locked (no Default): the same.
    const fresh = channel();
    expect(await releaseLock(reader, api, fresh, undefined, DEMO_USER)).toBeUndefined();
    expect(await h.records(lockAssetOf(fresh)).catch(() => [])).toEqual([]);
    // A cell whose Default is not a lock (a version named otherwise, made by hand): a release by id leaves it; a break ends it.
    const junk = await h.uploadVersion(lockAssetOf(scope), 'generic', 'junk');
    expect((await h.deploy(lockAssetOf(scope), junk, 'generic', 'prod', 'LIVE')).status).toBeLessThan(300);
    const freeNow = (await readCell(api, scope)).defaultVersionId!;
    expect((await h.deploy(lockAssetOf(scope), junk, 'generic', 'prod', 'DEFAULT', { currentVersionId: freeNow, currentAssetIntent: 'LIVE' })).status).toBeLessThan(300);
    expect(await releaseLock(reader, api, scope, 'holder-one', DEMO_USER)).toBeUndefined();
    expect(await h.records(lockAssetOf(scope))).toContain(`generic/prod/${junk}=DEFAULT`);
    // Nor is it listed as a lock (and the listing of the others still answers).
    expect((await listLocks(reader, api, 'prod')).map((s) => s.scope)).not.toContain(scopeText(scope));
    expect(await releaseLock(reader, api, scope, undefined, DEMO_USER)).toMatchObject({ held: false, lockId: null });
    expect(await readCell(api, scope)).toMatchObject({ defaultName: 'free', defaultVersionId: freeNow });
    expect(await h.records(lockAssetOf(scope))).toContain(`generic/prod/${junk}=LIVE`);
  });

  it('a release that keeps losing its compare-and-set gives up after 5 tries, saying so', async () => {
    const scope = channel();
    const { api, reader } = await service();
    await acquireLock(reader, api, take(scope, 'holder-one'));
    const moving = await service((request, send) => (request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'DEFAULT' ? Promise.reject(refusal(409, 'moved')) : send()));
    const error = await failure(releaseLock(moving.reader, moving.api, scope, 'holder-one', DEMO_USER));
    expect(error).toEqual(new BlockedError(`${scopeText(scope)} kept moving while it was being released: run ahs lock status ${scopeText(scope)}`, 'lock'));
    expect(moving.api.sent.filter((r) => r.method === 'POST' && r.path.endsWith('/deploy') && (r.body as { intent?: string }).intent === 'DEFAULT')).toHaveLength(5);
    expect(await status(scope)).toMatchObject({ held: true, lockId: 'holder-one' });
    await releaseLock(reader, api, scope, 'holder-one', DEMO_USER);
  });

  it('the cell\'s free version: made once and kept LIVE; a release with it known is one promotion', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const held = await acquireLock(reader, api, take(scope, 'holder-one'));
    const free = await freeVersion(api, scope, DEMO_USER);
    expect(await freeVersion(api, scope, DEMO_USER)).toBe(free);
    expect(await h.records(lockAssetOf(scope))).toContain(`generic/prod/${free}=LIVE`);
    // Its content, as a reader of the cell gets it.
    expect(await served(lockAssetOf(scope), free, 'prod')).toEqual({ apiVersion: 'ahs/lock/v1', free: true });
    api.sent.length = 0;
    expect(await releaseHeld(api, held, DEMO_USER, free)).toBe(true);
    expect(api.sent.map(line)).toEqual([`POST /va/${lockAssetOf(scope)}/versions/${free}/deploy`]);
    expect(api.sent[0]!.body).toMatchObject({ envId: 'prod', intent: 'DEFAULT', currentVersionId: held.versionId, currentAssetIntent: 'LIVE' });
    // The free version the Default now: a sweep answers no LIVE free version.
    expect(await sweepCell(api, scope, DEMO_USER)).toBeUndefined();
    // Released again once another holder took it: not released, the other's lock left.
    const other = await acquireLock(reader, api, take(scope, 'holder-other'));
    // Taken over the free version: it replaced no lease (the free version is not for deleting).
    expect(other.replaced).toBeUndefined();
    expect(await releaseHeld(api, held, DEMO_USER, free)).toBe(false);
    expect(await status(scope)).toMatchObject({ held: true, lockId: 'holder-other' });
    await releaseHeld(api, other, DEMO_USER, free);
    // A run whose lock was broken meanwhile: its release releases nothing (it says so), the cell stays free.
    const broken = await acquireLock(reader, api, take(scope, 'holder-broken'));
    expect(await releaseLock(reader, api, scope, undefined, DEMO_USER)).toMatchObject({ lockId: 'holder-broken' });
    api.sent.length = 0;
    expect(await releaseHeld(api, broken, DEMO_USER)).toBe(false);
    expect(await status(scope)).toMatchObject({ held: false, lockId: null });
    // Found free by its one read: no other free version uploaded, nothing promoted, however often it is released.
    expect(await releaseHeld(api, broken, DEMO_USER)).toBe(false);
    expect(api.sent.map(line)).toEqual([`GET /va/${lockAssetOf(scope)}/asset-urls`, `GET /va/${lockAssetOf(scope)}/asset-urls`]);
    expect(await freeVersion(api, scope, DEMO_USER)).toBe(free);
    // Its deploy refused as LIVE already (400) or lost: the version still answered.
    const fresh = channel();
    await releaseHeld(api, await acquireLock(reader, api, take(fresh, 'holder-two')), DEMO_USER);
    for (const error of [refusal(400, 'already LIVE'), new OutcomeUnknownError('lost')]) {
      const other = channel();
      await releaseLock(reader, api, other, undefined, DEMO_USER);
      const odd = await service((request, send) => (request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'LIVE' ? Promise.reject(error) : send()));
      await acquireLock(reader, api, take(other, 'holder-three'));
      expect(await freeVersion(odd.api, other, DEMO_USER)).toMatch(/^\S+$/);
    }
    const failing = await service((request, send) => (request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'LIVE' ? Promise.reject(refusal(403, 'forbidden')) : send()));
    const third = channel();
    await acquireLock(reader, api, take(third, 'holder-four'));
    expect((await failure(freeVersion(failing.api, third, DEMO_USER))).message).toBe('forbidden');
    // Surely not sent (no answer lost): the error, not a free version that is not LIVE.
    const notSent = new NetworkError('could not connect');
    const offline = await service((request, send) => (request.method === 'POST' && request.path.endsWith('/deploy') && (request.body as { intent?: string }).intent === 'LIVE' ? Promise.reject(notSent) : send()));
    const fourth = channel();
    await acquireLock(reader, api, take(fourth, 'holder-five'));
    expect(await failure(freeVersion(offline.api, fourth, DEMO_USER))).toBe(notSent);
  });

  it('a sweep deletes a cell\'s lock versions whose lease ended over a minute ago (8 at most), keeps the others and the Default, and answers the free version', async () => {
    const scope = channel();
    const { api, reader } = await service();
    let last: HeldLock | undefined;
    for (let i = 0; i < 10; i++) {
      last = await acquireLock(reader, api, take(scope, `holder-${String(i).padStart(4, '0')}`, { ttlMs: 1000 }));
      h.emu.advanceClock(2500);
    }
    const recent = await acquireLock(reader, api, take(scope, 'holder-recent', { ttlMs: 1000 }));
    const before = (await h.records(lockAssetOf(scope))).filter((r) => r.endsWith('=LIVE'));
    // The ten former leases LIVE, the recent one the Default.
    expect(before).toHaveLength(10);
    // Within a minute of their end: none swept.
    expect(await sweepCell(api, scope, DEMO_USER)).toBeUndefined();
    expect((await h.records(lockAssetOf(scope))).filter((r) => r.endsWith('=LIVE'))).toHaveLength(10);
    h.emu.advanceClock(61_000);
    const fresh = await acquireLock(reader, api, take(scope, 'holder-fresh', { ttlMs: 600_000 }));
    const free = await freeVersion(api, scope, DEMO_USER);
    expect(await sweepCell(api, scope, DEMO_USER, new Set([recent.versionId]))).toBe(free);
    const after = await h.records(lockAssetOf(scope));
    // 11 former leases LIVE that ended over a minute ago, one of them kept: 8 of the 10 deleted; the Default and free stay.
    expect(after.filter((r) => r.endsWith('=LIVE'))).toHaveLength(11 + 1 - 8);
    expect(after).toContain(`generic/prod/${recent.versionId}=LIVE`);
    expect(after).toContain(`generic/prod/${fresh.versionId}=DEFAULT`);
    expect(after).toContain(`generic/prod/${free}=LIVE`);
    expect(after).toContain(`generic/prod/${last!.versionId}=LIVE`);
    expect(await status(scope)).toMatchObject({ held: true, lockId: 'holder-fresh' });
    // A dead holder's lock, the Default, its lease over a minute ago: never swept (the next acquirer takes it over).
    const dead = channel();
    const gone = await acquireLock(reader, api, take(dead, 'holder-dead', { ttlMs: 1000 }));
    h.emu.advanceClock(70_000);
    api.sent.length = 0;
    await sweepCell(api, dead, DEMO_USER);
    // Nothing sent for it (no OFFLINE deploy, no delete: a service that let a Default go offline would drop the cell).
    expect(api.sent.filter((r) => r.path.includes(gone.versionId)).map(line)).toEqual([]);
    expect(await h.records(lockAssetOf(dead))).toContain(`generic/prod/${gone.versionId}=DEFAULT`);
    expect(await status(dead)).toMatchObject({ lockId: 'holder-dead', expired: true, versionId: gone.versionId });
    // A sentinel that cannot be read: nothing swept, no free version.
    const blind = await service((request, send) => (request.method === 'GET' ? Promise.reject(refusal(500, 'broken')) : send()));
    expect(await sweepCell(blind.api, scope, DEMO_USER)).toBeUndefined();
  });

  it('a lease kept: renewed every third of its TTL (200 ms at least) until stopped; a renewal that fails is the run\'s loss', async () => {
    const held: HeldLock = { scope: channel(), lockId: 'holder-one', versionId: 'V0', leaseEnd: 0, since: 0 };
    const renewals: number[] = [];
    const started = Date.now();
    let n = 0;
    const keeper = new LeaseKeeper(held, async (lock) => {
      renewals.push(Date.now() - started);
      return { ...lock, versionId: `V${++n}` };
    }, 300, () => undefined);
    for (let i = 0; i < 2000 && renewals.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await keeper.stop();
    const stoppedAt = renewals.length;
    expect(stoppedAt).toBeGreaterThanOrEqual(2);
    expect(renewals[0]).toBeGreaterThanOrEqual(190);
    expect(keeper.lock.versionId).toBe(`V${stoppedAt}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(renewals.length).toBe(stoppedAt);
    // A TTL of 3 s: a renewal every second, none within the first 400 ms.
    const slow: number[] = [];
    const slowKeeper = new LeaseKeeper(held, async (lock) => (slow.push(Date.now()), lock), 3000, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(slow).toEqual([]);
    await slowKeeper.stop();
    // Lost: an AhsError as it is, anything else as exit 6.
    const losses: Error[] = [];
    const blocked = new BlockedError('taken', 'lock');
    const k1 = new LeaseKeeper(held, () => Promise.reject(blocked), 300, (error) => losses.push(error));
    const k2 = new LeaseKeeper(held, () => Promise.reject(new Error('boom')), 300, (error) => losses.push(error));
    for (let i = 0; i < 2000 && losses.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await k1.stop();
    await k2.stop();
    expect(losses).toContain(blocked);
    expect(losses.find((e) => e !== blocked)?.message).toMatch(/^change control could not be read \(boom\)/);
  });
});

describe('how often a wait reads the cell', () => {
  /** A client whose reads of `scope`'s cell are timed (ms since `started`); `onRead(n)` before the n-th is sent. */
  const timed = async (scope: Scope, onRead: (n: number) => void = () => undefined) => {
    const at: number[] = [];
    const started = Date.now();
    const client = await service((request, send) => {
      if (request.method === 'GET' && request.path.endsWith(`/va/${lockAssetOf(scope)}/asset-urls`)) onRead(at.push(Date.now() - started));
      return send();
    });
    return { ...client, at };
  };
  const gaps = (at: number[]) => at.map((t, i) => t - (i === 0 ? 0 : at[i - 1]!));

  it('a write watching a run\'s lease that ends later: every half second (its lease further off than that)', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const lease = await acquireLock(reader, api, take(scope, 'run-0000000000e1', { ttlMs: 20_000 }));
    const first = await readCell(api, scope);
    // The lease ends on the service's clock before the second re-read.
    const watcher = await timed(scope, (n) => n === 2 && h.emu.advanceClock(21_000));
    // The watcher's client learns the service's clock (moved on by earlier rows) from an answer's Date, as a run's first reads do.
    await readControlRecords(watcher.api);
    await watchLock(watcher.reader, watcher.api, first, 60_000, quiet);
    expect(watcher.at).toHaveLength(2);
    for (const gap of gaps(watcher.at)) expect(gap).toBeGreaterThanOrEqual(450);
    void lease;
  });

  it('a write with --lock-timeout over a person\'s lock: read again when the wait is over, not before', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const person = await acquireLock(reader, api, take(scope, 'holder-person'));
    const first = await readCell(api, scope);
    const watcher = await timed(scope);
    const refused = await failure(watchLock(watcher.reader, watcher.api, first, 60_000, quiet, 300));
    expect(refused.message).toMatch(/lock id holder-person, .*\(waited 1s, --lock-timeout\); nothing was sent/);
    // Once after the wait (twice when a timer fires a millisecond early), not every 50 ms.
    expect(watcher.at.length).toBeGreaterThanOrEqual(1);
    expect(watcher.at.length).toBeLessThanOrEqual(2);
    expect(watcher.at[0]).toBeGreaterThanOrEqual(250);
    await releaseHeld(api, person, DEMO_USER);
  });

  it('a lock taken with --lock-timeout over a person\'s lock: its cell read again when the wait is over, not before', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const person = await acquireLock(reader, api, take(scope, 'holder-person'));
    const waiter = await timed(scope);
    const watched: string[] = [];
    const refused = await failure(acquireLock(waiter.reader, waiter.api, take(scope, 'holder-two', { waitMs: 300, watchMs: 60_000, onWatch: (holder) => watched.push(holder.lockId) })));
    expect(refused.message).toMatch(new RegExp(`lock id holder-person, since ${ISO}, lease ends ${ISO} \\(waited 1s, --lock-timeout\\); nothing was sent \\(`));
    // A person's lock is waited for, never watched (nobody told of a watch).
    expect(watched).toEqual([]);
    // Its first read, one after the wait (two when a timer fires a millisecond early).
    expect(waiter.at.length).toBeGreaterThanOrEqual(2);
    expect(waiter.at.length).toBeLessThanOrEqual(3);
    expect(waiter.at[1]! - waiter.at[0]!).toBeGreaterThanOrEqual(250);
    await releaseHeld(api, person, DEMO_USER);
  });

  it('a lock taken over a run\'s lease it watches: read every half second until the lease ends, then taken', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const dead = await acquireLock(reader, api, take(scope, 'run-0000000000e2', { ttlMs: 20_000 }));
    const watcher = await timed(scope, (n) => n === 3 && h.emu.advanceClock(21_000));
    const next = await acquireLock(watcher.reader, watcher.api, take(scope, 'holder-two', { watchMs: 30_000 }));
    expect(next.replaced).toBe(dead.versionId);
    expect(watcher.at).toHaveLength(3);
    for (const gap of gaps(watcher.at).slice(1)) expect(gap).toBeGreaterThanOrEqual(450);
    await releaseHeld(api, next, DEMO_USER);
  });
});


describe('the sentinels, freezes and blocks', () => {
  it('a lock\'s sentinel made on its first use, marked as change control; made by another at once (409) is fine; another refusal is the error', async () => {
    const scope = channel();
    const { api, reader } = await service();
    const held = await acquireLock(reader, api, take(scope, 'holder-one'));
    const made = await h.call('GET', `/va/${lockAssetOf(scope)}`);
    expect(made.body).toMatchObject({ assetId: lockAssetOf(scope), assetName: 'ahs change control: a lock', assetType: '9999' });
    await releaseHeld(api, held, DEMO_USER);
    // The upload answered 404 though the sentinel is there (another run made it meanwhile): its create's 409 is fine.
    let first = true;
    const late = await service((request, send) => {
      if (first && request.method === 'POST' && request.path.endsWith(`/va/${lockAssetOf(scope)}/versions`)) {
        first = false;
        return Promise.reject(refusal(404, 'no such asset'));
      }
      return send();
    });
    const again = await acquireLock(late.reader, late.api, take(scope, 'holder-two'));
    expect(late.api.sent.filter((r) => r.method === 'POST' && /\/va$/.test(r.path))).toHaveLength(1);
    // Its description (never echoed by the service, found by a search) says what it is and what deleting it does.
    expect(late.api.sent.find((r) => r.method === 'POST' && /\/va$/.test(r.path))!.body).toMatchObject({ assetId: lockAssetOf(scope), assetName: 'ahs change control: a lock', description: 'ahs change control (not content: deleting it drops locks, freezes and blocks)' });
    await releaseHeld(api, again, DEMO_USER);
    const forbidden = refusal(403, 'no assets for you');
    const refused = await service((request, send) => (request.method === 'POST' && /\/va$/.test(request.path) ? Promise.reject(forbidden) : send()));
    expect(await failure(acquireLock(refused.reader, refused.api, take(channel(), 'holder-three')))).toBe(forbidden);
  });

  it('a freeze recorded with who, when and why (its CI run too), listed with or without reasons, lifted in its environment only', async () => {
    const { api, reader } = await service();
    const until = Math.ceil((Date.now() + 3_600_000) / 1000) * 1000;
    const ci = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '9' };
    const a = await addFreeze(api, 'dev', { kind: 'until', until }, 'launch', DEMO_USER, ci);
    const b = await addFreeze(api, 'staging', { kind: 'until', until }, 'audit', DEMO_USER, {});
    const sentinel = await h.call('GET', `/va/${CONTROL_ASSET}`);
    expect(sentinel.body).toMatchObject({ assetName: 'ahs change control: freezes and blocks', assetType: '9999' });
    const listed = (await listFreezes(reader, api)).filter((f) => f.env === 'dev' || f.env === 'staging');
    expect(listed).toEqual([
      { env: 'dev', window: { kind: 'until', until }, versionId: a.versionId, actor: DEMO_USER, createdAt: a.createdAt, reason: 'launch' },
      { env: 'staging', window: { kind: 'until', until }, versionId: b.versionId, actor: DEMO_USER, createdAt: b.createdAt, reason: 'audit' },
    ]);
    const quick = (await listFreezes(reader, api, false)).filter((f) => f.env === 'dev');
    expect(quick).toEqual([{ env: 'dev', window: { kind: 'until', until }, versionId: a.versionId, actor: DEMO_USER, createdAt: a.createdAt, reason: null }]);
    // Its record's content: the CI run that made it.
    expect(await served(CONTROL_ASSET, a.versionId, 'dev')).toEqual({ apiVersion: 'ahs/control/v1', kind: 'freeze', actor: DEMO_USER, reason: 'launch', at: expect.any(String), ci: { runUrl: 'https://github.com/o/r/actions/runs/9' } });
    expect(await served(CONTROL_ASSET, b.versionId, 'staging')).not.toHaveProperty('ci');
    expect(await removeFreezes(api, 'dev', DEMO_USER)).toEqual([{ env: 'dev', window: { kind: 'until', until }, versionId: a.versionId }]);
    expect((await listFreezes(reader, api)).map((f) => f.env)).not.toContain('dev');
    expect((await listFreezes(reader, api)).map((f) => f.env)).toContain('staging');
    expect(await removeFreezes(api, 'dev', DEMO_USER)).toEqual([]);
    await removeFreezes(api, 'staging', DEMO_USER);
    // A name of 64 characters is a version's name; longer, it is refused before anything is sent.
    const fits = 'e'.repeat(64 - freezeName('', { kind: 'until', until }).length);
    expect((await addFreeze(api, fits, { kind: 'until', until }, 'x', DEMO_USER, {})).versionName).toHaveLength(64);
    await removeFreezes(api, fits, DEMO_USER);
    const long = 'e'.repeat(60);
    const error = await failure(addFreeze(api, long, { kind: 'until', until }, 'x', DEMO_USER, {}));
    expect(error).toEqual(new UsageError(`the record ${JSON.stringify(`freeze ${long} until ${new Date(until).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z')}`)} is longer than a version name may be (64): use a shorter environment or zone name`));
  });

  it('a freeze of an environment the service does not know: strict, the error and no record left; not strict, the record stays', async () => {
    const { api, reader } = await service();
    const until = Math.ceil((Date.now() + 3_600_000) / 1000) * 1000;
    const unknown = uid('prdo');
    const refused = await failure(addFreeze(api, unknown, { kind: 'until', until }, 'typo', DEMO_USER, {}, true));
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(404);
    expect((await listFreezes(reader, api, false)).map((f) => f.env)).not.toContain(unknown);
    // Strict, but the record not read back (404: not there yet, as far as the read says): it proves nothing, the record stays, no error.
    const unread = await service((request, send) => (request.method === 'GET' && new RegExp(`/va/${CONTROL_ASSET}/versions/[^/]+$`).test(request.path) ? Promise.reject(refusal(404, 'no such version')) : send()));
    const left = await addFreeze(unread.api, unknown, { kind: 'until', until }, 'typo', DEMO_USER, {}, true);
    expect((await listFreezes(reader, api, false)).filter((f) => f.env === unknown).map((f) => f.versionId)).toEqual([left.versionId]);
    expect(unread.api.sent.filter((r) => r.method === 'DELETE')).toEqual([]);
    await removeFreezes(api, unknown, DEMO_USER);
    const kept = await addFreeze(api, unknown, { kind: 'until', until }, 'typo', DEMO_USER, {});
    expect((await listFreezes(reader, api, false)).filter((f) => f.env === unknown).map((f) => f.versionId)).toEqual([kept.versionId]);
    await removeFreezes(api, unknown, DEMO_USER);
  });

  it('a block: made once (an existing one kept), its reason in its file name, read back with who and when; without an environment deployed nowhere; lifted', async () => {
    const { api, reader } = await service();
    const assetId = uid('blk');
    const first = await addBlock(api, assetId, 'V1', 'crash on start', DEMO_USER, 'prod', { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '9' });
    expect(first.existed).toBe(false);
    expect(first.version.versionName).toBe(`block ${assetId}/V1`);
    expect(first.version.fileName).toBe(blockFileName('crash on start'));
    expect(await h.records(CONTROL_ASSET)).toContain(`generic/prod/${first.version.versionId}=LIVE`);
    expect(await served(CONTROL_ASSET, first.version.versionId, 'prod')).toEqual({ apiVersion: 'ahs/control/v1', kind: 'block', actor: DEMO_USER, reason: 'crash on start', at: expect.any(String), assetId, versionId: 'V1', ci: { runUrl: 'https://github.com/o/r/actions/runs/9' } });
    const again = await addBlock(api, assetId, 'V1', 'another reason', DEMO_USER, 'prod', {});
    expect(again).toEqual({ version: expect.objectContaining({ versionId: first.version.versionId }), existed: true });
    api.sent.length = 0;
    expect(await readBlock(reader, api, assetId, 'V1', first.version.versionId, 'prod')).toEqual({ assetId, versionId: 'V1', blockVersionId: first.version.versionId, actor: DEMO_USER, createdAt: first.version.createdAt, reason: 'crash on start' });
    // Its reason in its file name: the record's read only, not its content.
    expect(api.sent.map(line)).toEqual([`GET /va/${CONTROL_ASSET}/versions/${first.version.versionId}`]);
    // Nowhere deployed: the file name still carries the reason.
    api.sent.length = 0;
    const nowhere = await addBlock(api, assetId, 'V2', 'bad', DEMO_USER, undefined, {});
    expect((await h.records(CONTROL_ASSET)).filter((r) => r.includes(`/${nowhere.version.versionId}=`))).toEqual([]);
    expect(api.sent.filter((r) => r.path.endsWith('/deploy'))).toEqual([]);
    expect((await readBlock(reader, api, assetId, 'V2', nowhere.version.versionId, undefined)).reason).toBe('bad');
    // A record whose file name was changed by the service: the reason from its content, where it is deployed.
    const renamed = await service((request, send) => send().then((answer) => (request.method === 'GET' && request.path.endsWith(`/versions/${first.version.versionId}`) ? { ...(answer as object), fileName: 'control.json' } : answer)));
    expect((await readBlock(renamed.reader, renamed.api, assetId, 'V1', first.version.versionId, 'prod')).reason).toBe('crash on start');
    // Its record unreadable: nobody, no time, no reason.
    const blind = await service((request, send) => (request.method === 'GET' && request.path.includes(`/versions/${nowhere.version.versionId}`) ? Promise.reject(new Error('gone')) : send()));
    expect(await readBlock(blind.reader, blind.api, assetId, 'V2', nowhere.version.versionId, undefined)).toEqual({ assetId, versionId: 'V2', blockVersionId: nowhere.version.versionId, actor: null, createdAt: null, reason: null });
    // Beside a version listing (version list): the blocks among its versions, as ahs-control's listing says them.
    expect(blocksAmong(await readControlRecords(api), assetId, ['V0', 'V2', 'V1'])).toEqual([
      { assetId, versionId: 'V2', blockVersionId: nowhere.version.versionId, actor: DEMO_USER, createdAt: nowhere.version.createdAt, reason: 'bad' },
      { assetId, versionId: 'V1', blockVersionId: first.version.versionId, actor: DEMO_USER, createdAt: first.version.createdAt, reason: 'crash on start' },
    ]);
    expect(blocksAmong(await readControlRecords(api), uid('other'), ['V1', 'V2'])).toEqual([]);
    // Lifted: deleted (taken off the environments named first); a second unblock finds none.
    expect((await removeBlock(api, assetId, 'V1', DEMO_USER, ['prod']))?.versionId).toBe(first.version.versionId);
    expect(await removeBlock(api, assetId, 'V1', DEMO_USER, ['prod'])).toBeUndefined();
    expect((await h.call('GET', `/va/${CONTROL_ASSET}/versions/${first.version.versionId}`)).status).toBe(404);
    expect((await removeBlock(api, assetId, 'V2', DEMO_USER, []))?.versionId).toBe(nowhere.version.versionId);
  });
});

/** The content of a control version deployed in `env`, as the delivery network serves it. */
async function served(assetId: string, versionId: string, env: string): Promise<unknown> {
  const urls = await h.call('GET', `/va/${assetId}/versions/${versionId}/asset-urls?envId=${env}`);
  const url = (urls.body.results as Array<{ downloadUrl?: string }>).find((r) => r.downloadUrl)!.downloadUrl!;
  const response = await fetch(new URL(url, h.env.AHS_DELIVERY_URL), { headers: { apikey: h.env.AHS_API_KEY! } });
  return response.json();
}

// A service whose asset-urls listings ignore their filters (targetPlatform,
// envId, state) and answer every record of the sentinel, the ones asked for
// last: what ahs reads of a cell must still be the record of its environment
// and state, not the first of the listing.
describe('against a service whose listings ignore their filters', () => {
  const unfiltered: Hook = async (request, send) => {
    if (request.method !== 'GET' || !/\/va\/ahs-control-lock[^/]*\/asset-urls$/.test(request.path)) return send();
    const { targetPlatform, envId, state, ...paging } = request.query ?? {};
    const answer = (await send({ ...request, query: paging })) as { results: AssetUrl[] };
    const asked = (r: AssetUrl) => (targetPlatform === undefined || r.targetPlatform === targetPlatform) && (envId === undefined || r.envId === envId) && (state === undefined ? r.state !== 'OFFLINE' : r.state === state);
    return { ...answer, results: [...answer.results.filter((r) => !asked(r)), ...answer.results.filter(asked)] };
  };

  it('a cell\'s holder, the locks listed, an overlapping lock, the sweep and the free version: each of its environment and state', async () => {
    const { api, reader } = await service();
    const odd = await service(unfiltered);
    const main = channel('staging');
    const other: Scope = { ...main, env: 'dev' };
    // dev: a former lease (LIVE) and a holder (the Default), its free version; staging: the same, and a lease given back before.
    const devFormer = await acquireLock(reader, api, take(other, 'holder-dev-old', { ttlMs: 1000 }));
    h.emu.advanceClock(2500);
    const devHolder = await acquireLock(reader, api, take(other, 'holder-dev'));
    const devFree = await freeVersion(api, other, DEMO_USER);
    const given = await acquireLock(reader, api, take(main, 'holder-zero'));
    await releaseHeld(api, given, DEMO_USER);
    const former = await acquireLock(reader, api, take(main, 'holder-one', { ttlMs: 1000 }));
    h.emu.advanceClock(2500);
    const holder = await acquireLock(reader, api, take(main, 'holder-two', { ttlMs: 600_000 }));
    expect(holder.replaced).toBe(former.versionId);
    const free = await freeVersion(api, main, DEMO_USER);
    expect(free).not.toBe(devFree);

    expect(await lockStatus(odd.reader, odd.api, main)).toMatchObject({ held: true, lockId: 'holder-two', versionId: holder.versionId });
    expect(await lockStatus(odd.reader, odd.api, other)).toMatchObject({ held: true, lockId: 'holder-dev', versionId: devHolder.versionId });
    const mine = (list: LockStatus[]) => list.filter((s) => s.scope.startsWith(main.assetId)).map((s) => [s.scope, s.lockId]);
    expect(mine(await listLocks(odd.reader, odd.api, 'staging'))).toEqual([[scopeText(main), 'holder-two']]);
    expect(mine(await listLocks(odd.reader, odd.api))).toEqual([[scopeText(other), 'holder-dev'], [scopeText(main), 'holder-two']]);
    // An environment's lock over the channel's: refused naming the channel's holder in that environment.
    const clash = await failure(acquireLock(odd.reader, odd.api, take({ kind: 'env', env: 'staging' }, 'holder-env')));
    expect(clash.message).toMatch(new RegExp(`^${main.assetId}/ios/staging is locked: held by .*lock id holder-two,`));
    // The service that filters is asked for the Defaults of the one environment only, of the lock sentinels only (the environments' one among them).
    const plain = uid('plain');
    await h.createAsset(plain);
    api.sent.length = 0;
    await listLocks(reader, api, 'staging');
    const listings = api.sent.filter((r) => /^\/api\/v2\/demo\/va\/[^/]+\/asset-urls$/.test(r.path));
    expect(listings.map(line)).toContain(`GET /va/${LOCK_ASSET}/asset-urls`);
    expect(listings.map(line)).toContain(`GET /va/${lockAssetOf(main)}/asset-urls`);
    for (const r of listings) {
      expect(r.path).toMatch(/\/va\/ahs-control-lock(-[^/]+)?\/asset-urls$/);
      expect(r.query).toMatchObject({ targetPlatform: 'generic', state: 'DEFAULT', envId: 'staging' });
    }
    // Each read of a sentinel asks for what it reads: a cell's Default; the cell's records (the sweep, the free version).
    const asks = async (read: () => Promise<unknown>) => {
      api.sent.length = 0;
      await read();
      return api.sent.filter((r) => r.path.endsWith(`/va/${lockAssetOf(main)}/asset-urls`)).map((r) => r.query);
    };
    const page = { pageNumber: 1, pageSize: 1000 };
    expect(await asks(() => readCell(api, main))).toEqual([{ targetPlatform: 'generic', envId: 'staging', state: 'DEFAULT', ...page }]);
    expect(await asks(() => sweepCell(api, main, DEMO_USER))).toEqual([{ targetPlatform: 'generic', envId: 'staging', ...page }]);
    expect(await asks(() => freeVersion(api, main, DEMO_USER))).toEqual([{ targetPlatform: 'generic', envId: 'staging', ...page }]);
    expect(await asks(() => failure(acquireLock(reader, api, take({ kind: 'env', env: 'staging' }, 'holder-env'))))).toEqual([{ targetPlatform: 'generic', envId: 'staging', state: 'DEFAULT', ...page }]);
    // An environment's lock reads the cells inside it, not the other assets' records.
    expect(api.sent.map(line).filter((l) => l.includes(`/va/${plain}/`))).toEqual([]);
    // Their leases ended over a minute ago: the sweep of staging deletes its former leases only, and answers its free version.
    h.emu.advanceClock(700_000);
    const records = async () => (await h.records(lockAssetOf(main))).sort();
    const before = await records();
    expect(before).toEqual(expect.arrayContaining([`generic/staging/${former.versionId}=LIVE`, `generic/dev/${devFormer.versionId}=LIVE`, `generic/staging/${holder.versionId}=DEFAULT`]));
    expect(await sweepCell(odd.api, main, DEMO_USER)).toBe(free);
    expect(await records()).toEqual(before.filter((r) => r !== `generic/staging/${former.versionId}=LIVE` && r !== `generic/staging/${given.versionId}=LIVE`));
    expect(await freeVersion(odd.api, main, DEMO_USER)).toBe(free);
    expect(await freeVersion(odd.api, other, DEMO_USER)).toBe(devFree);
  });
});
