// ahs item sync COLLECTION_ID DIR --type CODE [--delete] [--pattern GLOB...] [--reconcile]
// Compares the files at the top of DIR with the collection's items (by name,
// then by byte size) and plans the writes that make the collection hold the
// folder: removals (--delete) first, then replacements, then new uploads, in
// an order that never takes the collection over maxAssets. The writes run
// through the shared item pool (src/service/item-work.ts): one plan step per
// request, a failed file does not stop the others, and the summary says what
// happened to each file. Nothing to do: no step, no write.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { nameOf, type Run } from '../define.js';
import { syncSpec } from './index.js';
import type { Context } from '../../context.js';
import type { ApiClient } from '../../http/client.js';
import type { Output } from '../../io/output.js';
import { formatBytes } from '../../io/progress.js';
import { escapeControls } from '../../io/escape.js';
import { CancelledError, ExitCode, NotFoundError, PartialFailureError, UsageError, type ErrorBody } from '../../errors.js';
import { decideCollectionReconcile, decideItemAdd, decideItemRemove, type Decision, type Rejection } from '../../rules/index.js';
import { itemUploadFields, type Item } from '../../rules/schemas.js';
import { validateInput } from '../validate.js';
import { matchesAny } from '../../transfer/glob.js';
import { uploadName } from '../../transfer/upload.js';
import { collectionStep, listItems, readSnapshot, vcPath, type CollectionView } from '../../service/collections.js';
import { asAhsError, DEFAULT_ITEM_CONCURRENCY, ItemWork, type FileUpload, type ItemJob, type JobOutcome, type Phase } from '../../service/item-work.js';
import { actingUser, assetTypeArg } from '../../service/pick-collection.js';
import { plan, type LaterStep, type PlannedRequest, type Step } from '../../plan/plan.js';

interface LocalFile {
  name: string;
  path: string;
  size: number;
}

/** What the folder and the collection's items call for. */
interface Comparison {
  /** Items with no file of their name (removed with --delete, else kept). */
  orphans: Item[];
  replacements: Array<{ file: LocalFile; old: Item }>;
  uploads: LocalFile[];
  unchanged: Array<{ file: LocalFile; item: Item }>;
}

interface SyncResult {
  uploaded: Item[];
  replaced: Array<{ old: string; new: Item; removedFirst: boolean }>;
  removed: string[];
  unchanged: string[];
  failed: Array<{ file: string | null; error: ErrorBody }>;
  reconciled?: boolean;
}

const RECONCILE = '(--reconcile)';

export const run: Run<typeof syncSpec> = async (options, ctx) => {
  const { collectionId, dir } = options;
  const patterns = options.pattern ?? [];
  const files = await readFolder(dir, patterns);
  const assetType = await assetTypeArg(ctx, collectionId, options.type);
  const user = await actingUser(ctx);
  // Every file's fields are checked before anything is read or sent (a name over the service's limit is exit 2).
  const uploads = new Map(files.map((file) => [file, toUpload(file, { assetType, user })]));

  const api = await ctx.api();
  const view = await readSnapshot(api, collectionId);
  const snapshot = view.snapshot;
  if (!snapshot) throw new NotFoundError(`collection ${collectionId} not found; nothing was sent`);
  const items = await listItems(api, collectionId);
  const comparison = compare(files, items.filter((item) => patterns.length === 0 || matchesAny(item.assetItemName, patterns)));
  const removals = options.delete ? comparison.orphans : [];
  const out = await ctx.output();
  announce(out, collectionId, dir, comparison, removals.length, options.delete ? [] : comparison.orphans);

  // Room left once the removals are done: replacements upload first while there is some.
  const room = snapshot.maxAssets - (items.length - removals.length);
  const removeFirst = room < 1;
  const phases = phasesOf(comparison, removals, uploads, room);
  const work = new ItemWork(ctx, api, collectionId, phases, user);
  const jobs = phases.flatMap((phase) => phase.jobs);
  const { steps, rejection } = planSteps(api, view, items.length, jobs, work, { assetType, user });
  // The rules already refuse a write (the new files do not fit, a type the collection does not allow, a
  // collection not editable): nothing is sent, rather than removals followed by refused uploads.
  if (rejection) {
    const needed = items.length - removals.length + comparison.uploads.length;
    const hint = needed > snapshot.maxAssets ? roomHint(snapshot.maxAssets, needed, options.delete ? 0 : comparison.orphans.length) : '--dry-run shows every request of the sync and what the service would answer';
    steps[0] = { ...steps[0]!, refusal: { rejection, hint } };
  }
  if (removeFirst && comparison.replacements.length > 0) out.info(`collection ${collectionId} is at its maxAssets (${snapshot.maxAssets}): each changed file's old item is removed before its new one is uploaded`);
  const reconciled: { outcome?: ReconcileOutcome } = {};
  const reconcile = options.reconcile ? reconcileStep(out, api, view, steps.length > 0, user, reconciled) : undefined;
  const all: Array<Step | LaterStep> = reconcile ? [...steps, reconcile] : steps;

  return plan(all, async () => {
    await work.finished();
    const outcomes = await Promise.all(jobs.map((_, index) => work.outcome(index)));
    await report(ctx, collectionId, dir, comparison, outcomes, options.reconcile ? reconciled.outcome ?? null : undefined);
  });
};

/**
 * Removals, then replacements, then new uploads. An upload-first
 * replacement holds one place until its old item is gone, so no more of
 * them run at once than there is room; with no room, each removes first.
 */
function phasesOf(comparison: Comparison, removals: Item[], uploads: Map<LocalFile, FileUpload>, room: number): Phase[] {
  const removeFirst = room < 1;
  return [
    { jobs: removals.map((old): ItemJob => ({ kind: 'remove', old })), concurrency: DEFAULT_ITEM_CONCURRENCY },
    {
      jobs: comparison.replacements.map(({ file, old }): ItemJob => ({ kind: 'replace', ...uploads.get(file)!, old, removeFirst })),
      concurrency: removeFirst ? DEFAULT_ITEM_CONCURRENCY : Math.min(DEFAULT_ITEM_CONCURRENCY, room),
    },
    { jobs: comparison.uploads.map((file): ItemJob => ({ kind: 'upload', ...uploads.get(file)! })), concurrency: DEFAULT_ITEM_CONCURRENCY },
  ];
}

function toUpload(file: LocalFile, context: { assetType: string; user: string }): FileUpload {
  uploadName(file.path);
  const labels = { assetItemName: `the item name of ${file.path}`, assetType: nameOf(syncSpec, 'type') };
  const fields = validateInput(itemUploadFields, { assetItemName: file.name, assetType: context.assetType, createdBy: context.user }, labels);
  return { file: file.name, path: file.path, size: file.size, fields };
}

/** The regular files at the top of DIR (symbolic links followed) whose names match --pattern, by name. */
async function readFolder(dir: string, patterns: string[]): Promise<LocalFile[]> {
  let names: string[];
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new UsageError(`${dir} is not a folder; nothing was sent`);
    names = await readdir(dir);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${dir}: ${code === 'ENOENT' ? 'no such folder' : (error as Error).message}; nothing was sent`);
  }
  const files: LocalFile[] = [];
  for (const name of names.sort()) {
    if (patterns.length > 0 && !matchesAny(name, patterns)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) files.push({ name, path, size: info.size });
  }
  return files;
}

/**
 * Each file against the items of its name: the one of the same size (else
 * the newest) is the file's; the items no file claims are orphans.
 */
function compare(files: LocalFile[], items: Item[]): Comparison {
  const byName = new Map<string, Item[]>();
  for (const item of [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt))) {
    byName.set(item.assetItemName, [...(byName.get(item.assetItemName) ?? []), item]);
  }
  const claimed = new Set<Item>();
  const result: Comparison = { orphans: [], replacements: [], uploads: [], unchanged: [] };
  for (const file of files) {
    const candidates = byName.get(file.name) ?? [];
    const same = candidates.find((item) => item.size === file.size);
    const item = same ?? candidates[0];
    if (item) claimed.add(item);
    if (same) result.unchanged.push({ file, item: same });
    else if (item) result.replacements.push({ file, old: item });
    else result.uploads.push(file);
  }
  result.orphans = items.filter((item) => !claimed.has(item)).sort((a, b) => a.assetItemName.localeCompare(b.assetItemName));
  return result;
}

/**
 * One step per request, in the order the pool runs them; each waits for its
 * job. The predictions follow the item count from step to step.
 */
function planSteps(
  api: ApiClient,
  view: CollectionView,
  itemCount: number,
  jobs: ItemJob[],
  work: ItemWork,
  context: { assetType: string; user: string },
): { steps: Step[]; rejection?: Rejection } {
  const snapshot = view.snapshot!;
  const collectionId = snapshot.collectionId;
  const allowedAssetTypes = view.collection?.allowedAssetTypes ?? [];
  const at = () => ({ ...snapshot, itemCount });
  const steps: Step[] = [];
  let rejection: Rejection | undefined;
  const add = (index: number, request: PlannedRequest, decision: Decision<{ itemCount: number }>, notes: string[]) => {
    if (decision.ok) itemCount = decision.next.itemCount;
    else rejection ??= decision;
    steps.push(collectionStep<JobOutcome>(api, collectionId, request, () => ({ decision, notes }), { read: async () => view, send: () => work.outcome(index) }));
  };
  const remove = (index: number, old: Item) =>
    add(
      index,
      { method: 'DELETE', path: vcPath(api, collectionId, 'items', old.assetItemId), body: { deletedBy: context.user } },
      decideItemRemove(collectionId, at(), { assetItemId: old.assetItemId, parentCollections: old.parentCollections ?? [collectionId] }, old.assetItemId),
      [],
    );
  const upload = (index: number, file: FileUpload) =>
    add(
      index,
      { method: 'POST', path: vcPath(api, collectionId, 'items'), body: { ...file.fields, assetFile: `@${file.path} (${file.size} bytes)` } },
      decideItemAdd(collectionId, at(), { assetType: context.assetType, allowedAssetTypes }),
      ['the file type (extension) is checked by the service', "a changed file is one whose byte size differs from its item's"],
    );
  jobs.forEach((job, index) => {
    if (job.kind === 'remove') return remove(index, job.old);
    if (job.kind === 'upload') return upload(index, job);
    if (job.removeFirst) remove(index, job.old);
    upload(index, job);
    if (!job.removeFirst) remove(index, job.old);
  });
  return { steps, rejection };
}

/** How to make the folder fit. */
function roomHint(maxAssets: number, needed: number, orphans: number): string {
  const delete_ = orphans > 0 ? `, --delete to remove the ${orphans} item(s) with no file` : '';
  return `the folder needs ${needed} items, ${needed - maxAssets} over maxAssets ${maxAssets} (ahs collection update --max-assets N${delete_}, or --pattern to sync fewer files)`;
}

type ReconcileOutcome = { message: string } | { error: ErrorBody };

/**
 * The re-run of the Live deployments, after the item writes: only when they
 * changed something and none failed (a half-synced folder is not
 * published), and only where the collection is Live.
 */
function reconcileStep(out: Output, api: ApiClient, view: CollectionView, writes: boolean, user: string, reconciled: { outcome?: ReconcileOutcome }): LaterStep | undefined {
  const snapshot = view.snapshot!;
  const collectionId = snapshot.collectionId;
  const hint = `ahs collection-deploy ${collectionId} --reconcile`;
  if (!writes) {
    out.info(`nothing changed: the Live deployments of ${collectionId} are left as they are (${hint} re-runs them anyway)`);
    return undefined;
  }
  const live = Object.entries(snapshot.deployments).filter(([, state]) => state === 'LIVE');
  if (live.length === 0) {
    out.info(`collection ${collectionId} is not Live in any environment: nothing to reconcile (--reconcile skipped)`);
    return undefined;
  }
  const request = { method: 'POST', path: vcPath(api, collectionId, 'deployments'), query: { reconcile: 'true' }, body: { createdBy: user } } as const;
  return async (previous) => {
    if (previous.some((outcome) => (outcome as JobOutcome | undefined)?.kind === 'failed')) {
      out.info(`not reconciled: a file failed, and a half-synced collection is not published; fix it and re-run the sync (or ${hint})`);
      return undefined;
    }
    return collectionStep<ReconcileOutcome>(api, collectionId, request, (current) => ({ decision: decideCollectionReconcile(collectionId, current.snapshot, user) }), {
      read: async () => view,
      // A refusal is reported with the files' outcomes, not thrown: the summary still prints.
      send: async (client) => {
        try {
          reconciled.outcome = await client.json<{ message: string }>({ ...request });
        } catch (error) {
          if (error instanceof CancelledError) throw error;
          reconciled.outcome = { error: asAhsError(error).toBody() };
        }
        return reconciled.outcome;
      },
    });
  };
}

/** What is about to happen, on stderr (also with --dry-run). */
function announce(out: Output, collectionId: string, dir: string, comparison: Comparison, removals: number, kept: Item[]): void {
  const counts = [
    `${comparison.uploads.length} to upload`,
    `${comparison.replacements.length} to replace`,
    ...(removals > 0 ? [`${removals} to remove`] : []),
    `${comparison.unchanged.length} unchanged`,
  ];
  out.info(`${escapeControls(dir)} → ${collectionId}: ${counts.join(', ')}`);
  if (kept.length > 0) out.info(`kept without a file (--delete removes them): ${kept.map((item) => `${item.assetItemName} (${item.assetItemId})`).join(', ')}`);
}

interface Row {
  file: string;
  result: 'uploaded' | 'replaced' | 'removed' | 'unchanged' | 'failed';
  item: string;
  detail: string;
}

/** Prints the per-file summary; any failure is exit 1, with one line naming each failed file. */
async function report(ctx: Context, collectionId: string, dir: string, comparison: Comparison, outcomes: JobOutcome[], reconciled: ReconcileOutcome | null | undefined): Promise<void> {
  const out = await ctx.output();
  const result: SyncResult = { uploaded: [], replaced: [], removed: [], unchanged: comparison.unchanged.map(({ file }) => file.name), failed: [] };
  const rows: Row[] = comparison.unchanged.map(({ file, item }) => ({ file: file.name, result: 'unchanged', item: item.assetItemId, detail: formatBytes(file.size) }));
  for (const outcome of outcomes) {
    if (outcome.kind === 'upload') {
      result.uploaded.push(outcome.item);
      rows.push({ file: outcome.file, result: 'uploaded', item: outcome.item.assetItemId, detail: formatBytes(outcome.item.size) });
    } else if (outcome.kind === 'replace') {
      result.replaced.push({ old: outcome.old.assetItemId, new: outcome.item, removedFirst: outcome.removeFirst });
      const first = outcome.removeFirst ? '; the old item was removed first (the collection was at maxAssets)' : '';
      rows.push({ file: outcome.file, result: 'replaced', item: outcome.item.assetItemId, detail: `was ${outcome.old.assetItemId} (${formatBytes(outcome.old.size)} → ${formatBytes(outcome.item.size)})${first}` });
    } else if (outcome.kind === 'remove') {
      result.removed.push(outcome.old.assetItemId);
      rows.push({ file: outcome.old.assetItemName, result: 'removed', item: outcome.old.assetItemId, detail: 'no file of this name' });
    } else {
      // Half a replacement still did something: say it where it belongs.
      if (outcome.item) result.uploaded.push(outcome.item);
      if (outcome.removed) result.removed.push(outcome.removed);
      const error = outcome.error.toBody();
      result.failed.push({ file: outcome.file, error });
      rows.push({ file: outcome.file, result: 'failed', item: outcome.item?.assetItemId ?? '-', detail: describeError(error) });
    }
  }
  if (reconciled !== undefined) {
    result.reconciled = reconciled !== null && 'message' in reconciled;
    if (reconciled && 'error' in reconciled) result.failed.push({ file: null, error: reconciled.error });
  }
  rows.sort((a, b) => a.file.localeCompare(b.file));
  out.print(result, (_doc, kit) =>
    rows.length === 0
      ? undefined
      : kit.table(
          [
            { header: 'FILE', get: (row: Row) => row.file },
            { header: 'RESULT', get: (row: Row) => row.result },
            { header: 'ITEM', get: (row: Row) => row.item },
            { header: 'DETAIL', get: (row: Row) => row.detail },
          ],
          rows,
        ),
  );
  if (reconciled && 'message' in reconciled) out.success(reconciled.message);
  const counts = `${result.uploaded.length} uploaded, ${result.replaced.length} replaced, ${result.removed.length} removed, ${result.unchanged.length} unchanged`;
  if (result.failed.length === 0) {
    out.info(`synced ${escapeControls(dir)} into ${collectionId}: ${counts}`);
    return;
  }
  const failed = result.failed.map(({ file, error }) => `${file ?? RECONCILE} (${describeError(error)})`).join(', ');
  // JSON: stderr holds the first failure's error body alone; text: the summary is the one error line.
  throw new PartialFailureError(`${counts}; failed: ${failed}`, ExitCode.rejected, out.json ? result.failed[0]!.error : undefined);
}

function describeError(error: ErrorBody): string {
  return `${error.status ? `HTTP ${error.status}: ` : ''}${error.title}`;
}
