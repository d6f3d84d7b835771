import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { pickProfile } from './pick.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const name = await pickProfile(ctx, store, args[0], 'Profile to use');
  await store.use(name);
  if (out.json) out.print({ current: name });
  else out.success(`Now using profile ${name}`);
}
