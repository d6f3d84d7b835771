import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';
import { getAsset } from '../../http/resources.js';
import { renderAsset } from './view.js';
import { askAssetId } from './pick.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0]);
  const api = await ctx.api();
  const out = await ctx.output();
  out.print(await getAsset(api, assetId), renderAsset);
}
