// The journal setting (--journal, AHS_JOURNAL, profile key journal;
// cli.md, "Memory"): which journal a run records in and reads, and why.
// With no setting, the domain's `ahs-journal` when it exists and is marked
// as a journal (a new teammate's writes and a fresh CI job are recorded
// with no set-up); `--no-journal` or `AHS_JOURNAL=` turn it off for a run.
import type { ServiceContext } from './context.js';
import type { Settings } from '../config/settings.js';
import { UsageError } from '../errors.js';
import { DEFAULT_JOURNAL_ID } from './journal.js';

/** The journal of a run: the id named (or the default), where that comes from, and how a message names it. */
export interface JournalChoice {
  /** undefined: turned off for this run. */
  id: string | undefined;
  /** `default`: no setting, the domain's ahs-journal if it is one. */
  source: 'option' | 'flag' | 'env' | 'profile' | 'default' | 'off';
  /** The setting, as a message names it: `AHS_JOURNAL`, `--journal`, `profile ci's key journal`. */
  setting: string;
}

export function journalChoice(settings: Pick<Settings, 'resolve' | 'profileName'>): JournalChoice {
  const resolved = settings.resolve('journal');
  const setting = resolved.source === 'env' ? 'AHS_JOURNAL' : resolved.source === 'flag' ? (resolved.off ? '--no-journal' : '--journal') : resolved.source === 'profile' ? `profile ${settings.profileName}'s key journal` : resolved.source === 'option' ? "the journal option" : `no journal setting: the domain's ${DEFAULT_JOURNAL_ID}`;
  if (resolved.off) return { id: undefined, source: 'off', setting };
  if (resolved.value) return { id: resolved.value, source: resolved.source as JournalChoice['source'], setting };
  return { id: DEFAULT_JOURNAL_ID, source: 'default', setting };
}

/** Why this journal, in a sentence: `ahs-journal (from AHS_JOURNAL)`. */
export function choiceText(choice: JournalChoice): string {
  if (choice.source === 'off') return `none: turned off for this run (${choice.setting})`;
  if (choice.source === 'default') return `${choice.id} (${choice.setting}, used when it exists and is marked as a journal)`;
  return `${choice.id} (from ${choice.setting})`;
}

/** The journal a run reads: the one named, or the domain's ahs-journal; undefined when turned off. */
export async function journalId(ctx: Pick<ServiceContext, 'settings'>): Promise<string | undefined> {
  return journalChoice(await ctx.settings()).id;
}

export async function requireJournal(ctx: Pick<ServiceContext, 'settings'>, what: string, nameOne = '(it records its id in the profile), or name one with --journal ID or AHS_JOURNAL'): Promise<string> {
  const choice = journalChoice(await ctx.settings());
  if (choice.id) return choice.id;
  throw new UsageError(`${what} needs a journal, and it is turned off for this run (${choice.setting}): start one with \`ahs journal init --env ENV\` ${nameOne}`);
}

/**
 * The words a destructive command's confirmation adds when `collectionId`
 * is the run's journal (or a collection it continues in, ID--N): said
 * before anything is read, so that a refusal without --yes says that
 * history is erased. Empty for any other collection.
 */
export async function journalErasure(ctx: Pick<ServiceContext, 'settings'>, collectionId: string): Promise<string> {
  const id = journalChoice(await ctx.settings()).id;
  const ours = id !== undefined && (collectionId === id || collectionId.startsWith(`${id.slice(0, 40)}--`));
  return ours ? " (the ahs journal: it erases the team's history of writes)" : '';
}
