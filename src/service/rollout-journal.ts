// What a rollout keeps in the journal (src/service/journal*): the `rollout`
// field of its entries, and the entries of one rollout read back, newest
// first, with the service's time. The executor appends the entries of a
// wave's writes (src/plan/journal-record.ts puts the field on a plan);
// the run appends the others itself (recordRolloutEvent): the intent before
// a promotion, a promotion recorded by a later run, a failed check, a
// resume, a supersede. The field's shape and its list of actions are the
// journal format's (src/service/journal-format.ts: rolloutFieldSchema,
// ROLLOUT_ACTIONS): an entry whose field does not parse is unreadable and
// decides nothing.
import type { ServiceContext } from './context.js';
import { isUnreadable, journalMark, readEntries, type KnownChain } from './journal.js';
import { readCollection } from './collections.js';
import { journalChoice } from './journal-setting.js';
import { NotFoundError, UsageError } from '../errors.js';
import type { RolloutField } from './journal-format.js';

export type { RolloutField, RolloutAction } from './journal-format.js';
export { ROLLOUT_ACTIONS } from './journal-format.js';

/** An entry of a rollout, with the service's createdAt (ms) and its author. */
export interface RolloutEntry {
  rollout: RolloutField;
  at: number;
  actor: string;
}

/**
 * The journal's collection id in use (--journal, AHS_JOURNAL, the profile,
 * else the domain's ahs-journal when it exists and is marked as a journal:
 * one read); undefined when turned off or when there is none.
 */
export async function journalOf(ctx: ServiceContext): Promise<string | undefined> {
  const choice = journalChoice(await ctx.settings());
  if (choice.source !== 'default' || !choice.id) return choice.id;
  const collection = await readCollection(await ctx.api(), choice.id);
  return journalMark(choice.id, collection).marked ? choice.id : undefined;
}

/**
 * The entries of one rollout, newest first. Only entries made since the
 * version was uploaded are read (`since`): no rollout of it is older. The
 * listing's pages carry the entries (their file names): the cost is the
 * pages of the range, not its entries. An unreadable entry decides nothing
 * (skipped). The domain's ahs-journal, used with no setting, that is not
 * there (or not a journal) holds no entry. `chain`: the journal's
 * collections as this run read them (filled by the first read), so that
 * another rollout's entries cost only their listing.
 */
export async function rolloutEntries(ctx: ServiceContext, journal: string, key: { asset: string; version: string; platform: string }, since: Date, chain?: KnownChain): Promise<RolloutEntry[]> {
  return (await rolloutEntriesByVersion(ctx, journal, { asset: key.asset, platform: key.platform }, [key.version], since, chain)).get(key.version)!;
}

/**
 * The entries of the rollouts of several versions of one asset and
 * platform, in one read of the range: by version (every version asked
 * has its list, empty or not), newest first each.
 */
export async function rolloutEntriesByVersion(ctx: ServiceContext, journal: string, key: { asset: string; platform: string }, versions: readonly string[], since: Date, chain?: KnownChain): Promise<Map<string, RolloutEntry[]>> {
  const found = new Map<string, RolloutEntry[]>(versions.map((version) => [version, []]));
  try {
    for await (const entry of readEntries(ctx, journal, { since }, chain)) {
      // An unreadable entry (its rollout field included) decides nothing.
      if (isUnreadable(entry)) continue;
      const rollout = entry.rollout;
      if (!rollout || rollout.asset !== key.asset || rollout.platform !== key.platform) continue;
      found.get(rollout.version)?.push({ rollout, at: Date.parse(entry.createdAt), actor: entry.actor || entry.createdBy });
    }
  } catch (error) {
    const byDefault = journalChoice(await ctx.settings()).source === 'default';
    if (byDefault && (error instanceof NotFoundError || error instanceof UsageError)) return new Map(versions.map((version) => [version, []]));
    throw error;
  }
  for (const list of found.values()) list.sort((a, b) => b.at - a.at);
  return found;
}
