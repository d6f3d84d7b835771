// ahs collection purge COLLECTION_ID: irreversible. Says what goes (the
// deployment records in every environment, the items only this collection
// held) before asking.
import type { Run } from '../define.js';
import type { purgeSpec } from './index.js';
import { collectionMessage, decideCollectionPurge } from '../../rules/index.js';
import { collectionStep, currentOf, itemParents, readSnapshot, settleBySnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';

export const run: Run<typeof purgeSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId, { includeDeleted: true, message: 'Collection to purge' });
  ctx.confirmable(`collection purge ${collectionId}`);
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const out = await ctx.output();
  const view = await readSnapshot(api, collectionId);
  const items = view.collection ? await itemParents(api, view.collection) : [];
  const decision = decideCollectionPurge(collectionId, view.snapshot, items);
  // A missing collection asks nothing: the request's 400, settled by a read, is exit 4.
  if (view.snapshot) {
    if (decision.ok) {
      out.info(`Purging collection ${collectionId} removes, for good:`);
      for (const effect of decision.effects) out.info(`  - ${effect.description}`);
    }
    // Asked even when the rules predict a refusal: the state may have moved since the read.
    await ctx.confirm(`Purge collection ${collectionId}? This cannot be undone`);
  }
  const request = { method: 'POST', path: vcPath(api, collectionId, 'purge'), body: { createdBy: user } } as const;
  return plan(
    [
      collectionStep(api, collectionId, request, () => ({ decision, current: view.snapshot ? { ...(currentOf(view) as object), items } : null }), {
        read: async () => view,
        settle: settleBySnapshot(collectionId, (fresh) => !fresh.snapshot, { message: collectionMessage(collectionId, 'purged') }, 'gone'),
      }),
    ],
    ([answer]) => out.outcome(answer, (answer as { message: string }).message),
  );
};
