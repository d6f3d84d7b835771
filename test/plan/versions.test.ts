// The kinds of step that write versions (src/plan/kinds/versions.ts) and the
// promotion they share with the commands (src/service/promote.ts), each
// question of a kind asked on its own against the fake client: the request,
// the prediction, the send (the 409 re-read, the stale-read 400, converging
// with another run) and the settling read of a lost answer.
import { MADE_BY_ANOTHER, isByAnother } from '../../src/plan/answers.js';
import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, ConflictError } from '../../src/errors.js';
import { Output } from '../../src/io/output.js';
import { idsBetween, versionDelete, versionDeploy, versionPromote, versionUpload, type VersionPromoteParams } from '../../src/plan/kinds/versions.js';
import type { KindIO } from '../../src/plan/kinds/kind.js';
import { stepBudget } from '../../src/plan/retry.js';
import type { DeploymentState } from '../../src/rules/index.js';
import { bufferIO } from '../unit/helpers.js';
import { apiError, FakeService, USER } from './fake.js';
import { tempDirs } from '../support/temp-dir.js';

/** The test's temporary folders, removed after the file. */
const temp = tempDirs();

const DEPLOY = (versionId: string) => `POST /api/v2/d/va/A/versions/${versionId}/deploy`;

/** What a kind's send and settle get from the executor, over the fake. */
async function kindIO(service: FakeService) {
  const io = bufferIO();
  const api = service.client();
  const kio: KindIO = { api, out: await Output.create(io, { format: 'table' }), signal: new AbortController().signal, retry: stepBudget(api.policy), sentAt: 0, progress: () => undefined };
  return { kio, io, api };
}

const channel = (records: Record<string, DeploymentState>) => ({ records, formerDefaults: [], midDeployment: false });
const promoteParams = (extra: Partial<VersionPromoteParams> = {}): VersionPromoteParams => ({ assetId: 'A', platform: 'ios', envId: 'prod', versionId: 'IOS3', user: USER, channel: channel({ IOS1: 'DEFAULT', IOS3: 'LIVE' }), ...extra });
const bodyOf = (sent: { body?: unknown }) => sent.body as Record<string, unknown>;

describe('version.promote: the settling read of a lost answer or a 500', () => {
  const rows: Array<{ name: string; records: Record<string, DeploymentState>; planned?: Record<string, DeploymentState>; applied: boolean; how: string; previous?: string | null }> = [
    { name: 'ours is the Default', records: { IOS1: 'LIVE', IOS3: 'DEFAULT' }, applied: true, how: 'the channel A/ios/prod shows IOS3 DEFAULT', previous: 'IOS1' },
    { name: 'ours was the Default already when planned', records: { IOS3: 'DEFAULT' }, planned: { IOS3: 'DEFAULT' }, applied: true, how: 'the channel A/ios/prod shows IOS3 DEFAULT', previous: null },
    { name: 'no Default before', records: { IOS3: 'DEFAULT' }, planned: { IOS3: 'LIVE' }, applied: true, how: 'the channel A/ios/prod shows IOS3 DEFAULT', previous: null },
    { name: 'ours is still LIVE, another is the Default', records: { IOS1: 'DEFAULT', IOS3: 'LIVE' }, applied: false, how: 'the channel A/ios/prod shows IOS3 LIVE' },
    { name: 'another is the Default, ours not deployed', records: { IOS2: 'DEFAULT' }, applied: false, how: 'the channel A/ios/prod shows IOS3 not deployed' },
    { name: 'ours is OFFLINE', records: { IOS1: 'DEFAULT', IOS3: 'OFFLINE' }, applied: false, how: 'the channel A/ios/prod shows IOS3 OFFLINE' },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.applied ? 'applied' : 'not applied'}`, async () => {
      const service = new FakeService();
      service.records = row.records;
      const { kio } = await kindIO(service);
      const settled = await versionPromote.settle!(promoteParams(row.planned ? { channel: channel(row.planned) } : {}), kio);
      expect(settled.applied).toBe(row.applied);
      expect((settled as { how: string }).how).toBe(row.how);
      if (row.applied) {
        expect((settled as { result: unknown }).result).toEqual({
          assetVersion: expect.objectContaining({ versionId: 'IOS3', state: 'DEFAULT', envId: 'prod' }),
          message: 'Deployment confirmed by a read of the channel.',
          previousDefault: row.previous,
          attempts: 1,
        });
      }
    });
  }
});

describe('version.promote: the send', () => {
  it('over the channel as planned: one send, the demotion named, the Default it replaced, 1 attempt', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    const { kio } = await kindIO(service);
    const answer = await versionPromote.send!(promoteParams(), kio);
    expect(bodyOf(service.sent[0]!)).toEqual({ envId: 'prod', intent: 'DEFAULT', createdBy: USER, updatedBy: USER, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' });
    expect(service.sent[0]!.query).toEqual({ targetPlatformId: 'ios' });
    expect(answer).toMatchObject({ previousDefault: 'IOS1', attempts: 1 });
    expect(service.reads).toEqual([]);
  });

  it('of the Default itself: previousDefault null, no demotion', async () => {
    const service = new FakeService();
    const { kio } = await kindIO(service);
    const answer = await versionPromote.send!(promoteParams({ channel: channel({ IOS3: 'DEFAULT' }) }), kio);
    expect(bodyOf(service.sent[0]!)).toEqual({ envId: 'prod', intent: 'DEFAULT', createdBy: USER, updatedBy: USER });
    expect(answer.previousDefault).toBeNull();
  });

  it('after an earlier LIVE deploy: sent over the channel as planned plus that deploy, nothing read first', async () => {
    const service = new FakeService();
    service.records = { IOS2: 'DEFAULT', IOS3: 'LIVE' };
    const { kio } = await kindIO(service);
    await versionPromote.send!(promoteParams({ channel: channel({ IOS2: 'DEFAULT' }), afterLive: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER } }), kio);
    expect(bodyOf(service.sent[0]!).currentVersionId).toBe('IOS2');
    expect(service.reads).toEqual([]);
  });

  const moving = (status: number) => (service: FakeService) => () => {
    const next = Object.keys(service.records).find((id) => service.records[id] === 'DEFAULT') === 'IOS1' ? 'IOS2' : 'IOS1';
    service.records = { IOS1: 'LIVE', IOS2: 'LIVE', IOS3: 'LIVE', [next]: 'DEFAULT' };
    throw apiError(status, 'the pointer moved');
  };
  const rows: Array<{ name: string; retries?: number; answers: (s: FakeService) => unknown[]; sends: number; error?: { exit: number; message: string | RegExp; type: unknown }; infos: number }> = [
    { name: 'a 409 then accepted: read again, sent over the new Default', answers: (s) => [moving(409)(s)], sends: 2, infos: 1 },
    { name: 'a stale-read 400 (the Default moved) then accepted', answers: (s) => [moving(400)(s)], sends: 2, infos: 1 },
    { name: 'a 409 standing: 5 attempts, then the 409 as a conflict', answers: (s) => Array.from({ length: 9 }, () => moving(409)(s)), sends: 5, error: { exit: 5, message: 'the pointer moved', type: ApiError }, infos: 4 },
    {
      name: 'stale-read 400s standing: 5 attempts, then "kept moving", exit 5',
      answers: (s) => Array.from({ length: 9 }, () => moving(400)(s)),
      sends: 5,
      error: { exit: 5, message: 'the Default of A/ios/prod kept moving; gave up after 5 attempts', type: ConflictError },
      infos: 4,
    },
    { name: '--retries 6 raises the attempts to 7', retries: 6, answers: (s) => Array.from({ length: 9 }, () => moving(409)(s)), sends: 7, error: { exit: 5, message: 'the pointer moved', type: ApiError }, infos: 6 },
    { name: 'a 400 with the Default where it was: a real 400, no retry', answers: () => [apiError(400, 'already the Default')], sends: 1, error: { exit: 1, message: 'already the Default', type: ApiError }, infos: 0 },
    { name: 'a 404: no re-read, no retry', answers: () => [apiError(404, 'no such version')], sends: 1, error: { exit: 4, message: 'no such version', type: ApiError }, infos: 0 },
  ];
  for (const row of rows) {
    it(`${row.name}`, async () => {
      const service = new FakeService({ retries: row.retries ?? 2 });
      service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
      service.script(DEPLOY('IOS3'), ...row.answers(service));
      const { kio, io } = await kindIO(service);
      const outcome = await versionPromote.send!(promoteParams(), kio).catch((error: Error) => error);
      expect(service.sent).toHaveLength(row.sends);
      expect((io.err.text.match(/^the Default of A\/ios\/prod moved \(now IOS\d\); retrying$/gm) ?? []).length).toBe(row.infos);
      expect(io.err.text).not.toContain('hint:');
      if (row.error) {
        expect(outcome).toBeInstanceOf(row.error.type);
        expect((outcome as ConflictError).exitCode).toBe(row.error.exit);
        expect((outcome as Error).message).toMatch(row.error.message);
        if (row.error.exit === 4) expect(service.reads).toEqual([]);
      } else {
        expect(outcome).toMatchObject({ attempts: row.sends, assetVersion: { versionId: 'IOS3', state: 'DEFAULT' } });
        // Each send names the Default the read before it showed.
        const defaults = service.sent.map((s) => bodyOf(s).currentVersionId);
        expect(defaults[0]).toBe('IOS1');
        expect(defaults[1]).toBe('IOS2');
        expect((outcome as { previousDefault: string }).previousDefault).toBe('IOS2');
        // Each re-read: the Default and this version's own records, not the version itself.
        expect(service.reads).toEqual(['/api/v2/d/va/A/asset-urls', '/api/v2/d/va/A/versions/IOS3/asset-urls']);
      }
    });
  }

  it('a 409 with Retry-After: the wait the service asked for, not the backoff; one longer than what is left of --timeout is not begun (exit 5)', async () => {
    const withRetryAfter = (service: FakeService, value: string) => () => {
      try {
        moving(409)(service)();
      } catch (error) {
        (error as ApiError).retryAfter = value;
        throw error;
      }
    };
    const service = new FakeService({ timeoutMs: 30_000 });
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    service.script(DEPLOY('IOS3'), withRetryAfter(service, '2'), withRetryAfter(service, '3'));
    const { kio } = await kindIO(service);
    await versionPromote.send!(promoteParams(), kio);
    expect(service.waits).toEqual([2000, 3000]);

    const late = new FakeService({ timeoutMs: 30_000 });
    late.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    late.script(DEPLOY('IOS3'), withRetryAfter(late, '3600'));
    const lateIO = await kindIO(late);
    const outcome = await versionPromote.send!(promoteParams(), lateIO.kio).catch((error: Error) => error);
    expect((outcome as ApiError).exitCode).toBe(5);
    expect(late.sent).toHaveLength(1);
    expect(late.waits).toEqual([]);
  });

  it('the waits between contended attempts: the backoff, at most half of what is left of --timeout', async () => {
    for (const [timeoutMs, waits] of [
      [30_000, [225, 450, 900, 1800]],
      [1000, [225, 387.5, 193.75, 96.875]],
    ] as const) {
      const service = new FakeService({ timeoutMs });
      service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
      service.script(DEPLOY('IOS3'), ...Array.from({ length: 9 }, () => moving(409)(service)));
      const { kio } = await kindIO(service);
      await versionPromote.send!(promoteParams(), kio).catch(() => undefined);
      expect(service.waits).toEqual(waits);
    }
  });

  it('Ctrl-C between contended attempts: no further attempt', async () => {
    const controller = new AbortController();
    const service = new FakeService({ signal: controller.signal });
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    service.script(DEPLOY('IOS3'), () => {
      controller.abort();
      return moving(409)(service)();
    });
    const { kio } = await kindIO(service);
    const outcome = await versionPromote.send!(promoteParams(), kio).catch((error: Error) => error);
    expect(service.sent).toHaveLength(1);
    expect((outcome as ApiError).exitCode).toBe(5);
  });

  it('--expect-current is checked on every read: after a 409 that moved it elsewhere, exit 5, nothing sent again', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    service.script(DEPLOY('IOS3'), moving(409)(service));
    const { kio } = await kindIO(service);
    const outcome = await versionPromote.send!(promoteParams({ expected: 'IOS1' }), kio).catch((error: Error) => error);
    expect(outcome).toBeInstanceOf(ConflictError);
    expect((outcome as Error).message).toBe('the compare-and-set did not hold: the Default of A/ios/prod is IOS2, not IOS1 as expected; nothing was written');
    expect(service.sent).toHaveLength(1);
  });

  it('--expect-current none with no Default: holds; with one: exit 5 before any send', async () => {
    const service = new FakeService();
    const { kio } = await kindIO(service);
    await versionPromote.send!(promoteParams({ expected: null, channel: channel({ IOS3: 'LIVE' }) }), kio);
    expect(service.sent).toHaveLength(1);
    const outcome = await versionPromote.send!(promoteParams({ expected: null }), kio).catch((error: Error) => error);
    expect((outcome as Error).message).toBe('the compare-and-set did not hold: the Default of A/ios/prod is IOS1, not none as expected; nothing was written');
    expect(service.sent).toHaveLength(1);
  });

  it('converging with another run that promoted it: done, said, from a read of the channel', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    service.script(DEPLOY('IOS3'), () => {
      service.records = { IOS1: 'LIVE', IOS3: 'DEFAULT' };
      throw apiError(409, 'moved');
    });
    const { kio, io } = await kindIO(service);
    const answer = await versionPromote.send!(promoteParams({ converge: true }), kio);
    expect(answer).toEqual({ assetVersion: expect.objectContaining({ versionId: 'IOS3', state: 'DEFAULT', envId: 'prod' }), message: 'Already the Default: confirmed by a read of the channel.', previousDefault: 'IOS1', attempts: 1, [MADE_BY_ANOTHER]: true });
    // Another writer's change: this run's journal entry leaves it out.
    expect(isByAnother(answer)).toBe(true);
    expect(io.err.text).toContain('IOS3 is the Default of A/ios/prod already: another writer promoted it meanwhile');
    expect(service.sent).toHaveLength(1);
  });

  it('converging, when the Default moved to another version: retried, not "already"', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    service.script(DEPLOY('IOS3'), moving(409)(service));
    const { kio, io } = await kindIO(service);
    const answer = await versionPromote.send!(promoteParams({ converge: true }), kio);
    expect(service.sent).toHaveLength(2);
    expect(answer).toMatchObject({ previousDefault: 'IOS2', attempts: 2 });
    expect(io.err.text).not.toContain('already');
  });

  it('converging, ours the Default when planned: previousDefault null', async () => {
    const service = new FakeService();
    service.records = { IOS3: 'DEFAULT' };
    service.script(DEPLOY('IOS3'), apiError(409, 'moved'));
    const { kio } = await kindIO(service);
    const answer = await versionPromote.send!(promoteParams({ converge: true, channel: channel({ IOS3: 'DEFAULT' }) }), kio);
    expect(answer).toMatchObject({ previousDefault: null, attempts: 1, assetVersion: { versionId: 'IOS3' } });
    expect(service.sent).toHaveLength(1);
  });

  it('converging, ours the Default by its own record but not by the read of the Default (a race): sent again', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    service.script(DEPLOY('IOS3'), () => {
      service.records = { IOS1: 'LIVE', IOS3: 'LIVE' };
      throw apiError(409, 'moved');
    });
    // The Default is read first, then the version's own records: it became the Default in between.
    service.onRead = (path) => {
      if (path.endsWith('/versions/IOS3/asset-urls')) service.records = { IOS1: 'LIVE', IOS3: 'DEFAULT' };
    };
    const { kio } = await kindIO(service);
    const answer = await versionPromote.send!(promoteParams({ converge: true }), kio);
    expect(service.sent).toHaveLength(2);
    expect(answer).toMatchObject({ attempts: 2 });
  });

  it('a 409 after which there is no Default: "now none", sent without a demotion', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    service.script(DEPLOY('IOS3'), () => {
      service.records = { IOS1: 'OFFLINE', IOS3: 'LIVE' };
      throw apiError(409, 'moved');
    });
    const { kio, io } = await kindIO(service);
    await versionPromote.send!(promoteParams(), kio);
    expect(io.err.text).toContain('the Default of A/ios/prod moved (now none); retrying');
    expect(bodyOf(service.sent[1]!)).toEqual({ envId: 'prod', intent: 'DEFAULT', createdBy: USER, updatedBy: USER });
  });

  it('without converge, the same 409 is retried (and the service says it is the Default already)', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    service.script(DEPLOY('IOS3'), () => {
      service.records = { IOS1: 'LIVE', IOS3: 'DEFAULT' };
      throw apiError(409, 'moved');
    });
    const { kio } = await kindIO(service);
    const answer = await versionPromote.send!(promoteParams(), kio);
    expect(service.sent).toHaveLength(2);
    expect(answer.previousDefault).toBeNull();
  });
});

describe('version.promote: request and prediction', () => {
  it('the request: DEFAULT over the channel as planned (after the LIVE deploy when there is one)', () => {
    const service = new FakeService();
    const api = service.client();
    expect(versionPromote.request(promoteParams(), api)).toEqual({
      method: 'POST',
      path: '/api/v2/d/va/A/versions/IOS3/deploy',
      query: { targetPlatformId: 'ios' },
      body: { envId: 'prod', intent: 'DEFAULT', createdBy: USER, updatedBy: USER, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' },
    });
    expect(versionPromote.describe(promoteParams())).toBe('make IOS3 the Default of A/ios/prod');
    expect(versionPromote.check!(promoteParams())).toBe('ahs asset status A --platform ios --env prod');
    expect(versionPromote.waitsOutDeployment).toBe(true);
  });

  const rows: Array<{ name: string; params: Partial<VersionPromoteParams>; ok: boolean; status: number; current: unknown; unchanged: unknown; reads: number }> = [
    { name: 'a LIVE version over a Default', params: {}, ok: true, status: 201, current: { state: 'LIVE', default: 'IOS1' }, unchanged: 'LIVE', reads: 1 },
    { name: 'a version that does not exist', params: { versionId: 'IOS9' }, ok: false, status: 404, current: { state: null, default: 'IOS1' }, unchanged: null, reads: 1 },
    { name: 'a new version deployed LIVE just before: no read', params: { versionId: 'IOS9', versionIsNew: true, channel: channel({}), afterLive: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER } }, ok: true, status: 201, current: { state: null, default: null }, unchanged: null, reads: 0 },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.status}`, async () => {
      const service = new FakeService();
      const prediction = await versionPromote.predict(promoteParams(row.params), service.client());
      expect(prediction.decision.ok).toBe(row.ok);
      expect(prediction.decision.status).toBe(row.status);
      expect(prediction.current).toEqual(row.current);
      expect(prediction.unchanged).toEqual(row.unchanged);
      expect(service.reads).toHaveLength(row.reads);
    });
  }
});

describe('version.deploy', () => {
  const params = (extra: Record<string, unknown> = {}) => ({ assetId: 'A', versionId: 'IOS1', platform: 'ios', body: { envId: 'prod', intent: 'LIVE' as DeploymentState, createdBy: USER, updatedBy: USER }, ...extra });

  it('request, description and check', () => {
    const api = new FakeService().client();
    expect(versionDeploy.request(params(), api)).toEqual({ method: 'POST', path: '/api/v2/d/va/A/versions/IOS1/deploy', query: { targetPlatformId: 'ios' }, body: params().body });
    expect(versionDeploy.describe(params())).toBe('deploy IOS1 LIVE on A/ios/prod');
    expect(versionDeploy.check!(params())).toBe('ahs asset status A --platform ios --env prod');
  });

  const predictions: Array<{ name: string; extra: Record<string, unknown>; records?: Record<string, DeploymentState>; ownOmitsOffline?: boolean; status: number; current: unknown; reads: string[] }> = [
    { name: "over the version's record as read now", extra: {}, records: { IOS1: 'OFFLINE' }, status: 201, current: 'OFFLINE', reads: ['versions/IOS1/asset-urls', 'versions/IOS1'] },
    { name: 'over the channel and the version the command read', extra: { channel: channel({ IOS1: 'LIVE' }), version: null }, status: 404, current: 'LIVE', reads: [] },
    { name: 'a version uploaded just before, the channel not read: its records, then the OFFLINE ones', extra: { versionId: 'IOS9', versionIsNew: true }, status: 201, current: null, reads: ['versions/IOS9/asset-urls', 'asset-urls'] },
    { name: 'the version the command read (none), the channel not read', extra: { version: null }, status: 404, current: null, reads: ['versions/IOS1/asset-urls', 'asset-urls'] },
    { name: 'OFFLINE, not in its own listing: found with the state filter', extra: {}, records: { IOS1: 'OFFLINE' }, ownOmitsOffline: true, status: 201, current: 'OFFLINE', reads: ['versions/IOS1/asset-urls', 'versions/IOS1', 'asset-urls'] },
    { name: 'OFFLINE asked of an OFFLINE version not in its own listing: the 400', extra: { body: { envId: 'prod', intent: 'OFFLINE', createdBy: USER, updatedBy: USER } }, records: { IOS1: 'OFFLINE' }, ownOmitsOffline: true, status: 400, current: 'OFFLINE', reads: ['versions/IOS1/asset-urls', 'versions/IOS1', 'asset-urls'] },
    { name: 'a DEFAULT deploy reads the Default too', extra: { body: { envId: 'prod', intent: 'DEFAULT', createdBy: USER, updatedBy: USER } }, records: { IOS2: 'DEFAULT', IOS1: 'LIVE' }, status: 400, current: 'LIVE', reads: ['asset-urls', 'versions/IOS1/asset-urls', 'versions/IOS1'] },
    { name: 'over the channel the command read', extra: { channel: channel({ IOS1: 'LIVE' }) }, status: 400, current: 'LIVE', reads: ['versions/IOS1'] },
    { name: 'a version uploaded just before: only the channel', extra: { versionId: 'IOS9', versionIsNew: true, channel: channel({}) }, status: 201, current: null, reads: [] },
    { name: 'a version that does not exist', extra: { versionId: 'IOS9', channel: channel({}), notes: ['n'] }, status: 404, current: null, reads: ['versions/IOS9'] },
  ];
  for (const row of predictions) {
    it(`predicts ${row.name}: ${row.status}`, async () => {
      const service = new FakeService();
      service.records = row.records ?? {};
      service.ownOmitsOffline = row.ownOmitsOffline === true;
      const prediction = await versionDeploy.predict(params(row.extra), service.client());
      expect(prediction.decision.status).toBe(row.status);
      expect(prediction.current).toEqual(row.current);
      expect(prediction.notes).toEqual(row.extra.notes);
      expect(service.reads.map((path) => path.split('/va/A/')[1])).toEqual(row.reads);
    });
  }

  const elsewhere = (versionId: string, targetPlatform: string, envId: string) => ({ assetId: 'A', version: 1, versionId, versionName: versionId, targetPlatform, assetType: '1001', secured: true, state: 'OFFLINE', envId });
  const settles: Array<{ name: string; intent: DeploymentState; records: Record<string, DeploymentState>; ownOmitsOffline?: boolean; elsewhere?: Array<Record<string, unknown>>; applied: boolean; how: string }> = [
    { name: 'LIVE asked, LIVE shown', intent: 'LIVE', records: { IOS1: 'LIVE' }, applied: true, how: 'the channel A/ios/prod shows IOS1 LIVE' },
    { name: 'LIVE asked, DEFAULT shown (a lost answer is not converging)', intent: 'LIVE', records: { IOS1: 'DEFAULT' }, applied: false, how: 'the channel A/ios/prod shows IOS1 DEFAULT' },
    { name: 'LIVE asked, another version LIVE', intent: 'LIVE', records: { IOS2: 'LIVE' }, applied: false, how: 'the channel A/ios/prod shows IOS1 not deployed' },
    { name: 'OFFLINE asked, OFFLINE shown', intent: 'OFFLINE', records: { IOS1: 'OFFLINE' }, applied: true, how: 'the channel A/ios/prod shows IOS1 OFFLINE' },
    { name: 'OFFLINE asked, OFFLINE shown by the state filter only', intent: 'OFFLINE', records: { IOS1: 'OFFLINE' }, ownOmitsOffline: true, applied: true, how: 'the channel A/ios/prod shows IOS1 OFFLINE' },
    { name: 'OFFLINE asked, the state filter shows it OFFLINE elsewhere only', intent: 'OFFLINE', records: {}, elsewhere: [elsewhere('IOS1', 'ios', 'dev'), elsewhere('IOS1', 'android', 'prod'), elsewhere('IOS2', 'ios', 'prod')], applied: false, how: 'the channel A/ios/prod shows IOS1 not deployed' },
  ];
  for (const row of settles) {
    it(`settles ${row.name}: ${row.applied ? 'applied' : 'not applied'}`, async () => {
      const service = new FakeService();
      service.records = row.records;
      service.ownOmitsOffline = row.ownOmitsOffline === true;
      service.elsewhere = row.elsewhere ?? [];
      const { kio } = await kindIO(service);
      const p = params({ body: { ...params().body, intent: row.intent } });
      const settled = await versionDeploy.settle!(p, kio);
      expect([settled.applied, (settled as { how: string }).how]).toEqual([row.applied, row.how]);
      if (row.applied) expect((settled as { result: unknown }).result).toEqual({ assetVersion: expect.objectContaining({ versionId: 'IOS1', state: row.intent, envId: 'prod' }), message: 'Deployment confirmed by a read of the channel.' });
    });
  }

  it('the state filter answered 404 (an asset or environment the service does not know): no record, the write gets the service\'s own answer', async () => {
    const service = new FakeService();
    service.onRead = (path) => {
      if (path.endsWith('/va/A/asset-urls')) throw apiError(404, 'unknown environment');
    };
    const prediction = await versionDeploy.predict(params(), service.client());
    expect([prediction.current, prediction.decision.status]).toEqual([null, 201]);
  });

  it('the state filter failing otherwise: the failure, not "not deployed"', async () => {
    const service = new FakeService();
    service.onRead = (path) => {
      if (path.endsWith('/va/A/asset-urls')) throw apiError(500, 'broken');
    };
    await expect(versionDeploy.predict(params(), service.client())).rejects.toMatchObject({ status: 500 });
  });

  const converging: Array<{ name: string; intent: DeploymentState; converge: boolean; error: ApiError; after: Record<string, DeploymentState>; done: boolean; said?: string }> = [
    { name: 'a 400 while another run made it LIVE', intent: 'LIVE', converge: true, error: apiError(400, 'already LIVE'), after: { IOS1: 'LIVE' }, done: true },
    { name: 'a 400 while another run made it LIVE and then the Default', intent: 'LIVE', converge: true, error: apiError(400, 'already LIVE'), after: { IOS1: 'DEFAULT' }, done: true },
    { name: 'OFFLINE asked, a 400 and the read shows DEFAULT', intent: 'OFFLINE', converge: true, error: apiError(400, 'no'), after: { IOS1: 'DEFAULT' }, done: false },
    { name: 'OFFLINE asked, a 400 while another run took it OFFLINE', intent: 'OFFLINE', converge: true, error: apiError(400, 'already OFFLINE'), after: { IOS1: 'OFFLINE' }, done: true },
    { name: 'a 400 and the read does not show it', intent: 'LIVE', converge: true, error: apiError(400, 'no'), after: {}, done: false },
    { name: 'a 409 (not "already there")', intent: 'LIVE', converge: true, error: apiError(409, 'moved'), after: { IOS1: 'LIVE' }, done: false },
    { name: 'a 400 without converge, the version in that state', intent: 'LIVE', converge: false, error: apiError(400, 'already LIVE'), after: { IOS1: 'LIVE' }, done: false, said: 'hint: IOS1 is already LIVE on A/ios/prod; with --idempotent, a run that finds it so says so and exits 0 without sending' },
    { name: 'a 400 without converge, the version in another state', intent: 'LIVE', converge: false, error: apiError(400, 'no'), after: { IOS1: 'OFFLINE' }, done: false },
  ];
  for (const row of converging) {
    it(`sends: ${row.name}: ${row.done ? 'done, said' : 'the error'}`, async () => {
      const service = new FakeService();
      service.script(DEPLOY('IOS1'), () => {
        service.records = row.after;
        throw row.error;
      });
      const { kio, io } = await kindIO(service);
      const outcome = await versionDeploy.send!(params({ converge: row.converge, body: { ...params().body, intent: row.intent } }), kio).catch((error: Error) => error);
      if (row.done) {
        expect(outcome).toMatchObject({ assetVersion: { versionId: 'IOS1', state: row.after.IOS1 } });
        expect(io.err.text).toContain(`IOS1 is ${row.intent} on A/ios/prod already: another writer did it meanwhile (the service answered 400, and a read shows the state asked for)`);
      } else {
        expect(outcome).toBe(row.error);
        expect(io.err.text.trim()).toBe(row.said ?? '');
      }
    });
  }
});

describe('version.upload', () => {
  const made = (versionId: string, version: number, extra: Record<string, unknown> = {}) => ({ versionId, version, versionName: '1.0', targetPlatform: 'ios', fileName: 'a.zip', size: '1 B', createdAt: '2026-01-01T00:00:00Z', ...extra });
  const params = (path = '/nonexistent/a.zip', extra: Record<string, unknown> = {}) => ({ assetId: 'A', platform: 'ios', fields: { versionName: '1.0', createdBy: USER }, file: { path, name: 'a.zip', size: 1 }, ...extra });

  it('request, file, description, check and the line once uploaded', () => {
    const api = new FakeService().client();
    expect(versionUpload.request(params(), api)).toEqual({
      method: 'POST',
      path: '/api/v2/d/va/A/versions',
      query: { targetPlatformId: 'ios' },
      body: { versionName: '1.0', createdBy: USER, assetFile: { fileName: 'a.zip', size: 1, contentType: 'multipart/form-data' } },
    });
    expect(versionUpload.file!(params())).toEqual(params().file);
    expect(versionUpload.describe(params())).toBe('upload a.zip as ios version 1.0 of A');
    expect(versionUpload.check!(params())).toBe('ahs version list A --all');
    expect(versionUpload.uploaded!(params(), made('IOS4', 4) as never)).toBe('Uploaded a.zip as IOS4');
  });

  it('predicts the next number on the platform', async () => {
    const service = new FakeService();
    service.versionList = [made('IOS1', 1), made('IOS7', 7), made('AND9', 9, { targetPlatform: 'android' })];
    const prediction = await versionUpload.predict(params(), service.client());
    expect(prediction.current).toEqual({ asset: 'A', versionsOnPlatform: ['IOS1', 'IOS7'] });
    expect(prediction.notes).toEqual(['the version id assumes no deleted version used a higher number on this platform', 'the platform code, the file type and the plan limits are checked by the service']);
    expect(prediction.decision).toMatchObject({ ok: true, status: 201, next: { versionId: 'IOS8', version: 8, versionName: '1.0', targetPlatform: 'ios', fileName: 'a.zip', createdBy: USER } });
    service.versionList = [];
    expect((await versionUpload.predict(params(), service.client())).decision).toMatchObject({ next: { versionId: 'IOS1', version: 1 } });
  });

  const settles: Array<{ name: string; list: Array<Record<string, unknown>>; since?: boolean; applied: boolean | 'unknown'; how?: string }> = [
    { name: 'one of that name made since', list: [made('IOS4', 4), made('AND4', 4, { targetPlatform: 'android' }), made('IOS3', 3, { versionName: '0.9' })], applied: true, how: "the asset's versions show one ios version named 1.0 created since the upload started (IOS4)" },
    { name: 'none: not seen (yet)', list: [made('IOS3', 3, { versionName: '0.9' })], applied: false, how: "the asset's versions show no ios version named 1.0 created since the upload started" },
    { name: 'one of that name, made before the upload', list: [made('IOS4', 4)], since: false, applied: false, how: "the asset's versions show no ios version named 1.0 created since the upload started" },
    { name: 'two: cannot tell', list: [made('IOS4', 4), made('IOS5', 5)], applied: 'unknown' },
  ];
  for (const row of settles) {
    it(`settles ${row.name}`, async () => {
      const service = new FakeService();
      service.versionList = row.list;
      service.madeSince = row.since ?? true;
      const { kio } = await kindIO(service);
      const settled = await versionUpload.settle!(params(), kio);
      expect(settled.applied).toBe(row.applied);
      if (row.how) expect((settled as { how: string }).how).toBe(row.how);
      if (row.applied === 'unknown') expect(settled).toEqual({ applied: 'unknown', check: 'ahs version list A --all' });
    });
  }

  const converging: Array<{ name: string; list: Array<Record<string, unknown>>; latest?: number; reads?: string[]; deleteFails?: boolean; answer: string; deleted: boolean; said: string }> = [
    { name: 'ours took the next number: nothing read', list: [made('IOS3', 3)], latest: 3, reads: [], answer: 'IOS4', deleted: false, said: '' },
    {
      name: 'another run took the number before ours: that version alone read',
      list: [made('IOS3', 3), made('IOS2', 2)],
      latest: 2,
      reads: ['/api/v2/d/va/A/versions/IOS3'],
      answer: 'IOS3',
      deleted: true,
      said: "another run uploaded the same file as IOS3 meanwhile: this run's copy IOS4 was deleted; going on with IOS3",
    },
    { name: 'a number between that no longer exists', list: [], latest: 2, reads: ['/api/v2/d/va/A/versions/IOS3'], answer: 'IOS4', deleted: false, said: '' },
    { name: 'many numbers between: the whole list read', list: [made('IOS4', 4)], latest: -20, reads: ['/api/v2/d/va/A/versions'], answer: 'IOS4', deleted: false, said: '' },
    { name: 'ours is the only copy', list: [made('IOS4', 4)], answer: 'IOS4', deleted: false, said: '' },
    { name: 'ours has the lowest number', list: [made('IOS5', 5), made('IOS4', 4)], answer: 'IOS4', deleted: false, said: '' },
    { name: 'another file of that name is no copy', list: [made('IOS3', 3, { fileName: 'b.zip' }), made('IOS2', 2, { size: '9 MB' }), made('AND1', 1, { targetPlatform: 'android' }), made('IOS1', 1, { versionName: '0.9' }), made('IOS4', 4)], answer: 'IOS4', deleted: false, said: '' },
    { name: 'another run uploaded it first', list: [made('IOS4', 4), made('IOS3', 3, { fileName: undefined })], answer: 'IOS3', deleted: true, said: "another run uploaded the same file as IOS3 meanwhile: this run's copy IOS4 was deleted; going on with IOS3" },
    { name: 'another run first, and our delete fails', list: [made('IOS4', 4), made('IOS3', 3)], deleteFails: true, answer: 'IOS3', deleted: true, said: "warning: another run uploaded the same file as IOS3 meanwhile; deleting this run's copy IOS4 failed (refused): delete it with ahs version delete A IOS4" },
  ];
  for (const row of converging) {
    it(`sends and converges: ${row.name}: goes on with ${row.answer}`, async () => {
      const dir = await temp('ahs-upload-');
      await writeFile(join(dir, 'a.zip'), 'x');
      const service = new FakeService();
      service.versionList = row.list;
      service.versions = new Set();
      service.script('POST /api/v2/d/va/A/versions', made('IOS4', 4));
      if (row.deleteFails) service.script('DELETE /api/v2/d/va/A/versions/IOS4', apiError(403, 'refused'));
      const { kio, io } = await kindIO(service);
      const answer = await versionUpload.send!(params(join(dir, 'a.zip'), { converge: true, latest: row.latest }), kio);
      expect(answer.versionId).toBe(row.answer);
      expect(service.reads).toEqual(row.reads ?? ['/api/v2/d/va/A/versions']);
      expect(service.sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/v2/d/va/A/versions', ...(row.deleted ? ['DELETE /api/v2/d/va/A/versions/IOS4'] : [])]);
      expect(service.sent[0]!.query).toEqual({ targetPlatformId: 'ios' });
      expect(io.err.text.trim()).toBe(row.said);
    });
  }

  it('without converge: the answer as it is, nothing read', async () => {
    const dir = await temp('ahs-upload-');
    await writeFile(join(dir, 'a.zip'), 'x');
    const service = new FakeService();
    service.versionList = [made('IOS3', 3), made('IOS4', 4)];
    service.script('POST /api/v2/d/va/A/versions', made('IOS4', 4));
    const { kio } = await kindIO(service);
    expect((await versionUpload.send!(params(join(dir, 'a.zip')), kio)).versionId).toBe('IOS4');
    expect(service.reads).toEqual([]);
  });
});

describe('version.delete', () => {
  const params = (versionId = 'IOS1', records: unknown[] = []) => ({ assetId: 'A', versionId, records: records as never });

  it('request, description, prediction over the records as read', async () => {
    const api = new FakeService().client();
    expect(versionDelete.request(params(), api)).toEqual({ method: 'DELETE', path: '/api/v2/d/va/A/versions/IOS1' });
    expect(versionDelete.describe(params())).toBe('delete version IOS1 of A');
    expect((await versionDelete.predict(params(), api)).decision.ok).toBe(true);
    const deployed = params('IOS1', [{ versionId: 'IOS1', targetPlatform: 'ios', envId: 'prod', state: 'LIVE' }]);
    const prediction = await versionDelete.predict(deployed, api);
    expect(prediction.decision.ok).toBe(false);
    expect(prediction.current).toEqual(deployed.records);
  });

  it('settles: gone is applied, still there is not', async () => {
    const service = new FakeService();
    const { kio } = await kindIO(service);
    expect(await versionDelete.settle!(params('IOS9'), kio)).toEqual({ applied: true, how: 'GET of version IOS9 answers 404', result: undefined });
    expect(await versionDelete.settle!(params('IOS1'), kio)).toEqual({ applied: false, how: 'version IOS1 still exists' });
  });
});

describe('idsBetween: the version ids another run may have taken since the read', () => {
  const created = (versionId: string, version: number) => ({ versionId, version }) as never;
  const rows: Array<[string, string, number, number, string[] | undefined]> = [
    ['the next number: none', 'IOS4', 4, 3, []],
    ['one between', 'IOS4', 4, 2, ['IOS3']],
    ['eight between: each', 'IOS9', 9, 0, ['IOS1', 'IOS2', 'IOS3', 'IOS4', 'IOS5', 'IOS6', 'IOS7', 'IOS8']],
    ['nine between: too many, the list', 'IOS10', 10, 0, undefined],
    ['a number below the read: cannot be told', 'IOS4', 4, 4, undefined],
    ['zero-padded ids keep their width', 'GEN007', 7, 4, ['GEN005', 'GEN006']],
    ['a width that changes, not padded: not guessed', 'GEN100', 100, 98, undefined],
    ['the same width, not padded', 'GEN12', 12, 10, ['GEN11']],
    ['an id whose number is not the version', 'IOS8', 7, 5, undefined],
    ['an id with no number', 'IOSX', 7, 5, undefined],
    ['an id whose number is not at its end', 'IOS7X', 7, 5, undefined],
  ];
  for (const [name, versionId, version, latest, ids] of rows) {
    it(`${name}: ${versionId} after ${latest}`, () => expect(idsBetween(created(versionId, version), latest)).toEqual(ids));
  }
});

describe('what a settled deploy answers, and the --idempotent hint', () => {
  it("the deploy answer's record, read back: the channel's entry and the version's own fields, in the answer's order", async () => {
    const service = new FakeService();
    service.records = { IOS3: 'DEFAULT' };
    const { kio } = await kindIO(service);
    const settled = (await versionPromote.settle!(promoteParams({ channel: channel({ IOS1: 'DEFAULT' }) }), kio)) as { result: { assetVersion: Record<string, unknown> } };
    const keys = ['version', 'assetType', 'versionId', 'versionName', 'envId', 'fallback', 'lock', 'state', 'createdBy', 'updatedBy', 'createdAt', 'updatedAt', 'active', 'secured', 'size', 'targetPlatform', 'uploadStatus'];
    expect(Object.keys(settled.result.assetVersion)).toEqual(keys);
    expect(settled.result.assetVersion).toEqual({
      version: 3, assetType: '1001', versionId: 'IOS3', versionName: 'IOS3', envId: 'prod', fallback: null, lock: null, state: 'DEFAULT',
      createdBy: null, updatedBy: null, createdAt: null, updatedAt: null, active: true, secured: true, size: '1 KB', targetPlatform: 'ios', uploadStatus: 'Committed',
    });
  });

  it('a promotion refused with a 400 while it is the Default already: the hint, then the error', async () => {
    const service = new FakeService();
    service.records = { IOS3: 'DEFAULT' };
    const error = apiError(400, 'already the Default');
    service.script(DEPLOY('IOS3'), error);
    const { kio, io } = await kindIO(service);
    await expect(versionPromote.send!(promoteParams({ channel: channel({ IOS3: 'DEFAULT' }) }), kio)).rejects.toBe(error);
    expect(io.err.text.trim()).toBe('hint: IOS3 is already DEFAULT on A/ios/prod; with --idempotent, a run that finds it so says so and exits 0 without sending');
  });

  it('no hint in json, nor when the read that would tell fails (the service\'s error is reported)', async () => {
    for (const [format, failReads] of [['json', 0], ['table', 1]] as const) {
      const service = new FakeService();
      service.records = { IOS1: 'LIVE' };
      service.failReads = failReads;
      const error = apiError(400, 'already LIVE');
      service.script(DEPLOY('IOS1'), error);
      const io = bufferIO();
      const api = service.client();
      const kio: KindIO = { api, out: await Output.create(io, { format }), signal: new AbortController().signal, retry: stepBudget(api.policy), sentAt: 0, progress: () => undefined };
      await expect(versionDeploy.send!({ assetId: 'A', versionId: 'IOS1', platform: 'ios', body: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER } }, kio)).rejects.toBe(error);
      expect(io.err.text).toBe('');
    }
  });
});
