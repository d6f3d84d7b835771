// Streaming multipart upload: a hand-built multipart/form-data body with a
// known content-length, the file part read from disk as it is sent (memory
// stays flat in the file size; faster than undici's FormData, see
// dependencies.md). Progress counts the file bytes pulled by the socket.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../errors.js';
import type { StreamBody } from '../http/client.js';
import { mimeTypeFor } from './mime.js';

export interface MultipartFile {
  /** Form field of the file (the service's is `assetFile`). */
  field: string;
  path: string;
  /** File name sent to the service (default: the path's base name). */
  fileName?: string;
  contentType?: string;
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

/** Checks the file (exists, is a regular file) and prepares a replayable streaming body. */
export async function prepareMultipart(options: MultipartOptions): Promise<PreparedUpload> {
  const { file } = options;
  let size: number;
  try {
    const info = await stat(file.path);
    if (!info.isFile()) throw new UsageError(`${file.path} is not a regular file`);
    size = info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file.path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const fileName = file.fileName ?? basename(file.path);
  const boundary = `----ahs${randomBytes(12).toString('hex')}`;
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
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: headBuffer.length + size + tailBuffer.length,
    fileSize: size,
    fileName,
    open() {
      return Readable.from(parts(headBuffer, file.path, size, tailBuffer, options.onProgress), { objectMode: false });
    },
  };
}

async function* parts(head: Buffer, path: string, size: number, tail: Buffer, onProgress?: (sent: number, total: number) => void) {
  yield head;
  let sent = 0;
  onProgress?.(0, size);
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
    sent += (chunk as Buffer).length;
    yield chunk as Buffer;
    onProgress?.(sent, size);
  }
  if (sent !== size) throw new Error(`${path} changed size during the upload (${size} → ${sent} bytes)`);
  yield tail;
}

function quote(value: string): string {
  return value.replace(/["\\\r\n]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ''));
}


export function contentTypeFor(fileName: string): string {
  return mimeTypeFor(fileName);
}
