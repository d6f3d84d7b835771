// ahs item sync COLLECTION_ID DIR --type CODE [--delete] [--pattern GLOB...] [--reconcile]
// After its start (./sync.ts: the folder's entries, the settings, the first
// reads sent), compares the files at the top of DIR with the collection's items (by name,
// then by byte size, or with --checksum by SHA-256 where the item is Live
// and can be downloaded) and plans the writes that make the collection hold the
// folder: removals (--delete) first, then replacements, then new uploads, in
// an order that never takes the collection over maxAssets. The writes run
// through the shared item pool (src/service/item-work.ts): one plan step per
// request, a failed file does not stop the others, and the summary says what
// happened to each file. Nothing to do: no step, no write.
import { nameOf, type Options } from '../define.js';
import { syncSpec } from './index.js';
import type { SyncReads } from './sync.js';
import type { Plan } from '../../plan/plan.js';
import type { Context } from '../../context.js';
import type { Output } from '../../io/output.js';
import { formatBytes } from '../../io/progress.js';
import { ExitCode, NotFoundError, PartialFailureError, type AhsError, type ErrorBody } from '../../errors.js';
import { itemUploadFields, type Item } from '../../rules/schemas.js';
import { validateInput } from '../../operations/validate.js';
import { matchesAny } from '../../util/glob.js';
import { compare, planSync, servedContent, type Comparison, type LocalFile, type SyncPlan } from '../../service/items-plan.js';
import { escapeControls } from '../../util/escape.js';
import { comparedLine } from '../../io/views/collections.js';
import { uploadName } from '../../transfer/upload.js';
import { topFiles } from '../../transfer/top-files.js';
import { plan, type Results, type Step } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';
import type { ItemUploadParams } from '../../plan/kinds/collections.js';
import { compareText } from '../../order.js';


interface SyncResult {
  uploaded: Item[];
  replaced: Array<{ old: string; new: Item; removedFirst: boolean }>;
  removed: string[];
  unchanged: string[];
  failed: Array<{ file: string | null; error: ErrorBody }>;
  /** Which rule decided for how many files: content (SHA-256) or size; checksum: --checksum was given (without it, a same-size edit is not seen). */
  compared: { content: number; size: number; checksum: boolean };
  /** Entries of DIR not synced: symbolic links without --follow-links, and with it those that lead to no regular file. */
  skipped: Array<{ file: string; reason: string }>;
  reconciled?: boolean;
}

const RECONCILE = '(--reconcile)';

/** What the command's start (./sync.ts) found and began: the folder's entries, the settings, the first reads (or how to send them). */
export interface SyncStart {
  names: string[];
  assetType: string;
  user: string;
  /** Under way, or sent once the files' fields are checked (when they might not pass). */
  reads: SyncReads | (() => Promise<SyncReads>);
}

export async function syncFolder(options: Options<typeof syncSpec>, ctx: Context, start: SyncStart): Promise<Plan | undefined> {
  const { collectionId, dir } = options;
  const { assetType, user } = start;
  const patterns = options.pattern ?? [];
  const { files, notFollowed: links, broken } = topFiles(dir, start.names, options.followLinks === true);
  // Every file's fields are checked before any write (a name over the service's limit is exit 2); before
  // any read too, unless the start found they pass.
  const uploads = new Map(files.map((file) => [file, { ...toUpload(file, { assetType, user }), collectionId }]));
  const reads = typeof start.reads === 'function' ? await start.reads() : start.reads;
  const api = reads.api;
  if (files.length > 0 && !ctx.globals.dryRun) api.prepareUploads(files.length);
  const read = await reads.view;
  if ('error' in read) throw read.error;
  const view = read.view;
  const snapshot = view.snapshot;
  if (!snapshot) throw new NotFoundError(`collection ${collectionId} not found; nothing was sent`);
  const listed = await reads.items;
  if ('error' in listed) throw listed.error;
  const items = listed.list;
  const content = options.checksum ? servedContent(ctx, view) : undefined;
  const comparison = await compare(files, items.filter((item) => patterns.length === 0 || matchesAny(item.assetItemName, patterns)), content);
  const removals = options.delete ? comparison.orphans : [];
  const out = await ctx.output();
  announce(out, collectionId, dir, comparison, removals.length, options.delete ? [] : comparison.orphans);
  if (links.length > 0) out.warn(`skipped ${links.length} symbolic link(s), not followed without --follow-links: ${links.map((name) => escapeControls(name)).join(', ')}`);
  for (const link of broken) out.warn(`skipped ${escapeControls(`${link.name}: ${link.reason}`)} (--follow-links)`);
  const skipped = [...links.map((file) => ({ file, reason: 'symbolic link (--follow-links follows it)' })), ...broken.map((link) => ({ file: link.name, reason: `${link.reason} (--follow-links)` }))];

  // Room left once the removals are done: replacements upload first while there is some.
  const room = snapshot.maxAssets - (items.length - removals.length);
  const removeFirst = room < 1;
  if (removeFirst && comparison.replacements.length > 0) out.info(`collection ${collectionId} is at its maxAssets (${snapshot.maxAssets}): each changed file's old item is removed before its new one is uploaded`);
  const needed = items.length - removals.length + comparison.uploads.length;
  // The rules already refuse a write (the new files do not fit, a type the collection does not allow, a
  // collection not editable): nothing is sent, rather than removals followed by refused uploads.
  const refuse = {
    hint: needed > snapshot.maxAssets ? roomHint(snapshot.maxAssets, needed, options.delete ? 0 : comparison.orphans.length) : '--dry-run shows every request of the sync and what the service would answer',
  };
  const sync = planSync({ view, itemCount: items.length, comparison, removals, uploads, room, user, assetType, refuse });
  const reconcile = options.reconcile ? reconcileStep(out, collectionId, snapshot.deployments, sync.all, user) : undefined;
  const all = reconcile ? [...sync.all, reconcile] : sync.all;
  // --delete is destructive: the items it removes are named, and a terminal asks (elsewhere --yes).
  const confirm = removals.length > 0 ? { message: `Remove ${removals.length} item(s) with no file from ${collectionId}: ${removals.map((item) => `${item.assetItemName} (${item.assetItemId})`).join(', ')}?`, action: `item sync --delete (removes ${removals.length} item(s))` } : undefined;
  return plan(
    all,
    (results) => report(ctx, collectionId, dir, comparison, outcomesOf(sync, results), options.reconcile ? (reconcile ? reconcileOutcome(reconcile, results) : null) : undefined, skipped),
    {
      confirm,
      onAnswer: (step, results) => {
        const line = sync.describe(step, results);
        if (line) out.success(line);
      },
      onFailure: (step, failure) => {
        if (step === reconcile && failure.skipped) out.info(`not reconciled: a file failed, and a half-synced collection is not published; fix it and re-run the sync (or ahs collection-deploy ${collectionId} --reconcile)`);
      },
    },
  );
};


/** What happened to each file, from the run's results. */
function outcomesOf(sync: SyncPlan, results: Results): JobOutcome[] {
  const failed = (step: Step) => results.failureOf(step);
  const outcomes: JobOutcome[] = [];
  for (const { old, step } of sync.removals) {
    const failure = failed(step);
    if (failure) outcomes.push({ kind: 'failed', file: old.assetItemName, error: failure.error });
    else if (results.has(step)) outcomes.push({ kind: 'remove', old });
  }
  for (const r of sync.replacements) {
    const item = results.of(r.upload);
    const removed = results.has(r.remove);
    const uploadFailure = failed(r.upload);
    const removeFailure = failed(r.remove);
    if (item && removed) outcomes.push({ kind: 'replace', file: r.file.name, item, old: r.old, removeFirst: r.removeFirst });
    else if (r.removeFirst && removed && uploadFailure)
      outcomes.push({ kind: 'failed', file: r.file.name, error: withContext(uploadFailure.error, `the old item ${r.old.assetItemId} was removed first (the collection is at maxAssets); the upload failed`), removed: r.old.assetItemId });
    else if (!r.removeFirst && item && removeFailure)
      outcomes.push({ kind: 'failed', file: r.file.name, error: withContext(removeFailure.error, `uploaded as ${item.assetItemId}, but removing the old item ${r.old.assetItemId} failed`), item });
    else {
      const failure = (r.removeFirst ? removeFailure : uploadFailure) ?? uploadFailure ?? removeFailure;
      if (failure) outcomes.push({ kind: 'failed', file: r.file.name, error: failure.error });
    }
  }
  for (const { file, step } of sync.uploads) {
    const item = results.of(step);
    const failure = failed(step);
    if (item) outcomes.push({ kind: 'upload', file: file.name, item });
    else if (failure) outcomes.push({ kind: 'failed', file: file.name, error: failure.error });
  }
  const converged = sync.converge && results.of(sync.converge);
  const convergeFailure = sync.converge && failed(sync.converge);
  if (convergeFailure && !convergeFailure.skipped) outcomes.push({ kind: 'failed', file: '(copies made by another run)', error: convergeFailure.error });
  // This run's copy removed: the other run's item is the file's.
  for (const { removed, kept } of converged?.duplicates ?? []) {
    const index = outcomes.findIndex((o) => (o.kind === 'upload' || o.kind === 'replace') && o.item.assetItemId === removed);
    if (index >= 0) outcomes[index] = { ...(outcomes[index] as Extract<JobOutcome, { item: Item }>), item: kept };
  }
  return outcomes;
}

type JobOutcome =
  | { kind: 'upload'; file: string; item: Item }
  | { kind: 'replace'; file: string; item: Item; old: Item; removeFirst: boolean }
  | { kind: 'remove'; old: Item }
  /** What went wrong; `item` / `removed` say what was done all the same (half a replacement). */
  | { kind: 'failed'; file: string; error: AhsError; item?: Item; removed?: string };

/** The same failure (status, exit code, body) with what had been done said first. */
function withContext(error: AhsError, context: string): AhsError {
  const body = error.toBody();
  const title = `${context}: ${body.title}`;
  return new PartialFailureError(title, error.exitCode, { ...body, title, detail: title });
}

function toUpload(file: LocalFile, context: { assetType: string; user: string }): Omit<ItemUploadParams, 'collectionId'> {
  uploadName(file.path);
  const labels = { assetItemName: `the item name of ${file.path}`, assetType: nameOf(syncSpec, 'type') };
  const fields = validateInput(itemUploadFields, { assetItemName: file.name, assetType: context.assetType, createdBy: context.user }, labels);
  return { fields, file: { path: file.path, name: file.name, size: file.size } };
}


/** How to make the folder fit. */
function roomHint(maxAssets: number, needed: number, orphans: number): string {
  const delete_ = orphans > 0 ? `, --delete to remove the ${orphans} item(s) with no file` : '';
  return `the folder needs ${needed} items, ${needed - maxAssets} over maxAssets ${maxAssets} (ahs collection update --max-assets N${delete_}, or --pattern to sync fewer files)`;
}

type ReconcileOutcome = { message: string } | { error: ErrorBody };

/**
 * The re-run of the Live deployments, after the item writes: only when they
 * changed something and none failed (a half-synced collection is not
 * published: it runs after every write step), and only where the
 * collection is Live. Its refusal is reported with the files' outcomes.
 */
function reconcileStep(out: Output, collectionId: string, deployments: Record<string, string>, writes: Step[], user: string): Step<{ message: string }> | undefined {
  const hint = `ahs collection-deploy ${collectionId} --reconcile`;
  if (writes.length === 0) {
    out.info(`nothing changed: the Live deployments of ${collectionId} are left as they are (${hint} re-runs them anyway)`);
    return undefined;
  }
  if (!Object.values(deployments).includes('LIVE')) {
    out.info(`collection ${collectionId} is not Live in any environment: nothing to reconcile (--reconcile skipped)`);
    return undefined;
  }
  return steps.collectionReconcile({ collectionId, user }, { batch: { group: 'reconcile', concurrency: 1 }, after: writes.map((step) => step.id) });
}

function reconcileOutcome(step: Step<{ message: string }>, results: Results): ReconcileOutcome | null {
  const answer = results.of(step);
  if (answer) return answer;
  const failure = results.failureOf(step);
  return failure && !failure.skipped ? { error: failure.error.toBody() } : null;
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
  // Nothing to compare (a first sync): no rule decided anything.
  if (comparison.compared.content + comparison.compared.size > 0) out.info(comparedLine(comparison.compared));
  if (kept.length > 0) out.info(`kept without a file (--delete removes them): ${kept.map((item) => `${item.assetItemName} (${item.assetItemId})`).join(', ')}`);
  if (removals > 0) out.info(`to remove (no file of their name): ${comparison.orphans.map((item) => `${item.assetItemName} (${item.assetItemId})`).join(', ')}`);
  const replaced = comparison.replacements.map(({ old }) => `${old.assetItemName} (${old.assetItemId})`);
  if (replaced.length > 0) out.info(`to replace (the old item removed): ${replaced.join(', ')}`);
}

interface Row {
  file: string;
  result: 'uploaded' | 'replaced' | 'removed' | 'unchanged' | 'failed';
  item: string;
  detail: string;
}

/** Prints the per-file summary; any failure is exit 1, with one line naming each failed file. */
async function report(ctx: Context, collectionId: string, dir: string, comparison: Comparison, outcomes: JobOutcome[], reconciled: ReconcileOutcome | null | undefined, skipped: SyncResult['skipped']): Promise<void> {
  const out = await ctx.output();
  const { content, size, checksum } = comparison.compared;
  const result: SyncResult = {
    uploaded: [],
    replaced: [],
    removed: [],
    unchanged: comparison.unchanged.map(({ file }) => file.name),
    failed: [],
    compared: { content, size, checksum },
    skipped,
  };
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
  rows.sort((a, b) => compareText(a.file, b.file));
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
