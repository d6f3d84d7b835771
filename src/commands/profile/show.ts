// ahs profile show [NAME]
import type { Run } from '../define.js';
import type { showSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { profileView, renderProfile } from './view.js';

export const run: Run<typeof showSpec> = async (options, ctx) => {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const name = options.name ?? ctx.globals.profile ?? (ctx.io.env.AHS_PROFILE || undefined) ?? store.current();
  if (!name) throw new UsageError('no current profile: add one with ahs profile add NAME, or name one');
  const profile = store.get(name);
  if (!profile) throw new UsageError(`no profile named ${JSON.stringify(name)} (see: ahs profile list)`);
  out.print(profileView(name, profile, store.current() === name), renderProfile);
};
