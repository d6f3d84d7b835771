// version delete ASSET_ID VERSION_ID: the operation (src/operations/versions.ts)
// reads where the version is deployed and plans one DELETE, confirmed, refused
// before the question while it is LIVE or DEFAULT somewhere.
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { deleteVersion } from '../../operations/versions.js';
import { askAssetId, askVersionId } from '../../pickers/pick-asset.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const versionId = await askVersionId(ctx, assetId, options.versionId, { message: 'Version to delete' });
  ctx.confirmable(`version delete ${versionId}`);
  const out = await ctx.output();
  return thenDo(await deleteVersion(ctx, { assetId, versionId }), (deleted) => out.outcome(deleted, `Deleted version ${versionId} of ${assetId}`));
};
