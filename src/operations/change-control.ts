// Change control's own commands as operations (cli.md, "Change control:
// locks, freezes and blocked versions"): a lock acquired, released, read or
// broken; a freeze set, listed or lifted; a version blocked or unblocked.
// The CLI's `ahs lock|freeze|unfreeze|version block|unblock` and the
// library's `client.locks|freezes|versions.block|unblock` both call these,
// and print or answer the documents they return. They write ahs's own
// records (src/service/change-control.ts), not content: no plan, each
// recorded in the journal with its `control` field.
import { NotFoundError, UsageError } from '../errors.js';
import { findAsset, findVersion, versionNotFound } from '../service/assets.js';
import { readCollection } from '../service/collections.js';
import { describeWindow, freezeEnd, parseScope, parseWeekly, scopeText, type FreezeWindow, type LockName, type Scope } from '../rules/change-control.js';
import { parseDuration } from '../rules/rollout.js';
import { acquireLock, addBlock, addFreeze, listFreezes, listLocks, lockStatus, newExplicitLockId, releaseLock, removeBlock, removeFreezes, type LockStatus } from '../service/change-control.js';
import { fetchAll } from '../http/paging.js';
import { DEFAULT_TTL_MS, recordControl } from '../plan/change-control.js';
import type { PlanContext } from '../plan/context.js';

export type { LockStatus };

/** A scope in words (`prod`, `my-bundle/ios/prod`, `pack@prod`), checked: UsageError naming what is wrong. */
export function scopeOf(text: string): Scope {
  const scope = parseScope(text);
  if ('error' in scope) throw new UsageError(scope.error);
  return scope;
}

export interface AcquireLockInput {
  /** `prod`, `my-bundle/ios/prod` or `pack@prod`. */
  scope: string;
  /** The acting user: the holder. */
  user: string;
  /** The lease in ms (default 15 minutes): the lock ends by itself this long after it was taken or renewed. */
  ttlMs?: number;
  /** Why: shown to every write the lock refuses. */
  reason?: string;
  /** The lock this caller holds already: renewed (a new lease from now). */
  lockId?: string;
  /** How long to wait for another holder (ms; default 0: refused at once, BlockedError naming it). */
  waitMs?: number;
  /** Told once when it starts waiting for another holder. */
  onWait?: (holder: { lockId: string; leaseEnd: string }) => void;
}

/** What locks.acquire() took, or renewed (`ahs lock acquire --json`): the lock id, the holder, since when, when its lease ends. */
export interface LockAcquired {
  scope: string;
  lockId: string;
  holder: string;
  since: string;
  leaseEnd: string;
  /** The caller's own lock, given as `lockId`, had its lease renewed. */
  renewed: boolean;
}

/** Takes the lock of a scope (a compare-and-set in the service); BlockedError when another run holds it beyond `waitMs`. */
export async function acquireScopeLock(ctx: PlanContext, input: AcquireLockInput): Promise<LockAcquired> {
  const scope = scopeOf(input.scope);
  const ttlMs = input.ttlMs ?? DEFAULT_TTL_MS;
  if (!Number.isFinite(ttlMs) || ttlMs < 1000) throw new UsageError(`a lease of ${ttlMs} ms is too short: give 1 s or more, such as 15m`);
  const lockId = input.lockId ?? newExplicitLockId(ctx.io.env);
  const api = await ctx.api();
  await assertScopeExists(api, scope);
  const held = await acquireLock(ctx, api, {
    scope,
    lockId,
    ttlMs,
    user: input.user,
    command: 'lock acquire',
    env: ctx.io.env,
    ...(input.reason ? { reason: input.reason } : {}),
    waitMs: input.waitMs ?? 0,
    signal: ctx.signal,
    onWait: (holder: LockName) => input.onWait?.({ lockId: holder.lockId, leaseEnd: new Date(holder.leaseEnd).toISOString() }),
  });
  const doc: LockAcquired = { scope: scopeText(scope), lockId, holder: input.user, since: new Date(held.since).toISOString(), leaseEnd: new Date(held.leaseEnd).toISOString(), renewed: input.lockId !== undefined && held.since < held.leaseEnd - ttlMs };
  await recordControl(ctx, { address: `lock.${doc.scope}`, before: null, after: { lockId, holder: input.user, leaseEnd: doc.leaseEnd } }, { action: 'lock', target: doc.scope, until: doc.leaseEnd, lockId, ...(input.reason ? { reason: input.reason } : {}) });
  return doc;
}

/**
 * A channel's asset and a collection must exist to be locked: a typo (`ahs lock
 * acquire my-bundel/ios/prod`) would otherwise lock nothing anyone writes, and
 * say it did. An environment is judged by the service at the compare-and-set
 * (unknown: 404, exit 4). Release and break take any scope: a lock outlives
 * what it locked.
 */
async function assertScopeExists(api: Awaited<ReturnType<PlanContext['api']>>, scope: Scope): Promise<void> {
  if (scope.kind === 'channel' && !(await findAsset(api, scope.assetId))) throw new NotFoundError(`asset ${scope.assetId} not found: a channel's lock names an existing asset (ahs asset list)`);
  if (scope.kind === 'collection' && !(await readCollection(api, scope.collectionId))) throw new NotFoundError(`collection ${scope.collectionId} not found: a collection's lock names an existing one (ahs collection list)`);
}

/** What locks.release() did (`ahs lock release --json`). */
export interface LockReleased {
  scope: string;
  /** False: the lock was not held by `lockId` (free, or its lease ended). */
  released: boolean;
  lockId: string;
}

/** A lock to release: its scope and the lock id acquiring it answered. */
export interface LockReleaseInput {
  scope: string;
  lockId: string;
  user: string;
}

/** Releases a lock the caller holds; BlockedError when another run holds it (lock break ends that one). */
export async function releaseScopeLock(ctx: PlanContext, input: LockReleaseInput): Promise<LockReleased> {
  const scope = scopeOf(input.scope);
  const api = await ctx.api();
  const ended = await releaseLock(ctx, api, scope, input.lockId, input.user);
  const doc: LockReleased = { scope: scopeText(scope), released: ended !== undefined, lockId: input.lockId };
  if (ended) await recordControl(ctx, { address: `lock.${doc.scope}`, before: { lockId: input.lockId, holder: ended.holder }, after: null }, { action: 'unlock', target: doc.scope, lockId: input.lockId });
  return doc;
}

/** Who holds the lock of a scope, since when, why, and when its lease ends (`ahs lock status --json`). */
export async function scopeLockStatus(ctx: PlanContext, input: { scope: string }): Promise<LockStatus> {
  const scope = scopeOf(input.scope);
  return lockStatus(ctx, await ctx.api(), scope);
}

/** Every lock held now, of every scope (`ahs lock status` without SCOPE); in one environment when `env` is given. */
export async function heldLocks(ctx: PlanContext, input: { env?: string | undefined } = {}): Promise<LockStatus[]> {
  return listLocks(ctx, await ctx.api(), input.env);
}

/** What locks.break() ended (`ahs lock break --json`). */
export interface LockBroken {
  scope: string;
  /** False: nobody held it. */
  broken: boolean;
  lockId: string | null;
  holder: string | null;
}

/** A lock to break: its scope and why (recorded). */
export interface LockBreakInput {
  scope: string;
  reason: string;
  user: string;
}

/** Ends whoever holds the lock of a scope, recorded in the journal with the reason. */
export async function breakScopeLock(ctx: PlanContext, input: LockBreakInput): Promise<LockBroken> {
  const scope = scopeOf(input.scope);
  if (!input.reason) throw new UsageError('lock break needs --reason R: a break is recorded in the journal with its reason');
  const api = await ctx.api();
  const ended = await releaseLock(ctx, api, scope, undefined, input.user);
  const doc: LockBroken = { scope: scopeText(scope), broken: ended !== undefined, lockId: ended?.lockId ?? null, holder: ended?.holder ?? null };
  if (ended) await recordControl(ctx, { address: `lock.${doc.scope}`, before: { lockId: ended.lockId, holder: ended.holder }, after: null }, { action: 'unlock', broken: true, target: doc.scope, ...(ended.lockId ? { lockId: ended.lockId } : {}), reason: input.reason });
  return doc;
}

/** A freeze's window: one of `until` (a time), `forMs` (from now on the service's clock) or `weekly` (in `zone`, default UTC). */
export interface FreezeInput {
  env: string;
  reason: string;
  user: string;
  /** An ISO time (2026-12-27T08:00:00Z). */
  until?: string;
  /** From now, on the service's clock (ms). */
  forMs?: number;
  /** 'Fri 16:00-Mon 08:00'. */
  weekly?: string;
  /** The weekly window's time zone (Europe/Berlin; default UTC). */
  zone?: string;
}

/** The freeze freezes.set() recorded (`ahs freeze --json`). */
export interface FreezeSet {
  env: string;
  window: string;
  /** When it ends, if it holds now (the service's clock); null when it does not hold right now. */
  until: string | null;
  versionId: string;
}

/** Freezes an environment: every write to it is refused (BlockedError) but rollback, rollout abort, version unblock and --break-glass. */
export async function setFreeze(ctx: PlanContext, input: FreezeInput, names: { until: string; for: string; weekly: string; zone: string } = { until: 'until', for: 'forMs', weekly: 'weekly', zone: 'zone' }): Promise<FreezeSet> {
  if (!input.reason) throw new UsageError('freeze needs --reason R: it is shown to every write the freeze refuses');
  const given = [input.until, input.forMs, input.weekly].filter((value) => value !== undefined).length;
  if (given !== 1) throw new UsageError(`a freeze needs exactly one of ${names.until}, ${names.for} and ${names.weekly}`);
  if (input.zone !== undefined && input.weekly === undefined) throw new UsageError(`${names.zone} goes with ${names.weekly}: ${names.until} takes a time with its offset (2026-12-27T08:00:00+01:00)`);
  const api = await ctx.api();
  let window: FreezeWindow;
  if (input.weekly !== undefined) {
    const weekly = parseWeekly(input.weekly, input.zone ?? 'UTC');
    if ('error' in weekly) throw new UsageError(weekly.error);
    window = { kind: 'weekly', window: weekly };
  } else if (input.until !== undefined) {
    // To the second, as the freeze's record keeps it.
    const until = Math.floor(Date.parse(input.until) / 1000) * 1000;
    if (!Number.isFinite(until)) throw new UsageError(`${names.until} ${JSON.stringify(input.until)} is not a time: give it as 2026-12-27T08:00:00Z`);
    // A freeze that ended before it was set would freeze nothing: on the service's clock (one read tells it).
    await api.get(api.path('va'), { pageSize: '1' }).catch(() => undefined);
    if (until <= api.serviceNow()) throw new UsageError(`${names.until} ${input.until} is in the past (the service's clock says ${new Date(api.serviceNow()).toISOString()}): give a later time, or ${names.for} DURATION`);
    window = { kind: 'until', until };
  } else {
    const ms = input.forMs!;
    if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`${names.for} must be a positive duration`);
    // "Now" is the service's clock: one read tells it (its Date header).
    await api.get(api.path('va'), { pageSize: '1' }).catch(() => undefined);
    window = { kind: 'until', until: Math.floor((api.serviceNow() + ms) / 1000) * 1000 };
  }
  const version = await addFreeze(api, input.env, window, input.reason, input.user, ctx.io.env, true);
  const until = freezeEnd({ env: input.env, window }, api.serviceNow());
  const doc: FreezeSet = { env: input.env, window: describeWindow(window), until: until === undefined ? null : new Date(until).toISOString(), versionId: version.versionId };
  await recordControl(ctx, { address: `freeze.${input.env}`, before: null, after: { window: doc.window } }, { action: 'freeze', target: input.env, until: doc.until, reason: input.reason, window: doc.window });
  return doc;
}

/** A freeze as freezes.list() lists it (`ahs freeze list --json`). */
export interface FreezeListed {
  env: string;
  window: string;
  /** It holds now, on the service's clock. */
  active: boolean;
  until: string | null;
  actor: string | null;
  createdAt: string | null;
  /** Null when its record could not be read back. */
  reason: string | null;
  versionId: string | null;
}

/** Every freeze, whether it holds now (the service's clock), who set it and why. */
export async function listEnvFreezes(ctx: PlanContext): Promise<FreezeListed[]> {
  const api = await ctx.api();
  const freezes = await listFreezes(ctx, api);
  const now = api.serviceNow();
  return freezes.map((f) => {
    const until = freezeEnd(f, now);
    return { env: f.env, window: describeWindow(f.window), active: until !== undefined, until: until === undefined ? null : new Date(until).toISOString(), actor: f.actor, createdAt: f.createdAt, reason: f.reason, versionId: f.versionId ?? null };
  });
}

/** What freezes.remove() lifted (`ahs unfreeze --json`). */
export interface FreezeRemoved {
  env: string;
  /** The records deleted (none: it was not frozen). */
  removed: string[];
  windows: string[];
}

/** The environment whose freezes are lifted, and why (recorded). */
export interface FreezeRemoveInput {
  env: string;
  reason?: string;
  user: string;
}

/** Lifts every freeze of an environment. */
export async function removeFreeze(ctx: PlanContext, input: FreezeRemoveInput): Promise<FreezeRemoved> {
  const api = await ctx.api();
  const removed = await removeFreezes(api, input.env, input.user);
  const windows = removed.map((f) => describeWindow(f.window));
  if (removed.length > 0) await recordControl(ctx, { address: `freeze.${input.env}`, before: { windows }, after: null }, { action: 'unfreeze', target: input.env, ...(input.reason ? { reason: input.reason } : {}) });
  return { env: input.env, removed: removed.map((f) => f.versionId!), windows };
}

/** What versions.block() recorded (`ahs version block --json`). */
export interface VersionBlocked {
  assetId: string;
  versionId: string;
  blocked: true;
  /** It was blocked already (kept as it was). */
  existed: boolean;
  blockVersionId: string;
}

/** The version to block, and why (shown to every write the block refuses). */
export interface VersionBlockInput {
  assetId: string;
  versionId: string;
  reason: string;
  /** Where the block's record is deployed, so that its reason reads back. */
  envId?: string;
  user: string;
}

/** Blocks a version: deploy, promote-default, release, rollout and apply refuse it (BlockedError) until unblocked. */
export async function blockVersion(ctx: PlanContext, input: VersionBlockInput): Promise<VersionBlocked> {
  if (!input.reason) throw new UsageError('version block needs --reason R: it is shown to every write the block refuses');
  const api = await ctx.api();
  // A block of a version that does not exist would refuse nothing and say it blocked it (a typo of the id).
  if (!(await findVersion(api, input.assetId, input.versionId))) throw await versionNotFound(api, input.assetId, input.versionId);
  const { version, existed } = await addBlock(api, input.assetId, input.versionId, input.reason, input.user, input.envId, ctx.io.env);
  if (!existed) await recordControl(ctx, { address: `block.${input.assetId}.${input.versionId}`, before: null, after: { blocked: true } }, { action: 'block', target: `version.${input.assetId}.${input.versionId}`, reason: input.reason });
  return { assetId: input.assetId, versionId: input.versionId, blocked: true, existed, blockVersionId: version.versionId };
}

/** What versions.unblock() lifted (`ahs version unblock --json`). */
export interface VersionUnblocked {
  assetId: string;
  versionId: string;
  /** False: it was not blocked. */
  unblocked: boolean;
}

/** The version whose block is lifted, and why (recorded). */
export interface VersionUnblockInput {
  assetId: string;
  versionId: string;
  reason?: string;
  user: string;
}

/** Lifts a version's block (allowed during a freeze). */
export async function unblockVersion(ctx: PlanContext, input: VersionUnblockInput): Promise<VersionUnblocked> {
  const api = await ctx.api();
  // The block's record may be deployed in some environment (its reason is read there): OFFLINE there before it is deleted.
  const envs = await fetchAll<{ envId: string; versionName: string }>(api, api.path('va', 'ahs-control', 'asset-urls'), {}).catch(() => []);
  const removed = await removeBlock(api, input.assetId, input.versionId, input.user, [...new Set(envs.map((e) => e.envId))]);
  if (removed) await recordControl(ctx, { address: `block.${input.assetId}.${input.versionId}`, before: { blocked: true }, after: null }, { action: 'unblock', target: `version.${input.assetId}.${input.versionId}`, ...(input.reason ? { reason: input.reason } : {}) });
  return { assetId: input.assetId, versionId: input.versionId, unblocked: removed !== undefined };
}

/** A duration in words (15m, 30s) as ms, or a UsageError naming the option. */
export function durationOf(text: string, name: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`${name} ${JSON.stringify(text)} is not a duration: give it as 30s, 15m or 2h`);
  return ms;
}

