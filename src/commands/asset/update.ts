// asset update ASSET_ID [...]: one PUT /va/{id}. The API requires assetType on
// every PUT: the current one is sent when --type is not given.
import { nameOf, type Run } from '../define.js';
import { updateSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { assetUpdateBody } from '../../rules/schemas.js';
import { validateInput } from '../validate.js';
import { getAsset } from '../../service/assets.js';
import { renderAsset } from '../../io/views/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof updateSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const changes = {
    assetName: options.name,
    description: options.description,
    localCacheControl: options.localCacheControl,
    localCacheMaxAge: options.localCacheMaxAge,
    active: options.active ? true : options.inactive ? false : undefined,
  };
  if (Object.values(changes).every((v) => v === undefined) && options.type === undefined) {
    const flags = (['name', 'description', 'type'] as const).map((key) => nameOf(updateSpec, key));
    throw new UsageError(`nothing to update: give ${flags.join(', ')}, --[no-]local-cache-control, --local-cache-max-age, --active or --inactive`);
  }
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const flags = { assetName: nameOf(updateSpec, 'name'), assetType: nameOf(updateSpec, 'type') };
  // Validate what was given before reading anything (assetType is filled in below when absent).
  validateInput(assetUpdateBody, { updatedBy: user, assetType: options.type ?? 'x', ...changes }, flags);
  const api = await ctx.api();
  const out = await ctx.output();
  const current = options.type === undefined ? await getAsset(api, assetId) : undefined;
  const body = validateInput(assetUpdateBody, { updatedBy: user, assetType: options.type ?? current!.assetType, ...changes }, flags);
  const update = steps.assetUpdate({ assetId, body, before: current });
  return plan([update], (results) => {
    const asset = results.of(update)!;
    out.success(`Updated asset ${asset.assetId}`);
    out.print(asset, renderAsset);
  });
};
