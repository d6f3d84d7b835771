// ahs item remove COLLECTION_ID ITEM_ID: detaches the item; if this was its
// only collection, it is gone for good.
import type { Run } from '../define.js';
import type { removeSpec } from './index.js';
import type { ApiClient } from '../../http/client.js';
import { ApiError } from '../../errors.js';
import { decideItemRemove, ITEM_REMOVED, type ItemParents } from '../../rules/index.js';
import type { Item } from '../../rules/schemas.js';
import { collectionStep, currentOf, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg, itemArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';

export const run: Run<typeof removeSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const itemId = await itemArg(ctx, collectionId, options.itemId);
  ctx.confirmable(`item remove ${itemId}`);
  const user = await actingUser(ctx);
  const api = await ctx.api();
  await ctx.confirm(`Remove item ${itemId} from collection ${collectionId}? If it is in no other collection it is gone for good`);
  const out = await ctx.output();
  const path = vcPath(api, collectionId, 'items', itemId);
  return plan(
    [
      collectionStep(
        api,
        collectionId,
        { method: 'DELETE', path, body: { deletedBy: user } },
        async (view) => {
          const item = view.snapshot ? await readItemParents(api, path, collectionId) : undefined;
          return { current: { ...(currentOf(view) as object | null), item: item ?? null }, decision: decideItemRemove(collectionId, view.snapshot, item, itemId) };
        },
        {
          // A lost answer: removed when the collection no longer lists the item.
          async settle(client) {
            const item = await readItemParents(client, path, collectionId);
            const how = `GET ${path} ${item ? 'still finds the item' : 'no longer finds the item'}`;
            return item ? { applied: false, how } : { applied: true, how, result: { message: ITEM_REMOVED } };
          },
        },
      ),
    ],
    ([answer]) => out.print(answer as { message: string }, (a) => `${a.message}: ${itemId} from ${collectionId}`),
  );
};

/** The item's parents, or undefined when the collection does not hold it (404). */
async function readItemParents(api: ApiClient, path: string, collectionId: string): Promise<ItemParents | undefined> {
  try {
    const found = await api.get<Item>(path);
    return { assetItemId: found.assetItemId, parentCollections: found.parentCollections ?? [collectionId] };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
