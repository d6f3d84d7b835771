// The service's current state as a desired-state file (cli.md: `ahs
// export`; the library's client.export), an operation (issue 35): assets with their fields and channels (versions by name, pinned
// by id where a name is ambiguous), collections with their fields, their
// items as a listing (names, not files) and their deployments. `ahs plan` of
// the file it writes shows no changes.
import { isSentinelAsset } from '../rules/control-names.js';
import type { ApiClient } from '../http/client.js';
import { fetchAll } from '../http/paging.js';
// The journal is not content (cli.md, "Memory"): an export never lists it, so a plan never reads it.
import { isJournalCollection } from '../service/journal.js';
import type { Asset, AssetUrl, Collection, Item, Version } from '../rules/schemas.js';
import { findAsset, listAllVersions, listRecords } from '../service/assets.js';
import { deploymentsFrom, listItems, readCollection, readDeploymentStatus } from '../service/collections.js';
import { eachLimited } from '../util/pool.js';
import { NotFoundError } from '../errors.js';
import type { DesiredAsset, DesiredChannel, DesiredCollection, DesiredState, VersionRef } from '../rules/desired.js';
import type { PlanContext } from '../plan/context.js';

const RESOURCES_IN_FLIGHT = 8;

/** What to export (`ahs export`'s --asset, --collection, --platform, --env): without assets or collections, every asset and every collection not deleted. */
export interface ExportFilter {
  /** These assets only (with `collection`: these and those). */
  asset?: string[] | undefined;
  /** These collections only. */
  collection?: string[] | undefined;
  /** Only the channels of these platforms. */
  platform?: string[] | undefined;
  /** Only the channels of these environments. */
  envId?: string[] | undefined;
}

/**
 * The desired-state document of what the service holds (`ahs export --json`
 * prints it; as YAML with a header otherwise): the assets and collections
 * asked for, or every asset and every collection not deleted. One that does
 * not exist is a NotFoundError.
 */
export async function exportState(ctx: PlanContext, filter: ExportFilter): Promise<DesiredState> {
  const api = await ctx.api();
  const { signal } = ctx;
  const named = filter.asset !== undefined || filter.collection !== undefined;
  const assetIds = filter.asset ?? (named ? [] : (await fetchAll<Asset>(api, api.path('va'))).map((a) => a.assetId).filter((id) => !isSentinelAsset(id)));
  const collectionIds = filter.collection ?? (named ? [] : (await fetchAll<Collection>(api, api.path('vc'))).filter((c) => !c.deleted && !isJournalCollection(c)).map((c) => c.collectionId));
  const assets: Record<string, DesiredAsset> = {};
  const collections: Record<string, DesiredCollection> = {};
  const work = [
    ...assetIds.map((id) => async () => void (assets[id] = await exportAsset(api, id, filter))),
    ...collectionIds.map((id) => async () => void (collections[id] = await exportCollection(api, id))),
  ];
  await eachLimited(work, RESOURCES_IN_FLIGHT, signal, (run) => run());
  const state: DesiredState = { apiVersion: 'ahs/v1' };
  // In the order asked for (or listed), whatever order the reads finished in.
  if (assetIds.length) state.assets = Object.fromEntries(assetIds.map((id) => [id, assets[id]!]));
  if (collectionIds.length) state.collections = Object.fromEntries(collectionIds.map((id) => [id, collections[id]!]));
  return state;
}

async function exportAsset(api: ApiClient, assetId: string, filter: ExportFilter): Promise<DesiredAsset> {
  const asset = await findAsset(api, assetId);
  if (!asset) throw new NotFoundError(`asset ${assetId} not found; nothing was written`);
  const [versions, records] = await Promise.all([listAllVersions(api, assetId), channelRecords(api, assetId, filter)]);
  const entry: DesiredAsset = { name: asset.assetName, type: asset.assetType, localCacheControl: asset.localCacheControl, localCacheMaxAge: asset.localCacheMaxAge };
  if (asset.active === false) entry.active = false;
  const channels: Record<string, Record<string, DesiredChannel>> = {};
  for (const record of records) {
    const channel = ((channels[record.targetPlatform] ??= {})[record.envId] ??= {});
    const version = refOf(record, versions);
    if (record.state === 'DEFAULT') channel.default = version;
    else if (record.state === 'LIVE') (channel.live ??= []).push(version);
    else (channel.offline ??= []).push(version);
  }
  // Exported, a channel is the whole truth of it: a version made Live there later is drift (cli.md).
  for (const envs of Object.values(channels)) for (const [envId, channel] of Object.entries(envs)) envs[envId] = { ...channel, exclusive: true };
  if (Object.keys(channels).length) entry.channels = channels;
  return entry;
}

/** The records of the channels the filter names: one value is asked of the service, several are kept from every record. */
async function channelRecords(api: ApiClient, assetId: string, filter: ExportFilter): Promise<AssetUrl[]> {
  const only = (values: string[] | undefined) => (values?.length === 1 ? values[0] : undefined);
  const records = await listRecords(api, assetId, { platform: only(filter.platform), envId: only(filter.envId) });
  const kept = (values: string[] | undefined, value: string) => values === undefined || values.includes(value);
  return records.filter((record) => kept(filter.platform, record.targetPlatform) && kept(filter.envId, record.envId));
}

/** A version by its name, or by its id when another version of the platform has the same name. */
function refOf(record: AssetUrl, versions: Version[]): VersionRef {
  const same = versions.filter((v) => v.targetPlatform === record.targetPlatform && v.versionName === record.versionName);
  return same.length === 1 ? record.versionName : { versionId: record.versionId };
}

async function exportCollection(api: ApiClient, collectionId: string): Promise<DesiredCollection> {
  const collection = await readCollection(api, collectionId);
  if (!collection) throw new NotFoundError(`collection ${collectionId} not found; nothing was written`);
  const [items, status] = await Promise.all([listItems(api, collectionId), readDeploymentStatus(api, collectionId)]);
  const c = collection as Collection & Record<string, unknown>;
  const entry: DesiredCollection = {
    name: collection.collectionName,
    allowedTypes: collection.allowedAssetTypes,
    ...(typeof c.description === 'string' && c.description !== '' ? { description: c.description } : {}),
    maxAssets: collection.maxAssets,
    editable: collection.editable !== false,
    deployable: collection.deployable !== false,
    platform: collection.targetPlatform ?? 'generic',
    ...(typeof c.localCacheControl === 'boolean' ? { localCacheControl: c.localCacheControl } : {}),
    ...(typeof c.localCacheMaxAge === 'number' ? { localCacheMaxAge: c.localCacheMaxAge } : {}),
  };
  const anchor = items.find((item: Item) => item.assetItemId === collection.anchorAsset);
  if (anchor) entry.anchor = anchor.assetItemName;
  entry.items = { names: items.map((item) => item.assetItemName).sort() };
  const deployments = deploymentsFrom(status);
  if (Object.keys(deployments).length) entry.deployments = deployments;
  return entry;
}
