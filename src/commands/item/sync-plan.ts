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
import { decideItemAdd, decideItemRemove, type Decision } from '../../rules/index.js';
import { itemUploadFields, type Item } from '../../rules/schemas.js';
import { deliveryFileUrl, hashServed, readDeployedCollection } from '../../service/delivery.js';
import { fileSha256 } from '../../transfer/digest.js';
import type { DownloadTask } from '../../transfer/download.js';
import { eachLimited } from '../../transfer/pool.js';
import { validateInput } from '../validate.js';
import { matchesAny } from '../../transfer/glob.js';
import { currentOf, type CollectionView } from '../../service/collections.js';
import { escapeControls } from '../../io/escape.js';
import { comparedLine } from '../../io/views/collections.js';
import { uploadName } from '../../transfer/upload.js';
import { topFiles } from '../../transfer/top-files.js';
import { optionalRef, plan, type Batch, type Prediction, type Refusal, type Results, type Step } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';
import type { Converged, ItemUploadParams } from '../../plan/kinds/collections.js';
import { compareText } from '../../order.js';

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
  /** How many files with an item of their name were compared by content (SHA-256), how many by size. */
  compared: { content: number; size: number; checksum: boolean };
}

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

/** Item writes at the same time (issue 21: at most 8 requests in flight). */
const ITEM_CONCURRENCY = 8;

interface Replacement {
  file: LocalFile;
  old: Item;
  upload: Step<Item>;
  remove: Step<{ message: string }>;
  removeFirst: boolean;
}

interface SyncPlan {
  removals: Array<{ old: Item; step: Step<{ message: string }> }>;
  replacements: Replacement[];
  uploads: Array<{ file: LocalFile; step: Step<Item> }>;
  /** Settles the copies another sync uploaded at the same time. */
  converge: Step<Converged> | undefined;
  /** Every step, in order: removals, replacements, new uploads, the settling of copies. */
  all: Step[];
  /** The line a person sees when a step's answer is in. */
  describe(step: Step, results: Results): string | undefined;
}

interface SyncInputs {
  view: CollectionView;
  itemCount: number;
  comparison: Comparison;
  removals: Item[];
  uploads: Map<LocalFile, ItemUploadParams>;
  room: number;
  user: string;
  assetType: string;
  refuse: Refusal;
}

/**
 * The steps of a sync: removals (a batch, first), then replacements and new
 * uploads: one batch when they all fit at once, so that a replaced item's
 * removal follows its own upload, not the others'; else a batch each, and
 * an upload-first replacement holds one place until its old item is gone,
 * so no more of them run at once than there is room; with no room, each
 * removes first. Last, in the last uploads' batch, the settling of copies
 * another sync made. The predictions follow the item count from step to
 * step, over the collection as read.
 */
function planSync(inputs: SyncInputs): SyncPlan {
  const { view, comparison, uploads, room, user, assetType, refuse } = inputs;
  const snapshot = view.snapshot!;
  const collectionId = snapshot.collectionId;
  const allowedAssetTypes = view.collection?.allowedAssetTypes ?? [];
  let itemCount = inputs.itemCount;
  const predicted = (decision: Decision<{ itemCount: number }>, notes: string[] = []): Prediction => {
    if (decision.ok) itemCount = decision.next.itemCount;
    return { current: currentOf(view), decision, notes };
  };
  const removeStep = (old: Item, batch: Batch, after?: string[]) =>
    steps.itemRemove(
      { collectionId, itemId: old.assetItemId, name: old.assetItemName, user, converge: true },
      {
        batch,
        after,
        refuse,
        prediction: predicted(decideItemRemove(collectionId, { ...snapshot, itemCount }, { assetItemId: old.assetItemId, parentCollections: old.parentCollections ?? [collectionId] }, old.assetItemId)),
      },
    );
  const uploadStep = (file: LocalFile, batch: Batch, after?: string[]) =>
    steps.itemUpload(uploads.get(file)!, {
      batch,
      after,
      refuse,
      prediction: predicted(decideItemAdd(collectionId, { ...snapshot, itemCount }, { assetType, allowedAssetTypes }), [
        'the file type (extension) is checked by the service',
        comparison.compared.checksum
          ? "a changed file is one whose SHA-256 differs from what its Live item serves (an item Live nowhere: whose byte size differs from its item's)"
          : "a changed file is one whose byte size differs from its item's",
      ]),
    });

  const removeFirst = room < 1;
  // Once the removals are done (cli.md: before any upload), the most the collection holds at once is
  // every upload in and no replaced item removed yet: when that fits, replacements and new uploads are one batch.
  const fits = room >= comparison.uploads.length + (removeFirst ? 0 : comparison.replacements.length);
  // Uploading first, one batch of 8 requests in flight: the uploads before the removals, each
  // removal as soon as its own upload is done. Removing first, each replacement holds its slot.
  const batch = (phase: 'remove' | 'replace' | 'upload', concurrency = ITEM_CONCURRENCY): Batch =>
    fits && phase !== 'remove' ? { group: 'write', concurrency, ...(removeFirst ? {} : { bounds: 'requests' }) } : { group: phase, concurrency };
  const removals = inputs.removals.map((old) => ({ old, step: removeStep(old, batch('remove')) }));
  const replaceBatch = batch('replace', removeFirst || fits ? ITEM_CONCURRENCY : Math.max(1, Math.min(ITEM_CONCURRENCY, room)));
  const replacements = comparison.replacements.map(({ file, old }): Replacement => {
    if (removeFirst) {
      const remove = removeStep(old, replaceBatch);
      return { file, old, remove, upload: uploadStep(file, replaceBatch, [remove.id]), removeFirst };
    }
    const upload = uploadStep(file, replaceBatch);
    return { file, old, upload, remove: removeStep(old, replaceBatch, [upload.id]), removeFirst };
  });
  const newUploads = comparison.uploads.map((file) => ({ file, step: uploadStep(file, batch('upload')) }));
  // Another sync of the same folder at the same time uploads the same files: the copies are settled once
  // all are up. In the last uploads' batch, it refers to every upload: it starts once they all ended (a
  // join), beside the removals still running, which it leaves out of its count.
  const uploaded = [...replacements.map((r) => ({ file: r.file, step: r.upload })), ...newUploads];
  const converge =
    uploaded.length > 0
      ? steps.itemConverge(
          {
            collectionId,
            user,
            uploaded: uploaded.map(({ file, step }) => ({ name: file.name, size: file.size, itemId: optionalRef(step, 'assetItemId') })),
            replacing: replacements.map((r) => r.old.assetItemId),
          },
          { batch: uploaded.at(-1)!.step.batch },
        )
      : undefined;
  const all: Step[] = [
    ...removals.map((r) => r.step),
    ...replacements.flatMap((r) => (r.removeFirst ? [r.remove, r.upload] : [r.upload, r.remove])),
    ...newUploads.map((u) => u.step),
    ...(converge ? [converge] : []),
  ];
  return {
    removals,
    replacements,
    uploads: newUploads,
    converge,
    all,
    describe(step, results) {
      const removal = removals.find((r) => r.step === step);
      if (removal) return `removed ${removal.old.assetItemId} (${removal.old.assetItemName}): no file of that name`;
      const added = newUploads.find((u) => u.step === step);
      if (added) return `${added.file.name} → ${results.of(added.step)!.assetItemId} (${formatBytes(added.file.size)})`;
      // A replacement is told once both its writes are done.
      const replaced = replacements.find((r) => (r.removeFirst ? r.upload : r.remove) === step);
      if (!replaced) return undefined;
      const item = results.of(replaced.upload)!;
      const first = replaced.removeFirst ? ', removed first: the collection is at maxAssets' : '';
      return `${replaced.file.name} → ${item.assetItemId} (${formatBytes(replaced.file.size)}), replacing ${replaced.old.assetItemId}${first}`;
    },
  };
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

function toUpload(file: LocalFile, context: { assetType: string; user: string }): Omit<ItemUploadParams, 'collectionId'> {
  uploadName(file.path);
  const labels = { assetItemName: `the item name of ${file.path}`, assetType: nameOf(syncSpec, 'type') };
  const fields = validateInput(itemUploadFields, { assetItemName: file.name, assetType: context.assetType, createdBy: context.user }, labels);
  return { fields, file: { path: file.path, name: file.name, size: file.size } };
}

/**
 * --checksum: which items are Live in an environment, and the SHA-256 of
 * what the delivery network serves for each of those asked about, by item id.
 */
type ServedContent = (items: Item[]) => Promise<{ live: Set<string>; digests: Map<string, string> }>;

/**
 * Each file against the items of its name: the one of the same content
 * (with --checksum, for a Live item: the SHA-256 of what is served equals
 * the file's; otherwise the same size), else the newest, is the file's; the
 * items no file claims are orphans. An item that is Live nowhere (or whose
 * download failed) is compared by size.
 */
async function compare(files: LocalFile[], items: Item[], content?: ServedContent): Promise<Comparison> {
  const byName = new Map<string, Item[]>();
  for (const item of [...items].sort((a, b) => compareText(b.createdAt, a.createdAt))) {
    byName.set(item.assetItemName, [...(byName.get(item.assetItemName) ?? []), item]);
  }
  // Only a same-size item can hold the same bytes: those are downloaded, and their files hashed (each once).
  const sameSize = files.flatMap((file) => (byName.get(file.name) ?? []).filter((item) => item.size === file.size));
  const { live, digests: served } = content ? await content(sameSize) : { live: new Set<string>(), digests: new Map<string, string>() };
  const local = new Map<LocalFile, string>();
  await eachLimited(
    files.filter((file) => (byName.get(file.name) ?? []).some((item) => item.size === file.size && served.has(item.assetItemId))),
    4,
    new AbortController().signal,
    async (file) => void local.set(file, await fileSha256(file.path)),
  );
  const sameContent = (file: LocalFile, item: Item) => item.size === file.size && (served.has(item.assetItemId) ? served.get(item.assetItemId) === local.get(file) : true);
  const claimed = new Set<Item>();
  const result: Comparison = { orphans: [], replacements: [], uploads: [], unchanged: [], compared: { content: 0, size: 0, checksum: content !== undefined } };
  for (const file of files) {
    const candidates = byName.get(file.name) ?? [];
    const same = candidates.find((item) => served.has(item.assetItemId) && sameContent(file, item)) ?? candidates.find((item) => sameContent(file, item));
    const item = same ?? candidates[0];
    if (item) claimed.add(item);
    // A Live item of another size differs in content too: no download needed to say so.
    if (item) result.compared[live.has(item.assetItemId) && (item.size !== file.size || served.has(item.assetItemId)) ? 'content' : 'size']++;
    if (same) result.unchanged.push({ file, item: same });
    else if (item) result.replacements.push({ file, old: item });
    else result.uploads.push(file);
  }
  result.orphans = items.filter((item) => !claimed.has(item)).sort((a, b) => compareText(a.assetItemName, b.assetItemName));
  return result;
}

/**
 * --checksum's reads: the items Live in each environment (the deployment
 * status read with the collection), and for those asked about, the SHA-256
 * of what the delivery network serves (downloaded in parallel, hashed as
 * they stream, never written). A download that fails leaves its item to be
 * compared by size, and says so.
 */
function servedContent(ctx: Context, view: CollectionView): ServedContent {
  return async (items) => {
    const liveIn = new Map<string, string>();
    for (const row of view.status?.items ?? []) {
      if (view.snapshot?.deployments[row.envId] !== 'LIVE') continue;
      for (const id of row.live) if (!liveIn.has(id)) liveIn.set(id, row.envId);
    }
    const wanted = items.filter((item) => liveIn.has(item.assetItemId));
    const envs = [...new Set(wanted.map((item) => liveIn.get(item.assetItemId)!))];
    const collectionId = view.snapshot!.collectionId;
    const deployed = new Map(await Promise.all(envs.map(async (env) => [env, await readDeployedCollection(ctx, collectionId, env)] as const)));
    const tasks: DownloadTask[] = [];
    for (const item of wanted) {
      const { doc, deliveryBase } = deployed.get(liveIn.get(item.assetItemId)!)!;
      const entry = doc.assetItemUrls.find((e) => e.assetItemId === item.assetItemId);
      if (entry) tasks.push({ id: item.assetItemId, name: item.assetItemName, url: deliveryFileUrl(deliveryBase, entry.downloadUrl), expectedSize: item.size });
    }
    const summary = await hashServed(ctx, tasks, { label: tasks.length === 1 ? `comparing ${tasks[0]!.name} by content` : `comparing ${tasks.length} Live items by content` });
    if (summary.failed.length > 0) (await ctx.output()).warn(`could not download ${summary.failed.map((f) => `${f.name} (${f.id})`).join(', ')}: compared by size`);
    return { live: new Set(liveIn.keys()), digests: new Map(summary.hashed.map((h) => [h.id, h.sha256])) };
  };
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
