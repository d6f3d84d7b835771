// ahs item get COLLECTION_ID ITEM_ID
import type { Run } from '../define.js';
import type { getSpec } from './index.js';
import type { Item } from '../../rules/schemas.js';
import { readNamingCollection, vcPath } from '../../service/collections.js';
import { collectionArg, itemArg } from '../../pickers/pick-collection.js';
import { renderItem } from '../../io/views/collections.js';

export const run: Run<typeof getSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const itemId = await itemArg(ctx, collectionId, options.itemId);
  const api = await ctx.api();
  const item = await readNamingCollection(api, collectionId, () => api.get<Item>(vcPath(api, collectionId, 'items', itemId)));
  (await ctx.output()).print(item, (i, kit) => renderItem(i, kit));
};
