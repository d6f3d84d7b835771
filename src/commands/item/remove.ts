// ahs item remove COLLECTION_ID ITEM_ID: detaches the item; if this was its
// only collection, it is gone for good. The question says where the
// collection is LIVE: the item leaves its delivery there at once (spec).
import type { Run } from '../define.js';
import type { removeSpec } from './index.js';
import { liveEnvironments } from '../../rules/index.js';
import { readSnapshot, vcPath } from '../../service/collections.js';
import type { Item } from '../../rules/schemas.js';
import { actingUser, collectionArg, itemArg } from '../../pickers/pick-collection.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof removeSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const itemId = await itemArg(ctx, collectionId, options.itemId);
  ctx.confirmable(`item remove ${itemId}`);
  const user = await actingUser(ctx);
  const out = await ctx.output();
  const removal = steps.itemRemove({ collectionId, itemId, user });
  const confirm = { message: await question(ctx, collectionId, itemId), action: `item remove ${itemId}` };
  return plan([removal], (results) => out.outcome(results.of(removal)!, `${results.of(removal)!.message}: ${itemId} from ${collectionId}`), { confirm });
};

/** The confirmation, with the environments where removing the item takes it out of a live delivery (read only when it will be asked). */
async function question(ctx: Parameters<Run<typeof removeSpec>>[1], collectionId: string, itemId: string): Promise<string> {
  const tail = 'If it is in no other collection it is gone for good';
  if (ctx.globals.yes || ctx.globals.dryRun) return `Remove item ${itemId} from ${collectionId}? ${tail}`;
  const api = await ctx.api();
  // The item's name, as a person knows it (an item the collection does not hold is the removal's own 404).
  const [{ snapshot }, item] = await Promise.all([readSnapshot(api, collectionId), api.get<Item>(vcPath(api, collectionId, 'items', itemId)).catch(() => undefined)]);
  const base = `Remove item ${item?.assetItemName ? `${item.assetItemName} (${itemId})` : itemId} from ${collectionId}?`;
  const live = snapshot ? liveEnvironments(snapshot) : [];
  const where = live.length > 0 ? ` ${collectionId} is LIVE in ${live.join(', ')}: the item leaves its delivery there at once.` : '';
  return `${base}${where} ${tail}`;
}
