// asset version-count ASSET_ID [--active|--inactive]
import type { Run } from '../define.js';
import type { versionCountSpec } from './index.js';
import { askAssetId } from '../../pickers/pick-asset.js';

export const run: Run<typeof versionCountSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const api = await ctx.api();
  const out = await ctx.output();
  const active = options.active ? 'true' : options.inactive ? 'false' : undefined;
  const answer = await api.get<{ counts: number }>(api.path('va', assetId, 'version-count'), { active });
  out.print(answer, (doc) => String(doc.counts));
};
