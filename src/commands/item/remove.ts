// ahs item remove COLLECTION_ID ITEM_ID: detaches the item; if this was its
// only collection, it is gone for good.
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import { decideItemRemove, type ItemParents } from '../../rules/index.js';
import type { Item } from '../../rules/schemas.js';
import { printDryRun } from '../legacy.js';
import { currentOf, readCollection, readSnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg, itemArg } from '../../service/pick-collection.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const itemId = await itemArg(ctx, collectionId, args[1]);
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const path = vcPath(api, collectionId, 'items', itemId);
  const body = { deletedBy: user };
  if (ctx.globals.dryRun) {
    const view = await readSnapshot(api, collectionId);
    let item: ItemParents | undefined;
    if (view.snapshot) {
      try {
        const found = await api.get<Item>(path);
        item = { assetItemId: found.assetItemId, parentCollections: found.parentCollections ?? [collectionId] };
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    }
    await printDryRun(ctx, {
      request: { method: 'DELETE', path, body },
      current: { ...(currentOf(view) as object | null), item: item ?? null },
      decision: decideItemRemove(collectionId, view.snapshot, item, itemId),
      notFound: !view.snapshot,
    });
    return;
  }
  await ctx.confirm(`Remove item ${itemId} from collection ${collectionId}? If it is in no other collection it is gone for good`);
  let answer: { message: string };
  try {
    answer = await api.delete<{ message: string }>(path, body);
  } catch (error) {
    // A 400 is "not found" (exit 4) only when the collection is really missing;
    // a deleted or otherwise refusing collection is the service's 400 (exit 1).
    if (error instanceof ApiError && error.status === 400) {
      const exists = (await readCollection(api, collectionId).catch(() => undefined)) !== undefined;
      throw new ApiError(error.status, error.body, !exists);
    }
    throw error;
  }
  (await ctx.output()).print(answer, (a) => `${a.message}: ${itemId} from ${collectionId}`);
}
