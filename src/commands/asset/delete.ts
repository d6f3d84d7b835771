// asset delete ASSET_ID: one DELETE /va/{id}, after a confirmation; an asset
// that still has versions is refused before the question. A lost answer is
// settled by reading the asset (404: it was deleted).
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { deleteBody } from '../../rules/schemas.js';
import { validateInput } from '../validate.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId, 'Asset to delete');
  ctx.confirmable(`asset delete ${assetId}`);
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const body = validateInput(deleteBody, { deletedBy: user });
  const out = await ctx.output();
  // The rules already say whether the service will refuse (versions left): the executor refuses before asking.
  const refuse = { hint: `delete its versions first (ahs version list ${assetId}, then ahs version delete ${assetId} VERSION_ID)` };
  const confirm = { message: `Delete asset ${assetId}? This cannot be undone`, action: `asset delete ${assetId}` };
  return plan([steps.assetDelete({ assetId, body }, { refuse })], () => {
    out.outcome({ deleted: true, assetId }, `Deleted asset ${assetId}`);
  }, { confirm });
};
