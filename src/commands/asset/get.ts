import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { getAsset } from '../../service/assets.js';
import { renderAsset } from '../../io/views/assets.js';
import { askAssetId } from '../../service/pick-asset.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0]);
  const api = await ctx.api();
  const out = await ctx.output();
  out.print(await getAsset(api, assetId), renderAsset);
}
