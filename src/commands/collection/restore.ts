// ahs collection restore COLLECTION_ID
import type { Run } from '../define.js';
import type { restoreSpec } from './index.js';
import { collectionMessage, decideCollectionRestore } from '../../rules/index.js';
import { collectionStep, settleBySnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';

export const run: Run<typeof restoreSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId, { includeDeleted: true });
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const out = await ctx.output();
  // The service reads createdBy here, not deletedBy.
  const request = { method: 'POST', path: vcPath(api, collectionId, 'restore'), body: { createdBy: user } } as const;
  return plan(
    [
      collectionStep(api, collectionId, request, (view) => ({ decision: decideCollectionRestore(collectionId, view.snapshot) }), {
        settle: settleBySnapshot(collectionId, (view) => view.snapshot?.deleted === false, { message: collectionMessage(collectionId, 'restored') }, 'restored'),
      }),
    ],
    ([answer]) => out.outcome(answer, (answer as { message: string }).message),
  );
};
