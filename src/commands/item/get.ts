// ahs item get COLLECTION_ID ITEM_ID
import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';
import type { Item } from '../../rules/schemas.js';
import { collectionArg, itemArg, renderItem, vcPath } from '../collection/shared.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const itemId = await itemArg(ctx, collectionId, args[1]);
  const api = await ctx.api();
  const item = await api.get<Item>(vcPath(api, collectionId, 'items', itemId), undefined, { notFound: true });
  (await ctx.output()).print(item, (i, kit) => renderItem(i, kit));
}
