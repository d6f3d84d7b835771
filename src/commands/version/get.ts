// version get ASSET_ID VERSION_ID
import type { Run } from '../define.js';
import type { getSpec } from './index.js';
import { getVersion } from '../../service/assets.js';
import { renderVersion } from '../../io/views/assets.js';
import { askAssetId, askVersionId } from '../../pickers/pick-asset.js';

export const run: Run<typeof getSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const versionId = await askVersionId(ctx, assetId, options.versionId);
  const api = await ctx.api();
  const out = await ctx.output();
  out.print(await getVersion(api, assetId, versionId), renderVersion);
};
