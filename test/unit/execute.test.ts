// The executor on its own (src/plan/execute.ts), against a fake client that
// answers from a small in-memory channel: every path a step can take (sent,
// rejected, refused from its prediction, a lost answer settled each way, a
// settling read that fails, a deployment's 500 waited out, a 409 retried, a
// batch with a partial failure, a step after a failed one skipped), and a
// plan written as JSON and read back sending the same requests.
import { describe, expect, it } from 'vitest';
import { ApiError, ConflictError, NetworkError } from '../../src/errors.js';
import { AnswerLostError } from '../../src/http/errors.js';
import { RetryPolicy, type Clock } from '../../src/http/retry.js';
import { Output } from '../../src/io/output.js';
import { executePlan, resolveParams, type ExecutorContext } from '../../src/plan/execute.js';
import { plan, ref, type Plan, type Step } from '../../src/plan/plan.js';
import { steps } from '../../src/plan/steps.js';
import { PredictedRejection } from '../../src/plan/dryrun.js';
import type { ApiClient, RequestOptions } from '../../src/http/client.js';
import type { DeploymentState } from '../../src/rules/index.js';
import { bufferIO } from './helpers.js';

const ERROR_TYPE = 'https://errors.asset-hosting.example/problem';
const USER = 'rel@example.com';

type Answer = unknown | Error | ((request: RequestOptions) => unknown);

/** A channel A/ios/prod the fake's reads show, and scripted answers for writes. */
class FakeService {
  records: Record<string, DeploymentState> = {};
  versions = new Set(['IOS1', 'IOS2', 'IOS3']);
  /** Answers of the next writes to "METHOD path", in order; when empty, the write is applied. */
  readonly scripted = new Map<string, Answer[]>();
  readonly sent: Array<{ method: string; path: string; query?: unknown; body?: unknown }> = [];
  failReads = 0;
  waits: number[] = [];

  client(): ApiClient {
    const clock: Clock = { now: () => 0, sleep: async (ms) => void this.waits.push(ms), random: () => 0.5 };
    const policy = new RetryPolicy({ retries: 2, timeoutMs: 30_000, clock });
    const fake = {
      policy,
      path: (...segments: string[]) => `/api/v2/d/${segments.map(encodeURIComponent).join('/')}`,
      madeSince: () => true,
      json: (options: RequestOptions) => this.answer(options),
      get: (path: string, query?: Record<string, unknown>) => this.answer({ method: 'GET', path, query } as RequestOptions),
      post: (path: string, body?: unknown, query?: Record<string, unknown>) => this.answer({ method: 'POST', path, body, query } as RequestOptions),
    };
    return fake as unknown as ApiClient;
  }

  script(key: string, ...answers: Answer[]): void {
    this.scripted.set(key, [...(this.scripted.get(key) ?? []), ...answers]);
  }

  private async answer(options: RequestOptions): Promise<unknown> {
    if (options.method === 'GET') return this.read(options);
    this.sent.push({ method: options.method, path: options.path, query: options.query, body: options.body });
    const key = `${options.method} ${options.path}`;
    const queue = this.scripted.get(key);
    const next = queue?.shift();
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return (next as (r: RequestOptions) => unknown)(options);
    if (next !== undefined) return next;
    return this.apply(options);
  }

  /** What a write does when nothing is scripted: a deploy moves the record. */
  apply(options: RequestOptions): unknown {
    const deploy = /\/versions\/([^/]+)\/deploy$/.exec(options.path);
    if (deploy) {
      const body = options.body as { intent: DeploymentState };
      if (body.intent === 'DEFAULT') for (const [id, state] of Object.entries(this.records)) if (state === 'DEFAULT') this.records[id] = 'LIVE';
      this.records[deploy[1]!] = body.intent;
      return { assetVersion: { versionId: deploy[1], state: body.intent, envId: 'prod' }, message: 'ok' };
    }
    return { message: 'done' };
  }

  private read(options: RequestOptions): unknown {
    if (this.failReads > 0) {
      this.failReads--;
      throw new NetworkError('could not reach the service (connection refused)');
    }
    if (options.path.endsWith('/asset-urls')) {
      const wanted = (options.query as { state?: string } | undefined)?.state;
      const results = Object.entries(this.records)
        .filter(([, state]) => (wanted === 'OFFLINE' ? state === 'OFFLINE' : state !== 'OFFLINE'))
        .map(([versionId, state], index) => ({ assetId: 'A', version: index + 1, versionId, versionName: versionId, targetPlatform: 'ios', assetType: '1001', secured: true, state, envId: 'prod' }));
      return { totalResults: results.length, pageNumber: 1, pageSize: 1000, results };
    }
    const version = /\/versions\/([^/]+)$/.exec(options.path);
    if (version) {
      if (!this.versions.has(version[1]!)) throw new ApiError(404, { type: ERROR_TYPE, title: 'not found', status: 404, detail: 'not found' });
      return { versionId: version[1], version: 1, versionName: version[1], targetPlatform: 'ios', assetType: '1001', secured: true, size: '1 KB', uploadStatus: 'Committed', createdBy: USER, updatedBy: USER, active: true, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
    }
    const item = /\/items\/([^/]+)$/.exec(options.path);
    if (item) throw new ApiError(404, { type: ERROR_TYPE, title: 'no such item', status: 404, detail: 'no such item' });
    throw new Error(`unexpected read ${options.path}`);
  }
}

function context(service: FakeService, overrides: { dryRun?: boolean; confirm?: () => Promise<void> } = {}) {
  const io = bufferIO();
  const api = service.client();
  const output = Output.create(io, { format: 'json' });
  const ctx = {
    io,
    signal: new AbortController().signal,
    globals: { dryRun: overrides.dryRun ?? false, quiet: true, verbose: false },
    api: async () => api,
    output: () => output,
    confirm: overrides.confirm ?? (async () => undefined),
    progress: async () => ({ update() {}, done() {}, stop() {} }),
  } as unknown as ExecutorContext;
  return { ctx, io };
}

const deployTo = (versionId: string, intent: DeploymentState = 'LIVE') =>
  steps.versionDeploy({ assetId: 'A', versionId, platform: 'ios', body: { envId: 'prod', intent, createdBy: USER, updatedBy: USER } });
const DEPLOY = (versionId: string) => `POST /api/v2/d/va/A/versions/${versionId}/deploy`;
const lost = () => new AnswerLostError('POST /va/A/versions/IOS1/deploy', 'connection reset');
const serverError = (status: number) => new ApiError(status, { type: ERROR_TYPE, title: `status ${status}`, status, detail: `status ${status}` });

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

  it('not applied: exit 6, safe to retry, not sent again', async () => {
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), lost());
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeInstanceOf(NetworkError);
    expect(r.error!.message).toMatch(/a read shows the write was not applied .*: it is safe to retry$/);
    expect(service.sent).toHaveLength(1);
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
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const dir = await mkdtemp('/tmp/ahs-exec-');
    await writeFile(`${dir}/a.zip`, 'x');
    upload.params.file = { path: `${dir}/a.zip`, name: 'a.zip', size: 1 };
    const error = await executePlan(plan([upload], () => undefined), ctx).catch((e: Error) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/whether the write was applied is unknown: check with `ahs version list A --all`$/);
  });

  it('the settling read times out: its advice to try again is not passed on', async () => {
    const service = new FakeService();
    service.script(DEPLOY('IOS1'), (request: RequestOptions) => {
      service.apply(request);
      service.failReads = 10;
      throw lost();
    });
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
    service.script(DEPLOY('IOS1'), (request: RequestOptions) => {
      service.apply(request);
      service.failReads = 10;
      throw lost();
    });
    const r = await run(service, plan([deployTo('IOS1')], () => undefined));
    expect(r.error).toBeInstanceOf(NetworkError);
    expect(r.error!.message).toMatch(/the write may have been applied, and the read that would tell failed \(could not reach the service \(connection refused\)\): check with `ahs asset status A --platform ios --env prod` before running it again$/);
    expect(r.error!.message).not.toMatch(/try again|safe to retry/);
  });
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
