// What a rollout keeps in the journal (src/service/journal*): the `rollout`
// field of its entries, and the entries of one rollout read back, newest
// first, with the service's time. The executor appends the entries of a
// wave's writes (src/plan/journal-record.ts puts the field on a plan);
// the run appends the others itself (recordRolloutEvent): the intent before
// a promotion, a promotion recorded by a later run, a failed check, a
// resume, a supersede. The field is parsed with a schema before anything is
// decided from it: an entry whose field does not parse decides nothing.
import { z } from 'zod';
import type { ServiceContext } from './context.js';
import { readEntries } from './journal.js';

/**
 * What an entry did to the rollout:
 * - live: the LIVE deploy alone (the check before the promotion failed or was inconclusive);
 * - intent: written before the promotion is sent (its previousDefault, and recordBy: by when the run records the promotion);
 * - promote: the wave's promotion (with the LIVE deploy before it, when one was needed): the soak starts at its entry;
 *   `recovered`: recorded by a later run that found it made without its entry;
 * - abort: its previous Default put back;
 * - halt: a check failed (check, phase, exitCode);
 * - resume: a run given --resume passed the check again;
 * - supersede: a rollout of `by` (another version) ends this one here (wave `*`).
 */
export const ROLLOUT_ACTIONS = ['live', 'intent', 'promote', 'abort', 'halt', 'resume', 'supersede'] as const;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];

const rolloutFieldSchema = z
  .object({
    asset: z.string(),
    version: z.string(),
    platform: z.string(),
    waves: z.array(z.string()),
    wave: z.string(),
    action: z.enum(ROLLOUT_ACTIONS),
    previousDefault: z.string().nullable().optional(),
    recordBy: z.string().optional(),
    run: z.string().optional(),
    recovered: z.boolean().optional(),
    check: z.object({ command: z.string(), phase: z.enum(['before', 'after']), exitCode: z.number().int() }).optional(),
    by: z.string().optional(),
  })
  .passthrough();

/** The entry's `rollout` field: which rollout, which wave, what was done. */
export interface RolloutField {
  asset: string;
  version: string;
  platform: string;
  waves: string[];
  wave: string;
  action: RolloutAction;
  /** The wave's Default before this write (for abort: the rollout's version); absent when not known. */
  previousDefault?: string | null | undefined;
  /** intent: by when (ISO, service time) the run records the promotion itself. */
  recordBy?: string | undefined;
  /** intent: the run that wrote it. */
  run?: string | undefined;
  /** promote: recorded by a later run than the one that promoted. */
  recovered?: boolean | undefined;
  /** halt (and resume): the check. */
  check?: { command: string; phase: 'before' | 'after'; exitCode: number } | undefined;
  /** supersede: the version whose rollout takes over. */
  by?: string | undefined;
}

/** An entry of a rollout, with the service's createdAt (ms) and its author. */
export interface RolloutEntry {
  rollout: RolloutField;
  at: number;
  actor: string;
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
    const parsed = rolloutFieldSchema.safeParse(entry.rollout);
    if (!parsed.success) continue;
    const rollout = parsed.data as RolloutField;
    if (rollout.asset !== key.asset || rollout.version !== key.version || rollout.platform !== key.platform) continue;
    found.push({ rollout, at: Date.parse(entry.createdAt), actor: entry.actor || entry.createdBy });
  }
  return found.sort((a, b) => b.at - a.at);
}
