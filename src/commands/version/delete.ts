// version delete ASSET_ID VERSION_ID: one DELETE, after a confirmation. The
// version's deployments are read first: when it is LIVE or DEFAULT somewhere
// the service would refuse, so nothing is asked and nothing is sent (the
// step's refusal: exit 1, the service's error and how to get past it). A lost
// answer is settled by reading the version.
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import type { DeploymentRecordRef } from '../../rules/index.js';
import { getVersion, listRecords } from '../../service/assets.js';
import { askAssetId, askVersionId } from '../../pickers/pick-asset.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';
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
  const step = steps.versionDelete({ assetId, versionId, records: deployments.records }, { refuse: { hint: howToFree(assetId, versionId, deployments) } });
  const confirm = { message: `Delete version ${versionId} of ${assetId}? This cannot be undone`, action: `version delete ${versionId}` };
  return plan([step], () => {
    out.outcome({ deleted: true, assetId, versionId }, `Deleted version ${versionId} of ${assetId}`);
  }, { confirm });
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
