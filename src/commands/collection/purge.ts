// ahs collection purge COLLECTION_ID: irreversible. Says what goes (the
// deployment records in every environment, the items only this collection
// held) before asking.
import type { Run } from '../define.js';
import type { purgeSpec } from './index.js';
import { decideCollectionPurge } from '../../rules/index.js';
import { currentOf, itemParents, readSnapshot } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../pickers/pick-collection.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

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
  // Planned from what was read (also what the question said): the dry run shows the same.
  const current = view.snapshot ? { ...(currentOf(view) as object), items } : null;
  const purge = steps.collectionPurge({ collectionId, user }, { prediction: { current, decision: view.snapshot ? decision : { ...decision, ...(decision.ok ? {} : { kind: 'not-found' as const, resource: 'collection' as const }) } } });
  return plan([purge], (results) => out.outcome(results.of(purge)!, results.of(purge)!.message));
};
