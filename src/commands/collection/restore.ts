// ahs collection restore COLLECTION_ID (src/operations/collections.ts).
import type { Run } from '../define.js';
import type { restoreSpec } from './index.js';
import { restoreCollection } from '../../operations/collections.js';
import { actingUser, collectionArg } from '../../pickers/pick-collection.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof restoreSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId, { includeDeleted: true });
  const user = await actingUser(ctx);
  const out = await ctx.output();
  return thenDo(await restoreCollection(ctx, { collectionId, user }), (answer) => out.outcome(answer, answer.message));
};
