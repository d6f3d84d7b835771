// ahs collection url COLLECTION_ID [--env E]: the deployed URL (Live only).
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { vcPath } from '../../service/collections.js';
import { collectionArg, liveEnvArg } from '../../service/pick-collection.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const api = await ctx.api();
  const envId = await liveEnvArg(ctx, collectionId, 'Environment (where the collection is Live)');
  const answer = await api.get<{ downloadUrl: string }>(vcPath(api, collectionId, 'deployments', envId));
  (await ctx.output()).print(answer, (a) => a.downloadUrl);
}
