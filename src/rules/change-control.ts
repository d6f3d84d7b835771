// Change control (cli.md, "Change control: locks, freezes and blocked
// versions"), the pure half: how locks, freezes and blocks are written into
// the service's own records, how they are read back, and what they decide
// for a write. No I/O: src/service/change-control.ts reads and writes them,
// the executor (src/plan/change-control.ts) asks `decideWrite` once per run.
//
// DESIGN
//
// The service has no locks, so a lock is the Default of a channel of a
// sentinel asset (Terraform's statemgr: `Lock(info) (id, error)`; the
// LockInfo here is the Default version's name plus its content).
//
// - Where. An environment lock on ENV is the Default of the channel
//   (`ahs-control-lock`, `generic`, ENV); a channel lock A/P/ENV and a
//   collection lock C@ENV are the Default of (`ahs-control-lock-<h>`,
//   `generic`, ENV), `<h>` a 64-bit hash of "A/P" or "C" (an asset id is too
//   long to carry in another id). Every client of the domain computes the
//   same cell for the same scope. The asset is created (type 9999, Other) by
//   the first acquirer; two creating it at once: one gets 409, which is fine.
// - What. The Default's versionName is `lock <leaseEnd> <since> <lockId>`
//   (times as 20261201T224000Z, the service's clock) or `free`; the version's
//   content is a JSON document (holder: actor, command, CI run; scope;
//   reason), read only to explain a refusal: nothing is decided from it.
//   The version's createdBy is the actor, as the service recorded it.
// - Acquire (and renew). Read the cell's Default D (one request). D is free
//   when it is `free`, absent, unreadable (a name that does not parse
//   decides nothing), ours (renewal), or a lease whose end has passed on the
//   service's clock (its Date header). Then upload a version V named for us
//   and our new lease end, deploy it LIVE on the cell (LIVE means nothing
//   here), and promote it to DEFAULT with `currentVersionId` = D (no D: no
//   demotion info). That promotion is the service's compare-and-set: it
//   succeeds only while D is still the Default; when another run's
//   promotion landed first, the Default moved and ours fails (409, or 400
//   since the spec lists both; and without demotion info over an existing
//   Default, 400). Whatever the status, the outcome is decided from a
//   re-read of the cell: V is the Default, or it is not. Any number of
//   acquirers racing from the same D: exactly one promotion applies, so
//   exactly one holds the lock. No read-then-write decides ownership.
// - Expiry. A holder killed mid-lease leaves its version Default; once its
//   lease end passed on the service's clock, the next acquirer's
//   compare-and-set is against that stale version: no `break`, no person.
//   A holder that outlives its TTL renews (a new V' with a later end,
//   compare-and-set against its own V) every third of it; a renewal that
//   finds another Default has lost the lock and stops its run.
// - Release / break. Promote a version named `free` (one kept LIVE on the
//   cell, uploaded once) with compare-and-set against the holder's V: a
//   release never frees a lock another run took meanwhile. `break` is the
//   same against whatever holder it read, and is recorded with its reason.
// - Freezes and blocks are versions of `ahs-control` (never deployed as
//   content): `freeze ENV until 20261224T000000Z`, `freeze ENV weekly Fri
//   16:00-Mon 08:00 Europe/Berlin`, `block ASSET/VERSION` (or `block #<h>`
//   when that would pass 64 characters). Unfreeze and unblock delete them.
//   Their reasons are in their content (deployed LIVE on ahs-control's
//   channel in the freeze's environment, so that delivery can read it).
// - Cost. A write's check reads `ahs-control`'s versions (freezes, blocks)
//   and the Default of each lock cell its scopes name (its env's, its
//   channel's or collection's), all in parallel: one round. A read that
//   fails stops the write (exit 6); only a 404 of a sentinel asset that does
//   not exist says "nothing there".
// - Not content. `ahs-control` and `ahs-control-lock*` are sentinels:
//   export, plan and the pickers leave them out (isSentinelAsset).
import { z } from 'zod';
import { LOCK_ASSET } from './control-names.js';

export { CONTROL_ASSET, LOCK_ASSET, isSentinelAsset } from './control-names.js';
/** The platform of every sentinel version (collections' default: every service has it). */
export const CONTROL_PLATFORM = 'generic';
/** Other: the type the journal uses too. */
export const CONTROL_ASSET_TYPE = '9999';
export const FREE_NAME = 'free';
/** The spec's versionName limit. */
const NAME_MAX = 64;

// --- scopes -----------------------------------------------------------------

export type Scope =
  | { kind: 'env'; env: string }
  | { kind: 'channel'; assetId: string; platform: string; env: string }
  | { kind: 'collection'; collectionId: string; env: string };

/** `prod`, `my-bundle/ios/prod`, `pack@prod`; a message naming what is wrong otherwise. */
export function parseScope(text: string): Scope | { error: string } {
  const value = text.trim();
  const at = /^([^@/\s]+)@([^@/\s]+)$/.exec(value);
  if (at) return { kind: 'collection', collectionId: at[1]!, env: at[2]! };
  const parts = value.split('/');
  if (parts.length === 3 && parts.every((part) => /^[^\s/@]+$/.test(part))) return { kind: 'channel', assetId: parts[0]!, platform: parts[1]!, env: parts[2]! };
  if (/^[^\s/@]+$/.test(value)) return { kind: 'env', env: value };
  return { error: `${JSON.stringify(text)} is not a scope: give an environment (prod), a channel (ASSET/PLATFORM/ENV) or a collection in an environment (COLLECTION@ENV)` };
}

export function scopeText(scope: Scope): string {
  if (scope.kind === 'env') return scope.env;
  if (scope.kind === 'channel') return `${scope.assetId}/${scope.platform}/${scope.env}`;
  return `${scope.collectionId}@${scope.env}`;
}

/** The scope's lock cell: the sentinel asset whose Default on (CONTROL_PLATFORM, env) is the lock. */
export function lockAssetOf(scope: Scope): string {
  if (scope.kind === 'env') return LOCK_ASSET;
  const key = scope.kind === 'channel' ? `channel:${scope.assetId}/${scope.platform}` : `collection:${scope.collectionId}`;
  return `${LOCK_ASSET}-${hash64(key)}`;
}

/** The lock scopes that cover a scope: its environment's, and its own when narrower. */
export function coveringScopes(scope: Scope): Scope[] {
  return scope.kind === 'env' ? [scope] : [{ kind: 'env', env: scope.env }, scope];
}

/** FNV-1a, 64 bits, as 16 hex digits: the same on every client (no crypto needed for a name). */
export function hash64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

// --- times ------------------------------------------------------------------

/** 20261201T224000Z: a time in a version name (to the second, UTC). */
export function compactTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

export function parseCompactTime(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isFinite(ms) && compactTime(ms) === text ? ms : undefined;
}

// --- locks ------------------------------------------------------------------

export interface LockName {
  kind: 'lock';
  lockId: string;
  /** The lease's end, on the service's clock (ms). */
  leaseEnd: number;
  /** When the holder first took it (ms). */
  since: number;
}

export type CellName = LockName | { kind: 'free' };

const LOCK_ID = /^[a-z0-9][a-z0-9-]{5,31}$/;

export function isLockId(text: string): boolean {
  return LOCK_ID.test(text);
}

export function lockName(lock: Omit<LockName, 'kind'>): string {
  return `lock ${compactTime(lock.leaseEnd)} ${compactTime(lock.since)} ${lock.lockId}`;
}

/** A lock cell's Default name as read back: a lock, `free`, or undefined (unreadable: decides nothing). */
export const cellNameSchema = z.string().transform((name, ctx): CellName => {
  if (name === FREE_NAME) return { kind: 'free' };
  const m = /^lock (\S+) (\S+) (\S+)$/.exec(name);
  const leaseEnd = m ? parseCompactTime(m[1]!) : undefined;
  const since = m ? parseCompactTime(m[2]!) : undefined;
  if (!m || leaseEnd === undefined || since === undefined || !LOCK_ID.test(m[3]!)) {
    ctx.addIssue({ code: 'custom', message: `not a lock: ${JSON.stringify(name)}` });
    return z.NEVER;
  }
  return { kind: 'lock', lockId: m[3]!, leaseEnd, since };
});

export function parseCellName(name: string): CellName | undefined {
  const parsed = cellNameSchema.safeParse(name);
  return parsed.success ? parsed.data : undefined;
}

/** What a lock cell holds, as read: its Default's name (undefined: no Default) and that version's id. */
export interface CellFacts {
  scope: Scope;
  defaultName?: string;
  defaultVersionId?: string;
}

/** Who holds a cell now: the lock when its lease runs at `now`, else nobody (free, ended, unreadable or none). */
export function holderOf(cell: CellFacts, now: number): LockName | undefined {
  if (cell.defaultName === undefined) return undefined;
  const name = parseCellName(cell.defaultName);
  return name?.kind === 'lock' && name.leaseEnd > now ? name : undefined;
}

// --- a run's own lock, and a holder that may be dead ------------------------------
//
// apply, rollout, release, item sync and collection-deploy take their
// scope's lock for their duration by default, so a run killed while it
// holds it must neither leave a lock that needs a person nor stop its own
// re-run. Terraform's statemgr names a holder (LockInfo: a random ID, Who =
// user@host, Operation, Created) but gives it no lease, so a killed run's
// lock waits for `force-unlock ID` (the most duplicated request of its
// tracker). Here:
//
// - A run's own lock has the id `run-<12 hex>` and a short lease (15 s by
//   default, --lock-ttl), renewed every third of it while the run goes and
//   released when it ends: a holder that is alive keeps moving its lease
//   end; a killed one leaves a lease that ends within the TTL.
// - A write that meets another run's lock (a `run-` id) whose lease ends
//   within what its --timeout leaves does not refuse at once: it watches the
//   cell. The lock renewed (the Default replaced by another lock version
//   while the first lease runs): its holder is alive, exit 12 naming it.
//   The lease ended, or the lock was released: the holder is gone, and the
//   write goes on (a holding run takes the lock over by compare-and-set
//   against the dead holder's version). So the re-run of a killed run waits
//   at most one TTL and converges; a live run is refused within a third of
//   its TTL. A lock taken with `ahs lock acquire` is a person's or a job's
//   on purpose: it is waited for only with --lock-timeout.
// - Under GitHub Actions `ahs lock acquire` names its lock for the job
//   (`gh-<10 hex of server/repo/run id/job>-<attempt>-<6 hex>`). GitHub
//   re-runs a job (GITHUB_RUN_ATTEMPT + 1) only once its run has completed,
//   so a lock named for an earlier attempt of the same job has no live
//   holder: the re-run takes it over instead of waiting out a long lease
//   (a cancelled job whose `trap ... EXIT` never ran). Matrix legs share
//   the job and the attempt: they never take over one another's.

export const RUN_LOCK_PREFIX = 'run-';

/** A lock a run took for itself (its lease is short and renewed while it runs). */
export function isRunLock(lockId: string): boolean {
  return lockId.startsWith(RUN_LOCK_PREFIX);
}

/** A GitHub Actions job's lock id: the job's key, the attempt, a random tail. */
const CI_LOCK = /^gh-([0-9a-f]{10})-(\d{1,4})-[0-9a-f]{6}$/;

export function ciLockId(jobKey: string, attempt: number, random: string): string {
  return `gh-${jobKey}-${attempt}-${random}`;
}

/** Whether `holder` was taken by an earlier attempt of the job `self` runs in (so its holder is gone). */
export function isEarlierAttempt(holder: string, self: string | undefined): boolean {
  const a = CI_LOCK.exec(holder);
  const b = self === undefined ? null : CI_LOCK.exec(self);
  return a !== null && b !== null && a[1] === b[1] && Number(a[2]) < Number(b[2]);
}

/** Whether a write that meets `holder` watches it (a run's lease ending within `budgetMs`) rather than refusing at once. */
export function watchesLease(holder: LockName, now: number, budgetMs: number): boolean {
  return isRunLock(holder.lockId) && holder.leaseEnd - now <= budgetMs;
}

/**
 * What a watched cell says now, against the lock first seen there: `ended`
 * (free, its lease over, or unreadable: nobody holds it), `alive` (another
 * lock version holds it: the holder renewed, or another run took it),
 * `watching` (the same version, its lease still running).
 */
export function watchOutcome(firstVersionId: string | undefined, cell: CellFacts, now: number): 'ended' | 'alive' | 'watching' {
  const holder = holderOf(cell, now);
  if (!holder) return 'ended';
  return cell.defaultVersionId === firstVersionId ? 'watching' : 'alive';
}

/** What an acquirer does with the cell it read: take it (compare-and-set against `over`), or wait for the holder. */
export type AcquireDecision = { action: 'take'; over: string | null; renew: boolean; since: number | undefined } | { action: 'wait'; holder: LockName };

export function decideAcquire(cell: CellFacts, lockId: string, now: number): AcquireDecision {
  const holder = holderOf(cell, now);
  const over = cell.defaultVersionId ?? null;
  if (holder && holder.lockId !== lockId && !isEarlierAttempt(holder.lockId, lockId)) return { action: 'wait', holder };
  if (holder && holder.lockId !== lockId) return { action: 'take', over, renew: false, since: undefined };
  return { action: 'take', over, renew: holder !== undefined, since: holder?.since };
}

// --- freezes ----------------------------------------------------------------

export const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MINUTES_A_WEEK = 7 * 1440;

export interface WeeklyWindow {
  /** Minute of the week (Sunday 00:00 = 0) in `zone`. */
  start: number;
  end: number;
  zone: string;
  text: string;
}

export type FreezeWindow = { kind: 'until'; until: number } | { kind: 'weekly'; window: WeeklyWindow };

export interface Freeze {
  env: string;
  window: FreezeWindow;
  /** The version that holds it (unfreeze deletes it). */
  versionId?: string;
}

function minuteOfWeek(day: string, clock: string): number | undefined {
  const index = DAYS.findIndex((d) => d.toLowerCase() === day.toLowerCase().slice(0, 3)) ;
  const m = /^(\d{1,2}):(\d{2})$/.exec(clock);
  if (index < 0 || day.length < 3 || !m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
  return index * 1440 + Number(m[1]) * 60 + Number(m[2]);
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** 'Fri 16:00-Mon 08:00' in a zone (default UTC); a message naming what is wrong otherwise. */
export function parseWeekly(text: string, zone = 'UTC'): WeeklyWindow | { error: string } {
  const m = /^\s*([A-Za-z]+)\s+(\d{1,2}:\d{2})\s*-\s*([A-Za-z]+)\s+(\d{1,2}:\d{2})\s*$/.exec(text);
  const start = m ? minuteOfWeek(m[1]!, m[2]!) : undefined;
  const end = m ? minuteOfWeek(m[3]!, m[4]!) : undefined;
  if (start === undefined || end === undefined) return { error: `--weekly ${JSON.stringify(text)} is not a weekly window: give it as 'Fri 16:00-Mon 08:00' (day, 24-hour time, a dash, day, time)` };
  if (start === end) return { error: `--weekly ${JSON.stringify(text)} starts and ends at the same time: a window needs a length` };
  if (!isTimeZone(zone)) return { error: `--zone ${JSON.stringify(zone)} is not a time zone: give one such as Europe/Berlin or UTC` };
  const fmt = (minute: number) => `${DAYS[Math.floor(minute / 1440)]} ${String(Math.floor((minute % 1440) / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
  return { start, end, zone, text: `${fmt(start)}-${fmt(end)}` };
}

/** The minute of the week of `now` in `zone`, and the seconds into that minute. */
function zonedMinute(now: number, zone: string): { minute: number; second: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(now));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = DAYS.indexOf(get('weekday') as (typeof DAYS)[number]);
  return { minute: day * 1440 + Number(get('hour')) * 60 + Number(get('minute')), second: Number(get('second')) + (now % 1000) / 1000 };
}

/** When the freeze holds at `now`: the time it ends (ms); undefined when it does not hold. */
export function freezeEnd(freeze: Freeze, now: number): number | undefined {
  if (freeze.window.kind === 'until') return now < freeze.window.until ? freeze.window.until : undefined;
  const { start, end, zone } = freeze.window.window;
  const { minute, second } = zonedMinute(now, zone);
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return undefined;
  const left = (end - minute + MINUTES_A_WEEK) % MINUTES_A_WEEK;
  return Math.round(now + (left * 60 - second) * 1000);
}

export function freezeName(env: string, window: FreezeWindow): string {
  const tail = window.kind === 'until' ? `until ${compactTime(window.until)}` : `weekly ${window.window.text}${window.window.zone === 'UTC' ? '' : ` ${window.window.zone}`}`;
  return `freeze ${env} ${tail}`;
}

export function describeWindow(window: FreezeWindow): string {
  return window.kind === 'until' ? `until ${new Date(window.until).toISOString()}` : `weekly ${window.window.text} ${window.window.zone}`;
}

/** A freeze version's name as read back; undefined when it is not one. */
export function parseFreezeName(name: string): Omit<Freeze, 'versionId'> | undefined {
  const m = /^freeze (\S+) (until (\S+)|weekly (\S+ \S+-\S+ \S+)(?: (\S+))?)$/.exec(name);
  if (!m) return undefined;
  if (m[3] !== undefined) {
    const until = parseCompactTime(m[3]);
    return until === undefined ? undefined : { env: m[1]!, window: { kind: 'until', until } };
  }
  const window = parseWeekly(m[4]!, m[5] ?? 'UTC');
  return 'error' in window ? undefined : { env: m[1]!, window: { kind: 'weekly', window } };
}

// --- blocks -----------------------------------------------------------------

/** `block ASSET/VERSION`, or `block #<h>` when that passes the versionName limit. */
export function blockName(assetId: string, versionId: string): string {
  const plain = `block ${assetId}/${versionId}`;
  return plain.length <= NAME_MAX ? plain : `block #${hash64(`${assetId}/${versionId}`)}`;
}

export function isBlockName(name: string): boolean {
  return /^block (\S+\/\S+|#[0-9a-f]{16})$/.test(name);
}

// --- a write's check ----------------------------------------------------------

/** What the check read: each lock cell its scopes need, the freezes and the blocks (version names of ahs-control). */
export interface ControlFacts {
  /** Now on the service's clock (ms). */
  now: number;
  cells: CellFacts[];
  /** The names of ahs-control's versions, with their ids (freezes and blocks). */
  records: Array<{ name: string; versionId: string }>;
}

export interface WriteIntent {
  /** The scopes it writes (channels, collections in an env). */
  scopes: Scope[];
  /** The versions it would make LIVE or DEFAULT (deploy, promote-default, release reuse, rollout, apply). */
  promotes: Array<{ assetId: string; versionId: string }>;
  /** The run's own lock (--lock-id / AHS_LOCK_ID, or the one it took). */
  lockId?: string;
  /** The lock id this run would take under GitHub Actions (a lock of an earlier attempt of its job is not another holder's). */
  ciLockId?: string;
  /** rollback, rollout abort, version unblock: the ways out of an incident. */
  freezeExempt?: boolean;
  /** --break-glass --reason R: a freeze lets this one write through (recorded). */
  breakGlass?: boolean;
}

export type WriteDecision =
  | { ok: true; brokenFreezes: Freeze[] }
  | { ok: false; blockedBy: 'lock'; scope: Scope; holder: LockName; versionId?: string }
  | { ok: false; blockedBy: 'freeze'; freeze: Freeze; until: number }
  | { ok: false; blockedBy: 'version'; assetId: string; versionId: string; blockVersionId: string };

export function freezesOf(records: ControlFacts['records']): Freeze[] {
  return records.flatMap((r) => {
    const freeze = parseFreezeName(r.name);
    return freeze ? [{ ...freeze, versionId: r.versionId }] : [];
  });
}

function envsOf(scopes: Scope[]): string[] {
  return [...new Set(scopes.map((s) => s.env))];
}

/**
 * What change control decides for one write: a lock another holder has on a
 * scope it writes (or on that scope's environment), then a freeze of one of
 * its environments (unless exempt or given --break-glass), then a blocked
 * version it would promote. `ok` lists the freezes --break-glass went through.
 */
export function decideWrite(facts: ControlFacts, write: WriteIntent): WriteDecision {
  for (const scope of write.scopes) {
    for (const covering of coveringScopes(scope)) {
      const cell = facts.cells.find((c) => scopeText(c.scope) === scopeText(covering));
      if (!cell) continue;
      const holder = holderOf(cell, facts.now);
      if (holder && holder.lockId !== write.lockId && !isEarlierAttempt(holder.lockId, write.ciLockId)) return { ok: false, blockedBy: 'lock', scope: covering, holder, versionId: cell.defaultVersionId };
    }
  }
  const brokenFreezes: Freeze[] = [];
  if (!write.freezeExempt) {
    const envs = envsOf(write.scopes);
    for (const freeze of freezesOf(facts.records)) {
      if (!envs.includes(freeze.env)) continue;
      const until = freezeEnd(freeze, facts.now);
      if (until === undefined) continue;
      if (write.breakGlass) brokenFreezes.push(freeze);
      else return { ok: false, blockedBy: 'freeze', freeze, until };
    }
  }
  for (const { assetId, versionId } of write.promotes) {
    const name = blockName(assetId, versionId);
    const block = facts.records.find((r) => r.name === name);
    if (block) return { ok: false, blockedBy: 'version', assetId, versionId, blockVersionId: block.versionId };
  }
  return { ok: true, brokenFreezes };
}

/** The cells a write's check reads: each scope's and its environment's, once. */
export function cellsToRead(scopes: Scope[]): Scope[] {
  const seen = new Map<string, Scope>();
  for (const scope of scopes) for (const covering of coveringScopes(scope)) seen.set(scopeText(covering), covering);
  return [...seen.values()];
}
