// ahs item sync COLLECTION_ID DIR --type CODE [--delete] [--pattern GLOB...] [--reconcile]
// Its start: the folder's entries and the settings, then the collection and
// its items are asked for, and only then are zod, the rules and the plan's
// modules loaded and the folder's files looked at (./sync-plan.ts, which
// compares, plans and reports), while those reads are in flight: 10 to 15
// ms of the command's first round (issue 21). Arguments are still checked
// before anything is sent that a usage error could follow: the reads go
// first only when the fields of every file will pass the schema's check
// (rules/limits.ts), else the files are checked first, as the schema says.
import { readdirSync, statSync } from 'node:fs';
import type { Run } from '../define.js';
import type { syncSpec } from './index.js';
import { ExitCode, PartialFailureError, UsageError } from '../../errors.js';
import type { Plan } from '../../plan/plan.js';
import { itemUploadFieldsFit } from '../../rules/limits.js';
import { actingUser } from '../../pickers/acting-user.js';
import { listItems, readSnapshot, type CollectionView } from '../../service/collections.js';
import { matchesAny } from '../../util/glob.js';
import { sendableName } from '../../transfer/upload-name.js';
import type { Item } from '../../rules/schemas.js';
import type { ApiClient } from '../../http/client.js';

/** The first reads, under way: each settles to its value or its error (a rejection is never left unheard while the rest loads). */
export interface SyncReads {
  api: ApiClient;
  view: Promise<{ view: CollectionView } | { error: unknown }>;
  items: Promise<{ list: Item[] } | { error: unknown }>;
}

export const run: Run<typeof syncSpec> = async (options, ctx) => {
  const { collectionId, dir } = options;
  const names = folderEntries(dir, options.pattern ?? []);
  // Not given (or empty): asked for, from the collection's types, or a usage error (pick-collection.ts, with its schemas).
  const assetType = options.type || (await (await import('../../pickers/pick-collection.js')).assetTypeArg(ctx, collectionId, undefined));
  const user = await actingUser(ctx);
  // Every entry's name stands for a file's (a directory's too: a superset), each sent as an item's name.
  const checked = names.every((name) => sendableName(name) && itemUploadFieldsFit({ assetItemName: name, assetType, createdBy: user }));
  // The collection and its items at once; its deployments only where asked about: --reconcile,
  // --checksum (what is Live) and a dry run (its documents show them).
  const deployments = options.reconcile === true || options.checksum === true || ctx.globals.dryRun === true;
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
  const { syncFolder } = await import('./sync-plan.js');
  const plan = await syncFolder(options, ctx, { names, assetType, user, reads: reads ?? read });
  return plan && networkFailuresExit6(plan);
};

/**
 * cli.md's exit code 6, as fetch and item upload: when every failure of the
 * sync was for want of an answer (each step's error exit 6, lost answers and
 * unknown outcomes included), the run exits 6, not 1: run it again later.
 */
function networkFailuresExit6(plan: Plan): Plan {
  const done = plan.done.bind(plan);
  return {
    ...plan,
    async done(results) {
      try {
        await done(results);
      } catch (error) {
        const failures = plan.steps.map((step) => results.failureOf(step)).filter((f) => f !== undefined && !f.skipped);
        const network = failures.length > 0 && failures.every((f) => f!.error.exitCode === ExitCode.network);
        if (!(error instanceof PartialFailureError) || error.exitCode !== ExitCode.rejected || !network) throw error;
        const first = error.first ?? { type: 'urn:ahs:network', title: error.message, status: null, detail: error.message };
        throw new PartialFailureError(error.message, ExitCode.network, first);
      }
    },
  };
}

/**
 * DIR's entries whose names match --pattern, sorted: a usage error (nothing
 * sent) when DIR is no folder or cannot be read. Synchronous: two system
 * calls, each a turn of the thread pool otherwise.
 */
function folderEntries(dir: string, patterns: string[]): string[] {
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
