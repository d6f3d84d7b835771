// ahs profile remove NAME: a local write to the config file (no Plan).
import type { Run } from '../define.js';
import type { removeSpec } from './index.js';
import { pickProfile } from './pick.js';

export const run: Run<typeof removeSpec> = async (options, ctx) => {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const name = await pickProfile(ctx, store, options.name, 'Profile to remove');
  const wasCurrent = store.current() === name;
  await store.remove(name);
  out.outcome({ removed: name, current: store.current() ?? null }, `Removed profile ${name}${wasCurrent ? ' (it was the current profile; pick another with ahs profile use NAME)' : ''}`);
};
