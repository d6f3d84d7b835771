// What a rollout keeps in the journal (src/service/journal*): the `rollout`
// field of the entry the executor appends after each of its writes
// (src/plan/journal-record.ts puts it on a plan), and the entries of one
// rollout read back, newest first, with the service's time.
import type { ServiceContext } from './context.js';
import { readEntries } from './journal.js';

/** The entry's `rollout` field: which rollout, which wave, what was done. */
export interface RolloutField {
  asset: string;
  version: string;
  platform: string;
  waves: string[];
  wave: string;
  /**
   * promote: the wave's promotion (with the LIVE deploy before it, when one
   * was needed): the soak starts at its entry; live: the LIVE deploy alone,
   * the check before the promotion having failed or been inconclusive;
   * abort: its previous Default put back.
   */
  action: 'live' | 'promote' | 'abort';
  /** The wave's Default before this write (for abort: the rollout's version). */
  previousDefault: string | null;
}

/** An entry of a rollout, with the service's createdAt (ms). */
export interface RolloutEntry {
  rollout: RolloutField;
  at: number;
}

/** The journal's collection id, when one is set (--journal, AHS_JOURNAL, the profile). */
export async function journalOf(ctx: ServiceContext): Promise<string | undefined> {
  return (await ctx.settings()).get('journal') || undefined;
}

/**
 * The entries of one rollout, newest first. Only entries made since the
 * version was uploaded are read (`since`): no rollout of it is older.
 */
export async function rolloutEntries(ctx: ServiceContext, journal: string, key: { asset: string; version: string; platform: string }, since: Date): Promise<RolloutEntry[]> {
  const found: RolloutEntry[] = [];
  for await (const entry of readEntries(ctx, journal, { since })) {
    const rollout = entry.rollout as Partial<RolloutField> | undefined;
    if (!rollout || rollout.asset !== key.asset || rollout.version !== key.version || rollout.platform !== key.platform || typeof rollout.wave !== 'string') continue;
    found.push({ rollout: rollout as RolloutField, at: Date.parse(entry.createdAt) });
  }
  return found.sort((a, b) => b.at - a.at);
}
