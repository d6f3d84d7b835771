// ahs collection delete COLLECTION_ID: soft delete (must not be Live
// anywhere). The operation (src/operations/collections.ts) reads the
// collection first: LIVE somewhere, nothing is asked and nothing is sent.
import type { Run } from '../define.js';
import { journalErasure } from '../../service/journal-setting.js';
import type { deleteSpec } from './index.js';
import { deleteCollection } from '../../operations/collections.js';
import { actingUser, collectionArg } from '../../pickers/pick-collection.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  ctx.confirmable(`collection delete ${collectionId}${await journalErasure(ctx, collectionId)}`);
  const user = await actingUser(ctx);
  const out = await ctx.output();
  return thenDo(await deleteCollection(ctx, { collectionId, user }), (answer) => out.outcome(answer, answer.message));
};
