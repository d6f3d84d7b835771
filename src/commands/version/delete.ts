// version delete ASSET_ID VERSION_ID: one DELETE, after a confirmation. The
// version's deployments are read first: when it is LIVE or DEFAULT somewhere
// the service would refuse, so nothing is asked and nothing is sent (the
// step's refusal: exit 1, the service's error and how to get past it). A lost
// answer is settled by reading the version.
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { decideVersionDelete, type DeploymentRecordRef } from '../../rules/index.js';
import { findVersion, getVersion, listRecords } from '../../service/assets.js';
import { askAssetId, askVersionId } from '../../service/pick-asset.js';
import { plan, type Step } from '../../plan/plan.js';
import type { ApiClient } from '../../http/client.js';

interface Deployments {
  platform: string;
  records: DeploymentRecordRef[];
}

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const versionId = await askVersionId(ctx, assetId, options.versionId, { message: 'Version to delete' });
  ctx.confirmable(`version delete ${versionId}`);
  const api = await ctx.api();
  const out = await ctx.output();
  const deployments = await deploymentsOf(api, assetId, versionId);
  const step = deleteStep(api, assetId, versionId, deployments);
  const decision = decideVersionDelete(versionId, deployments.records);
  if (decision.ok) await ctx.confirm(`Delete version ${versionId} of ${assetId}? This cannot be undone`, `version delete ${versionId}`);
  else step.refusal = { rejection: decision, hint: howToFree(assetId, versionId, deployments) };
  return plan([step], () => {
    out.outcome({ deleted: true, assetId, versionId }, `Deleted version ${versionId} of ${assetId}`);
  });
};

/** Where the version is deployed, in any state (a missing version is the GET's 404: exit 4). */
async function deploymentsOf(api: ApiClient, assetId: string, versionId: string): Promise<Deployments> {
  const { targetPlatform: platform } = await getVersion(api, assetId, versionId);
  const records = await listRecords(api, assetId, { platform });
  return { platform, records: records.filter((r) => r.versionId === versionId).map((r) => ({ envId: r.envId, state: r.state })) };
}

/** What makes the version deletable: OFFLINE wherever it is LIVE; a Default must first be replaced. */
function howToFree(assetId: string, versionId: string, { platform, records }: Deployments): string {
  const steps = records.flatMap((r) => {
    const offline = `ahs deploy ${assetId} ${versionId} --platform ${platform} --env ${r.envId} --state OFFLINE`;
    if (r.state === 'DEFAULT') return [`make another version the Default in ${r.envId}, then ${offline}`];
    return r.state === 'LIVE' ? [offline] : [];
  });
  return `first ${steps.join('; ')}`;
}

function deleteStep(api: ApiClient, assetId: string, versionId: string, deployments: Deployments): Step<undefined> {
  return {
    request: { method: 'DELETE', path: api.path('va', assetId, 'versions', versionId) },
    async predict() {
      return { current: deployments.records, decision: decideVersionDelete(versionId, deployments.records) };
    },
    async settle(client) {
      if (await findVersion(client, assetId, versionId)) return { applied: false, how: `version ${versionId} still exists` };
      return { applied: true, how: `GET of version ${versionId} answers 404`, result: undefined };
    },
  };
}
