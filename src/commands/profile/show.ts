import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { profileView, renderProfile } from './view.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const name = args[0] ?? ctx.globals.profile ?? (ctx.io.env.AHS_PROFILE || undefined) ?? store.current();
  if (!name) throw new UsageError('no current profile: add one with ahs profile add NAME, or name one');
  const profile = store.get(name);
  if (!profile) throw new UsageError(`no profile named ${JSON.stringify(name)} (see: ahs profile list)`);
  out.print(profileView(name, profile, store.current() === name), renderProfile);
}
