// ahs item upload COLLECTION_ID FILE... --type CODE [--name N] [--concurrency N]
// One plan step per file. The files go up concurrently (bounded), each
// streamed from disk with progress: the first step's send starts the pool and
// each step waits for its own file. A file the service rejects does not stop
// the others (its step answers with the failure instead of throwing), and the
// exit code says that some failed. JSON: {uploaded: [item...], failed: [{file, error}]}.
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { nameOf, type Run } from '../define.js';
import { uploadSpec } from './index.js';
import type { Context } from '../../context.js';
import type { ApiClient } from '../../http/client.js';
import { AhsError, ApiError, ExitCode, PartialFailureError, UsageError, type ErrorBody } from '../../errors.js';
import { decideItemAdd } from '../../rules/index.js';
import { LIMITS, itemUploadFields, type Item } from '../../rules/schemas.js';
import { validateInput } from '../../operations/validate.js';
import { currentOf, listItems, readCollection, readSnapshot } from '../../service/collections.js';
import type { Output } from '../../io/output.js';
import { formatBytes } from '../../io/progress.js';
import type { ItemUploadParams } from '../../plan/kinds/collections.js';
import { actingUser, assetTypeArg, collectionArg, filesArg } from '../../pickers/pick-collection.js';
import { plan, type Results, type Step } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';
import { uploadName } from '../../transfer/upload.js';

interface UploadResult {
  uploaded: Item[];
  failed: Array<{ file: string; error: ErrorBody }>;
}

export const run: Run<typeof uploadSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const files = await filesArg(ctx, options.files);
  if (options.name !== undefined && files.length > 1) throw new UsageError(`--name names one item; it cannot be used with ${files.length} files (each item is named after its file)`);
  const assetType = await assetTypeArg(ctx, collectionId, options.type);
  const user = await actingUser(ctx);
  const sizes = await readableSizes(files);
  const fieldNames = { assetItemName: nameOf(uploadSpec, 'name'), assetType: nameOf(uploadSpec, 'type') };
  const uploads: ItemUploadParams[] = files.map((file, index) => ({
    collectionId,
    fields: validateInput(itemUploadFields, { assetItemName: options.name ?? itemNameFor(file), assetType, createdBy: user }, fieldNames),
    // Every name checked before the first file is sent (prepareMultipart would refuse it mid-way).
    file: { path: file, name: uploadName(file), size: sizes[index]! },
  }));

  const api = await ctx.api();
  if (!ctx.globals.dryRun) api.prepareUploads(uploads.length);
  // The items (for names already taken) and the collection at once: one round, not two.
  const [items, { snapshot, collection }] = await Promise.all([listItems(api, collectionId).catch(() => undefined), readSnapshot(api, collectionId)]);
  warnOfNamesTaken(await ctx.output(), collectionId, items ?? [], uploads.map((upload) => upload.fields.assetItemName));
  // The collection as read: file i is predicted after the i files before it were added, and a file that
  // would not fit (maxAssets) or is refused by the rules stops the upload before anything is sent.
  const batch = { group: 'items', concurrency: options.concurrency ?? ITEM_CONCURRENCY };
  const needed = (snapshot?.itemCount ?? 0) + uploads.length;
  const refuse = snapshot && needed > snapshot.maxAssets ? { hint: `${collectionId} has room for ${Math.max(0, snapshot.maxAssets - snapshot.itemCount)} more item(s) (maxAssets ${snapshot.maxAssets}) and ${uploads.length} file(s) were given: upload fewer, or raise it with ahs collection update ${collectionId} --max-assets N` } : undefined;
  const planned = uploads.map((upload, index) =>
    steps.itemUpload(upload, {
      batch,
      refuse,
      prediction: snapshot
        ? {
            current: currentOf({ snapshot, collection, status: undefined }),
            decision: decideItemAdd(collectionId, { ...snapshot, itemCount: snapshot.itemCount + index }, { assetType, allowedAssetTypes: collection?.allowedAssetTypes ?? [] }),
            notes: ['the file type (extension) is checked by the service'],
          }
        : undefined,
    }),
  );
  const out = await ctx.output();
  return plan(
    planned,
    (results) => report(ctx, api, collectionId, planned.map((step, index) => outcomeOf(step, uploads[index]!, results))),
    { onAnswer: (step, results) => {
      const index = planned.findIndex((candidate) => candidate === step);
      const item = index >= 0 ? results.of(planned[index]!) : undefined;
      if (item) out.success(`${uploads[index]!.file.path} → ${item.assetItemId} (${formatBytes(uploads[index]!.file.size)})`);
    } },
  );
};

/** Item uploads at the same time, unless --concurrency says otherwise. */
const ITEM_CONCURRENCY = 8;

type Outcome = { kind: 'upload'; file: string; item: Item } | { kind: 'failed'; file: string; error: AhsError };

function outcomeOf(step: Step<Item>, upload: ItemUploadParams, results: Results): Outcome {
  const item = results.of(step);
  if (item) return { kind: 'upload', file: upload.file.path, item };
  return { kind: 'failed', file: upload.file.path, error: results.failureOf(step)?.error ?? new PartialFailureError('not sent') };
}

/**
 * The service takes a second item of a name already there: a re-run of an
 * upload doubles every item. Say so before sending (item sync replaces
 * instead). A collection that cannot be read is left to the upload to report.
 */
function warnOfNamesTaken(out: Output, collectionId: string, items: Item[], names: string[]): void {
  const taken = names.flatMap((name) => items.filter((item) => item.assetItemName === name).map((item) => `${name} (${item.assetItemId})`));
  if (taken.length === 0) return;
  out.warn(`${collectionId} already has an item named ${taken.join(', ')}: this upload adds another of the same name; to replace instead, use ahs item sync ${collectionId} DIR`);
}

/** Every file must be readable before anything is sent: their sizes. */
async function readableSizes(files: string[]): Promise<number[]> {
  const sizes: number[] = [];
  for (const file of files) {
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new UsageError(`${file} is not a regular file`);
      sizes.push(info.size);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}; nothing was sent`);
    }
  }
  return sizes;
}

/**
/**
 * Prints {uploaded, failed} and, when a file failed, ends with one line
 * saying how many went up and why the others did not (exit 1, or the code
 * all the failures share: 4 when the collection does not exist).
 */
async function report(ctx: Context, api: ApiClient, collectionId: string, outcomes: Outcome[]): Promise<void> {
  const out = await ctx.output();
  const uploaded = outcomes.flatMap((o) => (o.kind === 'upload' ? [o.item] : []));
  let failures: Array<{ file: string; error: AhsError }> = outcomes.flatMap((o) => (o.kind === 'failed' ? [o] : []));
  // A 400 is "not found" only when GET /vc/{id} confirms the collection is missing.
  if (failures.some((f) => f.error instanceof ApiError && f.error.status === 400 && !f.error.notFound) && !(await readCollection(api, collectionId))) {
    failures = failures.map((f) => (f.error instanceof ApiError && f.error.status === 400 ? { ...f, error: f.error.asNotFound() } : f));
  }
  const result: UploadResult = { uploaded, failed: failures.map((f) => ({ file: f.file, error: f.error.toBody() })) };
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
  if (failures.length === 0) {
    if (outcomes.length > 1) out.info(`uploaded ${uploaded.length} file(s) to ${collectionId}`);
    return;
  }
  const codes = failures.map((f) => f.error.exitCode);
  const code = uploaded.length === 0 && codes.every((c) => c === codes[0]) ? codes[0]! : ExitCode.rejected;
  const summary = `${uploaded.length} of ${outcomes.length} uploaded; failed: ${result.failed.map(({ file, error }) => `${file} (${error.status ? `HTTP ${error.status}: ` : ''}${error.title})`).join(', ')}`;
  // JSON: stderr holds the first failure's error body alone; text: the summary is the one error line.
  throw new PartialFailureError(summary, code, out.json ? result.failed[0]!.error : undefined);
}

/** The item name for a file: its base name, shortened to the service's limit keeping the extension. */
function itemNameFor(file: string): string {
  const name = basename(file);
  const max = LIMITS.assetItemName;
  if (name.length <= max) return name;
  const ext = extname(name).length <= 12 ? extname(name) : '';
  return name.slice(0, max - ext.length) + ext;
}
