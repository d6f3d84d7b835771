// ahs item remove COLLECTION_ID ITEM_ID: detaches the item; if this was its
// only collection, it is gone for good. The operation (src/operations/items.ts)
// asks, saying where the collection is LIVE.
import type { Run } from '../define.js';
import { journalErasure } from '../../service/journal-setting.js';
import type { removeSpec } from './index.js';
import { removeItem } from '../../operations/items.js';
import { actingUser, collectionArg, itemArg } from '../../pickers/pick-collection.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof removeSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const itemId = await itemArg(ctx, collectionId, options.itemId);
  ctx.confirmable(`item remove ${itemId}${await journalErasure(ctx, collectionId)}`);
  const user = await actingUser(ctx);
  const out = await ctx.output();
  return thenDo(await removeItem(ctx, { collectionId, itemId, user }), (answer) => out.outcome(answer, `${answer.message}: ${itemId} from ${collectionId}`));
};
