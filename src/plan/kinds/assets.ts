// The kinds of step that write assets: create, update (PUT), delete, and the
// undeploy of every version of some platforms in one environment.
import { allow, createdAsset, decideAssetCreate, decideAssetDelete, decideAssetUndeploy } from '../../rules/index.js';
import type { Asset, AssetCreateBody, AssetUpdateBody, AssetUrl } from '../../rules/schemas.js';
import { findAsset, getAsset, listRecords } from '../../service/assets.js';
import type { ApiClient } from '../../http/client.js';
import { recordList } from '../../rules/assets.js';
import { kind } from './kind.js';

export interface AssetCreateParams {
  body: AssetCreateBody;
}

export const assetCreate = kind<AssetCreateParams, Asset>({
  describe: (p) => `create asset ${p.body.assetId}`,
  check: (p) => `ahs asset get ${p.body.assetId}`,
  request: (p, api) => ({ method: 'POST', path: api.path('va'), body: p.body }),
  async predict({ body }, api) {
    const existing = await findAsset(api, body.assetId);
    const creation = decideAssetCreate(body.assetId, existing !== undefined);
    return {
      current: existing ?? null,
      decision: creation.ok ? allow(201, createdAsset(body, new Date().toISOString())) : creation,
      notes: ['the asset type and the acting user are checked by the service (404 / 400 when unknown)'],
    };
  },
  // Ours when it exists, was created by the acting user, and not before the send.
  async settle({ body }, { api, sentAt }) {
    const asset = await findAsset(api, body.assetId);
    if (!asset) return { applied: false, how: `GET of asset ${body.assetId} answers 404` };
    const how = `asset ${body.assetId} exists, created by ${asset.createdBy} at ${asset.createdAt}`;
    if (asset.createdBy === body.createdBy && api.madeSince(asset.createdAt, sentAt)) return { applied: true, how, result: asset };
    return { applied: false, how: `${how}, before this command: another create made it` };
  },
});

export interface AssetUpdateParams {
  assetId: string;
  body: AssetUpdateBody;
  /** The asset as read, when the command read it. */
  before?: Asset;
}

export const assetUpdate = kind<AssetUpdateParams, Asset>({
  describe: (p) => `update asset ${p.assetId}`,
  check: (p) => `ahs asset get ${p.assetId}`,
  request: (p, api) => ({ method: 'PUT', path: api.path('va', p.assetId), body: p.body }),
  async predict({ assetId, body, before }, api) {
    const asset = before ?? (await getAsset(api, assetId));
    const notes = body.assetType !== asset.assetType ? [`the asset type cannot actually change: it stays ${asset.assetType} (404 if ${body.assetType} is not an active type)`] : [];
    return { current: asset, decision: allow(200, updatedAsset(asset, body)), notes };
  },
  // A PUT is applied when the asset shows every value it sent (the description is never echoed: see search).
  async settle({ assetId, body }, { api }) {
    const asset = await getAsset(api, assetId);
    const differing = echoedChanges(body).filter((field) => asset[field] !== body[field]);
    if (differing.length) return { applied: false, how: `asset ${assetId} still differs in ${differing.join(', ')}` };
    if (body.description !== undefined) return { applied: 'unknown', check: `ahs asset search ${assetId} --json` };
    return { applied: true, how: `asset ${assetId} shows every value sent`, result: asset };
  },
});

/** The fields of `body` that change the asset and that the asset object shows (assetType cannot change; description is not echoed). */
function echoedChanges(body: AssetUpdateBody): Array<'assetName' | 'localCacheControl' | 'localCacheMaxAge' | 'active'> {
  return (['assetName', 'localCacheControl', 'localCacheMaxAge', 'active'] as const).filter((field) => body[field] !== undefined);
}

function updatedAsset(before: Asset, body: AssetUpdateBody): Asset {
  const next: Asset = { ...before, updatedBy: body.updatedBy, updatedAt: new Date().toISOString() };
  for (const field of echoedChanges(body)) Object.assign(next, { [field]: body[field] });
  return next;
}

export interface AssetDeleteParams {
  assetId: string;
  body: { deletedBy: string };
}

export const assetDelete = kind<AssetDeleteParams, undefined>({
  describe: (p) => `delete asset ${p.assetId}`,
  check: (p) => `ahs asset get ${p.assetId}`,
  request: (p, api) => ({ method: 'DELETE', path: api.path('va', p.assetId), body: p.body }),
  async predict({ assetId }, api) {
    const asset = await getAsset(api, assetId);
    const { counts } = await api.get<{ counts: number }>(api.path('va', assetId, 'version-count'));
    return { current: { asset, versionCount: counts }, decision: decideAssetDelete(assetId, counts), unchanged: 'exists' };
  },
  async settle({ assetId }, { api }) {
    if (await findAsset(api, assetId)) return { applied: false, how: `asset ${assetId} still exists` };
    return { applied: true, how: `GET of asset ${assetId} answers 404`, result: undefined };
  },
});

/** `asset undeploy`: the service's answer. */
export interface UndeployAnswer {
  message: string;
  totalUndeployedVersions: number;
}

export interface AssetUndeployParams {
  assetId: string;
  body: { envId: string; targetPlatforms: string[] };
  /** The records it removes, as read. */
  records: AssetUrl[];
}

/** The asset's records in the environment, of the platforms named. */
export async function targetedRecords(api: ApiClient, assetId: string, body: { envId: string; targetPlatforms: string[] }): Promise<AssetUrl[]> {
  const records = await listRecords(api, assetId, { envId: body.envId });
  return records.filter((r) => body.targetPlatforms.includes(r.targetPlatform));
}

export const assetUndeploy = kind<AssetUndeployParams, UndeployAnswer>({
  describe: (p) => `undeploy ${p.assetId} for ${p.body.targetPlatforms.join(', ')} in ${p.body.envId}`,
  check: (p) => `ahs asset status ${p.assetId} --env ${p.body.envId}`,
  request: (p, api) => ({ method: 'POST', path: api.path('va', p.assetId, 'undeploy'), body: p.body }),
  async predict({ body, records }) {
    return {
      current: records.map((r) => ({ versionId: r.versionId, targetPlatform: r.targetPlatform, state: r.state })),
      decision: decideAssetUndeploy(body.envId, body.targetPlatforms, records),
      notes: ['unknown environment or platform codes are checked by the service (404)'],
    };
  },
  // Applied when none of those records is left.
  async settle({ assetId, body, records }, { api }) {
    const left = await targetedRecords(api, assetId, body);
    if (left.length) return { applied: false, how: `${body.envId} still has ${recordList(left)}` };
    const result = { message: 'Undeploy confirmed by a read of the records.', totalUndeployedVersions: records.length };
    return { applied: true, how: `${body.envId} has no record left for ${body.targetPlatforms.join(', ')}`, result };
  },
});
