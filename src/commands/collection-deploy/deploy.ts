// ahs collection-deploy: LIVE / OFFLINE in one environment, or --reconcile.
// The target environment is the API key's scope; a domain-wide key names it
// in the body (envId). Naming another environment than a scoped key's is the
// service's 403, which we explain.
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../errors.js';
import { decideCollectionDeploy, decideCollectionReconcile, resolveCollectionDeployEnv, type Decision, type CollectionDeploymentState } from '../../rules/index.js';
import { printDryRun } from '../legacy.js';
import { currentOf, readSnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';

interface Opts {
  state: 'LIVE' | 'OFFLINE';
  idempotent?: boolean;
  reconcile?: boolean;
}

export async function run({ args, opts, command }: Invocation<Opts>, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0], { message: 'Collection to deploy' });
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const path = vcPath(api, collectionId, 'deployments');
  const out = await ctx.output();

  if (opts.reconcile) {
    if (command.getOptionValueSource('state') === 'cli') throw new UsageError('--state has no meaning with --reconcile (every Live deployment stays Live)');
    const body = { createdBy: user };
    if (ctx.globals.dryRun) {
      const view = await readSnapshot(api, collectionId);
      await printDryRun(ctx, { request: { method: 'POST', path, query: { reconcile: 'true' }, body }, current: currentOf(view), decision: decideCollectionReconcile(collectionId, view.snapshot, user), notFound: !view.snapshot });
      return;
    }
    const answer = await api.post<{ message: string }>(path, body, { reconcile: 'true' });
    out.print(answer, (a) => a.message);
    return;
  }

  const settings = await ctx.settings();
  const envSetting = settings.resolve('envId');
  const envId = envSetting.value;
  const state = opts.state;
  const body: Record<string, string> = { state, createdBy: user, updatedBy: user };
  if (envId) body.envId = envId;

  if (ctx.globals.dryRun || opts.idempotent) {
    const view = await readSnapshot(api, collectionId);
    // The key's scope is not visible to the CLI: predict for the named environment.
    const target = resolveCollectionDeployEnv(undefined, envId);
    const current = view.snapshot && target.ok ? view.snapshot.deployments[target.envId] : undefined;
    if (opts.idempotent && target.ok && view.snapshot && !view.snapshot.deleted && current === state) {
      const message = `Collection ${collectionId} is already ${state} in ${target.envId}; nothing sent`;
      out.print({ changed: false, state, message }, (d) => d.message);
      return;
    }
    if (ctx.globals.dryRun) {
      const decision: Decision<CollectionDeploymentState> = target.ok ? decideCollectionDeploy(collectionId, view.snapshot, { state, envId: target.envId, createdBy: user, updatedBy: user }) : target;
      const notes = target.ok ? [] : ['an environment-scoped API key deploys to its own environment; with a domain-wide key, pass --env'];
      await printDryRun(ctx, { request: { method: 'POST', path, body }, current: currentOf(view), decision, notFound: !view.snapshot, notes });
      return;
    }
  }

  let answer: { downloadUrl?: string; message?: string };
  try {
    answer = await api.post<{ downloadUrl?: string; message?: string }>(path, body);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && !envId && !out.json) {
      out.info('hint: no environment was named. A domain-wide API key must name one: pass --env ENV (or set AHS_ENV, or envId in the profile); an environment-scoped key deploys to its own.');
    }
    if (error instanceof ApiError && error.status === 403 && envId && !out.json) {
      const from = envSetting.source === 'flag' ? '--env' : envSetting.source === 'env' ? 'AHS_ENV' : 'the profile\'s envId';
      out.info(
        `hint: a 403 here usually means the API key is scoped to another environment than ${envId} (from ${from}). A scoped key deploys only to its own environment: leave out --env (and AHS_ENV / the profile's envId) or use a domain-wide key.`,
      );
    }
    throw error;
  }
  out.print(answer, (a) =>
    a.downloadUrl ? a.downloadUrl : a.message ?? `collection ${collectionId} is now ${state}`,
  );
  if (answer.downloadUrl) out.success(`collection ${collectionId} is LIVE${envId ? ` in ${envId}` : ''}; fetch it with: ${fetchHint(collectionId, envId, answer.downloadUrl)}`);
}

/**
 * A fetch command that works as printed. Without an environment named here
 * (an environment-scoped key deployed to its own), `ahs fetch COLLECTION_ID`
 * would stop for want of --env, which the CLI cannot see: the deployed URL
 * says it all.
 */
export function fetchHint(collectionId: string, envId: string | undefined, downloadUrl: string): string {
  return envId ? `ahs fetch ${shellWord(collectionId)} --env ${shellWord(envId)}` : `ahs fetch --url ${shellWord(downloadUrl)}`;
}

/** A word the shell reads back unchanged: bare when safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
