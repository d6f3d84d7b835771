// version list ASSET_ID [--page N] [--page-size N] [--all]
import type { Run } from '../define.js';
import type { listSpec } from './index.js';
import { listPages, pageFooter } from '../../http/paging.js';
import type { Version } from '../../rules/schemas.js';
import { versionColumns } from '../../io/views/assets.js';
import { askAssetId } from '../../service/pick-asset.js';

export const run: Run<typeof listSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const api = await ctx.api();
  const out = await ctx.output();
  const { doc, rows, merged } = await listPages<Version>(api, api.path('va', assetId, 'versions'), options);
  out.list(doc, rows, versionColumns, pageFooter(doc, merged));
};
