// Reads of assets, versions and deployment records turned into the rules'
// snapshots, shared by the asset, version, deploy and promote-default
// commands: the asset, its versions, and every deployment record of an asset
// (OFFLINE included: the API hides OFFLINE records unless the `state` filter
// asks for them). Each answer is checked against the spec's schema; lists
// read every page (paging.ts), so a channel's view is complete whatever its
// size.
import { isApiError, type ApiClient, type Query } from '../http/client.js';
import { fetchAll } from '../http/paging.js';
import { assetSchema, assetUrlSchema, versionSchema, type Asset, type AssetUrl, type Version } from '../rules/schemas.js';
import { versionNotFoundForPlatform, type ChannelSnapshot, type DeploymentState, type Rejection } from '../rules/index.js';

export function assetPath(api: ApiClient, assetId: string, ...rest: string[]): string {
  return api.path('va', assetId, ...rest);
}

export function getAsset(api: ApiClient, assetId: string): Promise<Asset> {
  return api.get<Asset>(assetPath(api, assetId), undefined, { schema: assetSchema });
}

/** The asset, or undefined on 404. */
export async function findAsset(api: ApiClient, assetId: string): Promise<Asset | undefined> {
  try {
    return await getAsset(api, assetId);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

export function getVersion(api: ApiClient, assetId: string, versionId: string): Promise<Version> {
  return api.get<Version>(assetPath(api, assetId, 'versions', versionId), undefined, { schema: versionSchema });
}

/** The version, or undefined on 404. */
export async function findVersion(api: ApiClient, assetId: string, versionId: string): Promise<Version | undefined> {
  try {
    return await getVersion(api, assetId, versionId);
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

export function listAllVersions(api: ApiClient, assetId: string): Promise<Version[]> {
  return fetchAll<Version>(api, assetPath(api, assetId, 'versions'), {}, { item: versionSchema });
}

export interface RecordFilter {
  platform?: string;
  envId?: string;
  state?: DeploymentState;
}

/**
 * Every deployment record of an asset matching the filters. Without a state
 * filter, reads the default listing (LIVE and DEFAULT) and the OFFLINE
 * records, and merges them (one entry per version, platform and env).
 */
export async function listRecords(api: ApiClient, assetId: string, filter: RecordFilter = {}): Promise<AssetUrl[]> {
  const path = assetPath(api, assetId, 'asset-urls');
  const base = { targetPlatform: filter.platform, envId: filter.envId };
  const read = (query: Query) => fetchAll<AssetUrl>(api, path, query, { item: assetUrlSchema });
  if (filter.state) return (await read({ ...base, state: filter.state })).filter((r) => r.state === filter.state);
  const [visible, offline] = await Promise.all([read(base), read({ ...base, state: 'OFFLINE' })]);
  const seen = new Map<string, AssetUrl>();
  for (const record of [...visible, ...offline]) {
    if (filter.platform && record.targetPlatform !== filter.platform) continue;
    if (filter.envId && record.envId !== filter.envId) continue;
    seen.set(`${record.versionId}\u0000${record.targetPlatform}\u0000${record.envId}`, record);
  }
  return sortRecords([...seen.values()]);
}

export function sortRecords(records: AssetUrl[]): AssetUrl[] {
  const rank: Record<string, number> = { DEFAULT: 0, LIVE: 1, OFFLINE: 2 };
  return records.sort(
    (a, b) =>
      a.targetPlatform.localeCompare(b.targetPlatform) ||
      a.envId.localeCompare(b.envId) ||
      (rank[a.state] ?? 9) - (rank[b.state] ?? 9) ||
      b.version - a.version,
  );
}

/** One channel (asset, platform, env) as the rules see it. */
export async function readChannel(api: ApiClient, assetId: string, platform: string, envId: string): Promise<{ channel: ChannelSnapshot; records: AssetUrl[] }> {
  const records = await listRecords(api, assetId, { platform, envId });
  const channel: ChannelSnapshot = { records: {}, formerDefaults: [], midDeployment: false };
  for (const record of records) channel.records[record.versionId] = record.state;
  return { channel, records };
}

/**
 * A version's deployed URL entry in one environment (LIVE or DEFAULT: the
 * service lists no OFFLINE entry without a state filter), or undefined.
 */
export async function readVersionRecord(api: ApiClient, assetId: string, versionId: string, envId: string, platform?: string): Promise<AssetUrl | undefined> {
  const entries = await fetchAll<AssetUrl>(api, assetPath(api, assetId, 'versions', versionId, 'asset-urls'), { envId }, { item: assetUrlSchema });
  return entries.find((entry) => entry.versionId === versionId && entry.envId === envId && (platform === undefined || entry.targetPlatform === platform));
}

export function currentDefault(channel: ChannelSnapshot): string | undefined {
  return Object.entries(channel.records).find(([, state]) => state === 'DEFAULT')?.[0];
}

/**
 * The deploy endpoint's 404 for a version that is missing, inactive, or of
 * another platform, as a dry-run Rejection with the service's wording, so the
 * predicted error body equals the real one; undefined when it is deployable.
 */
export async function deployableVersion(api: ApiClient, assetId: string, versionId: string, platform: string): Promise<Rejection | undefined> {
  let version: Version | undefined;
  try {
    version = await getVersion(api, assetId, versionId);
  } catch (error) {
    if (!isApiError(error, 404)) throw error;
  }
  if (version && version.active && version.targetPlatform === platform) return undefined;
  return versionNotFoundForPlatform(versionId, platform, assetId, version?.targetPlatform);
}
