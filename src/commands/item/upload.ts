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
import { validateInput } from '../validate.js';
import { collectionStep, listItems, readCollection, readSnapshot, vcPath, type CollectionView } from '../../service/collections.js';
import { DEFAULT_ITEM_CONCURRENCY, ItemWork, type FileUpload, type JobOutcome } from '../../service/item-work.js';
import { actingUser, assetTypeArg, collectionArg, filesArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';
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
  // Every name checked before the first file is sent (prepareMultipart would refuse it mid-way).
  for (const file of files) uploadName(file);
  const uploads: FileUpload[] = files.map((file, index) => ({
    file,
    path: file,
    size: sizes[index]!,
    fields: validateInput(itemUploadFields, { assetItemName: options.name ?? itemNameFor(file), assetType, createdBy: user }, { assetItemName: nameOf(uploadSpec, 'name'), assetType: nameOf(uploadSpec, 'type') }),
  }));

  const api = await ctx.api();
  await warnOfNamesTaken(ctx, api, collectionId, uploads.map((upload) => String(upload.fields.assetItemName)));
  const path = vcPath(api, collectionId, 'items');
  const work = new ItemWork(ctx, api, collectionId, [{ jobs: uploads.map((upload) => ({ kind: 'upload', ...upload })), concurrency: options.concurrency ?? DEFAULT_ITEM_CONCURRENCY }]);
  // The dry run reads the collection once; file i is predicted after the i files before it were added.
  let view: Promise<CollectionView> | undefined;
  const read = () => (view ??= readSnapshot(api, collectionId));
  const steps = uploads.map((upload, index) =>
    collectionStep<JobOutcome>(
      api,
      collectionId,
      { method: 'POST', path, body: { ...upload.fields, assetFile: `@${upload.file} (${upload.size} bytes)` } },
      ({ snapshot, collection }) => ({
        decision: decideItemAdd(collectionId, snapshot && { ...snapshot, itemCount: snapshot.itemCount + index }, {
          assetType,
          allowedAssetTypes: collection?.allowedAssetTypes ?? [],
        }),
        notes: ['the file type (extension) is checked by the service'],
      }),
      { read, send: () => work.outcome(index) },
    ),
  );
  return plan(steps, async (results) => {
    await work.finished();
    await report(ctx, api, collectionId, results as JobOutcome[]);
  });
};

/**
 * The service takes a second item of a name already there: a re-run of an
 * upload doubles every item. Say so before sending (item sync replaces
 * instead). A collection that cannot be read is left to the upload to report.
 */
async function warnOfNamesTaken(ctx: Context, api: ApiClient, collectionId: string, names: string[]): Promise<void> {
  const items = await listItems(api, collectionId).catch(() => []);
  const taken = names.flatMap((name) => items.filter((item) => item.assetItemName === name).map((item) => `${name} (${item.assetItemId})`));
  if (taken.length === 0) return;
  (await ctx.output()).warn(`${collectionId} already has an item named ${taken.join(', ')}: this upload adds another of the same name; to replace instead, use ahs item sync ${collectionId} DIR`);
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
async function report(ctx: Context, api: ApiClient, collectionId: string, outcomes: JobOutcome[]): Promise<void> {
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
