// `ahs history` and the library's client.history(), and rollback's choice of
// target: the journal's entries filtered to what a person asks about (an
// asset or collection, a platform, an environment), newest first, and the
// current state of each channel beside its last entry.
import type { ApiClient } from '../http/client.js';
import { NotFoundError, UsageError } from '../errors.js';
import { journalChoice } from './journal-setting.js';
import { escapeControls } from '../util/escape.js';
import { readChannel, currentDefault } from './assets.js';
import { readCollection } from './collections.js';
import type { Collection } from '../rules/schemas.js';
import { isUnreadable, listEarly, readEntries, type Change, type EarlyListing, type EntryRange, type JournalContext, type JournalEntry, type UnreadableEntry } from './journal.js';

/** A range's end given back from now (`--since 10m`): measured on the service's clock when the read starts. */
export type RangeEnd = Date & { backMs?: number };

/** How far this runner's clock may be off the service's for the early listing of a relative range to serve. */
export const CLOCK_MARGIN_MS = 10 * 60_000;

/** An end of a range on this runner's clock (before the service's is known), moved by `marginMs`; an absolute end as given. */
export function widened(end: RangeEnd | undefined, now: number, marginMs: number): Date | undefined {
  if (end === undefined) return undefined;
  return end.backMs === undefined ? end : new Date(now - end.backMs + marginMs);
}

export interface HistoryFilter extends EntryRange {
  /** An asset id or a collection id: only its changes. */
  id?: string;
  platform?: string;
  envId?: string;
  limit?: number;
}

/** A change as history shows it: with, on the newest change of a channel's Default, what the service shows now. */
export interface HistoryChange extends Change {
  current?: unknown;
  /** The service's state differs from this change's `after`: a change made outside ahs. */
  disagrees?: boolean;
}

/** An entry as history lists it (of either version): its changes narrowed, marked with the current state. */
export type HistoryEntry = JournalEntry extends infer E ? (E extends unknown ? Omit<E, 'changes'> & { changes: HistoryChange[] } : never) : never;

/** The parts of an address: `channel.A.P.E` → {kind: channel, id: A, platform: P, envId: E}. */
export function addressParts(address: string): { kind: string; id?: string; platform?: string; envId?: string } {
  const [kind = '', id, ...rest] = address.split('.');
  if (kind === 'channel') return { kind, id, platform: rest[0], envId: rest[1] };
  if (kind === 'collection' && rest[0] === 'deployment') return { kind, id, envId: rest[1] };
  if (kind === 'asset' && rest[0] === 'deployments') return { kind, id, envId: rest[1] };
  return { kind, id };
}

/**
 * Whether a change concerns what the filter names. `envId`: the changes of
 * that environment's channels and deployments only (a version upload, an
 * asset's or a collection's fields belong to no environment: left out).
 * `platform`: the changes of that platform's channels and versions (a
 * change of no platform, a collection's, is kept).
 */
export function matches(change: Change, filter: HistoryFilter): boolean {
  const parts = addressParts(change.address);
  if (filter.id !== undefined && parts.id !== filter.id) return false;
  if (filter.platform !== undefined) {
    const said = (change.after ?? change.before)?.platform;
    const platform = parts.platform ?? (typeof said === 'string' ? said : undefined);
    if (platform !== undefined && platform !== filter.platform) return false;
    if (platform === undefined && parts.kind === 'channel') return false;
  }
  if (filter.envId !== undefined && parts.envId !== filter.envId) return false;
  return true;
}

/**
 * The entries that concern the filter, newest first, their changes
 * narrowed to those; at most `limit` of them (an unreadable entry, passed
 * on wherever it comes, is not counted: it may concern anything).
 */
export async function* historyEntries(ctx: JournalContext, journalId: string, filter: HistoryFilter = {}, first?: Promise<Collection | undefined>, early?: EarlyListing): AsyncGenerator<HistoryEntry | UnreadableEntry> {
  let count = 0;
  const narrowed = filter.id !== undefined || filter.platform !== undefined || filter.envId !== undefined;
  for await (const entry of readEntries(ctx, journalId, filter, first, early)) {
    if (filter.limit !== undefined && count >= filter.limit) return;
    if (isUnreadable(entry)) {
      yield entry;
      continue;
    }
    const changes = narrowed ? entry.changes.filter((change) => matches(change, filter)) : entry.changes;
    if (narrowed && changes.length === 0 && !controlMatches(entry, filter) && !rolloutMatches(entry, filter)) continue;
    count++;
    yield { ...entry, changes };
  }
}

/**
 * The history of the run's journal (the one named, or the domain's
 * ahs-journal): the journal's collection is read first when an end of the
 * range was given back from now (its Date header puts that end on the
 * service's clock: a runner 3 h fast still reads the last 10 minutes),
 * else beside the listing.
 */
export async function* readHistory(ctx: JournalContext, journalId: string, filter: HistoryFilter & { since?: RangeEnd; until?: RangeEnd } = {}, what = 'history', nameOne = '(with no journal setting, the domain\'s ahs-journal is used once it exists), or name one with --journal ID or AHS_JOURNAL'): AsyncGenerator<HistoryEntry | UnreadableEntry> {
  try {
    const relative = filter.since?.backMs !== undefined || filter.until?.backMs !== undefined;
    if (!relative) {
      yield* historyEntries(ctx, journalId, filter);
      return;
    }
    const api = await ctx.api();
    const first = readCollection(api, journalId);
    // Beside it, the listing of the range as this runner's clock puts it, widened by CLOCK_MARGIN_MS: used when the
    // service's clock (the collection's Date header) puts the range inside it, the entries outside it filtered out;
    // a runner whose clock is further off lists again (one round more, never an entry missed).
    const early = await listEarly(ctx, journalId, { since: widened(filter.since, api.serviceNow(), -CLOCK_MARGIN_MS), until: widened(filter.until, api.serviceNow(), CLOCK_MARGIN_MS) });
    // Its answer's Date header is the service's clock.
    await first.catch(() => undefined);
    const onService = (end: RangeEnd | undefined) => (end?.backMs !== undefined ? new Date(api.serviceNow() - end.backMs) : end);
    yield* historyEntries(ctx, journalId, { ...filter, since: onService(filter.since), until: onService(filter.until) }, first, early);
  } catch (error) {
    // No setting, and no ahs-journal in the domain: no journal, said as such (not "ahs-journal not found").
    if (error instanceof NotFoundError && journalChoice(await ctx.settings()).source === 'default') {
      throw new UsageError(`${what} needs a journal, and none is set: start one with \`ahs journal init --env ENV\` ${nameOne}`);
    }
    throw error;
  }
}

/** A change-control entry (no changes, a control field) concerns the id its target names. */
function controlMatches(entry: JournalEntry, filter: HistoryFilter): boolean {
  if (entry.apiVersion !== 'ahs/journal/v2' || !entry.control || entry.changes.length > 0) return false;
  const parts = addressParts(entry.control.target);
  return (filter.id === undefined || parts.id === filter.id) && (filter.envId === undefined || parts.envId === filter.envId) && (filter.platform === undefined || parts.platform === filter.platform);
}

/**
 * A rollout's own record (a halt, a resume, an abort that put nothing back,
 * a supersede) concerns its asset, its platform and its wave's environment
 * (a supersede, wave `*`, every environment of its waves): `history ASSET`
 * shows that a rollout halted there, not only the channels it moved. An
 * intent is not one: the promotion's own entry, which follows it, is.
 */
export function rolloutMatches(entry: Pick<JournalEntry, 'rollout'>, filter: HistoryFilter): boolean {
  const rollout = entry.rollout;
  if (!rollout || rollout.action === 'intent') return false;
  const inEnv = filter.envId === undefined || (rollout.wave === '*' ? rollout.waves.includes(filter.envId) : rollout.wave === filter.envId);
  return (filter.id === undefined || rollout.asset === filter.id) && (filter.platform === undefined || rollout.platform === filter.platform) && inEnv;
}

function isDefaultChange(change: Change): boolean {
  return change.address.startsWith('channel.') && change.after !== null && typeof change.after.default === 'string';
}

/**
 * Marks, on the newest Default change of each channel among `entries`
 * (newest first), the Default the service shows now, and whether it
 * differs (a change made outside ahs). One read per channel, at once.
 */
export async function markDisagreements(
  api: ApiClient,
  entries: HistoryEntry[],
  /** Defaults already being read (history of one channel reads it beside the journal), by address. */
  known: ReadonlyMap<string, Promise<string | null>> = new Map(),
): Promise<Array<{ address: string; journal: unknown; current: unknown }>> {
  const newest = new Map<string, HistoryChange>();
  for (const entry of entries) for (const change of entry.changes) if (isDefaultChange(change) && !newest.has(change.address)) newest.set(change.address, change);
  const disagreements: Array<{ address: string; journal: unknown; current: unknown }> = [];
  await Promise.all(
    [...newest].map(async ([address, change]) => {
      const { id, platform, envId } = addressParts(address);
      if (!id || !platform || !envId) return;
      const current = await (known.get(address) ?? readDefault(api, id, platform, envId));
      const journal = change.after!.default;
      change.current = { default: current };
      change.disagrees = current !== journal;
      if (change.disagrees) disagreements.push({ address, journal, current });
    }),
  );
  return disagreements;
}

/** The channel's Default now (null: none). */
export async function readDefault(api: ApiClient, assetId: string, platform: string, envId: string): Promise<string | null> {
  const { channel } = await readChannel(api, assetId, platform, envId);
  return currentDefault(channel) ?? null;
}

/** The entry that proves rollback's target, and the target. */
export interface JournalTarget {
  versionId: string;
  entry: JournalEntry;
  /** The unreadable entries newer than `entry`: shown, never the basis of the decision. */
  unreadable: UnreadableEntry[];
}

/**
 * rollback without --to: the latest entry that changed the channel's
 * Default, provided its `after` is the current Default; its `before` is the
 * target. Otherwise the channel moved outside ahs (or the journal holds
 * nothing about it): a UsageError asking for the version by `toSaid` (the
 * CLI's --to, the library's `to`).
 */
export async function journalRollbackTarget(ctx: JournalContext, journalId: string, channel: { assetId: string; platform: string; envId: string }, current: string, toSaid = '--to VERSION_ID'): Promise<JournalTarget> {
  const address = `channel.${channel.assetId}.${channel.platform}.${channel.envId}`;
  const name = `${channel.assetId}/${channel.platform}/${channel.envId}`;
  const unreadable: UnreadableEntry[] = [];
  for await (const entry of readEntries(ctx, journalId)) {
    if (isUnreadable(entry)) {
      unreadable.push(entry);
      continue;
    }
    const change = entry.changes.find((c) => c.address === address && isDefaultChange(c));
    if (!change) continue;
    const after = change.after!.default as string;
    const before = change.before?.default;
    if (after !== current) {
      throw new UsageError(
        `the Default of ${name} is ${current}, but the journal's last change of it (${entry.createdAt} by ${entry.createdBy}, ${entry.command}) made it ${String(after)}: it was moved outside ahs, so which was the Default before cannot be proven; name the version with ${toSaid}`,
      );
    }
    if (typeof before !== 'string' || before === '') {
      throw new UsageError(`the journal's last change of ${name} (${entry.createdAt} by ${entry.createdBy}, ${entry.command}) made ${current} its first Default: there is nothing to roll back to; name a version with ${toSaid}`);
    }
    return { versionId: before, entry, unreadable };
  }
  const skipped = unreadable.length ? ` (${unreadable.length} unreadable entr${unreadable.length === 1 ? 'y' : 'ies'}, ${unreadable.slice(0, 3).map((e) => e.itemId).join(', ')}, decide nothing)` : '';
  throw new UsageError(escapeControls(`the journal holds no change of the Default of ${name}${skipped}: which was the Default before ${current} cannot be proven; name it with ${toSaid}`));
}

/** The line that shows an unreadable entry: its item id, time and what is wrong (escaped: the service's strings). */
export function unreadableLine(entry: UnreadableEntry): string {
  return escapeControls(`unreadable entry ${entry.itemId} in ${entry.collectionId} (${entry.createdAt}${entry.createdBy ? ` by ${entry.createdBy}` : ''}): ${entry.reason}; it is not used`);
}

/** "2026-11-27T19:41:24Z by a@b.c, run https://…": who and where an entry comes from. */
export function provenance(entry: JournalEntry): string {
  return `${entry.createdAt} by ${entry.createdBy}${entry.ci?.runUrl ? `, run ${entry.ci.runUrl}` : ''}`;
}
