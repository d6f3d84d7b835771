import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { pickProfile } from './pick.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const name = await pickProfile(ctx, store, args[0], 'Profile to remove');
  const wasCurrent = store.current() === name;
  await store.remove(name);
  if (out.json) out.print({ removed: name, current: store.current() ?? null });
  else out.success(`Removed profile ${name}${wasCurrent ? ' (it was the current profile; pick another with ahs profile use NAME)' : ''}`);
}
