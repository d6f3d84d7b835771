// ahs collection undeploy COLLECTION_ID --env E: removes the Live record
// there; only a fresh deploy makes it Live again.
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { decideCollectionUndeploy } from '../../rules/index.js';
import { printDryRun } from '../legacy.js';
import { currentOf, readSnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';
import { liveEnvArg } from '../../service/pick-collection.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const envId = await liveEnvArg(ctx, collectionId, 'Environment to undeploy from (where it is Live)');
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const path = vcPath(api, collectionId, 'deployments', envId);
  const body = { updatedBy: user };
  if (ctx.globals.dryRun) {
    const view = await readSnapshot(api, collectionId);
    await printDryRun(ctx, { request: { method: 'DELETE', path, body }, current: currentOf(view), decision: decideCollectionUndeploy(collectionId, view.snapshot, envId, user), notFound: !view.snapshot });
    return;
  }
  await ctx.confirm(`Undeploy collection ${collectionId} from ${envId}? Its URL there stops working until a fresh deploy`);
  const answer = await api.delete<{ message: string }>(path, body);
  (await ctx.output()).print(answer, (a) => a.message);
}
