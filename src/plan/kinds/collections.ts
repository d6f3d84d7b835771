// The kinds of step that write collections and their items. Each names the
// collection (a 400 is "not found", exit 4, once GET /vc/{id} confirms it
// missing); a lost answer is settled by reading the collection again.
import { ApiError } from '../../errors.js';
import type { ApiClient } from '../../http/client.js';
import type { PlanOutput } from '../context.js';
import {
  allow,
  collectionMessage,
  createdCollection,
  decideCollectionCreate,
  decideCollectionDelete,
  decideCollectionDeploy,
  decideCollectionPurge,
  decideCollectionReconcile,
  decideCollectionRestore,
  decideCollectionUndeploy,
  decideCollectionUpdate,
  decideItemAdd,
  decideItemRemove,
  decideAnchor,
  resolveCollectionDeployEnv,
  ITEM_REMOVED,
  type Decision,
  type ItemParents,
} from '../../rules/index.js';
import type { Collection, CollectionCreateBody, Item } from '../../rules/schemas.js';
import { prepareMultipart } from '../../transfer/upload.js';
import { currentOf, itemParents, listItems, readCollection, readSnapshot, settleItemUpload, vcPath, type CollectionView } from '../../service/collections.js';
import type { Prediction, Settlement } from '../plan.js';
import { byAnother } from '../answers.js';
import { kind, type StepFile } from './kind.js';
import { compareText } from '../../order.js';

interface Named {
  collectionId: string;
}

/** A prediction over the collection as read now: a missing collection is "not found" whatever the rule's status. */
async function predictOver(api: ApiClient, collectionId: string, decide: (view: CollectionView) => Promise<Omit<Prediction, 'current'> & { current?: unknown }> | (Omit<Prediction, 'current'> & { current?: unknown })): Promise<Prediction> {
  const view = await readSnapshot(api, collectionId);
  const { decision, current, notes } = await decide(view);
  return { current: current === undefined ? currentOf(view) : current, decision: view.snapshot ? decision : asNotFound(decision), notes };
}

function asNotFound(decision: Decision<unknown>): Decision<unknown> {
  return decision.ok ? decision : { ...decision, kind: 'not-found', resource: 'collection' };
}

/** A lost answer is applied when the fresh snapshot shows `holds`. */
async function settleBySnapshot<R>(api: ApiClient, collectionId: string, holds: (view: CollectionView) => boolean, result: R, what: string): Promise<Settlement<R>> {
  const view = await readSnapshot(api, collectionId);
  const how = `a read of collection ${collectionId} shows it ${holds(view) ? '' : 'not '}${what}`;
  return holds(view) ? { applied: true, result, how } : { applied: false, how };
}

const named = (p: Named) => p.collectionId;
type Message = { message: string };

export interface CollectionCreateParams extends Named {
  body: CollectionCreateBody;
}

// No `collection`: a 400 of a create is never "the collection named does not exist".
export const collectionCreate = kind<CollectionCreateParams, Collection>({
  describe: (p) => `create collection ${p.collectionId}`,
  check: (p) => `ahs collection get ${p.collectionId}`,
  request: (p, api) => ({ method: 'POST', path: api.path('vc'), body: p.body }),
  async predict({ collectionId, body }, api) {
    const view = await readSnapshot(api, collectionId);
    const creation = decideCollectionCreate(collectionId, view.snapshot);
    return {
      current: currentOf(view),
      decision: creation.ok ? allow(creation.status, createdCollection(body, { domainId: api.domainId ?? '' }, new Date().toISOString())) : creation,
      notes: ['the asset type codes and the platform are checked by the service (400 when unknown)'],
    };
  },
  async settle({ collectionId, body }, { api, sentAt }) {
    const found = await readCollection(api, collectionId);
    if (!found) return { applied: false, how: `GET /vc/${collectionId} says it does not exist` };
    if (found.createdBy === body.createdBy && api.madeSince(found.createdAt, sentAt)) return { applied: true, result: found, how: `collection ${collectionId} exists, created by ${body.createdBy}` };
    return { applied: false, how: `collection ${collectionId} exists, created by ${found.createdBy} at ${found.createdAt}: not by this command` };
  },
});

export interface CollectionUpdateParams extends Named {
  body: Record<string, unknown> & { updatedBy?: string; maxAssets?: number };
  /** The collection's fields as read before the write, when the command read them: the journal's before. */
  before?: Record<string, unknown>;
}

export const collectionUpdate = kind<CollectionUpdateParams, Collection>({
  describe: (p) => `update collection ${p.collectionId}`,
  check: (p) => `ahs collection get ${p.collectionId}`,
  collection: named,
  request: (p, api) => ({ method: 'PATCH', path: vcPath(api, p.collectionId), body: p.body }),
  predict: ({ collectionId, body }, api) =>
    predictOver(api, collectionId, (view) => {
      const decision = decideCollectionUpdate(collectionId, view.snapshot, body);
      const anchor = typeof body.anchorAsset === 'string' ? body.anchorAsset : undefined;
      return { decision: (decision.ok && decideAnchor(collectionId, anchor, view.collection?.assetItems ?? [])) || decision };
    }),
});

export interface CollectionWriteParams extends Named {
  user: string;
}

export const collectionDelete = kind<CollectionWriteParams, Message>({
  describe: (p) => `delete collection ${p.collectionId}`,
  check: (p) => `ahs collection get ${p.collectionId}`,
  collection: named,
  request: (p, api) => ({ method: 'DELETE', path: vcPath(api, p.collectionId), body: { deletedBy: p.user } }),
  predict: ({ collectionId }, api) => predictOver(api, collectionId, (view) => ({ decision: decideCollectionDelete(collectionId, view.snapshot) })),
  settle: ({ collectionId }, { api }) => settleBySnapshot(api, collectionId, (view) => view.snapshot?.deleted === true, { message: collectionMessage(collectionId, 'deleted') }, 'deleted'),
});

// The service reads createdBy here, not deletedBy.
export const collectionRestore = kind<CollectionWriteParams, Message>({
  describe: (p) => `restore collection ${p.collectionId}`,
  check: (p) => `ahs collection get ${p.collectionId}`,
  collection: named,
  request: (p, api) => ({ method: 'POST', path: vcPath(api, p.collectionId, 'restore'), body: { createdBy: p.user } }),
  predict: ({ collectionId }, api) => predictOver(api, collectionId, (view) => ({ decision: decideCollectionRestore(collectionId, view.snapshot) })),
  settle: ({ collectionId }, { api }) => settleBySnapshot(api, collectionId, (view) => view.snapshot?.deleted === false, { message: collectionMessage(collectionId, 'restored') }, 'restored'),
});

export const collectionPurge = kind<CollectionWriteParams, Message>({
  describe: (p) => `purge collection ${p.collectionId}`,
  check: (p) => `ahs collection get ${p.collectionId}`,
  collection: named,
  request: (p, api) => ({ method: 'POST', path: vcPath(api, p.collectionId, 'purge'), body: { createdBy: p.user } }),
  predict: ({ collectionId }, api) =>
    predictOver(api, collectionId, async (view) => {
      const items: ItemParents[] = view.collection ? await itemParents(api, view.collection) : [];
      return { decision: decideCollectionPurge(collectionId, view.snapshot, items), current: view.snapshot ? { ...(currentOf(view) as object), items } : null };
    }),
  settle: ({ collectionId }, { api }) => settleBySnapshot(api, collectionId, (fresh) => !fresh.snapshot, { message: collectionMessage(collectionId, 'purged') }, 'gone'),
});

export interface CollectionUndeployParams extends CollectionWriteParams {
  envId: string;
}

export const collectionUndeploy = kind<CollectionUndeployParams, Message>({
  describe: (p) => `undeploy collection ${p.collectionId} from ${p.envId}`,
  check: (p) => `ahs collection status ${p.collectionId}`,
  collection: named,
  request: (p, api) => ({ method: 'DELETE', path: vcPath(api, p.collectionId, 'deployments', p.envId), body: { updatedBy: p.user } }),
  predict: ({ collectionId, envId, user }, api) => predictOver(api, collectionId, (view) => ({ decision: decideCollectionUndeploy(collectionId, view.snapshot, envId, user) })),
  settle: ({ collectionId, envId }, { api }) =>
    settleBySnapshot(api, collectionId, (view) => view.snapshot !== undefined && view.snapshot.deployments[envId] === undefined, { message: collectionMessage(collectionId, 'undeployed') }, `undeployed from ${envId}`),
});

export type DeployAnswer = { downloadUrl?: string; message?: string };

export interface CollectionDeployParams extends CollectionWriteParams {
  state: 'LIVE' | 'OFFLINE';
  /** Absent: the API key's own environment. */
  envId?: string;
  /** Where --env came from, to explain a refusal. */
  envSource?: string;
}

/** What a collection deployment's prediction cannot know (the service checks it). */
export const DEPLOY_ENV_NOTE = 'the environment code is checked by the service (400 when unknown); an environment-scoped API key deploys to its own environment only (403 for another)';
/** What an item upload's prediction cannot know. */
export const ITEM_FILE_TYPE_NOTE = 'the file type (extension) is checked by the service';

export const collectionDeploy = kind<CollectionDeployParams, DeployAnswer>({
  describe: (p) => `deploy collection ${p.collectionId} ${p.state}${p.envId ? ` in ${p.envId}` : ''}`,
  collection: named,
  request: (p, api) => ({ method: 'POST', path: vcPath(api, p.collectionId, 'deployments'), body: deployBodyOf(p) }),
  predict({ collectionId, state, envId, user }, api) {
    // The key's scope is not visible to the CLI: predict for the named environment.
    const target = resolveCollectionDeployEnv(undefined, envId);
    return predictOver(api, collectionId, (view) => ({
      decision: (target.ok ? decideCollectionDeploy(collectionId, view.snapshot, { state, envId: target.envId, createdBy: user, updatedBy: user }) : target) as Decision<unknown>,
      notes: target.ok
        ? [DEPLOY_ENV_NOTE]
        : ['an environment-scoped API key deploys to its own environment; with a domain-wide key, pass --env'],
    }));
  },
  async send(p, { api, out }) {
    try {
      return await api.json<DeployAnswer>({ method: 'POST', path: vcPath(api, p.collectionId, 'deployments'), body: deployBodyOf(p) });
    } catch (error) {
      explainRefusal(out, error, p.envId, p.envSource);
      throw error;
    }
  },
  check: (p) => `ahs collection status ${p.collectionId}`,
  async settle({ collectionId, envId, state }, { api }) {
    if (!envId) return { applied: 'unknown', check: `ahs collection status ${collectionId}` };
    return settleBySnapshot(api, collectionId, (view) => view.snapshot?.deployments[envId] === state, { message: `collection ${collectionId} is ${state} in ${envId}` }, `${state} in ${envId}`);
  },
});

function deployBodyOf(p: CollectionDeployParams): Record<string, string> {
  const body: Record<string, string> = { state: p.state, createdBy: p.user, updatedBy: p.user };
  if (p.envId) body.envId = p.envId;
  return body;
}

/** What a 400 without an environment, or a 403 with one, usually means here (the key's scope is not visible to the CLI). */
function explainRefusal(out: PlanOutput, error: unknown, envId: string | undefined, source: string | undefined): void {
  if (!(error instanceof ApiError) || out.json) return;
  if (error.status === 400 && !envId) {
    out.info('hint: no environment was named. A domain-wide API key must name one: pass --env ENV (or set AHS_ENV, or envId in the profile); an environment-scoped key deploys to its own.');
  }
  if (error.status === 403 && envId) {
    const from = source === 'option' ? 'the envId option' : source === 'flag' ? '--env' : source === 'env' ? 'AHS_ENV' : source === 'prompt' ? 'your answer' : "the profile's envId";
    out.info(
      `hint: a 403 here usually means the API key is scoped to another environment than ${envId} (from ${from}). A scoped key deploys only to its own environment: leave out --env (and AHS_ENV / the profile's envId) or use a domain-wide key.`,
    );
  }
}

export const collectionReconcile = kind<CollectionWriteParams, Message>({
  describe: (p) => `re-run the Live deployments of ${p.collectionId}`,
  check: (p) => `ahs collection status ${p.collectionId}`,
  collection: named,
  request: (p, api) => ({ method: 'POST', path: vcPath(api, p.collectionId, 'deployments'), query: { reconcile: 'true' }, body: { createdBy: p.user } }),
  predict: ({ collectionId, user }, api) => predictOver(api, collectionId, (view) => ({ decision: decideCollectionReconcile(collectionId, view.snapshot, user) })),
});

export interface ItemUploadParams extends Named {
  /** The multipart fields besides the file: assetItemName, assetType, createdBy. */
  fields: { assetItemName: string; assetType: string; createdBy: string };
  file: StepFile;
}

export const itemUpload = kind<ItemUploadParams, Item>({
  describe: (p) => `upload ${p.file.name} to ${p.collectionId}`,
  collection: named,
  file: (p) => p.file,
  applied: (p, answer) => `${p.file.name} was added to ${p.collectionId} as ${answer.assetItemId}`,
  check: (p) => `ahs item list ${p.collectionId} --all`,
  request: (p, api) => ({ method: 'POST', path: vcPath(api, p.collectionId, 'items'), body: { ...p.fields, assetFile: `@${p.file.path} (${p.file.size} bytes)` } }),
  predict: ({ collectionId, fields }, api) =>
    predictOver(api, collectionId, ({ snapshot, collection }) => ({
      decision: decideItemAdd(collectionId, snapshot, { assetType: fields.assetType, allowedAssetTypes: collection?.allowedAssetTypes ?? [] }),
      notes: [ITEM_FILE_TYPE_NOTE],
    })),
  async send(p, io) {
    const stream = await prepareMultipart({ fields: p.fields, file: { field: 'assetFile', path: p.file.path, fileName: p.file.name, sha256: p.file.sha256 }, onProgress: io.progress });
    return io.api.json<Item>({ method: 'POST', path: vcPath(io.api, p.collectionId, 'items'), stream });
  },
  // The upload may have been stored: the collection's items settle it.
  settle: (p, { api, sentAt }) => settleItemUpload(api, p.collectionId, p.fields.assetItemName, sentAt),
});

export interface ItemRemoveParams extends Named {
  itemId: string;
  /** The item's name, for people. */
  name?: string;
  user: string;
  /** Another run may remove it first (two syncs): an item no longer there is done. */
  converge?: boolean;
}

export const itemRemove = kind<ItemRemoveParams, Message>({
  describe: (p) => `remove item ${p.itemId}${p.name ? ` (${p.name})` : ''} from ${p.collectionId}`,
  check: (p) => `ahs item get ${p.collectionId} ${p.itemId}`,
  collection: named,
  request: (p, api) => ({ method: 'DELETE', path: vcPath(api, p.collectionId, 'items', p.itemId), body: { deletedBy: p.user } }),
  async send(p, { api, out }) {
    try {
      return await api.json<Message>({ method: 'DELETE', path: vcPath(api, p.collectionId, 'items', p.itemId), body: { deletedBy: p.user } });
    } catch (error) {
      if (!p.converge || !(error instanceof ApiError && error.status === 404)) throw error;
      out.info(`${p.itemId}${p.name ? ` (${p.name})` : ''} was removed from ${p.collectionId} already: another writer did it meanwhile`);
      return byAnother({ message: ITEM_REMOVED });
    }
  },
  predict: ({ collectionId, itemId }, api) =>
    predictOver(api, collectionId, async (view) => {
      const item = view.snapshot ? await readItemParents(api, collectionId, itemId) : undefined;
      return { current: { ...(currentOf(view) as object | null), item: item ?? null }, decision: decideItemRemove(collectionId, view.snapshot, item, itemId) };
    }),
  // A lost answer: removed when the collection no longer lists the item.
  async settle({ collectionId, itemId }, { api }) {
    const item = await readItemParents(api, collectionId, itemId);
    const how = `GET ${vcPath(api, collectionId, 'items', itemId)} ${item ? 'still finds the item' : 'no longer finds the item'}`;
    return item ? { applied: false, how } : { applied: true, how, result: { message: ITEM_REMOVED } };
  },
});

/** The item's parents, or undefined when the collection does not hold it (404). */
export async function readItemParents(api: ApiClient, collectionId: string, itemId: string): Promise<ItemParents | undefined> {
  try {
    const found = await api.get<Item>(vcPath(api, collectionId, 'items', itemId));
    return { assetItemId: found.assetItemId, parentCollections: found.parentCollections ?? [collectionId] };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export interface ItemConvergeParams extends Named {
  user: string;
  /** The items this run uploaded (undefined where an upload failed), with the size of their files. */
  uploaded: Array<{ name: string; size: number; itemId: string | undefined }>;
  /**
   * The old items this run's replacements remove: their removals may still
   * run when the items are read, and an old item of the same size (--checksum)
   * is not a copy of its file.
   */
  replacing?: string[];
}

/** What two runs agreed on: the copies this run removed, and the item kept for each. */
export interface Converged {
  duplicates: Array<{ name: string; removed: string; kept: Item }>;
}

/** The copy two runs agree on: the item of that name and size created first (then the lowest id). */
function firstCopy(items: Item[]): Item {
  return [...items].sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.assetItemId, b.assetItemId))[0]!;
}

/**
 * Two syncs of one folder at once both upload each new file: once this
 * run's uploads are done, the collection's items are read again, and where
 * another copy of a file this run uploaded came first, this run's copy is
 * removed, so that both runs end with one item per file.
 */
export const itemConverge = kind<ItemConvergeParams, Converged>({
  describe: (p) => `remove copies another run uploaded to ${p.collectionId} at the same time`,
  check: (p) => `ahs item list ${p.collectionId} --all`,
  collection: named,
  runTimeOnly: true,
  request: (p, api) => ({ method: 'DELETE', path: vcPath(api, p.collectionId, 'items', '{copy}'), body: { deletedBy: p.user } }),
  async predict() {
    return { current: null, decision: allow(200, { duplicates: [] }), notes: ['copies made by another run at the same time are found once the uploads are done'] };
  },
  async send(p, { api, out }) {
    const ours = p.uploaded.filter((u): u is { name: string; size: number; itemId: string } => u.itemId !== undefined);
    if (ours.length === 0) return { duplicates: [] };
    const replaced = new Set(p.replacing ?? []);
    const items = (await listItems(api, p.collectionId)).filter((item) => !replaced.has(item.assetItemId));
    const duplicates: Converged['duplicates'] = [];
    for (const { name, size, itemId } of ours) {
      const copies = items.filter((item) => item.assetItemName === name && item.size === size);
      const kept = copies.length > 1 ? firstCopy(copies) : undefined;
      if (!kept || kept.assetItemId === itemId) continue;
      try {
        await api.json({ method: 'DELETE', path: vcPath(api, p.collectionId, 'items', itemId), body: { deletedBy: p.user } });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
      out.info(`another run uploaded ${name} as ${kept.assetItemId} meanwhile: this run's copy ${itemId} was removed`);
      duplicates.push({ name, removed: itemId, kept });
    }
    return { duplicates };
  },
});
