// ahs collection-deploy: LIVE / OFFLINE in one environment, or --reconcile
// (src/operations/collections.ts). The target environment is the API key's
// scope; a domain-wide key names it in the body (envId). Naming another
// environment than a scoped key's is the service's 403, which we explain.
import type { Run } from '../define.js';
import type { collectionDeploySpec } from './index.js';
import { collectionLiveLine, deployCollection } from '../../operations/collections.js';
import { actingUser, collectionArg, deployEnvArg } from '../../pickers/pick-collection.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof collectionDeploySpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId, { message: 'Collection to deploy' });
  const user = await actingUser(ctx);
  // The service's settings are checked before the environment is asked for.
  await ctx.api();
  const out = await ctx.output();

  if (options.reconcile) {
    return thenDo(await deployCollection(ctx, { collectionId, user, reconcile: true }), (answer) => out.outcome(answer, answer.message!));
  }

  const { envId, source } = await deployEnvArg(ctx, collectionId);
  const state = options.state;
  const planned = await deployCollection(ctx, { collectionId, user, state, envId, envSource: source, idempotent: options.idempotent });
  return thenDo(planned, (answer) => {
    // The deployed URL is data (a script keeps it); OFFLINE answers with a message only.
    if (!answer.downloadUrl) return out.outcome(answer, answer.message ?? `collection ${collectionId} is now ${state}`);
    out.print(answer, (a) => a.downloadUrl);
    out.success(collectionLiveLine(collectionId, envId, answer.downloadUrl));
  });
};
