// ahs collection-deploy: LIVE / OFFLINE in one environment, or --reconcile
// (src/operations/collections.ts). The target environment is the API key's
// scope; a domain-wide key names it in the body (envId). Naming another
// environment than a scoped key's is the service's 403, which we explain.
import type { Run } from '../define.js';
import type { collectionDeploySpec } from './index.js';
import { deployCollection } from '../../operations/collections.js';
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
    out.success(`collection ${collectionId} is LIVE${envId ? ` in ${envId}` : ''}; fetch it with: ${fetchHint(collectionId, envId, answer.downloadUrl)}`);
  });
};

/**
 * A fetch command that works as printed. Without an environment named here
 * (an environment-scoped key deployed to its own), `ahs fetch COLLECTION_ID`
 * would stop for want of --env, which the CLI cannot see: the deployed URL
 * says it all.
 */
function fetchHint(collectionId: string, envId: string | undefined, downloadUrl: string): string {
  return envId ? `ahs fetch ${shellWord(collectionId)} --env ${shellWord(envId)}` : `ahs fetch --url ${shellWord(downloadUrl)}`;
}

/** A word the shell reads back unchanged: bare when safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
