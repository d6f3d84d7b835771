// ahs item remove COLLECTION_ID ITEM_ID: detaches the item; if this was its
// only collection, it is gone for good. The question says where the
// collection is LIVE: the item leaves its delivery there at once (spec).
import type { Run } from '../define.js';
import type { removeSpec } from './index.js';
import { liveEnvironments } from '../../rules/index.js';
import { readSnapshot } from '../../service/collections.js';
import { actingUser, collectionArg, itemArg } from '../../service/pick-collection.js';
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
  const base = `Remove item ${itemId} from collection ${collectionId}?`;
  const tail = 'If it is in no other collection it is gone for good';
  if (ctx.globals.yes || ctx.globals.dryRun) return `${base} ${tail}`;
  const { snapshot } = await readSnapshot(await ctx.api(), collectionId);
  const live = snapshot ? liveEnvironments(snapshot) : [];
  const where = live.length > 0 ? ` ${collectionId} is LIVE in ${live.join(', ')}: the item leaves its delivery there at once.` : '';
  return `${base}${where} ${tail}`;
}
