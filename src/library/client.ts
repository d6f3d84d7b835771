// createClient: the CLI's capabilities as a typed library (cli.md, "In CI, and
// from code"). No second implementation: every write is the command's own
// `run` (src/commands/**) with a library Context (./context.ts), whose Plan
// the one executor predicts (--dry-run) or sends; its answer is the JSON
// document the command prints. Reads are the service reads the commands make
// (src/service/*.ts over src/http/paging.ts), yielded one by one.
import type { Context } from '../context.js';
import type { Plan } from '../plan/plan.js';
import { PredictedRejection } from '../plan/dryrun.js';
import { UsageError } from '../errors.js';
import { libraryContext, type CallSettings, type LibraryContext } from './context.js';
import type { ApiClient } from '../http/client.js';
import type {
  ApplyParams,
  HistoryParams,
  JournalEntry,
  Client,
  ClientOptions,
  DesiredPlanDocument,
  DesiredStateParams,
  DryRunDocument,
  PlannedWrite,
  PlanStep,
  Unchanged,
  VerifyCollectionParams,
  VerifyParams,
  VerifyResult,
  RolloutDocument,
  RolloutParams,
} from './types.js';
import type { RolloutOptions } from '../service/rollout.js';

/** A client for the service `options` name. Nothing is sent until a call is made. */
export function createClient(options: ClientOptions): Client {
  checkOptions(options);
  const open = new Set<Context>();
  const session = new Session(options, open);
  return {
    assets: {
      list: () => session.read(async (api) => (await import('../http/paging.js')).fetchAll(api, api.path('va'))),
      get: (assetId) => session.readOne(async (api) => (await import('../service/assets.js')).getAsset(api, need('assets.get', { assetId }).assetId)),
      create: (params) =>
        session.write('assets.create', params, ['assetId', 'name', 'type'], { user: params.user }, () => import('../commands/asset/create.js'), (p) => ({
          assetId: p.assetId,
          name: p.name,
          type: p.type,
          description: p.description,
          secured: off(p.secured),
          localCacheControl: flag(p.localCacheControl),
          localCacheMaxAge: p.localCacheMaxAge,
        })),
      update: (params) =>
        session.write('assets.update', params, ['assetId'], { user: params.user }, () => import('../commands/asset/update.js'), (p) => ({
          assetId: p.assetId,
          name: p.name,
          description: p.description,
          type: p.type,
          localCacheControl: p.localCacheControl,
          localCacheMaxAge: p.localCacheMaxAge,
          active: flag(p.active === true),
          inactive: flag(p.active === false),
        })),
      delete: (params) => session.write('assets.delete', params, ['assetId'], { user: params.user }, () => import('../commands/asset/delete.js'), (p) => ({ assetId: p.assetId })),
      // async: a bad platform list is a rejection, as every other bad parameter.
      undeploy: async (params) =>
        session.write(
          'assets.undeploy',
          params,
          ['assetId', 'envId'],
          { envId: params.envId, platform: platformList('assets.undeploy', params.platform), user: params.user },
          () => import('../commands/asset/undeploy.js'),
          (p) => ({ assetId: p.assetId }),
        ),
    },
    versions: {
      list: (assetId) => session.read(async (api) => (await import('../service/assets.js')).listAllVersions(api, need('versions.list', { assetId }).assetId)),
      get: (assetId, versionId) => session.readOne(async (api) => (await import('../service/assets.js')).getVersion(api, assetId, need('versions.get', { assetId, versionId }).versionId)),
      upload: (params) =>
        session.write('versions.upload', params, ['assetId', 'file', 'platform', 'name'], { platform: params.platform, user: params.user }, () => import('../commands/version/upload.js'), (p) => ({
          assetId: p.assetId,
          file: p.file,
          name: p.name,
        })),
      delete: (params) =>
        session.write('versions.delete', params, ['assetId', 'versionId'], {}, () => import('../commands/version/delete.js'), (p) => ({ assetId: p.assetId, versionId: p.versionId })),
    },
    collections: {
      list: () => session.read(async (api) => (await import('../http/paging.js')).fetchAll(api, api.path('vc'))),
      get: (collectionId) =>
        session.readOne(async (api) => {
          const { readCollection } = await import('../service/collections.js');
          const { NotFoundError } = await import('../errors.js');
          const found = await readCollection(api, need('collections.get', { collectionId }).collectionId);
          if (!found) throw new NotFoundError(`collection ${collectionId} not found`);
          return found;
        }),
      create: (params) =>
        session.write('collections.create', params, ['collectionId', 'name'], { platform: params.platform, user: params.user }, () => import('../commands/collection/create.js'), (p) => ({
          collectionId: p.collectionId,
          name: p.name,
          allowedTypes: codes('collections.create', p.allowedTypes),
          description: p.description,
          maxAssets: p.maxAssets,
          editable: off(p.editable),
          deployable: off(p.deployable),
          anchor: p.anchor,
          secured: off(p.secured),
          localCacheControl: flag(p.localCacheControl),
          localCacheMaxAge: p.localCacheMaxAge,
        })),
      update: (params) =>
        session.write('collections.update', params, ['collectionId'], { user: params.user }, () => import('../commands/collection/update.js'), (p) => ({
          collectionId: p.collectionId,
          name: p.name,
          description: p.description,
          maxAssets: p.maxAssets,
          editable: p.editable,
          deployable: p.deployable,
          anchor: p.anchor,
          localCacheControl: p.localCacheControl,
          localCacheMaxAge: p.localCacheMaxAge,
          fromJson: undefined,
          allowedTypes: undefined,
          secured: undefined,
        })),
      delete: (params) => session.write('collections.delete', params, ['collectionId'], { user: params.user }, () => import('../commands/collection/delete.js'), (p) => ({ collectionId: p.collectionId })),
      restore: (params) => session.write('collections.restore', params, ['collectionId'], { user: params.user }, () => import('../commands/collection/restore.js'), (p) => ({ collectionId: p.collectionId })),
      purge: (params) => session.write('collections.purge', params, ['collectionId'], { user: params.user }, () => import('../commands/collection/purge.js'), (p) => ({ collectionId: p.collectionId })),
      deploy: (params) =>
        session.write('collections.deploy', params, ['collectionId'], { envId: params.envId, user: params.user }, () => import('../commands/collection-deploy/deploy.js'), (p) => ({
          collectionId: p.collectionId,
          state: p.state ?? 'LIVE',
          idempotent: flag(p.idempotent),
          reconcile: flag(p.reconcile),
        })),
      undeploy: (params) =>
        session.write('collections.undeploy', params, ['collectionId', 'envId'], { envId: params.envId, user: params.user }, () => import('../commands/collection/undeploy.js'), (p) => ({ collectionId: p.collectionId })),
    },
    items: {
      list: (collectionId) =>
        session.read(async (api) => {
          const { listItems, readNamingCollection } = await import('../service/collections.js');
          need('items.list', { collectionId });
          return readNamingCollection(api, collectionId, () => listItems(api, collectionId));
        }),
      upload: (params) =>
        session.write('items.upload', params, ['collectionId'], { user: params.user }, () => import('../commands/item/upload.js'), (p) => ({
          collectionId: p.collectionId,
          files: paths('items.upload', p.files),
          type: p.type,
          name: p.name,
          concurrency: p.concurrency,
        })),
      remove: (params) =>
        session.write('items.remove', params, ['collectionId', 'itemId'], { user: params.user }, () => import('../commands/item/remove.js'), (p) => ({ collectionId: p.collectionId, itemId: p.itemId })),
      sync: (params) =>
        session.write('items.sync', params, ['collectionId', 'dir'], { user: params.user }, () => import('../commands/item/sync.js'), (p) => ({
          collectionId: p.collectionId,
          dir: p.dir,
          type: p.type,
          delete: flag(p.delete),
          followLinks: flag(p.followLinks),
          pattern: p.pattern,
          reconcile: flag(p.reconcile),
          checksum: flag(p.checksum),
        })),
    },
    records: (assetId, filter = {}) => session.read(async (api) => (await import('../service/assets.js')).listRecords(api, need('records', { assetId }).assetId, filter)),
    channel: (assetId, platform, envId) =>
      session.read(async (api) => (await (await import('../service/assets.js')).readChannel(api, assetId, platform, need('channel', { assetId, platform, envId }).envId)).records),
    deploy: (params) =>
      session.write('deploy', params, ['assetId', 'versionId', 'platform', 'envId'], params, () => import('../commands/deploy/deploy.js'), (p) => ({
        assetId: p.assetId,
        versionId: p.versionId,
        state: p.state ?? 'LIVE',
        idempotent: flag(p.idempotent),
      })),
    promoteDefault: (params) =>
      session.write('promoteDefault', params, ['assetId', 'platform', 'envId'], params, () => import('../commands/promote-default/promote.js'), (p) => ({
        assetId: p.assetId,
        versionId: p.versionId,
        fromEnv: p.fromEnv,
        makeLive: flag(p.makeLive),
        expectCurrent: p.expectCurrent,
        idempotent: flag(p.idempotent),
      })),
    release: (params) =>
      session.write('release', params, ['assetId', 'file', 'platform', 'envId', 'name'], params, () => import('../commands/release/release.js'), (p) => ({
        assetId: p.assetId,
        file: p.file,
        name: p.name,
        state: p.state ?? 'DEFAULT',
        expectCurrent: p.expectCurrent,
      })),
    rollback: (params) =>
      session.write('rollback', params, ['assetId', 'platform', 'envId'], params, () => import('../commands/rollback/rollback.js'), (p) => ({ assetId: p.assetId, to: p.to })),
    verify: (params) => verify(session, params),
    rollout: (params) => rollout(session, 'start', params),
    rolloutStatus: (params) => rollout(session, 'status', params),
    rolloutAbort: (params) => rollout(session, 'abort', params),
    plan: (params: DesiredStateParams = {}) => session.document<DesiredPlanDocument>({ user: params.user }, () => import('../commands/plan/plan.js'), { file: params.file, target: params.target, out: undefined, detailedExitcode: undefined }),
    apply: (params: ApplyParams = {}) =>
      session.write('apply', params, [], { user: params.user }, () => import('../commands/apply/apply.js'), (p) => ({ plan: p.plan, file: p.file, target: p.target })),
    history: (params = {}) => session.history(params),
    close: () => session.close(),
  };
}

/** A command module: the CLI's `run` of one command. */
interface CommandModule<O> {
  run(options: O, ctx: Context): Promise<void | Plan>;
}

/** The contexts of one client: each call gets its own (its settings, its documents); close() ends those still open. */
class Session {
  constructor(
    private readonly options: ClientOptions,
    private readonly open: Set<Context>,
  ) {}

  private async context(call: CallSettings = {}): Promise<LibraryContext> {
    const made = await libraryContext(this.options, call);
    this.open.add(made.ctx);
    return made;
  }

  private async end(ctx: Context): Promise<void> {
    this.open.delete(ctx);
    await ctx.dispose();
  }

  /** Every result of a list read, one by one; the connection is released when the iteration ends. */
  read<T>(list: (api: ApiClient) => Promise<T[]>): AsyncIterable<T> {
    const session = this;
    return {
      async *[Symbol.asyncIterator]() {
        const { ctx } = await session.context();
        try {
          yield* await list(await ctx.api());
        } finally {
          await session.end(ctx);
        }
      },
    };
  }

  async readOne<T>(read: (api: ApiClient) => Promise<T>): Promise<T> {
    const { ctx } = await this.context();
    try {
      return await read(await ctx.api());
    } finally {
      await this.end(ctx);
    }
  }

  /**
   * A command that prints its answer (a read, ahs plan): the document it
   * printed. `answers`: an error thrown after the document was printed that
   * the document itself answers (a verify's differences).
   */
  async document<D, O = unknown>(call: CallSettings, load: () => Promise<CommandModule<O>>, options: O, answers?: (error: unknown) => boolean): Promise<D> {
    const { ctx, documents } = await this.context(call);
    try {
      const plan = await (await load()).run(options, call.platform === undefined ? ctx : platformGiven(ctx, call.platform));
      if (plan) throw new Error('expected a command that prints, not one that plans');
      return documents.at(-1) as D;
    } catch (error) {
      if (answers?.(error) && documents.length > 0) return documents.at(-1) as D;
      throw error;
    } finally {
      await this.end(ctx);
    }
  }

  /** The command's Plan, from its reads, as a PlannedWrite; nothing is sent yet. */
  async write<P extends object, O, R>(
    name: string,
    params: P,
    required: ReadonlyArray<keyof P & string>,
    call: CallSettings,
    load: () => Promise<CommandModule<O>>,
    toOptions: (params: P) => O,
  ): Promise<PlannedWrite<R>> {
    need(name, params, required);
    const [{ run }, { ctx, documents }] = await Promise.all([load(), this.context({ platform: call.platform, envId: call.envId, user: call.user, command: name })]);
    let plan: void | Plan;
    try {
      plan = await run(toOptions(params), ctx);
    } catch (error) {
      await this.end(ctx);
      throw error;
    }
    if (!plan) {
      await this.end(ctx);
      throw new Error(`${name}: the command printed instead of planning`);
    }
    return new LibraryPlan<R>(plan, ctx, documents, () => this.end(ctx));
  }

  async close(): Promise<void> {
    await Promise.all([...this.open].map((ctx) => this.end(ctx)));
  }

  /** The journal's entries, newest first (`ahs history`), a chunk read at a time. */
  history(params: HistoryParams): AsyncIterable<JournalEntry> {
    const session = this;
    const when = (name: string, value: Date | string | undefined): Date | undefined => {
      if (value === undefined) return undefined;
      const date = value instanceof Date ? value : new Date(value);
      if (Number.isNaN(date.getTime())) throw new UsageError(`history: ${name} must be a Date or an ISO 8601 date or timestamp (got ${String(value)})`);
      return date;
    };
    return {
      async *[Symbol.asyncIterator]() {
        const filter = { id: params.id, platform: params.platform, envId: params.envId, since: when('since', params.since), until: when('until', params.until), limit: params.limit };
        const { ctx } = await session.context();
        try {
          const [{ requireJournal }, { historyEntries }] = await Promise.all([import('../service/journal-setting.js'), import('../service/history.js')]);
          const journal = await requireJournal(ctx, 'history()');
          yield* historyEntries(ctx, journal, filter) as AsyncIterable<JournalEntry>;
        } finally {
          await session.end(ctx);
        }
      },
    };
  }
}

/** A Plan with the context it was made in: predicted and applied by the executor (src/plan/execute.ts). */
class LibraryPlan<R> implements PlannedWrite<R> {
  private applied = false;
  readonly steps: readonly PlanStep[];
  readonly unchanged?: Unchanged;

  constructor(
    private readonly plan: Plan,
    private readonly ctx: Context,
    private readonly documents: unknown[],
    private readonly end: () => Promise<void>,
  ) {
    // Copies: the executor's steps stay as the command made them.
    this.steps = plan.steps.map(({ id, kind, params, batch, after }) => structuredClone({ id, kind, params, ...(batch ? { batch } : {}), ...(after ? { after } : {}) }));
    if (plan.noop) this.unchanged = { changed: false, ...plan.noop };
  }

  async predict(): Promise<DryRunDocument | R> {
    this.refuseIfApplied('predict');
    const before = this.documents.length;
    try {
      await this.execute({ ...this.ctx, globals: { ...this.ctx.globals, dryRun: true } });
    } catch (error) {
      // A predicted rejection is the prediction: the document says what the service would answer.
      if (!(error instanceof PredictedRejection) || this.documents.length === before) throw error;
    }
    return this.documents.at(-1) as DryRunDocument | R;
  }

  async apply(): Promise<R> {
    this.refuseIfApplied('apply');
    this.applied = true;
    try {
      const before = this.documents.length;
      await this.execute(this.ctx);
      if (this.documents.length === before) throw new Error('the write printed no result');
      return this.documents.at(-1) as R;
    } finally {
      await this.end();
    }
  }

  private async execute(ctx: Context): Promise<void> {
    const { executePlan } = await import('../plan/execute.js');
    await executePlan(this.plan, ctx);
  }

  private refuseIfApplied(what: string): void {
    if (this.applied) throw new UsageError(`${what}: this plan was applied already; plan the write again (its reads would be stale)`);
  }
}

/**
 * The call's platform, as the command sees a --platform flag: verify takes
 * an ID with a sums file for an asset when the platform is given.
 */
function platformGiven(ctx: Context, platform: string): Context {
  return { ...ctx, globals: { ...ctx.globals, platform } };
}

/** `ahs verify` with the call's parameters; its differences are the answer, not an error. */
async function verify(session: Session, params: VerifyParams): Promise<VerifyResult> {
  const asset = params !== null && typeof params === 'object' && 'assetId' in params;
  if (asset) need('verify', params, ['assetId', 'platform', 'envId']);
  else need('verify', params as VerifyCollectionParams, ['collectionId', 'envId']);
  const path = asset ? params.file : (params as VerifyCollectionParams).dir;
  if ((path === undefined) === (params.sums === undefined)) throw new UsageError(`verify: give either ${asset ? 'file' : 'dir'} or sums`);
  const { PartialFailureError } = await import('../errors.js');
  return session.document<VerifyResult>(
    asset ? { platform: params.platform, envId: params.envId } : { envId: params.envId },
    () => import('../commands/verify/verify.js'),
    {
      id: asset ? params.assetId : (params as VerifyCollectionParams).collectionId,
      path,
      sums: params.sums,
      version: asset ? params.versionId : undefined,
      concurrency: asset ? undefined : (params as VerifyCollectionParams).concurrency,
      followLinks: asset ? undefined : flag((params as VerifyCollectionParams).followLinks),
    },
    (error) => error instanceof PartialFailureError,
  );
}

/** A rollout run, its status or its abort: the command's own run; a wait (exit 11) answers with the document. */
async function rollout(session: Session, mode: 'start' | 'status' | 'abort', params: RolloutParams): Promise<RolloutDocument> {
  const call = `rollout${mode === 'start' ? '' : mode === 'status' ? 'Status' : 'Abort'}`;
  need(call, params, ['assetId', 'platform']);
  if (!Array.isArray(params.waves) || params.waves.length === 0 || params.waves.some((env) => typeof env !== 'string' || env === '')) throw new UsageError(`${call}: waves is required: the environments in order, e.g. ['dev', 'staging', 'prod']`);
  const { WaitingError } = await import('../errors.js');
  return session.document<RolloutDocument>(
    { platform: params.platform, user: params.user },
    (mode === 'start' ? () => import('../commands/rollout/start.js') : mode === 'status' ? () => import('../commands/rollout/status.js') : () => import('../commands/rollout/abort.js')) as () => Promise<CommandModule<RolloutOptions>>,
    {
      assetId: params.assetId,
      versionId: params.versionId,
      name: params.name,
      waves: params.waves,
      soak: Object.entries(params.soak ?? {}).map(([env, duration]) => `${env}=${duration}`),
      check: params.check,
      approve: params.approve,
      approved: params.approved,
    },
    (error) => error instanceof WaitingError,
  );
}

/** A boolean flag as `run` receives it: true, or undefined when not given. */
function flag(value: boolean | undefined): true | undefined {
  return value ? true : undefined;
}

/** A `--no-x` flag as `run` receives it: false, or undefined when not given. */
function off(value: boolean | undefined): false | undefined {
  return value === false ? false : undefined;
}

/** A list of strings, none empty (files, type codes): named by the call when it is not. */
function strings(call: string, key: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw new UsageError(`${call}: ${key} must be a non-empty list of strings`);
  }
  return value as string[];
}

function paths(call: string, value: unknown): string[] {
  return strings(call, 'files', value);
}

/** Type codes as the command's --allowed-types takes them: comma-separated. */
function codes(call: string, value: unknown): string {
  return strings(call, 'allowedTypes', value).join(',');
}

/** One platform or several, as the command's --platform P[,P...] takes them. */
function platformList(call: string, value: string | string[] | undefined): string {
  if (typeof value === 'string' && value !== '') return value;
  return strings(call, 'platform', value).join(',');
}

/** The call's required parameters, named by the call when one is missing or empty. */
function need<P extends object>(call: string, params: P, required: ReadonlyArray<keyof P & string> = Object.keys(params) as Array<keyof P & string>): P {
  if (params === null || typeof params !== 'object') throw new UsageError(`${call}: expected an object of parameters`);
  for (const key of required) {
    const value = params[key];
    if (value === undefined || value === null || value === '') throw new UsageError(`${call}: ${key} is required`);
    if (typeof value !== 'string') throw new UsageError(`${call}: ${key} must be a string (got ${typeof value})`);
  }
  return params;
}

function checkOptions(options: ClientOptions): void {
  if (options === null || typeof options !== 'object') throw new UsageError('createClient: expected an object of settings, such as { baseUrl, domainId, apiKey, user }');
  if (options.fromEnvironment || options.profile !== undefined) return;
  for (const key of ['baseUrl', 'domainId'] as const) {
    if (!options[key]) throw new UsageError(`createClient: ${key} is required (or ask for the CLI's settings: { profile: 'NAME' } or { fromEnvironment: true })`);
  }
}
