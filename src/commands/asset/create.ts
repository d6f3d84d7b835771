// asset create ASSET_ID --name N --type CODE [...]: one POST /va. A lost
// answer is settled by reading the asset back.
import { nameOf, type Run } from '../define.js';
import { createSpec } from './index.js';
import { assetCreateBody } from '../../rules/schemas.js';
import { validateGiven, validateInput } from '../validate.js';
import { renderAsset } from '../../io/views/assets.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof createSpec> = async (options, ctx) => {
  const flags = {
    assetId: nameOf(createSpec, 'assetId'),
    assetName: nameOf(createSpec, 'name'),
    assetType: nameOf(createSpec, 'type'),
  };
  const given = {
    assetId: options.assetId,
    assetName: options.name,
    assetType: options.type,
    description: options.description,
    secured: options.secured,
    localCacheControl: options.localCacheControl,
    localCacheMaxAge: options.localCacheMaxAge,
  };
  validateGiven(assetCreateBody, given, flags);
  const assetId = await ctx.need(given.assetId, { flag: flags.assetId, message: 'Asset id' });
  const assetName = await ctx.need(given.assetName, { flag: flags.assetName, message: 'Asset name' });
  const assetType = await ctx.need(given.assetType, { flag: flags.assetType, message: 'Asset type code' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const body = validateInput(assetCreateBody, { ...given, assetId, assetName, assetType, createdBy: user }, flags);
  const out = await ctx.output();
  const create = steps.assetCreate({ body });
  return plan([create], (results) => {
    const asset = results.of(create)!;
    out.success(`Created asset ${asset.assetId}`);
    out.print(asset, renderAsset);
  });
};
