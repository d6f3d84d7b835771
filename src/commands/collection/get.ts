// ahs collection get COLLECTION_ID
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import type { Collection } from '../../rules/schemas.js';
import { vcPath } from '../../service/collections.js';
import { collectionArg } from '../../service/pick-collection.js';
import { renderCollection } from '../../io/views/collections.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0], { includeDeleted: true });
  const api = await ctx.api();
  // The service answers 400 for a missing collection here: exit 4.
  const collection = await api.get<Collection>(vcPath(api, collectionId), undefined, { notFound: true });
  (await ctx.output()).print(collection, (c, kit) => renderCollection(c, kit));
}
