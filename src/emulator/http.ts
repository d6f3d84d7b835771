// Request plumbing: a small router, JSON bodies, query parameters and paging.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail } from './problem.js';
import { PAGING } from '../rules/index.js';
import { jsonBodyInvalid, jsonBodyNotObject, jsonBodyTooLarge, queryParamInvalid } from '../rules/rejections.js';
import type { Envelope } from '../rules/schemas.js';

const MAX_JSON_BYTES = 1024 * 1024;

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
        params[name] = safeDecode(found[index + 1] ?? '');
      });
      return { route, params };
    }
    return { methodMismatch };
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Reads a JSON object body (an absent body is `{}`). */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_JSON_BYTES) fail(jsonBodyTooLarge(MAX_JSON_BYTES));
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
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
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
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
