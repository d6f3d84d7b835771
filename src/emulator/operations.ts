// Every change of the emulator's data is one operation: a plain JSON value
// that `applyOperation` applies to the state. The store applies it in
// memory and, with --data-dir, appends it to its journal; a restart replays
// the journal over the last snapshot, so the same function rebuilds the state.
import { dict, emptyDomainState, type AssetRecord, type ChannelRecord, type CollectionDeploymentRecord, type CollectionRecord, type DomainState, type EmulatorState, type ItemRecord, type VersionRecord } from './state.js';

export type AssetChanges = Partial<Pick<AssetRecord, 'assetName' | 'description' | 'localCacheControl' | 'localCacheMaxAge' | 'active' | 'updatedBy' | 'updatedAt'>>;

/** `anchorAsset: null` clears the anchor. */
export type CollectionChanges = Partial<
  Pick<CollectionRecord, 'collectionName' | 'description' | 'maxAssets' | 'editable' | 'deployable' | 'localCacheControl' | 'localCacheMaxAge' | 'updatedBy' | 'updatedAt'>
> & { anchorAsset?: string | null };

export interface ChannelWrite {
  platform: string;
  envId: string;
  channel: ChannelRecord;
}

export type Operation = { domainId: string } & (
  | { op: 'createAsset'; asset: AssetRecord }
  | { op: 'updateAsset'; assetId: string; changes: AssetChanges }
  | { op: 'deleteAsset'; assetId: string }
  | { op: 'addVersion'; assetId: string; version: VersionRecord }
  | { op: 'deleteVersion'; assetId: string; versionId: string }
  | { op: 'putChannels'; assetId: string; channels: ChannelWrite[] }
  | { op: 'createCollection'; collection: CollectionRecord }
  | { op: 'updateCollection'; collectionId: string; changes: CollectionChanges }
  | { op: 'deleteCollection'; collectionId: string; deletedBy: string; at: string }
  | { op: 'restoreCollection'; collectionId: string; by: string; at: string }
  | { op: 'purgeCollection'; collectionId: string; removeItems: string[]; detachItems: string[] }
  | { op: 'addItem'; collectionId: string; item: ItemRecord; sequence: number }
  | { op: 'removeItem'; collectionId: string; itemId: string; forGood: boolean; at: string }
  | { op: 'putCollectionDeployment'; collectionId: string; envId: string; record: CollectionDeploymentRecord }
  | { op: 'reconcileCollection'; collectionId: string; envIds: string[]; by: string; at: string }
  | { op: 'removeCollectionDeployment'; collectionId: string; envId: string }
);

/** Applies one operation in place. Validation happened before: this only records the outcome. */
export function applyOperation(state: EmulatorState, operation: Operation): void {
  const domain = (state.domains[operation.domainId] ??= emptyDomainState());
  switch (operation.op) {
    case 'createAsset':
      domain.assets[operation.asset.assetId] = operation.asset;
      return;
    case 'updateAsset':
      Object.assign(domain.assets[operation.assetId]!, operation.changes);
      return;
    case 'deleteAsset':
      delete domain.assets[operation.assetId];
      delete domain.versions[operation.assetId];
      delete domain.channels[operation.assetId];
      return;
    case 'addVersion': {
      const { assetId, version } = operation;
      (domain.versions[assetId] ??= dict())[version.versionId] = version;
      domain.assets[assetId]!.sequences[version.targetPlatform] = version.version;
      return;
    }
    case 'deleteVersion': {
      const version = domain.versions[operation.assetId]?.[operation.versionId];
      if (!version) return;
      for (const channel of Object.values(domain.channels[operation.assetId]?.[version.targetPlatform] ?? {})) delete channel.records[operation.versionId];
      delete domain.versions[operation.assetId]![operation.versionId];
      return;
    }
    case 'putChannels':
      for (const { platform, envId, channel } of operation.channels) ((domain.channels[operation.assetId] ??= dict())[platform] ??= dict())[envId] = channel;
      return;
    case 'createCollection':
      domain.collections[operation.collection.collectionId] = operation.collection;
      return;
    case 'updateCollection':
      updateCollection(domain.collections[operation.collectionId]!, operation.changes);
      return;
    case 'deleteCollection':
      Object.assign(domain.collections[operation.collectionId]!, { deleted: true, deletedAt: operation.at, deletedBy: operation.deletedBy, updatedAt: operation.at });
      return;
    case 'restoreCollection': {
      const collection = domain.collections[operation.collectionId]!;
      Object.assign(collection, { deleted: false, deletedAt: null, updatedBy: operation.by, updatedAt: operation.at });
      delete collection.deletedBy;
      return;
    }
    case 'purgeCollection':
      purgeCollection(domain, operation.collectionId, operation.removeItems, operation.detachItems);
      return;
    case 'addItem': {
      const collection = domain.collections[operation.collectionId]!;
      domain.items[operation.item.assetItemId] = operation.item;
      domain.itemSequence = operation.sequence;
      collection.assetItems.push(operation.item.assetItemId);
      collection.updatedAt = operation.item.createdAt;
      return;
    }
    case 'removeItem':
      removeItem(domain, operation.collectionId, operation.itemId, operation.forGood, operation.at);
      return;
    case 'putCollectionDeployment':
      (domain.collectionDeployments[operation.collectionId] ??= dict())[operation.envId] = operation.record;
      if (operation.record.state === 'LIVE') domain.collections[operation.collectionId]!.everDeployed = true;
      return;
    case 'reconcileCollection':
      for (const envId of operation.envIds) {
        const record = domain.collectionDeployments[operation.collectionId]?.[envId];
        if (record) Object.assign(record, { updatedAt: operation.at, updatedBy: operation.by });
      }
      return;
    case 'removeCollectionDeployment':
      delete domain.collectionDeployments[operation.collectionId]?.[operation.envId];
      return;
  }
}

function updateCollection(collection: CollectionRecord, changes: CollectionChanges): void {
  const { anchorAsset, ...rest } = changes;
  Object.assign(collection, rest);
  if (anchorAsset === null) delete collection.anchorAsset;
  else if (anchorAsset !== undefined) collection.anchorAsset = anchorAsset;
}

function purgeCollection(domain: DomainState, collectionId: string, removeItems: string[], detachItems: string[]): void {
  for (const itemId of removeItems) delete domain.items[itemId];
  for (const itemId of detachItems) {
    const item = domain.items[itemId];
    if (item) item.parentCollections = item.parentCollections.filter((parent) => parent !== collectionId);
  }
  delete domain.collectionDeployments[collectionId];
  delete domain.collections[collectionId];
}

function removeItem(domain: DomainState, collectionId: string, itemId: string, forGood: boolean, at: string): void {
  const collection = domain.collections[collectionId]!;
  collection.assetItems = collection.assetItems.filter((id) => id !== itemId);
  // Removing an item also takes its anchor status in that collection (spec, items).
  if (collection.anchorAsset === itemId) delete collection.anchorAsset;
  collection.updatedAt = at;
  const item = domain.items[itemId];
  if (!item) return;
  if (forGood) {
    delete domain.items[itemId];
    return;
  }
  item.parentCollections = item.parentCollections.filter((parent) => parent !== collectionId);
  item.updatedAt = at;
}

/** The blob files an operation stops referring to (removed once it is durable). */
export function blobsReleasedBy(state: EmulatorState, operation: Operation): string[] {
  const domain = state.domains[operation.domainId];
  if (!domain) return [];
  switch (operation.op) {
    case 'deleteVersion': {
      const version = domain.versions[operation.assetId]?.[operation.versionId];
      return version ? [version.blobId] : [];
    }
    case 'purgeCollection':
      return operation.removeItems.flatMap((itemId) => (domain.items[itemId] ? [domain.items[itemId]!.blobId] : []));
    case 'removeItem':
      return operation.forGood && domain.items[operation.itemId] ? [domain.items[operation.itemId]!.blobId] : [];
    default:
      return [];
  }
}
