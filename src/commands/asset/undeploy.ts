// Removes every version's deployment record for the given platforms in one
// environment (there is no per-version undeploy).
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { decideAssetUndeploy } from '../../rules/index.js';
import { undeployBody } from '../../rules/schemas.js';
import { printDryRun } from '../legacy.js';
import { validateInput } from '../validate.js';
import { getAsset, listRecords } from '../../service/assets.js';
import { askAssetId, askEnv } from '../../service/pick-asset.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0], 'Asset to undeploy');
  const envId = await askEnv(ctx, assetId);
  const platformList = await ctx.setting('platform', { message: 'Target platform(s), comma-separated' });
  const targetPlatforms = [...new Set(platformList.split(',').map((p) => p.trim()).filter(Boolean))];
  const body = validateInput(undeployBody, { envId, targetPlatforms });
  const api = await ctx.api();
  const out = await ctx.output();
  const path = api.path('va', assetId, 'undeploy');
  if (ctx.globals.dryRun) {
    await getAsset(api, assetId);
    const records = await listRecords(api, assetId, { envId });
    const current = records.filter((r) => targetPlatforms.includes(r.targetPlatform)).map((r) => ({ versionId: r.versionId, targetPlatform: r.targetPlatform, state: r.state }));
    await printDryRun(ctx, {
      request: { method: 'POST', path, body },
      current,
      decision: decideAssetUndeploy(envId, targetPlatforms, records),
      notes: ['unknown environment or platform codes are checked by the service (404)'],
    });
    return;
  }
  await ctx.confirm(`Undeploy every version of ${assetId} for ${targetPlatforms.join(', ')} in ${envId}?`, `asset undeploy ${assetId}`);
  const answer = await api.post<{ message: string; totalUndeployedVersions: number }>(path, body);
  out.success(`${answer?.message ?? 'Undeployed.'} ${answer?.totalUndeployedVersions ?? 0} deployment record(s) removed from ${envId} (${targetPlatforms.join(', ')})`);
  if (out.json) out.print(answer);
}
