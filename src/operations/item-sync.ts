// item sync as an operation (issue 34): `ahs item sync` and the library's
// client.items.sync(). Its start: the folder's entries (given, or read here),
// then the collection and its items are asked for, and only then are zod,
// the rules and the plan's modules loaded and the folder's files looked at
// (./item-sync-plan.ts, which compares and plans), while those reads are in
// flight: 10 to 15 ms of the command's first round (issue 21). Arguments are
// still checked before anything is sent that a usage error could follow: the
// reads go first only when the fields of every file will pass the schema's
// check (rules/limits.ts), else the files are checked first, as the schema
// says. This module stays light: it loads no schema.
import { readdirSync, statSync } from 'node:fs';
import { UsageError, type ErrorBody } from '../errors.js';
import type { Item } from '../rules/schemas.js';
import { itemUploadFieldsFit } from '../rules/limits.js';
import { listItems, readSnapshot, type CollectionView } from '../service/collections.js';
import type { ApiClient } from '../http/client.js';
import type { Plan } from '../plan/plan.js';
import type { PlanContext } from '../plan/context.js';
import { matchesAny } from '../util/glob.js';
import { sendableName } from '../transfer/upload-name.js';
import type { FieldNames } from './validate.js';

/** What an item sync did (`ahs item sync --json`; items.sync() resolves to it): what was uploaded, replaced, removed and left as it was. */
export type ItemSyncResult = {
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
};

/** One file's line of the summary table. */
export interface SyncRow {
  file: string;
  result: 'uploaded' | 'replaced' | 'removed' | 'unchanged' | 'failed';
  item: string;
  detail: string;
}

/** For a person, beside the result: a line per file, and the reconcile's answer. */
export interface SyncDetails {
  rows: SyncRow[];
  /** The service's message when the Live deployments were re-run. */
  reconciled?: string;
}

/** The sync's plan; `details(result)` gives the summary table of the result its `done` made. */
export interface ItemSyncPlan extends Plan<ItemSyncResult> {
  details(result: ItemSyncResult): SyncDetails;
}

export interface ItemSyncInput {
  collectionId: string;
  /** The folder whose top-level files the collection should hold. */
  dir: string;
  /** DIR's entries matching `pattern` (folderEntries), when the caller read them already. */
  entries?: string[] | undefined;
  assetType: string;
  user: string;
  /** Remove the items that have no file of their name in `dir`. */
  delete?: boolean | undefined;
  followLinks?: boolean | undefined;
  /** Only files (and items) whose name matches one of these globs. */
  pattern?: string[] | undefined;
  /** Re-run the Live deployments of the collection at the end. */
  reconcile?: boolean | undefined;
  /** Compare content by SHA-256 where it can be downloaded. */
  checksum?: boolean | undefined;
}

/** The first reads, under way: each settles to its value or its error (a rejection is never left unheard while the rest loads). */
export interface SyncReads {
  api: ApiClient;
  view: Promise<{ view: CollectionView } | { error: unknown }>;
  items: Promise<{ list: Item[] } | { error: unknown }>;
}

/**
 * Compares the files at the top of DIR with the collection's items and
 * plans the writes that make the collection hold the folder (see
 * ./item-sync-plan.ts). `names` names the type's field in messages.
 */
export async function syncItems(ctx: PlanContext, input: ItemSyncInput, names: FieldNames = {}): Promise<ItemSyncPlan> {
  const { collectionId, assetType, user } = input;
  const entries = input.entries ?? folderEntries(input.dir, input.pattern ?? []);
  // Every entry's name stands for a file's (a directory's too: a superset), each sent as an item's name.
  const checked = entries.every((name) => sendableName(name) && itemUploadFieldsFit({ assetItemName: name, assetType, createdBy: user }));
  // The collection and its items at once; its deployments only where asked about: a reconcile,
  // a checksum (what is Live) and a dry run (its documents show them).
  const deployments = input.reconcile === true || input.checksum === true || ctx.globals.dryRun === true;
  const read = async (): Promise<SyncReads> => {
    const api = await ctx.api();
    return {
      api,
      items: listItems(api, collectionId).then((list) => ({ list }), (error: unknown) => ({ error })),
      view: readSnapshot(api, collectionId, { deployments }).then((view) => ({ view }), (error: unknown) => ({ error })),
    };
  };
  const reads = checked ? await read() : undefined;
  // The reads reach their sockets over a few microtasks, and the plan's modules load in one go, in the
  // microtask after the import: a turn of the event loop first, or they would leave only after it.
  if (reads) await new Promise((resolve) => setImmediate(resolve));
  const { planFolderSync } = await import('./item-sync-plan.js');
  return planFolderSync(ctx, { ...input, entries }, reads ?? read, names);
}

/** The counts of a sync's result, as its last line says them. */
export function syncCounts(result: ItemSyncResult): string {
  return `${result.uploaded.length} uploaded, ${result.replaced.length} replaced, ${result.removed.length} removed, ${result.unchanged.length} unchanged`;
}

/**
 * DIR's entries whose names match the patterns, sorted: a usage error
 * (nothing sent) when DIR is no folder or cannot be read. Synchronous: two
 * system calls, each a turn of the thread pool otherwise.
 */
export function folderEntries(dir: string, patterns: string[]): string[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder; nothing was sent`);
    names = readdirSync(dir);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${dir}: ${code === 'ENOENT' ? 'no such folder' : (error as Error).message}; nothing was sent`);
  }
  return names.sort().filter((name) => patterns.length === 0 || matchesAny(name, patterns));
}
