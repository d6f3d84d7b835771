// Renderings of collections and items for a person (tables and records).
import type { Kit } from '../output.js';
import type { Collection, Item } from '../../rules/schemas.js';
import { formatBytes } from '../progress.js';

export function itemLabel(item: Item): string {
  return `${item.assetItemName} (${item.assetItemId}) · type ${item.assetType} · ${formatBytes(item.size ?? 0)}`;
}

export function renderCollection(collection: Collection, kit: Kit): string {
  const s = kit.style;
  return kit.record(collection, [
    { label: 'collection id', get: (c) => c.collectionId },
    { label: 'name', get: (c) => c.collectionName },
    { label: 'description', get: (c) => c.description },
    { label: 'status', get: (c) => (c.deleted ? s.red(`deleted${c.deletedAt ? ` ${kit.cell(c.deletedAt)}` : ''}`) : 'active') },
    { label: 'allowed types', get: (c) => c.allowedAssetTypes },
    { label: 'items', get: (c) => `${c.assetItems?.length ?? 0} of max ${c.maxAssets}` },
    { label: 'anchor', get: (c) => c.anchorAsset },
    { label: 'editable', get: (c) => c.editable },
    { label: 'deployable', get: (c) => c.deployable },
    { label: 'platform', get: (c) => c.targetPlatform },
    { label: 'local cache', get: (c) => (c.localCacheControl ? `yes, max age ${c.localCacheMaxAge}` : 'no') },
    { label: 'created', get: (c) => `${kit.cell(c.createdAt)} by ${c.createdBy}` },
    { label: 'updated', get: (c) => `${kit.cell(c.updatedAt)} by ${c.updatedBy}` },
  ]);
}

export function renderItem(item: Item, kit: Kit): string {
  return kit.record(item, [
    { label: 'assetItemId', get: (i) => i.assetItemId },
    { label: 'name', get: (i) => i.assetItemName },
    { label: 'file', get: (i) => i.fileName },
    { label: 'type', get: (i) => i.assetType },
    { label: 'mimetype', get: (i) => i.mimetype },
    { label: 'size', get: (i) => `${formatBytes(i.size ?? 0)} (${i.size} bytes)` },
    { label: 'collections', get: (i) => i.parentCollections },
    { label: 'created', get: (i) => `${kit.cell(i.createdAt)} by ${i.createdBy}` },
  ]);
}

export const itemColumns = [
  { header: 'ITEM', get: (i: Item) => i.assetItemId },
  { header: 'NAME', get: (i: Item) => i.assetItemName },
  { header: 'FILE', get: (i: Item) => i.fileName },
  { header: 'TYPE', get: (i: Item) => i.assetType },
  { header: 'SIZE', get: (i: Item, kit: Kit) => kit.bytes(i.size) },
  { header: 'CREATED', get: (i: Item) => i.createdAt },
];

/** Which rule decided for how many files of an item sync (src/operations/compared-line.ts). */
export { comparedLine } from '../../operations/compared-line.js';
