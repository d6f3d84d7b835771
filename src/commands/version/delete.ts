import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { decideVersionDelete } from '../../rules/index.js';
import { printDryRun } from '../legacy.js';
import { getVersion, listRecords } from '../../service/assets.js';
import { askAssetId, askVersionId } from '../../service/pick-asset.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0]);
  const versionId = await askVersionId(ctx, assetId, args[1], { message: 'Version to delete' });
  const api = await ctx.api();
  const out = await ctx.output();
  const path = api.path('va', assetId, 'versions', versionId);
  if (ctx.globals.dryRun) {
    const version = await getVersion(api, assetId, versionId);
    const records = (await listRecords(api, assetId, { platform: version.targetPlatform })).filter((r) => r.versionId === versionId);
    await printDryRun(ctx, {
      request: { method: 'DELETE', path },
      current: records.map((r) => ({ envId: r.envId, state: r.state })),
      decision: decideVersionDelete(versionId, records.map((r) => ({ envId: r.envId, state: r.state }))),
    });
    return;
  }
  await ctx.confirm(`Delete version ${versionId} of ${assetId}? This cannot be undone`, `version delete ${versionId}`);
  await api.delete(path);
  out.success(`Deleted version ${versionId} of ${assetId}`);
}
