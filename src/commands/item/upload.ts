// ahs item upload COLLECTION_ID FILE... --type CODE [--name N] [--concurrency N]
import { oldDryRunDocument } from '../legacy.js';
// Files go up concurrently (bounded), each streamed from disk with progress;
// a file the service rejects does not stop the others, and the exit code says
// that some failed. JSON: {uploaded: [item...], failed: [{file, error}]}.
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { AhsError, CancelledError, ExitCode, PartialFailureError, UsageError, type ErrorBody } from '../../errors.js';
import { decideItemAdd, OTHER_ASSET_TYPE, type CollectionSnapshot } from '../../rules/index.js';
import { LIMITS, itemUploadFields, type Item } from '../../rules/schemas.js';
import { validateInput } from '../validate.js';
import { DryRunRejection } from '../../plan/dryrun.js';
import { prepareMultipart } from '../../transfer/upload.js';
import { createMultiProgress, formatBytes } from '../../io/progress.js';
import { currentOf, readCollection, readSnapshot, vcPath } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../service/pick-collection.js';

interface Opts {
  type?: string;
  name?: string;
  concurrency?: number;
}

export const DEFAULT_UPLOAD_CONCURRENCY = 4;

export interface UploadResult {
  uploaded: Item[];
  failed: Array<{ file: string; error: ErrorBody }>;
}

export async function run({ args, opts }: Invocation<Opts>, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const files = args.slice(1);
  if (files.length === 0) throw new UsageError('FILE is required: give one or more files to upload');
  if (opts.name !== undefined && files.length > 1) throw new UsageError(`--name names one item; it cannot be used with ${files.length} files (each item is named after its file)`);
  const assetType = await ctx.need(opts.type, {
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

  // Every file must be readable before anything is sent.
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
  const fields = files.map((file) =>
    validateInput(itemUploadFields, { assetItemName: opts.name ?? itemNameFor(file), assetType, createdBy: user }, { assetItemName: '--name', assetType: '--type' }),
  );

  const api = await ctx.api();
  const path = vcPath(api, collectionId, 'items');
  if (ctx.globals.dryRun) return dryRun(ctx, collectionId, path, files, fields, sizes);

  const out = await ctx.output();
  const total = sizes.reduce((a, b) => a + b, 0);
  // Per-file lines and the total (live in a terminal, periodic lines in CI, nothing with -q).
  const progress = createMultiProgress(ctx.io, {
    label: files.length === 1 ? `uploading ${basename(files[0]!)}` : `uploading ${files.length} files`,
    total,
    files: files.length,
    quiet: ctx.globals.quiet,
    // --verbose traces requests on stderr between redraws: plain lines then.
    live: ctx.globals.verbose ? false : undefined,
  });
  const result: UploadResult = { uploaded: [], failed: [] };
  const codes: ExitCode[] = [];
  const byIndex: Array<Item | undefined> = files.map(() => undefined);
  let next = 0;
  const worker = async () => {
    while (next < files.length && !ctx.signal.aborted) {
      const index = next++;
      const file = files[index]!;
      const key = String(index);
      progress.start(key, basename(file), sizes[index]);
      try {
        const body = await prepareMultipart({
          fields: fields[index]!,
          file: { field: 'assetFile', path: file },
          onProgress: (bytes) => progress.update(key, bytes),
        });
        const item = await api.json<Item>({ method: 'POST', path, stream: body, notFound: false });
        byIndex[index] = item;
        progress.finish(key);
        progress.log(() => out.success(`${file} → ${item.assetItemId} (${formatBytes(sizes[index]!)})`));
      } catch (error) {
        if (ctx.signal.aborted) break;
        progress.finish(key);
        const known = error instanceof AhsError ? error : undefined;
        const body: ErrorBody = known ? known.toBody() : { type: 'urn:ahs:network', title: String((error as Error).message ?? error), status: null, detail: String((error as Error).message ?? error) };
        codes.push(known ? known.exitCode : ExitCode.rejected);
        result.failed.push({ file, error: body });
        progress.log(() => out.warn(`${file}: ${body.title}${body.status ? ` (HTTP ${body.status})` : ''}`));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? DEFAULT_UPLOAD_CONCURRENCY, files.length) }, worker));
  } finally {
    progress.stop();
  }
  if (ctx.signal.aborted) throw ctx.signal.reason instanceof AhsError ? ctx.signal.reason : new CancelledError();

  // Keep the order of the command line.
  result.uploaded = byIndex.filter((item): item is Item => item !== undefined);
  result.failed.sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file));
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
  if (result.failed.length > 0) {
    // All failed the same way (e.g. the collection does not exist): that code; otherwise 1.
    const same = result.uploaded.length === 0 && codes.every((c) => c === codes[0]) ? codes[0]! : ExitCode.rejected;
    throw new PartialFailureError(`${result.failed.length} of ${files.length} file(s) failed to upload`, same, result.failed[0]?.error);
  }
  if (files.length > 1) out.info(`uploaded ${result.uploaded.length} file(s) to ${collectionId}`);
}

/** The item name for a file: its base name, shortened to the service's limit keeping the extension. */
export function itemNameFor(file: string): string {
  const name = basename(file);
  const max = LIMITS.assetItemName;
  if (name.length <= max) return name;
  const ext = extname(name).length <= 12 ? extname(name) : '';
  return name.slice(0, max - ext.length) + ext;
}

async function dryRun(
  ctx: Context,
  collectionId: string,
  path: string,
  files: string[],
  fields: Array<Record<string, unknown>>,
  sizes: number[],
): Promise<void> {
  const api = await ctx.api();
  const view = await readSnapshot(api, collectionId);
  const allowed = view.collection?.allowedAssetTypes ?? [];
  let snapshot: CollectionSnapshot | undefined = view.snapshot;
  const docs = files.map((file, index) => {
    const decision = decideItemAdd(collectionId, snapshot, { assetType: fields[index]!.assetType as string, allowedAssetTypes: allowed });
    const doc = oldDryRunDocument({
      request: { method: 'POST', path, body: { ...fields[index], assetFile: `@${file} (${sizes[index]} bytes)` } },
      current: currentOf(view),
      decision,
    });
    if (decision.ok && snapshot) snapshot = { ...snapshot, itemCount: decision.next.itemCount };
    return { file, ...doc };
  });
  const out = await ctx.output();
  const single = docs.length === 1;
  out.print(single ? docs[0] : { dryRun: true, uploads: docs }, (_doc, kit) => {
    const lines = [kit.style.bold('Dry run: nothing was sent.'), `request:   POST ${path} (multipart, one per file)`];
    for (const d of docs) {
      lines.push(
        d.predicted.error
          ? `${d.file}: ${kit.style.red(`${d.predicted.status} rejected`)}: ${d.predicted.error.title}`
          : `${d.file}: ${kit.style.green(String(d.predicted.status))} → item ${JSON.stringify(d.request.body && (d.request.body as Record<string, unknown>).assetItemName)} added`,
      );
    }
    return lines.join('\n');
  });
  const rejected = docs.filter((d) => d.predicted.error);
  if (rejected.length === 0) return;
  const first = rejected[0]!.predicted.error!;
  if (single) throw new DryRunRejection(first, !view.snapshot);
  throw new PartialFailureError(`dry run: ${rejected.length} of ${files.length} file(s) would be rejected: ${first.title}`, rejected.length === files.length ? new DryRunRejection(first, !view.snapshot).exitCode : ExitCode.rejected);
}
