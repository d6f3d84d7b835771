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
import { ApiError, BlockedError, CancelledError, NetworkError, OutcomeUnknownError, UsageError } from '../../src/errors.js';
import type { ApiClient, RequestOptions } from '../../src/http/client.js';
import { ciLockId, CONTROL_ASSET, LOCK_ASSET, lockAssetOf, lockName, scopeText, type Scope } from '../../src/rules/change-control.js';
import {
  acquireLock,
  addBlock,
  addFreeze,
  blockFileName,
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
} from '../../src/service/change-control.js';

const runs = runContexts('cc-service');
let h: Harness;
beforeAll(() => {
  h = runs.h;
});

type Hook = (request: RequestOptions, send: () => Promise<unknown>) => Promise<unknown>;
interface Scripted extends ApiClient {
  sent: RequestOptions[];
}
/** A run's context and its client, each request seen first by `hook`. */
async function service(hook: Hook = (_request, send) => send(), env: Record<string, string | undefined> = {}) {
  const ctx = await runs.context({ AHS_JOURNAL: '', ...env });
  const real = await ctx.api();
  const api = Object.create(real) as Scripted;
  api.sent = [];
  api.json = ((request: RequestOptions) => {
    api.sent.push(request);
    return hook(request, () => real.json(request));
  }) as ApiClient['json'];
  return { ctx, api, reader: { settings: ctx.settings, deliveryClient: ctx.deliveryClient } };
}
const line = (r: RequestOptions) => `${r.method} ${r.path.replace(/^\/api\/v2\/demo/, '')}`;
const refusal = (status: number, title: string) => new ApiError(status, { type: 'about:blank', title, status, detail: title });
const channel = (env = 'prod'): Scope => ({ kind: 'channel', assetId: uid('a'), platform: 'ios', env });
const quiet = new AbortController().signal;
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
    for (const name of [undefined, '', 'bundle.zip', 'block..json', 'block.YQ.json.gz', 'xblock.YQ.json', `block.${Buffer.from('a\nb').toString('base64url')}.json`, `block.${Buffer.from('a\u007fb').toString('base64url')}.json`, 'block.=.json']) {
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
    expect(await lockStatus(reader, api, scope)).toEqual({ scope: scopeText(scope), held: false, lockId: null, holder: null, command: null, ci: null, reason: null, since: null, leaseEnd: null, expired: false, versionId: null });
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
