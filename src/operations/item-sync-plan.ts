// item sync, after its start (./item-sync.ts: the folder's entries, the first
// reads sent): compares the files at the top of DIR with the collection's
// items (by name, then by byte size, or with a checksum by SHA-256 where the
// item is Live and can be downloaded) and plans the writes that make the
// collection hold the folder: removals (delete) first, then replacements,
// then new uploads, in an order that never takes the collection over
// maxAssets. The writes run through the shared item pool
// (src/service/item-work.ts): one plan step per request, a failed file does
// not stop the others, and the result says what happened to each file.
// Nothing to do: no step, no write.
import { historyErased } from '../service/journal.js';
import type { PlanContext, PlanOutput } from '../plan/context.js';
import { ExitCode, NotFoundError, PartialFailureError, type AhsError, type ErrorBody } from '../errors.js';
import { formatSize } from '../rules/assets.js';
import { itemUploadFields, type Item } from '../rules/schemas.js';
import { matchesAny } from '../util/glob.js';
import { compare, planSync, servedContent, type Comparison, type LocalFile, type SyncPlan } from '../plan/items-plan.js';
import { escapeControls } from '../util/escape.js';
import { uploadName } from '../transfer/upload.js';
import { topFiles } from '../transfer/top-files.js';
import { NameAllocator } from '../transfer/safe-name.js';
import { plan, type Results, type Step } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import type { ItemUploadParams } from '../plan/kinds/collections.js';
import { compareText } from '../order.js';
import { comparedLine } from './compared-line.js';
import { validateInput, type FieldNames } from './validate.js';
import { PartialResultError } from './partial.js';
import { syncCounts, type ItemSyncInput, type ItemSyncPlan, type ItemSyncResult, type SyncDetails, type SyncReads, type SyncRow } from './item-sync.js';

const RECONCILE = '(--reconcile)';

/**
 * cli.md "Release workflows": item sync warns at upload of a name fetch would
 * not write as it is on this machine (the same allocation fetch makes, in
 * the same folder: a name ahs's temporary files use, one over the length
 * cap, two that differ only in case where folders ignore it).
 */
function warnRenames(out: PlanOutput, all: string[], uploaded: Set<string>): void {
  const names = new NameAllocator();
  for (const name of [...all].sort(compareText)) {
    const written = names.allocateNamed(name, name);
    if (written.reason !== undefined && uploaded.has(name)) out.warn(`${escapeControls(name)} is fetched as ${escapeControls(written.name)}: ${written.reason}`);
  }
}

export async function planFolderSync(ctx: PlanContext, input: ItemSyncInput & { entries: string[] }, start: SyncReads | (() => Promise<SyncReads>), names: FieldNames): Promise<ItemSyncPlan> {
  const { collectionId, dir, assetType, user } = input;
  const patterns = input.pattern ?? [];
  const { files, notFollowed: links, broken, folders } = topFiles(dir, input.entries, input.followLinks === true);
  // Every file's fields are checked before any write (a name over the service's limit is exit 2); before
  // any read too, unless the start found they pass.
  const uploads = new Map(files.map((file) => [file, { ...toUpload(file, { assetType, user }, names), collectionId }]));
  const reads = typeof start === 'function' ? await start() : start;
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
  const content = input.checksum ? servedContent(ctx, view) : undefined;
  const comparison = await compare(files, items.filter((item) => patterns.length === 0 || matchesAny(item.assetItemName, patterns)), content);
  const removals = input.delete ? comparison.orphans : [];
  const out = await ctx.output();
  announce(out, collectionId, dir, comparison, removals.length, input.delete ? [] : comparison.orphans);
  if (links.length > 0) out.warn(`skipped ${links.length} symbolic link(s), not followed without --follow-links: ${links.map((name) => escapeControls(name)).join(', ')}`);
  for (const link of broken) out.warn(`skipped ${escapeControls(`${link.name}: ${link.reason}`)} (--follow-links)`);
  if (folders.length > 0) out.warn(`skipped ${folders.length} subfolder${folders.length > 1 ? 's' : ''} (item sync reads the files at the top of the folder only): ${folders.map((folder) => `${escapeControls(folder)}/`).join(', ')}`);
  warnRenames(out, files.map((file) => file.name), new Set([...comparison.uploads, ...comparison.replacements.map((r) => r.file)].map((file) => file.name)));
  const skipped = [...links.map((file) => ({ file, reason: 'symbolic link (--follow-links follows it)' })), ...broken.map((link) => ({ file: link.name, reason: `${link.reason} (--follow-links)` }))];

  // Room left once the removals are done: replacements upload first while there is some.
  const room = snapshot.maxAssets - (items.length - removals.length);
  const removeFirst = room < 1;
  if (removeFirst && comparison.replacements.length > 0) out.info(`collection ${collectionId} is at its maxAssets (${snapshot.maxAssets}): each changed file's old item is removed before its new one is uploaded`);
  const needed = items.length - removals.length + comparison.uploads.length;
  // The rules already refuse a write (the new files do not fit, a type the collection does not allow, a
  // collection not editable): nothing is sent, rather than removals followed by refused uploads.
  const refuse = {
    hint: needed > snapshot.maxAssets ? roomHint(snapshot.maxAssets, needed, input.delete ? 0 : comparison.orphans.length) : '--dry-run shows every request of the sync and what the service would answer',
  };
  const sync = planSync({ view, itemCount: items.length, comparison, removals, uploads, room, user, assetType, refuse });
  const reconcile = input.reconcile ? reconcileStep(out, collectionId, snapshot.deployments, sync.all, user) : undefined;
  const all = reconcile ? [...sync.all, reconcile] : sync.all;
  // Deleting is destructive: the items it removes are named, and a terminal asks (elsewhere --yes).
  // In the journal, they are the team's history of writes: the question says that history goes.
  const erased = historyErased(view.collection);
  const confirm =
    removals.length > 0
      ? { message: `Remove ${removals.length} item(s) with no file from ${collectionId}: ${removals.map((item) => `${item.assetItemName} (${item.assetItemId})`).join(', ')}?${erased}`, action: `item sync --delete (removes ${removals.length} item(s)${erased ? " of the ahs journal: it erases that part of the team's history of writes" : ''})` }
      : undefined;
  // The summary table of each result `done` made, for the command to print.
  const details = new WeakMap<ItemSyncResult, SyncDetails>();
  return {
    ...plan(
      all,
      (results) => {
        const reconciled = input.reconcile ? (reconcile ? reconcileOutcome(reconcile, results) : null) : undefined;
        const { result, rows } = summary(comparison, outcomesOf(sync, results), reconciled, skipped);
        details.set(result, { rows, ...(reconciled && 'message' in reconciled ? { reconciled: reconciled.message } : {}) });
        if (result.failed.length === 0) return result;
        throw failure(result, all, results, out.json);
      },
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
    ),
    details: (result) => details.get(result) ?? { rows: [] },
  };
}

/**
 * Some file failed: exit 1 with one line naming each failed file; exit 6
 * (cli.md, as fetch and item upload) when every failure was for want of an
 * answer (each step's error exit 6, lost answers and unknown outcomes
 * included): run it again later.
 */
function failure(result: ItemSyncResult, all: Step[], results: Results, json: boolean): PartialResultError<ItemSyncResult> {
  const failed = result.failed.map(({ file, error }) => `${file ?? RECONCILE} (${describeError(error)})`).join(', ');
  const message = `${syncCounts(result)}; failed: ${failed}`;
  // JSON: stderr holds the first failure's error body alone; text: the summary is the one error line.
  const first = json ? result.failed[0]!.error : undefined;
  const failures = all.map((step) => results.failureOf(step)).filter((f) => f !== undefined && !f.skipped);
  const network = failures.length > 0 && failures.every((f) => f!.error.exitCode === ExitCode.network);
  if (!network) return new PartialResultError(message, ExitCode.rejected, first, result);
  return new PartialResultError(message, ExitCode.network, first ?? { type: 'urn:ahs:network', title: message, status: null, detail: message }, result);
}

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

function toUpload(file: LocalFile, context: { assetType: string; user: string }, names: FieldNames): Omit<ItemUploadParams, 'collectionId'> {
  uploadName(file.path);
  const itemName = `the item name of ${file.path}`;
  const labels: FieldNames = typeof names === 'function' ? (field) => (field === 'assetItemName' ? itemName : names(field)) : { ...names, assetItemName: itemName };
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
function reconcileStep(out: PlanOutput, collectionId: string, deployments: Record<string, string>, writes: Step[], user: string): Step<{ message: string }> | undefined {
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
function announce(out: PlanOutput, collectionId: string, dir: string, comparison: Comparison, removals: number, kept: Item[]): void {
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

/** The result, and the summary table's line per file. */
function summary(comparison: Comparison, outcomes: JobOutcome[], reconciled: ReconcileOutcome | null | undefined, skipped: ItemSyncResult['skipped']): { result: ItemSyncResult; rows: SyncRow[] } {
  const { content, size, checksum } = comparison.compared;
  const result: ItemSyncResult = {
    uploaded: [],
    replaced: [],
    removed: [],
    unchanged: comparison.unchanged.map(({ file }) => file.name),
    failed: [],
    compared: { content, size, checksum },
    skipped,
  };
  const rows: SyncRow[] = comparison.unchanged.map(({ file, item }) => ({ file: file.name, result: 'unchanged', item: item.assetItemId, detail: formatSize(file.size) }));
  for (const outcome of outcomes) {
    if (outcome.kind === 'upload') {
      result.uploaded.push(outcome.item);
      rows.push({ file: outcome.file, result: 'uploaded', item: outcome.item.assetItemId, detail: formatSize(outcome.item.size) });
    } else if (outcome.kind === 'replace') {
      result.replaced.push({ old: outcome.old.assetItemId, new: outcome.item, removedFirst: outcome.removeFirst });
      const first = outcome.removeFirst ? '; the old item was removed first (the collection was at maxAssets)' : '';
      rows.push({ file: outcome.file, result: 'replaced', item: outcome.item.assetItemId, detail: `was ${outcome.old.assetItemId} (${formatSize(outcome.old.size)} → ${formatSize(outcome.item.size)})${first}` });
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
  return { result, rows };
}

function describeError(error: ErrorBody): string {
  return `${error.status ? `HTTP ${error.status}: ` : ''}${error.title}`;
}
