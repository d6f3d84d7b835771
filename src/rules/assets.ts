// Asset and version rules: the version id sequence, the delete guards and
// undeploy (spec, "Resources" > "Version" and "Other rules").
import { allow, type Decision } from './decision.js';
import { assetHasVersions, assetIdInUse, undeployPlatformsMissing, versionStillDeployed } from './rejections.js';
import type { DeploymentState } from './version-deploy.js';
import type { AssetUrl } from './schemas.js';
import { compareText } from '../order.js';

/**
 * versionId = first three letters of the platform code, uppercased, plus the
 * next number of the asset's per-platform sequence (numbers never reused).
 */
export function nextVersionId(platform: string, lastSequence: number): { versionId: string; version: number } {
  const version = lastSequence + 1;
  return { versionId: `${platform.slice(0, 3).toUpperCase()}${version}`, version };
}

/** An assetId is unique in its domain. */
export function decideAssetCreate(assetId: string, exists: boolean): Decision<'created'> {
  if (exists) return assetIdInUse(assetId);
  return allow(201, 'created');
}

/**
 * A version's `size`: decimal units, one decimal place ("512 B", "1.5 KB",
 * "12.3 MB"; emulator.md). The dry-run predicts it, the emulator answers it.
 */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes / 1000;
  let unit = 0;
  // 999.95 KB would print as "1000.0 KB": move up a unit first.
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export interface DeploymentRecordRef {
  envId: string;
  state: DeploymentState;
}

/** A version may be deleted only when it is not LIVE or DEFAULT in any environment. */
export function decideVersionDelete(versionId: string, records: DeploymentRecordRef[]): Decision<'deleted'> {
  const blocking = records.filter((record) => record.state === 'LIVE' || record.state === 'DEFAULT');
  if (blocking.length > 0) {
    const where = blocking.map((record) => `${record.state} in ${record.envId}`).join(', ');
    return versionStillDeployed(versionId, where);
  }
  return allow(204, 'deleted');
}

/** A virtual asset may be deleted only when it has no versions. */
export function decideAssetDelete(assetId: string, versionCount: number): Decision<'deleted'> {
  if (versionCount > 0) {
    return assetHasVersions(assetId, versionCount);
  }
  return allow(204, 'deleted');
}

export interface UndeployRecord {
  versionId: string;
  targetPlatform: string;
}

export const ASSET_UNDEPLOYED = 'Asset Container undeployed successfully.';

/**
 * Undeploy removes every version's record for the given platforms in one
 * environment. Platform codes are checked against the domain's platforms
 * before this (404 when unknown); `records` are the env's records of the asset.
 */
export function decideAssetUndeploy(envId: string, platforms: string[], records: UndeployRecord[]): Decision<{ totalUndeployedVersions: number }> {
  if (platforms.length === 0) return undeployPlatformsMissing();
  const removed = records.filter((record) => platforms.includes(record.targetPlatform));
  const total = removed.length;
  return allow(
    200,
    { totalUndeployedVersions: total },
    [
      {
        kind: 'removeRecords',
        envId,
        platforms,
        count: total,
        description: `${total} deployment record(s) removed in ${envId} for ${platforms.join(', ')}${total ? ` (${removed.map((r) => r.versionId).join(', ')})` : ''}`,
      },
    ],
    ASSET_UNDEPLOYED,
  );
}

/** Deployment records in one line for a person, newest version first: "IOS3 LIVE, IOS2 OFFLINE" (with the platform when there are several). */
export function recordList(records: AssetUrl[]): string {
  const severalPlatforms = new Set(records.map((r) => r.targetPlatform)).size > 1;
  return [...records]
    .sort((a, b) => compareText(a.targetPlatform, b.targetPlatform) || b.version - a.version)
    .map((r) => `${severalPlatforms ? `${r.targetPlatform} ` : ''}${r.versionId} ${r.state}`)
    .join(', ');
}
