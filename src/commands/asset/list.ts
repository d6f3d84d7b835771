import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { listPages, pageFooter } from '../../http/paging.js';
import type { Asset } from '../../rules/schemas.js';
import { assetColumns } from '../../io/views/assets.js';

interface Options {
  page?: number;
  pageSize?: number;
  all?: boolean;
}

export async function run({ opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const out = await ctx.output();
  const { doc, rows, merged } = await listPages<Asset>(api, api.path('va'), opts);
  out.list(doc, rows, assetColumns, pageFooter(doc, merged));
}
