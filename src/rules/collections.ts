// Collections (spec, "Collection lifecycle", "Collection deployment state",
// the collection and item error tables). Every function takes the snapshot,
// or undefined when the collection does not exist, because the service's
// "not found" status differs by endpoint (400 on most, 404 on some).
import { allow, type Decision, type Effect, type Rejection } from './decision.js';
import {
  actingUserRequired,
  assetTypeNotAllowedInCollection,
  assetTypeRequired,
  collectionAlreadyDeleted,
  collectionAlreadyInState,
  collectionDeleted,
  collectionHasNoItems,
  collectionIdInUse,
  collectionLive,
  collectionMidDeployment,
  collectionNotDeleted,
  collectionNotDeployable,
  collectionNotDeployedForOffline,
  collectionNotEditable,
  collectionNotFound,
  collectionNotFoundOrNeverDeployed,
  collectionNotLiveAnywhere,
  collectionNotLiveToUndeploy,
  collectionStateInvalid,
  envIdRequiredWithDomainKey,
  fieldsNotUpdatable,
  itemLimitReached,
  itemNotInCollection,
  keyScopedDeploy,
  maxAssetsBelowItemCount,
  noDeployedUrl,
} from './rejections.js';

export type CollectionDeploymentState = 'LIVE' | 'OFFLINE';

export interface CollectionSnapshot {
  collectionId: string;
  deleted: boolean;
  deployable: boolean;
  editable: boolean;
  itemCount: number;
  maxAssets: number;
  /** Deployment record per environment; an environment without one is absent. */
  deployments: Record<string, CollectionDeploymentState>;
  /** Environments where a deployment of this collection is still running. */
  deploying?: string[];
}

export interface ItemParents {
  assetItemId: string;
  parentCollections: readonly string[];
}

export type Lifecycle = 'exists' | 'deleted' | 'removed';

/** Writes on a soft-deleted collection are refused like a missing one, with a title that says what to do. */
function unavailable(collectionId: string, collection: CollectionSnapshot | undefined): Rejection {
  if (!collection) return collectionNotFound(collectionId, 400);
  return collectionDeleted(collectionId);
}

/** The environments where the collection is LIVE. */
export function liveEnvironments(collection: CollectionSnapshot): string[] {
  return Object.entries(collection.deployments)
    .filter(([, state]) => state === 'LIVE')
    .map(([envId]) => envId);
}

// --- lifecycle ---------------------------------------------------------------

export function decideCollectionCreate(collectionId: string, existing: CollectionSnapshot | undefined): Decision<Lifecycle> {
  if (existing) return collectionIdInUse(collectionId, existing.deleted);
  return allow(201, 'exists');
}

/** GET of a missing collection is 400, not 404 (spec, "Errors" > "Collections"). */
export function decideCollectionGet(collectionId: string, collection: CollectionSnapshot | undefined): Decision<Lifecycle> {
  if (!collection) return collectionNotFound(collectionId, 400);
  return allow(200, collection.deleted ? 'deleted' : 'exists');
}

/** Fields a PATCH may carry. */
export const COLLECTION_UPDATABLE_FIELDS = [
  'collectionName',
  'description',
  'maxAssets',
  'editable',
  'deployable',
  'anchorAsset',
  'localCacheControl',
  'localCacheMaxAge',
  'updatedBy',
] as const;

/** Fields a PATCH must not carry (400). */
export const COLLECTION_REFUSED_UPDATE_FIELDS = [
  'collectionId',
  'domainId',
  'allowedAssetTypes',
  'assetItems',
  'targetPlatform',
  'secured',
  'createdBy',
  'deleted',
  'deletedAt',
  'createdAt',
  'updatedAt',
] as const;

export function decideCollectionUpdate(collectionId: string, collection: CollectionSnapshot | undefined, patch: Record<string, unknown>): Decision<Lifecycle> {
  if (!collection) return collectionNotFound(collectionId, 404);
  const refused = Object.keys(patch).filter((field) => (COLLECTION_REFUSED_UPDATE_FIELDS as readonly string[]).includes(field));
  if (refused.length > 0) {
    return fieldsNotUpdatable(refused);
  }
  const maxAssets = patch.maxAssets;
  if (typeof maxAssets === 'number' && maxAssets < collection.itemCount) {
    return maxAssetsBelowItemCount(maxAssets, collection.itemCount);
  }
  return allow(200, collection.deleted ? 'deleted' : 'exists');
}

export function collectionMessage(collectionId: string, verb: 'deleted' | 'restored' | 'purged' | 'undeployed'): string {
  return `Asset collection ${collectionId} has been ${verb}.`;
}

export function decideCollectionDelete(collectionId: string, collection: CollectionSnapshot | undefined): Decision<Lifecycle> {
  if (!collection) return collectionNotFound(collectionId, 404);
  if (collection.deleted) return collectionAlreadyDeleted(collectionId);
  const live = liveEnvironments(collection);
  if (live.length > 0) {
    return collectionLive(collectionId, live);
  }
  return allow(200, 'deleted', [], collectionMessage(collectionId, 'deleted'));
}

export function decideCollectionRestore(collectionId: string, collection: CollectionSnapshot | undefined): Decision<Lifecycle> {
  if (!collection) return collectionNotFound(collectionId, 404);
  if (!collection.deleted) return collectionNotDeleted(collectionId, 'restore');
  return allow(200, 'exists', [], collectionMessage(collectionId, 'restored'));
}

/**
 * Purge removes a deleted collection for good, with its deployment records in
 * every environment and every item whose only parent it was.
 */
export function decideCollectionPurge(collectionId: string, collection: CollectionSnapshot | undefined, items: ItemParents[]): Decision<Lifecycle> {
  if (!collection) return collectionNotFound(collectionId, 404);
  if (!collection.deleted) return collectionNotDeleted(collectionId, 'purge');
  const envIds = Object.keys(collection.deployments);
  const orphans = items.filter((item) => item.parentCollections.every((parent) => parent === collectionId)).map((item) => item.assetItemId);
  const shared = items.filter((item) => !orphans.includes(item.assetItemId)).map((item) => item.assetItemId);
  const effects: Effect[] = [
    { kind: 'removeDeployments', envIds, description: envIds.length ? `deployment records removed in ${envIds.join(', ')}` : 'no deployment records to remove' },
    { kind: 'removeItems', itemIds: orphans, description: `${orphans.length} item(s) removed for good (this was their only collection)` },
  ];
  if (shared.length > 0) {
    effects.push({ kind: 'detachItems', itemIds: shared, description: `${shared.length} item(s) shared with other collections kept there` });
  }
  return allow(200, 'removed', effects, collectionMessage(collectionId, 'purged'));
}

// --- items -------------------------------------------------------------------

export const OTHER_ASSET_TYPE = '9999';
export const ITEM_REMOVED = 'Asset Item removed successfully';

export function decideItemAdd(
  collectionId: string,
  collection: CollectionSnapshot | undefined,
  item: { assetType?: string; allowedAssetTypes: readonly string[] },
): Decision<{ itemCount: number }> {
  if (!collection || collection.deleted) return unavailable(collectionId, collection);
  if (!collection.editable) return collectionNotEditable(collectionId, 'add');
  if (collection.itemCount >= collection.maxAssets) {
    return itemLimitReached(collectionId, collection.maxAssets);
  }
  if (!item.assetType) return assetTypeRequired();
  if (item.assetType !== OTHER_ASSET_TYPE && !item.allowedAssetTypes.includes(item.assetType)) {
    return assetTypeNotAllowedInCollection(item.assetType, collectionId, [...item.allowedAssetTypes, OTHER_ASSET_TYPE]);
  }
  return allow(201, { itemCount: collection.itemCount + 1 });
}

export function decideItemRemove(
  collectionId: string,
  collection: CollectionSnapshot | undefined,
  item: ItemParents | undefined,
  itemId: string,
): Decision<{ itemCount: number }> {
  if (!collection || collection.deleted) return unavailable(collectionId, collection);
  if (!item || !item.parentCollections.includes(collectionId)) {
    return itemNotInCollection(itemId, collectionId);
  }
  // The spec's item errors list "collection not editable" for the items endpoints: removal changes the list too.
  if (!collection.editable) return collectionNotEditable(collectionId, 'remove');
  const effects: Effect[] =
    item.parentCollections.length === 1
      ? [{ kind: 'removeItems', itemIds: [itemId], description: `item ${itemId} removed for good (this was its only collection)` }]
      : [{ kind: 'detachItems', itemIds: [itemId], description: `item ${itemId} detached; kept in ${item.parentCollections.filter((c) => c !== collectionId).join(', ')}` }];
  return allow(200, { itemCount: collection.itemCount - 1 }, effects, ITEM_REMOVED);
}

// --- deployment --------------------------------------------------------------

export const COLLECTION_OFFLINE = 'Asset collection is now OFFLINE.';

/**
 * The target environment of a collection deploy is the key's own scope; a
 * domain-wide key names it in the body. Naming another one is 403.
 */
export function resolveCollectionDeployEnv(keyEnvId: string | undefined, requestedEnvId: string | undefined): { ok: true; envId: string } | Rejection {
  if (keyEnvId !== undefined) {
    if (requestedEnvId !== undefined && requestedEnvId !== keyEnvId) {
      return keyScopedDeploy(keyEnvId, requestedEnvId);
    }
    return { ok: true, envId: keyEnvId };
  }
  if (!requestedEnvId) return envIdRequiredWithDomainKey();
  return { ok: true, envId: requestedEnvId };
}

function deployPrecondition(collectionId: string, collection: CollectionSnapshot): Rejection | undefined {
  if (!collection.deployable) return collectionNotDeployable(collectionId);
  if (collection.itemCount < 1) return collectionHasNoItems(collectionId);
  return undefined;
}

export function decideCollectionDeploy(
  collectionId: string,
  collection: CollectionSnapshot | undefined,
  request: { state?: string; envId: string; createdBy?: string; updatedBy?: string },
): Decision<CollectionDeploymentState> {
  if (!collection || collection.deleted) return unavailable(collectionId, collection);
  const { state, envId } = request;
  if (collection.deploying?.includes(envId)) {
    return collectionMidDeployment(collectionId, envId);
  }
  if (state !== 'LIVE' && state !== 'OFFLINE') return collectionStateInvalid(state);
  if (state === 'LIVE' && !request.createdBy) return actingUserRequired('createdBy', 'to deploy a collection LIVE');
  if (state === 'OFFLINE' && !request.updatedBy) return actingUserRequired('updatedBy', 'to take a collection OFFLINE');
  const blocked = deployPrecondition(collectionId, collection);
  if (blocked) return blocked;
  const current = collection.deployments[envId];
  if (current === state) return collectionAlreadyInState(collectionId, state, envId);
  if (state === 'OFFLINE' && current === undefined) {
    return collectionNotDeployedForOffline(collectionId, envId);
  }
  return state === 'LIVE' ? allow(201, 'LIVE') : allow(201, 'OFFLINE', [], COLLECTION_OFFLINE);
}

export function decideCollectionReconcile(collectionId: string, collection: CollectionSnapshot | undefined, createdBy?: string): Decision<CollectionDeploymentState> {
  if (!collection || collection.deleted) return unavailable(collectionId, collection);
  if (!createdBy) return actingUserRequired('createdBy', 'to reconcile a collection');
  const live = liveEnvironments(collection);
  if (live.length === 0) return collectionNotLiveAnywhere(collectionId);
  return allow(
    200,
    'LIVE',
    [{ kind: 'redeploy', envIds: live, description: `Live deployment re-run in ${live.join(', ')}` }],
    `Asset collection ${collectionId} has been redeployed in ${live.length} environment(s).`,
  );
}

export function decideCollectionUndeploy(collectionId: string, collection: CollectionSnapshot | undefined, envId: string, updatedBy?: string): Decision<'undeployed'> {
  if (!collection || collection.deleted) return unavailable(collectionId, collection);
  if (collection.deployments[envId] !== 'LIVE') {
    const now = collection.deployments[envId] ?? 'not deployed';
    return collectionNotLiveToUndeploy(collectionId, envId, now);
  }
  if (!updatedBy) return actingUserRequired('updatedBy', 'to undeploy a collection');
  return allow(200, 'undeployed', [{ kind: 'removeDeployments', envIds: [envId], description: `deployment record in ${envId} removed; only a fresh deploy makes it LIVE again` }], collectionMessage(collectionId, 'undeployed'));
}

/** GET /deployments/{envId}: a URL only where the collection is LIVE. */
export function decideDeployedUrl(collectionId: string, collection: CollectionSnapshot | undefined, envId: string): Decision<'LIVE'> {
  if (!collection || collection.deleted) return unavailable(collectionId, collection);
  if (collection.deployments[envId] !== 'LIVE') {
    return noDeployedUrl(collectionId, envId, collection.deployments[envId] ?? 'not deployed');
  }
  return allow(200, 'LIVE');
}

/** GET /deployments: 404 when the collection is missing or was never deployed (indistinguishable). */
export function decideDeploymentStatus(collectionId: string, collection: CollectionSnapshot | undefined, everDeployed: boolean): Decision<'status'> {
  if (!collection || !everDeployed) return collectionNotFoundOrNeverDeployed(collectionId);
  return allow(200, 'status');
}
