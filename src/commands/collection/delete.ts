// ahs collection delete COLLECTION_ID: soft delete (must not be Live anywhere).
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { decideCollectionDelete } from '../../rules/index.js';
import { printDryRun } from '../legacy.js';
import { currentOf, readSnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const path = vcPath(api, collectionId);
  const body = { deletedBy: user };
  if (ctx.globals.dryRun) {
    const view = await readSnapshot(api, collectionId);
    await printDryRun(ctx, { request: { method: 'DELETE', path, body }, current: currentOf(view), decision: decideCollectionDelete(collectionId, view.snapshot), notFound: !view.snapshot });
    return;
  }
  await ctx.confirm(`Delete collection ${collectionId}? (soft delete: \`ahs collection restore\` brings it back)`);
  const answer = await api.delete<{ message: string }>(path, body);
  const out = await ctx.output();
  out.print(answer, (a) => a.message);
}
