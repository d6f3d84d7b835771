// Streaming multipart upload: a hand-built multipart/form-data body with a
// known content-length, the file part read from disk as it is sent (memory
// stays flat in the file size; faster than undici's FormData, see
// dependencies.md). Progress counts the file bytes pulled by the socket.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, UsageError } from '../errors.js';
import type { StreamBody } from '../http/client.js';
import { escapeControls } from '../util/escape.js';
import { uploadName } from './upload-name.js';
import { mimeTypeFor } from '../util/mime.js';

export interface MultipartFile {
  /** Form field of the file (the service's is `assetFile`). */
  field: string;
  path: string;
  /** File name sent to the service (default: the path's base name). */
  fileName?: string;
  contentType?: string;
  /**
   * The SHA-256 (hex) the file had when it was planned: the file is hashed
   * as it is read for the upload (no read of its own), and another digest
   * cuts the request before its closing boundary, so nothing is stored.
   */
  sha256?: string;
}

export interface MultipartOptions {
  fields: Record<string, string | number | boolean | undefined>;
  file: MultipartFile;
  /** Called with (bytesSent, total) as the file is read by the socket. */
  onProgress?: (sent: number, total: number) => void;
}

export interface PreparedUpload extends StreamBody {
  fileSize: number;
  fileName: string;
}

export { sendableName, uploadName } from './upload-name.js';

/** A local file to upload, checked now (exists, is a regular file): its path, the name the service is told, its size. */
export async function localFile(path: string, name = basename(path)): Promise<{ path: string; name: string; size: number }> {
  return { path, name: uploadName(path, name), size: await regularFileSize(path) };
}

async function regularFileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`${path} is not a regular file`);
    return info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

/** Checks the file (exists, is a regular file, a name that can be sent) and prepares a replayable streaming body. */
export async function prepareMultipart(options: MultipartOptions): Promise<PreparedUpload> {
  const { file } = options;
  const fileName = uploadName(file.path, file.fileName);
  let size: number;
  let modified: number;
  try {
    // Synchronous: a stat is one system call, and a turn of the thread pool for it cost more, each
    // upload of a batch waiting for it between the answer before and its own request (issue 21).
    const info = statSync(file.path);
    if (!info.isFile()) throw new UsageError(`${escapeControls(file.path)} is not a regular file`);
    size = info.size;
    modified = info.mtimeMs;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${escapeControls(file.path)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const boundary = nextBoundary();
  let head = '';
  for (const [name, value] of Object.entries(options.fields)) {
    if (value === undefined) continue;
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${String(value)}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(fileName)}"\r\n`;
  head += `Content-Type: ${file.contentType ?? contentTypeFor(fileName)}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const headBuffer = Buffer.from(head, 'utf8');
  const tailBuffer = Buffer.from(tail, 'utf8');
  const state: FileState = { path: file.path, size, modified, sha256: file.sha256 };
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: headBuffer.length + size + tailBuffer.length,
    fileSize: size,
    fileName,
    open() {
      return parts(headBuffer, state, tailBuffer, options.onProgress);
    },
  };
}

/** Random for each process, counted within it: a boundary no file holds by chance, without 15 us of randomBytes per upload. */
let boundaryPrefix: string | undefined;
let boundaries = 0;
function nextBoundary(): string {
  boundaryPrefix ??= randomBytes(12).toString('hex');
  return `----ahs${boundaryPrefix}${(boundaries++).toString(36)}`;
}

/**
 * Bytes of the file read at a time, and how many such buffers take turns
 * (8 MiB held, whatever the file's size). A 512 MiB upload is 128 pieces,
 * each one read, one write and one turn of the event loop; 1 MiB pieces
 * read through the thread pool cost it 0.1 s more CPU and 1,000 more
 * context switches, on the two cores the service shares on loopback
 * (bench/README.md, "The upload's pace").
 */
const PIECE = 4 * 1024 * 1024;
/** For tests that size a file in pieces. */
export const UPLOAD_PIECE = PIECE;
const BUFFERS = 2;

/** The file as prepareMultipart found it: its content-length and modification time are announced. */
interface FileState {
  path: string;
  size: number;
  modified: number;
  /** The planned digest, checked before the closing boundary. */
  sha256?: string;
}

/**
 * The body, piece by piece: the head with the file's first piece, the file,
 * the tail with its last piece (a file up to PIECE is one piece, the whole
 * body). The file is read on the main thread, as downloads write theirs
 * (transfer/download.ts): a read from the page cache takes less than a turn
 * of the thread pool costs, and an item sync of 200 small files spent five
 * such turns per file (issue 21). It is read into BUFFERS buffers that take
 * turns, never a new buffer per piece: those made V8 collect the whole heap
 * 22 times per 512 MiB (issue 14). A buffer is refilled one piece after it
 * was handed out: undici asks for the next piece only once the socket has
 * taken the last (whole, or after 'drain').
 *
 * Before each piece after the first the event loop gets a turn to read what
 * came in: an answer the server sends before reading the whole body (a
 * refused key, a 413) and the connection it then closes. Writes that
 * followed one another hit the closed connection first, and Node drops a
 * socket, the unread answer with it, at the first write that fails: "answer
 * lost", exit 6 (test/faults/early-answer.test.ts). A turn narrows that
 * window; the transport closes it (http/transport.ts, answersWin: a write
 * that meets the closed connection leaves the answer to be read).
 *
 * The file is the one opened: removed or replaced once the upload began, it
 * is sent as it was. Changed in place (its size or modification time), or
 * not the planned bytes, the request is cut before its closing boundary, so
 * nothing is stored. Progress counts the pieces taken.
 */
async function* parts(head: Buffer, expected: FileState, tail: Buffer, onProgress?: (sent: number, total: number) => void): AsyncGenerator<Buffer> {
  const { path, size } = expected;
  const fd = openToRead(path);
  try {
    const opened = fstatSync(fd);
    if (opened.size !== size || opened.mtimeMs !== expected.modified) throw changed(path);
    const pieces = Math.max(1, Math.ceil(size / PIECE));
    const capacity = head.length + Math.min(PIECE, size) + tail.length;
    const buffers = Array.from({ length: Math.min(BUFFERS, pieces) }, () => Buffer.allocUnsafeSlow(capacity));
    // Hashed before it is handed over, and checked before the tail is added.
    const digest = expected.sha256 === undefined ? undefined : createHash('sha256');
    let sent = 0;
    onProgress?.(0, size);
    for (let turn = 0; turn < pieces; turn++) {
      if (turn > 0) await new Promise((resolve) => setImmediate(resolve));
      const buffer = buffers[turn % buffers.length]!;
      const start = turn === 0 ? head.copy(buffer, 0) : 0;
      const length = Math.min(PIECE, size - sent);
      readFully(fd, path, buffer, start, length, sent);
      digest?.update(buffer.subarray(start, start + length));
      sent += length;
      let end = start + length;
      if (turn === pieces - 1) {
        const ended = fstatSync(fd);
        if (ended.size !== size || ended.mtimeMs !== opened.mtimeMs) throw changed(path);
        if (digest) checkPlanned(expected, digest.digest('hex'));
        end += tail.copy(buffer, end);
      }
      yield end === buffer.length ? buffer : buffer.subarray(0, end);
      onProgress?.(sent, size);
    }
  } finally {
    closeSync(fd);
  }
}

function openToRead(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (error) {
    throw cannotRead(path, error as NodeJS.ErrnoException);
  }
}

/** `length` bytes of the file at `position` into `buffer` at `offset`; a file that ends sooner has changed. */
function readFully(fd: number, path: string, buffer: Buffer, offset: number, length: number, position: number): void {
  for (let read = 0; read < length; ) {
    const bytesRead = readSync(fd, buffer, offset + read, length - read, position + read);
    if (bytesRead === 0) throw changed(path);
    read += bytesRead;
  }
}

function cannotRead(path: string, error: NodeJS.ErrnoException): UsageError {
  return new UsageError(`cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}; nothing was stored`);
}

/**
 * A UsageError (exit 2): the file, not the service, is at fault, and the
 * request is cut before its closing boundary, so nothing is stored. undici
 * rejects the request with it, and the client passes it on as it is.
 */
function changed(path: string): UsageError {
  return new UsageError(`${path} changed during the upload; nothing was stored: upload it again once it is complete`);
}

/**
 * A planned upload sends the bytes that were planned (a saved plan is
 * applied later, and a build may have rewritten the file meanwhile): another
 * digest is exit 5, as a stale plan is, and the request is cut before its
 * closing boundary (the client passes a ConflictError on as it is).
 */
function checkPlanned(expected: FileState, actual: string): void {
  const planned = expected.sha256!;
  if (actual === planned) return;
  throw new ConflictError(`${expected.path} changed since it was planned (SHA-256 ${actual.slice(0, 12)}…, planned ${planned.slice(0, 12)}…): its upload was cut before its end, so nothing was stored; run ahs plan again`);
}

/**
 * A quoted-string of RFC 9110 (quoted-pairs `\"` and `\\`), as multipart
 * parsers read it back (busboy, Go's mime, Python's email): the name the
 * service stores is the file's own, so fetch writes `we"ird.txt` back as it
 * was (issue 48). Browsers' `%22` is not decoded by those parsers: the item's
 * file name came back `we%22ird.txt`.
 */
function quote(value: string): string {
  return value.replace(/["\\\r\n]/g, (c) => (c === '\r' || c === '\n' ? '' : `\\${c}`));
}


export function contentTypeFor(fileName: string): string {
  return mimeTypeFor(fileName);
}
