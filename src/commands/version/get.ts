import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';
import { getVersion } from '../../http/resources.js';
import { renderVersion } from '../asset/view.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const out = await ctx.output();
  out.print(await getVersion(api, args[0]!, args[1]!), renderVersion);
}
