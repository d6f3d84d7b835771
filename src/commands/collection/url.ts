// ahs collection url COLLECTION_ID [--env E]: the deployed URL (Live only).
import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';
import { collectionArg, deploymentsFrom, envArg, readDeploymentStatus, vcPath } from './shared.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const api = await ctx.api();
  const envId = await envArg(ctx, async () => liveEnvs(ctx, collectionId), 'Environment (where the collection is Live)');
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
