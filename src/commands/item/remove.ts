// ahs item remove COLLECTION_ID ITEM_ID: detaches the item; if this was its
// only collection, it is gone for good.
import type { Run } from '../define.js';
import type { removeSpec } from './index.js';
import { actingUser, collectionArg, itemArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof removeSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const itemId = await itemArg(ctx, collectionId, options.itemId);
  ctx.confirmable(`item remove ${itemId}`);
  const user = await actingUser(ctx);
  await ctx.confirm(`Remove item ${itemId} from collection ${collectionId}? If it is in no other collection it is gone for good`);
  const out = await ctx.output();
  const removal = steps.itemRemove({ collectionId, itemId, user });
  return plan([removal], (results) => out.outcome(results.of(removal)!, `${results.of(removal)!.message}: ${itemId} from ${collectionId}`));
};
