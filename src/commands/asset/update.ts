// asset update ASSET_ID [...]: the operation (src/operations/assets.ts) plans
// one PUT /va/{id}, with the current type when --type is not given.
import { nameOf, type Run } from '../define.js';
import { updateSpec } from './index.js';
import { assetUpdatedLine, refuseEmptyUpdate, updateAsset } from '../../operations/assets.js';
import { renderAsset } from '../../io/views/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof updateSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const changes = {
    assetName: options.name,
    description: options.description,
    assetType: options.type,
    localCacheControl: options.localCacheControl,
    localCacheMaxAge: options.localCacheMaxAge,
    active: options.active ? true : options.inactive ? false : undefined,
  };
  const flags = { assetName: nameOf(updateSpec, 'name'), assetType: nameOf(updateSpec, 'type') };
  const nothing = `nothing to update: give ${(['name', 'description', 'type'] as const).map((key) => nameOf(updateSpec, key)).join(', ')}, --[no-]local-cache-control, --local-cache-max-age, --active or --inactive`;
  refuseEmptyUpdate(changes, nothing);
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const out = await ctx.output();
  return thenDo(await updateAsset(ctx, { assetId, user, ...changes }, flags, nothing), (asset) => {
    out.success(assetUpdatedLine(asset));
    out.print(asset, renderAsset);
  });
};
