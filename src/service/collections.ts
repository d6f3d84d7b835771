// Reads of collections, their deployments and items, turned into the rules'
// snapshots: what the collection, item, collection-deploy and fetch commands
// share.
import type { ApiClient } from '../http/client.js';
import { ApiError } from '../errors.js';
import { fetchAll } from '../http/paging.js';
import type { CollectionSnapshot, CollectionDeploymentState, ItemParents } from '../rules/index.js';
import type { Settlement } from './settlement.js';
import type { Collection, CollectionDeploymentStatus, Item } from '../rules/schemas.js';

export const vcPath = (api: ApiClient, collectionId: string, ...rest: string[]) => api.path('vc', collectionId, ...rest);

/** GET the collection; undefined when the service says it does not exist. */
export async function readCollection(api: ApiClient, collectionId: string): Promise<Collection | undefined> {
  try {
    return await api.get<Collection>(vcPath(api, collectionId), undefined, { notFound: true });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 404)) return undefined;
    throw error;
  }
}

/**
 * A read that names a collection: the service answers 400 for a missing
 * collection on most endpoints, so a 400 is "not found" (exit 4) only when
 * GET /vc/{id} confirms the collection is missing (cli.md, "Reading the service").
 */
export async function readNamingCollection<T>(api: ApiClient, collectionId: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && !error.notFound && !(await readCollection(api, collectionId))) throw error.asNotFound();
    throw error;
  }
}

/** GET /deployments; undefined for "never deployed (or missing)". */
export async function readDeploymentStatus(api: ApiClient, collectionId: string): Promise<CollectionDeploymentStatus | undefined> {
  try {
    return await api.get<CollectionDeploymentStatus>(vcPath(api, collectionId, 'deployments'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** The state of each environment's record, read off the status object. */
export function deploymentsFrom(status: CollectionDeploymentStatus | undefined): Record<string, CollectionDeploymentState> {
  const deployments: Record<string, CollectionDeploymentState> = {};
  for (const row of status?.items ?? []) {
    const state = (row as { state?: unknown }).state;
    if (state === 'LIVE' || state === 'OFFLINE') deployments[row.envId] = state;
    else if (row.live.length > 0) deployments[row.envId] = 'LIVE';
    else if (row.offline.length > 0) deployments[row.envId] = 'OFFLINE';
  }
  return deployments;
}

export interface CollectionView {
  collection: Collection | undefined;
  status: CollectionDeploymentStatus | undefined;
  snapshot: CollectionSnapshot | undefined;
}

/**
 * Everything the rules need about one collection: the collection and its
 * deployments, read at once (the deployments left out with `deployments:
 * false`, where nothing asks about them: the snapshot then shows none).
 */
export async function readSnapshot(api: ApiClient, collectionId: string, options: { deployments?: boolean } = {}): Promise<CollectionView> {
  const statusRead = options.deployments === false ? Promise.resolve(undefined) : readDeploymentStatus(api, collectionId);
  // A missing collection's deployments may answer an error of their own: the collection's read decides.
  const [collection, status] = await Promise.all([readCollection(api, collectionId), statusRead.then((value) => ({ value }), (error: unknown) => ({ error }))]);
  if (!collection) return { collection, status: undefined, snapshot: undefined };
  if ('error' in status) throw status.error;
  return {
    collection,
    status: status.value,
    snapshot: {
      collectionId,
      deleted: Boolean(collection.deleted),
      deployable: collection.deployable !== false,
      editable: collection.editable !== false,
      itemCount: collection.assetItems?.length ?? 0,
      maxAssets: collection.maxAssets,
      deployments: deploymentsFrom(status.value),
    },
  };
}

/** What a dry run shows as "current". */
export function currentOf(view: CollectionView): unknown {
  if (!view.snapshot) return null;
  const { deleted, deployable, editable, itemCount, maxAssets, deployments } = view.snapshot;
  return { deleted, deployable, editable, itemCount, maxAssets, deployments };
}

export async function listItems(api: ApiClient, collectionId: string, query: Record<string, string | undefined> = {}): Promise<Item[]> {
  return fetchAll<Item>(api, vcPath(api, collectionId, 'items'), query);
}

/** Parents of the collection's items (for purge / remove predictions). */
export async function itemParents(api: ApiClient, collection: Collection): Promise<ItemParents[]> {
  try {
    const items = await listItems(api, collection.collectionId);
    return items.map((item) => ({ assetItemId: item.assetItemId, parentCollections: item.parentCollections ?? [collection.collectionId] }));
  } catch {
    // A deleted collection's item list may be refused: read them one by one.
    const out: ItemParents[] = [];
    for (const itemId of collection.assetItems ?? []) {
      try {
        const item = await api.get<Item>(vcPath(api, collection.collectionId, 'items', itemId));
        out.push({ assetItemId: itemId, parentCollections: item.parentCollections ?? [collection.collectionId] });
      } catch {
        out.push({ assetItemId: itemId, parentCollections: [collection.collectionId] });
      }
    }
    return out;
  }
}

/**
 * An item upload whose answer was lost: the collection's items (every page)
 * hold exactly one item of that name created since the upload started
 * (applied), none (not applied), or several (cannot tell).
 */
export async function settleItemUpload(api: ApiClient, collectionId: string, name: string, since: number): Promise<Settlement<Item>> {
  const made = (await listItems(api, collectionId)).filter((item) => item.assetItemName === name && api.madeSince(item.createdAt, since));
  const what = `item named ${name} created in ${collectionId} since the upload started`;
  if (made.length === 1) return { applied: true, how: `the collection shows one ${what} (${made[0]!.assetItemId})`, result: made[0]! };
  if (made.length === 0) return { applied: false, how: `the collection shows no ${what}` };
  return { applied: 'unknown', check: `ahs item list ${collectionId} --all` };
}
