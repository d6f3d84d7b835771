// asset undeploy ASSET_ID --env E --platform P[,P...]: removes every
// version's deployment record for the given platforms in one environment
// (there is no per-version undeploy). The records are read first, so the
// confirmation says what will be removed; a lost answer is settled by
// reading them again.
import type { Run } from '../define.js';
import type { undeploySpec } from './index.js';
import { undeployBody } from '../../rules/schemas.js';
import { validateInput } from '../validate.js';
import { askAssetId, askEnv } from '../../pickers/pick-asset.js';
import { recordList } from '../../rules/assets.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';
import { targetedRecords } from '../../plan/kinds/assets.js';

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
  const undeploy = steps.assetUndeploy({ assetId, body, records });
  return plan([undeploy], (results) => {
    const answer = results.of(undeploy);
    const { message, totalUndeployedVersions } = answer ?? {};
    out.outcome(answer, `${message ?? 'Undeployed.'} ${totalUndeployedVersions ?? 0} deployment record(s) removed from ${envId} (${targetPlatforms.join(', ')})`);
  });
};
