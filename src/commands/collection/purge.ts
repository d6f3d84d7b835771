// ahs collection purge COLLECTION_ID: irreversible. The operation
// (src/operations/collections.ts) says what goes before asking.
import type { Run } from '../define.js';
import { journalErasure } from '../../service/journal-setting.js';
import type { purgeSpec } from './index.js';
import { purgeCollection } from '../../operations/collections.js';
import { actingUser, collectionArg } from '../../pickers/pick-collection.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof purgeSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId, { includeDeleted: true, message: 'Collection to purge' });
  ctx.confirmable(`collection purge ${collectionId}${await journalErasure(ctx, collectionId)}`);
  const user = await actingUser(ctx);
  const out = await ctx.output();
  return thenDo(await purgeCollection(ctx, { collectionId, user }), (answer) => out.outcome(answer, answer.message));
};
