// createClient: the CLI's capabilities as a typed library (cli.md, "In CI, and
// from code"). No second implementation: every write is the command's own
// `run` (src/commands/**) with a library Context (./context.ts), whose Plan
// the one executor predicts (--dry-run) or sends; its answer is the JSON
// document the command prints. Reads are the service reads the commands make
// (src/service/*.ts over src/http/paging.ts), yielded one by one.
import type { Context } from '../context.js';
import type { Plan } from '../plan/plan.js';
import { UsageError } from '../errors.js';
import { eventsOf, libraryContext, type CallSettings, type LibraryContext } from './context.js';
import type { ApiClient } from '../http/client.js';
import type { Query } from '../http/client.js';
import type { ResponseSchema } from '../http/responses.js';
import type {
  ApplyParams,
  CallOptions,
  HistoryParams,
  JournalEntry,
  Client,
  ClientEvent,
  ClientOptions,
  DesiredPlanDocument,
  DesiredStateParams,
  DryRunDocument,
  ListOptions,
  Page,
  PagedList,
  RawRequest,
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
      list: (options) => session.list(options, async (api) => ({ path: api.path('va') })),
      get: (assetId, opts) => session.readOne(opts, async (api) => (await import('../service/assets.js')).getAsset(api, need('assets.get', { assetId }).assetId)),
      create: (params, opts) =>
        session.plan(opts, 'assets.create', params, ['assetId', 'name', 'type'], { user: params.user }, async (ctx) =>
          (await import('../operations/assets.js')).createAsset(
            ctx,
            {
              assetId: params.assetId,
              assetName: params.name,
              assetType: params.type,
              description: params.description,
              secured: params.secured,
              localCacheControl: params.localCacheControl,
              localCacheMaxAge: params.localCacheMaxAge,
              user: await ctx.setting('user'),
            },
            parameterNames,
          ),
        ),
      update: (params, opts) =>
        session.plan(opts, 'assets.update', params, ['assetId'], { user: params.user }, async (ctx) => {
          const { assetId, name: assetName, type: assetType, description, localCacheControl, localCacheMaxAge, active } = params;
          const changes = { assetName, assetType, description, localCacheControl, localCacheMaxAge, active };
          const nothing = 'assets.update: nothing to update: give name, description, type, localCacheControl, localCacheMaxAge or active';
          const user = Object.values(changes).every((v) => v === undefined) ? '' : await ctx.setting('user');
          return (await import('../operations/assets.js')).updateAsset(ctx, { assetId, user, ...changes }, parameterNames, nothing);
        }),
      delete: (params, opts) =>
        session.plan(opts, 'assets.delete', params, ['assetId'], { user: params.user }, async (ctx) => (await import('../operations/assets.js')).deleteAsset(ctx, { assetId: params.assetId, user: await ctx.setting('user') })),
      // async: a bad platform list is a rejection, as every other bad parameter.
      undeploy: async (params, opts) => {
        const platforms = platformList('assets.undeploy', params.platform).split(',');
        return session.plan(opts, 'assets.undeploy', params, ['assetId', 'envId'], { user: params.user }, async (ctx) =>
          (await import('../operations/assets.js')).undeployAsset(ctx, { assetId: params.assetId, envId: params.envId, platforms }, parameterNames),
        );
      },
    },
    versions: {
      list: (assetId, options) =>
        session.list(options, async (api) => {
          const { assetPath } = await import('../service/assets.js');
          const { versionSchema } = await import('../rules/schemas.js');
          return { path: assetPath(api, need('versions.list', { assetId }).assetId, 'versions'), item: versionSchema };
        }),
      urls: (assetId, versionId, envId, options) =>
        session.list(options, async (api) => {
          need('versions.urls', { assetId, versionId, envId });
          const { assetUrlSchema } = await import('../rules/schemas.js');
          return { path: api.path('va', assetId, 'versions', versionId, 'asset-urls'), query: { envId }, item: assetUrlSchema };
        }),
      get: (assetId, versionId, opts) => session.readOne(opts, async (api) => (await import('../service/assets.js')).getVersion(api, assetId, need('versions.get', { assetId, versionId }).versionId)),
      upload: (params, opts) =>
        session.plan(opts, 'versions.upload', params, ['assetId', 'file', 'platform', 'name'], { platform: params.platform, user: params.user }, async (ctx) =>
          (await import('../operations/versions.js')).uploadVersion(
            ctx,
            { assetId: await checkedAssetId(params.assetId), file: params.file, platform: await ctx.setting('platform'), versionName: params.name, user: await ctx.setting('user') },
            parameterNames,
          ),
        ),
      delete: (params, opts) =>
        session.plan(opts, 'versions.delete', params, ['assetId', 'versionId'], {}, async (ctx) => (await import('../operations/versions.js')).deleteVersion(ctx, { assetId: await checkedAssetId(params.assetId), versionId: params.versionId })),
    },
    collections: {
      list: (options) => session.list(options, async (api) => ({ path: api.path('vc') })),
      get: (collectionId, opts) =>
        session.readOne(opts, async (api) => {
          const { readCollection } = await import('../service/collections.js');
          const { NotFoundError } = await import('../errors.js');
          const found = await readCollection(api, need('collections.get', { collectionId }).collectionId);
          if (!found) throw new NotFoundError(`collection ${collectionId} not found`);
          return found;
        }),
      create: (params, opts) =>
        session.write(opts, 'collections.create', params, ['collectionId', 'name'], { platform: params.platform, user: params.user }, () => import('../commands/collection/create.js'), (p) => ({
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
      update: (params, opts) =>
        session.write(opts, 'collections.update', params, ['collectionId'], { user: params.user }, () => import('../commands/collection/update.js'), (p) => ({
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
      delete: (params, opts) => session.write(opts, 'collections.delete', params, ['collectionId'], { user: params.user }, () => import('../commands/collection/delete.js'), (p) => ({ collectionId: p.collectionId })),
      restore: (params, opts) => session.write(opts, 'collections.restore', params, ['collectionId'], { user: params.user }, () => import('../commands/collection/restore.js'), (p) => ({ collectionId: p.collectionId })),
      purge: (params, opts) => session.write(opts, 'collections.purge', params, ['collectionId'], { user: params.user }, () => import('../commands/collection/purge.js'), (p) => ({ collectionId: p.collectionId })),
      deploy: (params, opts) =>
        session.write(opts, 'collections.deploy', params, ['collectionId'], { envId: params.envId, user: params.user }, () => import('../commands/collection-deploy/deploy.js'), (p) => ({
          collectionId: p.collectionId,
          state: p.state ?? 'LIVE',
          idempotent: flag(p.idempotent),
          reconcile: flag(p.reconcile),
        })),
      undeploy: (params, opts) =>
        session.write(opts, 'collections.undeploy', params, ['collectionId', 'envId'], { envId: params.envId, user: params.user }, () => import('../commands/collection/undeploy.js'), (p) => ({ collectionId: p.collectionId })),
    },
    items: {
      list: (collectionId, options) =>
        session.list(options, async (api) => {
          const { readNamingCollection, vcPath } = await import('../service/collections.js');
          need('items.list', { collectionId });
          // A missing collection is answered 400 on its items: named as not found by a read of the collection.
          return { path: vcPath(api, collectionId, 'items'), named: (read) => readNamingCollection(api, collectionId, read) };
        }),
      upload: (params, opts) =>
        session.write(opts, 'items.upload', params, ['collectionId'], { user: params.user }, () => import('../commands/item/upload.js'), (p) => ({
          collectionId: p.collectionId,
          files: paths('items.upload', p.files),
          type: p.type,
          name: p.name,
          concurrency: p.concurrency,
        })),
      remove: (params, opts) =>
        session.write(opts, 'items.remove', params, ['collectionId', 'itemId'], { user: params.user }, () => import('../commands/item/remove.js'), (p) => ({ collectionId: p.collectionId, itemId: p.itemId })),
      sync: (params, opts) =>
        session.write(opts, 'items.sync', params, ['collectionId', 'dir'], { user: params.user }, () => import('../commands/item/sync.js'), (p) => ({
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
    records: (assetId, filter = {}, opts) => session.whole(opts, async (api) => (await import('../service/assets.js')).listRecords(api, need('records', { assetId }).assetId, filter)),
    channel: (assetId, platform, envId, opts) =>
      session.whole(opts, async (api) => (await (await import('../service/assets.js')).readChannel(api, assetId, platform, need('channel', { assetId, platform, envId }).envId)).records),
    deploy: (params, opts) =>
      session.plan(opts, 'deploy', params, ['assetId', 'versionId', 'platform', 'envId'], params, async (ctx) =>
        (await import('../operations/channel.js')).deployVersion(
          ctx,
          { ...(await channelOf(ctx, params.assetId)), versionId: params.versionId, state: params.state ?? 'LIVE', idempotent: params.idempotent, user: await ctx.setting('user') },
          parameterNames,
        ),
      ),
    promoteDefault: (params, opts) =>
      session.plan(opts, 'promoteDefault', params, ['assetId', 'platform', 'envId'], params, async (ctx) => {
        const { checkPromoteSource, promoteDefault } = await import('../operations/channel.js');
        const { versionId, fromEnv, makeLive, expectCurrent, idempotent } = params;
        checkPromoteSource({ versionId, fromEnv, envId: params.envId }, parameterNames);
        if (versionId === undefined && fromEnv === undefined) throw new UsageError('promoteDefault: versionId (or fromEnv) is required');
        return promoteDefault(ctx, { ...(await channelOf(ctx, params.assetId)), versionId, fromEnv, makeLive, expectCurrent, idempotent, user: await ctx.setting('user') }, parameterNames);
      }),
    release: (params, opts) =>
      session.plan(opts, 'release', params, ['assetId', 'file', 'platform', 'envId', 'name'], params, async (ctx) =>
        (await import('../operations/release.js')).release(
          ctx,
          { ...(await channelOf(ctx, params.assetId)), file: params.file, versionName: params.name, state: params.state ?? 'DEFAULT', expectCurrent: params.expectCurrent, user: await ctx.setting('user') },
          parameterNames,
        ),
      ),
    rollback: (params, opts) =>
      session.plan(opts, 'rollback', params, ['assetId', 'platform', 'envId'], params, async (ctx) =>
        (await import('../operations/rollback.js')).rollback(ctx, { ...(await channelOf(ctx, params.assetId)), to: params.to, user: await ctx.setting('user') }),
      ),
    verify: (params, opts) => verify(session, params, opts),
    plan: (params: DesiredStateParams = {}, opts) => session.document<DesiredPlanDocument>(opts, { user: params.user }, () => import('../commands/plan/plan.js'), { file: params.file, target: params.target, out: undefined, detailedExitcode: undefined }),
    apply: (params: ApplyParams = {}, opts) =>
      session.write(opts, 'apply', params, [], { user: params.user }, () => import('../commands/apply/apply.js'), (p) => ({ plan: p.plan, file: p.file, target: p.target })),
    rollout: (params, opts) => rollout(session, 'start', params, opts),
    rolloutStatus: (params, opts) => rollout(session, 'status', params, opts),
    rolloutAbort: (params, opts) => rollout(session, 'abort', params, opts),
    history: (params = {}, opts) => session.history(params, opts),
    request: <T>(request: RawRequest, opts?: CallOptions) =>
      session.readOne(opts, async (api) => {
        const { method, path, query, body } = checkRequest(request);
        const { pathOf } = await import('../service/api-path.js');
        return api.json<T>({ method, path: pathOf(path, api.domainId ?? ''), query, body });
      }),
    close: () => session.close(),
  };
}

/** A command module: the CLI's `run` of one command. */
interface CommandModule<O> {
  run(options: O, ctx: Context): Promise<void | Plan>;
}

/** Where a list is read: its path, the schema of one result, and how a failure of its first read is named. */
interface ListSource {
  path: string;
  query?: Query;
  item?: ResponseSchema;
  /** Runs the first page's read (a missing collection answers 400 on its items: named as not found). */
  named?: <T>(read: () => Promise<T>) => Promise<T>;
}

/** The contexts of one client: each call gets its own (its settings, its documents); close() ends those still open. */
class Session {
  constructor(
    private readonly options: ClientOptions,
    private readonly open: Set<Context>,
  ) {}

  /** A call's context: the client's options with the call's own above them (its signal aborts it alone). */
  private async context(settings: CallSettings = {}, call: CallOptions = {}): Promise<LibraryContext> {
    const made = await libraryContext(withCallOptions(this.options, call), settings);
    this.open.add(made.ctx);
    return made;
  }

  private async end(ctx: Context): Promise<void> {
    this.open.delete(ctx);
    await ctx.dispose();
  }

  /** A list read lazily, page by page (http/paging.ts eachPage); toArray() without a limit reads it whole as --all does. */
  list<T>(options: ListOptions = {}, source: (api: ApiClient) => Promise<ListSource>): PagedList<T> {
    const session = this;
    const { pageSize, ...call } = checkListOptions(options);
    async function* pages(): AsyncGenerator<Page<T>, void, undefined> {
      const { ctx } = await session.context({}, call);
      try {
        const api = await ctx.api();
        const { path, query, item, named = (read) => read() } = await source(api);
        const { eachPage } = await import('../http/paging.js');
        const iterator = eachPage<T>(api, path, query, { pageSize, item });
        try {
          let next = await named(() => iterator.next());
          while (!next.done) {
            yield next.value;
            next = await iterator.next();
          }
        } finally {
          await iterator.return();
        }
      } finally {
        await session.end(ctx);
      }
    }
    const whole = async (): Promise<T[]> => {
      const { ctx } = await session.context({}, call);
      try {
        const api = await ctx.api();
        const { path, query, item, named = (read) => read() } = await source(api);
        const { fetchAll } = await import('../http/paging.js');
        return await named(() => fetchAll<T>(api, path, query, { pageSize, item }));
      } finally {
        await session.end(ctx);
      }
    };
    return pagedList(pages, whole);
  }

  /** A read whose answer is one merged list (two listings of records): one page. */
  whole<T>(call: CallOptions = {}, read: (api: ApiClient) => Promise<T[]>): PagedList<T> {
    const session = this;
    const all = async (): Promise<T[]> => session.readOne(call, read);
    async function* pages(): AsyncGenerator<Page<T>, void, undefined> {
      const results = await all();
      yield { pageNumber: 1, pageSize: results.length, totalResults: results.length, results };
    }
    return pagedList(pages, all);
  }

  async readOne<T>(call: CallOptions = {}, read: (api: ApiClient) => Promise<T>): Promise<T> {
    const { ctx } = await this.context({}, checkCallOptions(call));
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
  async document<D, O = unknown>(callOptions: CallOptions | undefined, call: CallSettings, load: () => Promise<CommandModule<O>>, options: O, answers?: (error: unknown) => boolean): Promise<D> {
    const { ctx, documents } = await this.context(call, checkCallOptions(callOptions));
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

  /** The operation's Plan (src/operations/), from its reads, as a PlannedWrite; nothing is sent yet. */
  async plan<P extends object, R>(
    callOptions: CallOptions | undefined,
    name: string,
    params: P,
    required: ReadonlyArray<keyof P & string>,
    call: CallSettings,
    operation: (ctx: Context) => Promise<Plan<R>>,
  ): Promise<PlannedWrite<R>> {
    need(name, params, required);
    const { ctx, documents } = await this.context({ platform: call.platform, envId: call.envId, user: call.user, command: name }, checkCallOptions(callOptions));
    let planned: Plan<R>;
    try {
      planned = await operation(ctx);
    } catch (error) {
      await this.end(ctx);
      throw error;
    }
    return new LibraryPlan<R>(planned, ctx, documents, () => this.end(ctx), eventsOf(this.options), true);
  }

  /** The command's Plan, from its reads, as a PlannedWrite; nothing is sent yet. */
  async write<P extends object, O, R>(
    callOptions: CallOptions | undefined,
    name: string,
    params: P,
    required: ReadonlyArray<keyof P & string>,
    call: CallSettings,
    load: () => Promise<CommandModule<O>>,
    toOptions: (params: P) => O,
  ): Promise<PlannedWrite<R>> {
    need(name, params, required);
    const [{ run }, { ctx, documents }] = await Promise.all([load(), this.context({ platform: call.platform, envId: call.envId, user: call.user, command: name }, checkCallOptions(callOptions))]);
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
    return new LibraryPlan<R>(plan, ctx, documents, () => this.end(ctx), eventsOf(this.options));
  }

  async close(): Promise<void> {
    await Promise.all([...this.open].map((ctx) => this.end(ctx)));
  }

  /** The journal's entries, newest first (`ahs history`), a chunk read at a time. */
  history(params: HistoryParams, call?: CallOptions): AsyncIterable<JournalEntry> {
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
        const { ctx } = await session.context({}, checkCallOptions(call));
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
    private readonly emit: (event: ClientEvent) => void = () => {},
    /** An operation's plan: its `done` is the result (a command's prints it, taken from the documents). */
    private readonly typed = false,
  ) {
    // Copies: the executor's steps stay as the command made them.
    this.steps = plan.steps.map(({ id, kind, params, batch, after }) => structuredClone({ id, kind, params, ...(batch ? { batch } : {}), ...(after ? { after } : {}) }));
    if (plan.noop) this.unchanged = { changed: false, ...plan.noop };
    // A multi-step write whose every stage is done (a release run again) plans no step: nothing to send either.
    else if (plan.steps.length === 0) this.unchanged = { changed: false, state: null, message: 'nothing to send: the service already holds what this write asks for' };
  }

  async predict(): Promise<DryRunDocument | R> {
    this.refuseIfApplied('predict');
    const before = this.documents.length;
    try {
      await this.execute({ ...this.ctx, globals: { ...this.ctx.globals, dryRun: true } });
    } catch (error) {
      // A predicted rejection is the prediction: the document says what the service would answer.
      // (Loaded here: plan/dryrun.ts brings the rules and zod, which an import of the library must not.)
      const { PredictedRejection } = await import('../plan/dryrun.js');
      if (!(error instanceof PredictedRejection) || this.documents.length === before) throw error;
    }
    return this.documents.at(-1) as DryRunDocument | R;
  }

  async apply(): Promise<R> {
    this.refuseIfApplied('apply');
    this.applied = true;
    try {
      const before = this.documents.length;
      const result = await this.execute(this.ctx, this.withStepEvents());
      if (this.plan.noop) return { changed: false, ...this.plan.noop } as R;
      if (this.typed) return result as R;
      if (this.documents.length === before) throw new Error('the write printed no result');
      return this.documents.at(-1) as R;
    } finally {
      await this.end();
    }
  }

  private async execute(ctx: Context, plan: Plan = this.plan): Promise<unknown> {
    const { executePlan } = await import('../plan/execute.js');
    return executePlan(plan, ctx);
  }

  /** The plan, telling the caller's onEvent of each step as its answer comes (or it fails). */
  private withStepEvents(): Plan {
    const { plan, emit } = this;
    return {
      ...plan,
      onAnswer(step, results) {
        plan.onAnswer?.(step, results);
        emit({ type: 'step', id: step.id, kind: step.kind, outcome: 'done' });
      },
      onFailure(step, failure) {
        plan.onFailure?.(step, failure);
        emit({ type: 'step', id: step.id, kind: step.kind, outcome: 'failed' });
      },
    };
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
async function verify(session: Session, params: VerifyParams, call?: CallOptions): Promise<VerifyResult> {
  const asset = params !== null && typeof params === 'object' && 'assetId' in params;
  if (asset) need('verify', params, ['assetId', 'platform', 'envId']);
  else need('verify', params as VerifyCollectionParams, ['collectionId', 'envId']);
  const path = asset ? params.file : (params as VerifyCollectionParams).dir;
  if ((path === undefined) === (params.sums === undefined)) throw new UsageError(`verify: give either ${asset ? 'file' : 'dir'} or sums`);
  const { PartialFailureError } = await import('../errors.js');
  return session.document<VerifyResult>(
    call,
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
async function rollout(session: Session, mode: 'start' | 'status' | 'abort', params: RolloutParams, callOptions?: CallOptions): Promise<RolloutDocument> {
  const call = `rollout${mode === 'start' ? '' : mode === 'status' ? 'Status' : 'Abort'}`;
  need(call, params, ['assetId', 'platform']);
  if (!Array.isArray(params.waves) || params.waves.length === 0 || params.waves.some((env) => typeof env !== 'string' || env === '')) throw new UsageError(`${call}: waves is required: the environments in order, e.g. ['dev', 'staging', 'prod']`);
  const { WaitingError } = await import('../errors.js');
  return session.document<RolloutDocument>(
    callOptions,
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

/** A field of the service's API as the library's caller gives it (validation messages name the parameter). */
const PARAMETERS: Record<string, string> = {
  createdBy: 'user',
  updatedBy: 'user',
  deletedBy: 'user',
  assetName: 'name',
  assetType: 'type',
  versionName: 'name',
  collectionName: 'name',
  targetPlatforms: 'platform',
  targetPlatform: 'platform',
  itemName: 'name',
  itemType: 'type',
};

function parameterNames(field: string): string {
  return PARAMETERS[field] ?? field;
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

/** A lazy list over its pages; `whole` reads it at once for toArray() without a limit. */
function pagedList<T>(pages: () => AsyncGenerator<Page<T>, void, undefined>, whole: () => Promise<T[]>): PagedList<T> {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.results;
    },
    pages,
    async toArray({ limit }: { limit?: number } = {}) {
      if (limit === undefined) return whole();
      if (!Number.isInteger(limit) || limit < 0) throw new UsageError(`toArray: limit must be a whole number of at least 0 (got ${String(limit)})`);
      const taken: T[] = [];
      if (limit === 0) return taken;
      for await (const page of pages()) {
        taken.push(...page.results.slice(0, limit - taken.length));
        if (taken.length >= limit) break;
      }
      return taken;
    },
  };
}

/** The client's options with one call's above them: its own budget, and a signal that aborts this call alone. */
function withCallOptions(options: ClientOptions, call: CallOptions): ClientOptions {
  const signals = [options.signal, call.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  return {
    ...options,
    ...(call.timeoutMs !== undefined ? { timeoutMs: call.timeoutMs } : {}),
    ...(call.retries !== undefined ? { retries: call.retries } : {}),
    ...(signals.length > 0 ? { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) } : {}),
  };
}

function checkCallOptions(call: CallOptions | undefined): CallOptions {
  if (call === undefined) return {};
  if (call === null || typeof call !== 'object') throw new UsageError('expected the call\'s options as an object, such as { signal, timeoutMs, retries }');
  if (call.signal !== undefined && !(call.signal instanceof AbortSignal)) throw new UsageError('signal must be an AbortSignal');
  if (call.timeoutMs !== undefined && !(typeof call.timeoutMs === 'number' && call.timeoutMs > 0)) throw new UsageError(`timeoutMs must be a number of milliseconds above 0 (got ${String(call.timeoutMs)})`);
  if (call.retries !== undefined && !(Number.isInteger(call.retries) && call.retries >= 0)) throw new UsageError(`retries must be a whole number of at least 0 (got ${String(call.retries)})`);
  return call;
}

function checkListOptions(options: ListOptions): ListOptions {
  checkCallOptions(options);
  const { pageSize } = options;
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) throw new UsageError(`pageSize must be a whole number above 0 (got ${String(pageSize)})`);
  return options;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function checkRequest(request: RawRequest): RawRequest {
  if (request === null || typeof request !== 'object') throw new UsageError('request: expected { method, path, query?, body? }');
  if (typeof request.method !== 'string' || !METHODS.includes(request.method.toUpperCase())) throw new UsageError(`request: method must be one of ${METHODS.join(', ')} (got ${String(request.method)})`);
  if (typeof request.path !== 'string' || request.path === '') throw new UsageError('request: path is required (va/..., vc/..., or /api/v2/...)');
  return { ...request, method: request.method.toUpperCase() as RawRequest['method'] };
}

/**
 * The channel of a call (asset, platform, environment) as its context resolved
 * it (the call's platform and envId, as the CLI's --platform and --env), its
 * asset id checked as the CLI checks ASSET_ID.
 */
async function channelOf(ctx: Context, assetId: string): Promise<{ assetId: string; platform: string; envId: string }> {
  return { assetId: await checkedAssetId(assetId), platform: await ctx.setting('platform'), envId: await ctx.setting('envId') };
}

async function checkedAssetId(assetId: string): Promise<string> {
  const { assetId: schema, validate } = await import('../rules/schemas.js');
  const checked = validate(schema, assetId, () => 'assetId');
  if (!checked.ok) throw new UsageError(checked.messages.join('; '));
  return assetId;
}
