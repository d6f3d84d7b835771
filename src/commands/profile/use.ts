import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const out = await ctx.output();
  store.use(args[0]!);
  if (out.json) out.print({ current: args[0] });
  else out.success(`Now using profile ${args[0]}`);
}
