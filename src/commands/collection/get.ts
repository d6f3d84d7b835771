// ahs collection get COLLECTION_ID
import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';
import type { Collection } from '../../rules/schemas.js';
import { collectionArg, renderCollection, vcPath } from './shared.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0], { includeDeleted: true });
  const api = await ctx.api();
  // The service answers 400 for a missing collection here: exit 4.
  const collection = await api.get<Collection>(vcPath(api, collectionId), undefined, { notFound: true });
  (await ctx.output()).print(collection, (c, kit) => renderCollection(c, kit));
}
