// Collection items: upload, get, list (with createdAt filters), remove.
import { decideCollectionGet, decideItemAdd, decideItemRemove, OTHER_ASSET_TYPE } from '../../rules/index.js';
import { deleteBody, itemUploadFields, type Item } from '../../rules/schemas.js';
import type { RequestContext } from '../context.js';
import { paginate, readJson, type Router } from '../http.js';
import { fail } from '../problem.js';
import { itemNotInCollection, queryParamInvalid } from '../../rules/rejections.js';
import type { Frozen, ItemRecord } from '../state.js';
import { check, checkFile, checkPlan, mimeTypeOf, now, receiveUpload, reply, requireActingUser, withUpload } from './common.js';
import { collectionSnapshot } from './collections.js';

/** An item as the service answers it: the schema's record (src/rules/schemas.ts), checked by tsc. */
export function itemView(item: Frozen<ItemRecord>): Item {
  return {
    assetItemId: item.assetItemId,
    assetItemName: item.assetItemName,
    assetType: item.assetType,
    mimetype: item.mimetype,
    size: item.size,
    fileName: item.fileName,
    parentCollections: [...item.parentCollections],
    domain: item.domain,
    createdBy: item.createdBy,
    updatedBy: item.updatedBy,
    uploadStatus: 'Committed' as const,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** A collection that must exist (400 otherwise, as on every items endpoint). */
function requireCollection(ctx: RequestContext, collectionId: string) {
  const decision = decideCollectionGet(collectionId, collectionSnapshot(ctx, collectionId));
  if (!decision.ok) fail(decision);
  return ctx.data.collections[collectionId]!;
}

function dateParam(ctx: RequestContext, name: string, endOfDay: boolean): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return undefined;
  const time = Date.parse(raw);
  if (Number.isNaN(time)) fail(queryParamInvalid(name, raw, 'an ISO 8601 date or timestamp'));
  // A plain date as endDate includes that whole day.
  return endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? time + 86_400_000 - 1 : time;
}

export function registerItems(router: Router<RequestContext>): void {
  router.add('POST', '/vc/:collectionId/items', async (ctx, { collectionId }) => {
    const cid = collectionId!;
    const allowedAssetTypes = () => ctx.data.collections[cid]?.allowedAssetTypes ?? [];
    // Fail fast (missing, deleted, not editable, full) before taking the upload.
    const early = decideItemAdd(cid, collectionSnapshot(ctx, cid), { assetType: OTHER_ASSET_TYPE, allowedAssetTypes: allowedAssetTypes() });
    if (!early.ok) fail(early);
    const upload = await receiveUpload(ctx);
    const item = await withUpload(ctx, upload, async (file) => {
      const assetType = upload.fields.assetType;
      const decision = decideItemAdd(cid, collectionSnapshot(ctx, cid), { ...(assetType ? { assetType } : {}), allowedAssetTypes: allowedAssetTypes() });
      if (!decision.ok) fail(decision);
      const fields = check(itemUploadFields, upload.fields);
      requireActingUser(ctx, fields.createdBy, 'createdBy');
      const uploaded = checkFile(ctx, file, fields.assetType);
      checkPlan(ctx, uploaded);
      return ctx.emu.store.addItem(ctx.domainId, cid, uploaded.pending, (blobId, sequence) => {
        // Called synchronously once the file is stored: the item limit and the storage total cannot race.
        const again = decideItemAdd(cid, collectionSnapshot(ctx, cid), { assetType: fields.assetType, allowedAssetTypes: allowedAssetTypes() });
        if (!again.ok) fail(again);
        checkPlan(ctx, uploaded);
        const at = now(ctx);
        return {
          assetItemId: `item-${String(sequence).padStart(6, '0')}`,
          assetItemName: fields.assetItemName,
          assetType: fields.assetType,
          mimetype: mimeTypeOf(uploaded),
          size: uploaded.size,
          fileName: uploaded.fileName,
          parentCollections: [cid],
          domain: ctx.domainId,
          createdBy: fields.createdBy,
          updatedBy: fields.createdBy,
          createdAt: at,
          updatedAt: at,
          blobId,
        };
      });
    });
    reply(ctx, 201, itemView(item));
  });

  router.add('GET', '/vc/:collectionId/items', async (ctx, { collectionId }) => {
    const collection = requireCollection(ctx, collectionId!);
    const from = dateParam(ctx, 'startDate', false);
    const to = dateParam(ctx, 'endDate', true);
    const items = collection.assetItems
      .map((itemId) => ctx.data.items[itemId])
      .filter((item): item is ItemRecord => {
        if (!item) return false;
        const created = Date.parse(item.createdAt);
        return (from === undefined || created >= from) && (to === undefined || created <= to);
      })
      .map(itemView);
    reply(ctx, 200, paginate(items, ctx));
  });

  router.add('GET', '/vc/:collectionId/items/:itemId', async (ctx, { collectionId, itemId }) => {
    const collection = requireCollection(ctx, collectionId!);
    const item = ctx.data.items[itemId!];
    if (!item || !collection.assetItems.includes(item.assetItemId)) fail(itemNotInCollection(itemId!, collectionId!));
    reply(ctx, 200, itemView(item));
  });

  router.add('DELETE', '/vc/:collectionId/items/:itemId', async (ctx, { collectionId, itemId }) => {
    const cid = collectionId!;
    const raw = await readJson(ctx.req);
    const snapshot = collectionSnapshot(ctx, cid);
    const parents = (id: string) => {
      const item = ctx.data.items[id];
      return item ? { assetItemId: id, parentCollections: item.parentCollections } : undefined;
    };
    const early = decideItemRemove(cid, snapshot, parents(itemId!), itemId!);
    if (!early.ok && early.status !== 404) fail(early);
    const body = check(deleteBody, raw);
    requireActingUser(ctx, body.deletedBy, 'deletedBy');
    const decision = decideItemRemove(cid, collectionSnapshot(ctx, cid), parents(itemId!), itemId!);
    if (!decision.ok) fail(decision);
    const forGood = decision.effects.some((effect) => effect.kind === 'removeItems');
    await ctx.emu.store.removeItem(ctx.domainId, cid, itemId!, forGood, now(ctx));
    reply(ctx, decision.status, { message: decision.message });
  });
}
