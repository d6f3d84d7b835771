// One item planner (issue 31), used by `ahs item sync` and by the desired
// state (`ahs plan`, `ahs apply`) alike: the files at the top of a folder
// (src/transfer/top-files.ts) compared with a collection's items (by name,
// then by byte size, or by SHA-256 where the item is Live and can be
// downloaded), and the steps that make the collection hold the folder:
// removals first, then replacements, then new uploads, in an order that never
// takes the collection over maxAssets, then the settling of the copies
// another run of the same folder uploaded at the same time.
import type { PlanContext } from './context.js';
import { formatSize } from '../rules/assets.js';
import { decideItemAdd, decideItemRemove, type Decision } from '../rules/index.js';
import type { Item } from '../rules/schemas.js';
import { deliveryFileUrl, hashServed, readDeployedCollection } from '../service/delivery.js';
import { fileSha256 } from '../transfer/digest.js';
import type { DownloadTask } from '../transfer/download.js';
import { eachLimited } from '../util/pool.js';
import { currentOf, type CollectionView } from '../service/collections.js';
import { optionalRef, type Batch, type Prediction, type Refusal, type Results, type Step } from './plan.js';
import { steps } from './steps.js';
import type { Converged, ItemUploadParams } from './kinds/collections.js';
import { compareText } from '../order.js';

export interface LocalFile {
  name: string;
  path: string;
  size: number;
}

/** What the folder and the collection's items call for. */
export interface Comparison {
  /** Items with no file of their name (removed with --delete, else kept). */
  orphans: Item[];
  replacements: Array<{ file: LocalFile; old: Item }>;
  uploads: LocalFile[];
  unchanged: Array<{ file: LocalFile; item: Item }>;
  /** How many files with an item of their name were compared by content (SHA-256), how many by size. */
  compared: { content: number; size: number; checksum: boolean };
  /** Which rule decided for each file with an item of its name, by file name. */
  rules: Map<string, 'content' | 'size'>;
}

/** Item writes at the same time (issue 21: at most 8 requests in flight). */
export const ITEM_CONCURRENCY = 8;

export interface Replacement {
  file: LocalFile;
  old: Item;
  upload: Step<Item>;
  remove: Step<{ message: string }>;
  removeFirst: boolean;
}

export interface SyncPlan {
  removals: Array<{ old: Item; step: Step<{ message: string }> }>;
  replacements: Replacement[];
  uploads: Array<{ file: LocalFile; step: Step<Item> }>;
  /** Settles the copies another sync uploaded at the same time. */
  converge: Step<Converged> | undefined;
  /** Every step, in order: removals, replacements, new uploads, the settling of copies. */
  all: Step[];
  /** The collection's item count once every step is done, as predicted. */
  itemCount: number;
  /** The line a person sees when a step's answer is in. */
  describe(step: Step, results: Results): string | undefined;
}

export interface SyncInputs {
  view: CollectionView;
  itemCount: number;
  comparison: Comparison;
  removals: Item[];
  uploads: Map<LocalFile, ItemUploadParams>;
  room: number;
  user: string;
  assetType: string;
  refuse: Refusal;
  /** Put before each batch's group name: two collections' items in one plan are batches of their own. */
  groupPrefix?: string;
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
export function planSync(inputs: SyncInputs): SyncPlan {
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

  const prefix = inputs.groupPrefix ?? '';
  const removeFirst = room < 1;
  // Once the removals are done (cli.md: before any upload), the most the collection holds at once is
  // every upload in and no replaced item removed yet: when that fits, replacements and new uploads are one batch.
  const fits = room >= comparison.uploads.length + (removeFirst ? 0 : comparison.replacements.length);
  // Uploading first, one batch of 8 requests in flight: the uploads before the removals, each
  // removal as soon as its own upload is done. Removing first, each replacement holds its slot.
  const batch = (phase: 'remove' | 'replace' | 'upload', concurrency = ITEM_CONCURRENCY): Batch =>
    fits && phase !== 'remove' ? { group: `${prefix}write`, concurrency, ...(removeFirst ? {} : { bounds: 'requests' }) } : { group: `${prefix}${phase}`, concurrency };
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
    itemCount,
    describe(step, results) {
      const removal = removals.find((r) => r.step === step);
      if (removal) return `removed ${removal.old.assetItemId} (${removal.old.assetItemName}): no file of that name`;
      const added = newUploads.find((u) => u.step === step);
      if (added) return `${added.file.name} → ${results.of(added.step)!.assetItemId} (${formatSize(added.file.size)})`;
      // A replacement is told once both its writes are done.
      const replaced = replacements.find((r) => (r.removeFirst ? r.upload : r.remove) === step);
      if (!replaced) return undefined;
      const item = results.of(replaced.upload)!;
      const first = replaced.removeFirst ? ', removed first: the collection is at maxAssets' : '';
      return `${replaced.file.name} → ${item.assetItemId} (${formatSize(replaced.file.size)}), replacing ${replaced.old.assetItemId}${first}`;
    },
  };
}

/**
 * --checksum: which items are Live in an environment, and the SHA-256 of
 * what the delivery network serves for each of those asked about, by item id.
 */
export type ServedContent = (items: Item[]) => Promise<{ live: Set<string>; digests: Map<string, string> }>;

/**
 * Each file against the items of its name: the one of the same content
 * (with --checksum, for a Live item: the SHA-256 of what is served equals
 * the file's; otherwise the same size), else the newest, is the file's; the
 * items no file claims are orphans. An item that is Live nowhere (or whose
 * download failed) is compared by size.
 */
export async function compare(files: LocalFile[], items: Item[], content?: ServedContent): Promise<Comparison> {
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
  const result: Comparison = { orphans: [], replacements: [], uploads: [], unchanged: [], compared: { content: 0, size: 0, checksum: content !== undefined }, rules: new Map() };
  for (const file of files) {
    const candidates = byName.get(file.name) ?? [];
    const same = candidates.find((item) => served.has(item.assetItemId) && sameContent(file, item)) ?? candidates.find((item) => sameContent(file, item));
    const item = same ?? candidates[0];
    if (item) claimed.add(item);
    // A Live item of another size differs in content too: no download needed to say so.
    const rule = live.has(item?.assetItemId ?? '') && (item!.size !== file.size || served.has(item!.assetItemId)) ? 'content' : 'size';
    if (item) {
      result.compared[rule]++;
      result.rules.set(file.name, rule);
    }
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
export function servedContent(ctx: PlanContext, view: CollectionView): ServedContent {
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
