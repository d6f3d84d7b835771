// The executor's change-control hook (src/plan/execute.ts calls it once per
// plan, for the CLI and the library alike): what the plan's steps write
// (channels, collections in an environment) and which versions they make
// LIVE or DEFAULT; one round of reads (src/service/change-control.ts) and
// the rules' decision (src/rules/change-control.ts). A lock another holder
// has, a freeze, a blocked version: BlockedError (exit 12), nothing sent.
// A command that holds its scope's lock for its duration (apply, rollout,
// release, item sync, collection-deploy) takes it here, renews it while the
// plan runs and releases it after, unless the run came with its own
// (--lock-id / AHS_LOCK_ID), which it renews and leaves held.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { AhsError, ApiError, BlockedError, UsageError } from '../errors.js';
import { cellsToRead, decideWrite, holderOf, describeWindow, isLockId, isRunLock, parseScope, RUN_LOCK_PREFIX, scopeText, type ControlFacts, type Scope, type WriteIntent } from '../rules/change-control.js';
import { formatDuration, parseDuration } from '../rules/rollout.js';
import { acquireLock, dropLockVersion, freeVersion, LeaseKeeper, lockBlocked, readBlock, readControlFacts, releaseHeld, sweepCell, type HeldLock } from '../service/change-control.js';
import type { ControlField } from '../service/journal.js';
import { isRef, type Plan, type Step } from './plan.js';
import type { PlanContext } from './context.js';

/** What the gate needs of a context: the executor's (src/plan/execute.ts ExecutorContext). */
type ExecutorContext = Pick<PlanContext, 'api' | 'output' | 'signal' | 'globals' | 'confirm' | 'progress' | 'multiProgress' | 'io'> &
  Partial<Pick<PlanContext, 'settings' | 'deliveryClient' | 'run' | 'redactor'>>;

/**
 * The commands that take their scope's lock for their duration (cli.md),
 * when the run coordinates through locks: given --lock-id / AHS_LOCK_ID,
 * --lock-timeout or --lock-ttl (coordinates() below). Taken by every run,
 * a lease cost a release 5 rounds more than its floor of 4 (2.3x) and an
 * item sync of 10 files 4x (npm run bench), and five identical rollouts at
 * once met each other's live leases (exit 12 where 0 or 11 is the
 * rollout's state): every write still refuses another holder's lock, and
 * a run that nobody coordinates with gains nothing from taking one. A
 * holding run takes a lease of its own (`run-` id, DEFAULT_RUN_TTL_MS or
 * --lock-ttl), renewed every third of it while the plan runs, released when
 * it ends. A killed run's lease ends by itself within the TTL, and a re-run
 * (any write) watches such a lease instead of refusing at once: renewed, its
 * holder is alive (exit 12); ended, the run goes on (the design is in
 * src/rules/change-control.ts, "a run's own lock"). Given --lock-id (the
 * lock it holds already) a run renews that lock and leaves it held.
 */
const HOLDERS = new Set(['apply', 'rollout', 'rollout start', 'release', 'item sync', 'collection-deploy']);
/** The steps that change no channel or collection: sent while a run's lock is being taken (a release's upload). */
const BESIDE_THE_LOCK = new Set(['version.upload', 'asset.create', 'asset.update', 'collection.create']);
/** The commands a freeze lets through: the ways out of an incident. */
const FREEZE_EXEMPT = new Set(['rollback', 'rollout abort', 'version unblock']);
/** The lease of `ahs lock acquire` (--ttl): a job's lock, not renewed by the process that took it. */
export const DEFAULT_TTL_MS = 15 * 60_000;
/** A run's own lock: short, so that a killed run's ends soon; renewed every third of it while the run goes (--lock-ttl). */
export const DEFAULT_RUN_TTL_MS = 15_000;

type P = Record<string, any>;

/** The scopes and promotions of one step; `env` is the run's environment setting (for writes that name none). */
export function intentOf(step: Step, env: string | undefined): { scopes: Scope[]; promotes: WriteIntent['promotes'] } {
  const p = step.params as P;
  const concrete = (value: unknown): value is string => typeof value === 'string';
  switch (step.kind) {
    case 'version.deploy': {
      const envId = p.body?.envId;
      if (!concrete(envId) || !concrete(p.assetId) || !concrete(p.platform)) return { scopes: [], promotes: [] };
      const promotes = (p.body?.intent === 'LIVE' || p.body?.intent === 'DEFAULT') && concrete(p.versionId) ? [{ assetId: p.assetId, versionId: p.versionId }] : [];
      return { scopes: [{ kind: 'channel', assetId: p.assetId, platform: p.platform, env: envId }], promotes };
    }
    case 'version.promote': {
      if (!concrete(p.envId) || !concrete(p.assetId) || !concrete(p.platform)) return { scopes: [], promotes: [] };
      return { scopes: [{ kind: 'channel', assetId: p.assetId, platform: p.platform, env: p.envId }], promotes: concrete(p.versionId) && !isRef(p.versionId) ? [{ assetId: p.assetId, versionId: p.versionId }] : [] };
    }
    case 'asset.undeploy': {
      const envId = p.body?.envId;
      const platforms: unknown[] = Array.isArray(p.body?.targetPlatforms) ? p.body.targetPlatforms : [];
      if (!concrete(envId) || !concrete(p.assetId)) return { scopes: [], promotes: [] };
      return { scopes: platforms.filter(concrete).map((platform) => ({ kind: 'channel', assetId: p.assetId, platform, env: envId })), promotes: [] };
    }
    case 'collection.deploy':
    case 'collection.undeploy':
    case 'collection.reconcile':
    case 'collection.update':
    case 'collection.delete':
    case 'collection.restore':
    case 'collection.purge':
    case 'item.upload':
    case 'item.remove':
    case 'item.converge': {
      const envId = concrete(p.envId) ? p.envId : env;
      if (!concrete(p.collectionId) || !envId) return { scopes: [], promotes: [] };
      return { scopes: [{ kind: 'collection', collectionId: p.collectionId, env: envId }], promotes: [] };
    }
    case 'api.request':
      return rawRequestIntent(p, env);
    default:
      return { scopes: [], promotes: [] };
  }
}

/**
 * What a raw request (`ahs api`) writes, from its path, query and body: a
 * channel when it names the environment (`envId`) and the platform
 * (`targetPlatformId`, as the deploy endpoint takes it), else the whole
 * environment it names under /va (every lock and freeze of it applies); a
 * collection in the environment it names (or the run's) under /vc; a
 * version it deploys LIVE or DEFAULT. A path that names no environment
 * writes none (an asset's own fields).
 */
function rawRequestIntent(p: P, env: string | undefined): { scopes: Scope[]; promotes: WriteIntent['promotes'] } {
  const url = typeof p.path === 'string' ? requestUrl(p.path) : undefined;
  const segments = (url?.pathname ?? '').replace(/^\/api\/v2\/[^/]+\//, '').split('/').map((part: string) => safeDecode(part));
  const inPath = url?.searchParams ?? new URLSearchParams();
  const given = (name: string) => [p.body?.[name], p.query?.[name], inPath.get(name)].find((value): value is string => typeof value === 'string' && value !== '');
  const named = given('envId');
  const [root, id, child, versionId, action] = segments;
  if (root === 'va' && id && named) {
    const promotes = child === 'versions' && versionId && action === 'deploy' && (p.body?.intent === 'LIVE' || p.body?.intent === 'DEFAULT') ? [{ assetId: id, versionId }] : [];
    const platform = given('targetPlatformId');
    return { scopes: [platform ? { kind: 'channel', assetId: id, platform, env: named } : { kind: 'env', env: named }], promotes };
  }
  const collectionEnv = named ?? env;
  if (root === 'vc' && id && collectionEnv) return { scopes: [{ kind: 'collection', collectionId: id, env: collectionEnv }], promotes: [] };
  return { scopes: [], promotes: [] };
}

/**
 * The path and query a raw request is sent to, as the API client makes its
 * URL (the base URL and the path): its dot segments resolved, its query all
 * that follows the first `?` (a later `?` is the query's own), its fragment
 * not sent. Undefined for a path no URL is made of.
 */
function requestUrl(path: string): URL | undefined {
  const text = `http://ahs.invalid${path}`;
  return URL.canParse(text) ? new URL(text) : undefined;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** What a plan writes, merged over its steps. */
export function planIntent(plan: Plan, env: string | undefined): { scopes: Scope[]; promotes: WriteIntent['promotes'] } {
  const scopes = new Map<string, Scope>();
  const promotes = new Map<string, WriteIntent['promotes'][number]>();
  for (const step of plan.steps) {
    const intent = intentOf(step, env);
    for (const scope of intent.scopes) scopes.set(scopeText(scope), scope);
    for (const promote of intent.promotes) promotes.set(`${promote.assetId}/${promote.versionId}`, promote);
  }
  return { scopes: [...scopes.values()], promotes: [...promotes.values()] };
}

/** The scope a holding command locks: its one channel or collection, or (several) each environment it writes. */
export function holdScopes(scopes: Scope[]): Scope[] {
  if (scopes.length <= 1) return scopes;
  const envs = [...new Set(scopes.map((s) => s.env))];
  return envs.map((env) => ({ kind: 'env', env }));
}

/** The run's --lock-id or AHS_LOCK_ID, checked. */
export function givenLockId(ctx: Pick<ExecutorContext, 'globals' | 'io'>): string | undefined {
  const id = ctx.globals.lockId ?? (ctx.io.env.AHS_LOCK_ID || undefined);
  if (id !== undefined && !isLockId(id)) throw new UsageError(`--lock-id ${JSON.stringify(id)} is not a lock id: use the one ahs lock acquire printed (6 to 32 lower-case letters, digits and dashes)`);
  return id;
}

/** Whether the run coordinates through locks (HOLDERS): it names its lock, a wait for another's, or its own lease. */
export function coordinates(ctx: Pick<ExecutorContext, 'globals' | 'io'>): boolean {
  return givenLockId(ctx) !== undefined || ctx.globals.lockTimeout !== undefined || ctx.globals.lockTtl !== undefined;
}

/** The id of a run's own lock. */
export function newRunLockId(): string {
  return `${RUN_LOCK_PREFIX}${randomBytes(6).toString('hex')}`;
}

/** --lock-ttl as ms: the lease of the lock a run takes for itself. */
export function runTtlMs(ctx: Pick<ExecutorContext, 'globals'>): number {
  const given = ctx.globals.lockTtl;
  if (given === undefined) return DEFAULT_RUN_TTL_MS;
  const ms = parseDuration(given);
  if (ms === undefined || ms < 1000) throw new UsageError(`--lock-ttl ${JSON.stringify(given)} is not a lease: give a duration of 1s or more, such as 15s`);
  return ms;
}

/** --lock-timeout as ms (0 when not given): within --timeout. */
export function lockTimeoutMs(ctx: Pick<ExecutorContext, 'globals'>): number {
  const given = ctx.globals.lockTimeout;
  if (given === undefined) return 0;
  // 0s as Terraform's -lock-timeout=0s: no wait (a duration elsewhere must be more than nothing).
  const ms = /^\s*0+(\.0+)?(ms|s|m|h|d)?\s*$/i.test(given) ? 0 : parseDuration(given);
  if (ms === undefined) throw new UsageError(`--lock-timeout ${JSON.stringify(given)} is not a duration: give it as 0s, 30s, 5m or 1h`);
  const budget = (ctx.globals.timeout ?? Number.POSITIVE_INFINITY) * 1000;
  return Math.min(ms, budget);
}

/** Reads started beside a command's first reads, by the API client they go through. */
const prefetched = new WeakMap<object, { key: string; facts: Promise<ControlFacts> }>();

function cellsKey(scopes: Scope[]): string {
  return cellsToRead(scopes).map(scopeText).sort().join(' ');
}

/**
 * Starts the reads of change control for a write on `scopes` now, beside
 * the command's own first reads (release, promote-default, rollback, deploy
 * --idempotent), so that the check costs no round of its own: the gate
 * takes them when the plan it runs writes the same scopes.
 */
export async function prefetchControl(ctx: Pick<PlanContext, 'api' | 'globals'>, scopes: Scope[]): Promise<void> {
  const api = await ctx.api();
  const facts = readControlFacts(api, scopes);
  facts.catch(() => undefined);
  prefetched.set(api, { key: cellsKey(scopes), facts });
}

/**
 * Before a question whose answer only shapes a write (promote-default's
 * offer of --make-live): the reads started by prefetchControl, decided now,
 * so that a person is not asked about a write change control refuses (the
 * gate decides again when the plan runs). Only what waiting would not
 * lift: a freeze, a blocked version, another holder's lock when the run
 * gives no --lock-timeout and the holder is not a run's own lease (which
 * the gate watches); with --dry-run the gate says it. Without prefetched
 * reads, nothing is read here.
 */
export async function refuseBeforeAsking(ctx: ExecutorContext, scopes: Scope[], promotes: WriteIntent['promotes']): Promise<void> {
  if (ctx.globals.dryRun || !ctx.settings) return;
  const api = await ctx.api();
  const early = prefetched.get(api);
  if (!early || early.key !== cellsKey(scopes)) return;
  const facts = await early.facts.catch(() => undefined);
  if (!facts) return;
  const decision = decideWrite(facts, await writeIntent(ctx, { scopes, promotes }, FREEZE_EXEMPT.has(ctx.run?.command ?? '')));
  if (decision.ok) return;
  if (decision.blockedBy === 'lock' && (lockTimeoutMs(ctx) > 0 || isRunLock(decision.holder.lockId))) return;
  throw await explain(decision, ctx, api, facts);
}

/**
 * What would refuse a write now (a freeze, a blocked version, another
 * holder's lock), decided as the gate decides it but without waiting,
 * holding or sending anything: `rollout status` and a rollout's --dry-run
 * say the block a run would meet at the wave it promotes next.
 */
export async function blockOf(ctx: ExecutorContext, intent: Pick<WriteIntent, 'scopes' | 'promotes'>, command: string, read?: Promise<ControlFacts>): Promise<BlockedError | undefined> {
  if (intent.scopes.length === 0 || !ctx.settings) return undefined;
  const api = await ctx.api();
  // `read`: facts read already (beside a status's own reads); a lock cell they lack decides nothing.
  const facts = await (read ?? factsFor(api, intent.scopes));
  const decision = decideWrite(facts, await writeIntent(ctx, intent, FREEZE_EXEMPT.has(command)));
  return decision.ok ? undefined : explain(decision, ctx, api, facts);
}

/** What change control decides a write on: its scopes and promotions, the run's lock (given, or its CI job's), the freeze's exemption, --break-glass. */
async function writeIntent(ctx: Pick<ExecutorContext, 'globals' | 'io'>, intent: Pick<WriteIntent, 'scopes' | 'promotes'>, freezeExempt: boolean): Promise<WriteIntent> {
  const lockId = givenLockId(ctx);
  const ciLockId = (await import('../service/change-control.js')).ciSelfId(ctx.io.env);
  return { ...intent, ...(lockId ? { lockId } : {}), ...(ciLockId ? { ciLockId } : {}), freezeExempt, breakGlass: ctx.globals.breakGlass === true };
}

async function factsFor(api: Awaited<ReturnType<ExecutorContext['api']>>, scopes: Scope[]): Promise<ControlFacts> {
  const early = prefetched.get(api);
  prefetched.delete(api);
  if (early && early.key === cellsKey(scopes)) return early.facts;
  return readControlFacts(api, scopes);
}

/** A gated run: the context it runs with, the plan (its journal entry carrying what change control did), and what ends it. */
export interface Gate<R> {
  plan: Plan<R>;
  ctx: ExecutorContext;
  end(): Promise<void>;
  /** Awaited before a step (or a batch) is sent: the run's lock is held before anything that writes its scope. */
  before?: (steps: Step[]) => Promise<void>;
}

/**
 * The check of a plan before anything is sent: reads (one round), decides,
 * throws BlockedError when blocked (with --dry-run too: after saying so).
 * A holding command also takes its lock here. Answers the gated run.
 */
export async function gate<R>(plan: Plan<R>, ctx: ExecutorContext): Promise<Gate<R>> {
  const open: Gate<R> = { plan, ctx, end: async () => undefined };
  // A context without settings (a test's fake executor context) has no service to ask, as it has no journal.
  if (plan.steps.length === 0 || plan.control?.skip || !ctx.settings) return open;
  if (ctx.globals.breakGlass && !ctx.globals.reason) throw new UsageError('--break-glass needs --reason R: the reason is recorded in the journal with the write');
  const settings = ctx.settings ? await ctx.settings().catch(() => undefined) : undefined;
  const env = settings?.get('envId');
  const intent = planIntent(plan, env);
  if (intent.scopes.length === 0) return open;
  const started = Date.now();
  const budgetMs = settings?.timeoutMs ?? 30_000;
  const command = plan.control?.command ?? ctx.run?.command ?? '';
  const lockId = givenLockId(ctx);
  const api = await ctx.api();
  const { watchLock } = await import('../service/change-control.js');
  const write = await writeIntent(ctx, intent, plan.control?.freezeExempt ?? FREEZE_EXEMPT.has(command));
  const holds = !ctx.globals.dryRun && (plan.control?.hold ?? (HOLDERS.has(command) && coordinates(ctx)));
  const reader = { settings: ctx.settings!, deliveryClient: ctx.deliveryClient! };
  // The scopes a holding run locks: those its given lock holds (renewed, left held), else its own (taken, released).
  const givenScopes = (read: ControlFacts) => (lockId ? read.cells.filter((cell) => holderOf(cell, read.now)?.lockId === lockId).map((cell) => cell.scope) : []);
  const takes = (read: ControlFacts) => (givenScopes(read).length > 0 ? givenScopes(read) : holdScopes(intent.scopes));
  let facts = await factsFor(api, intent.scopes);
  let decision = decideWrite(facts, write);
  for (let watched = 0; !decision.ok; watched++) {
    // A lock this run will take waits there (--lock-timeout, or another run's lease that may be a dead one's).
    const blockedScope = decision.blockedBy === 'lock' ? scopeText(decision.scope) : undefined;
    if (blockedScope && holds && takes(facts).some((scope) => scopeText(scope) === blockedScope)) break;
    // Another lock on what it writes (a covering environment's, or any for a write that takes none): waited for with
    // --lock-timeout; another run's lease that may end within --timeout is watched (a dead holder's is waited out, a live one refuses).
    const cell = blockedScope ? facts.cells.find((c) => scopeText(c.scope) === blockedScope) : undefined;
    const explicitMs = lockTimeoutMs(ctx) - (Date.now() - started);
    if (cell && decision.blockedBy === 'lock' && !ctx.globals.dryRun && watched < 20 && (explicitMs > 0 || isRunLock(decision.holder.lockId))) {
      if (watched === 0) (await ctx.output()).info(`${blockedScope} is locked by another run (lock id ${decision.holder.lockId}, lease ends ${new Date(decision.holder.leaseEnd).toISOString()}): waiting ${explicitMs > 0 ? `up to ${ctx.globals.lockTimeout} (--lock-timeout)` : 'to see whether it renews it (a killed run\'s lease ends by itself)'}`);
      await watchLock(reader, api, cell, budgetMs - (Date.now() - started), ctx.signal, Math.max(0, explicitMs));
      facts = await readControlFacts(api, intent.scopes);
      decision = decideWrite(facts, write);
      continue;
    }
    const blocked = await explain(decision, ctx, api, facts);
    if (ctx.globals.dryRun) (await ctx.output()).warn(`a real run would be refused: ${blocked.message}`);
    throw blocked;
  }
  let control: ControlField | undefined;
  if (decision.ok && decision.brokenFreezes.length > 0) {
    control = { action: 'break-glass', target: decision.brokenFreezes.map((f) => f.env).join(','), reason: ctx.globals.reason!, freezes: decision.brokenFreezes.map((f) => ({ env: f.env, window: describeWindow(f.window) })) };
    (await ctx.output()).warn(`--break-glass: going through the freeze of ${decision.brokenFreezes.map((f) => `${f.env} (${describeWindow(f.window)})`).join(', ')}; recorded with the reason "${ctx.globals.reason}"`);
  }
  const recorded = control ? { ...plan, journal: { ...plan.journal, control } } : plan;
  if (!holds) return { ...open, plan: recorded };
  // A run given its lock renews the locks that id holds (an env lock taken by `ahs lock acquire prod`) and takes no other;
  // given an id that holds none of them (its lease ended), it takes its own.
  const given = givenScopes(facts).length > 0 ? lockId : undefined;
  return hold(recorded, ctx, api, takes(facts), given, command, budgetMs - (Date.now() - started), facts);
}

/**
 * Takes (or renews) the run's lock on each scope, keeps it renewed while the
 * plan runs (every third of the lease), and releases what it took when the
 * plan ends. `given`: the run's --lock-id, renewed and left held.
 */
async function hold<R>(plan: Plan<R>, ctx: ExecutorContext, api: Awaited<ReturnType<ExecutorContext['api']>>, scopes: Scope[], given: string | undefined, command: string, watchMs: number, facts: ControlFacts): Promise<Gate<R>> {
  const settings = ctx.settings ? await ctx.settings() : undefined;
  const user = settings?.get('user') ?? '';
  const lockId = given ?? newRunLockId();
  const ttlMs = plan.control?.ttlMs ?? runTtlMs(ctx);
  const controller = new AbortController();
  // Every request of the run listens to this signal (more than 10 at once: an apply's uploads): no leak (as main()'s).
  setMaxListeners(0, controller.signal);
  const follow = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) follow();
  else ctx.signal.addEventListener('abort', follow, { once: true });
  const reader = { settings: ctx.settings!, deliveryClient: ctx.deliveryClient! };
  const out = await ctx.output();
  const keepers: LeaseKeeper[] = [];
  // Housekeeping beside the run (former leases deleted, the cell's free version found): never on its path.
  const chores: Array<Promise<unknown>> = [];
  const frees = new Map<string, Promise<string | undefined>>();
  const tidy = (held: HeldLock) => {
    if (held.replaced) chores.push(dropLockVersion(api, held.scope, held.replaced, user));
  };
  const take = (scope: Scope, wait: boolean) =>
    acquireLock(reader, api, {
      scope,
      ...(wait ? { first: facts.cells.find((cell) => scopeText(cell.scope) === scopeText(scope)) } : {}),
      lockId,
      ttlMs,
      user,
      command,
      env: ctx.io.env,
      ...(ctx.globals.reason ? { reason: ctx.globals.reason } : {}),
      waitMs: wait ? lockTimeoutMs(ctx) : 0,
      watchMs: wait ? watchMs : 0,
      signal: ctx.signal,
      onWait: () => out.info(`${scopeText(scope)} is locked by another run: waiting for it (--lock-timeout ${ctx.globals.lockTimeout})`),
      onWatch: (holder) => out.info(`${scopeText(scope)} is locked by another run (lock id ${holder.lockId}, lease ends ${new Date(holder.leaseEnd).toISOString()}): waiting to see whether it renews it (a killed run's lease ends by itself)`),
    });
  const release = async () => {
    await Promise.all(keepers.map((keeper) => keeper.stop()));
    ctx.signal.removeEventListener('abort', follow);
    if (!given) {
      await Promise.all(
        keepers.map(async (keeper) => {
          const free = await frees.get(scopeText(keeper.lock.scope));
          await releaseHeld(api, keeper.lock, user, free).catch((error: unknown) => out.warn(`the lock on ${scopeText(keeper.lock.scope)} was not released (${(error as Error).message}); its lease ends by itself within ${formatDuration(ttlMs)}`));
        }),
      );
    }
    await Promise.all(chores);
  };
  const acquire = async () => {
    for (const scope of scopes) {
      let held: HeldLock;
      try {
        held = await take(scope, true);
      } catch (error) {
        // The service refused the lock's own records (an environment it does not know, a key scoped to another
        // environment): the run's writes there meet the same refusal, in their own words, so they are not stopped
        // here; said, and the run goes on without this lock. Another holder (BlockedError), a failed read or a
        // lost answer (exit 6) stop the run.
        if (!(error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 409)) throw error;
        out.warn(`the lock on ${scopeText(scope)} could not be taken (the service answered ${error.status}: ${error.message}); going on without it`);
        continue;
      }
      tidy(held);
      if (!given) {
        // The cell's free version, for the release: found by the sweep, or made now (a first use), beside the run.
        const sweep = sweepCell(api, scope, user, new Set([held.versionId])).then((found) => found ?? freeVersion(api, scope, user).catch(() => undefined));
        frees.set(scopeText(scope), sweep);
        chores.push(sweep);
      }
      keepers.push(
        new LeaseKeeper(
          held,
          async (lock) => {
            const next = await take(lock.scope, false);
            tidy(next);
            return next;
          },
          ttlMs,
          (error) => {
            const lost = error instanceof BlockedError ? error : new BlockedError(`the lock on ${scopeText(held.scope)} could not be renewed (${error.message}); the run stopped before its next write`, 'lock');
            controller.abort(lost);
          },
        ),
      );
    }
    // Said when the run goes through the lock it was given (--lock-id); a run's own short lease goes unsaid.
    if (given) out.info(`holding the lock on ${scopes.map(scopeText).join(', ')} (${given ? `lock id ${lockId}, given` : `lease ${formatDuration(ttlMs)}, renewed while the run goes`})`);
  };
  // Taken beside the plan's first steps that write no scope (a release's upload), awaited before the first that does.
  const acquiring = acquire();
  acquiring.catch(() => undefined);
  const before = async (steps: Step[]) => {
    if (steps.some((step) => !BESIDE_THE_LOCK.has(step.kind))) await acquiring;
  };
  const end = async () => {
    await acquiring.catch(() => undefined);
    await release();
  };
  return { plan, ctx: { ...ctx, signal: controller.signal }, end, before };
}

/** The refusal, in a person's words: who, since when, why, until when. */
async function explain(decision: Exclude<ReturnType<typeof decideWrite>, { ok: true }>, ctx: ExecutorContext, api: Awaited<ReturnType<ExecutorContext['api']>>, facts: { cells: Array<{ scope: Scope; defaultName?: string; defaultVersionId?: string }> }): Promise<BlockedError> {
  const reader = { settings: ctx.settings!, deliveryClient: ctx.deliveryClient! };
  if (decision.blockedBy === 'lock') {
    const cell = facts.cells.find((c) => scopeText(c.scope) === scopeText(decision.scope));
    return lockBlocked(reader, api, decision.scope, cell);
  }
  if (decision.blockedBy === 'freeze') {
    const { freeze, until } = decision;
    const { listFreezes } = await import('../service/change-control.js');
    const record = (await listFreezes(reader, api).catch(() => [])).find((f) => f.versionId === freeze.versionId);
    const who = record?.actor ? ` by ${record.actor}${record.createdAt ? ` at ${record.createdAt}` : ''}` : '';
    const why = record?.reason ? `: ${record.reason}` : '';
    return new BlockedError(`${freeze.env} is frozen (${describeWindow(freeze.window)})${who}${why}; frozen until ${new Date(until).toISOString()}; nothing was sent (rollback, rollout abort and version unblock still go through; --break-glass --reason R lets one write through, recorded)`, 'freeze', new Date(until).toISOString());
  }
  const block = ctx.settings ? await readBlock(reader, api, decision.assetId, decision.versionId, decision.blockVersionId, undefined).catch(() => undefined) : undefined;
  const who = block?.actor ? ` by ${block.actor}${block.createdAt ? ` at ${block.createdAt}` : ''}` : '';
  const why = block?.reason ? `: ${block.reason}` : '';
  return new BlockedError(`version ${decision.versionId} of ${decision.assetId} is blocked${who}${why}; nothing was sent (ahs version unblock ${decision.assetId} ${decision.versionId} --reason R lifts it)`, 'version', null);
}

/** --lock-id's scope words for messages. */
export function parseScopeOrThrow(text: string): Scope {
  const scope = parseScope(text);
  if ('error' in scope) throw new UsageError(scope.error);
  return scope;
}

/** Whether an error is change control's refusal. */
export function isBlocked(error: unknown): error is BlockedError {
  return error instanceof AhsError && error instanceof BlockedError;
}

/**
 * One journal entry for a change-control command (lock, freeze, block,
 * break): its change in the shared address scheme (`lock.SCOPE`,
 * `freeze.ENV`, `block.ASSET.VERSION`) and its `control` field. Like every
 * append, a failure is a warning, never the command's outcome.
 */
export async function recordControl(ctx: Pick<PlanContext, 'settings' | 'api' | 'output' | 'io' | 'run' | 'redactor' | 'deliveryClient' | 'signal'>, change: { address: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }, control: ControlField): Promise<void> {
  const { startRecording } = await import('./journal-record.js');
  await startRecording(ctx).record({ command: ctx.run?.command ?? control.action, arguments: ctx.run?.arguments ?? [], changes: [change], outcome: 'applied', exitCode: 0, control });
}
