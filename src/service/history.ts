// `ahs history` and the library's client.history(), and rollback's choice of
// target: the journal's entries filtered to what a person asks about (an
// asset or collection, a platform, an environment), newest first, and the
// current state of each channel beside its last entry.
import type { ApiClient } from '../http/client.js';
import { UsageError } from '../errors.js';
import { readChannel, currentDefault } from './assets.js';
import { readEntries, type Change, type EntryRange, type JournalContext, type JournalEntry } from './journal.js';

export interface HistoryFilter extends EntryRange {
  /** An asset id or a collection id. */
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

export interface HistoryEntry extends Omit<JournalEntry, 'changes'> {
  changes: HistoryChange[];
}

/** The parts of an address: `channel.A.P.E` → {kind: channel, id: A, platform: P, envId: E}. */
export function addressParts(address: string): { kind: string; id?: string; platform?: string; envId?: string } {
  const [kind = '', id, ...rest] = address.split('.');
  if (kind === 'channel') return { kind, id, platform: rest[0], envId: rest[1] };
  if (kind === 'collection' && rest[0] === 'deployment') return { kind, id, envId: rest[1] };
  if (kind === 'asset' && rest[0] === 'deployments') return { kind, id, envId: rest[1] };
  return { kind, id };
}

/** Whether a change concerns what the filter names. */
export function matches(change: Change, filter: HistoryFilter): boolean {
  const parts = addressParts(change.address);
  if (filter.id !== undefined && parts.id !== filter.id) return false;
  if (filter.platform !== undefined) {
    const platform = parts.platform ?? ((change.after ?? change.before) as { platform?: string } | null)?.platform;
    if (platform !== undefined && platform !== filter.platform) return false;
    if (platform === undefined && parts.kind === 'channel') return false;
  }
  if (filter.envId !== undefined && parts.envId !== undefined && parts.envId !== filter.envId) return false;
  if (filter.envId !== undefined && parts.envId === undefined && (parts.kind === 'channel' || parts.kind === 'collection' && change.address.includes('.deployment.'))) return false;
  return true;
}

/** The entries that concern the filter, newest first, their changes narrowed to those; at most `limit`. */
export async function* historyEntries(ctx: JournalContext, journalId: string, filter: HistoryFilter = {}): AsyncGenerator<HistoryEntry> {
  let count = 0;
  const narrowed = filter.id !== undefined || filter.platform !== undefined || filter.envId !== undefined;
  for await (const entry of readEntries(ctx, journalId, filter)) {
    if (filter.limit !== undefined && count >= filter.limit) return;
    const changes = narrowed ? entry.changes.filter((change) => matches(change, filter)) : entry.changes;
    if (narrowed && changes.length === 0) continue;
    count++;
    yield { ...entry, changes };
  }
}

function isDefaultChange(change: Change): boolean {
  return change.address.startsWith('channel.') && typeof change.after === 'object' && change.after !== null && 'default' in change.after;
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
      const journal = (change.after as { default: unknown }).default;
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
  for await (const entry of readEntries(ctx, journalId)) {
    const change = entry.changes.find((c) => c.address === address && isDefaultChange(c));
    if (!change) continue;
    const after = (change.after as { default: unknown }).default;
    const before = (change.before as { default?: unknown } | null)?.default;
    if (after !== current) {
      throw new UsageError(
        `the Default of ${name} is ${current}, but the journal's last change of it (${entry.createdAt} by ${entry.createdBy}, ${entry.command}) made it ${String(after)}: it was moved outside ahs, so which was the Default before cannot be proven; name the version with ${toSaid}`,
      );
    }
    if (typeof before !== 'string' || before === '') {
      throw new UsageError(`the journal's last change of ${name} (${entry.createdAt} by ${entry.createdBy}, ${entry.command}) made ${current} its first Default: there is nothing to roll back to; name a version with ${toSaid}`);
    }
    return { versionId: before, entry };
  }
  throw new UsageError(`the journal holds no change of the Default of ${name}: which was the Default before ${current} cannot be proven; name it with ${toSaid}`);
}

/** "2026-11-27T19:41:24Z by a@b.c, run https://…": who and where an entry comes from. */
export function provenance(entry: JournalEntry): string {
  return `${entry.createdAt} by ${entry.createdBy}${entry.ci?.runUrl ? `, run ${entry.ci.runUrl}` : ''}`;
}
