// Change control in the service (the design is at the top of
// src/rules/change-control.ts): reading what a write's check needs (one
// round of parallel reads), taking, renewing, releasing and breaking a
// lock by compare-and-set promotions on a sentinel asset, and freezes and
// blocks as versions of `ahs-control`. Like the journal's appends, these
// are ahs's own records, not content: they are sent here, not as plans.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ApiClient } from '../http/client.js';
import { isApiError } from '../http/client.js';
import { fetchAll } from '../http/paging.js';
import { AhsError, ApiError, BlockedError, NetworkError, UsageError } from '../errors.js';
import { assetUrlSchema, versionSchema, type AssetUrl, type Version } from '../rules/schemas.js';
import {
  blockName,
  cellsToRead,
  CONTROL_ASSET,
  CONTROL_ASSET_TYPE,
  CONTROL_PLATFORM,
  ciLockId,
  decideAcquire,
  FREE_NAME,
  hash64,
  holderOf,
  isRunLock,
  LOCK_ASSET,
  parseScope,
  watchesLease,
  watchOutcome,
  freezeName,
  freezesOf,
  isBlockName,
  lockAssetOf,
  lockName,
  parseCellName,
  scopeText,
  type CellFacts,
  type ControlFacts,
  type Freeze,
  type FreezeWindow,
  type LockName,
  type Scope,
} from '../rules/change-control.js';
import { formatDuration } from '../rules/rollout.js';
import { assetPath, findVersion } from './assets.js';
import type { ServiceContext } from './context.js';
import { servedUrl } from './delivery.js';
import { ciRunOf, type CiRun } from './journal.js';
import { memoryMultipart } from './multipart.js';

/** What a holder's version carries (its content): read only to explain, never to decide. */
export const lockDocSchema = z.object({
  apiVersion: z.literal('ahs/lock/v1'),
  scope: z.string(),
  lockId: z.string(),
  actor: z.string(),
  command: z.string(),
  ci: z.object({ runUrl: z.string().optional(), sha: z.string().optional(), ref: z.string().optional() }).optional(),
  reason: z.string().optional(),
  since: z.string(),
  leaseEnd: z.string(),
});
export type LockDoc = z.infer<typeof lockDocSchema>;

/** What a freeze or a block version carries. */
export const recordDocSchema = z.object({ apiVersion: z.literal('ahs/control/v1'), kind: z.enum(['freeze', 'block']), actor: z.string(), reason: z.string(), at: z.string(), ci: z.object({ runUrl: z.string().optional() }).optional() });
export type RecordDoc = z.infer<typeof recordDocSchema>;

/** Who holds a scope's lock (`ahs lock status --json`, locks.status()): the holder, command, CI run, reason, since, lease end. */
export interface LockStatus {
  scope: string;
  held: boolean;
  lockId: string | null;
  /** The holder's actor (the version's createdBy, as the service recorded it). */
  holder: string | null;
  command: string | null;
  ci: CiRun | null;
  reason: string | null;
  since: string | null;
  leaseEnd: string | null;
  /** The lease ended (a killed holder): the next acquirer takes it. */
  expired: boolean;
  versionId: string | null;
}

export interface HeldLock {
  scope: Scope;
  lockId: string;
  versionId: string;
  leaseEnd: number;
  since: number;
  /** The lock version this one took the place of (the holder's former lease, a dead holder's): no longer needed. */
  replaced?: string;
}

// --- reads ------------------------------------------------------------------------

/** The cell's Default (404: the sentinel asset or the env is not there: no Default). */
export async function readCell(api: ApiClient, scope: Scope): Promise<CellFacts & { record?: AssetUrl }> {
  try {
    const records = await fetchAll<AssetUrl>(api, assetPath(api, lockAssetOf(scope), 'asset-urls'), { targetPlatform: CONTROL_PLATFORM, envId: scope.env, state: 'DEFAULT' }, { item: assetUrlSchema });
    const record = records.find((r) => r.state === 'DEFAULT' && r.targetPlatform === CONTROL_PLATFORM && r.envId === scope.env);
    return record ? { scope, defaultName: record.versionName, defaultVersionId: record.versionId, record } : { scope };
  } catch (error) {
    if (isApiError(error, 404)) return { scope };
    throw error;
  }
}

/** ahs-control's versions (freezes, blocks); none when it does not exist. */
export async function readControlRecords(api: ApiClient): Promise<Version[]> {
  try {
    return await fetchAll<Version>(api, assetPath(api, CONTROL_ASSET, 'versions'), {}, { item: versionSchema });
  } catch (error) {
    if (isApiError(error, 404)) return [];
    throw error;
  }
}

/**
 * What a write's check needs, in one round: ahs-control's versions and each
 * lock cell its scopes name, in parallel. A read that fails is exit 6 (a
 * check that cannot be read is never "not blocked").
 */
export async function readControlFacts(api: ApiClient, scopes: Scope[]): Promise<ControlFacts> {
  try {
    const [records, cells] = await Promise.all([readControlRecords(api), Promise.all(cellsToRead(scopes).map((scope) => readCell(api, scope)))]);
    return { now: api.serviceNow(), cells, records: records.map((v) => ({ name: v.versionName, versionId: v.versionId })) };
  } catch (error) {
    throw unreadable(error);
  }
}

/** A failed read of change control, as exit 6: the write stops. */
export function unreadable(error: unknown): AhsError {
  if (error instanceof NetworkError) return error;
  const reason = (error as Error)?.message ?? String(error);
  return new ChangeControlUnreadable(`change control could not be read (${reason.replace(/[.\s]+$/, '')}): the write was stopped, nothing was sent; ahs lock status and ahs freeze list read it`);
}

class ChangeControlUnreadable extends NetworkError {}

/** The content of a control version that is deployed (a lock cell's Default, a freeze's record), or undefined. */
async function readContent<T>(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, assetId: string, versionId: string, envId: string | undefined, schema: z.ZodType<T>): Promise<T | undefined> {
  try {
    const entries = await fetchAll<AssetUrl>(api, assetPath(api, assetId, 'versions', versionId, 'asset-urls'), envId ? { envId } : {}, { item: assetUrlSchema });
    const entry = entries.find((e) => e.downloadUrl);
    if (!entry?.downloadUrl) return undefined;
    const { url, deliveryBase } = await servedUrl(ctx as ServiceContext, api, entry.downloadUrl);
    const client = await ctx.deliveryClient(deliveryBase);
    try {
      const parsed = schema.safeParse(await client.get<unknown>(url));
      return parsed.success ? parsed.data : undefined;
    } finally {
      await client.close().catch(() => undefined);
    }
  } catch {
    return undefined;
  }
}

export async function lockStatus(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, scope: Scope, cell?: CellFacts): Promise<LockStatus> {
  const read = cell ?? (await readCell(api, scope));
  const now = api.serviceNow();
  const name = read.defaultName === undefined ? undefined : parseCellName(read.defaultName);
  const lock = name?.kind === 'lock' ? name : undefined;
  const doc = lock && read.defaultVersionId ? await readContent(ctx, api, lockAssetOf(scope), read.defaultVersionId, scope.env, lockDocSchema) : undefined;
  const creator = lock && read.defaultVersionId ? await api.get<Version>(assetPath(api, lockAssetOf(scope), 'versions', read.defaultVersionId), undefined, { schema: versionSchema }).catch(() => undefined) : undefined;
  return {
    scope: scopeText(scope),
    held: lock !== undefined && lock.leaseEnd > now,
    lockId: lock?.lockId ?? null,
    holder: creator?.createdBy ?? doc?.actor ?? null,
    command: doc?.command ?? null,
    ci: doc?.ci ?? null,
    reason: doc?.reason ?? null,
    since: lock ? new Date(lock.since).toISOString() : null,
    leaseEnd: lock ? new Date(lock.leaseEnd).toISOString() : null,
    expired: lock !== undefined && lock.leaseEnd <= now,
    versionId: lock ? (read.defaultVersionId ?? null) : null,
  };
}

/**
 * Every lock held now (`ahs lock status` without a scope), in `env` only when
 * given: each lock sentinel's Defaults in every environment, read at once,
 * the scope of a lock inside an environment from its own record.
 */
export async function listLocks(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, env?: string): Promise<LockStatus[]> {
  const assets = (await fetchAll<{ assetId: string }>(api, api.path('va'), {})).map((a) => a.assetId).filter((id) => id === LOCK_ASSET || id.startsWith(`${LOCK_ASSET}-`));
  const now = api.serviceNow();
  const cells = (
    await Promise.all(
      assets.map(async (assetId) => {
        const records = await fetchAll<AssetUrl>(api, assetPath(api, assetId, 'asset-urls'), { targetPlatform: CONTROL_PLATFORM, state: 'DEFAULT', ...(env ? { envId: env } : {}) }, { item: assetUrlSchema }).catch((error: unknown) => {
          if (isApiError(error, 404)) return [] as AssetUrl[];
          throw error;
        });
        return records.filter((r) => r.state === 'DEFAULT' && (!env || r.envId === env)).map((record) => ({ assetId, record }));
      }),
    )
  ).flat();
  const held = cells.filter(({ record }) => {
    const name = parseCellName(record.versionName);
    return name?.kind === 'lock' && name.leaseEnd > now;
  });
  const statuses = await Promise.all(
    held.map(async ({ assetId, record }) => {
      const doc = assetId === LOCK_ASSET ? undefined : await readContent(ctx, api, assetId, record.versionId, record.envId, lockDocSchema);
      const parsed = doc ? parseScope(doc.scope) : undefined;
      const scope: Scope = assetId === LOCK_ASSET ? { kind: 'env', env: record.envId } : parsed && !('error' in parsed) && lockAssetOf(parsed) === assetId ? parsed : { kind: 'env', env: record.envId };
      // A lock inside an environment whose record does not read back is still listed: its sentinel and environment named.
      if (assetId !== LOCK_ASSET && scope.kind === 'env') return { ...(await lockStatus(ctx, api, scope, { scope, defaultName: record.versionName, defaultVersionId: record.versionId })), scope: `${assetId}@${record.envId} (unreadable record)` };
      return lockStatus(ctx, api, scope, { scope, defaultName: record.versionName, defaultVersionId: record.versionId });
    }),
  );
  return statuses.sort((a, b) => a.scope.localeCompare(b.scope));
}

/** "held by a@b.c (release my-bundle, https://ci/run/1) since 14:02Z, until 14:17Z: hotfix" */
export function describeHolder(status: Pick<LockStatus, 'holder' | 'command' | 'ci' | 'reason' | 'since' | 'leaseEnd' | 'lockId'>): string {
  const what = [status.command, status.ci?.runUrl].filter(Boolean).join(', ');
  return `held by ${status.holder ?? 'an unknown holder'}${what ? ` (${what})` : ''}, lock id ${status.lockId}, since ${status.since}, lease ends ${status.leaseEnd}${status.reason ? `; reason: ${status.reason}` : ''}`;
}

// --- writes -----------------------------------------------------------------------

async function ensureAsset(api: ApiClient, assetId: string, user: string): Promise<void> {
  try {
    await api.json({
      method: 'POST',
      path: api.path('va'),
      body: { assetId, assetName: assetId === CONTROL_ASSET ? 'ahs change control: freezes and blocks' : 'ahs change control: a lock', assetType: CONTROL_ASSET_TYPE, createdBy: user, description: 'ahs change control (not content: deleting it drops locks, freezes and blocks)' },
    });
  } catch (error) {
    if (!isApiError(error, 409)) throw error;
  }
}

/** Uploads a control version (creating its sentinel asset on first use). */
async function uploadVersion(api: ApiClient, assetId: string, name: string, content: unknown, user: string, fileName = 'control.json'): Promise<Version> {
  if (name.length > 64) throw new UsageError(`the record ${JSON.stringify(name)} is longer than a version name may be (64): use a shorter environment or zone name`);
  const send = () => api.json<Version>({ method: 'POST', path: assetPath(api, assetId, 'versions'), query: { targetPlatformId: CONTROL_PLATFORM }, stream: memoryMultipart({ versionName: name, createdBy: user }, fileName, JSON.stringify(content)) });
  try {
    return await send();
  } catch (error) {
    if (!isApiError(error, 404)) throw error;
    await ensureAsset(api, assetId, user);
    return send();
  }
}

/**
 * An upload of a control version whose answer may be lost (a reset, a
 * gateway's 504 before a slow service): settled by a read of the asset's
 * versions, the name being this holder's alone (its lock id and lease end);
 * not found, it surely did not apply, and the caller's next try uploads again.
 */
async function settledUpload(api: ApiClient, assetId: string, name: string, content: unknown, user: string): Promise<Version> {
  try {
    return await uploadVersion(api, assetId, name, content, user);
  } catch (error) {
    if (!(error instanceof NetworkError && error.mayHaveApplied)) throw error;
    const versions = await fetchAll<Version>(api, assetPath(api, assetId, 'versions'), {}, { item: versionSchema });
    const found = versions.find((v) => v.versionName === name);
    if (found) return found;
    throw error;
  }
}

async function deploy(api: ApiClient, assetId: string, versionId: string, body: Record<string, unknown>): Promise<void> {
  await api.json({ method: 'POST', path: assetPath(api, assetId, 'versions', versionId, 'deploy'), query: { targetPlatformId: CONTROL_PLATFORM }, body });
}

async function deleteVersion(api: ApiClient, assetId: string, versionId: string, envs: string[], user: string): Promise<void> {
  for (const envId of envs) await deploy(api, assetId, versionId, { envId, intent: 'OFFLINE', createdBy: user, updatedBy: user }).catch(() => undefined);
  await api.json({ method: 'DELETE', path: assetPath(api, assetId, 'versions', versionId) });
}

/**
 * Promotes `versionId` to the cell's Default as a compare-and-set against
 * `over` (null: no Default read), then decides from a re-read of the cell,
 * never from the status alone (409 or 400 for a moved Default, a lost answer).
 */
async function compareAndSet(api: ApiClient, scope: Scope, versionId: string, over: string | null, user: string): Promise<boolean> {
  const body: Record<string, unknown> = { envId: scope.env, intent: 'DEFAULT', createdBy: user, updatedBy: user, ...(over ? { currentVersionId: over, currentAssetIntent: 'LIVE' } : {}) };
  let failure: unknown;
  try {
    await deploy(api, lockAssetOf(scope), versionId, body);
    return true;
  } catch (error) {
    failure = error;
  }
  // Another run's promotion (409, 400), or an answer that was lost: the cell says which.
  if (!(failure instanceof ApiError && failure.status >= 400 && failure.status < 500) && !(failure instanceof NetworkError)) throw failure;
  const cell = await readCell(api, scope);
  if (cell.defaultVersionId === versionId) return true;
  if (failure instanceof NetworkError && !failure.mayHaveApplied) throw failure;
  return false;
}

export interface AcquireOptions {
  scope: Scope;
  lockId: string;
  ttlMs: number;
  user: string;
  command: string;
  env: NodeJS.ProcessEnv;
  reason?: string;
  /** How long to wait for another holder (--lock-timeout); 0: not at all. */
  waitMs: number;
  signal: AbortSignal;
  /** Told once when it starts waiting for a holder. */
  onWait?: (holder: LockName, cell: CellFacts) => void;
  /**
   * How long it may watch another run's lock (a `run-` id) whose lease ends
   * within it, to tell a dead holder (its lease ends: taken over) from a
   * live one (it renews: exit 12); 0: not at all (rules/change-control.ts).
   */
  watchMs?: number;
  /** The cell as the write's check read it just now: the first decision is taken from it (no second read). */
  first?: CellFacts;
  /** Told once when it starts watching another run's lock. */
  onWatch?: (holder: LockName) => void;
}

/**
 * Takes (or renews, when `lockId` holds it) the lock of a scope; waits for
 * another holder up to `waitMs`, then BlockedError naming it.
 */
export async function acquireLock(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, options: AcquireOptions): Promise<HeldLock> {
  const started = Date.now();
  const { scope, lockId, user } = options;
  let waited = false;
  let watched: { versionId: string | undefined } | undefined;
  let takes = 0;
  for (;;) {
    if (options.signal.aborted) throw options.signal.reason instanceof AhsError ? options.signal.reason : new (await import('../errors.js')).CancelledError();
    const cell = takes === 0 && !waited && options.first ? options.first : await readCell(api, scope);
    const now = api.serviceNow();
    const decision = decideAcquire(cell, lockId, now);
    if (decision.action === 'wait') {
      const left = options.waitMs - (Date.now() - started);
      const watchLeft = (options.watchMs ?? 0) - (Date.now() - started);
      // Another run's lock: watched while its lease may still end within the budget; renewed, its holder is alive.
      if (left <= 0 && watched && watchOutcome(watched.versionId, cell, now) === 'alive') throw await lockBlocked(ctx, api, scope, cell, '', `${scopeText(scope)} is locked by a run that is alive (it renewed its lease)`);
      if (left <= 0 && !watchesLease(decision.holder, now, watchLeft)) throw await lockBlocked(ctx, api, scope, cell, options.waitMs > 0 ? ` (waited ${formatDuration(options.waitMs)}, --lock-timeout)` : '');
      if (left <= 0 && !watched) options.onWatch?.(decision.holder);
      if (left <= 0) watched ??= { versionId: cell.defaultVersionId };
      else if (!waited) options.onWait?.(decision.holder, cell);
      waited = true;
      await sleep(Math.max(50, Math.min(500, Math.max(left, watchLeft), decision.holder.leaseEnd - now)), options.signal);
      continue;
    }
    // A lock given to the run (--lock-id) whose lease outlasts a fresh one: nothing to renew (its holder chose it).
    if (decision.renew && cell.defaultVersionId && holderOf(cell, now)!.leaseEnd > now + options.ttlMs) {
      const holder = holderOf(cell, now)!;
      return { scope, lockId, versionId: cell.defaultVersionId, leaseEnd: holder.leaseEnd, since: holder.since };
    }
    // To the second, as the lock's name records it (what `lock status` reads back), rounded down.
    const since = decision.since ?? Math.floor(now / 1000) * 1000;
    // To the second, as the name carries it, rounded up: a lease never shorter than asked.
    const leaseEnd = Math.ceil((now + options.ttlMs) / 1000) * 1000;
    const doc: LockDoc = {
      apiVersion: 'ahs/lock/v1',
      scope: scopeText(scope),
      lockId,
      actor: user,
      command: options.command,
      ...(ciRunOf(options.env) ? { ci: ciRunOf(options.env) } : {}),
      ...(options.reason ? { reason: options.reason } : {}),
      since: new Date(since).toISOString(),
      leaseEnd: new Date(leaseEnd).toISOString(),
    };
    if (++takes > 8) throw unreadable(new Error(`the lock of ${scopeText(scope)} could not be taken after ${takes - 1} tries`));
    const version = await settledUpload(api, lockAssetOf(scope), lockName({ lockId, leaseEnd, since }), doc, user);
    // LIVE first (the spec's way to DEFAULT); an answer lost or refused here is settled by the promotion's re-read.
    await deploy(api, lockAssetOf(scope), version.versionId, { envId: scope.env, intent: 'LIVE', createdBy: user, updatedBy: user }).catch((error: unknown) => {
      if (!(error instanceof NetworkError && error.mayHaveApplied) && !isApiError(error, 400)) throw error;
    });
    if (await compareAndSet(api, scope, version.versionId, decision.over, user)) {
      // The version it replaced (its own former lease, a stale holder's): no longer needed.
      const replacedLock = decision.over !== null && cell.defaultName !== undefined && parseCellName(cell.defaultName)?.kind === 'lock';
      const held: HeldLock = { scope, lockId, versionId: version.versionId, leaseEnd, since, ...(replacedLock ? { replaced: decision.over! } : {}) };
      // Taken, then checked against the locks it overlaps (the environment's for a channel or a collection; every
      // channel's and collection's in it for an environment): another holder there, and it gives its own back.
      // Two acquirers of overlapping scopes each read the other's cell after their own compare-and-set applied,
      // so at most one of them finds the other free: never both held.
      // That check unread (a failed read of a cell inside it), the lock just taken is given back, not left held for its lease.
      const clash = decision.renew
        ? undefined
        : await overlapping(ctx, api, scope, lockId).catch(async (error: unknown) => {
            await releaseHeld(api, held, user).catch(() => undefined);
            throw error;
          });
      if (!clash) return held;
      await releaseHeld(api, held, user).catch(() => undefined);
      if (clash.scope) throw await lockBlocked(ctx, api, clash.scope, { ...clash.cell, scope: clash.scope }, '', `${scopeText(clash.scope)} is locked`);
      const name = parseCellName(clash.cell.defaultName ?? '');
      const lease = name?.kind === 'lock' ? new Date(name.leaseEnd).toISOString() : null;
      throw new BlockedError(`${scopeText(scope)} overlaps a lock inside it (${clash.assetId}, lock id ${name?.kind === 'lock' ? name.lockId : '?'}, lease ends ${lease}); nothing was sent`, 'lock', lease);
    }
    // Lost the race: the winner holds it now; this run's version is left LIVE on the cell (it means nothing there).
    if (decision.renew) throw await lockBlocked(ctx, api, scope, undefined, '', 'the lock was lost while renewing it');
  }
}

/**
 * A write that meets another run's lock (not one it would take: a deploy,
 * a rollback): watches the cell while that lease may end within `budgetMs`
 * (rules/change-control.ts). Answers once nobody holds it (the lease ended,
 * the lock was released); BlockedError naming the holder when it renewed
 * (alive) or its lease outlasts the budget.
 */
export async function watchLock(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, first: CellFacts, budgetMs: number, signal: AbortSignal, waitMs = 0): Promise<void> {
  const started = Date.now();
  let cell = first;
  for (;;) {
    const now = api.serviceNow();
    const outcome = watchOutcome(first.defaultVersionId, cell, now);
    if (outcome === 'ended') return;
    const holder = holderOf(cell, now)!;
    // --lock-timeout: any holder is waited for while it lasts.
    if (Date.now() - started < waitMs) {
      if (signal.aborted) throw signal.reason instanceof AhsError ? signal.reason : new (await import('../errors.js')).CancelledError();
      await sleep(Math.max(50, Math.min(500, waitMs - (Date.now() - started))), signal);
      cell = await readCell(api, cell.scope);
      first = cell;
      continue;
    }
    if (waitMs > 0 && !isRunLock(holder.lockId)) throw await lockBlocked(ctx, api, cell.scope, cell, ` (waited ${formatDuration(waitMs)}, --lock-timeout)`);
    if (outcome === 'alive') throw await lockBlocked(ctx, api, cell.scope, cell, '', `${scopeText(cell.scope)} is locked by a run that is alive (it renewed its lease)`);
    if (!watchesLease(holder, now, budgetMs - (Date.now() - started))) throw await lockBlocked(ctx, api, cell.scope, cell);
    if (signal.aborted) throw signal.reason instanceof AhsError ? signal.reason : new (await import('../errors.js')).CancelledError();
    await sleep(Math.max(50, Math.min(500, holder.leaseEnd - now)), signal);
    cell = await readCell(api, cell.scope);
  }
}

/** The id of the GitHub Actions job this process runs in, hashed (undefined outside one), and its attempt. */
export function ciJobOf(env: NodeJS.ProcessEnv): { key: string; attempt: number } | undefined {
  const { GITHUB_ACTIONS: actions, GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run, GITHUB_JOB: job, GITHUB_RUN_ATTEMPT: attempt } = env;
  if (actions !== 'true' || !run || !job) return undefined;
  const n = Number(attempt ?? '1');
  return { key: hash64(`${server ?? ''}/${repo ?? ''}/${run}/${job}`).slice(0, 10), attempt: Number.isInteger(n) && n > 0 && n < 10_000 ? n : 1 };
}

/** The lock id `ahs lock acquire` takes: named for its GitHub Actions job when it runs in one (an earlier attempt's is taken over). */
export function newExplicitLockId(env: NodeJS.ProcessEnv): string {
  const job = ciJobOf(env);
  return job ? ciLockId(job.key, job.attempt, randomBytes(3).toString('hex')) : randomBytes(6).toString('hex');
}

/** The CI lock id form of this process's job (for recognising an earlier attempt's lock), with a placeholder tail. */
export function ciSelfId(env: NodeJS.ProcessEnv): string | undefined {
  const job = ciJobOf(env);
  return job ? ciLockId(job.key, job.attempt, '000000') : undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The BlockedError for a scope another run holds: who, since when, why, until when. */
export async function lockBlocked(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, scope: Scope, cell?: CellFacts, waited = '', lead?: string): Promise<BlockedError> {
  const status = await lockStatus(ctx, api, scope, cell);
  return new BlockedError(`${lead ?? `${scopeText(scope)} is locked`}: ${describeHolder(status)}${waited}; nothing was sent (ahs lock status ${scopeText(scope)}; a lock that must go now, in an incident: ahs lock break ${scopeText(scope)} --reason R)`, 'lock', status.leaseEnd);
}

/**
 * Ends the lock: promotes the cell's `free` version (uploaded once, kept
 * LIVE) as a compare-and-set against the holder read. `lockId` undefined is
 * `break`: whoever holds it. Answers the holder it ended (undefined: it was free).
 */
export async function releaseLock(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, scope: Scope, lockId: string | undefined, user: string): Promise<LockStatus | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const cell = await readCell(api, scope);
    const name = cell.defaultName === undefined ? undefined : parseCellName(cell.defaultName);
    if (!cell.defaultVersionId || name?.kind === 'free') return undefined;
    if (lockId !== undefined && (name?.kind !== 'lock' || name.lockId !== lockId)) {
      if (name?.kind === 'lock' && name.leaseEnd > api.serviceNow()) throw await lockBlocked(ctx, api, scope, cell, '', `${scopeText(scope)} is not held by ${lockId}`);
      return undefined;
    }
    const status = await lockStatus(ctx, api, scope, cell);
    const free = await freeVersion(api, scope, user);
    if (await compareAndSet(api, scope, free, cell.defaultVersionId, user)) return status;
  }
  throw new BlockedError(`${scopeText(scope)} kept moving while it was being released: run ahs lock status ${scopeText(scope)}`, 'lock');
}

/**
 * A run's release of the lock it took: `free` promoted as a compare-and-set
 * against its own version (one round when the free version is known). A
 * lock that is no longer this run's (taken over after its lease ended) is
 * left to its holder. Answers whether it released it.
 */
export async function releaseHeld(api: ApiClient, held: HeldLock, user: string, freeId?: string): Promise<boolean> {
  const free = freeId === undefined ? await freeOf(api, held.scope, user) : { versionId: freeId, isDefault: false };
  // The cell free already (a break, a holder that took it over and released it): nothing of this run's to end.
  if (free.isDefault) return false;
  return compareAndSet(api, held.scope, free.versionId, held.versionId, user);
}

/**
 * The first cell overlapping `scope` that another holder has: the
 * environment's for a channel or a collection; for an environment, each
 * channel's and collection's lock cell in it (the sentinel assets
 * `ahs-control-lock-*`, listed).
 */
async function overlapping(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, scope: Scope, lockId: string): Promise<{ cell: CellFacts; scope?: Scope; assetId: string } | undefined> {
  const other = (cell: CellFacts) => {
    const holder = holderOf(cell, api.serviceNow());
    return holder !== undefined && holder.lockId !== lockId;
  };
  if (scope.kind !== 'env') {
    const envScope: Scope = { kind: 'env', env: scope.env };
    const env = await readCell(api, envScope);
    return other(env) ? { cell: env, scope: envScope, assetId: LOCK_ASSET } : undefined;
  }
  const assets = await fetchAll<{ assetId: string }>(api, api.path('va'), {});
  const inner = assets.map((a) => a.assetId).filter((assetId) => assetId.startsWith(`${LOCK_ASSET}-`));
  const cells = await Promise.all(inner.map(async (assetId) => ({ assetId, cell: await readInnerCell(api, assetId, scope.env) })));
  const clash = cells.find((c) => c.cell !== undefined && other(c.cell));
  if (!clash) return undefined;
  // Its scope in words, from the holder's content (read to explain only; the decision is the name's).
  const doc = clash.cell!.defaultVersionId ? await readContent(ctx, api, clash.assetId, clash.cell!.defaultVersionId, scope.env, lockDocSchema) : undefined;
  const named = doc ? parseScope(doc.scope) : undefined;
  const inWords = named && !('error' in named) && lockAssetOf(named) === clash.assetId ? named : undefined;
  return { cell: clash.cell!, assetId: clash.assetId, ...(inWords ? { scope: inWords } : {}) };
}

/** A channel's or collection's lock cell in `env`, read by its sentinel asset. */
async function readInnerCell(api: ApiClient, assetId: string, env: string): Promise<CellFacts | undefined> {
  try {
    const records = await fetchAll<AssetUrl>(api, assetPath(api, assetId, 'asset-urls'), { targetPlatform: CONTROL_PLATFORM, envId: env, state: 'DEFAULT' }, { item: assetUrlSchema });
    const record = records.find((r) => r.state === 'DEFAULT' && r.envId === env);
    return record ? { scope: { kind: 'env', env }, defaultName: record.versionName, defaultVersionId: record.versionId } : undefined;
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

/** How long a lock version whose lease ended stays before a sweep deletes it (a late reader may still name it). */
const SWEEP_AFTER_MS = 60_000;

/**
 * Deletes a cell's lock versions whose lease ended a while ago (LIVE, not
 * the Default: runs' former leases, races lost, dead holders'), a few a
 * run, so that the sentinel does not grow with every run; and answers the
 * cell's `free` version when it is LIVE (the release needs it). Best
 * effort: a version another sweep deleted first is fine. Never a version
 * whose lease runs, so never one an acquirer is about to promote.
 */
export async function sweepCell(api: ApiClient, scope: Scope, user: string, keep: Set<string> = new Set()): Promise<string | undefined> {
  const records = await fetchAll<AssetUrl>(api, assetPath(api, lockAssetOf(scope), 'asset-urls'), { targetPlatform: CONTROL_PLATFORM, envId: scope.env }, { item: assetUrlSchema }).catch(() => [] as AssetUrl[]);
  const now = api.serviceNow();
  const stale = records.filter((r) => {
    const name = r.envId === scope.env && r.state === 'LIVE' && !keep.has(r.versionId) ? parseCellName(r.versionName) : undefined;
    return name?.kind === 'lock' && name.leaseEnd < now - SWEEP_AFTER_MS;
  });
  await Promise.all(stale.slice(0, 8).map((r) => deleteVersion(api, lockAssetOf(scope), r.versionId, [scope.env], user).catch(() => undefined)));
  return records.find((r) => r.versionName === FREE_NAME && r.state === 'LIVE' && r.envId === scope.env)?.versionId;
}

/** Deletes a lock version this run no longer needs (its own former lease), best effort. */
export async function dropLockVersion(api: ApiClient, scope: Scope, versionId: string, user: string): Promise<void> {
  await deleteVersion(api, lockAssetOf(scope), versionId, [scope.env], user).catch(() => undefined);
}

/** The cell's `free` version, LIVE on it (uploaded and deployed the first time), or its Default when the cell is free. */
export async function freeVersion(api: ApiClient, scope: Scope, user: string): Promise<string> {
  return (await freeOf(api, scope, user)).versionId;
}

/**
 * The cell's `free` version and whether it is the Default. One that is the
 * Default is answered as it is: a release of a cell found free would
 * otherwise upload another `free` version each time.
 */
async function freeOf(api: ApiClient, scope: Scope, user: string): Promise<{ versionId: string; isDefault: boolean }> {
  const assetId = lockAssetOf(scope);
  const records = await fetchAll<AssetUrl>(api, assetPath(api, assetId, 'asset-urls'), { targetPlatform: CONTROL_PLATFORM, envId: scope.env }, { item: assetUrlSchema }).catch(() => [] as AssetUrl[]);
  const named = records.filter((r) => r.versionName === FREE_NAME && r.envId === scope.env);
  const live = named.find((r) => r.state === 'LIVE');
  if (live) return { versionId: live.versionId, isDefault: false };
  const asDefault = named.find((r) => r.state === 'DEFAULT');
  if (asDefault) return { versionId: asDefault.versionId, isDefault: true };
  // Any version named free does (a lost answer's upload found by its name, one left by another run).
  const version = await settledUpload(api, assetId, FREE_NAME, { apiVersion: 'ahs/lock/v1', free: true }, user);
  await deploy(api, assetId, version.versionId, { envId: scope.env, intent: 'LIVE', createdBy: user, updatedBy: user }).catch((error: unknown) => {
    // LIVE already, or an answer lost: the release's compare-and-set and its re-read decide.
    if (!(error instanceof NetworkError && error.mayHaveApplied) && !isApiError(error, 400)) throw error;
  });
  return { versionId: version.versionId, isDefault: false };
}

/**
 * A lock held for a run: renewed every third of its TTL; a renewal that
 * fails (the lock was taken: a break, a lease that ran out) aborts the run
 * through `lost` with that error.
 */
export class LeaseKeeper {
  private timer?: NodeJS.Timeout;
  private renewing?: Promise<void>;
  constructor(
    private held: HeldLock,
    private readonly renew: (held: HeldLock) => Promise<HeldLock>,
    private readonly ttlMs: number,
    private readonly lost: (error: AhsError) => void,
  ) {
    this.schedule();
  }
  get lock(): HeldLock {
    return this.held;
  }
  private schedule(): void {
    this.timer = setTimeout(() => {
      this.renewing = this.renew(this.held).then(
        (next) => {
          this.held = next;
          this.schedule();
        },
        (error: unknown) => this.lost(error instanceof AhsError ? error : unreadable(error)),
      );
    }, Math.max(200, Math.floor(this.ttlMs / 3)));
    this.timer.unref?.();
  }
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    await this.renewing?.catch(() => undefined);
    clearTimeout(this.timer);
  }
}

// --- freezes and blocks -------------------------------------------------------------

export interface FreezeRecord extends Freeze {
  actor: string | null;
  createdAt: string | null;
  reason: string | null;
}

/** `strict`: an environment the service does not know (its LIVE deploy's 404) is the error, and no freeze is left. */
export async function addFreeze(api: ApiClient, env: string, window: FreezeWindow, reason: string, user: string, ciEnv: NodeJS.ProcessEnv, strict = false): Promise<Version> {
  const doc: RecordDoc = { apiVersion: 'ahs/control/v1', kind: 'freeze', actor: user, reason, at: new Date(api.serviceNow()).toISOString(), ...(ciRunOf(ciEnv)?.runUrl ? { ci: { runUrl: ciRunOf(ciEnv)!.runUrl } } : {}) };
  const version = await uploadVersion(api, CONTROL_ASSET, freezeName(env, window), doc, user);
  // Deployed LIVE in its environment so that its reason can be read back (delivery); a LIVE control version is not content.
  await deploy(api, CONTROL_ASSET, version.versionId, { envId: env, intent: 'LIVE', createdBy: user, updatedBy: user }).catch(async (error: unknown) => {
    // A 404 names the asset, the environment, the platform, or a version missing or inactive: the asset and the
    // platform are the upload's own, and the version read back active leaves the environment, unknown to the service
    // (`ahs freeze prdo`). The record goes (it would freeze a name nobody writes to) and the error is the answer.
    if (!strict || !isApiError(error, 404)) return;
    // Parsed (versionSchema); not read, or not active, it proves nothing and the record stays as before.
    const made = await findVersion(api, CONTROL_ASSET, version.versionId).catch(() => undefined);
    if (made?.active !== true) return;
    await api.json({ method: 'DELETE', path: assetPath(api, CONTROL_ASSET, 'versions', version.versionId) }).catch(() => undefined);
    throw error;
  });
  return version;
}

export async function listFreezes(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, withReasons = true): Promise<FreezeRecord[]> {
  const versions = await readControlRecords(api);
  const byId = new Map(versions.map((v) => [v.versionId, v]));
  const freezes = freezesOf(versions.map((v) => ({ name: v.versionName, versionId: v.versionId })));
  return Promise.all(
    freezes.map(async (freeze) => {
      const version = byId.get(freeze.versionId!);
      const doc = withReasons ? await readContent(ctx, api, CONTROL_ASSET, freeze.versionId!, freeze.env, recordDocSchema) : undefined;
      return { ...freeze, actor: version?.createdBy ?? null, createdAt: version?.createdAt ?? null, reason: doc?.reason ?? null };
    }),
  );
}

/** Deletes every freeze of `env`; answers those it removed. */
export async function removeFreezes(api: ApiClient, env: string, user: string): Promise<Freeze[]> {
  const versions = await readControlRecords(api);
  const freezes = freezesOf(versions.map((v) => ({ name: v.versionName, versionId: v.versionId }))).filter((f) => f.env === env);
  for (const freeze of freezes) await deleteVersion(api, CONTROL_ASSET, freeze.versionId!, [env], user);
  return freezes;
}

export interface BlockRecord {
  assetId: string;
  versionId: string;
  blockVersionId: string;
  actor: string | null;
  createdAt: string | null;
  reason: string | null;
}

/** Blocks a version (idempotent: an existing block is kept). `envId`: where its record is deployed so that its reason reads back. */
export async function addBlock(api: ApiClient, assetId: string, versionId: string, reason: string, user: string, envId: string | undefined, ciEnv: NodeJS.ProcessEnv): Promise<{ version: Version; existed: boolean }> {
  const name = blockName(assetId, versionId);
  const existing = (await readControlRecords(api)).find((v) => v.versionName === name);
  if (existing) return { version: existing, existed: true };
  const doc = { apiVersion: 'ahs/control/v1', kind: 'block', actor: user, reason, at: new Date(api.serviceNow()).toISOString(), assetId, versionId, ...(ciRunOf(ciEnv)?.runUrl ? { ci: { runUrl: ciRunOf(ciEnv)!.runUrl } } : {}) };
  // The reason rides in the file's name too, which every listing of the versions returns: a record's content is
  // readable only where it is deployed, and a block made without an environment is deployed nowhere.
  const version = await uploadVersion(api, CONTROL_ASSET, name, doc, user, blockFileName(reason));
  if (envId) await deploy(api, CONTROL_ASSET, version.versionId, { envId, intent: 'LIVE', createdBy: user, updatedBy: user }).catch(() => undefined);
  return { version, existed: false };
}

const BLOCK_FILE = /^block\.([A-Za-z0-9_-]+)\.json$/;

/** `block.<the reason, base64url>.json`, the reason cut to fit a file name (200 bytes in all). */
export function blockFileName(reason: string): string {
  let text = reason;
  while (Buffer.from(text).toString('base64url').length > 180) text = text.slice(0, -1);
  return `block.${Buffer.from(text).toString('base64url')}.json`;
}

/** The reason a block's file name carries; undefined for any other name (a service that drops or renames it). */
export function reasonOfBlockFile(fileName: string | undefined): string | undefined {
  const match = fileName ? BLOCK_FILE.exec(fileName) : null;
  if (!match) return undefined;
  const text = Buffer.from(match[1]!, 'base64url').toString('utf8');
  return text.length > 0 && !/[\u0000-\u001f\u007f]/.test(text) ? text : undefined;
}

export async function removeBlock(api: ApiClient, assetId: string, versionId: string, user: string, envs: string[]): Promise<Version | undefined> {
  const name = blockName(assetId, versionId);
  const existing = (await readControlRecords(api)).find((v) => v.versionName === name);
  if (!existing) return undefined;
  await deleteVersion(api, CONTROL_ASSET, existing.versionId, envs, user);
  return existing;
}

/** A block as its record says it (who, when; why when it reads back). */
export async function readBlock(ctx: Pick<ServiceContext, 'settings' | 'deliveryClient'>, api: ApiClient, assetId: string, versionId: string, blockVersionId: string, envId: string | undefined): Promise<BlockRecord> {
  const version = await api.get<Version>(assetPath(api, CONTROL_ASSET, 'versions', blockVersionId), undefined, { schema: versionSchema }).catch(() => undefined);
  const named = reasonOfBlockFile(version?.fileName);
  const doc = named === undefined ? await readContent(ctx, api, CONTROL_ASSET, blockVersionId, envId, recordDocSchema) : undefined;
  return { assetId, versionId, blockVersionId, actor: version?.createdBy ?? null, createdAt: version?.createdAt ?? null, reason: named ?? doc?.reason ?? null };
}

/**
 * The blocks among `versionIds` of one asset, as ahs-control's versions
 * (readControlRecords) say them: who, when, and why from the record's file
 * name. For `version list`, which shows them beside the versions.
 */
export function blocksAmong(records: Version[], assetId: string, versionIds: string[]): BlockRecord[] {
  const byName = new Map(records.map((v) => [v.versionName, v]));
  return versionIds.flatMap((versionId) => {
    const record = byName.get(blockName(assetId, versionId));
    return record ? [{ assetId, versionId, blockVersionId: record.versionId, actor: record.createdBy ?? null, createdAt: record.createdAt ?? null, reason: reasonOfBlockFile(record.fileName) ?? null }] : [];
  });
}

export function blocksOf(versions: Version[]): Array<{ name: string; versionId: string; createdBy: string; createdAt: string }> {
  return versions.filter((v) => isBlockName(v.versionName)).map((v) => ({ name: v.versionName, versionId: v.versionId, createdBy: v.createdBy, createdAt: v.createdAt }));
}
