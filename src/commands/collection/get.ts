// ahs collection get COLLECTION_ID
import type { Run } from '../define.js';
import type { getSpec } from './index.js';
import type { Collection } from '../../rules/schemas.js';
import { vcPath } from '../../service/collections.js';
import { collectionArg } from '../../pickers/pick-collection.js';
import { renderCollection } from '../../io/views/collections.js';

export const run: Run<typeof getSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId, { includeDeleted: true });
  const api = await ctx.api();
  // GET /vc/{id} answering 400 is itself the read that confirms a missing collection (cli.md): exit 4.
  const collection = await api.get<Collection>(vcPath(api, collectionId), undefined, { notFound: true });
  (await ctx.output()).print(collection, (c, kit) => renderCollection(c, kit));
};
