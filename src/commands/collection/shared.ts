// What the collection, item, collection-deploy and fetch commands share:
// reading a collection and its deployments into the rules' snapshot, the
// prompts that fill a missing collection / item / environment in a terminal,
// and the renderings.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { ApiClient } from '../../http/client.js';
import { ApiError, AhsError, ExitCode, type ErrorBody } from '../../errors.js';
import { fetchAll } from '../../http/paging.js';
import type { CollectionSnapshot, CollectionDeploymentState, ItemParents } from '../../rules/index.js';
import type { Collection, CollectionDeploymentStatus, Item } from '../../rules/schemas.js';
import type { Kit } from '../../io/output.js';
import { formatBytes } from '../../io/progress.js';

export const vcPath = (api: ApiClient, collectionId: string, ...rest: string[]) => api.path('vc', collectionId, ...rest);

/** True when the option was given on the command line (not a commander default). */
export function given(command: Command, name: string): boolean {
  const source = command.getOptionValueSource(name);
  return source === 'cli' || source === 'env';
}

/** Something named on the command line does not exist (exit 4), found locally. */
export class NotFoundError extends AhsError {
  readonly exitCode = ExitCode.notFound;
  toBody(): ErrorBody {
    return { type: 'urn:ahs:usage', title: this.message, status: null, detail: this.message };
  }
}

export async function actingUser(ctx: Context): Promise<string> {
  return ctx.setting('user', { message: 'Acting user e-mail (an admin or owner of the domain)' });
}

/** GET the collection; undefined when the service says it does not exist. */
export async function readCollection(api: ApiClient, collectionId: string): Promise<Collection | undefined> {
  try {
    return await api.get<Collection>(vcPath(api, collectionId), undefined, { notFound: true });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 404)) return undefined;
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

/** Everything the rules need about one collection (two reads). */
export async function readSnapshot(api: ApiClient, collectionId: string): Promise<CollectionView> {
  const collection = await readCollection(api, collectionId);
  if (!collection) return { collection, status: undefined, snapshot: undefined };
  const status = await readDeploymentStatus(api, collectionId);
  return {
    collection,
    status,
    snapshot: {
      collectionId,
      deleted: Boolean(collection.deleted),
      deployable: collection.deployable !== false,
      editable: collection.editable !== false,
      itemCount: collection.assetItems?.length ?? 0,
      maxAssets: collection.maxAssets,
      deployments: deploymentsFrom(status),
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

// --- prompts for missing arguments ----------------------------------------------

/** The collection id argument, or (in a terminal) a searchable pick of the collections. */
export async function collectionArg(ctx: Context, value: string | undefined, options: { includeDeleted?: boolean; message?: string } = {}): Promise<string> {
  return ctx.need<string>(value, {
    flag: 'COLLECTION_ID',
    message: options.message ?? 'Collection',
    choices: async () => {
      const api = await ctx.api();
      const all = await fetchAll<Collection>(api, api.path('vc'));
      return all
        .filter((c) => options.includeDeleted || !c.deleted)
        .map((c) => ({
          name: `${c.collectionName} (${c.collectionId})${c.deleted ? ' [deleted]' : ''} · ${c.assetItems?.length ?? 0} item(s)`,
          value: c.collectionId,
        }));
    },
  });
}

export async function itemArg(ctx: Context, collectionId: string, value: string | undefined): Promise<string> {
  return ctx.need<string>(value, {
    flag: 'ITEM_ID',
    message: 'Item',
    choices: async () => {
      const api = await ctx.api();
      const items = await listItems(api, collectionId);
      return items.map((item) => ({ name: itemLabel(item), value: item.assetItemId }));
    },
  });
}

export function itemLabel(item: Item): string {
  return `${item.assetItemName} (${item.assetItemId}) · type ${item.assetType} · ${formatBytes(item.size ?? 0)}`;
}

/**
 * The environment: --env / AHS_ENV / profile, else (in a terminal) a pick
 * among `preferred` (e.g. where the collection is Live), else a usage error.
 */
export async function envArg(ctx: Context, preferred?: () => Promise<string[]>, message = 'Environment'): Promise<string> {
  const settings = await ctx.settings();
  const value = settings.get('envId');
  if (value) return value;
  return ctx.setting('envId', {
    message,
    choices: preferred ? async () => (await preferred()).map((envId) => ({ name: envId, value: envId })) : undefined,
  });
}

// --- renderings -----------------------------------------------------------------

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
