// Request plumbing: a small router, JSON bodies, query parameters and paging.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail, Problem } from './problem.js';
import { PAGING } from '../rules/index.js';
import { jsonBodyInvalid, jsonBodyNotObject, jsonBodyTooDeep, jsonBodyTooLarge, percentEncodingInvalid, queryParamInvalid, uploadAborted } from '../rules/rejections.js';
import type { Envelope } from '../rules/schemas.js';

const MAX_JSON_BYTES = 1024 * 1024;
/** The spec's bodies nest three levels; far deeper is an attack on the parser, not a request. */
const MAX_JSON_DEPTH = 32;

export type Params = Record<string, string>;

export interface Route<C> {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: (ctx: C, params: Params) => Promise<void>;
}

export class Router<C> {
  private readonly routes: Route<C>[] = [];

  add(method: string, path: string, handler: (ctx: C, params: Params) => Promise<void>): this {
    const names: string[] = [];
    const source = path
      .split('/')
      .map((part) => {
        if (part.startsWith(':')) {
          names.push(part.slice(1));
          return '([^/]+)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
    return this;
  }

  /** The route for a path, or `undefined`; `methodMismatch` when the path exists under another method. */
  match(method: string, path: string): { route: Route<C>; params: Params } | { methodMismatch: boolean } {
    let methodMismatch = false;
    for (const route of this.routes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      const params: Params = {};
      route.names.forEach((name, index) => {
        params[name] = decodeSegment(found[index + 1] ?? '');
      });
      return { route, params };
    }
    return { methodMismatch };
  }
}

/** A path segment's text; a malformed percent-encoding is the client's mistake (400), never a lookup of the raw text. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    fail(percentEncodingInvalid('path segment', segment));
  }
}

/**
 * Reads a JSON object body (an absent body is `{}`). A body over the size
 * limit is refused as soon as that is known, from its Content-Length or
 * while it arrives; the server then answers and discards the rest.
 */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = (await readBody(req, MAX_JSON_BYTES)).toString('utf8').trim();
  if (text === '') return {};
  if (nestingDepth(text) > MAX_JSON_DEPTH) fail(jsonBodyTooDeep(MAX_JSON_DEPTH));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail(jsonBodyInvalid());
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail(jsonBodyNotObject());
  }
  return value as Record<string, unknown>;
}

/**
 * The whole body, at most `maxBytes`. Read with events, not `for await`: leaving
 * an async iterator early destroys the request and with it the socket, and
 * the client would get a reset instead of the answer.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) fail(jsonBodyTooLarge(maxBytes));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.pause();
      reject(new Problem(jsonBodyTooLarge(maxBytes)));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onClose = () => {
      stop();
      reject(new Problem(uploadAborted()));
    };
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onClose);
  });
}

/** How deep arrays and objects nest in a JSON text (strings skipped); counted without recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index += 1; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x7d || char === 0x5d) depth -= 1;
  }
  return deepest;
}

/** The request has a body and it has not all been read yet. */
export function bodyUnread(req: IncomingMessage): boolean {
  // `complete` turns true only after the handler starts, also for a request without a body.
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  return hasBody && !req.complete;
}

/** How long, and how many bytes, the rest of a refused body is read and dropped for (emulator.md). */
export interface Linger {
  ms: number;
  bytes: number;
}

/**
 * An answer sent before the request's body was read whole (a refused key, a
 * missing collection, too large), with a lingering close as nginx's: the
 * answer is written whole (`Connection: close`), then the rest of the body
 * is read and dropped, and only then does the response end and the
 * connection close. Closing with unread bytes would reset the connection
 * under a client still sending, and most clients then report the reset, not
 * the answer. Bounded: a client still sending after `linger.ms` or beyond
 * `linger.bytes` is cut off.
 */
export function answerBeforeBody(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string | number>, body: string, linger: Linger): void {
  res.writeHead(status, { ...headers, connection: 'close' });
  res.write(body);
  let dropped = 0;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, linger.ms);
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > linger.bytes) cut();
  });
  req.once('end', () => res.end());
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/** Drains and ignores whatever body a request carries. */
export async function drain(req: IncomingMessage): Promise<void> {
  if (req.readableEnded) return;
  req.resume();
  await new Promise<void>((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
    req.once('error', () => resolve());
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, jsonHeaders(text));
  res.end(text);
}

export function jsonHeaders(text: string): Record<string, string | number> {
  return { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) };
}

export function textHeaders(text: string): Record<string, string | number> {
  return { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) };
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, textHeaders(text));
  res.end(text);
}

/** URLSearchParams decodes a malformed escape leniently (to U+FFFD), so a value would be quietly changed: refuse it, as in the path. */
export function checkQueryEncoding(search: string): void {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    try {
      decodeURIComponent(pair.replace(/\+/g, ' '));
    } catch {
      fail(percentEncodingInvalid('query parameter', pair));
    }
  }
}

/** A positive integer query parameter, or the default; 400 when malformed. */
export function intParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) fail(queryParamInvalid(name, raw, 'an integer 1 or more'));
  return value;
}


/**
 * The spec's pagination envelope. pageSize is clamped to the emulator's
 * maximum (500, or the variation's), and the envelope says the size used.
 */
export function paginate<T>(all: T[], ctx: { query: URLSearchParams; emu: { variation: { maxPageSize: number } } }, pageName = 'pageNumber'): Envelope<T> {
  const { query } = ctx;
  const pageNumber = intParam(query, pageName, PAGING.defaultPageNumber);
  const pageSize = Math.min(intParam(query, 'pageSize', PAGING.defaultPageSize), ctx.emu.variation.maxPageSize);
  const start = (pageNumber - 1) * pageSize;
  return { totalResults: all.length, pageNumber, pageSize, results: all.slice(start, start + pageSize) };
}
