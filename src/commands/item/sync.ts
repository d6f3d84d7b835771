// ahs item sync COLLECTION_ID DIR --type CODE [--delete] [--pattern GLOB...] [--reconcile]
// Its start: the folder's entries and the settings; then the operation
// (src/operations/item-sync.ts) sends the first reads before it loads the
// planner (issue 21), compares and plans. This prints the per-file summary;
// any failure is exit 1 (6 when every failure was for want of an answer),
// with one line naming each failed file.
import { nameOf, type Run } from '../define.js';
import { syncSpec } from './index.js';
import { actingUser } from '../../pickers/acting-user.js';
import { folderEntries, syncCounts, syncItems, type SyncRow } from '../../operations/item-sync.js';
import { thenReport } from '../../operations/partial.js';
import { escapeControls } from '../../util/escape.js';

export const run: Run<typeof syncSpec> = async (options, ctx) => {
  const { collectionId, dir } = options;
  const entries = folderEntries(dir, options.pattern ?? []);
  // Not given (or empty): asked for, from the collection's types, or a usage error (pick-collection.ts, with its schemas).
  const assetType = options.type || (await (await import('../../pickers/pick-collection.js')).assetTypeArg(ctx, collectionId, undefined));
  const user = await actingUser(ctx);
  const input = { collectionId, dir, entries, assetType, user, delete: options.delete, followLinks: options.followLinks, pattern: options.pattern, reconcile: options.reconcile, checksum: options.checksum };
  const planned = await syncItems(ctx, input, { assetType: nameOf(syncSpec, 'type') });
  const out = await ctx.output();
  return thenReport(planned, (result) => {
    const { rows, reconciled } = planned.details(result);
    out.print(result, (_doc, kit) =>
      rows.length === 0
        ? undefined
        : kit.table(
            [
              { header: 'FILE', get: (row: SyncRow) => row.file },
              { header: 'RESULT', get: (row: SyncRow) => row.result },
              { header: 'ITEM', get: (row: SyncRow) => row.item },
              { header: 'DETAIL', get: (row: SyncRow) => row.detail },
            ],
            rows,
          ),
    );
    if (reconciled) out.success(reconciled);
    if (result.failed.length === 0) out.info(`synced ${escapeControls(dir)} into ${collectionId}: ${syncCounts(result)}`);
  });
};
