// ahs collection-deploy: LIVE / OFFLINE in one environment, or --reconcile.
// The target environment is the API key's scope; a domain-wide key names it
// in the body (envId). Naming another environment than a scoped key's is the
// service's 403, which we explain.
import type { Run } from '../define.js';
import type { collectionDeploySpec } from './index.js';
import type { Output } from '../../io/output.js';
import { ApiError } from '../../errors.js';
import { decideCollectionDeploy, decideCollectionReconcile, resolveCollectionDeployEnv, type Decision } from '../../rules/index.js';
import { collectionStep, readSnapshot, settleBySnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg, deployEnvArg, type EnvSource } from '../../service/pick-collection.js';
import { noop, plan } from '../../plan/plan.js';

type DeployAnswer = { downloadUrl?: string; message?: string };

export const run: Run<typeof collectionDeploySpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId, { message: 'Collection to deploy' });
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const path = vcPath(api, collectionId, 'deployments');
  const out = await ctx.output();

  if (options.reconcile) {
    const request = { method: 'POST', path, query: { reconcile: 'true' }, body: { createdBy: user } } as const;
    return plan([collectionStep(api, collectionId, request, (view) => ({ decision: decideCollectionReconcile(collectionId, view.snapshot, user) }))], ([answer]) =>
      out.outcome(answer, (answer as { message: string }).message),
    );
  }

  const { envId, source } = await deployEnvArg(ctx, collectionId);
  const state = options.state;
  const body: Record<string, string> = { state, createdBy: user, updatedBy: user };
  if (envId) body.envId = envId;
  // The key's scope is not visible to the CLI: predict for the named environment.
  const target = resolveCollectionDeployEnv(undefined, envId);

  if (options.idempotent && target.ok) {
    const { snapshot } = await readSnapshot(api, collectionId);
    if (snapshot && !snapshot.deleted && snapshot.deployments[target.envId] === state) {
      return noop(state, `Collection ${collectionId} is already ${state} in ${target.envId}; nothing sent`);
    }
  }
  return plan(
    [
      collectionStep<DeployAnswer>(
        api,
        collectionId,
        { method: 'POST', path, body },
        (view) => ({
          decision: (target.ok ? decideCollectionDeploy(collectionId, view.snapshot, { state, envId: target.envId, createdBy: user, updatedBy: user }) : target) as Decision<unknown>,
          notes: target.ok
            ? ['the environment code is checked by the service (400 when unknown); an environment-scoped API key deploys to its own environment only (403 for another)']
            : ['an environment-scoped API key deploys to its own environment; with a domain-wide key, pass --env'],
        }),
        {
          send: async (client) => {
            try {
              return await client.json<DeployAnswer>({ method: 'POST', path, body });
            } catch (error) {
              explainRefusal(out, error, envId, source);
              throw error;
            }
          },
          settle: target.ok
            ? settleBySnapshot(collectionId, (view) => view.snapshot?.deployments[target.envId] === state, { message: `collection ${collectionId} is ${state} in ${target.envId}` }, `${state} in ${target.envId}`)
            : undefined,
        },
      ),
    ],
    ([result]) => {
      const answer = result as DeployAnswer;
      // The deployed URL is data (a script keeps it); OFFLINE answers with a message only.
      if (!answer.downloadUrl) return out.outcome(answer, answer.message ?? `collection ${collectionId} is now ${state}`);
      out.print(answer, (a) => a.downloadUrl);
      out.success(`collection ${collectionId} is LIVE${envId ? ` in ${envId}` : ''}; fetch it with: ${fetchHint(collectionId, envId, answer.downloadUrl)}`);
    },
  );
};

/** What a 400 without an environment, or a 403 with one, usually means here (the key's scope is not visible to the CLI). */
function explainRefusal(out: Output, error: unknown, envId: string | undefined, source: EnvSource): void {
  if (!(error instanceof ApiError) || out.json) return;
  if (error.status === 400 && !envId) {
    out.info('hint: no environment was named. A domain-wide API key must name one: pass --env ENV (or set AHS_ENV, or envId in the profile); an environment-scoped key deploys to its own.');
  }
  if (error.status === 403 && envId) {
    const from = source === 'flag' ? '--env' : source === 'env' ? 'AHS_ENV' : source === 'prompt' ? 'your answer' : "the profile's envId";
    out.info(
      `hint: a 403 here usually means the API key is scoped to another environment than ${envId} (from ${from}). A scoped key deploys only to its own environment: leave out --env (and AHS_ENV / the profile's envId) or use a domain-wide key.`,
    );
  }
}

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
