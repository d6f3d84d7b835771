// ahs collection url COLLECTION_ID [--env E]: the deployed URL (Live only).
import type { Run } from '../define.js';
import type { urlSpec } from './index.js';
import { readNamingCollection, vcPath } from '../../service/collections.js';
import { collectionArg, liveEnvArg } from '../../pickers/pick-collection.js';

export const run: Run<typeof urlSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const api = await ctx.api();
  const envId = await liveEnvArg(ctx, collectionId, 'Environment (where the collection is Live)');
  const answer = await readNamingCollection(api, collectionId, () => api.get<{ downloadUrl: string }>(vcPath(api, collectionId, 'deployments', envId)));
  (await ctx.output()).print(answer, (a) => a.downloadUrl);
};
