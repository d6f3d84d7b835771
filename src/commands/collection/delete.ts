// ahs collection delete COLLECTION_ID: soft delete (must not be Live anywhere).
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  ctx.confirmable(`collection delete ${collectionId}`);
  const user = await actingUser(ctx);
  await ctx.confirm(`Delete collection ${collectionId}? (soft delete: \`ahs collection restore\` brings it back)`);
  const out = await ctx.output();
  const deletion = steps.collectionDelete({ collectionId, user });
  return plan([deletion], (results) => out.outcome(results.of(deletion)!, results.of(deletion)!.message));
};
