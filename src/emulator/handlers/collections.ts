// Collections (create, get, list, update, delete, restore, purge) and their
// deployments (deploy, reconcile, status, per-env URL, undeploy). Decisions
// come from src/rules; this file holds the data and applies them.
import {
  decideCollectionCreate,
  decideCollectionDelete,
  decideCollectionDeploy,
  decideCollectionGet,
  decideCollectionPurge,
  decideCollectionReconcile,
  decideCollectionRestore,
  decideCollectionUndeploy,
  decideCollectionUpdate,
  decideDeployedUrl,
  decideDeploymentStatus,
  createdCollection,
  COLLECTION_DEFAULTS,
  decideAnchor,
  resolveCollectionDeployEnv,
  type CollectionSnapshot,
} from '../../rules/index.js';
import { collectionCreateBody, collectionDeployBody, collectionUndeployRequestBody, collectionUpdateBody, deleteBody, reconcileBody, restoreBody } from '../../rules/schemas.js';
import type { RequestContext } from '../context.js';
import { paginate, readJson, type Router } from '../http.js';
import { fail, failWith } from '../problem.js';
import { unknownAllowedAssetTypes, unknownCollectionPlatform } from '../../rules/rejections.js';
import type { CollectionChanges } from '../operations.js';
import { dict, type CollectionRecord, type Frozen } from '../state.js';
import { check, deploymentDelay, downloadUrlOf, knownAssetType, now, reply, requireActingUser, requireAnyActingUser, requireEnvironment, requireKeyScope } from './common.js';

export function collectionSnapshot(ctx: RequestContext, collectionId: string): CollectionSnapshot | undefined {
  const collection = ctx.data.collections[collectionId];
  if (!collection) return undefined;
  const deployments: CollectionSnapshot['deployments'] = dict();
  for (const [envId, record] of Object.entries(ctx.data.collectionDeployments[collectionId] ?? {})) deployments[envId] = record.state;
  return {
    collectionId,
    deleted: collection.deleted,
    deployable: collection.deployable,
    editable: collection.editable,
    itemCount: collection.assetItems.length,
    maxAssets: collection.maxAssets,
    deployments,
    deploying: ctx.domain.environments.filter((envId) => ctx.emu.deployments.isRunning(collectionKey(ctx.domainId, collectionId, envId))),
  };
}

/** The collection object of responses: every field the spec returns, `null` when unset; never `secured` (spec). */
export function collectionView(collection: Frozen<CollectionRecord>) {
  return {
    collectionId: collection.collectionId,
    domainId: collection.domainId,
    collectionName: collection.collectionName,
    description: collection.description ?? null,
    allowedAssetTypes: collection.allowedAssetTypes,
    maxAssets: collection.maxAssets,
    editable: collection.editable,
    deployable: collection.deployable,
    anchorAsset: collection.anchorAsset ?? null,
    assetItems: collection.assetItems,
    targetPlatform: collection.targetPlatform,
    createdBy: collection.createdBy,
    updatedBy: collection.updatedBy,
    deleted: collection.deleted,
    deletedAt: collection.deletedAt,
    localCacheControl: collection.localCacheControl,
    localCacheMaxAge: collection.localCacheMaxAge,
    createdAt: collection.createdAt,
    updatedAt: collection.updatedAt,
  };
}

/** Delivery path of a collection's document, relative to {deliveryUrl}/api/vi. */
export function collectionDeliveryPath(domainId: string, collectionId: string, envId: string): string {
  return `/${[domainId, 'vc', collectionId, envId].map(encodeURIComponent).join('/')}`;
}

function collectionDownloadUrl(ctx: RequestContext, collectionId: string, envId: string): string {
  return downloadUrlOf(ctx, collectionDeliveryPath(ctx.domainId, collectionId, envId));
}

function collectionKey(domainId: string, collectionId: string, envId: string): string {
  return JSON.stringify(['collection', domainId, collectionId, envId]);
}

export function registerCollections(router: Router<RequestContext>): void {
  router.add('POST', '/vc', async (ctx) => {
    const body = check(collectionCreateBody(ctx.emu.fixture.maxAssetsCeiling), await readJson(ctx.req));
    requireActingUser(ctx, body.createdBy, 'createdBy');
    requireActingUser(ctx, body.updatedBy, 'updatedBy');
    const unknownTypes = body.allowedAssetTypes.filter((code) => !knownAssetType(ctx, code));
    if (unknownTypes.length > 0) {
      fail(unknownAllowedAssetTypes(unknownTypes, ctx.domainId, ctx.domain.assetTypes.map((type) => type.code)));
    }
    const targetPlatform = body.targetPlatform ?? COLLECTION_DEFAULTS.targetPlatform;
    if (!ctx.domain.targetPlatforms.includes(targetPlatform)) {
      fail(unknownCollectionPlatform(targetPlatform, ctx.domainId, ctx.domain.targetPlatforms));
    }
    const decision = decideCollectionCreate(body.collectionId, collectionSnapshot(ctx, body.collectionId));
    if (!decision.ok) fail(decision);
    const collection: CollectionRecord = {
      ...createdCollection({ ...body, targetPlatform }, { domainId: ctx.domainId, maxAssetsCeiling: ctx.emu.fixture.maxAssetsCeiling }, now(ctx)),
      everDeployed: false,
    };
    await ctx.emu.store.createCollection(ctx.domainId, collection);
    reply(ctx, decision.status, collectionView(collection));
  });

  router.add('GET', '/vc', async (ctx) => {
    reply(ctx, 200, paginate(Object.values(ctx.data.collections).map(collectionView), ctx));
  });

  router.add('GET', '/vc/:collectionId', async (ctx, { collectionId }) => {
    const decision = decideCollectionGet(collectionId!, collectionSnapshot(ctx, collectionId!));
    if (!decision.ok) fail(decision);
    reply(ctx, 200, collectionView(ctx.data.collections[collectionId!]!));
  });

  router.add('PATCH', '/vc/:collectionId', async (ctx, { collectionId }) => {
    const raw = await readJson(ctx.req);
    const decision = decideCollectionUpdate(collectionId!, collectionSnapshot(ctx, collectionId!), raw);
    if (!decision.ok) fail(decision);
    const body = check(collectionUpdateBody(ctx.emu.fixture.maxAssetsCeiling), raw);
    // updatedBy is not enforced: without it any active admin/owner of the domain will do (spec).
    if (body.updatedBy !== undefined) requireActingUser(ctx, body.updatedBy, 'updatedBy');
    else requireAnyActingUser(ctx);
    // Re-decided synchronously with the validated body, then applied.
    const collection = ctx.data.collections[collectionId!]!;
    const again = decideCollectionUpdate(collectionId!, collectionSnapshot(ctx, collectionId!), raw);
    if (!again.ok) fail(again);
    const strayAnchor = decideAnchor(collectionId!, body.anchorAsset, collection.assetItems);
    if (strayAnchor) fail(strayAnchor);
    const changes: CollectionChanges = { updatedBy: body.updatedBy ?? collection.updatedBy, updatedAt: now(ctx) };
    for (const field of ['collectionName', 'description', 'maxAssets', 'editable', 'deployable', 'localCacheControl', 'localCacheMaxAge'] as const) {
      if (body[field] !== undefined) Object.assign(changes, { [field]: body[field] });
    }
    if (body.anchorAsset !== undefined) changes.anchorAsset = body.anchorAsset === '' ? null : body.anchorAsset;
    await ctx.emu.store.updateCollection(ctx.domainId, collection.collectionId, changes);
    reply(ctx, 200, collectionView(collection));
  });

  router.add('DELETE', '/vc/:collectionId', async (ctx, { collectionId }) => {
    const raw = await readJson(ctx.req);
    if (!ctx.data.collections[collectionId!]) failWith(decideCollectionDelete(collectionId!, undefined));
    const body = check(deleteBody, raw);
    requireActingUser(ctx, body.deletedBy, 'deletedBy');
    const decision = decideCollectionDelete(collectionId!, collectionSnapshot(ctx, collectionId!));
    if (!decision.ok) fail(decision);
    await ctx.emu.store.deleteCollection(ctx.domainId, collectionId!, body.deletedBy, now(ctx));
    reply(ctx, decision.status, { message: decision.message });
  });

  router.add('POST', '/vc/:collectionId/restore', async (ctx, { collectionId }) => {
    const raw = await readJson(ctx.req);
    if (!ctx.data.collections[collectionId!]) failWith(decideCollectionRestore(collectionId!, undefined));
    const body = check(restoreBody, raw);
    requireActingUser(ctx, body.createdBy, 'createdBy');
    const decision = decideCollectionRestore(collectionId!, collectionSnapshot(ctx, collectionId!));
    if (!decision.ok) fail(decision);
    await ctx.emu.store.restoreCollection(ctx.domainId, collectionId!, body.createdBy, now(ctx));
    reply(ctx, decision.status, { message: decision.message });
  });

  router.add('POST', '/vc/:collectionId/purge', async (ctx, { collectionId }) => {
    const raw = await readJson(ctx.req);
    if (!ctx.data.collections[collectionId!]) failWith(decideCollectionPurge(collectionId!, undefined, []));
    const body = check(restoreBody, raw);
    requireActingUser(ctx, body.createdBy, 'createdBy');
    const collection = ctx.data.collections[collectionId!]!;
    const parents = collection.assetItems.flatMap((itemId) => {
      const item = ctx.data.items[itemId];
      return item ? [{ assetItemId: itemId, parentCollections: item.parentCollections }] : [];
    });
    const decision = decideCollectionPurge(collectionId!, collectionSnapshot(ctx, collectionId!), parents);
    if (!decision.ok) fail(decision);
    const itemsOf = (kind: 'removeItems' | 'detachItems') => decision.effects.flatMap((effect) => (effect.kind === kind ? effect.itemIds : []));
    await ctx.emu.store.purgeCollection(ctx.domainId, collectionId!, itemsOf('removeItems'), itemsOf('detachItems'));
    reply(ctx, decision.status, { message: decision.message });
  });

  // --- deployments -----------------------------------------------------------

  router.add('POST', '/vc/:collectionId/deployments', async (ctx, { collectionId }) => {
    const cid = collectionId!;
    const raw = await readJson(ctx.req);
    if (ctx.query.get('reconcile') === 'true') {
      const body = check(reconcileBody, raw);
      const decision = decideCollectionReconcile(cid, collectionSnapshot(ctx, cid), body.createdBy);
      if (!decision.ok) fail(decision);
      requireActingUser(ctx, body.createdBy, 'createdBy');
      const envIds = decision.effects.flatMap((effect) => (effect.kind === 'redeploy' ? effect.envIds : []));
      await ctx.emu.store.reconcileCollection(ctx.domainId, cid, envIds, body.createdBy!, now(ctx));
      reply(ctx, decision.status, { message: decision.message });
      return;
    }
    const snapshot = collectionSnapshot(ctx, cid);
    if (!snapshot || snapshot.deleted) failWith(decideCollectionDeploy(cid, snapshot, { envId: '' }));
    const resolved = resolveCollectionDeployEnv(ctx.key.envId, typeof raw.envId === 'string' ? raw.envId : undefined);
    if (!resolved.ok) fail(resolved);
    const envId = requireEnvironment(ctx, resolved.envId, 400);
    const body = check(collectionDeployBody, raw);
    const request = {
      envId,
      ...(body.state !== undefined ? { state: body.state } : {}),
      ...(body.createdBy !== undefined ? { createdBy: body.createdBy } : {}),
      ...(body.updatedBy !== undefined ? { updatedBy: body.updatedBy } : {}),
    };
    const key = collectionKey(ctx.domainId, cid, envId);
    let decision = decideCollectionDeploy(cid, collectionSnapshot(ctx, cid), request);
    if (!decision.ok) fail(decision);
    requireActingUser(ctx, body.createdBy, 'createdBy');
    requireActingUser(ctx, body.updatedBy, 'updatedBy');
    if (await deploymentDelay(ctx, key)) {
      decision = decideCollectionDeploy(cid, collectionSnapshot(ctx, cid), request);
      if (!decision.ok) fail(decision);
    }
    const at = now(ctx);
    const actor = body.updatedBy ?? body.createdBy ?? '';
    const existing = ctx.data.collectionDeployments[cid]?.[envId];
    const record = existing
      ? { ...existing, state: decision.next, updatedBy: actor, updatedAt: at }
      : { state: decision.next, createdBy: body.createdBy ?? actor, updatedBy: actor, createdAt: at, updatedAt: at };
    await ctx.emu.store.putCollectionDeployment(ctx.domainId, cid, envId, record);
    if (decision.next === 'LIVE') reply(ctx, decision.status, { downloadUrl: collectionDownloadUrl(ctx, cid, envId) });
    else reply(ctx, decision.status, { message: decision.message });
  });

  router.add('GET', '/vc/:collectionId/deployments', async (ctx, { collectionId }) => {
    const cid = collectionId!;
    const collection = ctx.data.collections[cid];
    const decision = decideDeploymentStatus(cid, collectionSnapshot(ctx, cid), collection?.everDeployed ?? false);
    if (!decision.ok) fail(decision);
    const records = ctx.data.collectionDeployments[cid] ?? {};
    const items = ctx.domain.environments.map((envId) => {
      const state = records[envId]?.state;
      const ids = [...collection!.assetItems];
      return { envId, live: state === 'LIVE' ? ids : [], offline: state === 'OFFLINE' ? ids : [], undeployed: state === undefined ? ids : [] };
    });
    reply(ctx, 200, { collectionId: cid, collectionName: collection!.collectionName, items });
  });

  router.add('GET', '/vc/:collectionId/deployments/:envId', async (ctx, { collectionId, envId }) => {
    const decision = decideDeployedUrl(collectionId!, collectionSnapshot(ctx, collectionId!), envId!);
    if (!decision.ok) fail(decision);
    reply(ctx, 200, { downloadUrl: collectionDownloadUrl(ctx, collectionId!, envId!) });
  });

  router.add('DELETE', '/vc/:collectionId/deployments/:envId', async (ctx, { collectionId, envId }) => {
    const cid = collectionId!;
    const raw = await readJson(ctx.req);
    const snapshot = collectionSnapshot(ctx, cid);
    if (!snapshot || snapshot.deleted) failWith(decideCollectionUndeploy(cid, snapshot, envId!));
    requireKeyScope(ctx, envId!);
    const body = check(collectionUndeployRequestBody, raw);
    const decision = decideCollectionUndeploy(cid, snapshot, envId!, body.updatedBy);
    if (!decision.ok) fail(decision);
    requireActingUser(ctx, body.updatedBy, 'updatedBy');
    await ctx.emu.store.removeCollectionDeployment(ctx.domainId, cid, envId!);
    reply(ctx, decision.status, { message: decision.message });
  });
}
