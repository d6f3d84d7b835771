// ahs collection delete COLLECTION_ID: soft delete (must not be Live anywhere).
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { collectionMessage, decideCollectionDelete } from '../../rules/index.js';
import { collectionStep, settleBySnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  ctx.confirmable(`collection delete ${collectionId}`);
  const user = await actingUser(ctx);
  const api = await ctx.api();
  await ctx.confirm(`Delete collection ${collectionId}? (soft delete: \`ahs collection restore\` brings it back)`);
  const out = await ctx.output();
  return plan(
    [
      collectionStep(api, collectionId, { method: 'DELETE', path: vcPath(api, collectionId), body: { deletedBy: user } }, (view) => ({ decision: decideCollectionDelete(collectionId, view.snapshot) }), {
        settle: settleBySnapshot(collectionId, (view) => view.snapshot?.deleted === true, { message: collectionMessage(collectionId, 'deleted') }, 'deleted'),
      }),
    ],
    ([answer]) => out.outcome(answer, (answer as { message: string }).message),
  );
};
