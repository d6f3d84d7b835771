// The journal setting (--journal, AHS_JOURNAL, profile key journal): what
// needs a journal says so, and how to start one.
import type { ServiceContext } from './context.js';
import { UsageError } from '../errors.js';

export async function journalId(ctx: Pick<ServiceContext, 'settings'>): Promise<string | undefined> {
  return (await ctx.settings()).get('journal');
}

export async function requireJournal(ctx: Pick<ServiceContext, 'settings'>, what: string, nameOne = '(it records its id in the profile), or name one with --journal ID or AHS_JOURNAL'): Promise<string> {
  const id = await journalId(ctx);
  if (id) return id;
  throw new UsageError(`${what} needs a journal, and none is set: start one with \`ahs journal init --env ENV\` ${nameOne}`);
}
