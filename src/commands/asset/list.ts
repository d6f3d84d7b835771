// asset list [--page N] [--page-size N] [--all]
import type { Run } from '../define.js';
import type { listSpec } from './index.js';
import { listPages, pageFooter } from '../../http/paging.js';
import type { Asset } from '../../rules/schemas.js';
import { assetColumns } from '../../io/views/assets.js';

export const run: Run<typeof listSpec> = async (options, ctx) => {
  const api = await ctx.api();
  const out = await ctx.output();
  const { doc, rows, merged } = await listPages<Asset>(api, api.path('va'), options);
  out.list(doc, rows, assetColumns, pageFooter(doc, merged));
};
