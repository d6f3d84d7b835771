// ahs collection url COLLECTION_ID [--env E]: the deployed URL (Live only).
import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collectionArg, deploymentsFrom, envArg, NotFoundError, readCollection, readDeploymentStatus, vcPath } from './shared.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const api = await ctx.api();
  const envId = await liveEnvArg(ctx, collectionId, 'Environment (where the collection is Live)');
  const answer = await api.get<{ downloadUrl: string }>(vcPath(api, collectionId, 'deployments', envId));
  (await ctx.output()).print(answer, (a) => a.downloadUrl);
}

export async function liveEnvs(ctx: Context, collectionId: string): Promise<string[]> {
  const api = await ctx.api();
  const states = deploymentsFrom(await readDeploymentStatus(api, collectionId));
  return Object.entries(states)
    .filter(([, state]) => state === 'LIVE')
    .map(([envId]) => envId);
}

/**
 * The environment of a command that needs the collection Live there: --env /
 * AHS_ENV / profile, else (in a terminal) a pick among the environments where
 * it is Live. When there is nothing to pick, say why: the collection does not
 * exist (exit 4), or it is Live nowhere (exit 2, with how to deploy it).
 */
export async function liveEnvArg(ctx: Context, collectionId: string, message: string): Promise<string> {
  const settings = await ctx.settings();
  if (settings.get('envId') || !ctx.io.canPrompt) return envArg(ctx, undefined, message);
  const live = await liveEnvs(ctx, collectionId);
  if (live.length === 0) {
    const api = await ctx.api();
    if (!(await readCollection(api, collectionId))) throw new NotFoundError(`collection ${collectionId} not found`);
    throw new UsageError(`collection ${collectionId} is not Live in any environment: deploy it with \`ahs collection-deploy ${collectionId} --env ENV\`, or pass --env`);
  }
  return envArg(ctx, async () => live, message);
}
