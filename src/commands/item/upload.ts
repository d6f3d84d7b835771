// ahs item upload COLLECTION_ID FILE... --type CODE [--name N] [--concurrency N]:
// asks for what is missing; the operation (src/operations/items.ts) plans one
// step per file, uploaded concurrently. A file the service rejects does not
// stop the others, and the exit code says that some failed.
// JSON: {uploaded: [item...], failed: [{file, error}]}.
import { nameOf, type Run } from '../define.js';
import { uploadSpec } from './index.js';
import type { Item } from '../../rules/schemas.js';
import { checkItemName, uploadItems } from '../../operations/items.js';
import { thenReport } from '../../operations/partial.js';
import { actingUser, assetTypeArg, collectionArg, filesArg } from '../../pickers/pick-collection.js';

export const run: Run<typeof uploadSpec> = async (options, ctx) => {
  const fieldNames = { assetItemName: nameOf(uploadSpec, 'name'), assetType: nameOf(uploadSpec, 'type') };
  const collectionId = await collectionArg(ctx, options.collectionId);
  const files = await filesArg(ctx, options.files);
  checkItemName(options.name, files, fieldNames);
  const assetType = await assetTypeArg(ctx, collectionId, options.type);
  const user = await actingUser(ctx);
  const planned = await uploadItems(ctx, { collectionId, files, assetType, name: options.name, concurrency: options.concurrency, user }, fieldNames);
  const out = await ctx.output();
  // The table of the items made (a failure, after it, is the one error line).
  return thenReport(planned, (result) => {
    out.print(result, (doc, kit) =>
      doc.uploaded.length === 0
        ? undefined
        : kit.table(
            [
              { header: 'ITEM', get: (i: Item) => i.assetItemId },
              { header: 'NAME', get: (i: Item) => i.assetItemName },
              { header: 'TYPE', get: (i: Item) => i.assetType },
              { header: 'SIZE', get: (i: Item) => kit.bytes(i.size) },
            ],
            doc.uploaded,
          ),
    );
    if (result.failed.length === 0 && files.length > 1) out.info(`uploaded ${result.uploaded.length} file(s) to ${collectionId}`);
  });
};
