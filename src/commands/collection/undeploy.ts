// ahs collection undeploy COLLECTION_ID --env E: removes the Live record
// there; only a fresh deploy makes it Live again.
import type { Run } from '../define.js';
import type { undeploySpec } from './index.js';
import { actingUser, collectionArg, liveEnvArg } from '../../pickers/pick-collection.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof undeploySpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  ctx.confirmable(`collection undeploy ${collectionId}`);
  const envId = await liveEnvArg(ctx, collectionId, 'Environment to undeploy from (where it is Live)');
  const user = await actingUser(ctx);
  await ctx.confirm(`Undeploy collection ${collectionId} from ${envId}? Its URL there stops working until a fresh deploy`);
  const out = await ctx.output();
  const undeploy = steps.collectionUndeploy({ collectionId, envId, user });
  return plan([undeploy], (results) => out.outcome(results.of(undeploy)!, results.of(undeploy)!.message));
};
