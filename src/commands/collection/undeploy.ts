// ahs collection undeploy COLLECTION_ID --env E: removes the Live record
// there; only a fresh deploy makes it Live again (src/operations/collections.ts).
import type { Run } from '../define.js';
import type { undeploySpec } from './index.js';
import { undeployCollection } from '../../operations/collections.js';
import { actingUser, collectionArg, liveEnvArg } from '../../pickers/pick-collection.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof undeploySpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  ctx.confirmable(`collection undeploy ${collectionId}`);
  const envId = await liveEnvArg(ctx, collectionId, 'Environment to undeploy from (where it is Live)');
  const user = await actingUser(ctx);
  const planned = await undeployCollection(ctx, { collectionId, envId, user });
  const out = await ctx.output();
  return thenDo(planned, (answer) => out.outcome(answer, answer.message));
};
