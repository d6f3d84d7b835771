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
import { compareText } from '../order.js';
import { NotFoundError } from '../errors.js';

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

/**
 * A version that is not found, named by what is missing: the asset itself
 * when it is (one more read, on this error path only), else the version.
 */
export async function versionNotFound(api: ApiClient, assetId: string, versionId: string): Promise<NotFoundError> {
  if (!(await findAsset(api, assetId))) return new NotFoundError(`asset ${assetId} not found`);
  return new NotFoundError(`version ${versionId} of ${assetId} not found`);
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
      compareText(a.targetPlatform, b.targetPlatform) ||
      compareText(a.envId, b.envId) ||
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

export function currentDefault(channel: ChannelSnapshot): string | undefined {
  return Object.entries(channel.records).find(([, state]) => state === 'DEFAULT')?.[0];
}

/**
 * The deploy endpoint's 404 for a version that is missing, inactive, or of
 * another platform (the version as read: undefined or null when not found),
 * as a dry-run Rejection with the service's wording, so the predicted error
 * body equals the real one; undefined when it is deployable.
 */
export function notDeployable(version: Version | null | undefined, want: { assetId: string; versionId: string; platform: string }): Rejection | undefined {
  if (version && version.active && version.targetPlatform === want.platform) return undefined;
  return versionNotFoundForPlatform(want.versionId, want.platform, want.assetId, version?.targetPlatform);
}

/** One channel of an asset: the asset, a platform, an environment. */
export interface ChannelKey {
  assetId: string;
  platform: string;
  envId: string;
}

/**
 * The channel's Default record, or undefined: the `state=DEFAULT` filter
 * answers one record whatever the channel's size (issue 21).
 */
export async function readDefault(api: ApiClient, where: ChannelKey): Promise<AssetUrl | undefined> {
  return (await listRecords(api, where.assetId, { platform: where.platform, envId: where.envId, state: 'DEFAULT' }))[0];
}

/**
 * The Default of every environment of one platform of an asset (envId →
 * its Default record), from one listing (the `state=DEFAULT` filter with no
 * `envId`): one record per environment at most, so one page whatever the
 * channels' sizes. An environment absent from the map has no Default.
 */
export async function readDefaults(api: ApiClient, assetId: string, platform: string): Promise<Map<string, AssetUrl>> {
  const defaults = new Map<string, AssetUrl>();
  for (const record of await listRecords(api, assetId, { platform, state: 'DEFAULT' })) {
    if (record.targetPlatform === platform && !defaults.has(record.envId)) defaults.set(record.envId, record);
  }
  return defaults;
}

/**
 * A version's own records on its platform (its asset-urls: LIVE and DEFAULT;
 * OFFLINE only if the service lists it there, which the spec leaves open:
 * see versionRecordOnChannel), in one environment or in all; none when the service
 * answers 404 (an unknown version or environment: the write that follows
 * gets the service's own answer).
 */
export async function versionRecords(api: ApiClient, assetId: string, versionId: string, filter: { platform: string; envId?: string }): Promise<AssetUrl[]> {
  try {
    const records = await fetchAll<AssetUrl>(api, assetPath(api, assetId, 'versions', versionId, 'asset-urls'), { envId: filter.envId }, { item: assetUrlSchema });
    return records.filter((r) => r.versionId === versionId && r.targetPlatform === filter.platform && (filter.envId === undefined || r.envId === filter.envId));
  } catch (error) {
    if (isApiError(error, 404)) return [];
    throw error;
  }
}

/**
 * The version's record on one channel, from reads whose meaning the spec
 * fixes: its own asset-urls show it when it is LIVE or DEFAULT; whether they
 * list an OFFLINE record is not specified (a service may leave it out, as
 * the asset-wide listing does), so when they show none the channel's
 * OFFLINE records (the `state=OFFLINE` filter) are read: absence there and
 * there proves "not deployed".
 */
export async function versionRecordOnChannel(api: ApiClient, where: ChannelKey, versionId: string, atOnce = false): Promise<AssetUrl | undefined> {
  if (atOnce) {
    // Both in one round (deploy --idempotent: issue 45): a deploy that changes something waits two rounds, not three.
    const [[first], offline] = await Promise.all([versionRecords(api, where.assetId, versionId, { platform: where.platform, envId: where.envId }), offlineRecordOnChannel(api, where, versionId)]);
    return first ?? offline;
  }
  const [own] = await versionRecords(api, where.assetId, versionId, { platform: where.platform, envId: where.envId });
  return own ?? offlineRecordOnChannel(api, where, versionId);
}

/** The version's OFFLINE record on the channel, read with the `state=OFFLINE` filter the spec defines; undefined when it has none. */
export async function offlineRecordOnChannel(api: ApiClient, where: ChannelKey, versionId: string): Promise<AssetUrl | undefined> {
  const offline = await listRecords(api, where.assetId, { platform: where.platform, envId: where.envId, state: 'OFFLINE' }).catch((error: unknown) => {
    // An asset or environment the service does not know: no record (the write that follows gets the service's own answer).
    if (isApiError(error, 404)) return [];
    throw error;
  });
  return offline.find((r) => r.versionId === versionId && r.targetPlatform === where.platform && r.envId === where.envId);
}

/** What a deploy or a promotion of one version decides on, read at once. */
export interface VersionOnChannel {
  /** The channel as far as the decision goes: its Default and this version's record (the others do not change it). */
  channel: ChannelSnapshot;
  defaultRecord?: AssetUrl;
  /** This version's record on the channel. */
  record?: AssetUrl;
  /** The version (null: not found), when asked for: what a prediction of its deploy needs. */
  version?: Version | null;
}

/**
 * The channel's Default, the version's record on it (versionRecordOnChannel:
 * a second round only when its own listing shows none) and (unless
 * `version: false`) the version itself, in parallel: one round whatever the
 * channel's size, where the whole channel takes two or more (issue 21).
 */
export async function readVersionOnChannel(api: ApiClient, where: ChannelKey, versionId: string, options: { version?: boolean; withDefault?: boolean; offlineAtOnce?: boolean } = {}): Promise<VersionOnChannel> {
  const [defaultRecord, record, version] = await Promise.all([
    options.withDefault === false ? undefined : readDefault(api, where),
    versionRecordOnChannel(api, where, versionId, options.offlineAtOnce === true),
    options.version === false ? undefined : findVersion(api, where.assetId, versionId).then((found) => found ?? null),
  ]);
  return { channel: channelOf([defaultRecord, record]), defaultRecord, record, ...(version !== undefined ? { version } : {}) };
}

/** A channel snapshot of the records read (a part of the channel: what a decision rests on). */
export function channelOf(records: Array<AssetUrl | undefined>): ChannelSnapshot {
  const channel: ChannelSnapshot = { records: {}, formerDefaults: [], midDeployment: false };
  for (const record of records) if (record) channel.records[record.versionId] = record.state;
  return channel;
}
