// ahs api METHOD PATH [--field k=v...] [--input FILE] [--paginate]
// One request as given, with the settings every command uses; the answer
// printed as JSON. --paginate reads a list page after page (src/http/paging.ts);
// a write is a plan the executor runs (src/operations/api-request.ts).
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { apiSpec } from './index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Query } from '../../http/client.js';
import { thenDo } from '../../plan/plan.js';
import { planWriteRequest, readRequest } from '../../operations/api-request.js';
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
  // An empty answer (204, a DELETE) prints nothing; anything else as JSON, whatever the format: it is the API's own document.
  const print = (answer: unknown) => {
    if (answer !== undefined) out.print(answer, (doc) => JSON.stringify(doc, null, 2));
  };
  if (method === 'GET') return print(await readRequest(ctx, { method, path, query, paginate: options.paginate }));
  // A write runs through the executor: change control's gate, the journal's entry of the raw request, --dry-run's prediction.
  return thenDo(planWriteRequest(ctx, { method, path, query, body }), print);
};

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
