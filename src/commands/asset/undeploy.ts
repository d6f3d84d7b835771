// asset undeploy ASSET_ID --env E --platform P[,P...]: removes every
// version's deployment record for the given platforms in one environment
// (there is no per-version undeploy). The records are read first, so the
// confirmation says what will be removed; a lost answer is settled by
// reading them again.
import type { Run } from '../define.js';
import type { undeploySpec } from './index.js';
import { decideAssetUndeploy } from '../../rules/index.js';
import { undeployBody, type AssetUrl } from '../../rules/schemas.js';
import { validateInput } from '../validate.js';
import { listRecords } from '../../service/assets.js';
import { askAssetId, askEnv } from '../../service/pick-asset.js';
import { recordList } from '../../io/views/assets.js';
import { plan, type Step } from '../../plan/plan.js';
import type { ApiClient } from '../../http/client.js';

interface UndeployAnswer {
  message: string;
  totalUndeployedVersions: number;
}

export const run: Run<typeof undeploySpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId, 'Asset to undeploy');
  ctx.confirmable(`asset undeploy ${assetId}`);
  const envId = await askEnv(ctx, assetId);
  const platformList = await ctx.setting('platform', { message: 'Target platform(s), comma-separated' });
  const targetPlatforms = [...new Set(platformList.split(',').map((p) => p.trim()).filter(Boolean))];
  const body = validateInput(undeployBody, { envId, targetPlatforms });
  const api = await ctx.api();
  const out = await ctx.output();
  const records = await targetedRecords(api, assetId, body);
  const removed = records.length ? `removes ${recordList(records)}` : 'no deployment record there now';
  await ctx.confirm(`Undeploy every version of ${assetId} for ${targetPlatforms.join(', ')} in ${envId} (${removed})?`, `asset undeploy ${assetId}`);
  return plan([undeployStep(api, assetId, body, records)], ([answer]) => {
    const { message, totalUndeployedVersions } = (answer ?? {}) as Partial<UndeployAnswer>;
    out.outcome(answer, `${message ?? 'Undeployed.'} ${totalUndeployedVersions ?? 0} deployment record(s) removed from ${envId} (${targetPlatforms.join(', ')})`);
  });
};

/** The asset's records in the environment, of the platforms named. */
async function targetedRecords(api: ApiClient, assetId: string, body: { envId: string; targetPlatforms: string[] }): Promise<AssetUrl[]> {
  const records = await listRecords(api, assetId, { envId: body.envId });
  return records.filter((r) => body.targetPlatforms.includes(r.targetPlatform));
}

function undeployStep(api: ApiClient, assetId: string, body: { envId: string; targetPlatforms: string[] }, records: AssetUrl[]): Step<UndeployAnswer> {
  const { envId, targetPlatforms } = body;
  return {
    request: { method: 'POST', path: api.path('va', assetId, 'undeploy'), body },
    async predict() {
      return {
        current: records.map((r) => ({ versionId: r.versionId, targetPlatform: r.targetPlatform, state: r.state })),
        decision: decideAssetUndeploy(envId, targetPlatforms, records),
        notes: ['unknown environment or platform codes are checked by the service (404)'],
      };
    },
    // Applied when none of those records is left.
    async settle(client) {
      const left = await targetedRecords(client, assetId, body);
      if (left.length) return { applied: false, how: `${envId} still has ${recordList(left)}` };
      const result = { message: 'Undeploy confirmed by a read of the records.', totalUndeployedVersions: records.length };
      return { applied: true, how: `${envId} has no record left for ${targetPlatforms.join(', ')}`, result };
    },
  };
}
