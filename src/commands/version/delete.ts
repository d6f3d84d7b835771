// version delete ASSET_ID VERSION_ID: one DELETE, after a confirmation. A
// lost answer is settled by reading the version (404: it was deleted).
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { decideVersionDelete, type DeploymentRecordRef } from '../../rules/index.js';
import { findVersion, getVersion, listRecords } from '../../service/assets.js';
import { askAssetId, askVersionId } from '../../service/pick-asset.js';
import { plan, type Step } from '../../plan/plan.js';
import type { ApiClient } from '../../http/client.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const versionId = await askVersionId(ctx, assetId, options.versionId, { message: 'Version to delete' });
  const api = await ctx.api();
  const out = await ctx.output();
  await ctx.confirm(`Delete version ${versionId} of ${assetId}? This cannot be undone`, `version delete ${versionId}`);
  return plan([deleteStep(api, assetId, versionId)], () => {
    out.success(`Deleted version ${versionId} of ${assetId}`);
    out.print({ deleted: true, assetId, versionId }, () => undefined);
  });
};

/** Where the version is deployed, in any state (a missing version is the GET's 404: exit 4). */
async function deploymentsOf(api: ApiClient, assetId: string, versionId: string): Promise<DeploymentRecordRef[]> {
  const version = await getVersion(api, assetId, versionId);
  const records = await listRecords(api, assetId, { platform: version.targetPlatform });
  return records.filter((r) => r.versionId === versionId).map((r) => ({ envId: r.envId, state: r.state }));
}

function deleteStep(api: ApiClient, assetId: string, versionId: string): Step<undefined> {
  return {
    request: { method: 'DELETE', path: api.path('va', assetId, 'versions', versionId) },
    async predict() {
      const deployments = await deploymentsOf(api, assetId, versionId);
      return { current: deployments, decision: decideVersionDelete(versionId, deployments) };
    },
    async settle(client) {
      if (await findVersion(client, assetId, versionId)) return { applied: false, how: `version ${versionId} still exists` };
      return { applied: true, how: `GET of version ${versionId} answers 404`, result: undefined };
    },
  };
}
