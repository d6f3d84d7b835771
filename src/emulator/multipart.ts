// Multipart/form-data parsing (busboy): the file part of the `assetFile`
// field goes to the store, other parts become string fields. A file over the
// size limit is cut and the rest of the request drained. A request whose
// declared length is small keeps its file in memory (the store writes it
// once, straight into place); any other streams it to a temporary file, so
// nothing large is ever held whole.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { Problem } from './problem.js';
import { multipartMalformed, uploadAborted } from '../rules/rejections.js';
import type { PendingBlob, Store } from './store.js';
import { dict } from './state.js';

export const FILE_FIELD = 'assetFile';

/**
 * Requests up to this declared length keep their file in memory. Through a
 * temporary file, a 4 KiB upload cost the emulator's one thread a write
 * stream, a pipeline and four turns of the thread pool (open, write, close,
 * rename): about half its CPU per upload (bench/README.md, "The emulator's
 * CPU per upload").
 */
export const IN_MEMORY_BODY_BYTES = 64 * 1024;

export interface UploadedFile {
  fileName: string;
  mimeType: string;
  size: number;
  pending: PendingBlob;
  /** The file was longer than the limit; `pending` holds only a prefix. */
  truncated: boolean;
}

export interface MultipartBody {
  fields: Record<string, string>;
  file?: UploadedFile;
}

export interface MultipartOptions {
  /** Bytes beyond which the file is cut and marked truncated. */
  maxFileBytes?: number;
}

const MULTIPART_TYPE = /^multipart\/form-data\b/i;

export function isMultipart(req: IncomingMessage): boolean {
  return MULTIPART_TYPE.test(req.headers['content-type'] ?? '');
}

/** The body fits in memory: a Content-Length (not chunked) of at most IN_MEMORY_BODY_BYTES. */
function smallBody(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && req.headers['transfer-encoding'] === undefined && Number(declared) <= IN_MEMORY_BODY_BYTES;
}

/**
 * Parses a multipart request. The caller owns the returned file's pending
 * blob: adopt it into the store or discard it.
 */
export function parseMultipart(req: IncomingMessage, store: Store, options: MultipartOptions = {}): Promise<MultipartBody> {
  return new Promise<MultipartBody>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: options.maxFileBytes ?? Infinity, files: 10, fields: 100 },
        defParamCharset: 'utf8',
      });
    } catch (error) {
      req.resume();
      reject(new Problem(multipartMalformed((error as Error).message)));
      return;
    }
    const inMemory = smallBody(req);
    const fields = dict<string>();
    let file: UploadedFile | undefined;
    // Each settles to whether the file was received whole; none ever rejects,
    // so a failure after fail() can never go unhandled and end the process.
    const writes: Promise<boolean>[] = [];
    let failed = false;

    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      parser.destroy();
      req.resume();
      const cleanup = file ? store.discard(file.pending) : Promise.resolve();
      void cleanup.finally(() => reject(error));
    };

    parser.on('field', (name, value) => {
      if (!Object.hasOwn(fields, name)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== FILE_FIELD || file || failed) {
        stream.resume();
        return;
      }
      const pending: PendingBlob = inMemory ? { bytes: Buffer.alloc(0) } : store.createPending();
      const upload: UploadedFile = { fileName: info.filename ?? '', mimeType: info.mimeType || 'application/octet-stream', size: 0, pending, truncated: false };
      file = upload;
      stream.on('data', (chunk: Buffer) => {
        upload.size += chunk.length;
      });
      stream.on('limit', () => {
        upload.truncated = true;
      });
      const received = 'bytes' in pending ? collect(stream, pending) : pipeline(stream, pending.stream);
      writes.push(
        received.then(
          () => true,
          (error: unknown) => {
            fail(error);
            return false;
          },
        ),
      );
    });
    parser.on('error', (error) => fail(new Problem(multipartMalformed((error as Error).message))));
    parser.on('close', () => {
      void Promise.all(writes).then(() => {
        if (!failed) resolve(file ? { fields, file } : { fields });
      });
    });
    // A client that goes away mid-body: nothing is stored.
    req.on('close', () => {
      if (!req.complete) fail(new Problem(uploadAborted()));
    });
    req.on('error', (error) => fail(error));
    req.pipe(parser);
  });
}

/** The file part's pieces, kept as they come (slices of the request's own buffers: no copy unless there are several). */
function collect(stream: Readable, pending: { bytes: Buffer }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const pieces: Buffer[] = [];
    stream.on('data', (piece: Buffer) => pieces.push(piece));
    stream.once('end', () => {
      pending.bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
      resolve();
    });
    stream.once('error', reject);
  });
}
