// asset delete ASSET_ID: the operation (src/operations/assets.ts) plans one
// DELETE /va/{id}, confirmed, refused before the question while versions are left.
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { deleteAsset } from '../../operations/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { thenDo } from '../../plan/plan.js';
import { UsageError } from '../../errors.js';
import { isSentinelAsset } from '../../rules/control-names.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId, 'Asset to delete');
  // Change control's sentinel is not content: never deleted on a question's answer alone.
  if (isSentinelAsset(assetId) && !ctx.globals.yes) {
    throw new UsageError(`${assetId} is ahs change control's record, not content: deleting it drops every lock, freeze and block it holds (they go with it); pass --yes to delete it anyway`);
  }
  ctx.confirmable(`asset delete ${assetId}`);
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const out = await ctx.output();
  return thenDo(await deleteAsset(ctx, { assetId, user }), (deleted) => out.outcome(deleted, `Deleted asset ${assetId}`));
};
