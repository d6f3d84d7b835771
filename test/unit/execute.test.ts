// The executor on its own (src/plan/execute.ts), against a fake client that
// answers from a small in-memory channel: every path a step can take (sent,
// rejected, refused from its prediction, a lost answer settled each way, a
// settling read that fails, a deployment's 500 waited out, a 409 retried, a
// batch with a partial failure, a step after a failed one skipped), and a
// plan written as JSON and read back sending the same requests.
import { describe, expect, it } from 'vitest';
import { ApiError, CancelledError, ConflictError, NetworkError, OutcomeUnknownError } from '../../src/errors.js';
import { AnswerLostError } from '../../src/http/errors.js';
import type { Clock } from '../../src/http/retry.js';
import { executePlan, resolveParams, settleWhenSeen } from '../../src/plan/execute.js';
import type { Kind } from '../../src/plan/kinds/index.js';
import { plan, ref, step, type Plan, type Step, type StepFailure } from '../../src/plan/plan.js';
import { steps } from '../../src/plan/steps.js';
import { PredictedRejection } from '../../src/plan/dryrun.js';
import type { ApiClient, RequestOptions } from '../../src/http/client.js';
import type { DeploymentState } from '../../src/rules/index.js';
import { ERROR_TYPE, FakeService, USER, context } from '../plan/fake.js';
import { tempDirs } from '../support/temp-dir.js';
// The executor loads saved.ts lazily (to hash a planned file): loaded here, at
// collection, its module-level schemas count as static for the mutation run
// (test/README.md), not as covered by whichever test first hashed a file.
import '../../src/plan/saved.js';

/** The test's temporary folders (the files uploaded), removed after the file. */
const temp = tempDirs();

const deployTo = (versionId: string, intent: DeploymentState = 'LIVE') =>
  steps.versionDeploy({ assetId: 'A', versionId, platform: 'ios', body: { envId: 'prod', intent, createdBy: USER, updatedBy: USER } });
const ASSET = { assetId: 'A', assetName: 'A', assetType: '1001', secured: true, active: true, createdBy: USER, updatedBy: USER, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
const DEPLOY = (versionId: string) => `POST /api/v2/d/va/A/versions/${versionId}/deploy`;
const lost = () => new AnswerLostError('POST /va/A/versions/IOS1/deploy', 'connection reset');
const serverError = (status: number) => new ApiError(status, { type: ERROR_TYPE, title: `status ${status}`, status, detail: `status ${status}` });

/** The deploy is applied but its answer lost, and every read after it fails (with advice to try again, which must not be passed on). */
function appliedThenReadsFail(service: FakeService): void {
  service.script(DEPLOY('IOS1'), (request: RequestOptions) => {
    service.apply(request);
    service.failReads = 10;
    service.readError = new NetworkError('could not reach the service (connection refused); try again\nin a moment');
    throw lost();
  });
}

async function run(service: FakeService, built: Plan, overrides: Parameters<typeof context>[1] = {}) {
  const { ctx, io } = context(service, overrides);
  let done = false;
  const wrapped: Plan = { ...built, done: async (results) => ((done = true), built.done(results)) };
  const error = await executePlan(wrapped, ctx).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  return { error, done, stderr: io.err.text, stdout: io.out.text };
}

describe('executor: one step', () => {
  it('sent: the answer reaches done, typed', async () => {
    const service = new FakeService();
    const deploy = deployTo('IOS1');
    let state: string | undefined;
    const r = await run(service, plan([deploy], (results) => void (state = results.of(deploy)?.assetVersion.state)));
    expect(r.error).toBeUndefined();
    expect(state).toBe('LIVE');
    expect(service.sent).toHaveLength(1);
  });

  it('rejected by the service: the ApiError, done not called', async () => {
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), serverError(400));
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeInstanceOf(ApiError);
    expect(r.done).toBe(false);
  });

  it('rejected with finishWhenStopped: done gets the failure and the steps not sent, then the ApiError is thrown', async () => {
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), serverError(403));
    const first = deployTo('IOS1');
    const second = deployTo('IOS2');
    let seen: { failed?: number; sent: boolean[] } | undefined;
    const r = await run(service, plan([first, second], (results) => void (seen = { failed: results.failureOf(first)?.error.exitCode, sent: [results.has(first), results.has(second)] }), { finishWhenStopped: true }));
    expect(r.error).toBeInstanceOf(ApiError);
    expect((r.error as ApiError).status).toBe(403);
    expect(r.done).toBe(true);
    expect(seen).toEqual({ failed: 3, sent: [false, false] });
    expect(service.sent).toHaveLength(1);
  });

  it('a done that throws its own error after a stop: that error, not the step\'s', async () => {
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), serverError(403));
    const own = new ConflictError('own');
    const r = await run(service, plan([deployTo('IOS1')], () => {
      throw own;
    }, { finishWhenStopped: true }));
    expect(r.error).toBe(own);
  });

  it('a predicted rejection with refuse: nothing sent, nothing asked, the hint and the exit code of the real answer', async () => {
    const service = new FakeService();
    let asked = false;
    const step = deployTo('IOS9');
    step.refuse = { hint: 'deploy another', byKind: { 'not-found': 'IOS9 does not exist' } };
    const r = await run(service, plan([step], () => undefined, { confirm: { message: 'sure?', action: 'deploy' } }), { confirm: async () => void (asked = true) });
    expect(r.error).toBeInstanceOf(PredictedRejection);
    expect(r.error!.message).toMatch(/^nothing was sent: the service would answer 404: .*; IOS9 does not exist$/);
    expect((r.error as PredictedRejection).exitCode).toBe(4);
    expect(service.sent).toHaveLength(0);
    expect(asked).toBe(false);
  });

  it('a refusal after an earlier step was sent says so', async () => {
    const service = new FakeService();
    const first = deployTo('IOS1');
    const second = steps.versionDeploy({ assetId: 'A', versionId: ref(first, 'message'), platform: 'ios', body: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER } }, { refuse: { hint: 'no' } });
    service.script(DEPLOY('IOS1'), { assetVersion: { versionId: 'IOS1', state: 'LIVE' }, message: 'IOS9' });
    const r = await run(service, plan([first, second], () => undefined));
    expect(r.error!.message).toMatch(/^stopped before the next request: the service would answer 404/);
    expect(service.sent).toHaveLength(1);
  });

  it('the confirmation is asked once the refusals are checked, before the first send', async () => {
    const service = new FakeService();
    const order: string[] = [];
    const r = await run(service, plan([deployTo('IOS1')], () => undefined, { confirm: { message: 'sure?', action: 'deploy' } }), {
      confirm: async () => void order.push(`asked after ${service.sent.length} sends`),
    });
    expect(r.error).toBeUndefined();
    expect(order).toEqual(['asked after 0 sends']);
  });
});

describe('executor: beforeSend', () => {
  it('awaited before each step with the answers so far; what it throws ends the run as thrown, the later step not sent, done not called', async () => {
    const service = new FakeService();
    const first = deployTo('IOS1');
    const second = deployTo('IOS2');
    const seen: Array<[string, boolean]> = [];
    const stop = new Error('the check failed');
    const r = await run(
      service,
      plan([first, second], () => undefined, {
        beforeSend: async (next, results) => {
          seen.push([next.id, results.has(first)]);
          if (next === second) throw stop;
        },
      }),
    );
    expect(r.error).toBe(stop);
    expect(r.done).toBe(false);
    expect(seen).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    expect(service.sent.map((q) => `${q.method} ${q.path}`)).toEqual([DEPLOY('IOS1')]);
  });
});

describe('executor: a lost answer is settled by a read', () => {
  it('applied: reported done, with how the read confirms it', async () => {
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), (request: RequestOptions) => {
      service.apply(request);
      throw lost();
    });
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeUndefined();
    expect(r.done).toBe(true);
    expect(r.stderr).toMatch(/the answer was lost, but a read confirms the write was applied \(the channel A\/ios\/prod shows IOS1 LIVE\)/);
    expect(service.sent).toHaveLength(1);
  });

  it('not seen: the channel is read again within --timeout, then unknown (exit 6), never "safe to retry", not sent again', async () => {
    const service = new FakeService({ timeoutMs: 5000, retries: 2 });
    service.script(DEPLOY('IOS1'), lost());
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeInstanceOf(OutcomeUnknownError);
    expect((r.error as OutcomeUnknownError).exitCode).toBe(6);
    expect((r.error as OutcomeUnknownError).mayHaveApplied).toBe(true);
    expect((r.error as OutcomeUnknownError).toBody()).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
    expect(r.error!.message).toBe(
      'the answer to POST /va/A/versions/IOS1/deploy was lost (connection reset); ' +
        'the service may still be applying it, and no read shows it done (the channel A/ios/prod shows IOS1 not deployed; read 6 times within --timeout): ' +
        'the write may have been applied: check with `ahs asset status A --platform ios --env prod` before running it again',
    );
    expect(r.error!.message).not.toMatch(/safe to retry|not applied/);
    // Backoff of 300 ms doubling (jitter 0.5: 3/4 of it), the last read at the 5 s of --timeout.
    expect(service.waits).toEqual([225, 450, 900, 1800, 1625]);
    expect(service.reads.filter((path) => path.endsWith('/IOS1/asset-urls'))).toHaveLength(6);
    expect(service.sent).toHaveLength(1);
    expect(r.done).toBe(false);
  });

  it('a read shows it once the deployment finishes: applied, reported done, not sent again', async () => {
    const service = new FakeService({ timeoutMs: 5000 });
    service.script(DEPLOY('IOS1'), lost());
    // The service finishes the deployment during the second wait.
    service.onSleep = () => {
      if (service.waits.length === 1) service.records.IOS1 = 'LIVE';
    };
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeUndefined();
    expect(r.done).toBe(true);
    expect(service.waits).toEqual([225, 450]);
    expect(r.stderr).toMatch(/the answer was lost, but a read confirms the write was applied \(the channel A\/ios\/prod shows IOS1 LIVE\)/);
    expect(service.sent).toHaveLength(1);
  });

  it('with --retries 0 and --timeout spent, the channel is still read once: unknown', async () => {
    const service = new FakeService({ timeoutMs: 0, retries: 0 });
    service.script(DEPLOY('IOS1'), lost());
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeInstanceOf(OutcomeUnknownError);
    expect(r.error!.message).toContain('(the channel A/ios/prod shows IOS1 not deployed; read 1 time within --timeout)');
    expect(service.waits).toEqual([]);
  });

  it('a promotion not seen: unknown, naming the command that checks', async () => {
    const service = new FakeService({ timeoutMs: 1000, retries: 0 });
    service.records = { IOS1: 'DEFAULT', IOS2: 'LIVE' };
    service.script(DEPLOY('IOS2'), lost());
    const promote = steps.versionPromote({ assetId: 'A', platform: 'ios', envId: 'prod', versionId: 'IOS2', user: USER, channel: { records: { IOS1: 'DEFAULT', IOS2: 'LIVE' }, formerDefaults: [], midDeployment: false } });
    const r = await run(service, plan([promote], () => undefined));
    expect(r.error).toBeInstanceOf(OutcomeUnknownError);
    expect(r.error!.message).toMatch(/no read shows it done \(the channel A\/ios\/prod shows IOS2 LIVE; read \d+ times within --timeout\): the write may have been applied: check with `ahs asset status A --platform ios --env prod` before running it again$/);
    expect(service.sent).toHaveLength(1);
  });

  it('--timeout spent, --retries 2: still read 3 times, the backoff between them (not zero waits)', async () => {
    const service = new FakeService({ timeoutMs: 0, retries: 2 });
    service.script(DEPLOY('IOS1'), lost());
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeInstanceOf(OutcomeUnknownError);
    expect(service.waits).toEqual([225, 450]);
    expect(r.error!.message).toContain('read 3 times within --timeout');
  });

  it('not seen once --timeout is spent: the unknown outcome names the command that checks', async () => {
    const service = new FakeService({ timeoutMs: 0, retries: 0 });
    const { ctx } = context(service);
    const api = await ctx.api();
    const io = { api, out: await ctx.output(), signal: ctx.signal, retry: { next: async () => false }, sentAt: 0, progress: () => undefined };
    const kind = { describe: () => 'do the thing', check: () => 'ahs thing get', request: () => ({ method: 'POST' as const, path: '/x' }), predict: async () => ({ current: null, decision: { ok: true } }), settle: async () => ({ applied: false as const, how: 'not seen' }) };
    const settled = await settleWhenSeen(kind as unknown as Kind, {}, io, lost(), api.policy);
    expect(settled).toEqual({ applied: 'unknown', check: 'ahs thing get', why: 'the service may still be applying it, and no read shows it done (not seen; read 1 time within --timeout)' });
  });

  it('Ctrl-C while waiting to read again: interrupted, not unknown', async () => {
    const controller = new AbortController();
    const service = new FakeService({ signal: controller.signal });
    service.script(DEPLOY('IOS1'), lost());
    service.onSleep = () => controller.abort();
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeInstanceOf(CancelledError);
  });

  it('a lost upload the versions do not show: read again within --timeout, then unknown naming `ahs version list`, not sent again', async () => {
    const { writeFile } = await import('node:fs/promises');
    const dir = await temp('ahs-exec-');
    await writeFile(`${dir}/a.zip`, 'x');
    const service = new FakeService({ timeoutMs: 1000, retries: 1 });
    service.versionList = [{ versionId: 'IOS3', version: 3, versionName: '0.9', targetPlatform: 'ios', createdAt: '2026-01-01T00:00:00Z' }];
    service.script('POST /api/v2/d/va/A/versions', lost());
    const upload = steps.versionUpload({ assetId: 'A', platform: 'ios', fields: { versionName: '1.0', createdBy: USER }, file: { path: `${dir}/a.zip`, name: 'a.zip', size: 1 } });
    const r = await run(service, plan([upload], () => undefined));
    expect(r.error).toBeInstanceOf(OutcomeUnknownError);
    expect((r.error as NetworkError).exitCode).toBe(6);
    expect(r.error!.message).toMatch(
      /; the service may still be applying it, and no read shows it done \(the asset's versions show no ios version named 1\.0 created since the upload started; read \d+ times within --timeout\): the write may have been applied: check with `ahs version list A --all` before running it again$/,
    );
    expect(r.error!.message).not.toMatch(/safe to retry/);
    expect(service.sent).toHaveLength(1);
    expect(r.done).toBe(false);
  });

  it('a lost upload committed meanwhile: a later read shows one version of that name, applied', async () => {
    const { writeFile } = await import('node:fs/promises');
    const dir = await temp('ahs-exec-');
    await writeFile(`${dir}/a.zip`, 'x');
    const service = new FakeService();
    service.script('POST /api/v2/d/va/A/versions', lost());
    service.onSleep = () => {
      service.versionList = [{ versionId: 'IOS4', version: 4, versionName: '1.0', targetPlatform: 'ios', createdAt: '2026-01-01T00:00:00Z' }];
    };
    const upload = steps.versionUpload({ assetId: 'A', platform: 'ios', fields: { versionName: '1.0', createdBy: USER }, file: { path: `${dir}/a.zip`, name: 'a.zip', size: 1 } });
    let created: string | undefined;
    const r = await run(service, plan([upload], (results) => void (created = results.of(upload)?.versionId)));
    expect(r.error).toBeUndefined();
    expect(created).toBe('IOS4');
    expect(service.waits).toHaveLength(1);
  });

  it('a version delete the read does not show done: unknown (never "not applied" nor "safe to retry"), read again within --timeout', async () => {
    const service = new FakeService({ timeoutMs: 1000, retries: 1 });
    service.script('DELETE /api/v2/d/va/A/versions/IOS1', lost());
    const remove = steps.versionDelete({ assetId: 'A', versionId: 'IOS1', records: [] });
    const r = await run(service, plan([remove], () => undefined));
    expect(r.error).toBeInstanceOf(OutcomeUnknownError);
    expect(r.error!.message).toBe(
      'the answer to POST /va/A/versions/IOS1/deploy was lost (connection reset); the service may still be applying it, and no read shows it done (version IOS1 still exists; read 4 times within --timeout): ' +
        'the write may have been applied: check with `ahs version get A IOS1` before running it again',
    );
    expect(service.waits).toEqual([225, 450, 325]);
    expect(service.sent).toHaveLength(1);
    expect(service.versions.has('IOS1')).toBe(true);
  });

  it('cannot tell: exit 6 naming the command that checks', async () => {
    const service = new FakeService();
    const upload = steps.versionUpload({ assetId: 'A', platform: 'ios', fields: { versionName: '1.0', createdBy: USER }, file: { path: '/nonexistent', name: 'a.zip', size: 1 } });
    // Two versions of that name made since: the read cannot say which is this upload's.
    const made = { versionName: '1.0', targetPlatform: 'ios', createdAt: '2026-01-01T00:00:00Z' };
    const { ctx } = context(service);
    const api = await ctx.api();
    (api as unknown as { json: (o: RequestOptions) => Promise<unknown> }).json = async (o) => {
      if (o.method === 'POST') throw lost();
      return { totalResults: 2, pageNumber: 1, pageSize: 1000, results: [{ ...made, versionId: 'IOS4', version: 4 }, { ...made, versionId: 'IOS5', version: 5 }] };
    };
    (api as unknown as { get: (p: string, q: unknown) => Promise<unknown> }).get = (path, query) => api.json({ method: 'GET', path, query } as RequestOptions);
    // The file is never read: the send is replaced by the scripted loss before prepareMultipart... so give the kind a real file.
    const { writeFile } = await import('node:fs/promises');
    const dir = await temp('ahs-exec-');
    await writeFile(`${dir}/a.zip`, 'x');
    upload.params.file = { path: `${dir}/a.zip`, name: 'a.zip', size: 1 };
    const error = await executePlan(plan([upload], () => undefined), ctx).catch((e: Error) => e);
    expect(error).toBeInstanceOf(NetworkError);
    // One sentence: the write may have been applied, why no read tells, and the command that checks; said once.
    expect((error as Error).message).toMatch(/(; .*|, and no read tells): the write may have been applied: check with `ahs version list A --all` before running it again$/);
    expect((error as Error).message.match(/may have been applied/g)).toHaveLength(1);
    expect((error as Error).message.match(/before running it again/g)).toHaveLength(1);
  });

  it('the settling read times out: its advice to try again is not passed on', async () => {
    const service = new FakeService();
    appliedThenReadsFail(service);
    const { ctx } = context(service);
    const api = await ctx.api();
    const read = api.json.bind(api);
    (api as unknown as { json: (o: RequestOptions) => Promise<unknown> }).json = async (o) => {
      if (o.method === 'GET' && service.failReads > 0) throw new NetworkError('no answer from http://h to GET /va/A/asset-urls within 2 s (--timeout, retries included); try again, or allow more time with --timeout SECONDS');
      return read(o);
    };
    (api as unknown as { get: (p: string, q: unknown) => Promise<unknown> }).get = (path, query) => api.json({ method: 'GET', path, query } as RequestOptions);
    const error = await executePlan(plan([deployTo('IOS1')], () => undefined), ctx).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/the read that would tell failed \(no answer from http:\/\/h to GET \/va\/A\/asset-urls within 2 s \(--timeout, retries included\)\): check with/);
    expect((error as Error).message).not.toMatch(/try again/);
  });

  it('the settling read fails too: unknown, never "not applied" nor "try again"', async () => {
    const service = new FakeService();
    appliedThenReadsFail(service);
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeInstanceOf(NetworkError);
    expect(r.error!.message).toMatch(/the write may have been applied, and the read that would tell failed \(could not reach the service \(connection refused\)\): check with `ahs asset status A --platform ios --env prod` before running it again$/);
    // Said once, not once by the lost answer and again by the settling.
    expect(r.error!.message.match(/may have been applied/g)).toHaveLength(1);
    expect(r.error!.message.match(/before running it again/g)).toHaveLength(1);
    // Its own type (cli.md), exit 6.
    expect((r.error as NetworkError).toBody()).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
    expect((r.error as NetworkError).exitCode).toBe(6);
    expect(r.error!.message).not.toMatch(/try again|safe to retry/);
  });
});

describe('executor: every kind of write settles strictly, by table', () => {
  // Each kind: its request, the service as it was before the write, the change a read would see, and the command that checks.
  const item = { assetItemId: 'a', assetItemName: 'a.png', parentCollections: ['C'] };
  const rows: Array<{ kind: string; step: () => Step; key: string; before?: (s: FakeService) => void; apply?: (s: FakeService) => void; check: string }> = [
    { kind: 'asset.create', step: () => steps.assetCreate({ body: { assetId: 'A', assetName: 'A', assetType: '1001', createdBy: USER } as never }), key: 'POST /api/v2/d/va', before: (s) => (s.asset = undefined), apply: (s) => (s.asset = { ...ASSET }), check: 'ahs asset get A' },
    { kind: 'asset.update', step: () => steps.assetUpdate({ assetId: 'A', body: { assetName: 'B', updatedBy: USER } as never }), key: 'PUT /api/v2/d/va/A', apply: (s) => (s.asset = { ...ASSET, assetName: 'B' }), check: 'ahs asset get A' },
    { kind: 'asset.delete', step: () => steps.assetDelete({ assetId: 'A', body: { deletedBy: USER } }), key: 'DELETE /api/v2/d/va/A', apply: (s) => (s.asset = undefined), check: 'ahs asset get A' },
    {
      kind: 'asset.undeploy',
      step: () => steps.assetUndeploy({ assetId: 'A', body: { envId: 'prod', targetPlatforms: ['ios'] }, records: [] }),
      key: 'POST /api/v2/d/va/A/undeploy',
      before: (s) => (s.records = { IOS1: 'LIVE' }),
      apply: (s) => (s.records = {}),
      check: 'ahs asset status A --env prod',
    },
    { kind: 'version.delete', step: () => steps.versionDelete({ assetId: 'A', versionId: 'IOS1', records: [] }), key: 'DELETE /api/v2/d/va/A/versions/IOS1', apply: (s) => s.versions.delete('IOS1'), check: 'ahs version get A IOS1' },
    { kind: 'collection.create', step: () => steps.collectionCreate({ collectionId: 'C', body: { createdBy: USER } as never }), key: 'POST /api/v2/d/vc', before: (s) => (s.collection = undefined), apply: (s) => (s.collection = { collectionId: 'C', createdBy: USER, createdAt: '2026-01-01T00:00:00Z' }), check: 'ahs collection get C' },
    { kind: 'collection.update', step: () => steps.collectionUpdate({ collectionId: 'C', body: { maxAssets: 5 } }), key: 'PATCH /api/v2/d/vc/C', check: 'ahs collection get C' },
    { kind: 'collection.delete', step: () => steps.collectionDelete({ collectionId: 'C', user: USER }), key: 'DELETE /api/v2/d/vc/C', apply: (s) => (s.collection = { ...s.collection, deleted: true }), check: 'ahs collection get C' },
    {
      kind: 'collection.restore',
      step: () => steps.collectionRestore({ collectionId: 'C', user: USER }),
      key: 'POST /api/v2/d/vc/C/restore',
      before: (s) => (s.collection = { ...s.collection, deleted: true }),
      apply: (s) => (s.collection = { ...s.collection, deleted: false }),
      check: 'ahs collection get C',
    },
    { kind: 'collection.purge', step: () => steps.collectionPurge({ collectionId: 'C', user: USER }), key: 'POST /api/v2/d/vc/C/purge', apply: (s) => (s.collection = undefined), check: 'ahs collection get C' },
    {
      kind: 'collection.undeploy',
      step: () => steps.collectionUndeploy({ collectionId: 'C', user: USER, envId: 'prod' }),
      key: 'DELETE /api/v2/d/vc/C/deployments/prod',
      before: (s) => (s.deployments = { prod: 'LIVE' }),
      apply: (s) => (s.deployments = {}),
      check: 'ahs collection status C',
    },
    {
      kind: 'collection.deploy',
      step: () => steps.collectionDeploy({ collectionId: 'C', user: USER, envId: 'prod', state: 'LIVE' }),
      key: 'POST /api/v2/d/vc/C/deployments',
      apply: (s) => (s.deployments = { prod: 'LIVE' }),
      check: 'ahs collection status C',
    },
    { kind: 'collection.reconcile', step: () => steps.collectionReconcile({ collectionId: 'C', user: USER }), key: 'POST /api/v2/d/vc/C/deployments', check: 'ahs collection status C' },
    { kind: 'item.remove', step: () => steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER }), key: 'DELETE /api/v2/d/vc/C/items/a', before: (s) => (s.items = [item]), apply: (s) => (s.items = []), check: 'ahs item get C a' },
  ];
  for (const row of rows) {
    it(`${row.kind}, a lost answer the reads never show done: unknown (exit 6) naming \`${row.check}\`, not sent again, the service unchanged`, async () => {
      const service = new FakeService({ timeoutMs: 1000, retries: 1 });
      row.before?.(service);
      const before = JSON.stringify([service.asset, service.collection, service.records, [...service.versions], service.items, service.deployments]);
      service.script(row.key, lost());
      const r = await run(service, plan([row.step()], () => undefined));
      expect(r.error).toBeInstanceOf(OutcomeUnknownError);
      expect((r.error as OutcomeUnknownError).exitCode).toBe(6);
      expect((r.error as OutcomeUnknownError).outcome).toBe('unknown');
      expect((r.error as OutcomeUnknownError).toBody().type).toBe('urn:ahs:unknown-outcome');
      expect(r.error!.message).toMatch(new RegExp(`^the answer to POST /va/A/versions/IOS1/deploy was lost \\(connection reset\\)[;,] .*: the write may have been applied: check with \`${row.check.replace(/ /g, ' ')}\` before running it again$`));
      expect(r.error!.message).not.toMatch(/safe to retry|not applied/);
      // Re-read within --timeout when a read can tell; read not at all when none can.
      expect(service.waits).toEqual(row.apply ? [225, 450, 325] : []);
      if (!row.apply) expect(service.reads).toEqual([]);
      expect(service.sent).toHaveLength(1);
      expect(r.done).toBe(false);
      expect(JSON.stringify([service.asset, service.collection, service.records, [...service.versions], service.items, service.deployments])).toBe(before);
    });
    if (!row.apply) continue;
    it(`${row.kind}, a lost answer a later read shows done: applied, reported done, not sent again`, async () => {
      const service = new FakeService({ timeoutMs: 1000, retries: 1 });
      row.before?.(service);
      service.script(row.key, lost());
      // The service finishes the write during the first wait.
      service.onSleep = () => row.apply!(service);
      const r = await run(service, plan([row.step()], () => undefined));
      expect(r.error).toBeUndefined();
      expect(r.done).toBe(true);
      expect(service.waits).toEqual([225]);
      expect(r.stderr).toMatch(/the answer was lost, but a read confirms the write was applied \(/);
      expect(service.sent).toHaveLength(1);
    });
  }
});

describe('executor: waiting out a deployment, and contention', () => {
  it('500 then the channel shows it: done after one more send, the waits from the policy', async () => {
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), serverError(500));
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeUndefined();
    expect(service.sent).toHaveLength(2);
    expect(service.waits.length).toBe(1);
  });

  it('500 that keeps standing: retried until --timeout, then exit 5 (busy), not exit 1', async () => {
    const service = new FakeService();
    let now = 0;
    const api = service.client();
    Object.assign((api.policy as unknown as { clock: Clock }).clock, { now: () => now, sleep: async (ms: number) => void (now += ms) });
    service.script(DEPLOY('IOS1'), ...Array.from({ length: 200 }, () => serverError(500)));
    const { ctx } = context(service);
    (ctx as { api: () => Promise<ApiClient> }).api = async () => api;
    const error = await executePlan(plan([deployTo('IOS1')], () => undefined), ctx).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).exitCode).toBe(5);
    // More than the --retries minimum: the time budget (30 s) is what ends it.
    expect(service.sent.length).toBeGreaterThan(3);
    expect(now).toBeLessThanOrEqual(30_000);
    expect(now).toBeGreaterThan(15_000);
  });

  it('a promotion answered 409: the channel read again, sent again with the new Default', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS2: 'LIVE', IOS3: 'LIVE' };
    const promote = steps.versionPromote({ assetId: 'A', platform: 'ios', envId: 'prod', versionId: 'IOS3', user: USER, channel: { records: { IOS1: 'DEFAULT', IOS3: 'LIVE' }, formerDefaults: [], midDeployment: false } });
    service.script(DEPLOY('IOS3'), () => {
      service.records = { IOS1: 'LIVE', IOS2: 'DEFAULT', IOS3: 'LIVE' };
      throw new ApiError(409, { type: ERROR_TYPE, title: 'moved', status: 409, detail: 'moved' });
    });
    let previous: string | null | undefined;
    const r = await run(service, plan([promote], (results) => void (previous = results.of(promote)?.previousDefault)));
    expect(r.error).toBeUndefined();
    expect(service.sent.map((s) => (s.body as { currentVersionId?: string }).currentVersionId)).toEqual(['IOS1', 'IOS2']);
    expect(previous).toBe('IOS2');
  });

  it('a 409 that keeps standing: 5 sends, then exit 5', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS3: 'LIVE' };
    const promote = steps.versionPromote({ assetId: 'A', platform: 'ios', envId: 'prod', versionId: 'IOS3', user: USER, channel: { records: { IOS1: 'DEFAULT', IOS3: 'LIVE' }, formerDefaults: [], midDeployment: false } });
    service.script(DEPLOY('IOS3'), ...Array.from({ length: 10 }, () => new ApiError(409, { type: ERROR_TYPE, title: 'moved', status: 409, detail: 'moved' })));
    const r = await run(service, plan([promote], () => undefined));
    expect((r.error as ApiError).exitCode).toBe(5);
    expect(service.sent).toHaveLength(5);
  });

  it('--expect-current that does not hold: exit 5, nothing sent', async () => {
    const service = new FakeService();
    const promote = steps.versionPromote({ assetId: 'A', platform: 'ios', envId: 'prod', versionId: 'IOS3', user: USER, expected: 'IOS2', channel: { records: { IOS1: 'DEFAULT', IOS3: 'LIVE' }, formerDefaults: [], midDeployment: false } });
    const r = await run(service, plan([promote], () => undefined));
    expect(r.error).toBeInstanceOf(ConflictError);
    expect(service.sent).toHaveLength(0);
  });
});

describe('executor: batches', () => {
  const remove = (itemId: string, extra: Partial<Step> = {}) =>
    steps.itemRemove({ collectionId: 'C', itemId, user: USER }, { batch: { group: 'items', concurrency: 2 }, ...extra } as never);
  const REMOVE = (itemId: string) => `DELETE /api/v2/d/vc/C/items/${itemId}`;

  it('a failure is that step\'s outcome: the others still run; a step after it is skipped', async () => {
    const service = new FakeService();
    const a = remove('a');
    const b = remove('b');
    const c = remove('c');
    const afterB = remove('d', { after: [b.id] });
    service.script(REMOVE('b'), serverError(400));
    const outcomes: string[] = [];
    const r = await run(
      service,
      plan([a, b, c, afterB], (results) => {
        for (const step of [a, b, c, afterB]) {
          const failure = results.failureOf(step);
          outcomes.push(results.has(step) ? 'done' : failure?.skipped ? 'skipped' : failure ? `failed ${failure.error.exitCode}` : 'none');
        }
      }),
    );
    expect(r.error).toBeUndefined();
    expect(outcomes).toEqual(['done', 'failed 1', 'done', 'skipped']);
    expect(service.sent.map((s) => s.path.split('/').pop()).sort()).toEqual(['a', 'b', 'c']);
  });

  it('a lost answer in a batch is settled like any other step (the item is gone: applied)', async () => {
    const service = new FakeService();
    const a = remove('a');
    service.script(REMOVE('a'), new AnswerLostError('DELETE /vc/C/items/a', 'connection reset'));
    let answer: unknown;
    const r = await run(service, plan([a], (results) => void (answer = results.of(a))));
    expect(r.error).toBeUndefined();
    expect(answer).toEqual({ message: 'Asset Item removed successfully' });
  });
});

describe('executor: dry run', () => {
  it('predicts each step over the one before (a ref to a predicted answer) and sends nothing', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'DEFAULT', IOS2: 'LIVE' };
    const deploy = deployTo('IOS3');
    const promote = steps.versionPromote({ assetId: 'A', platform: 'ios', envId: 'prod', versionId: 'IOS3', user: USER, afterLive: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER }, channel: { records: { IOS1: 'DEFAULT', IOS2: 'LIVE' }, formerDefaults: [], midDeployment: false } });
    const r = await run(service, plan([deploy, promote], () => undefined), { dryRun: true });
    expect(r.error).toBeUndefined();
    expect(service.sent).toHaveLength(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.before[0].predicted).toMatchObject({ status: 201, state: 'LIVE' });
    expect(doc.predicted).toMatchObject({ status: 201, state: 'DEFAULT', effects: [expect.objectContaining({ kind: 'demote', versionId: 'IOS1' })] });
    expect(doc.request.body).toMatchObject({ intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' });
  });
});

describe('a plan is data', () => {
  it('written with JSON.stringify and read back, it runs and sends the same requests', async () => {
    const build = () => {
      const first = deployTo('IOS1');
      const promote = steps.versionPromote({ assetId: 'A', platform: 'ios', envId: 'prod', versionId: ref(first, 'message'), user: USER, afterLive: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER }, channel: { records: {}, formerDefaults: [], midDeployment: false } });
      return [first, promote];
    };
    const inMemory = new FakeService();
    inMemory.script(DEPLOY('IOS1'), { assetVersion: { versionId: 'IOS1', state: 'LIVE' }, message: 'IOS1' });
    expect((await run(inMemory, plan(build(), () => undefined))).error).toBeUndefined();

    const readBack = new FakeService();
    readBack.script(DEPLOY('IOS1'), { assetVersion: { versionId: 'IOS1', state: 'LIVE' }, message: 'IOS1' });
    const saved = JSON.parse(JSON.stringify(build())) as Step[];
    expect((await run(readBack, plan(saved, () => undefined))).error).toBeUndefined();
    expect(readBack.sent).toEqual(inMemory.sent);
    expect(readBack.sent.map((s) => `${s.method} ${s.path}`)).toEqual([DEPLOY('IOS1'), DEPLOY('IOS1')]);
  });

  it('a ref is resolved from the answers; one to a step with no answer is an error', () => {
    const answers = new Map<string, unknown>([['s1', { versionId: 'IOS7' }]]);
    expect(resolveParams({ a: { $ref: 's1', field: 'versionId' }, b: [{ $ref: 's1', field: 'versionId' }], c: 1 }, answers)).toEqual({ a: 'IOS7', b: ['IOS7'], c: 1 });
    expect(() => resolveParams({ a: { $ref: 's2', field: 'x' } }, answers)).toThrow(/refers to s2, which has no answer/);
  });
});

// --- every path of a send, by table ---------------------------------------------

const BUSY = serverError(500);

describe('executor: a 500 of a deployment is waited out within the one retry budget', () => {
  const rows: Array<{ name: string; retries: number; timeoutMs: number; sendMs?: number; sends: number; waits: number[] }> = [
    // The backoff is 300 ms x 2^(n-1), equal jitter (random 0.5: 3/4 of it), at most half of what is left.
    { name: 'no retries and no time: one send', retries: 0, timeoutMs: 0, sends: 1, waits: [] },
    { name: '--retries 3 and no time: 1 + 3 sends, the plain backoff between them', retries: 3, timeoutMs: 0, sends: 4, waits: [225, 450, 900] },
    { name: '--retries 0 and 4 s (sends of 1 s): until the deadline, each wait at most half of what is left', retries: 0, timeoutMs: 4000, sendMs: 1000, sends: 4, waits: [225, 450, 162.5] },
    { name: '--retries 1 and 3 s (sends of 1 s)', retries: 1, timeoutMs: 3000, sendMs: 1000, sends: 3, waits: [225, 387.5] },
  ];
  for (const row of rows) {
    it(`${row.name}: then exit 5 (busy), a "retrying" line per wait`, async () => {
      const service = new FakeService({ retries: row.retries, timeoutMs: row.timeoutMs, sendMs: row.sendMs });
      service.script(DEPLOY('IOS1'), ...Array.from({ length: 50 }, () => BUSY));
      const r = await run(service, plan([deployTo('IOS1')], () => undefined));
      expect(r.error).toBeInstanceOf(ApiError);
      expect((r.error as ApiError).exitCode).toBe(5);
      expect((r.error as ApiError).status).toBe(500);
      expect(service.sent).toHaveLength(row.sends);
      expect(service.waits).toEqual(row.waits);
      expect(r.stderr.match(/the service answered 500 \(the channel may be mid-deployment\) and the channel A\/ios\/prod shows IOS1 not deployed; retrying/g) ?? []).toHaveLength(row.sends);
      expect(r.done).toBe(false);
    });
  }

  it('a 500 the read shows applied: done after that one send, saying so', async () => {
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), (request: RequestOptions) => {
      service.apply(request);
      throw BUSY;
    });
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeUndefined();
    expect(service.sent).toHaveLength(1);
    expect(service.waits).toEqual([]);
    expect(r.stderr).toContain('the service answered 500, but a read confirms the write was applied (the channel A/ios/prod shows IOS1 LIVE)');
  });

  it('Ctrl-C between the 500 and the wait (the budget then refuses): interrupted (exit 130), not busy (5)', async () => {
    const controller = new AbortController();
    const service = new FakeService({ signal: controller.signal });
    service.script(DEPLOY('IOS1'), BUSY, BUSY);
    // The settling read runs, then Ctrl-C: the retry budget sees the abort and allows no more.
    service.onRead = () => controller.abort();
    const r = await run(service, plan([deployTo('IOS1')], () => undefined), { signal: controller.signal });
    expect((r.error as ApiError).exitCode).toBe(130);
    expect(service.sent).toHaveLength(1);
  });

  it('a 500 with Retry-After: the wait the service asked for; one longer than what is left of --timeout is not begun (exit 5)', async () => {
    const asking = (value: string) => Object.assign(serverError(500), { retryAfter: value });
    const service = new FakeService({ retries: 0, timeoutMs: 30_000 });
    service.script(DEPLOY('IOS1'), asking('2'), asking('4'));
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeUndefined();
    expect(service.sent).toHaveLength(3);
    expect(service.waits).toEqual([2000, 4000]);

    const late = new FakeService({ retries: 3, timeoutMs: 30_000 });
    late.script(DEPLOY('IOS1'), asking('3600'));
    const refused = await run(late, plan([deployTo('IOS1')], () => undefined));
    expect((refused.error as ApiError).exitCode).toBe(5);
    expect(late.sent).toHaveLength(1);
    expect(late.waits).toEqual([]);
  });

  it('Ctrl-C during the wait: interrupted (exit 130), not sent again', async () => {
    const controller = new AbortController();
    const service = new FakeService({ signal: controller.signal });
    service.script(DEPLOY('IOS1'), BUSY, BUSY);
    service.onSleep = () => controller.abort();
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    // One short read after the interrupt: the channel does not show it, and the service may still be deploying it.
    expect(r.error!.message).toBe('interrupted: the write may have been applied: check with `ahs asset status A --platform ios --env prod`');
    expect((r.error as CancelledError).exitCode).toBe(130);
    expect((r.error as CancelledError).outcome).toBe('unknown');
    expect((r.error as CancelledError).cause).toBe(controller.signal.reason);
    expect(service.sent).toHaveLength(1);
    expect(service.waits).toEqual([]);
    expect([service.detachedClients, service.destroyed]).toEqual([1, 1]);
  });
});

describe('executor: failures that no read settles are the answer itself', () => {
  const rows: Array<{ name: string; step: () => Step; key: string; error: () => Error; exit: number }> = [
    { name: 'a 503 of a deploy (not a deployment in progress)', step: () => deployTo('IOS1'), key: DEPLOY('IOS1'), error: () => serverError(503), exit: 1 },
    { name: 'a 500 of a kind that does not wait out deployments', step: () => steps.versionDelete({ assetId: 'A', versionId: 'IOS1', records: [] }), key: 'DELETE /api/v2/d/va/A/versions/IOS1', error: () => serverError(500), exit: 1 },
    { name: 'a network error before the request was sent', step: () => deployTo('IOS1'), key: DEPLOY('IOS1'), error: () => new NetworkError('could not reach the service (connection refused)'), exit: 6 },
    { name: 'a 400 of a collection create (it names no existing collection)', step: () => steps.collectionCreate({ collectionId: 'C', body: {} as never }), key: 'POST /api/v2/d/vc', error: () => serverError(400), exit: 1 },
  ];
  for (const row of rows) {
    it(`${row.name}: thrown as it came, exit ${row.exit}, nothing read, nothing sent again`, async () => {
      const service = new FakeService();
      const error = row.error();
      service.script(row.key, error);
      const r = await run(service, plan([row.step()], () => undefined));
      expect(r.error).toBe(error);
      expect((r.error as ApiError).exitCode).toBe(row.exit);
      expect(service.sent).toHaveLength(1);
      expect(service.reads).toEqual([]);
      expect(r.stderr).toBe('');
    });
  }

  it('a 400 naming a collection that a read finds missing: exit 4; one that exists: the 400, exit 1', async () => {
    for (const [exists, exit] of [[false, 4], [true, 1]] as const) {
      const service = new FakeService();
      if (!exists) service.collection = undefined;
      service.script('DELETE /api/v2/d/vc/C/items/a', serverError(400));
      const r = await run(service, plan([steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER })], () => undefined));
      expect(r.error).toBeInstanceOf(ApiError);
      expect([(r.error as ApiError).status, (r.error as ApiError).exitCode, (r.error as ApiError).notFound]).toEqual([400, exit, !exists]);
      expect(service.reads).toEqual(['/api/v2/d/vc/C']);
    }
  });

  it('a 400 already known as "not found" is not read again', async () => {
    const service = new FakeService();
    service.script('DELETE /api/v2/d/vc/C/items/a', serverError(400).asNotFound());
    const r = await run(service, plan([steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER })], () => undefined));
    expect((r.error as ApiError).exitCode).toBe(4);
    expect(service.reads).toEqual([]);
  });

  it('a settling read that fails: names the command that checks', async () => {
    const service = new FakeService();
    service.readError = new NetworkError('could not reach the service (connection refused): try again');
    service.script('DELETE /api/v2/d/vc/C/items/a', () => {
      service.failReads = 1;
      throw lost();
    });
    const r = await run(service, plan([steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER })], () => undefined));
    expect(r.error).toBeInstanceOf(NetworkError);
    expect(r.error!.message).toMatch(/the read that would tell failed \(could not reach the service \(connection refused\)\): check with `ahs item get C a` before running it again$/);
  });

  it('a settling read cut by Ctrl-C: interrupted, not "unknown"', async () => {
    const { CancelledError } = await import('../../src/errors.js');
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), () => {
      service.failReads = 0;
      throw lost();
    });
    const { ctx } = context(service);
    const api = await ctx.api();
    (api as unknown as { get: () => Promise<never> }).get = async () => {
      throw new CancelledError();
    };
    const error = await executePlan(plan([deployTo('IOS1')], () => undefined), ctx).catch((e: Error) => e);
    expect(error).toBeInstanceOf(CancelledError);
  });

  it('a planned file that cannot be read is never sent: exit 2 naming it', async () => {
    const service = new FakeService();
    const upload = steps.versionUpload({ assetId: 'A', platform: 'ios', fields: { versionName: '1.0', createdBy: USER }, file: { path: '/nonexistent/a.zip', name: 'a.zip', size: 1, sha256: 'a'.repeat(64) } });
    const r = await run(service, plan([upload], () => undefined));
    expect((r.error as ConflictError).exitCode).toBe(2);
    expect(r.error!.message).toBe('cannot read /nonexistent/a.zip: no such file');
    expect(service.sent).toEqual([]);
  });

  it('a step of a kind the executor does not know: an error naming it, nothing sent', async () => {
    const service = new FakeService();
    const r = await run(service, plan([{ id: 'x', kind: 'asset.explode' as never, params: {} }], () => undefined));
    expect(r.error!.message).toBe('unknown kind of step: asset.explode');
    expect(service.sent).toEqual([]);
  });
});

describe('executor: refusals from the prediction', () => {
  it('a refusal with no hint for its kind gives the plain hint; a planned prediction is used as it is (no read)', async () => {
    const service = new FakeService();
    const step = deployTo('IOS1');
    step.refuse = { hint: 'plan again', byKind: { conflict: 'not this one' } };
    step.prediction = { current: null, decision: { ok: false, status: 404, kind: 'not-found', resource: 'version', title: 'IOS1 is gone', message: 'IOS1 is gone' } as never };
    const r = await run(service, plan([step], () => undefined));
    expect(r.error!.message).toBe('nothing was sent: the service would answer 404: IOS1 is gone; plan again');
    expect((r.error as PredictedRejection).exitCode).toBe(4);
    expect(service.reads).toEqual([]);
    expect(service.sent).toEqual([]);
  });

  it('a step without refuse is sent even when its prediction says no (the service decides)', async () => {
    const service = new FakeService();
    const step = deployTo('IOS1');
    step.prediction = { current: null, decision: { ok: false, status: 404, kind: 'not-found', resource: 'version', title: 'IOS1 is gone' } as never };
    const r = await run(service, plan([step], () => undefined));
    expect(r.error).toBeUndefined();
    expect(service.sent).toHaveLength(1);
  });

  it('an allowed prediction with refuse: sent', async () => {
    const service = new FakeService();
    const step = deployTo('IOS1');
    step.refuse = { hint: 'no' };
    const r = await run(service, plan([step], () => undefined));
    expect(r.error).toBeUndefined();
    expect(service.sent).toHaveLength(1);
  });

  it('a refused removal from a collection that does not exist exits 4 (not found), like the real 400 would once read', async () => {
    const service = new FakeService();
    service.collection = undefined;
    const r = await run(service, plan([steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER }, { refuse: { hint: 'create it first' } })], () => undefined));
    expect(r.error).toBeInstanceOf(PredictedRejection);
    expect((r.error as PredictedRejection).exitCode).toBe(4);
    expect(r.error!.message).toMatch(/^nothing was sent: the service would answer 400: .*; create it first$/);
  });

  it('no confirmation is asked for a plan with no steps', async () => {
    const service = new FakeService();
    let asked = false;
    const r = await run(service, plan([], () => undefined, { confirm: { message: 'sure?', action: 'x' } }), { confirm: async () => void (asked = true) });
    expect(r.error).toBeUndefined();
    expect(asked).toBe(false);
    expect(r.done).toBe(true);
  });

  it('a no-op plan prints {changed: false} and sends nothing', async () => {
    const service = new FakeService();
    const { noop } = await import('../../src/plan/plan.js');
    const r = await run(service, noop('LIVE', 'IOS1 is LIVE already'));
    expect(JSON.parse(r.stdout)).toEqual({ changed: false, state: 'LIVE', message: 'IOS1 is LIVE already' });
    expect(service.sent).toEqual([]);
  });
});

describe('executor: order, answers and interrupts', () => {
  it('each answer is told to onAnswer as it comes, with the results so far', async () => {
    const service = new FakeService();
    const a = deployTo('IOS1');
    const b = deployTo('IOS2');
    const told: string[] = [];
    const r = await run(service, plan([a, b], () => undefined, { onAnswer: (step, results) => void told.push(`${step.id}:${results.has(a)}:${results.has(b)}:${results.of(step) !== undefined}`) }));
    expect(r.error).toBeUndefined();
    expect(told).toEqual([`${a.id}:true:false:true`, `${b.id}:true:true:true`]);
  });

  it('an interrupt during a step ends the run before the next one, with the reason when it is an AhsError', async () => {
    for (const reason of [undefined, new ConflictError('stopped by the lock')]) {
      const controller = new AbortController();
      const service = new FakeService();
      service.script(DEPLOY('IOS1'), (request: RequestOptions) => {
        controller.abort(reason);
        return service.apply(request);
      });
      const r = await run(service, plan([deployTo('IOS1'), deployTo('IOS2')], () => undefined), { signal: controller.signal });
      expect(service.sent.map((s) => s.path)).toEqual(['/api/v2/d/va/A/versions/IOS1/deploy']);
      expect(r.error!.message).toBe(reason ? 'stopped by the lock' : 'interrupted: done: deploy IOS1 LIVE on A/ios/prod; the rest was not sent');
      expect((r.error as ConflictError).outcome).toBe(reason ? 'not-applied' : 'applied');
      expect((r.error as ConflictError).exitCode).toBe(reason ? 5 : 130);
      expect(r.done).toBe(false);
    }
  });
});

describe('executor: a write cut by an interrupt is settled by one short read', () => {
  const upload = async () => {
    const { writeFile } = await import('node:fs/promises');
    const dir = await temp('ahs-exec-');
    await writeFile(`${dir}/a.zip`, 'x');
    return steps.versionUpload({ assetId: 'A', platform: 'ios', fields: { versionName: '1.0', createdBy: USER }, file: { path: `${dir}/a.zip`, name: 'a.zip', size: 1 } });
  };
  const cutBy = (controller: AbortController, reason: unknown, then?: () => void) => () => {
    controller.abort(reason);
    then?.();
    throw new CancelledError('interrupted', { cause: reason });
  };

  it('an upload the read shows created: "version IOS4 was created", outcome applied, the answer recorded; the read made once, its client destroyed', async () => {
    const controller = new AbortController();
    const reason = new Error('called off');
    const service = new FakeService({ timeoutMs: 5000 });
    const step = await upload();
    service.script('POST /api/v2/d/va/A/versions', cutBy(controller, reason, () => (service.versionList = [{ versionId: 'IOS4', version: 4, versionName: '1.0', targetPlatform: 'ios', createdAt: '2026-01-01T00:00:00Z' }])));
    const answered: string[] = [];
    const r = await run(service, plan([step], () => undefined, { onAnswer: (s, results) => void answered.push(results.of(step)!.versionId) }), { signal: controller.signal });
    expect(r.error).toBeInstanceOf(CancelledError);
    expect(r.error!.message).toBe('interrupted: version IOS4 of A was created');
    expect((r.error as CancelledError).outcome).toBe('applied');
    expect((r.error as CancelledError).cause).toBe(reason);
    expect((r.error as CancelledError).toBody()).toEqual({ type: 'urn:ahs:interrupted', title: 'interrupted: version IOS4 of A was created', status: null, detail: 'interrupted: version IOS4 of A was created' });
    expect(answered).toEqual(['IOS4']);
    expect(service.reads.filter((path) => path.endsWith('/va/A/versions'))).toHaveLength(1);
    expect(service.waits).toEqual([]);
    expect([service.detachedClients, service.destroyed]).toEqual([1, 1]);
    expect(r.done).toBe(false);
  });

  it('an upload the read does not show: it may have been applied, naming the command that checks; read once, not waited out', async () => {
    const controller = new AbortController();
    const service = new FakeService({ timeoutMs: 5000 });
    service.script('POST /api/v2/d/va/A/versions', cutBy(controller, undefined));
    const r = await run(service, plan([await upload()], () => undefined), { signal: controller.signal });
    expect(r.error!.message).toBe('interrupted: the write may have been applied: check with `ahs version list A --all`');
    expect((r.error as CancelledError).outcome).toBe('unknown');
    expect((r.error as CancelledError).exitCode).toBe(130);
    expect(service.reads.filter((path) => path.endsWith('/va/A/versions'))).toHaveLength(1);
    expect(service.waits).toEqual([]);
  });

  it('the short read fails: unknown, the same words', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), cutBy(controller, undefined, () => (service.failReads = 5)));
    const r = await run(service, plan([deployTo('IOS1')], () => undefined), { signal: controller.signal });
    expect(r.error!.message).toBe('interrupted: the write may have been applied: check with `ahs asset status A --platform ios --env prod`');
    expect((r.error as CancelledError).outcome).toBe('unknown');
  });

  it('a kind no read settles: unknown, without a read', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    service.script('POST /api/v2/d/vc/C/deployments', cutBy(controller, undefined));
    const r = await run(service, plan([steps.collectionReconcile({ collectionId: 'C', user: USER })], () => undefined), { signal: controller.signal });
    expect(r.error!.message).toBe('interrupted: the write may have been applied: check with `ahs collection status C`');
    expect(service.reads).toEqual([]);
  });

  it('an interrupt before the first send: "nothing was sent", outcome not-applied, no read', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const service = new FakeService();
    const r = await run(service, plan([deployTo('IOS1'), deployTo('IOS2')], () => undefined), { signal: controller.signal });
    expect(r.error!.message).toBe('interrupted: nothing was sent');
    expect((r.error as CancelledError).outcome).toBe('not-applied');
    expect((r.error as CancelledError).cause).toBe(reason);
    expect(service.sent).toEqual([]);
    expect(service.detachedClients).toBe(0);
  });

  it('more than three writes done: counted, not listed; those cut listed with what checks them', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    service.items = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ assetItemId: id }));
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    service.script('DELETE /api/v2/d/vc/C/items/e', cutBy(controller, undefined));
    const r = await run(service, plan(ids.map((id) => steps.itemRemove({ collectionId: 'C', itemId: id, user: USER }, { id, batch: { group: 'g', concurrency: 1 } })), () => undefined), { signal: controller.signal });
    expect(r.error!.message).toBe('interrupted: 4 of 6 writes were done; remove item e from C may have been applied: check with `ahs item get C e`; the rest was not sent');
    expect((r.error as CancelledError).outcome).toBe('unknown');
  });

  it('a step that failed on its own before the interrupt: its own outcome, not said again, not counted as "the rest"; three done are listed', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    service.items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ assetItemId: id }));
    service.script('DELETE /api/v2/d/vc/C/items/d', serverError(400));
    service.script('DELETE /api/v2/d/vc/C/items/e', cutBy(controller, undefined));
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const r = await run(service, plan(ids.map((id) => steps.itemRemove({ collectionId: 'C', itemId: id, user: USER }, { id, batch: { group: 'g', concurrency: 1 } })), () => undefined), { signal: controller.signal });
    expect(r.error!.message).toBe('interrupted: done: remove item a from C; done: remove item b from C; done: remove item c from C; remove item e from C may have been applied: check with `ahs item get C e`');
  });

  it('every step done or cut: nothing said of "the rest"', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    service.items = [{ assetItemId: 'b' }];
    service.script('DELETE /api/v2/d/vc/C/items/b', cutBy(controller, undefined));
    const r = await run(service, plan(['a', 'b'].map((id) => steps.itemRemove({ collectionId: 'C', itemId: id, user: USER }, { id, batch: { group: 'g', concurrency: 2 } })), () => undefined), { signal: controller.signal });
    expect(r.error!.message).toBe('interrupted: done: remove item a from C; remove item b from C may have been applied: check with `ahs item get C b`');
  });
});

describe('executor: batches, grouped and bounded', () => {
  const remove = (itemId: string, group: string, concurrency: number) => steps.itemRemove({ collectionId: 'C', itemId, user: USER }, { id: itemId, batch: { group, concurrency } });

  /** Sends and answers in the order they happened. */
  async function events(built: Step[]) {
    const service = new FakeService();
    const log: string[] = [];
    for (const step of built) {
      const id = step.params.itemId as string;
      service.script(`DELETE /api/v2/d/vc/C/items/${id}`, async () => {
        log.push(`send ${id}`);
        await Promise.resolve();
        return { message: 'removed' };
      });
    }
    const r = await run(service, plan(built, () => undefined, { onAnswer: (step) => void log.push(`answer ${step.id}`) }));
    expect(r.error).toBeUndefined();
    return log;
  }

  const rows: Array<{ name: string; build: () => Step[]; log: string[] }> = [
    { name: 'two at once', build: () => [remove('a', 'g', 2), remove('b', 'g', 2)], log: ['send a', 'send b', 'answer a', 'answer b'] },
    { name: 'one at a time', build: () => [remove('a', 'g', 1), remove('b', 'g', 1)], log: ['send a', 'answer a', 'send b', 'answer b'] },
    {
      name: 'two groups one after the other',
      build: () => [remove('a', 'g', 2), remove('b', 'g', 2), remove('c', 'h', 2), remove('d', 'h', 2)],
      log: ['send a', 'send b', 'answer a', 'answer b', 'send c', 'send d', 'answer c', 'answer d'],
    },
    {
      name: 'a step on its own between groups',
      build: () => [remove('a', 'g', 2), steps.itemRemove({ collectionId: 'C', itemId: 'x', user: USER }, { id: 'x' }), remove('b', 'g', 2), remove('c', 'g', 2)],
      log: ['send a', 'answer a', 'send x', 'answer x', 'send b', 'send c', 'answer b', 'answer c'],
    },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.log.join(', ')}`, async () => {
      expect(await events(row.build())).toEqual(row.log);
    });
  }

  it('a step that fails with something else than an AhsError: its own outcome, exit 1, with an error body', async () => {
    const service = new FakeService();
    const a = remove('a', 'g', 2);
    const b = remove('b', 'g', 2);
    service.script('DELETE /api/v2/d/vc/C/items/a', new Error('boom'));
    const told: string[] = [];
    let failure: StepFailure | undefined;
    const r = await run(service, plan([a, b], (results) => void (failure = results.failureOf(a)), { onFailure: (step, f) => void told.push(`${step.id}: ${f.error.message}`) }));
    expect(r.error).toBeUndefined();
    expect(told).toEqual(['a: boom']);
    expect(failure!.skipped).toBeUndefined();
    expect(failure!.error.exitCode).toBe(1);
    expect(failure!.error.toBody()).toEqual({ type: 'urn:ahs:rejected', title: 'boom', status: null, detail: 'boom' });
    expect(service.sent).toHaveLength(2);
  });

  it('an AhsError is the outcome as it is', async () => {
    const { asAhsError } = await import('../../src/plan/execute.js');
    const error = new ConflictError('moved');
    expect(asAhsError(error)).toBe(error);
    expect(asAhsError('text').message).toBe('text');
    expect(asAhsError(null).message).toBe('null');
    expect(asAhsError(undefined).message).toBe('undefined');
  });

  it('an interrupt in a batch: no failure recorded for the step it cut, no next step started, the run ends interrupted', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    service.script('DELETE /api/v2/d/vc/C/items/a', () => {
      controller.abort();
      throw new Error('cut');
    });
    service.items = [{ assetItemId: 'a' }, { assetItemId: 'b' }];
    const told: string[] = [];
    const r = await run(service, plan([remove('a', 'g', 1), remove('b', 'g', 1)], () => undefined, { onFailure: (step) => void told.push(step.id) }), { signal: controller.signal });
    // Its short read still finds the item: the removal may yet be applied.
    expect(r.error!.message).toBe('interrupted: remove item a from C may have been applied: check with `ahs item get C a`; the rest was not sent');
    expect((r.error as CancelledError).outcome).toBe('unknown');
    expect(told).toEqual([]);
    expect(service.sent).toHaveLength(1);
  });

  it('an interrupt after a step of a chain succeeded: the next step of the chain does not start', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    const first = remove('a', 'g', 1);
    const second = steps.itemRemove({ collectionId: 'C', itemId: 'b', user: USER }, { id: 'b', batch: { group: 'g', concurrency: 1 }, after: ['a'] });
    service.script('DELETE /api/v2/d/vc/C/items/a', () => {
      controller.abort();
      return { message: 'removed' };
    });
    const r = await run(service, plan([first, second], () => undefined), { signal: controller.signal });
    expect(r.error!.message).toBe('interrupted: done: remove item a from C; the rest was not sent');
    expect(service.detachedClients).toBe(0);
    expect(service.sent.map((s) => s.path)).toEqual(['/api/v2/d/vc/C/items/a']);
  });

  it('a chain whose first step succeeds goes on with the next in its slot', async () => {
    const service = new FakeService();
    const a = remove('a', 'g', 1);
    const b = steps.itemRemove({ collectionId: 'C', itemId: 'b', user: USER }, { id: 'b', batch: { group: 'g', concurrency: 1 }, after: ['a'] });
    const told: string[] = [];
    const r = await run(service, plan([a, b], () => undefined, { onAnswer: (step) => void told.push(step.id) }));
    expect(r.error).toBeUndefined();
    expect(told).toEqual(['a', 'b']);
  });

  it('a chain: a step after another runs in its slot right after it; after a failure the rest of the chain is skipped, each said', async () => {
    const service = new FakeService();
    const a = remove('a', 'g', 2);
    const b = steps.itemRemove({ collectionId: 'C', itemId: 'b', user: USER }, { id: 'b', batch: { group: 'g', concurrency: 2 }, after: ['a'] });
    const c = steps.itemRemove({ collectionId: 'C', itemId: 'c', user: USER }, { id: 'c', batch: { group: 'g', concurrency: 2 }, after: ['b'] });
    const d = remove('d', 'g', 2);
    service.script('DELETE /api/v2/d/vc/C/items/a', serverError(400));
    const told: string[] = [];
    const r = await run(service, plan([a, b, c, d], () => undefined, { onFailure: (step, f) => void told.push(`${step.id}${f.skipped ? ' skipped' : ''}: ${f.error.message}`) }));
    expect(r.error).toBeUndefined();
    expect(told).toEqual(['a: status 400', 'b skipped: not sent: a did not succeed', 'c skipped: not sent: b did not succeed']);
    expect(service.sent.map((s) => s.path.split('/').pop())).toEqual(['a', 'd']);
  });
});

describe('executor: when each step of a batch starts, by table', () => {
  interface Row {
    name: string;
    concurrency: number;
    bounds?: 'chains' | 'requests';
    /** Removals of items a, b, ...: `after` as planned; `joins` optional refs (a join), `needs` plain refs to other steps' answers. */
    steps: Array<{ id: string; after?: string[]; joins?: string[]; needs?: string[] }>;
    fail?: string[];
    /** The steps in flight together, round after round: each round's answers are given once nothing more starts. */
    rounds: string[][];
    skipped?: string[];
  }
  const rows: Row[] = [
    {
      name: "'requests': the steps others wait on first, each follower as soon as its own leader is done",
      concurrency: 2,
      bounds: 'requests',
      steps: [{ id: 'a' }, { id: 'a2', after: ['a'] }, { id: 'b' }, { id: 'b2', after: ['b'] }, { id: 'c' }, { id: 'c2', after: ['c'] }],
      rounds: [['a', 'b'], ['a2', 'c'], ['b2', 'c2']],
    },
    {
      name: "'chains' (the default): a follower takes its leader's slot, a chain holds one place",
      concurrency: 2,
      steps: [{ id: 'a' }, { id: 'a2', after: ['a'] }, { id: 'b' }, { id: 'b2', after: ['b'] }, { id: 'c' }, { id: 'c2', after: ['c'] }],
      rounds: [['a', 'b'], ['a2', 'b2'], ['c'], ['c2']],
    },
    {
      name: 'a join starts once every step it refers to has ended, beside the followers still running',
      concurrency: 8,
      bounds: 'requests',
      steps: [{ id: 'a' }, { id: 'a2', after: ['a'] }, { id: 'b' }, { id: 'b2', after: ['b'] }, { id: 'j', joins: ['a', 'b'] }],
      rounds: [['a', 'b'], ['a2', 'b2', 'j']],
    },
    {
      name: "a join runs when a step it refers to failed; that step's follower is skipped",
      concurrency: 8,
      bounds: 'requests',
      steps: [{ id: 'a' }, { id: 'a2', after: ['a'] }, { id: 'b' }, { id: 'j', joins: ['a', 'b'] }],
      fail: ['a'],
      rounds: [['a', 'b'], ['j']],
      skipped: ['a2'],
    },
    {
      name: 'a plain ref to a step that failed: skipped like a step after it',
      concurrency: 8,
      steps: [{ id: 'a' }, { id: 'x', needs: ['a'] }, { id: 'y' }],
      fail: ['a'],
      rounds: [['a', 'y']],
      skipped: ['x'],
    },
    {
      name: 'a step after one outside the batch that did not succeed, and the step after it: each skipped once',
      concurrency: 2,
      steps: [{ id: 'a', after: ['gone'] }, { id: 'b', after: ['a'] }, { id: 'c' }],
      rounds: [['c']],
      skipped: ['a', 'b'],
    },
    {
      name: 'a join planned first holds no slot while it waits',
      concurrency: 1,
      bounds: 'requests',
      steps: [{ id: 'j', joins: ['a'] }, { id: 'a' }],
      rounds: [['a'], ['j']],
    },
  ];

  async function roundsOf(row: Row) {
    const service = new FakeService();
    const held: Array<{ id: string; answer: () => void }> = [];
    for (const { id } of row.steps) {
      service.script(`DELETE /api/v2/d/vc/C/items/${id}`, () => new Promise((resolve, reject) => held.push({ id, answer: () => (row.fail?.includes(id) ? reject(serverError(400)) : resolve({ message: id })) })));
    }
    const built = row.steps.map(({ id, after, joins = [], needs = [] }) =>
      step('item.remove', { collectionId: 'C', itemId: id, user: USER, waitsOn: [...joins.map((on) => ({ $ref: on, field: 'message', optional: true })), ...needs.map((on) => ({ $ref: on, field: 'message' }))] }, { id, after, batch: { group: 'g', concurrency: row.concurrency, bounds: row.bounds } }),
    );
    const skipped: string[] = [];
    let ended = false;
    const running = run(service, plan(built, () => undefined, { onFailure: (s, failure) => void (failure.skipped && skipped.push(s.id)) })).finally(() => (ended = true));
    const rounds: string[][] = [];
    while (!ended) {
      // The fake answers through promises alone: once the event loop turns, every step that can start has.
      await new Promise((resolve) => setImmediate(resolve));
      const round = held.splice(0);
      if (round.length === 0) continue;
      rounds.push(round.map((h) => h.id).sort());
      for (const h of round) h.answer();
    }
    expect((await running).error).toBeUndefined();
    return { rounds, skipped };
  }

  for (const row of rows) {
    it(`${row.name}: ${row.rounds.map((round) => round.join('+')).join(', ')}`, async () => {
      expect(await roundsOf(row)).toEqual({ rounds: row.rounds, skipped: row.skipped ?? [] });
    });
  }
});

describe('executor: dry run, by table', () => {
  const converge = () => steps.itemConverge({ collectionId: 'C', user: USER, uploaded: [] });
  const removeA = () => steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER });

  it('a step only a real run sends (settling copies) is not shown; one step: no "before"', async () => {
    const service = new FakeService();
    service.items = [{ assetItemId: 'a', assetItemName: 'a.png', parentCollections: ['C'] }];
    const r = await run(service, plan([removeA(), converge()], () => undefined), { dryRun: true });
    expect(r.error).toBeUndefined();
    const doc = JSON.parse(r.stdout);
    expect(doc.request).toMatchObject({ method: 'DELETE', path: '/api/v2/d/vc/C/items/a' });
    expect(doc.before).toBeUndefined();
    expect(r.done).toBe(false);
  });

  it('nothing it would send: the outcome of a real run (done), nothing printed', async () => {
    const service = new FakeService();
    const r = await run(service, plan([converge()], () => undefined), { dryRun: true });
    expect(r.error).toBeUndefined();
    expect(r.done).toBe(true);
    expect(r.stdout).toBe('');
  });

  const rejections: Array<{ name: string; setup: (s: FakeService) => void; steps: () => Step[]; message: RegExp; exit: number }> = [
    { name: 'a deploy of a version that does not exist', setup: () => undefined, steps: () => [deployTo('IOS9'), deployTo('IOS1')], message: /^dry run: the service would answer 404: /, exit: 4 },
    { name: 'a removal from a collection that does not exist (a 400, settled as not found)', setup: (s) => void (s.collection = undefined), steps: () => [removeA()], message: /^dry run: the service would answer 400: /, exit: 4 },
    { name: 'a removal of an item the collection does not hold', setup: () => undefined, steps: () => [removeA()], message: /^dry run: the service would answer 4\d\d: /, exit: 4 },
  ];
  for (const row of rejections) {
    it(`${row.name}: printed, the later steps not predicted, exit ${row.exit}`, async () => {
      const service = new FakeService();
      row.setup(service);
      const r = await run(service, plan(row.steps(), () => undefined), { dryRun: true });
      expect(r.error).toBeInstanceOf(PredictedRejection);
      expect(r.error!.message).toMatch(row.message);
      expect((r.error as PredictedRejection).exitCode).toBe(row.exit);
      const doc = JSON.parse(r.stdout);
      expect(doc.predicted.error).not.toBeNull();
      expect(doc.before).toBeUndefined();
      expect(service.sent).toEqual([]);
    });
  }

  it('for a person: each request in order, and each note once', async () => {
    const service = new FakeService();
    const notes = ['the service checks the rest'];
    const first = steps.versionDeploy({ assetId: 'A', versionId: 'IOS1', platform: 'ios', body: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER }, notes });
    const second = steps.versionDeploy({ assetId: 'A', versionId: 'IOS2', platform: 'ios', body: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER }, notes });
    const third = deployTo('IOS3');
    const r = await run(service, plan([first, second, third], () => undefined), { dryRun: true, format: 'table' });
    expect(r.error).toBeUndefined();
    expect(r.stdout.split('\n').filter((line) => line.startsWith('note:'))).toEqual(['note:      the service checks the rest']);
    expect(r.stdout).toContain('first:     POST /api/v2/d/va/A/versions/IOS1/deploy?targetPlatformId=ios');
    expect(r.stdout).toContain('then:      POST /api/v2/d/va/A/versions/IOS2/deploy?targetPlatformId=ios');
    expect(r.stdout).toContain('request:   POST /api/v2/d/va/A/versions/IOS3/deploy?targetPlatformId=ios');
  });
});

describe('resolveParams, by table', () => {
  const answers = new Map<string, unknown>([
    ['s1', { versionId: 'IOS7', n: 0 }],
    ['s2', undefined],
  ]);
  const rows: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['a value as it is', { a: 'x', b: 3, c: null, d: false }, { a: 'x', b: 3, c: null, d: false }],
    ['a ref at any depth', { a: { b: [{ c: { $ref: 's1', field: 'versionId' } }] } }, { a: { b: [{ c: 'IOS7' }] } }],
    ['a ref to a falsy field', { a: { $ref: 's1', field: 'n' } }, { a: 0 }],
    ['a ref to a step answered with nothing', { a: { $ref: 's2', field: 'versionId' } }, { a: undefined }],
    ['an optional ref to a step with no answer', { a: { $ref: 's3', field: 'versionId', optional: true } }, { a: undefined }],
    ['an object that only looks like a ref', { a: { $ref: 's1' }, b: { $ref: 1, field: 'x' } }, { a: { $ref: 's1' }, b: { $ref: 1, field: 'x' } }],
  ];
  for (const [name, params, resolved] of rows) {
    it(name, () => {
      expect(resolveParams(params, answers)).toStrictEqual(resolved);
    });
  }
});

describe('executor: the progress of uploads', () => {
  async function files(...sizes: number[]) {
    const { writeFile } = await import('node:fs/promises');
    const dir = await temp('ahs-progress-');
    const paths: string[] = [];
    for (const [index, size] of sizes.entries()) {
      paths.push(`${dir}/f${index}.png`);
      await writeFile(paths[index]!, 'x'.repeat(size));
    }
    return paths;
  }
  /** A send that reads the whole body, as the service does. */
  const consume = (answer: unknown) => async (request: RequestOptions) => {
    for await (const _ of (request.stream as unknown as { open(): AsyncIterable<unknown> }).open());
    return answer;
  };

  it('a step on its own: its progress named by the file, each sent byte told, then the line once uploaded; a failure stops it', async () => {
    const [path] = await files(5);
    for (const fails of [false, true]) {
      const service = new FakeService();
      service.script('POST /api/v2/d/va/A/versions', fails ? serverError(400) : consume({ versionId: 'IOS4' }));
      const told: string[] = [];
      const progress = async (label: string) => {
        told.push(`start ${label}`);
        return { update: (sent: number, total: number) => void told.push(`${sent}/${total}`), done: (line: string) => void told.push(`done ${line}`), stop: () => void told.push('stop') };
      };
      const upload = steps.versionUpload({ assetId: 'A', platform: 'ios', fields: { versionName: '1', createdBy: USER }, file: { path: path!, name: 'app.zip', size: 5 } });
      const r = await run(service, plan([upload], () => undefined), { progress } as never);
      expect(told[0]).toBe('start Uploading app.zip');
      if (fails) {
        expect(r.error).toBeInstanceOf(ApiError);
        expect(told.slice(1)).toEqual(['stop']);
      } else {
        expect(r.error).toBeUndefined();
        expect(told.at(-2)).toBe('5/5');
        expect(told.at(-1)).toBe('done Uploaded app.zip as IOS4');
      }
    }
  });

  it('an upload of a kind with no "uploaded" line, on its own: done without one', async () => {
    const [path] = await files(2);
    const service = new FakeService();
    service.script('POST /api/v2/d/vc/C/items', consume({ assetItemId: 'i1' }));
    const told: string[] = [];
    const progress = async () => ({ update() {}, done: (line?: string) => void told.push(`done ${line}`), stop() {} });
    const r = await run(service, plan([steps.itemUpload({ collectionId: 'C', fields: { assetItemName: 'a', assetType: '1001', createdBy: USER }, file: { path: path!, name: 'a.png', size: 2 } })], () => undefined), { progress } as never);
    expect(r.error).toBeUndefined();
    expect(told).toEqual(['done undefined']);
  });

  const itemUpload = (path: string, name: string, size: number) =>
    steps.itemUpload({ collectionId: 'C', fields: { assetItemName: name, assetType: '1001', createdBy: USER }, file: { path, name, size } }, { batch: { group: 'files', concurrency: 2 } });

  const rows: Array<{ name: string; sizes: number[]; quiet?: boolean; verbose?: boolean; shown: RegExp | null }> = [
    // The first drawing, as the first file starts (later ones follow the wall clock).
    { name: 'two files on a terminal: each file by its name, the batch line with the total', sizes: [3, 4], shown: /^ {2}f0\.png .* 0 B \/ 3 B\nuploading 2 files .* 0 B \/ 7 B .* 0\/2 files done\n/ },
    { name: 'one file on a terminal: named', sizes: [3], shown: /^uploading f0\.png .* 0 B \/ 3 B .* 0\/1 files done\n/ },
    { name: '--quiet: nothing', sizes: [3, 4], quiet: true, shown: null },
    { name: '--verbose: plain lines, not redrawn between traces', sizes: [3, 4], verbose: true, shown: null },
  ];
  for (const row of rows) {
    it(`a batch of uploads, ${row.name}`, async () => {
      const paths = await files(...row.sizes);
      const service = new FakeService();
      service.script('POST /api/v2/d/vc/C/items', ...paths.map((_, i) => consume({ assetItemId: `i${i}` })));
      const built = paths.map((path, i) => itemUpload(path, `f${i}.png`, row.sizes[i]!));
      const r = await run(service, plan(built, () => undefined), { quiet: row.quiet ?? false, verbose: row.verbose ?? false, io: { errIsTTY: true } });
      expect(r.error).toBeUndefined();
      if (row.shown) {
        expect(r.stderr).toMatch(row.shown);
        // Stopped at the end: the live block is erased.
        expect(r.stderr.endsWith('\x1b[0J')).toBe(true);
      } else expect(r.stderr).toBe('');
    });
  }

  it('a batch with no file (removals): no progress at all', async () => {
    const service = new FakeService();
    const r = await run(service, plan([steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER }, { batch: { group: 'g', concurrency: 2 } })], () => undefined), { quiet: false, io: { errIsTTY: true } });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe('');
  });
});

describe('executor: what is read, and when a refusal is checked', () => {
  const rejected = (status: number, kind: string, resource: string) => ({ current: null, decision: { ok: false, status, kind, resource, title: 'no', message: 'no' } as never });

  it('a refusing step whose parameters refer to an earlier answer (in a list) is checked when its turn comes, not before', async () => {
    const service = new FakeService();
    const first = deployTo('IOS1');
    const record = { assetId: 'A', version: 1, versionId: 'AND1', versionName: '1', targetPlatform: 'android', assetType: '1001', secured: true, state: 'LIVE' as const, envId: 'prod' };
    const undeploy = steps.assetUndeploy({ assetId: 'A', body: { envId: 'prod', targetPlatforms: [ref(first, 'message'), 'android'] }, records: [record] }, { refuse: { hint: 'h' }, prediction: rejected(400, 'conflict', 'asset') });
    const r = await run(service, plan([first, undeploy], () => undefined));
    expect(r.error!.message).toBe('stopped before the next request: the service would answer 400: no; h');
    expect(service.sent).toHaveLength(1);
  });

  it('a step that does not refuse is sent without a prediction (no read), refs or not', async () => {
    const service = new FakeService();
    const first = deployTo('IOS1');
    const second = steps.versionDeploy({ assetId: 'A', versionId: ref(first, 'message'), platform: 'ios', body: { envId: 'prod', intent: 'LIVE', createdBy: USER, updatedBy: USER } });
    const r = await run(service, plan([first, second], () => undefined));
    expect(r.error).toBeUndefined();
    expect(service.sent).toHaveLength(2);
    expect(service.reads).toEqual([]);
  });

  it('an answer other than a 400 naming a collection: no read of the collection', async () => {
    for (const status of [403, 404, 409]) {
      const service = new FakeService();
      service.script('DELETE /api/v2/d/vc/C/items/a', serverError(status));
      const r = await run(service, plan([steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER })], () => undefined));
      expect((r.error as ApiError).status).toBe(status);
      expect(service.reads).toEqual([]);
    }
  });

  const exits: Array<[string, ReturnType<typeof rejected>, number]> = [
    ['a 400 "not found" of a collection: exit 4 (the read would settle it)', rejected(400, 'not-found', 'collection'), 4],
    ['a 400 "not found" of something else: exit 1 (no read settles it)', rejected(400, 'not-found', 'version'), 1],
    ['a 400 of a collection that is not "not found": exit 1', rejected(400, 'conflict', 'collection'), 1],
    ['a 409: exit 5', rejected(409, 'conflict', 'collection'), 5],
  ];
  for (const [name, prediction, exit] of exits) {
    it(`refused from a prediction, ${name}; a dry run the same`, async () => {
      for (const dryRun of [false, true]) {
        const service = new FakeService();
        const step = steps.collectionRestore({ collectionId: 'C', user: USER }, { refuse: { hint: 'h' }, prediction });
        const r = await run(service, plan([step], () => undefined), { dryRun });
        expect((r.error as PredictedRejection).exitCode).toBe(exit);
        expect(service.sent).toEqual([]);
      }
    });
  }

  it('a no-op plan for a person: the message', async () => {
    const service = new FakeService();
    const { noop } = await import('../../src/plan/plan.js');
    const r = await run(service, noop('LIVE', 'IOS1 is LIVE already'), { format: 'table', quiet: false });
    expect(r.stdout + r.stderr).toContain('IOS1 is LIVE already');
  });

  it('an interrupt that cuts a chain step: its follower is neither sent nor said skipped', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    const a = steps.itemRemove({ collectionId: 'C', itemId: 'a', user: USER }, { id: 'a', batch: { group: 'g', concurrency: 1 } });
    const b = steps.itemRemove({ collectionId: 'C', itemId: 'b', user: USER }, { id: 'b', batch: { group: 'g', concurrency: 1 }, after: ['a'] });
    service.script('DELETE /api/v2/d/vc/C/items/a', () => {
      controller.abort();
      throw new Error('cut');
    });
    const told: string[] = [];
    const r = await run(service, plan([a, b], () => undefined, { onFailure: (step) => void told.push(step.id) }), { signal: controller.signal });
    // Its short read no longer finds the item: applied, said so.
    expect(r.error!.message).toBe('interrupted: done: remove item a from C; the rest was not sent');
    expect((r.error as CancelledError).outcome).toBe('applied');
    expect(told).toEqual([]);
    expect(service.sent).toHaveLength(1);
  });
});
