import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { decideAssetDelete } from '../../rules/index.js';
import { deleteBody } from '../../rules/schemas.js';
import { printDryRun } from '../legacy.js';
import { validateInput } from '../validate.js';
import { getAsset } from '../../service/assets.js';
import { askAssetId } from '../../service/pick-asset.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0], 'Asset to delete');
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const body = validateInput(deleteBody, { deletedBy: user });
  const api = await ctx.api();
  const out = await ctx.output();
  const path = api.path('va', assetId);
  if (ctx.globals.dryRun) {
    const asset = await getAsset(api, assetId);
    const { counts } = await api.get<{ counts: number }>(api.path('va', assetId, 'version-count'));
    await printDryRun(ctx, {
      request: { method: 'DELETE', path, body },
      current: { asset, versionCount: counts },
      decision: decideAssetDelete(assetId, counts),
      unchanged: 'exists',
    });
    return;
  }
  await ctx.confirm(`Delete asset ${assetId}? This cannot be undone`, `asset delete ${assetId}`);
  await api.delete(path, body);
  out.success(`Deleted asset ${assetId}`);
}
