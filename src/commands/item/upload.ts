// ahs item upload COLLECTION_ID FILE... --type CODE [--name N] [--concurrency N]
// One plan step per file. The files go up concurrently (bounded), each
// streamed from disk with progress: the first step's send starts the pool and
// each step waits for its own file. A file the service rejects does not stop
// the others (its step answers with the failure instead of throwing), and the
// exit code says that some failed. JSON: {uploaded: [item...], failed: [{file, error}]}.
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Run } from '../define.js';
import type { uploadSpec } from './index.js';
import type { Context } from '../../context.js';
import type { ApiClient } from '../../http/client.js';
import { AhsError, ApiError, CancelledError, ExitCode, NetworkError, PartialFailureError, UsageError, type ErrorBody } from '../../errors.js';
import { decideItemAdd, OTHER_ASSET_TYPE } from '../../rules/index.js';
import { LIMITS, itemUploadFields, type Item } from '../../rules/schemas.js';
import { validateInput } from '../validate.js';
import { prepareMultipart } from '../../transfer/upload.js';
import { createMultiProgress, formatBytes } from '../../io/progress.js';
import { collectionStep, readCollection, readSnapshot, settleItemUpload, vcPath, type CollectionView } from '../../service/collections.js';
import { actingUser, collectionArg, filesArg } from '../../service/pick-collection.js';
import { plan } from '../../plan/plan.js';

const DEFAULT_UPLOAD_CONCURRENCY = 4;

interface UploadResult {
  uploaded: Item[];
  failed: Array<{ file: string; error: ErrorBody }>;
}

/** What one file's step answers: the item, or why it was not uploaded. */
type Outcome = { file: string; item: Item } | { file: string; error: AhsError };

interface Upload {
  file: string;
  size: number;
  fields: Record<string, string>;
}

export const run: Run<typeof uploadSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const files = await filesArg(ctx, options.files);
  if (options.name !== undefined && files.length > 1) throw new UsageError(`--name names one item; it cannot be used with ${files.length} files (each item is named after its file)`);
  const assetType = await ctx.need(options.type, {
    flag: '--type',
    message: 'Asset type of the items',
    choices: async () => {
      const api = await ctx.api();
      const collection = await readCollection(api, collectionId);
      const codes = [...new Set([...(collection?.allowedAssetTypes ?? []), OTHER_ASSET_TYPE])];
      return codes.map((code) => ({ name: code === OTHER_ASSET_TYPE ? `${code} (Other)` : code, value: code }));
    },
  });
  const user = await actingUser(ctx);
  const sizes = await readableSizes(files);
  const uploads: Upload[] = files.map((file, index) => ({
    file,
    size: sizes[index]!,
    fields: validateInput(itemUploadFields, { assetItemName: options.name ?? itemNameFor(file), assetType, createdBy: user }, { assetItemName: '--name', assetType: '--type' }),
  }));

  const api = await ctx.api();
  const path = vcPath(api, collectionId, 'items');
  const pool = new UploadPool(ctx, api, path, collectionId, uploads, options.concurrency ?? DEFAULT_UPLOAD_CONCURRENCY);
  // The dry run reads the collection once; file i is predicted after the i files before it were added.
  let view: Promise<CollectionView> | undefined;
  const read = () => (view ??= readSnapshot(api, collectionId));
  const steps = uploads.map((upload, index) =>
    collectionStep<Outcome>(
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
      { read, send: () => pool.outcome(index) },
    ),
  );
  return plan(steps, async (results) => {
    await pool.finished();
    await report(ctx, api, collectionId, results as Outcome[]);
  });
};

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
 * The uploads, `concurrency` at a time, started by the first step that asks
 * for its outcome. A failure is an outcome, not an error, so the plan goes on
 * with the other files; only an interrupt (Ctrl-C) stops it.
 */
class UploadPool {
  private readonly outcomes: Array<Promise<Outcome | undefined>>;
  private readonly settle: Array<(outcome: Outcome | undefined) => void> = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly api: ApiClient,
    private readonly path: string,
    private readonly collectionId: string,
    private readonly uploads: Upload[],
    private readonly concurrency: number,
  ) {
    this.outcomes = uploads.map((_, index) => new Promise((resolve) => (this.settle[index] = resolve)));
  }

  async outcome(index: number): Promise<Outcome> {
    this.running ??= this.runAll();
    const outcome = await this.outcomes[index]!;
    if (!outcome) throw this.ctx.signal.reason instanceof AhsError ? this.ctx.signal.reason : new CancelledError();
    return outcome;
  }

  /** Resolves once every upload has ended (and the progress display is cleared). */
  async finished(): Promise<void> {
    await this.running;
  }

  /** An upload whose answer was lost: the collection's items say whether it was stored (one item of that name since the start). */
  private async settleLost(error: unknown, file: string, name: string, started: number): Promise<Outcome> {
    if (!(error instanceof NetworkError && error.mayHaveApplied)) return { file, error: asAhsError(error) };
    const settled = await settleItemUpload(this.api, this.collectionId, name, started);
    if (settled.applied === true) return { file, item: settled.result };
    const tail = settled.applied === false ? `a read shows it was not stored (${settled.how}): safe to retry` : `whether it was stored is unknown: check with \`${settled.check}\``;
    return { file, error: new NetworkError(`${error.message}; ${tail}`) };
  }

  private async runAll(): Promise<void> {
    const { ctx, uploads } = this;
    const out = await ctx.output();
    // Per-file lines and the total (live in a terminal, periodic lines in CI, nothing with -q).
    const progress = createMultiProgress(ctx.io, {
      label: uploads.length === 1 ? `uploading ${basename(uploads[0]!.file)}` : `uploading ${uploads.length} files`,
      total: uploads.reduce((sum, upload) => sum + upload.size, 0),
      files: uploads.length,
      quiet: ctx.globals.quiet,
      // --verbose traces requests on stderr between redraws: plain lines then.
      live: ctx.globals.verbose ? false : undefined,
    });
    let next = 0;
    const worker = async () => {
      while (next < uploads.length && !ctx.signal.aborted) {
        const index = next++;
        const { file, size, fields } = uploads[index]!;
        const key = String(index);
        progress.start(key, basename(file), size);
        const started = Date.now();
        try {
          const stream = await prepareMultipart({ fields, file: { field: 'assetFile', path: file }, onProgress: (bytes) => progress.update(key, bytes) });
          const item = await this.api.json<Item>({ method: 'POST', path: this.path, stream });
          progress.finish(key);
          progress.log(() => out.success(`${file} → ${item.assetItemId} (${formatBytes(size)})`));
          this.settle[index]!({ file, item });
        } catch (error) {
          progress.finish(key);
          if (ctx.signal.aborted) break;
          const outcome = await this.settleLost(error, file, fields.assetItemName ?? '', started);
          if ('item' in outcome) progress.log(() => out.success(`${file} → ${outcome.item.assetItemId} (the answer was lost; a read confirms the upload)`));
          this.settle[index]!(outcome);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.concurrency, uploads.length) }, worker));
    } finally {
      progress.stop();
      // Interrupted: the files not uploaded have no outcome.
      for (const settle of this.settle) settle(undefined);
    }
  }
}

function asAhsError(error: unknown): AhsError {
  if (error instanceof AhsError) return error;
  const message = String((error as Error)?.message ?? error);
  return new PartialFailureError(message, ExitCode.rejected, { type: 'urn:ahs:network', title: message, status: null, detail: message });
}

/**
 * Prints {uploaded, failed} and, when a file failed, ends with one line
 * saying how many went up and why the others did not (exit 1, or the code
 * all the failures share: 4 when the collection does not exist).
 */
async function report(ctx: Context, api: ApiClient, collectionId: string, outcomes: Outcome[]): Promise<void> {
  const out = await ctx.output();
  const uploaded = outcomes.flatMap((o) => ('item' in o ? [o.item] : []));
  let failures = outcomes.flatMap((o) => ('error' in o ? [o] : []));
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
