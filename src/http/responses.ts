// Checks of success answers: size (read in chunks, never past the cap), JSON,
// shape. A failed check names the request and what came back, in one line.
// A body is decoded by its Content-Encoding (gzip, deflate, br), asked for or
// not (cli.md, "Reading the service"), within the same cap.
import type { ZlibOptions } from 'node:zlib';
import type { AnswerBody } from './body.js';
import { UnexpectedAnswerError, isBinary } from './errors.js';

/**
 * The largest JSON answer ahs reads (64 MiB). The biggest answer the spec
 * allows (a page of 500 records, a delivery document of 5000 items) is a few
 * MiB; past this, the answer is not one the service gives, and reading it
 * would take gigabytes of memory before failing.
 */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;

/** Any zod schema (zod stays out of this module's imports: only its shape is used). */
export interface ResponseSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

type Headers = Record<string, string | string[] | undefined>;

/** Thrown by readCapped when the body passes the cap; the caller names the request. */
export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${formatMiB(limit)}`);
  }
}

/** The Content-Encoding of an API answer that ahs cannot decode (zstd, compress...): the request names it. */
export class UnknownEncodingError extends Error {
  constructor(readonly coding: string) {
    super(`an answer in the ${JSON.stringify(coding)} content coding, which ahs cannot read`);
  }
}

/** What API requests ask for: the codings readCapped decodes (RFC 9110 12.5.3; none would permit any). */
export const API_ACCEPT_ENCODING = 'gzip, br';

/**
 * Reads a body as UTF-8 text, at most `limit` bytes, decoded by its
 * Content-Encoding: a larger one (by its content-length, counted while it
 * streams, or once decoded) is dropped unread and is an
 * UnexpectedAnswerError when `request` names it, else a TooLargeError. A
 * coding ahs cannot decode, or a body that does not decode, is an
 * UnexpectedAnswerError (`request`) or an UnknownEncodingError.
 */
export async function readCapped(body: AnswerBody, limit: number, headers: Headers, request?: string): Promise<string> {
  const declared = Number(first(headers['content-length']));
  const tooLarge = () => (request ? new UnexpectedAnswerError(request, 200, `an answer of more than ${formatMiB(limit)}, the most ahs reads`) : new TooLargeError(limit));
  if (Number.isFinite(declared) && declared > limit) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  await body.consume((piece) => {
    size += piece.length;
    // Thrown from here, the body is destroyed by consume().
    if (size > limit) throw tooLarge();
    // A piece may be a view of a buffer the next read reuses (lean.ts): kept, it is copied.
    chunks.push(Buffer.from(piece));
  });
  const codings = contentCodings(headers);
  if (codings.length === 0) return Buffer.concat(chunks).toString('utf8');
  try {
    return decode(Buffer.concat(chunks), codings, limit).toString('utf8');
  } catch (error) {
    if (error instanceof TooLargeError) throw tooLarge();
    const what = error instanceof UnknownEncodingError ? error.message : `a ${codings.join(', ')} body that does not decode`;
    if (request) throw new UnexpectedAnswerError(request, 200, what);
    throw error instanceof UnknownEncodingError ? error : new UnknownEncodingError(codings.join(', '));
  }
}

/** The codings of a Content-Encoding, in the order they were applied, identity left out. */
export function contentCodings(headers: Headers): string[] {
  const value = headers['content-encoding'];
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return text
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** Undoes `codings` (the last applied first), never more than `limit` bytes out (a small body may expand to gigabytes). */
function decode(bytes: Buffer, codings: string[], limit: number): Buffer {
  // Loaded only when an answer is encoded: most commands never meet one.
  const { brotliDecompressSync, gunzipSync, inflateSync } = process.getBuiltinModule('node:zlib');
  let out = bytes;
  for (const coding of [...codings].reverse()) {
    const options: ZlibOptions = { maxOutputLength: Math.max(1, limit) };
    try {
      if (coding === 'gzip' || coding === 'x-gzip') out = gunzipSync(out, options);
      else if (coding === 'deflate') out = inflateSync(out, options);
      else if (coding === 'br') out = brotliDecompressSync(out, options);
      else throw new UnknownEncodingError(coding);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLargeError(limit);
      throw error;
    }
  }
  return out;
}

export interface JsonExpectation {
  /** An empty body is fine (a 204, a DELETE): the answer is undefined. */
  emptyAllowed?: boolean;
  schema?: ResponseSchema;
}

/**
 * The JSON value of a success answer, as received: a JSON object or array
 * (of the schema's shape, extra fields accepted), else an UnexpectedAnswerError.
 */
export function checkJson(request: string, status: number, headers: Headers, text: string, expect: JsonExpectation = {}): unknown {
  if (text.trim() === '') {
    if (expect.emptyAllowed && !expect.schema) return undefined;
    throw new UnexpectedAnswerError(request, status, `an empty body${typeOf(headers)} where JSON was expected`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UnexpectedAnswerError(request, status, `${describeBody(headers, text)}, not JSON`);
  }
  if (value === null || typeof value !== 'object') {
    throw new UnexpectedAnswerError(request, status, `JSON ${JSON.stringify(value)} where an object was expected`);
  }
  if (expect.schema) {
    const result = expect.schema.safeParse(value);
    if (!result.success) throw new UnexpectedAnswerError(request, status, `a body not of the shape the spec gives: ${describeIssue(result.error.issues[0])}`);
  }
  return value;
}

/** "a text/html body starting "<!DOCTYPE html>..."" */
export function describeBody(headers: Headers, text: string): string {
  const type = first(headers['content-type'])?.split(';')[0]?.trim();
  // Bytes that are not text are never printed, escaped or not.
  if (isBinary(text)) return `a ${type || 'untyped'} body that is not text`;
  const start = text.trimStart().slice(0, 40);
  return `a ${type || 'untyped'} body starting ${JSON.stringify(start)}${text.trimStart().length > 40 ? '…' : ''}`;
}

function describeIssue(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (!issue) return 'unknown mismatch';
  const where = issue.path.map(String).join('.') || 'the body';
  return `${where}: ${issue.message}`;
}

function typeOf(headers: Headers): string {
  const type = first(headers['content-type'])?.split(';')[0]?.trim();
  return type ? ` (${type})` : '';
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function formatMiB(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${bytes} bytes`;
}
