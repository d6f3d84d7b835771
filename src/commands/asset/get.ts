// asset get ASSET_ID
import type { Run } from '../define.js';
import type { getSpec } from './index.js';
import { getAsset } from '../../service/assets.js';
import { renderAsset } from '../../io/views/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';

export const run: Run<typeof getSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const api = await ctx.api();
  const out = await ctx.output();
  out.print(await getAsset(api, assetId), renderAsset);
};
