// asset delete ASSET_ID: one DELETE /va/{id}, after a confirmation; an asset
// that still has versions is refused before the question. A lost answer is
// settled by reading the asset (404: it was deleted).
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { decideAssetDelete } from '../../rules/index.js';
import { deleteBody } from '../../rules/schemas.js';
import { validateInput } from '../validate.js';
import { findAsset, getAsset } from '../../service/assets.js';
import { askAssetId } from '../../service/pick-asset.js';
import { plan, type Step } from '../../plan/plan.js';
import type { ApiClient } from '../../http/client.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId, 'Asset to delete');
  ctx.confirmable(`asset delete ${assetId}`);
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const body = validateInput(deleteBody, { deletedBy: user });
  const api = await ctx.api();
  const out = await ctx.output();
  const step = deleteStep(api, assetId, body);
  // The rules already say whether the service will refuse (versions left): then refuse before asking.
  const { decision } = await step.predict();
  if (decision.ok) await ctx.confirm(`Delete asset ${assetId}? This cannot be undone`, `asset delete ${assetId}`);
  else step.refusal = { rejection: decision, hint: `delete its versions first (ahs version list ${assetId}, then ahs version delete ${assetId} VERSION_ID)` };
  return plan([step], () => {
    out.outcome({ deleted: true, assetId }, `Deleted asset ${assetId}`);
  });
};

function deleteStep(api: ApiClient, assetId: string, body: { deletedBy: string }): Step<undefined> {
  return {
    request: { method: 'DELETE', path: api.path('va', assetId), body },
    async predict() {
      const asset = await getAsset(api, assetId);
      const { counts } = await api.get<{ counts: number }>(api.path('va', assetId, 'version-count'));
      return { current: { asset, versionCount: counts }, decision: decideAssetDelete(assetId, counts), unchanged: 'exists' };
    },
    async settle(client) {
      if (await findAsset(client, assetId)) return { applied: false, how: `asset ${assetId} still exists` };
      return { applied: true, how: `GET of asset ${assetId} answers 404`, result: undefined };
    },
  };
}
