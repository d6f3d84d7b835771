// ahs collection restore COLLECTION_ID
import type { Run } from '../define.js';
import type { restoreSpec } from './index.js';
import { actingUser, collectionArg } from '../../pickers/pick-collection.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof restoreSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId, { includeDeleted: true });
  const user = await actingUser(ctx);
  const out = await ctx.output();
  const restore = steps.collectionRestore({ collectionId, user });
  return plan([restore], (results) => out.outcome(results.of(restore)!, results.of(restore)!.message));
};
