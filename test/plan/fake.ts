// A fake API client for the executor and the kinds of step, in-process and
// fast: it answers reads from a small in-memory service (the channel
// A/ios/prod, versions IOS1-3, a collection C) and writes from a script,
// on a fake clock (each send takes `sendMs`; waits are recorded, not slept).
import { ApiError, NetworkError } from '../../src/errors.js';
import { RetryPolicy, type Clock } from '../../src/http/retry.js';
import { Output } from '../../src/io/output.js';
import type { ExecutorContext } from '../../src/plan/execute.js';
import { createMultiProgress, type MultiProgressOptions } from '../../src/io/progress.js';
import type { ApiClient, RequestOptions } from '../../src/http/client.js';
import type { DeploymentState } from '../../src/rules/index.js';
import type { IO } from '../../src/io/streams.js';
import { bufferIO } from '../unit/helpers.js';

export const ERROR_TYPE = 'https://errors.asset-hosting.example/problem';
export const USER = 'rel@example.com';

export type Answer = unknown | Error | ((request: RequestOptions) => unknown);

export interface FakeOptions {
  retries?: number;
  timeoutMs?: number;
  /** What one send costs on the fake clock. */
  sendMs?: number;
  signal?: AbortSignal;
}

export const apiError = (status: number, title = `status ${status}`) => new ApiError(status, { type: ERROR_TYPE, title, status, detail: title });

export class FakeService {
  records: Record<string, DeploymentState> = {};
  versions = new Set(['IOS1', 'IOS2', 'IOS3']);
  /** Collection C as GET /vc/C answers it; undefined: it does not exist (404). */
  collection: Record<string, unknown> | undefined = { collectionId: 'C', assetItems: [], allowedAssetTypes: ['1001'], maxAssets: 10 };
  items: Array<Record<string, unknown>> = [];
  /** C's deployments by environment; undefined: never deployed (404). */
  deployments: Record<string, 'LIVE' | 'OFFLINE'> | undefined;
  /** GET /va/A/versions. */
  versionList: Array<Record<string, unknown>> = [];
  versionCount = 0;
  /** GET /va/A; undefined: 404. */
  asset: Record<string, unknown> | undefined = { assetId: 'A', assetName: 'A', assetType: '1001', secured: true, active: true, createdBy: USER, updatedBy: USER, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
  /** Answers of the next writes to "METHOD path", in order; when empty, the write is applied. */
  readonly scripted = new Map<string, Answer[]>();
  readonly sent: Array<{ method: string; path: string; query?: unknown; body?: unknown }> = [];
  readonly reads: string[] = [];
  failReads = 0;
  waits: number[] = [];
  now = 0;
  madeSince = true;
  domainId: string | undefined = 'd';
  /** What a failing read throws (failReads). */
  readError: Error = new NetworkError('could not reach the service (connection refused)');
  /** A version's own asset-urls leave its OFFLINE record out (a service may, as the asset-wide listing does). */
  ownOmitsOffline = false;
  /** Records of other channels the asset-wide listing also answers (a service need not filter exactly). */
  elsewhere: Array<Record<string, unknown>> = [];
  /** Called as each read begins (another writer moving things between two reads). */
  onRead?: (path: string) => void;
  /** Clients made for the short read after an interrupt, and clients destroyed. */
  detachedClients = 0;
  destroyed = 0;
  /** Called as a wait begins (a Ctrl-C while waiting). */
  onSleep?: () => void;

  constructor(readonly options: FakeOptions = {}) {}

  client(): ApiClient {
    const clock: Clock = {
      now: () => this.now,
      sleep: async (ms, signal) => {
        this.onSleep?.();
        if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        this.waits.push(ms);
        this.now += ms;
      },
      random: () => 0.5,
    };
    const policy = new RetryPolicy({ retries: this.options.retries ?? 2, timeoutMs: this.options.timeoutMs ?? 30_000, clock, signal: this.options.signal });
    const fake = {
      policy,
      domainId: this.domainId,
      path: (...segments: string[]) => `/api/v2/d/${segments.map(encodeURIComponent).join('/')}`,
      madeSince: () => this.madeSince,
      json: (options: RequestOptions) => this.answer(options),
      get: (path: string, query?: Record<string, unknown>) => this.answer({ method: 'GET', path, query } as RequestOptions),
      post: (path: string, body?: unknown, query?: Record<string, unknown>) => this.answer({ method: 'POST', path, body, query } as RequestOptions),
      // The client of the short read after an interrupt: the same service.
      detached: () => {
        this.detachedClients++;
        return fake;
      },
      destroy: async () => void this.destroyed++,
    };
    return fake as unknown as ApiClient;
  }

  script(key: string, ...answers: Answer[]): void {
    this.scripted.set(key, [...(this.scripted.get(key) ?? []), ...answers]);
  }

  private async answer(options: RequestOptions): Promise<unknown> {
    if (options.method === 'GET') return this.read(options);
    this.sent.push({ method: options.method, path: options.path, query: options.query, body: options.body });
    this.now += this.options.sendMs ?? 0;
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
    this.reads.push(options.path);
    this.onRead?.(options.path);
    if (this.failReads > 0) {
      this.failReads--;
      throw this.readError;
    }
    const envelope = (results: unknown[]) => ({ totalResults: results.length, pageNumber: 1, pageSize: 1000, results });
    const record = (versionId: string, state: DeploymentState) => ({ assetId: 'A', version: Number(versionId.replace(/\D/g, '')) || 1, versionId, versionName: versionId, targetPlatform: 'ios', assetType: '1001', secured: true, state, envId: 'prod' });
    // A version's own records (every state).
    const own = /\/versions\/([^/]+)\/asset-urls$/.exec(options.path);
    if (own) return envelope(Object.entries(this.records).filter(([versionId, state]) => versionId === own[1] && !(this.ownOmitsOffline && state === 'OFFLINE')).map(([versionId, state]) => record(versionId, state)));
    if (options.path.endsWith('/asset-urls')) {
      const wanted = (options.query as { state?: string } | undefined)?.state;
      const results = Object.entries(this.records)
        .filter(([, state]) => (wanted === 'OFFLINE' ? state === 'OFFLINE' : state !== 'OFFLINE'))
        .map(([versionId, state]) => record(versionId, state));
      return envelope([...this.elsewhere, ...results]);
    }
    if (options.path.endsWith('/va/A/versions')) return envelope(this.versionList);
    if (options.path.endsWith('/va/A/version-count')) return { counts: this.versionCount };
    if (options.path.endsWith('/va/A')) {
      if (!this.asset) throw apiError(404, 'no such asset');
      return this.asset;
    }
    const version = /\/versions\/([^/]+)$/.exec(options.path);
    if (version) {
      const listed = this.versionList.find((v) => v.versionId === version[1]);
      if (listed) return listed;
      if (!this.versions.has(version[1]!)) throw apiError(404, 'not found');
      return { versionId: version[1], version: 1, versionName: version[1], targetPlatform: 'ios', assetType: '1001', secured: true, size: '1 KB', uploadStatus: 'Committed', createdBy: USER, updatedBy: USER, active: true, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
    }
    if (/\/vc\/C\/items$/.test(options.path)) return envelope(this.items);
    const item = /\/items\/([^/]+)$/.exec(options.path);
    if (item) {
      const found = this.items.find((i) => i.assetItemId === item[1]);
      if (!found) throw apiError(404, 'no such item');
      return found;
    }
    if (/\/vc\/C\/deployments$/.test(options.path)) {
      if (!this.deployments) throw apiError(404, 'never deployed');
      return { collectionId: 'C', collectionName: 'C', items: Object.entries(this.deployments).map(([envId, state]) => ({ envId, live: state === 'LIVE' ? ['x'] : [], offline: state === 'OFFLINE' ? ['x'] : [], undeployed: [] })) };
    }
    if (/\/vc\/[^/]+$/.test(options.path)) {
      if (!this.collection || !options.path.endsWith('/vc/C')) throw apiError(404, 'no such collection');
      return this.collection;
    }
    throw new Error(`unexpected read ${options.path}`);
  }
}

export function context(service: FakeService, overrides: { dryRun?: boolean; confirm?: () => Promise<void>; signal?: AbortSignal; quiet?: boolean; verbose?: boolean; format?: 'json' | 'table'; io?: Partial<IO>; progress?: ExecutorContext['progress'] } = {}) {
  const io = bufferIO(overrides.io);
  const api = service.client();
  const output = Output.create(io, { format: overrides.format ?? 'json' });
  const ctx = {
    io,
    signal: overrides.signal ?? service.options.signal ?? new AbortController().signal,
    globals: { dryRun: overrides.dryRun ?? false, quiet: overrides.quiet ?? true, verbose: overrides.verbose ?? false },
    api: async () => api,
    output: () => output,
    confirm: overrides.confirm ?? (async () => undefined),
    progress: overrides.progress ?? (async () => ({ update() {}, done() {}, stop() {} })),
    multiProgress: async (options: MultiProgressOptions) => createMultiProgress(io, options),
  } as unknown as ExecutorContext;
  return { ctx, io, api };
}
