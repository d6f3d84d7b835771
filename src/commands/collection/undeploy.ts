// ahs collection undeploy COLLECTION_ID --env E: removes the Live record
// there; only a fresh deploy makes it Live again.
import type { Run } from '../define.js';
import type { undeploySpec } from './index.js';
import { collectionMessage, decideCollectionUndeploy } from '../../rules/index.js';
import { collectionStep, settleBySnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg, liveEnvArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';

export const run: Run<typeof undeploySpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  ctx.confirmable(`collection undeploy ${collectionId}`);
  const envId = await liveEnvArg(ctx, collectionId, 'Environment to undeploy from (where it is Live)');
  const user = await actingUser(ctx);
  const api = await ctx.api();
  await ctx.confirm(`Undeploy collection ${collectionId} from ${envId}? Its URL there stops working until a fresh deploy`);
  const out = await ctx.output();
  const request = { method: 'DELETE', path: vcPath(api, collectionId, 'deployments', envId), body: { updatedBy: user } } as const;
  return plan(
    [
      collectionStep(api, collectionId, request, (view) => ({ decision: decideCollectionUndeploy(collectionId, view.snapshot, envId, user) }), {
        settle: settleBySnapshot(collectionId, (view) => view.snapshot !== undefined && view.snapshot.deployments[envId] === undefined, { message: collectionMessage(collectionId, 'undeployed') }, `undeployed from ${envId}`),
      }),
    ],
    ([answer]) => out.outcome(answer, (answer as { message: string }).message),
  );
};
