// asset undeploy ASSET_ID --env E --platform P[,P...]: the operation
// (src/operations/assets.ts) reads the records it removes, asks, and plans
// the one request.
import type { Run } from '../define.js';
import type { undeploySpec } from './index.js';
import { askAssetId, askEnv } from '../../pickers/pick-asset.js';
import { undeployAsset } from '../../operations/assets.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof undeploySpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId, 'Asset to undeploy');
  ctx.confirmable(`asset undeploy ${assetId}`);
  const envId = await askEnv(ctx, assetId);
  const platforms = (await ctx.setting('platform', { message: 'Target platform(s), comma-separated' })).split(',');
  const out = await ctx.output();
  return thenDo(await undeployAsset(ctx, { assetId, envId, platforms }), (answer) => {
    const { message, totalUndeployedVersions } = answer;
    out.outcome(answer, `${message} ${totalUndeployedVersions} deployment record(s) removed from ${envId} (${[...new Set(platforms.map((p) => p.trim()).filter(Boolean))].join(', ')})`);
  });
};
