// ahs api METHOD PATH [--field k=v...] [--input FILE] [--paginate]
// One request as given, with the settings every command uses; the answer
// printed as JSON. --paginate reads a list page after page (src/http/paging.ts).
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { apiSpec } from './index.js';
import type { Context } from '../../context.js';
import { AhsError, UsageError } from '../../errors.js';
import { startRecording, type EntryFields } from '../../plan/journal-record.js';
import type { Method, Query } from '../../http/client.js';
import { fetchAll } from '../../http/paging.js';
import { pathOf } from '../../service/api-path.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type ApiMethod = (typeof METHODS)[number];

export const run: Run<typeof apiSpec> = async (options, ctx) => {
  const method = methodOf(options.method);
  if (options.paginate && method !== 'GET') throw new UsageError(`${nameOf(apiSpec, 'paginate')} reads a list: it needs GET (got ${method})`);
  const fields = parseFields(options.field ?? []);
  const input = options.input === undefined ? undefined : await readInput(ctx, options.input);
  // As gh: without a body of its own, fields make the body of a write; otherwise they are the query.
  const inQuery = method === 'GET' || input !== undefined;
  const body = input ?? (inQuery || Object.keys(fields).length === 0 ? undefined : fields);
  const query = inQuery ? queryOf(fields) : undefined;
  const domainId = (await ctx.settings()).require('domainId');
  const path = pathOf(options.path, domainId);
  const out = await ctx.output();
  if (ctx.globals.dryRun) {
    out.print({ dryRun: true, request: { method, path, query: query ?? {}, body: body ?? null } }, (doc) => JSON.stringify(doc, null, 2));
    return;
  }
  const api = await ctx.api();
  // A write is recorded in the journal as the raw request (its collection is read beside it).
  const recording = method === 'GET' ? undefined : startRecording(ctx);
  let answer: unknown;
  try {
    answer = options.paginate ? listOf(await fetchAll<unknown>(api, path, query)) : await api.json<unknown>({ method: method as Method, path, query, body });
  } catch (error) {
    if (error instanceof AhsError && error.outcome === 'unknown') await recording?.record(requestEntry(method, path, query, body, 'unknown', error.exitCode));
    throw error;
  }
  await recording?.record(requestEntry(method, path, query, body, 'applied', 0));
  // An empty answer (204, a DELETE) prints nothing; anything else as JSON, whatever the format: it is the API's own document.
  if (answer === undefined) return;
  out.print(answer, (doc) => JSON.stringify(doc, null, 2));
};

/** The journal's entry of a raw request: what was sent, as sent (the body as JSON text, at most 2,000 characters). */
function requestEntry(method: string, path: string, query: Query | undefined, body: unknown, outcome: 'applied' | 'unknown', exitCode: number): EntryFields {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const after = { method, path, ...(query && Object.keys(query).length ? { query: JSON.stringify(query) } : {}), ...(text !== undefined ? { body: text.length > 2000 ? `${text.slice(0, 2000)}…` : text } : {}) };
  return { command: 'api', arguments: [method, path], changes: [{ address: `request.${method}`, before: null, after, ...(outcome === 'unknown' ? { unknownAfter: ['answer'] } : {}) }], outcome, exitCode };
}

function methodOf(raw: string): ApiMethod {
  const method = raw.toUpperCase();
  if (!(METHODS as readonly string[]).includes(method)) throw new UsageError(`METHOD must be one of ${METHODS.join(', ')} (got ${raw})`);
  return method as ApiMethod;
}

/**
 * `--field name=text` is a string (the API's codes are strings: assetType
 * "1001"); `--field count:=5`, `flag:=true`, `types:=["9999"]` a JSON value
 * (httpie's rule).
 */
export function parseFields(given: string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const raw of given) {
    const at = raw.indexOf('=');
    if (at <= 0 || (at === 1 && raw[0] === ':')) throw new UsageError(`--field must be key=value or key:=JSON (got ${JSON.stringify(raw)})`);
    if (raw[at - 1] !== ':') {
      fields[raw.slice(0, at)] = raw.slice(at + 1);
      continue;
    }
    const key = raw.slice(0, at - 1);
    try {
      fields[key] = JSON.parse(raw.slice(at + 1));
    } catch {
      throw new UsageError(`--field ${key}:= must be followed by a JSON value (got ${JSON.stringify(raw.slice(at + 1))}); for text, use ${key}=...`);
    }
  }
  return fields;
}

function queryOf(fields: Record<string, unknown>): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(fields)) query[key] = typeof value === 'object' && value !== null ? JSON.stringify(value) : (value as Query[string]);
  return query;
}

async function readInput(ctx: Context, file: string): Promise<unknown> {
  let raw: string;
  try {
    raw = file === '-' ? await text(ctx.io.in) : await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--input: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`--input: ${file === '-' ? 'stdin' : file} is not JSON: ${(error as Error).message}`);
  }
}

function listOf(results: unknown[]) {
  return { totalResults: results.length, pageNumber: 1, pageSize: results.length, results };
}
