// ahs item get COLLECTION_ID ITEM_ID
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import type { Item } from '../../rules/schemas.js';
import { vcPath } from '../../service/collections.js';
import { collectionArg, itemArg } from '../../service/pick-collection.js';
import { renderItem } from '../../io/views/collections.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const itemId = await itemArg(ctx, collectionId, args[1]);
  const api = await ctx.api();
  const item = await api.get<Item>(vcPath(api, collectionId, 'items', itemId), undefined, { notFound: true });
  (await ctx.output()).print(item, (i, kit) => renderItem(i, kit));
}
