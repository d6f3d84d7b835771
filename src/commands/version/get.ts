import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { getVersion } from '../../service/assets.js';
import { renderVersion } from '../../io/views/assets.js';
import { askAssetId, askVersionId } from '../../service/pick-asset.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0]);
  const versionId = await askVersionId(ctx, assetId, args[1]);
  const api = await ctx.api();
  const out = await ctx.output();
  out.print(await getVersion(api, assetId, versionId), renderVersion);
}
