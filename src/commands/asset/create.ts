import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { assetCreateBody, type Asset } from '../../rules/schemas.js';
import { allow, decideAssetCreate } from '../../rules/index.js';
import { printDryRun } from '../legacy.js';
import { validateGiven, validateInput } from '../validate.js';
import { findAsset } from '../../service/assets.js';
import { renderAsset } from '../../io/views/assets.js';

interface Options {
  name?: string;
  type?: string;
  description?: string;
  secured: boolean;
  localCacheControl?: boolean;
  localCacheMaxAge?: number | string;
}

export const FLAGS = { assetId: 'ASSET_ID', assetName: '--name', assetType: '--type', description: '--description' };

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const given = {
    assetId: args[0],
    assetName: opts.name,
    assetType: opts.type,
    description: opts.description,
    secured: opts.secured === false ? false : undefined,
    localCacheControl: opts.localCacheControl,
    localCacheMaxAge: opts.localCacheMaxAge,
  };
  validateGiven(assetCreateBody, given, FLAGS);
  const assetId = await ctx.need(given.assetId, { flag: 'ASSET_ID', message: 'Asset id' });
  const assetName = await ctx.need(given.assetName, { flag: '--name', message: 'Asset name' });
  const assetType = await ctx.need(given.assetType, { flag: '--type', message: 'Asset type code' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const body = validateInput(assetCreateBody, { ...given, assetId, assetName, assetType, createdBy: user }, FLAGS);
  const api = await ctx.api();
  const out = await ctx.output();
  const path = api.path('va');
  if (ctx.globals.dryRun) {
    const existing = await findAsset(api, assetId);
    const creation = decideAssetCreate(assetId, existing !== undefined);
    const now = new Date().toISOString();
    const predicted: Asset = {
      assetId,
      assetName,
      assetType,
      secured: body.secured ?? true,
      localCacheControl: body.localCacheControl ?? false,
      localCacheMaxAge: body.localCacheMaxAge ?? 30,
      createdBy: user,
      updatedBy: user,
      active: true,
      createdAt: now,
      updatedAt: now,
    };
    await printDryRun(ctx, {
      request: { method: 'POST', path, body },
      current: existing ?? null,
      decision: creation.ok ? allow(201, predicted) : creation,
      notes: ['the asset type and the acting user are checked by the service (404 / 400 when unknown)'],
    });
    return;
  }
  const created = await api.post<Asset>(path, body);
  out.success(`Created asset ${created.assetId}`);
  out.print(created, renderAsset);
}
