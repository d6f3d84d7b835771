// ahs collection purge COLLECTION_ID: irreversible. Says what goes (the
// deployment records in every environment, the items only this collection
// held) before asking.
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { decideCollectionPurge } from '../../rules/index.js';
import { printDryRun } from '../legacy.js';
import { currentOf, itemParents, readSnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';
import { NotFoundError } from '../../errors.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0], { includeDeleted: true, message: 'Collection to purge' });
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const path = vcPath(api, collectionId, 'purge');
  const body = { createdBy: user };
  const view = await readSnapshot(api, collectionId);
  const items = view.collection ? await itemParents(api, view.collection) : [];
  const decision = decideCollectionPurge(collectionId, view.snapshot, items);
  if (ctx.globals.dryRun) {
    await printDryRun(ctx, { request: { method: 'POST', path, body }, current: { ...(currentOf(view) as object | null), items }, decision, notFound: !view.snapshot });
    return;
  }
  const out = await ctx.output();
  if (!view.snapshot) throw new NotFoundError(`collection ${collectionId} not found`);
  if (decision.ok) {
    out.info(`Purging collection ${collectionId} removes, for good:`);
    for (const effect of decision.effects) out.info(`  - ${effect.description}`);
  }
  // Asked even when the rules predict a refusal: the state may have moved since the read.
  await ctx.confirm(`Purge collection ${collectionId}? This cannot be undone`);
  const answer = await api.post<{ message: string }>(path, body);
  out.print(answer, (a) => a.message);
}
