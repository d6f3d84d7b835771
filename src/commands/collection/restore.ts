// ahs collection restore COLLECTION_ID
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { decideCollectionRestore } from '../../rules/index.js';
import { printDryRun } from '../legacy.js';
import { currentOf, readSnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0], { includeDeleted: true });
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const path = vcPath(api, collectionId, 'restore');
  // The service reads createdBy here, not deletedBy.
  const body = { createdBy: user };
  if (ctx.globals.dryRun) {
    const view = await readSnapshot(api, collectionId);
    await printDryRun(ctx, { request: { method: 'POST', path, body }, current: currentOf(view), decision: decideCollectionRestore(collectionId, view.snapshot), notFound: !view.snapshot });
    return;
  }
  const answer = await api.post<{ message: string }>(path, body);
  (await ctx.output()).print(answer, (a) => a.message);
}
