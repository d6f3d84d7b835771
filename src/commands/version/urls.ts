// version urls ASSET_ID VERSION_ID --env E
import type { Run } from '../define.js';
import type { urlsSpec } from './index.js';
import type { Envelope } from '../../http/paging.js';
import type { AssetUrl } from '../../rules/schemas.js';
import { recordColumns } from '../../io/views/assets.js';
import { askAssetId, askEnv, askVersionId } from '../../pickers/pick-asset.js';

export const run: Run<typeof urlsSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const versionId = await askVersionId(ctx, assetId, options.versionId);
  const envId = await askEnv(ctx, assetId);
  const api = await ctx.api();
  const out = await ctx.output();
  const doc = await api.get<Envelope<AssetUrl>>(api.path('va', assetId, 'versions', versionId, 'asset-urls'), { envId });
  const rows = doc?.results ?? [];
  out.print(doc, (_d, kit) => {
    if (rows.length === 0) {
      out.info(`${versionId} has no deployed URL in ${envId} (not deployed there, or OFFLINE)`);
      return undefined;
    }
    return kit.table(recordColumns(kit), rows);
  });
};
