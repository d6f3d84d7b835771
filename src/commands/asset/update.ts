// asset update ASSET_ID [...]: one PUT /va/{id}. The API requires assetType on
// every PUT: the current one is sent when --type is not given.
import { nameOf, type Run } from '../define.js';
import { updateSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { assetUpdateBody, type Asset, type AssetUpdateBody } from '../../rules/schemas.js';
import { allow } from '../../rules/index.js';
import { validateInput } from '../validate.js';
import { getAsset } from '../../service/assets.js';
import { renderAsset } from '../../io/views/assets.js';
import { askAssetId } from '../../service/pick-asset.js';
import { plan, type Step } from '../../plan/plan.js';
import type { ApiClient } from '../../http/client.js';

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
  return plan([updateStep(api, assetId, body, current)], ([updated]) => {
    const asset = updated as Asset;
    out.success(`Updated asset ${asset.assetId}`);
    out.print(asset, renderAsset);
  });
};

function updateStep(api: ApiClient, assetId: string, body: AssetUpdateBody, read: Asset | undefined): Step<Asset> {
  return {
    request: { method: 'PUT', path: api.path('va', assetId), body },
    async predict() {
      const before = read ?? (await getAsset(api, assetId));
      const notes = body.assetType !== before.assetType ? [`the asset type cannot actually change: it stays ${before.assetType} (404 if ${body.assetType} is not an active type)`] : [];
      return { current: before, decision: allow(200, updatedAsset(before, body)), notes };
    },
    // A PUT is applied when the asset shows every value it sent (the description is never echoed: see search).
    async settle(client) {
      const asset = await getAsset(client, assetId);
      const differing = echoedChanges(body).filter((field) => asset[field] !== body[field]);
      if (differing.length) return { applied: false, how: `asset ${assetId} still differs in ${differing.join(', ')}` };
      if (body.description !== undefined) return { applied: 'unknown', check: `ahs asset search ${assetId} --json` };
      return { applied: true, how: `asset ${assetId} shows every value sent`, result: asset };
    },
  };
}

/** The fields of `body` that change the asset and that the asset object shows (assetType cannot change; description is not echoed). */
function echoedChanges(body: AssetUpdateBody): Array<'assetName' | 'localCacheControl' | 'localCacheMaxAge' | 'active'> {
  return (['assetName', 'localCacheControl', 'localCacheMaxAge', 'active'] as const).filter((field) => body[field] !== undefined);
}

function updatedAsset(before: Asset, body: AssetUpdateBody): Asset {
  const next: Asset = { ...before, updatedBy: body.updatedBy, updatedAt: new Date().toISOString() };
  for (const field of echoedChanges(body)) Object.assign(next, { [field]: body[field] });
  return next;
}
