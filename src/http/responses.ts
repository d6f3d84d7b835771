// Checks of success answers: size (read in chunks, never past the cap), JSON,
// shape. A failed check names the request and what came back, in one line.
import type { AnswerBody } from './body.js';
import { UnexpectedAnswerError } from './errors.js';

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

/**
 * Reads a body as UTF-8 text, at most `limit` bytes: a larger one (by its
 * content-length, or counted while it streams) is dropped unread and is an
 * UnexpectedAnswerError when `request` names it, else a TooLargeError.
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
  return Buffer.concat(chunks).toString('utf8');
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
