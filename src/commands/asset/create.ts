// asset create ASSET_ID --name N --type CODE [...]: asks for what is missing,
// then the operation (src/operations/assets.ts) plans one POST /va.
import { nameOf, type Run } from '../define.js';
import { createSpec } from './index.js';
import { assetCreateBody } from '../../rules/schemas.js';
import { validateGiven } from '../../operations/validate.js';
import { assetCreatedLine, createAsset } from '../../operations/assets.js';
import { renderAsset } from '../../io/views/assets.js';
import { thenDo } from '../../plan/plan.js';

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
  // A bad flag is refused before any question is asked.
  validateGiven(assetCreateBody, given, flags);
  const assetId = await ctx.need(given.assetId, { flag: flags.assetId, message: 'Asset id' });
  const assetName = await ctx.need(given.assetName, { flag: flags.assetName, message: 'Asset name' });
  const assetType = await ctx.need(given.assetType, { flag: flags.assetType, message: 'Asset type code' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const out = await ctx.output();
  return thenDo(await createAsset(ctx, { ...given, assetId, assetName, assetType, user }, flags), (asset) => {
    out.success(assetCreatedLine(asset));
    out.print(asset, renderAsset);
  });
};
