// Parallel, atomic downloads. Each file streams (memory flat in the file
// size: each piece of the body is written where it was read, http/body.ts) into a temporary
// `.NAME.ahs-partial-PID-XXXXXXXX` inside the target folder and is renamed to its
// name only when the body is complete and its length matches content-length
// and the expected size: a file already at that name is replaced whole
// (unless skipExisting keeps it). Only a 2xx answer is saved. A failed file
// never stops the others. Partial files an earlier killed run left in the
// folder are removed first; another run's, still being written, are left
// alone (the name carries its owner's pid). On abort (Ctrl-C) every body is destroyed,
// every partial file removed, and CancelledError thrown once the cleanup is
// done. A task with an expected SHA-256 is hashed as it streams to disk (no
// second read); another digest fails that file before it takes its name, so
// the copy already there stays. hashAll() streams and hashes without writing.
import { closeSync, lstatSync, openSync, renameSync, writeSync, type Stats } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { AhsError, CancelledError, NetworkError } from '../errors.js';
import { asAnswerBody, type AnswerBody } from '../http/body.js';
import { leanTransport } from '../http/lean.js';
import type { Transport } from '../http/transport.js';
import { assertInside } from './safe-name.js';
import { sha256, type Digest } from './digest.js';
import { eachLimited } from '../util/pool.js';

export const DEFAULT_CONCURRENCY = 8;
export const PARTIAL_MARKER = '.ahs-partial-';

export interface DownloadTask {
  /** Item id: names the file in events and the summary. */
  id: string;
  /** Absolute URL of the file. */
  url: string;
  /** The file name inside the folder: a safe single segment (see safe-name.ts). */
  name: string;
  /** Size the file must have, when known (item records carry it). */
  expectedSize?: number;
  /** Extra request headers (e.g. the apikey for a secured item). */
  headers?: Record<string, string>;
  /** The SHA-256 (hex) the file must have (fetch --verify), and where that digest comes from, for messages. */
  sha256?: { hex: string; from: string };
}

export interface OpenedBody {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Read piece by piece, in place (http/body.ts); a stream is adapted. */
  body: AnswerBody | Readable;
}

/** Starts a GET and resolves with the unread body of a success; throws on an error answer. */
export type Opener = (task: DownloadTask, signal: AbortSignal) => Promise<OpenedBody>;

export type DownloadEvent =
  | { type: 'start'; task: DownloadTask; size?: number }
  | { type: 'progress'; task: DownloadTask; bytes: number; size?: number; transferred: number }
  | { type: 'done'; task: DownloadTask; path: string; bytes: number }
  | { type: 'skipped'; task: DownloadTask; path: string; reason: string }
  | { type: 'failed'; task: DownloadTask; error: Error };

export interface DownloadOptions {
  /** Target folder; created when missing. */
  dir: string;
  concurrency?: number;
  /** Keep a file already at a task's name (default: replace it). */
  skipExisting?: boolean;
  /** How the caller names skipExisting in a skipped file's reason (default the CLI's --skip-existing; the library's skipExisting). */
  skipExistingName?: string;
  signal?: AbortSignal;
  /** How to start each request (default: a plain GET, plainOpener()). */
  open?: Opener;
  onEvent?: (event: DownloadEvent) => void;
}

/** An item written under another name than its own, and why (cli.md "Release workflows": only a name that cannot be a file name here). */
export interface Renamed {
  from: string;
  reason: string;
}
export interface DownloadedFile {
  id: string;
  name: string;
  path: string;
  bytes: number;
  renamed?: Renamed;
}
export interface SkippedFile {
  id: string;
  name: string;
  path: string;
  reason: string;
  renamed?: Renamed;
}
export interface FailedFile {
  id: string;
  name: string;
  error: string;
  renamed?: Renamed;
}
export interface DownloadSummary {
  downloaded: DownloadedFile[];
  skipped: SkippedFile[];
  failed: FailedFile[];
}

/** An error answer to a download request. */
export class DownloadHttpError extends Error {
  override readonly name = 'DownloadHttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function downloadAll(tasks: DownloadTask[], options: DownloadOptions): Promise<DownloadSummary> {
  const signal = options.signal ?? new AbortController().signal;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const open = options.open ?? plainOpener();
  const emit = options.onEvent ?? (() => {});
  const summary: DownloadSummary = { downloaded: [], skipped: [], failed: [] };
  const partials = new Set<string>();
  let transferred = 0;

  if (signal.aborted) throw new CancelledError();
  if (tasks.length > 0) {
    await mkdir(options.dir, { recursive: true });
    await removeStalePartials(options.dir);
  }

  // One abort listener on the caller's signal for the whole batch; each
  // download listens on a signal of its own, dropped when it ends (a shared
  // signal would collect a listener per download: MaxListenersExceededWarning).
  const active = new Set<AbortController>();
  const abortAll = () => {
    for (const controller of active) controller.abort(signal.reason);
  };
  signal.addEventListener('abort', abortAll, { once: true });

  const one = async (task: DownloadTask): Promise<void> => {
    const controller = new AbortController();
    active.add(controller);
    try {
      await transfer(task, controller.signal);
    } finally {
      active.delete(controller);
    }
  };

  const transfer = async (task: DownloadTask, taskSignal: AbortSignal): Promise<void> => {
    let target: string;
    try {
      target = assertInside(options.dir, task.name);
    } catch (error) {
      fail(task, error as Error);
      return;
    }
    let headers: OpenedBody['headers'] | undefined;
    try {
      const existing = lstatIfThere(target);
      if (existing && !existing.isFile()) throw new Error(`${target} exists and is not a regular file`);
      if (existing && options.skipExisting) {
        skip(task, target, `a file of that name is already there (${options.skipExistingName ?? '--skip-existing'})`);
        return;
      }
      const response = await raceAbort(open(task, taskSignal), taskSignal);
      headers = response.headers;
      if (response.status < 200 || response.status >= 300) {
        // A redirect (or any other non-success) is never saved as the file.
        asAnswerBody(response.body).destroy();
        throw new DownloadHttpError(response.status, notSaved(response));
      }
      const length = contentLength(response.headers);
      refuseAnnouncedSize(response, length, task.expectedSize);
      const size = length ?? task.expectedSize;
      emit({ type: 'start', task, size });
      const partial = join(options.dir, partialName(task.name));
      partials.add(partial);
      let bytes = 0;
      const digest = task.sha256 ? sha256() : undefined;
      try {
        bytes = await saveBody(asAnswerBody(response.body), partial, taskSignal, digest, task.expectedSize, (chunk, soFar) => {
          transferred += chunk;
          emit({ type: 'progress', task, bytes: soFar, size, transferred });
        });
        if (length !== undefined && bytes !== length) throw new Error(`incomplete download: got ${bytes} of ${length} bytes`);
        if (task.expectedSize !== undefined && bytes !== task.expectedSize) {
          throw new Error(`size mismatch: got ${bytes} bytes, expected ${task.expectedSize}`);
        }
        if (digest && task.sha256) checkDigest(digest.hex(), task.sha256, existing !== undefined);
        renameInto(partial, target);
        partials.delete(partial);
      } finally {
        if (partials.has(partial)) {
          await rm(partial, { force: true });
          partials.delete(partial);
        }
      }
      summary.downloaded.push({ id: task.id, name: task.name, path: target, bytes });
      emit({ type: 'done', task, path: target, bytes });
    } catch (error) {
      if (signal.aborted) return; // reported once, below, after the cleanup
      fail(task, withCoding(error as Error, headers));
    }
  };

  function skip(task: DownloadTask, path: string, reason: string): void {
    summary.skipped.push({ id: task.id, name: task.name, path, reason });
    emit({ type: 'skipped', task, path, reason });
  }
  function fail(task: DownloadTask, error: Error): void {
    summary.failed.push({ id: task.id, name: task.name, error: describe(error) });
    emit({ type: 'failed', task, error });
  }

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length && !signal.aborted) {
      const task = tasks[next++]!;
      await one(task);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  } finally {
    signal.removeEventListener('abort', abortAll);
    // Belt and braces: nothing half-written survives, whatever happened.
    await Promise.all([...partials].map((path) => rm(path, { force: true })));
  }
  if (signal.aborted) {
    throw signal.reason instanceof CancelledError ? signal.reason : new CancelledError('interrupted; partial downloads removed');
  }
  const order = inTaskOrder(tasks);
  return { downloaded: order(summary.downloaded), skipped: order(summary.skipped), failed: order(summary.failed) };
}

/**
 * Sorts a summary's list into the order the tasks were given (the service's
 * list, the file's): files end in whatever order their transfers do, and a
 * script reading --json, or a second run compared with the first, needs the
 * same order each time.
 */
function inTaskOrder(tasks: DownloadTask[]): <T extends { id: string; name: string }>(list: T[]) => T[] {
  const rank = new Map(tasks.map((task, index) => [`${task.id}\u0000${task.name}`, index]));
  const of = (entry: { id: string; name: string }) => rank.get(`${entry.id}\u0000${entry.name}`) ?? tasks.length;
  return (list) => [...list].sort((a, b) => of(a) - of(b));
}

export interface HashedFile {
  id: string;
  name: string;
  sha256: string;
  bytes: number;
}
export interface HashSummary {
  hashed: HashedFile[];
  /** network: it failed for want of an answer (worth retrying later), not because an answer refused it. */
  failed: Array<FailedFile & { network: boolean }>;
}

/**
 * Downloads each task's file in parallel and keeps only its SHA-256 (verify,
 * sync --checksum): nothing is written to disk, nothing held whole. Checks as
 * downloadAll does (a success answer, its whole content-length, the expected
 * size); a failed file never stops the others; Ctrl-C throws CancelledError.
 */
export async function hashAll(tasks: DownloadTask[], options: Omit<DownloadOptions, 'dir' | 'skipExisting' | 'skipExistingName'>): Promise<HashSummary> {
  const signal = options.signal ?? new AbortController().signal;
  const open = options.open ?? plainOpener();
  const emit = options.onEvent ?? (() => {});
  const summary: HashSummary = { hashed: [], failed: [] };
  let transferred = 0;
  if (signal.aborted) throw new CancelledError();
  const active = new Set<AbortController>();
  const abortAll = () => {
    for (const controller of active) controller.abort(signal.reason);
  };
  signal.addEventListener('abort', abortAll, { once: true });
  try {
    await eachLimited(tasks, Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY)), signal, async (task) => {
      const controller = new AbortController();
      active.add(controller);
      let headers: OpenedBody['headers'] | undefined;
      try {
        const response = await raceAbort(open(task, controller.signal), controller.signal);
        headers = response.headers;
        if (response.status < 200 || response.status >= 300) {
          asAnswerBody(response.body).destroy();
          throw new DownloadHttpError(response.status, notSaved(response).replace('nothing saved', 'not read'));
        }
        const length = contentLength(response.headers);
        refuseAnnouncedSize(response, length, task.expectedSize);
        const size = length ?? task.expectedSize;
        emit({ type: 'start', task, size });
        const digest = sha256();
        const bytes = await readPieces(asAnswerBody(response.body), controller.signal, task.expectedSize, (piece) => digest.update(piece), (chunk, soFar) => {
          transferred += chunk;
          emit({ type: 'progress', task, bytes: soFar, size, transferred });
        });
        const hex = digest.hex();
        if (length !== undefined && bytes !== length) throw new Error(`incomplete download: got ${bytes} of ${length} bytes`);
        if (task.expectedSize !== undefined && bytes !== task.expectedSize) throw new Error(`size mismatch: got ${bytes} bytes, expected ${task.expectedSize}`);
        summary.hashed.push({ id: task.id, name: task.name, sha256: hex, bytes });
        emit({ type: 'done', task, path: task.url, bytes });
      } catch (caught) {
        if (signal.aborted) return;
        const error = withCoding(caught as Error, headers);
        summary.failed.push({ id: task.id, name: task.name, error: describe(error), network: isNetworkFailure(error) });
        emit({ type: 'failed', task, error });
      } finally {
        active.delete(controller);
      }
    });
  } finally {
    signal.removeEventListener('abort', abortAll);
  }
  if (signal.aborted) throw signal.reason instanceof CancelledError ? signal.reason : new CancelledError('interrupted');
  const order = inTaskOrder(tasks);
  return { hashed: order(summary.hashed), failed: order(summary.failed) };
}

/**
 * Writes `body` into a new file at `path` (it must not exist), each piece as
 * it arrives, on the main thread, hashed in place when `digest` is given;
 * returns the byte count. Measured on 200 x 1 MiB against the emulator
 * (issue 14, bench/README.md): `pipeline(body, Transform, createWriteStream)`
 * made 40.5k syscalls and 22.8k thread-pool wake-ups; `for await` with 1 MiB
 * batched writes took 0.65 s of CPU; a write per piece, 0.3 s less: an async
 * iterator costs a promise and a turn of the event loop per piece, and a
 * write into the page cache well under a millisecond (a hop to the thread
 * pool and back costs more CPU on two cores than it saves). The lean
 * transport's pieces are views of its read buffer: written and hashed
 * before the next read overwrites them, never copied.
 */
async function saveBody(body: AnswerBody, path: string, signal: AbortSignal, digest: Digest | undefined, expectedSize: number | undefined, onChunk: (bytes: number, soFar: number) => void): Promise<number> {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    body.destroy();
    throw error;
  }
  let failure: unknown;
  try {
    return await readPieces(
      body,
      signal,
      expectedSize,
      (piece) => {
        writeAll(fd, piece);
        digest?.update(piece);
      },
      onChunk,
    );
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    try {
      closeSync(fd);
    } catch (closing) {
      if (failure === undefined) throw closing;
    }
  }
}

/**
 * Reads `body` to its end, handing each piece to `use` (synchronously, in
 * place) and counting; returns the byte count. Aborting `signal` destroys
 * the body and rejects at once. A body past `expectedSize` (one with no
 * content-length, chunked or ending with its connection, that does not
 * end) fails there: a server sending without end never fills the disk.
 */
function readPieces(body: AnswerBody, signal: AbortSignal, expectedSize: number | undefined, use: (piece: Buffer) => void, onChunk?: (bytes: number, soFar: number) => void): Promise<number> {
  let total = 0;
  if (signal.aborted) {
    body.destroy();
    return Promise.reject(signal.reason instanceof Error ? signal.reason : new CancelledError());
  }
  return new Promise<number>((resolvePromise, rejectPromise) => {
    const onAbort = () => {
      rejectPromise(signal.reason instanceof Error ? signal.reason : new CancelledError());
      body.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    body
      .consume((piece) => {
        if (expectedSize !== undefined && total + piece.length > expectedSize) throw new Error(`size mismatch: more than the ${expectedSize} bytes expected`);
        use(piece);
        total += piece.length;
        onChunk?.(piece.length, total);
      })
      .then(
        () => resolvePromise(total),
        (error: unknown) => rejectPromise(error),
      )
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A size or digest that does not match, said with the content coding the
 * server used though it was asked for the file as stored (the lean
 * transport sends `accept-encoding: identity`): its bytes are kept as sent,
 * as curl keeps them (a `.tar.gz` a server labels `content-encoding: gzip`
 * is the file), and checked as such; when they are not the file, the
 * coding is why.
 */
function withCoding(error: Error, headers: OpenedBody['headers'] | undefined): Error {
  const raw = headers?.['content-encoding'];
  const coding = String(Array.isArray(raw) ? raw.join(', ') : (raw ?? '')).trim();
  if (!coding || /^identity$/i.test(coding) || !(error instanceof DigestMismatchError || error.message.startsWith('size mismatch'))) return error;
  error.message += ` (the server sent it ${coding}-coded (content-encoding: ${coding}) though ahs asks for files as stored: turn that compression off for these files on the delivery network)`;
  return error;
}

/** A body whose content-length is not the expected size fails before it is read (a terabyte announced is not downloaded to be refused). */
function refuseAnnouncedSize(response: OpenedBody, length: number | undefined, expectedSize: number | undefined): void {
  if (length === undefined || expectedSize === undefined || length === expectedSize) return;
  asAnswerBody(response.body).destroy();
  throw new Error(`size mismatch: the server sends ${length} bytes, expected ${expectedSize}`);
}

/** A downloaded file whose SHA-256 is not the expected one fails here, before it takes its name. */
export class DigestMismatchError extends Error {
  override readonly name = 'DigestMismatchError';
}

function checkDigest(actual: string, expected: { hex: string; from: string }, kept: boolean): void {
  if (actual === expected.hex) return;
  const stays = kept ? '; the file already there is kept as it was' : '; nothing saved';
  throw new DigestMismatchError(`SHA-256 mismatch: ${expected.from} says ${expected.hex}, the download is ${actual}${stays}`);
}

/** Writes until every byte is on disk (a write may take fewer than it was given). */
function writeAll(fd: number, chunk: Buffer): void {
  let offset = 0;
  while (offset < chunk.length) offset += writeSync(fd, chunk, offset);
}

/**
 * A file's lstat, or undefined when there is none. Synchronous, as the
 * rename that ends each download: on two cores, a thread-pool round trip
 * per call (two per file) cost more CPU than the call itself (issue 14).
 */
function lstatIfThere(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** `.NAME.ahs-partial-PID-XXXXXXXX`: hidden, and naming the process that writes it. */
function partialName(name: string): string {
  return `.${name}${PARTIAL_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * A partial file not written to for this long is abandoned even when a
 * process of its pid is alive (the pid may have been reused, or the folder
 * is shared with another machine, where the pid says nothing).
 */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/**
 * Removes the `.NAME.ahs-partial-*` files of an earlier run that was killed
 * before it could clean up: those whose owner process is gone, those not
 * written to for ABANDONED_AFTER_MS, and those of older ahs versions (no
 * owner in the name). Another run's partial files, still being written into
 * the same folder, stay (cli.md "Reading the service": concurrent fetches).
 */
export async function removeStalePartials(dir: string, now = Date.now()): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = await Promise.all(names.map(async (name) => ((await isStalePartial(join(dir, name), name, now)) ? name : undefined)));
  await Promise.all(stale.filter((name): name is string => name !== undefined).map((name) => rm(join(dir, name), { force: true })));
}

async function isStalePartial(path: string, name: string, now: number): Promise<boolean> {
  if (!name.startsWith('.')) return false;
  const owned = OWNED_PARTIAL.exec(name);
  if (!owned) return LEGACY_PARTIAL.test(name);
  if (!isAlive(Number(owned[1]))) return true;
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && now - info.mtimeMs > ABANDONED_AFTER_MS;
}

/** Whether a process of that pid runs (signal 0 checks without sending; EPERM: it runs, as another user). */
function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const MARKER = PARTIAL_MARKER.replace(/[.]/g, '\\.');
const OWNED_PARTIAL = new RegExp(`${MARKER}(\\d+)-[0-9a-f]{8}$`);
const LEGACY_PARTIAL = new RegExp(`${MARKER}[0-9a-f]{8}$`);

/**
 * The complete partial file becomes the file. Its rename fails when the
 * partial file or the folder went away meanwhile (another program cleaning
 * the folder): a clear error for this file, never a raw system one.
 */
function renameInto(partial: string, target: string): void {
  try {
    renameSync(partial, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`its temporary file ${basename(partial)} was removed before it could be saved (by another program in ${dirname(target)}?); nothing saved: run again`);
    throw new Error(`could not save ${target}: ${fileSystemReason(error as NodeJS.ErrnoException)}`);
  }
}

function fileSystemReason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'read-only file system';
    case 'EISDIR':
      return 'a folder is at that name';
    default:
      return error.message;
  }
}

function notSaved(response: OpenedBody): string {
  const location = response.headers.location;
  const target = Array.isArray(location) ? location[0] : location;
  const redirect = response.status >= 300 && response.status < 400;
  return `HTTP ${response.status}${redirect ? `: a redirect${target ? ` to ${target}` : ''}, not followed` : ''}; nothing saved`;
}

function contentLength(headers: OpenedBody['headers']): number | undefined {
  const raw = headers['content-length'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

/** Drops a response body we will not read. */
function discard(body: AnswerBody | Readable): void {
  asAnswerBody(body).destroy();
}

/** Rejects as soon as the signal aborts, and discards a response that arrives afterwards. */
function raceAbort(promise: Promise<OpenedBody>, signal: AbortSignal): Promise<OpenedBody> {
  if (signal.aborted) {
    promise.then((late) => discard(late.body), () => {});
    return Promise.reject(new CancelledError());
  }
  return new Promise((resolvePromise, rejectPromise) => {
    const onAbort = () => {
      promise.then((late) => discard(late.body), () => {});
      rejectPromise(new CancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) discard(value.body);
        resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        rejectPromise(error);
      },
    );
  });
}

function describe(error: Error): string {
  if (error instanceof AhsError || error.name === 'DownloadHttpError' || error.name === 'UnsafePathError' || error.name === 'DigestMismatchError') return error.message;
  switch (networkCause(error)) {
    case 'closed':
      return 'connection closed before the file was complete';
    case 'timeout':
      return 'timed out';
    case 'refused':
      return 'connection refused';
    default:
      return error.message || String(error);
  }
}

/**
 * A file that failed for want of an answer (no connection, a connection
 * cut, a timeout): worth retrying later, unlike an answer that refused it
 * (exit 6 against exit 1, cli.md).
 */
export function isNetworkFailure(error: Error): boolean {
  return error instanceof NetworkError || networkCause(error) !== undefined;
}

function networkCause(error: Error): 'closed' | 'timeout' | 'refused' | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'other side closed') return 'closed';
  if (code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'refused';
  return undefined;
}

export interface PlainOpenerOptions {
  /** The longest wait for the headers, and between two reads of the body (default 300 s, as undici's). */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Default: one lean transport (http/lean.ts) per process. */
  transport?: Transport;
}

/** The transport of plainOpener() when none is given (one per process). */
let defaultTransport: Transport | undefined;

/**
 * The default opener: a plain GET through the lean transport, without
 * ApiClient's retries and traces (commands open through their delivery
 * client); an error status becomes DownloadHttpError with the service's
 * title when there is one.
 */
export function plainOpener(options: PlainOpenerOptions = {}): Opener {
  return async (task, signal) => {
    const transport = options.transport ?? (defaultTransport ??= leanTransport());
    const headers = { 'user-agent': 'ahs-cli', ...options.headers, ...task.headers };
    const response = await transport.request(task.url, { method: 'GET', headers, signal, timeoutMs: options.timeoutMs ?? 300_000 });
    if (response.statusCode >= 400) {
      const text = await response.body.text().catch(() => '');
      throw new DownloadHttpError(response.statusCode, `HTTP ${response.statusCode}${titleOf(text)}`);
    }
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };
}

function titleOf(text: string): string {
  try {
    const body = JSON.parse(text) as { title?: unknown };
    if (typeof body.title === 'string' && body.title) return `: ${body.title}`;
  } catch {
    // not JSON
  }
  return '';
}
