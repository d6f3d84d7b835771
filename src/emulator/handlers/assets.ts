// Virtual assets: create, get, list, search, update, delete, asset-urls,
// version-count (spec, Endpoints > Virtual assets).
import { createdAsset, decideAssetCreate, decideAssetDelete } from '../../rules/index.js';
import { assetCreateBody, assetUpdateBody, deleteBody } from '../../rules/schemas.js';
import type { RequestContext } from '../context.js';
import { paginate, readJson, sendEmpty, type Router } from '../http.js';
import { fail } from '../problem.js';
import { queryParamInvalid, unknownAssetType } from '../../rules/rejections.js';
import type { AssetChanges } from '../operations.js';
import { dict, type AssetRecord, type Frozen } from '../state.js';
import { activeAssetType, check, findAsset, now, reply, requireActingUser } from './common.js';
import { assetUrlEntries } from './versions.js';

/** The asset object of responses: no `description` (spec), no internal fields. */
export function assetView(asset: Frozen<AssetRecord>) {
  return {
    assetId: asset.assetId,
    assetName: asset.assetName,
    assetType: asset.assetType,
    secured: asset.secured,
    localCacheControl: asset.localCacheControl,
    localCacheMaxAge: asset.localCacheMaxAge,
    createdBy: asset.createdBy,
    updatedBy: asset.updatedBy,
    active: asset.active,
    createdAt: asset.createdAt,
    updatedAt: asset.updatedAt,
  };
}

function searchHit(ctx: RequestContext, asset: Frozen<AssetRecord>) {
  return {
    _id: asset.assetId,
    _score: null,
    _source: {
      assetId: asset.assetId,
      assetName: asset.assetName,
      assetType: asset.assetType,
      description: asset.description ?? '',
      secured: asset.secured,
      active: asset.active,
      domain: ctx.domainId,
      createdAt: asset.createdAt,
      updatedAt: asset.updatedAt,
    },
  };
}

export function registerAssets(router: Router<RequestContext>): void {
  router.add('POST', '/va', async (ctx) => {
    const body = check(assetCreateBody, await readJson(ctx.req));
    requireActingUser(ctx, body.createdBy, 'createdBy');
    requireActingUser(ctx, body.updatedBy, 'updatedBy');
    if (!activeAssetType(ctx, body.assetType)) {
      fail(unknownAssetType(body.assetType, ctx.domainId));
    }
    const decision = decideAssetCreate(body.assetId, Boolean(ctx.data.assets[body.assetId]));
    if (!decision.ok) fail(decision);
    const at = now(ctx);
    const asset: AssetRecord = { ...createdAsset(body, at), sequences: dict<number>() };
    if (body.description !== undefined) asset.description = body.description;
    await ctx.emu.store.createAsset(ctx.domainId, asset);
    reply(ctx, 201, assetView(asset));
  });

  router.add('GET', '/va', async (ctx) => {
    const all = Object.values(ctx.data.assets).map(assetView);
    reply(ctx, 200, paginate(all, ctx));
  });

  // Search: plain-text match on assetId, assetName and description (emulator.md).
  router.add('GET', '/va/search', async (ctx) => {
    const text = (ctx.query.get('text') ?? '').trim().toLowerCase();
    const matches = Object.values(ctx.data.assets).filter(
      (asset) =>
        text === '' ||
        asset.assetId.toLowerCase().includes(text) ||
        asset.assetName.toLowerCase().includes(text) ||
        (asset.description ?? '').toLowerCase().includes(text),
    );
    const page = paginate(matches, ctx, 'page');
    reply(ctx, 200, { results: { pageSize: page.pageSize, total: page.totalResults, hits: page.results.map((asset) => searchHit(ctx, asset)) } });
  });

  router.add('GET', '/va/:assetId', async (ctx, { assetId }) => {
    reply(ctx, 200, assetView(findAsset(ctx, assetId!)));
  });

  router.add('PUT', '/va/:assetId', async (ctx, { assetId }) => {
    const asset = findAsset(ctx, assetId!);
    const body = check(assetUpdateBody, await readJson(ctx.req));
    requireActingUser(ctx, body.updatedBy, 'updatedBy');
    if (!activeAssetType(ctx, body.assetType)) {
      fail(unknownAssetType(body.assetType, ctx.domainId));
    }
    // assetType is required but cannot actually change (spec): the stored one stays.
    const changes: AssetChanges = { updatedBy: body.updatedBy, updatedAt: now(ctx) };
    if (body.assetName !== undefined) changes.assetName = body.assetName;
    if (body.description !== undefined) changes.description = body.description;
    if (body.localCacheControl !== undefined) changes.localCacheControl = body.localCacheControl;
    if (body.localCacheMaxAge !== undefined) changes.localCacheMaxAge = body.localCacheMaxAge;
    if (body.active !== undefined) changes.active = body.active;
    await ctx.emu.store.updateAsset(ctx.domainId, asset.assetId, changes);
    reply(ctx, 200, assetView(asset));
  });

  router.add('DELETE', '/va/:assetId', async (ctx, { assetId }) => {
    const asset = findAsset(ctx, assetId!);
    const body = check(deleteBody, await readJson(ctx.req));
    requireActingUser(ctx, body.deletedBy, 'deletedBy');
    const versionCount = Object.keys(ctx.data.versions[asset.assetId] ?? {}).length;
    const decision = decideAssetDelete(asset.assetId, versionCount);
    if (!decision.ok) fail(decision);
    await ctx.emu.store.deleteAsset(ctx.domainId, asset.assetId);
    sendEmpty(ctx.res, 204);
  });

  router.add('GET', '/va/:assetId/asset-urls', async (ctx, { assetId }) => {
    const asset = findAsset(ctx, assetId!);
    const state = ctx.query.get('state') || undefined;
    const entries = assetUrlEntries(ctx, asset, {
      platform: ctx.query.get('targetPlatform') || undefined,
      envId: ctx.query.get('envId') || undefined,
      // Without `state`, OFFLINE records are left out; with it, an exact match (emulator.md).
      accept: (recordState) => (state === undefined ? recordState !== 'OFFLINE' : recordState === state),
    });
    reply(ctx, 200, paginate(entries, ctx));
  });

  router.add('GET', '/va/:assetId/version-count', async (ctx, { assetId }) => {
    const asset = findAsset(ctx, assetId!);
    const active = ctx.query.get('active');
    if (active !== null && active !== 'true' && active !== 'false') fail(queryParamInvalid('active', active, 'true or false'));
    const versions = Object.values(ctx.data.versions[asset.assetId] ?? {});
    const counts = versions.filter((version) => active === null || version.active === (active === 'true')).length;
    reply(ctx, 200, { counts });
  });
}
