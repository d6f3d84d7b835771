import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { askAssetId } from '../../service/pick-asset.js';

interface Options {
  active?: boolean;
  inactive?: boolean;
}

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0]);
  const api = await ctx.api();
  const out = await ctx.output();
  const active = opts.active ? 'true' : opts.inactive ? 'false' : undefined;
  const answer = await api.get<{ counts: number }>(api.path('va', assetId, 'version-count'), { active });
  out.print(answer, (doc) => String(doc.counts));
}
