// asset create ASSET_ID --name N --type CODE [...]: one POST /va. A lost
// answer is settled by reading the asset back.
import { nameOf, type Run } from '../define.js';
import { createSpec } from './index.js';
import { assetCreateBody, type Asset, type AssetCreateBody } from '../../rules/schemas.js';
import { allow, createdAsset, decideAssetCreate } from '../../rules/index.js';
import { validateGiven, validateInput } from '../validate.js';
import { findAsset } from '../../service/assets.js';
import { renderAsset } from '../../io/views/assets.js';
import { plan, type Step } from '../../plan/plan.js';
import type { ApiClient } from '../../http/client.js';

export const run: Run<typeof createSpec> = async (options, ctx) => {
  const started = new Date();
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
  const api = await ctx.api();
  const out = await ctx.output();
  return plan([createStep(api, body, started)], ([created]) => {
    const asset = created as Asset;
    out.success(`Created asset ${asset.assetId}`);
    out.print(asset, renderAsset);
  });
};

function createStep(api: ApiClient, body: AssetCreateBody, started: Date): Step<Asset> {
  const { assetId } = body;
  return {
    request: { method: 'POST', path: api.path('va'), body },
    async predict() {
      const existing = await findAsset(api, assetId);
      const creation = decideAssetCreate(assetId, existing !== undefined);
      return {
        current: existing ?? null,
        decision: creation.ok ? allow(201, createdAsset(body, new Date().toISOString())) : creation,
        notes: ['the asset type and the acting user are checked by the service (404 / 400 when unknown)'],
      };
    },
    // Ours when it exists, was created by the acting user, and not before this command started.
    async settle(client) {
      const asset = await findAsset(client, assetId);
      if (!asset) return { applied: false, how: `GET of asset ${assetId} answers 404` };
      const how = `asset ${assetId} exists, created by ${asset.createdBy} at ${asset.createdAt}`;
      if (asset.createdBy === body.createdBy && client.madeSince(asset.createdAt, started.getTime())) return { applied: true, how, result: asset };
      return { applied: false, how: `${how}, before this command: another create made it` };
    },
  };
}

