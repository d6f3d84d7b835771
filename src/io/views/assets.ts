// Table renderings of assets, versions and deployment records, shared by the
// asset, version, deploy and promote-default commands.
import { isSentinelAsset } from '../../rules/control-names.js';
import type { Column, Field, Kit } from '../output.js';
import type { Asset, AssetUrl, Version } from '../../rules/schemas.js';

export const assetFields: Field<Asset>[] = [
  { label: 'asset id', get: (a) => a.assetId },
  { label: 'name', get: (a) => a.assetName },
  { label: 'type', get: (a) => a.assetType },
  { label: 'secured', get: (a) => a.secured },
  { label: 'local cache', get: (a) => (a.localCacheControl ? `on, max age ${a.localCacheMaxAge}` : `off (max age ${a.localCacheMaxAge})`) },
  { label: 'active', get: (a) => a.active },
  { label: 'created', get: (a) => `${a.createdAt} by ${a.createdBy}` },
  { label: 'updated', get: (a) => `${a.updatedAt} by ${a.updatedBy}` },
];

export function renderAsset(asset: Asset, kit: Kit): string {
  return kit.record(asset, [
    ...assetFields.slice(0, 6),
    { label: 'created', get: (a) => `${kit.cell(a.createdAt)} by ${a.createdBy}` },
    { label: 'updated', get: (a) => `${kit.cell(a.updatedAt)} by ${a.updatedBy}` },
  ]);
}

export const assetColumns: Column<Asset>[] = [
  { header: 'ASSET ID', get: (a) => a.assetId },
  // Change control's sentinels are not content (src/rules/change-control.ts): marked as what they are.
  { header: 'NAME', get: (a) => (isSentinelAsset(a.assetId) ? sentinelName(a.assetName) : a.assetName) },
  { header: 'TYPE', get: (a) => a.assetType },
  { header: 'SECURED', get: (a) => a.secured },
  { header: 'ACTIVE', get: (a) => a.active },
  { header: 'UPDATED', get: (a) => a.updatedAt },
];

export function renderVersion(version: Version, kit: Kit): string {
  return kit.record(version, [
    { label: 'version id', get: (v) => v.versionId },
    { label: 'version', get: (v) => v.version },
    { label: 'name', get: (v) => v.versionName },
    { label: 'platform', get: (v) => v.targetPlatform },
    { label: 'file', get: (v) => v.fileName ?? '' },
    { label: 'size', get: (v) => v.size },
    { label: 'asset type', get: (v) => v.assetType },
    { label: 'secured', get: (v) => v.secured },
    { label: 'status', get: (v) => v.uploadStatus },
    { label: 'active', get: (v) => v.active },
    { label: 'created', get: (v) => `${kit.cell(v.createdAt)} by ${v.createdBy}` },
  ]);
}

export const versionColumns: Column<Version>[] = [
  { header: 'VERSION ID', get: (v) => v.versionId },
  { header: 'NAME', get: (v) => v.versionName },
  { header: 'PLATFORM', get: (v) => v.targetPlatform },
  // The column a person looks for: never cut while another can give up room.
  { header: 'FILE', get: (v) => v.fileName ?? '', keep: true },
  { header: 'SIZE', get: (v) => v.size },
  { header: 'ACTIVE', get: (v) => v.active },
  { header: 'CREATED', get: (v) => v.createdAt },
];

export function recordColumns(kit: Kit): Column<AssetUrl>[] {
  return [
    { header: 'PLATFORM', get: (r) => r.targetPlatform },
    { header: 'ENV', get: (r) => r.envId },
    { header: 'VERSION ID', get: (r) => r.versionId },
    { header: 'NAME', get: (r) => r.versionName },
    { header: 'STATE', get: (r) => (kit.terminal ? kit.state(r.state) : r.state) },
    { header: 'DOWNLOAD URL', get: (r) => r.downloadUrl ?? '' },
  ];
}

/** A sentinel's name marked as not content; ahs's own name for it says change control already, once. */
function sentinelName(name: string): string {
  return name.startsWith('ahs change control') ? `${name} (not content)` : `${name} (ahs change control: locks, freezes, blocks; not content)`;
}
