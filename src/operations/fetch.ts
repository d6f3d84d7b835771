// Downloads as operations (issue 35): a deployed collection's items into a
// folder (`ahs fetch`, client.fetch) and a version's file to a path (`ahs
// version download`, client.versions.download). Typed input, already
// resolved (no picker, no setting read here: the command asks, the library
// is given); the result is the JSON document the command prints. Files are
// streamed and written atomically (src/transfer/download.ts), under names
// that cannot leave the folder (src/transfer/safe-name.ts); each file's
// bytes go to the context's progress (the CLI's bars, the library's
// `bytes` events).
import { access, constants, lstat, mkdir, rmdir, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { streamBody, type AnswerBody } from '../http/body.js';
import { basename, dirname, resolve } from 'node:path';
import { ApiError, CancelledError, ExitCode, mismatchBody, NotFoundError, PartialFailureError, UsageError, type AhsError } from '../errors.js';
import { SERVICE_ERROR_TYPE_FALLBACK } from '../http/errors.js';
import { deliveryDocument, type AssetUrl, type DeliveryDocument, type DeliveryEntry, type Item, type Version } from '../rules/schemas.js';
import { formatSize } from '../rules/assets.js';
import { DownloadHttpError, downloadAll, type Renamed, DEFAULT_CONCURRENCY, DigestMismatchError, isNetworkFailure, type DownloadSummary, type DownloadTask } from '../transfer/download.js';
import { readSums, sumsFinder, sumsFromInside, type Sums, type SumsMatch } from '../transfer/digest.js';
import { assertInside, NameAllocator, safeFileName } from '../transfer/safe-name.js';
import { matchesAny } from '../util/glob.js';
import { escapeControls } from '../util/escape.js';
import { listItems } from '../service/collections.js';
import { getVersion, listRecords } from '../service/assets.js';
import { configuredDeliveryUrl, deliveryBaseOf, deliveryDocumentUrl, deliveryFileUrl, readDelivery, readDeployedCollection, servedUrl } from '../service/delivery.js';
import type { PlanContext } from '../plan/context.js';

/**
 * How the caller named each input (the CLI's flags and arguments; the
 * library's parameters), for messages; deliveryUrl and baseUrl are settings
 * (the CLI's flags, environment and profile; the client's options).
 */
export type FetchNames = (field: 'url' | 'dir' | 'pattern' | 'skipExisting' | 'verify' | 'deliveryUrl' | 'baseUrl') => string;

const PARAMETER_NAMES: FetchNames = (field) => (field === 'deliveryUrl' || field === 'baseUrl' ? `the client's ${field}` : field);

/** What a fetch did (`ahs fetch --json`; fetch() resolves to it). `path`: where the file is; `name`: its name in `dir`. */
export interface FetchResult extends DownloadSummary {
  collectionId: string;
  envId: string;
  dir: string;
}

/** Where the delivery document is read: a collection deployed in an environment, or a deployed collection URL. */
export type FetchSource = { collectionId: string; envId: string } | { url: string };

/** A delivery document, where its files come from, and the item records beside it (names with extensions, sizes). */
export interface Delivered {
  doc: DeliveryDocument;
  deliveryBase: string;
  records: Map<string, Item>;
}

export interface FetchInput {
  source: FetchSource;
  /** The folder to download into (default: a folder named after the collection, in the current folder); created when missing. */
  dir?: string | undefined;
  /** Only these items (each must be in the document). */
  itemIds?: string[] | undefined;
  /** Only items whose name matches one of these globs. */
  patterns?: string[] | undefined;
  /** Keep a file (or a symbolic link, not followed) already at an item's name as it is (default: replaced). */
  skipExisting?: boolean | undefined;
  /** Files downloaded at the same time (default 8). */
  concurrency?: number | undefined;
  /** A sums file (SHA256SUMS, as `sha256sum -c` reads it): each file takes its name only when its SHA-256 is the one listed. */
  verify?: string | undefined;
  /** The sums file, already read (the CLI reads it before anything else); read from `verify` when absent. */
  sums?: Sums | undefined;
}

export interface Fetched {
  result: FetchResult;
  /** Files chosen not to be downloaded because the sums file has no line for them. */
  notChecked: number;
  /** Set when any file failed: the run's error (exit 1, or 6 when only the network failed), thrown after the result is shown. */
  failure?: PartialFailureError;
}

/**
 * The delivery document of a source: a --url as given (relative to the
 * delivery URL set), or the collection's deployed URL in the environment,
 * with the item records read beside it (`records`: false for the manifest,
 * which needs none).
 */
export async function readFetchSource(ctx: PlanContext, source: FetchSource, options: { records?: boolean } = {}, names: FetchNames = PARAMETER_NAMES): Promise<Delivered> {
  if ('url' in source) {
    // A relative URL is the delivery URL's (set by flag, environment or profile); an absolute one names its own, unless --delivery-url says otherwise.
    const url = parseUrl(source.url, await configuredDeliveryUrl(ctx), names);
    const deliveryBase = ctx.globals.deliveryUrl ?? deliveryBaseOf(url);
    try {
      return { doc: await readDelivery(ctx, url.toString()), deliveryBase, records: new Map() };
    } catch (error) {
      const out = await ctx.output();
      if (error instanceof ApiError && error.status === 403 && !out.json) {
        out.info(`hint: the collection is secured. The API key is sent only to the hosts of the configured service: set ${names('deliveryUrl')}, or ${names('baseUrl')}, to ${deliveryBaseOf(url)} if this is it.`);
      }
      throw error;
    }
  }
  // The item records beside the delivery document's two reads, not after them.
  const records = options.records === false ? undefined : itemRecords(ctx, source.collectionId);
  records?.catch(() => undefined);
  const { doc, deliveryBase } = await readDeployedCollection(ctx, source.collectionId, source.envId);
  return { doc, deliveryBase, records: records ? await records : new Map() };
}

/**
 * Downloads the items of a deployed collection (narrowed by `itemIds` and
 * `patterns`) into `dir`, in parallel, each atomically. A file that fails
 * does not stop the others: the result lists it, and `failure` is the
 * run's error. Interrupted (ctx.signal): CancelledError, partial files
 * removed, and a folder this run made removed again when nothing landed.
 */
export async function fetchCollection(ctx: PlanContext, input: FetchInput, names: FetchNames = PARAMETER_NAMES): Promise<Fetched> {
  // The sums file is read before anything is sent: a bad one is a usage error.
  const sums = input.sums ?? (input.verify !== undefined ? await readSums(input.verify, names('verify')) : undefined);
  const delivered = await readFetchSource(ctx, input.source, {}, names);
  return fetchDelivered(ctx, delivered, { ...input, sums }, names);
}

async function fetchDelivered(ctx: PlanContext, { doc, deliveryBase, records }: Delivered, input: FetchInput, names: FetchNames): Promise<Fetched> {
  const out = await ctx.output();
  const entries = selectEntries(doc, input.itemIds, input.patterns, names);
  const dir = input.dir ?? safeFileName(doc.collectionId, 'collection');
  const allocator = new NameAllocator();
  const tasks: DownloadTask[] = [];
  const refused: DownloadSummary['failed'] = [];
  const findSum = input.sums ? sumsFinder(input.sums) : undefined;
  const byBaseName: string[] = [];
  const renames = new Map<string, Renamed>();
  // Files the sums file cannot check (it does not list them): not downloaded, and said as such.
  const unchecked = new Set<string>();
  for (const entry of entries) {
    const record = records.get(entry.assetItemId);
    // The file's own name (with its extension) when the item record is at hand.
    const own = record?.fileName || entry.assetItemName;
    const allocated = allocator.allocateNamed(own, entry.assetItemId);
    const name = allocated.name;
    if (allocated.reason !== undefined) {
      renames.set(entry.assetItemId, { from: own ?? '', reason: allocated.reason });
      out.warn(`${escapeControls(JSON.stringify(own ?? ''))} (${entry.assetItemId}) is written as ${escapeControls(name)}: ${allocated.reason}`);
    }
    let checking = true;
    try {
      const sha256 = expectedDigest(findSum, name, input.verify, byBaseName, names('verify'));
      checking = false;
      const url = deliveryFileUrl(deliveryBase, entry.downloadUrl);
      tasks.push({ id: entry.assetItemId, name, url, expectedSize: typeof record?.size === 'number' ? record.size : undefined, sha256 });
    } catch (error) {
      if (checking) unchecked.add(entry.assetItemId);
      refused.push({ id: entry.assetItemId, name, error: (error as Error).message });
      out.warn(`${name} (${entry.assetItemId}): ${(error as Error).message}`);
    }
  }

  if (byBaseName.length > 0) out.info(`${names('verify')}: matched by base name (${escapeControls(input.verify!)} names folders, the items have none): ${escapeControls(byBaseName.sort().join(', '))}`);
  const created = tasks.length > 0 ? await prepareDir(dir, names('dir')) : undefined;
  const links = input.skipExisting ? await linksKept(dir, tasks, names('skipExisting')) : [];
  for (const link of links) out.info(`- ${link.name}: skipped, ${link.reason}`);
  const toDownload = tasks.filter((task) => !links.some((link) => link.id === task.id));
  let summary: DownloadSummary;
  const networkFailed = new Set<string>();
  const mismatched = new Set<string>();
  try {
    summary = await download(ctx, toDownload, { dir, concurrency: input.concurrency, skipExisting: input.skipExisting, skipExistingName: names('skipExisting'), deliveryBase, networkFailed, mismatched });
  } finally {
    // Nothing landed (interrupted, or every file failed): take back the folders this run made, if still empty.
    if (created) await removeEmptyDirs(dir, created);
  }
  summary.skipped.unshift(...links);
  summary.failed.push(...refused);
  if (renames.size > 0) for (const row of [...summary.downloaded, ...summary.skipped, ...summary.failed]) if (renames.has(row.id)) row.renamed = renames.get(row.id)!;
  const result: FetchResult = { collectionId: doc.collectionId, envId: doc.envId, dir, ...summary };
  const notChecked = summary.failed.filter((f) => unchecked.has(f.id)).length;
  const failure = summary.failed.length > 0 ? failed(summary, entries.length, networkFailed, { ids: mismatched, sums: input.verify }, unchecked, names('verify')) : undefined;
  return failure ? { result, notChecked, failure } : { result, notChecked };
}

/** The JSON document of `ahs fetch --url` of a file (a version's download URL, as a rollout's AHS_ROLLOUT_URL). */
export interface FetchFileResult extends DownloadSummary {
  /** The URL as read. */
  url: string;
  dir: string;
}

/** What `fetch --url` answers: a collection's items (its delivery document), or the one file the URL is. */
export interface FetchedUrl {
  result: FetchResult | FetchFileResult;
  notChecked: number;
  failure?: AhsError;
}

/** The most of a JSON answer read to tell a collection's delivery document from a JSON file (a delivery document of 5,000 items is about 1 MB). */
const DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * `ahs fetch --url URL`: one GET of the URL, whose answer says what it is.
 * A collection's delivery document (JSON of that shape): its items, as
 * fetchCollection fetches them. Any other answer of 200 (a version's file:
 * the downloadUrl of its asset-urls record, a rollout check's
 * AHS_ROLLOUT_URL): that file, streamed into `dir` (default: the current
 * folder) under the URL's last path segment, atomically (a partial file
 * never takes the name). An HTML page is neither and is refused; an error
 * answer is the file's failure (exit by its status: 403 is 3, 404 is 4).
 * The key goes only to the hosts of the configured service (the delivery
 * client decides), so a check run by a rollout reads a secured version
 * with the run's own settings.
 */
export async function fetchUrl(ctx: PlanContext, input: FetchInput & { source: { url: string } }, names: FetchNames = PARAMETER_NAMES): Promise<FetchedUrl> {
  const sums = input.sums ?? (input.verify !== undefined ? await readSums(input.verify, names('verify')) : undefined);
  const url = parseUrl(input.source.url, await configuredDeliveryUrl(ctx), names);
  const deliveryBase = ctx.globals.deliveryUrl ?? deliveryBaseOf(url);
  const out = await ctx.output();
  const client = await ctx.deliveryClient(url.origin, 1);
  let closed = false;
  const close = async () => {
    if (!closed) await client.close().catch(() => undefined);
    closed = true;
  };
  try {
    const response = await client.send({ method: 'GET', path: url.toString(), headers: { accept: '*/*' } });
    const type = String(headerOf(response.headers['content-type']) ?? '');
    let body = response.body;
    const length = Number(headerOf(response.headers['content-length']) ?? NaN);
    // A JSON answer may be a collection's delivery document: read whole (unless announced larger than any), then told.
    if (response.status === 200 && /json/i.test(type) && !(length > DOCUMENT_BYTES)) {
      const bytes = await collectBytes(body, DOCUMENT_BYTES);
      if (!bytes) throw new UsageError(`${names('url')} ${url.toString()} answered JSON of more than ${DOCUMENT_BYTES / 1024 / 1024} MiB without saying its length: nothing saved`);
      const doc = parsedDocument(bytes);
      if (doc) {
        await close();
        const found = await fetchDelivered(ctx, { doc, deliveryBase, records: new Map() }, { ...input, sums }, names);
        return found;
      }
      body = streamBody(Readable.from([bytes]));
    }
    if (response.status === 200 && /text\/html/i.test(type)) {
      body.destroy();
      throw new UsageError(`${names('url')} ${url.toString()} answered an HTML page, neither a file nor a collection's delivery document: check the URL (a version's downloadUrl, as AHS_ROLLOUT_URL gives it, or a deployed collection's URL)`);
    }
    if ((input.itemIds?.length ?? 0) > 0 || (input.patterns?.length ?? 0) > 0) {
      body.destroy();
      throw new UsageError(`${names('url')} ${url.toString()} is one file, not a collection: it has no items to choose (remove --item and --pattern)`);
    }
    const segment = url.pathname.split('/').filter(Boolean).pop() ?? '';
    let raw = segment;
    try {
      raw = decodeURIComponent(segment);
    } catch {
      /* kept as it is */
    }
    const name = safeFileName(raw, 'download');
    if (name !== raw) out.warn(`${escapeControls(JSON.stringify(raw))} is written as ${escapeControls(name)}: not a file name here`);
    const dir = input.dir ?? '.';
    const byBaseName: string[] = [];
    let sha256: DownloadTask['sha256'];
    try {
      sha256 = expectedDigest(sums ? sumsFinder(sums) : undefined, name, input.verify, byBaseName, names('verify'));
    } catch (error) {
      body.destroy();
      throw new UsageError(`${name}: ${(error as Error).message}`);
    }
    const task: DownloadTask = { id: name, name, url: url.toString(), ...(sha256 ? { sha256 } : {}) };
    const created = await prepareDir(dir, names('dir'));
    const progress = await ctx.progress(`downloading ${name}`);
    let error: Error | undefined;
    let summary: DownloadSummary;
    try {
      summary = await downloadAll([task], {
        dir,
        signal: ctx.signal,
        skipExisting: input.skipExisting,
        skipExistingName: names('skipExisting'),
        open: async () => ({ status: response.status, headers: response.headers, body }),
        onEvent: (event) => {
          if (event.type === 'progress') progress.update(event.bytes, event.size);
          if (event.type === 'failed') error = event.error;
        },
      });
      progress.done();
    } catch (thrown) {
      progress.stop();
      if (thrown instanceof CancelledError && ctx.signal.aborted) throw interrupted(ctx, thrown.message);
      throw thrown;
    } finally {
      if (created) await removeEmptyDirs(dir, created);
    }
    const result: FetchFileResult = { url: url.toString(), dir, ...summary };
    if (summary.failed.length === 0) return { result, notChecked: 0 };
    if (error instanceof DownloadHttpError && error.status === 403 && !out.json) {
      out.info(`hint: what the URL serves is secured. The API key is sent only to the hosts of the configured service: set ${names('deliveryUrl')}, or ${names('baseUrl')}, to ${deliveryBaseOf(url)} if this is it.`);
    }
    return { result, notChecked: 0, failure: error instanceof DigestMismatchError ? new PartialFailureError(`${escapeControls(name)} is not what ${escapeControls(input.verify ?? 'the sums file')} lists (SHA-256): not saved, a copy already at the name stays as it was`, ExitCode.rejected, mismatchBody(`${name} is not what the sums file lists`)) : downloadFailed(task, error) };
  } finally {
    await close();
  }
}

/** The first value of a header. */
function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The whole body, when it is at most `limit` bytes; undefined (the body consumed) when longer. */
async function collectBytes(body: AnswerBody, limit: number): Promise<Buffer | undefined> {
  const pieces: Buffer[] = [];
  let size = 0;
  await body.consume((piece) => {
    size += piece.length;
    if (size <= limit) pieces.push(Buffer.from(piece));
  });
  return size <= limit ? Buffer.concat(pieces) : undefined;
}

/** The delivery document the bytes are, or undefined (another JSON file, or not JSON). */
function parsedDocument(bytes: Buffer): DeliveryDocument | undefined {
  try {
    const parsed = deliveryDocument.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON document of `ahs version download` (and client.versions.download's result). */
export interface VersionDownloadResult {
  assetId: string;
  versionId: string;
  /** The environment it came from. */
  envId: string;
  targetPlatform: string;
  downloadUrl: string;
  /** Where it was written. */
  path: string;
  bytes: number;
}

/** Parameters of versions.download() (`ahs version download`). */
export interface VersionDownloadInput {
  assetId: string;
  versionId: string;
  /** The environment to download from; absent: the first where the version is LIVE or DEFAULT. */
  envId?: string | undefined;
  /** Where to write the file (default: the version's file name, in the current folder); a file there is replaced whole. */
  out?: string | undefined;
}

/**
 * A version's file through its deployed URL (asset-urls downloadUrl), from
 * the environment asked for or the first where it is LIVE or DEFAULT;
 * written atomically and streamed, as fetch writes items. A version
 * deployed nowhere is a NotFoundError naming the deploy that would give it
 * a URL; a refused download is the answer's error (exit by its status).
 */
export async function downloadVersion(ctx: PlanContext, input: VersionDownloadInput): Promise<VersionDownloadResult> {
  const { assetId, versionId } = input;
  const api = await ctx.api();
  const version = await getVersion(api, assetId, versionId);
  const entry = await deployedEntry(ctx, assetId, version, input.envId);
  const path = input.out ?? safeFileName(version.fileName, versionId);
  // As fetch: the URL the service gave, on the delivery host set by --delivery-url when there is one.
  const { url, deliveryBase } = await servedUrl(ctx, api, entry.downloadUrl);
  const bytes = await downloadOne(ctx, { id: versionId, name: basename(path), url }, dirname(path), deliveryBase);
  return { assetId, versionId, envId: entry.envId, targetPlatform: version.targetPlatform, downloadUrl: entry.downloadUrl, path, bytes };
}

/** The version's deployed URL entry: in the environment asked for, else the first where it is LIVE or DEFAULT. */
async function deployedEntry(ctx: PlanContext, assetId: string, version: Version, envId: string | undefined): Promise<AssetUrl & { downloadUrl: string }> {
  const records = await listRecords(await ctx.api(), assetId, { platform: version.targetPlatform, envId });
  const mine = records.filter((r) => r.versionId === version.versionId);
  const served = mine.find((r): r is AssetUrl & { downloadUrl: string } => r.state !== 'OFFLINE' && typeof r.downloadUrl === 'string');
  if (served) return served;
  const where = envId ? `in ${envId}` : 'anywhere';
  const state = mine[0] ? `it is ${mine[0].state} there` : 'it is not deployed there';
  const deploy = `ahs deploy ${assetId} ${version.versionId} --platform ${version.targetPlatform} --env ${envId ?? 'ENV'}`;
  throw new NotFoundError(
    `${version.versionId} of ${assetId} has no download URL ${where} (${envId ? state : 'it is LIVE or DEFAULT in no environment'}): only a deployed version can be downloaded; deploy it first (${deploy})`,
  );
}

/** One file into `dir`, with a progress bar; its failure is the call's (exit 4 for a 404, 3 for a 403, 6 for the network). */
async function downloadOne(ctx: PlanContext, task: DownloadTask, dir: string, deliveryBase: string): Promise<number> {
  const client = await ctx.deliveryClient(deliveryBase, 1);
  const progress = await ctx.progress(`downloading ${task.name}`);
  let failure: Error | undefined;
  try {
    const summary = await downloadAll([task], {
      dir,
      signal: ctx.signal,
      open: async (t) => {
        const response = await client.send({ method: 'GET', path: t.url, headers: { accept: '*/*' } });
        return { status: response.status, headers: response.headers, body: response.body };
      },
      onEvent: (event) => {
        if (event.type === 'progress') progress.update(event.bytes, event.size);
        if (event.type === 'failed') failure = event.error;
      },
    });
    const done = summary.downloaded[0];
    if (!done) throw downloadFailed(task, failure);
    progress.done();
    return done.bytes;
  } catch (error) {
    progress.stop();
    if (error instanceof CancelledError && ctx.signal.aborted) throw interrupted(ctx, error.message);
    throw error;
  } finally {
    await client.close().catch(() => {});
  }
}

/** An interrupted download, with the abort's reason as its cause (a library caller's `controller.abort(reason)`; the CLI's own is not a cause). */
function interrupted(ctx: PlanContext, message: string): CancelledError {
  const reason: unknown = ctx.signal.reason;
  return new CancelledError(message, reason instanceof CancelledError ? {} : { cause: reason });
}

function downloadFailed(task: DownloadTask, error: Error | undefined): AhsError {
  // The answer as every other command reports it (fetch --url, the API's reads): its
  // error body unchanged, exit by its status (a 404 is 4).
  if (error instanceof ApiError) return error;
  const message = `${task.name} was not downloaded: ${error?.message ?? 'unknown error'}`;
  if (error instanceof DownloadHttpError) {
    // An answer without the service's error body (not shown for delivery, spec): the four fields, with its status.
    return new PartialFailureError(message, codeOf(error.status), { type: SERVICE_ERROR_TYPE_FALLBACK, title: message, status: error.status, detail: message });
  }
  // Network only for want of an answer; a file that could not be written here is exit 1, urn:ahs:rejected.
  if (!error || !isNetworkFailure(error)) return new PartialFailureError(message, ExitCode.rejected);
  return new PartialFailureError(message, ExitCode.network, { type: 'urn:ahs:network', title: message, status: null, detail: message });
}

function codeOf(status: number): ExitCode {
  if (status === 404) return ExitCode.notFound;
  if (status === 403 || status === 401) return ExitCode.forbidden;
  return ExitCode.rejected;
}

/**
 * --skip-existing keeps what is at an item's name: a symbolic link there
 * (to a file, a folder or nothing) is the user's, kept as it is and never
 * followed or replaced, so that item is skipped.
 */
async function linksKept(dir: string, tasks: DownloadTask[], flag: string): Promise<DownloadSummary['skipped']> {
  const kept: DownloadSummary['skipped'] = [];
  for (const task of tasks) {
    let path: string;
    try {
      path = assertInside(dir, task.name);
    } catch {
      continue; // refused by the download, with its reason
    }
    const entry = await lstat(path).catch(() => undefined);
    if (entry?.isSymbolicLink()) kept.push({ id: task.id, name: task.name, path, reason: `a symbolic link of that name is already there (${flag}): kept as it is, not followed` });
  }
  return kept;
}

/**
 * The digest a file must have (--verify): its line, or the one line of its
 * base name in a folder (sumsFinder, as verify reads it; `byBaseName`
 * collects those for one line of output). A file the sums file does not
 * list, or lists in two folders, cannot be verified, so it is not downloaded.
 */
function expectedDigest(find: ((name: string) => SumsMatch) | undefined, name: string, from: string | undefined, byBaseName: string[], flag: string): DownloadTask['sha256'] {
  if (!find || from === undefined) return undefined;
  const match = find(name);
  if (match === undefined) throw new Error(`not listed in ${from} (${flag}): cannot be verified, not downloaded`);
  if ('ambiguous' in match) throw new Error(`listed as ${match.ambiguous.join(' and ')} in ${from} (${flag}): which is its cannot be told, not downloaded; ${sumsFromInside(match.ambiguous[0]!)}`);
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
function failed(summary: DownloadSummary, total: number, networkFailed: Set<string>, mismatch: { ids: Set<string>; sums: string | undefined }, unchecked: Set<string>, flag: string): PartialFailureError {
  const notChecked = summary.failed.filter((f) => unchecked.has(f.id));
  if (notChecked.length > 0) {
    // Chosen not to be downloaded, not failed: --verify cannot check what the sums file does not list.
    const tried = summary.failed.length - notChecked.length;
    const others = tried > 0 ? `; ${tried} other file(s) failed to download: ${summary.failed.filter((f) => !unchecked.has(f.id)).map((f) => escapeControls(f.name)).join(', ')}` : '';
    const message = `${notChecked.length} of ${total} file(s) not checked, so not downloaded: ${escapeControls(mismatch.sums ?? 'the sums file')} (${flag}) has no line for ${list(notChecked.map((f) => escapeControls(f.name)))}${others}`;
    const differ = summary.failed.some((f) => mismatch.ids.has(f.id));
    return new PartialFailureError(message, ExitCode.rejected, differ ? mismatchBody(message) : undefined);
  }
  const failedCount = `${summary.failed.length} of ${total} file(s) failed to download`;
  const differ = summary.failed.filter((f) => mismatch.ids.has(f.id)).map((f) => escapeControls(f.name));
  if (differ.length > 0) {
    const message = `${failedCount}: ${differ.join(', ')} ${differ.length > 1 ? 'are' : 'is'} not what ${escapeControls(mismatch.sums ?? 'the sums file')} lists (SHA-256): not saved, a copy already at the name stays as it was`;
    return new PartialFailureError(message, ExitCode.rejected, mismatchBody(message));
  }
  if (!summary.failed.every((f) => networkFailed.has(f.id))) return new PartialFailureError(failedCount, ExitCode.rejected);
  const message = `${failedCount}, each for want of an answer from the delivery network: run again later`;
  return new PartialFailureError(message, ExitCode.network, { type: 'urn:ahs:network', title: message, status: null, detail: message });
}

/** The document's entries, once each, narrowed by item ids (every id must be there: exit 4) and name patterns. */
function selectEntries(doc: DeliveryDocument, itemIds: string[] | undefined, patterns: string[] | undefined, names: FetchNames): DeliveryEntry[] {
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
    if (entries.length === 0) throw new NotFoundError(`no item of ${where} has a name matching ${names('pattern')} ${patterns.join(' ')}`);
  }
  return entries;
}

/**
 * The target folder exists (created when missing, one level at a time) and is
 * a writable folder: otherwise a usage error naming --dir, at once. (A
 * recursive mkdir under /proc never returns.) Returns the first folder it
 * created (dir itself or a parent), undefined when dir was already there.
 */
async function prepareDir(dir: string, flag: string): Promise<string | undefined> {
  const refuse = (why: string) => new UsageError(`${flag} ${dir}: cannot download into it: ${why}; pass another ${flag}`);
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

/** A URL to fetch: an absolute http(s) URL, or one relative to the delivery URL set ("/api/vi/..."), joined to it as cli.md says. */
function parseUrl(value: string, deliveryUrl: string | undefined, names: FetchNames): URL {
  const flag = names('url');
  if (value.startsWith('/') && !value.startsWith('//')) {
    if (!deliveryUrl) throw new UsageError(`${flag} ${JSON.stringify(value)} is relative: set the delivery URL it is relative to with ${names('deliveryUrl')}`);
    return new URL(deliveryDocumentUrl(value, deliveryUrl, deliveryUrl));
  }
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return url;
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL (got ${JSON.stringify(value)})`);
  }
}

function uniqueEntries(entries: DeliveryEntry[]): DeliveryEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.assetItemId) && seen.add(e.assetItemId));
}

/** Item records (file names with extensions, sizes for the integrity check), when the key can read them. */
async function itemRecords(ctx: PlanContext, collectionId: string): Promise<Map<string, Item>> {
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
 * an interrupt cleans up (CancelledError, exit 130).
 */
async function download(
  ctx: PlanContext,
  tasks: DownloadTask[],
  options: { dir: string; concurrency?: number | undefined; skipExisting?: boolean | undefined; skipExistingName: string; deliveryBase: string; networkFailed: Set<string>; mismatched: Set<string> },
): Promise<DownloadSummary> {
  const out = await ctx.output();
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  // One connection per download in flight (issue 21).
  const client = await ctx.deliveryClient(options.deliveryBase, concurrency);
  let known = tasks.reduce((sum, t) => sum + (t.expectedSize ?? 0), 0);
  const allKnown = tasks.every((t) => t.expectedSize !== undefined);
  const progress = await ctx.multiProgress({
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
      skipExistingName: options.skipExistingName,
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
            progress.finish(event.task.id, true);
            progress.log(() => out.info(`✓ ${event.task.name} (${formatSize(event.bytes)})`));
            break;
          case 'skipped':
            // Nothing to transfer for it: out of the total.
            if (allKnown) progress.setTotal((known -= event.task.expectedSize ?? 0));
            progress.log(() => out.info(`- ${event.task.name}: skipped, ${event.reason}`));
            break;
          case 'failed':
            if (isNetworkFailure(event.error)) options.networkFailed.add(event.task.id);
            if (event.error instanceof DigestMismatchError) options.mismatched.add(event.task.id);
            progress.finish(event.task.id, false);
            progress.log(() => out.warn(`${event.task.name} (${event.task.id}): ${event.error.message}`));
            break;
        }
      },
    });
  } catch (error) {
    progress.stop();
    if (error instanceof CancelledError) throw interrupted(ctx, 'interrupted; partial downloads removed');
    throw error;
  } finally {
    progress.stop();
    await client.close().catch(() => {});
  }
}

/** Names for a message: the first few, then how many more. */
function list(items: string[], shown = 5): string {
  return items.length <= shown ? items.join(', ') : `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
}
