import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { assetUpdateBody, type Asset } from '../../rules/schemas.js';
import { allow } from '../../rules/index.js';
import { printDryRun } from '../legacy.js';
import { validateInput } from '../validate.js';
import { getAsset } from '../../service/assets.js';
import { renderAsset } from '../../io/views/assets.js';
import { askAssetId } from '../../service/pick-asset.js';

interface Options {
  name?: string;
  description?: string;
  type?: string;
  localCacheControl?: boolean;
  localCacheMaxAge?: number | string;
  active?: boolean;
  inactive?: boolean;
}

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0]);
  const active = opts.active ? true : opts.inactive ? false : undefined;
  const changes = {
    assetName: opts.name,
    description: opts.description,
    localCacheControl: opts.localCacheControl,
    localCacheMaxAge: opts.localCacheMaxAge,
    active,
  };
  if (Object.values(changes).every((v) => v === undefined) && opts.type === undefined) {
    throw new UsageError('nothing to update: give --name, --description, --type, --[no-]local-cache-control, --local-cache-max-age, --active or --inactive');
  }
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const flags = { assetName: '--name', assetType: '--type' };
  // Validate what was given before reading anything (assetType is filled in below when absent).
  validateInput(assetUpdateBody, { updatedBy: user, assetType: opts.type ?? 'x', ...changes }, flags);
  const api = await ctx.api();
  const out = await ctx.output();
  // The API requires assetType on every PUT: send the current one when --type is absent.
  const current = opts.type === undefined || ctx.globals.dryRun ? await getAsset(api, assetId) : undefined;
  const assetType = opts.type ?? current!.assetType;
  const body = validateInput(assetUpdateBody, { updatedBy: user, assetType, ...changes }, flags);
  const path = api.path('va', assetId);
  if (ctx.globals.dryRun) {
    const before = current!;
    const next: Asset = {
      ...before,
      ...(body.assetName !== undefined ? { assetName: body.assetName } : {}),
      ...(body.localCacheControl !== undefined ? { localCacheControl: body.localCacheControl } : {}),
      ...(body.localCacheMaxAge !== undefined ? { localCacheMaxAge: body.localCacheMaxAge } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
      updatedBy: user,
      updatedAt: new Date().toISOString(),
    };
    const notes = opts.type !== undefined && opts.type !== before.assetType ? [`the asset type cannot actually change: it stays ${before.assetType} (404 if ${opts.type} is not an active type)`] : [];
    await printDryRun(ctx, { request: { method: 'PUT', path, body }, current: before, decision: allow(200, next), notes });
    return;
  }
  const updated = await api.put<Asset>(path, body);
  out.success(`Updated asset ${updated.assetId}`);
  out.print(updated, renderAsset);
}
