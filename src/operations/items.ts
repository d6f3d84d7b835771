// The item writes as operations (issue 34): `ahs item upload|remove` and the
// library's client.items.upload|remove. Typed input, already resolved (no
// prompt, no setting read here); a Plan whose `done` is the JSON document the
// command prints. `item sync` is ./item-sync.ts.
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { ApiError, ExitCode, PartialFailureError, UsageError, type AhsError, type ErrorBody } from '../errors.js';
import { historyErased } from '../service/journal.js';
import { decideItemAdd, liveEnvironments } from '../rules/index.js';
import { formatSize } from '../rules/assets.js';
import { LIMITS, itemUploadFields, type Item } from '../rules/schemas.js';
import { currentOf, listItems, readCollection, readSnapshot, vcPath } from '../service/collections.js';
import type { ApiClient } from '../http/client.js';
import type { ItemUploadParams } from '../plan/kinds/collections.js';
import type { PlanContext, PlanOutput } from '../plan/context.js';
import { plan, type Plan, type Results, type Step } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import { uploadName } from '../transfer/upload.js';
import { validateInput, type FieldNames } from './validate.js';
import { PartialResultError } from './partial.js';

/** What an item upload did (`ahs item upload --json`): the items made, and each file the service refused (a refused file does not stop the others; apply() then throws). */
export type ItemUploadResult = {
  uploaded: Item[];
  failed: Array<{ file: string; error: ErrorBody }>;
};

export interface ItemUploadInput {
  collectionId: string;
  /** The paths of the files, each uploaded as one item. */
  files: string[];
  assetType: string;
  /** The item's name, with one file only (default: the file's name, shortened to the service's limit). */
  name?: string | undefined;
  /** Files uploaded at the same time (default 8). */
  concurrency?: number | undefined;
  user: string;
}

/** Item uploads at the same time, unless the caller says otherwise. */
const ITEM_CONCURRENCY = 8;

/** A name names one item: refused with several files (each item is named after its file). */
export function checkItemName(name: string | undefined, files: string[], names: FieldNames = {}): void {
  if (name !== undefined && files.length > 1) throw new UsageError(`${fieldName(names, 'assetItemName')} names one item; it cannot be used with ${files.length} files (each item is named after its file)`);
}

/**
 * One plan step per file. The files go up concurrently (bounded), each
 * streamed from disk with progress: the first step's send starts the pool
 * and each step waits for its own file. A file the service rejects does not
 * stop the others (its step answers with the failure instead of throwing);
 * then `done` throws a PartialResultError carrying the result, with the exit
 * code that says some failed.
 */
export async function uploadItems(ctx: PlanContext, input: ItemUploadInput, names: FieldNames = {}): Promise<Plan<ItemUploadResult>> {
  const { collectionId, files, assetType, user } = input;
  checkItemName(input.name, files, names);
  const sizes = await readableSizes(files);
  const uploads: ItemUploadParams[] = files.map((file, index) => ({
    collectionId,
    fields: validateInput(itemUploadFields, { assetItemName: input.name ?? itemNameFor(file), assetType, createdBy: user }, names),
    // Every name checked before the first file is sent (prepareMultipart would refuse it mid-way).
    file: { path: file, name: uploadName(file), size: sizes[index]! },
  }));

  const api = await ctx.api();
  if (!ctx.globals.dryRun) api.prepareUploads(uploads.length);
  // The items (for names already taken) and the collection at once: one round, not two.
  const [items, { snapshot, collection }] = await Promise.all([listItems(api, collectionId).catch(() => undefined), readSnapshot(api, collectionId)]);
  const out = await ctx.output();
  warnOfNamesTaken(out, collectionId, items ?? [], uploads.map((upload) => upload.fields.assetItemName));
  // The collection as read: file i is predicted after the i files before it were added, and a file that
  // would not fit (maxAssets) or is refused by the rules stops the upload before anything is sent.
  const batch = { group: 'items', concurrency: input.concurrency ?? ITEM_CONCURRENCY };
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
  return plan(
    planned,
    (results) => uploadResult(out, api, collectionId, planned.map((step, index) => outcomeOf(step, uploads[index]!, results))),
    {
      onAnswer: (step, results) => {
        const index = planned.findIndex((candidate) => candidate === step);
        const item = index >= 0 ? results.of(planned[index]!) : undefined;
        if (item) out.success(`${uploads[index]!.file.path} → ${item.assetItemId} (${formatSize(uploads[index]!.file.size)})`);
      },
    },
  );
}

type Outcome = { kind: 'upload'; file: string; item: Item } | { kind: 'failed'; file: string; error: AhsError };

function outcomeOf(step: Step<Item>, upload: ItemUploadParams, results: Results): Outcome {
  const item = results.of(step);
  if (item) return { kind: 'upload', file: upload.file.path, item };
  return { kind: 'failed', file: upload.file.path, error: results.failureOf(step)?.error ?? new PartialFailureError('not sent') };
}

/**
 * {uploaded, failed}; when a file failed, a PartialResultError carrying it,
 * whose message says how many went up and why the others did not (exit 1,
 * or the code all the failures share: 4 when the collection does not exist).
 */
async function uploadResult(out: PlanOutput, api: ApiClient, collectionId: string, outcomes: Outcome[]): Promise<ItemUploadResult> {
  const uploaded = outcomes.flatMap((o) => (o.kind === 'upload' ? [o.item] : []));
  let failures: Array<{ file: string; error: AhsError }> = outcomes.flatMap((o) => (o.kind === 'failed' ? [o] : []));
  // A 400 is "not found" only when GET /vc/{id} confirms the collection is missing.
  if (failures.some((f) => f.error instanceof ApiError && f.error.status === 400 && !f.error.notFound) && !(await readCollection(api, collectionId))) {
    failures = failures.map((f) => (f.error instanceof ApiError && f.error.status === 400 ? { ...f, error: f.error.asNotFound() } : f));
  }
  const result: ItemUploadResult = { uploaded, failed: failures.map((f) => ({ file: f.file, error: f.error.toBody() })) };
  if (failures.length === 0) return result;
  const codes = failures.map((f) => f.error.exitCode);
  const code = uploaded.length === 0 && codes.every((c) => c === codes[0]) ? codes[0]! : ExitCode.rejected;
  const summary = `${uploaded.length} of ${outcomes.length} uploaded; failed: ${result.failed.map(({ file, error }) => `${file} (${error.status ? `HTTP ${error.status}: ` : ''}${error.title})`).join(', ')}`;
  // JSON: stderr holds the first failure's error body alone; text: the summary is the one error line.
  throw new PartialResultError(summary, code, out.json ? result.failed[0]!.error : undefined, result);
}

/**
 * The service takes a second item of a name already there: a re-run of an
 * upload doubles every item. Say so before sending (item sync replaces
 * instead). A collection that cannot be read is left to the upload to report.
 */
function warnOfNamesTaken(out: PlanOutput, collectionId: string, items: Item[], names: string[]): void {
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

/** The item name for a file: its base name, shortened to the service's limit keeping the extension. */
function itemNameFor(file: string): string {
  const name = basename(file);
  const max = LIMITS.assetItemName;
  if (name.length <= max) return name;
  const ext = extname(name).length <= 12 ? extname(name) : '';
  return name.slice(0, max - ext.length) + ext;
}

/** A field as the caller named it (the CLI's flag, the library's parameter). */
function fieldName(names: FieldNames, field: string): string {
  return typeof names === 'function' ? names(field) : (names[field] ?? field);
}

/** What items.remove() resolves to: the service's message. */
export type ItemRemoved = { message: string };

/** An item, by its collection and id, with the acting user. */
export interface ItemRemoveInput {
  collectionId: string;
  itemId: string;
  user: string;
}

/**
 * Detaches the item, after a confirmation; if this was its only collection,
 * it is gone for good. The question says where the collection is LIVE: the
 * item leaves its delivery there at once (spec).
 */
export async function removeItem(ctx: PlanContext, input: ItemRemoveInput): Promise<Plan<ItemRemoved>> {
  const { collectionId, itemId, user } = input;
  const removal = steps.itemRemove({ collectionId, itemId, user });
  const asked = await question(ctx, collectionId, itemId);
  const confirm = { message: asked.message, action: `item remove ${itemId}${asked.erased ? " (from the ahs journal: it erases that entry of the team's history of writes)" : ''}` };
  return plan([removal], (results) => results.of(removal)!, { confirm });
}

/** The confirmation, with the environments where removing the item takes it out of a live delivery (read only when it will be asked). */
async function question(ctx: PlanContext, collectionId: string, itemId: string): Promise<{ message: string; erased: boolean }> {
  const tail = 'If it is in no other collection it is gone for good';
  if (ctx.globals.yes || ctx.globals.dryRun) return { message: `Remove item ${itemId} from ${collectionId}? ${tail}`, erased: false };
  const api = await ctx.api();
  // The item's name, as a person knows it (an item the collection does not hold is the removal's own 404).
  const [{ collection, snapshot }, item] = await Promise.all([readSnapshot(api, collectionId), api.get<Item>(vcPath(api, collectionId, 'items', itemId)).catch(() => undefined)]);
  const erased = historyErased(collection);
  const base = `Remove item ${item?.assetItemName ? `${item.assetItemName} (${itemId})` : itemId} from ${collectionId}?`;
  const live = snapshot ? liveEnvironments(snapshot) : [];
  const where = live.length > 0 ? ` ${collectionId} is LIVE in ${live.join(', ')}: the item leaves its delivery there at once.` : '';
  return { message: `${base}${where} ${tail}${erased ? `.${erased}` : ''}`, erased: erased !== '' };
}
