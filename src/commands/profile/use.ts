// ahs profile use NAME: a local write to the config file (no Plan).
import type { Run } from '../define.js';
import type { useSpec } from './index.js';
import { pickProfile } from './pick.js';

export const run: Run<typeof useSpec> = async (options, ctx) => {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const name = await pickProfile(ctx, store, options.name, 'Profile to use');
  await store.use(name);
  out.outcome({ current: name }, `Now using profile ${name}`);
};
