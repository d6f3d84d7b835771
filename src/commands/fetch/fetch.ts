// ahs fetch COLLECTION_ID [--env E] [--dir DIR] [--item ID...] [--pattern GLOB...] [--skip-existing] [--concurrency N] [--manifest]
// ahs fetch --url DOWNLOAD_URL [--dir DIR]
// ahs fetch                      (in a terminal: browse, pick, download)
//
// Resolves the collection's deployed URL in the environment, reads the
// delivery document and downloads the items in parallel into --dir, under
// names that cannot leave it (src/transfer/safe-name.ts), atomically,
// replacing what is there unless --skip-existing (src/transfer/download.ts).
import { access, constants, lstat, mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { fetchSpec } from './index.js';
import type { Context } from '../../context.js';
import { ApiError, CancelledError, ExitCode, mismatchBody, NotFoundError, PartialFailureError, UsageError } from '../../errors.js';
import type { DeliveryDocument, DeliveryEntry, Item } from '../../rules/schemas.js';
import { downloadAll, DEFAULT_CONCURRENCY, DigestMismatchError, isNetworkFailure, type DownloadSummary, type DownloadTask } from '../../transfer/download.js';
import { matchesAny } from '../../util/glob.js';
import { readSums, sumsFinder, sumsFromInside, type SumsMatch } from '../../transfer/digest.js';
import { assertInside, NameAllocator, safeFileName } from '../../transfer/safe-name.js';
import { createMultiProgress, formatBytes } from '../../io/progress.js';
import { escapeControls } from '../../util/escape.js';
import { listItems } from '../../service/collections.js';
import { configuredDeliveryUrl, deliveryBaseOf, deliveryDocumentUrl, deliveryFileUrl, readDelivery, readDeployedCollection } from '../../service/delivery.js';
import { collectionArg, liveEnvArg } from '../../pickers/pick-collection.js';
import { compareText } from '../../order.js';

export interface FetchResult extends DownloadSummary {
  collectionId: string;
  envId: string;
  dir: string;
}

export const run: Run<typeof fetchSpec> = async (options, ctx) => {
  if (options.url && options.collectionId) throw new UsageError(`give either ${nameOf(fetchSpec, 'collectionId')} or ${nameOf(fetchSpec, 'url')}, not both`);
  // The URL names the environment already: an --env beside it would be ignored.
  if (options.url && ctx.globals.env !== undefined) throw new UsageError(`--env: not used with ${nameOf(fetchSpec, 'url')} (the URL names the environment); remove it`);
  let doc: DeliveryDocument;
  let deliveryBase: string;
  let itemIds = options.item;
  let sizes = new Map<string, Item>();
  // The sums file is read before anything is sent: a bad one is exit 2.
  if (options.verify && options.manifest) throw new UsageError(`${nameOf(fetchSpec, 'verify')}: not used with ${nameOf(fetchSpec, 'manifest')} (nothing is downloaded); remove one`);
  const sums = options.verify ? await readSums(options.verify, nameOf(fetchSpec, 'verify')) : undefined;

  if (options.url) {
    // A relative URL is the delivery URL's (set by flag, environment or profile); an absolute one names its own, unless --delivery-url says otherwise.
    const url = parseUrl(options.url, await configuredDeliveryUrl(ctx));
    deliveryBase = ctx.globals.deliveryUrl ?? deliveryBaseOf(url);
    try {
      doc = await readDelivery(ctx, url.toString());
    } catch (error) {
      if (error instanceof ApiError && error.status === 403 && ctx.format !== 'json') {
        (await ctx.output()).info(
          `hint: the collection is secured. The API key (AHS_API_KEY or the profile's) is sent only to the hosts of the configured service: set --delivery-url (or --base-url) to ${deliveryBaseOf(url)} if this is it.`,
        );
      }
      throw error;
    }
  } else {
    let collectionId = options.collectionId;
    if (!collectionId && itemIds && itemIds.length > 0) {
      // `--item` takes several values, so `ahs fetch --item ID COLLECTION_ID` reads the collection as an item.
      throw new UsageError(`COLLECTION_ID is required with --item (got items ${itemIds.join(', ')}); --item takes several values, so put COLLECTION_ID first: ahs fetch COLLECTION_ID --item ITEM_ID...`);
    }
    let envId: string | undefined;
    if (!collectionId && ctx.io.canPrompt && !options.manifest) {
      const { browse } = await import('./browse.js');
      const picked = await browse(ctx);
      ({ collectionId, envId } = picked);
      itemIds = picked.itemIds;
    }
    collectionId = await collectionArg(ctx, collectionId);
    envId ??= await liveEnvArg(ctx, collectionId, 'Environment (where the collection is Live)');
    // The item records beside the delivery document's two reads, not after them.
    const records = options.manifest ? undefined : itemRecords(ctx, collectionId);
    records?.catch(() => undefined);
    ({ doc, deliveryBase } = await readDeployedCollection(ctx, collectionId, envId));
    if (records) sizes = await records;
  }

  const out = await ctx.output();
  if (options.manifest) {
    out.print(doc, (d, kit) => {
      const url = (e: DeliveryEntry) => deliveryFileUrl(deliveryBase, e.downloadUrl);
      const fit = kit.terminal ? manifestFit(d.assetItemUrls, url, terminalColumns(ctx)) : { name: Infinity, url: Infinity };
      return kit.table(
        [
          { header: 'ITEM', get: (e: DeliveryEntry) => e.assetItemId },
          { header: 'NAME', get: (e: DeliveryEntry) => middleCut(e.assetItemName, fit.name) },
          { header: 'TYPE', get: (e: DeliveryEntry) => e.mimetype },
          { header: 'ANCHOR', get: (e: DeliveryEntry) => (d.anchorAsset?.assetItemId === e.assetItemId ? 'yes' : '') },
          { header: 'URL', get: (e: DeliveryEntry) => middleCut(url(e), fit.url) },
        ],
        d.assetItemUrls,
      );
    });
    return;
  }

  const entries = selectEntries(doc, itemIds, options.pattern);
  const dir = options.dir ?? safeFileName(doc.collectionId, 'collection');
  const names = new NameAllocator();
  const tasks: DownloadTask[] = [];
  const refused: DownloadSummary['failed'] = [];
  const findSum = sums ? sumsFinder(sums) : undefined;
  const byBaseName: string[] = [];
  // Files --verify cannot check (the sums file does not list them): not downloaded, and said as such.
  const unchecked = new Set<string>();
  for (const entry of entries) {
    const record = sizes.get(entry.assetItemId);
    // The file's own name (with its extension) when the item record is at hand.
    const name = names.allocate(record?.fileName || entry.assetItemName, entry.assetItemId);
    let checking = true;
    try {
      const sha256 = expectedDigest(findSum, name, options.verify, byBaseName);
      checking = false;
      const url = deliveryFileUrl(deliveryBase, entry.downloadUrl);
      tasks.push({ id: entry.assetItemId, name, url, expectedSize: typeof record?.size === 'number' ? record.size : undefined, sha256 });
    } catch (error) {
      if (checking) unchecked.add(entry.assetItemId);
      refused.push({ id: entry.assetItemId, name, error: (error as Error).message });
      out.warn(`${name} (${entry.assetItemId}): ${(error as Error).message}`);
    }
  }

  if (byBaseName.length > 0) out.info(`${nameOf(fetchSpec, 'verify')}: matched by base name (${escapeControls(options.verify!)} names folders, the items have none): ${escapeControls(byBaseName.sort().join(', '))}`);
  const created = tasks.length > 0 ? await prepareDir(dir) : undefined;
  const links = options.skipExisting ? await linksKept(dir, tasks) : [];
  for (const link of links) out.info(`- ${link.name}: skipped, ${link.reason}`);
  const toDownload = tasks.filter((task) => !links.some((link) => link.id === task.id));
  let summary: DownloadSummary;
  const networkFailed = new Set<string>();
  const mismatched = new Set<string>();
  try {
    summary = await download(ctx, toDownload, { dir, concurrency: options.concurrency, skipExisting: options.skipExisting, deliveryBase, networkFailed, mismatched });
  } finally {
    // Nothing landed (interrupted, or every file failed): take back the folders this run made, if still empty.
    if (created) await removeEmptyDirs(dir, created);
  }
  summary.skipped.unshift(...links);
  summary.failed.push(...refused);
  const result: FetchResult = { collectionId: doc.collectionId, envId: doc.envId, dir, ...summary };
  out.print(result, (r, kit) => {
    const rows = [
      ...r.downloaded.map((f) => ({ name: f.name, id: f.id, result: kit.style.green('downloaded'), detail: formatBytes(f.bytes) })),
      ...r.skipped.map((f) => ({ name: f.name, id: f.id, result: 'skipped', detail: f.reason })),
      ...r.failed.map((f) => ({ name: f.name, id: f.id, result: kit.style.red('failed'), detail: f.error })),
    ];
    if (rows.length === 0) return undefined;
    // By name, as item sync and the picker list them.
    rows.sort((a, b) => compareText(a.name, b.name));
    return kit.table(
      [
        { header: 'FILE', get: (row: (typeof rows)[number]) => row.name },
        { header: 'ITEM', get: (row) => row.id },
        { header: 'RESULT', get: (row) => row.result },
        { header: 'DETAIL', get: (row) => row.detail },
      ],
      rows,
    );
  });
  const notChecked = summary.failed.filter((f) => unchecked.has(f.id)).length;
  const failedCount = `${summary.failed.length - notChecked} failed${notChecked > 0 ? `, ${notChecked} not checked (not in ${escapeControls(options.verify ?? 'the sums file')})` : ''}`;
  out.info(`${summary.downloaded.length} downloaded, ${summary.skipped.length} skipped, ${failedCount} → ${escapeControls(dir)}`);
  if (summary.failed.length > 0) throw failure(summary, entries.length, networkFailed, { ids: mismatched, sums: options.verify }, unchecked);
};

/**
 * --skip-existing keeps what is at an item's name: a symbolic link there
 * (to a file, a folder or nothing) is the user's, kept as it is and never
 * followed or replaced, so that item is skipped.
 */
async function linksKept(dir: string, tasks: DownloadTask[]): Promise<DownloadSummary['skipped']> {
  const kept: DownloadSummary['skipped'] = [];
  for (const task of tasks) {
    let path: string;
    try {
      path = assertInside(dir, task.name);
    } catch {
      continue; // refused by the download, with its reason
    }
    const entry = await lstat(path).catch(() => undefined);
    if (entry?.isSymbolicLink()) kept.push({ id: task.id, name: task.name, path, reason: 'a symbolic link of that name is already there (--skip-existing): kept as it is, not followed' });
  }
  return kept;
}

/**
 * The digest a file must have (--verify): its line, or the one line of its
 * base name in a folder (sumsFinder, as verify reads it; `byBaseName`
 * collects those for one line of output). A file the sums file does not
 * list, or lists in two folders, cannot be verified, so it is not downloaded.
 */
function expectedDigest(find: ((name: string) => SumsMatch) | undefined, name: string, from: string | undefined, byBaseName: string[]): DownloadTask['sha256'] {
  if (!find || from === undefined) return undefined;
  const match = find(name);
  if (match === undefined) throw new Error(`not listed in ${from} (${nameOf(fetchSpec, 'verify')}): cannot be verified, not downloaded`);
  if ('ambiguous' in match) throw new Error(`listed as ${match.ambiguous.join(' and ')} in ${from} (${nameOf(fetchSpec, 'verify')}): which is its cannot be told, not downloaded; ${sumsFromInside(match.ambiguous[0]!)}`);
  if (match.listedAs !== name) byBaseName.push(`${match.listedAs} as ${name}`);
  return { hex: match.hex, from };
}

/**
 * Any failed file is exit 1; when every failure was a network failure, exit
 * 6: retry later, nothing refused it. A file that is not the one the sums
 * file lists (--verify) is urn:ahs:mismatch, not the network's;
 * files refused by an answer (403, 404, 410...) or locally are
 * urn:ahs:rejected, the type of exit 1 (each file's status is in its row).
 */
function failure(summary: DownloadSummary, total: number, networkFailed: Set<string>, mismatch: { ids: Set<string>; sums: string | undefined }, unchecked: Set<string>): PartialFailureError {
  const notChecked = summary.failed.filter((f) => unchecked.has(f.id));
  if (notChecked.length > 0) {
    // Chosen not to be downloaded, not failed: --verify cannot check what the sums file does not list.
    const tried = summary.failed.length - notChecked.length;
    const others = tried > 0 ? `; ${tried} other file(s) failed to download: ${summary.failed.filter((f) => !unchecked.has(f.id)).map((f) => escapeControls(f.name)).join(', ')}` : '';
    const message = `${notChecked.length} of ${total} file(s) not checked, so not downloaded: ${escapeControls(mismatch.sums ?? 'the sums file')} (${nameOf(fetchSpec, 'verify')}) has no line for ${list(notChecked.map((f) => escapeControls(f.name)))}${others}`;
    const differ = summary.failed.some((f) => mismatch.ids.has(f.id));
    return new PartialFailureError(message, ExitCode.rejected, differ ? mismatchBody(message) : undefined);
  }
  const failed = `${summary.failed.length} of ${total} file(s) failed to download`;
  const differ = summary.failed.filter((f) => mismatch.ids.has(f.id)).map((f) => escapeControls(f.name));
  if (differ.length > 0) {
    const message = `${failed}: ${differ.join(', ')} ${differ.length > 1 ? 'are' : 'is'} not what ${escapeControls(mismatch.sums ?? 'the sums file')} lists (SHA-256): not saved, a copy already at the name stays as it was`;
    return new PartialFailureError(message, ExitCode.rejected, mismatchBody(message));
  }
  if (!summary.failed.every((f) => networkFailed.has(f.id))) return new PartialFailureError(failed, ExitCode.rejected);
  const message = `${failed}, each for want of an answer from the delivery network: run again later`;
  return new PartialFailureError(message, ExitCode.network, { type: 'urn:ahs:network', title: message, status: null, detail: message });
}

/** The document's entries, once each, narrowed by --item (every id must be there: exit 4) and --pattern (item names). */
function selectEntries(doc: DeliveryDocument, itemIds: string[] | undefined, patterns: string[] | undefined): DeliveryEntry[] {
  let entries = uniqueEntries(doc.assetItemUrls);
  const where = `the deployed collection ${doc.collectionId} (${doc.envId})`;
  if (itemIds && itemIds.length > 0) {
    const known = new Set(entries.map((e) => e.assetItemId));
    const missing = itemIds.filter((id) => !known.has(id));
    if (missing.length > 0) throw new NotFoundError(`${missing.length > 1 ? 'items' : 'item'} ${missing.join(', ')} not in ${where}`);
    entries = entries.filter((e) => itemIds.includes(e.assetItemId));
  }
  if (patterns && patterns.length > 0) {
    entries = entries.filter((e) => matchesAny(e.assetItemName, patterns));
    if (entries.length === 0) throw new NotFoundError(`no item of ${where} has a name matching ${nameOf(fetchSpec, 'pattern')} ${patterns.join(' ')}`);
  }
  return entries;
}

/**
 * The target folder exists (created when missing, one level at a time) and is
 * a writable folder: otherwise a usage error naming --dir, at once. (A
 * recursive mkdir under /proc never returns.) Returns the first folder it
 * created (dir itself or a parent), undefined when dir was already there.
 */
async function prepareDir(dir: string): Promise<string | undefined> {
  const refuse = (why: string) => new UsageError(`${nameOf(fetchSpec, 'dir')} ${dir}: cannot download into it: ${why}; pass another ${nameOf(fetchSpec, 'dir')}`);
  const missing: string[] = [];
  let existing = resolve(dir);
  for (;;) {
    const found = await stat(existing).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw refuse(reason(error));
    });
    if (found) {
      if (!found.isDirectory()) throw refuse('it (or a parent) exists and is not a folder');
      break;
    }
    missing.unshift(existing);
    if (dirname(existing) === existing) throw refuse('no existing parent folder');
    existing = dirname(existing);
  }
  await access(existing, constants.W_OK | constants.X_OK).catch((error: NodeJS.ErrnoException) => {
    throw refuse(reason(error));
  });
  for (const [index, folder] of missing.entries()) {
    try {
      await mkdir(folder);
    } catch (error) {
      if (index > 0) await removeEmptyDirs(missing[index - 1]!, missing[0]!);
      throw refuse(reason(error as NodeJS.ErrnoException));
    }
  }
  return missing[0];
}

function reason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return 'it (or a parent) exists and is not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOENT':
      return 'folders cannot be created there';
    default:
      return error.message;
  }
}

/** Removes dir and its parents up to `top` (the first folder this run created), each only while empty. */
async function removeEmptyDirs(dir: string, top: string): Promise<void> {
  const stop = resolve(top);
  for (let current = resolve(dir); ; current = dirname(current)) {
    try {
      await rmdir(current); // fails on a folder with anything in it: that one stays
    } catch {
      return;
    }
    if (current === stop || dirname(current) === current) return;
  }
}

function terminalColumns(ctx: Context): number {
  const columns = (ctx.io.out as { columns?: number }).columns;
  return typeof columns === 'number' && columns > 20 ? columns : 80;
}

/**
 * Widths of the NAME and URL columns of the manifest table so that a row fits
 * `columns` (a wrapped bordered table is unreadable): the fixed columns keep
 * their width, NAME and URL share the rest, each losing its middle.
 */
function manifestFit(entries: DeliveryEntry[], url: (e: DeliveryEntry) => string, columns: number): { name: number; url: number } {
  const widest = (header: string, values: string[]) => Math.max(header.length, ...values.map((v) => [...v].length));
  const fixed = widest('ITEM', entries.map((e) => e.assetItemId)) + widest('TYPE', entries.map((e) => e.mimetype)) + widest('ANCHOR', []);
  const names = widest('NAME', entries.map((e) => e.assetItemName));
  const urls = widest('URL', entries.map(url));
  // Each of the 5 columns adds a space either side and a border; one more border closes the row.
  const room = columns - fixed - 5 * 3 - 1;
  if (names + urls <= room) return { name: names, url: urls };
  const name = Math.min(names, Math.max(12, Math.floor(room / 2)));
  return { name, url: Math.max(12, room - name) };
}

/** `text` in at most `max` characters, cut in the middle (the start and the end of a name or URL say the most). */
function middleCut(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const keep = max - 1;
  return `${chars.slice(0, Math.ceil(keep / 2)).join('')}…${chars.slice(chars.length - Math.floor(keep / 2)).join('')}`;
}

/** --url: an absolute http(s) URL, or one relative to the delivery URL set ("/api/vi/..."), joined to it as cli.md says. */
function parseUrl(value: string, deliveryUrl: string | undefined): URL {
  if (value.startsWith('/') && !value.startsWith('//')) {
    if (!deliveryUrl) throw new UsageError(`--url ${JSON.stringify(value)} is relative: set the delivery URL it is relative to with --delivery-url (or AHS_DELIVERY_URL, or the profile's deliveryUrl)`);
    return new URL(deliveryDocumentUrl(value, deliveryUrl, deliveryUrl));
  }
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return url;
  } catch {
    throw new UsageError(`--url must be an http(s) URL (got ${JSON.stringify(value)})`);
  }
}

function uniqueEntries(entries: DeliveryEntry[]): DeliveryEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.assetItemId) && seen.add(e.assetItemId));
}

/** Item records (file names with extensions, sizes for the integrity check), when the key can read them. */
async function itemRecords(ctx: Context, collectionId: string): Promise<Map<string, Item>> {
  try {
    const api = await ctx.api();
    const items = await listItems(api, collectionId);
    return new Map(items.map((item) => [item.assetItemId, item]));
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return new Map();
  }
}

/**
 * Downloads with a line per file in flight and the total (live in a terminal,
 * periodic lines in CI, nothing with -q), and a line per finished file;
 * Ctrl-C cleans up (CancelledError, exit 130).
 */
export async function download(
  ctx: Context,
  tasks: DownloadTask[],
  options: { dir: string; concurrency?: number; skipExisting?: boolean; deliveryBase: string; networkFailed?: Set<string>; mismatched?: Set<string> },
): Promise<DownloadSummary> {
  const out = await ctx.output();
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  // One connection per download in flight (issue 21).
  const client = await ctx.deliveryClient(options.deliveryBase, concurrency);
  let known = tasks.reduce((sum, t) => sum + (t.expectedSize ?? 0), 0);
  const allKnown = tasks.every((t) => t.expectedSize !== undefined);
  const progress = createMultiProgress(ctx.io, {
    label: tasks.length === 1 ? `downloading ${tasks[0]!.name}` : `downloading ${tasks.length} files`,
    total: allKnown ? known : undefined,
    files: tasks.length,
    quiet: ctx.globals.quiet,
    live: ctx.globals.verbose ? false : undefined,
  });
  try {
    return await downloadAll(tasks, {
      dir: options.dir,
      concurrency,
      skipExisting: options.skipExisting,
      signal: ctx.signal,
      open: async (task) => {
        const response = await client.send({ method: 'GET', path: task.url, headers: { accept: '*/*' } });
        return { status: response.status, headers: response.headers, body: response.body };
      },
      onEvent: (event) => {
        switch (event.type) {
          case 'start':
            progress.start(event.task.id, event.task.name, event.size);
            break;
          case 'progress':
            progress.update(event.task.id, event.bytes, event.size);
            break;
          case 'done':
            progress.finish(event.task.id);
            progress.log(() => out.info(`✓ ${event.task.name} (${formatBytes(event.bytes)})`));
            break;
          case 'skipped':
            // Nothing to transfer for it: out of the total.
            if (allKnown) progress.setTotal((known -= event.task.expectedSize ?? 0));
            progress.log(() => out.info(`- ${event.task.name}: skipped, ${event.reason}`));
            break;
          case 'failed':
            if (isNetworkFailure(event.error)) options.networkFailed?.add(event.task.id);
            if (event.error instanceof DigestMismatchError) options.mismatched?.add(event.task.id);
            progress.finish(event.task.id);
            progress.log(() => out.warn(`${event.task.name} (${event.task.id}): ${event.error.message}`));
            break;
        }
      },
    });
  } catch (error) {
    progress.stop();
    if (error instanceof CancelledError) throw new CancelledError('interrupted; partial downloads removed');
    throw error;
  } finally {
    progress.stop();
    await client.close().catch(() => {});
  }
}

/** Names for a message: the first few, then how many more. */
function list(names: string[], shown = 5): string {
  return names.length <= shown ? names.join(', ') : `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}
