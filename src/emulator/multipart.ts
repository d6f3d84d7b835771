// Streaming multipart/form-data parsing (busboy): the file part of the
// `assetFile` field goes straight to a temporary file in the store, other
// parts become string fields. Nothing is held whole in memory; a file over
// the size limit is cut and the rest of the request drained.
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { Problem } from './problem.js';
import { multipartMalformed, uploadAborted } from '../rules/rejections.js';
import type { PendingBlob, Store } from './store.js';
import { dict } from './state.js';

export const FILE_FIELD = 'assetFile';

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

export function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');
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
    const fields = dict<string>();
    let file: UploadedFile | undefined;
    // Each settles to whether the file was written whole; none ever rejects,
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
      const pending = store.createPending();
      const upload: UploadedFile = { fileName: info.filename ?? '', mimeType: info.mimeType || 'application/octet-stream', size: 0, pending, truncated: false };
      file = upload;
      stream.on('data', (chunk: Buffer) => {
        upload.size += chunk.length;
      });
      stream.on('limit', () => {
        upload.truncated = true;
      });
      writes.push(
        pipeline(stream, pending.stream).then(
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
