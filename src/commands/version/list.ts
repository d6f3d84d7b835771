import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { listPages, pageFooter } from '../../http/paging.js';
import type { Version } from '../../rules/schemas.js';
import { versionColumns } from '../../io/views/assets.js';
import { askAssetId } from '../../service/pick-asset.js';

interface Options {
  page?: number;
  pageSize?: number;
  all?: boolean;
}

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0]);
  const api = await ctx.api();
  const out = await ctx.output();
  const { doc, rows, merged } = await listPages<Version>(api, api.path('va', assetId, 'versions'), opts);
  out.list(doc, rows, versionColumns, pageFooter(doc, merged));
}
