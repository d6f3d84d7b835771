// List envelopes and paging, in one place (cli.md "Reading the service"):
// every list read goes page after page until `totalResults` is reached,
// advancing by the page size the envelope REPORTS (a service may cap the
// requested size silently), and stops with a clear error when the service
// does not advance.
import type { ApiClient, Query, ResponseSchema } from './client.js';
import { ServiceError } from './errors.js';

import type { Envelope } from '../rules/schemas.js';

export type { Envelope };

export const ALL_PAGE_SIZE = 100;

type Issue = { path: PropertyKey[]; message: string };

/**
 * The list envelope of the spec, checked here rather than by a zod schema:
 * a read of a list then never loads zod, which was 7 of the 92 ms of
 * `ahs asset list --json` (issue 14). Each result is checked by `item`
 * (a zod schema of rules/schemas.ts) when given.
 */
export function envelopeSchema(item?: ResponseSchema): ResponseSchema {
  return {
    safeParse(value: unknown) {
      const issue = envelopeIssue(value, item);
      return issue ? { success: false, error: { issues: [issue] } } : { success: true };
    },
  };
}

function envelopeIssue(value: unknown, item: ResponseSchema | undefined): Issue | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { path: [], message: `expected an object, received ${kindOf(value)}` };
  const envelope = value as Record<string, unknown>;
  for (const key of ['totalResults', 'pageNumber', 'pageSize']) {
    const count = envelope[key];
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      return { path: [key], message: `expected a whole number of at least 0, received ${typeof count === 'number' ? count : kindOf(count)}` };
    }
  }
  const results = envelope.results;
  if (!Array.isArray(results)) return { path: ['results'], message: `expected an array, received ${kindOf(results)}` };
  if (!item) return undefined;
  for (const [index, result] of results.entries()) {
    const checked = item.safeParse(result);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return { path: ['results', index, ...(issue?.path ?? [])], message: issue?.message ?? 'not of the shape the spec gives' };
    }
  }
  return undefined;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

export interface PageOptions {
  /** The size to ask for first; later pages ask for the size the service reported. */
  pageSize?: number;
  notFound?: boolean;
  /** The schema of one result (from rules/schemas.ts); the envelope is always checked. */
  item?: ResponseSchema;
}

/** Reads every page of a list endpoint (pageNumber/pageSize) and returns all results. */
export async function fetchAll<T>(api: ApiClient, path: string, query: Query = {}, pageSizeOrOptions: number | PageOptions = ALL_PAGE_SIZE, notFound = false): Promise<T[]> {
  const options: PageOptions = typeof pageSizeOrOptions === 'number' ? { pageSize: pageSizeOrOptions, notFound } : pageSizeOrOptions;
  const schema = envelopeSchema(options.item);
  const results: T[] = [];
  let size = options.pageSize ?? ALL_PAGE_SIZE;
  let previous: string | undefined;
  for (let page = 1; ; page++) {
    const request = `${api.describe('GET', api.url(path))} page ${page}`;
    const envelope = await api.get<Envelope<T>>(path, { ...query, pageNumber: page, pageSize: size }, { notFound: options.notFound, schema });
    results.push(...envelope.results);
    if (results.length >= envelope.totalResults) return results;
    const stuck = stall(envelope, page, size, previous);
    if (stuck) throw new ServiceError(`${request}: ${stuck} (${results.length} of ${envelope.totalResults} results read); the list cannot be read reliably`);
    // Later pages ask for the size the service reported on the first, or
    // fewer when it gave fewer than it claims (a cap applied silently to a
    // size it echoes back).
    if (page === 1) size = Math.min(envelope.pageSize, envelope.results.length);
    previous = JSON.stringify(envelope.results);
  }
}

/** Why the service is not advancing through a list, or undefined when it is. `asked`: the page size of this request. */
function stall(envelope: Envelope<unknown>, page: number, asked: number, previous: string | undefined): string | undefined {
  if (envelope.results.length === 0) return 'the service answered an empty page before the end of the list';
  if (envelope.pageSize <= 0) return `the service reported pageSize ${envelope.pageSize}`;
  if (page === 1) return undefined; // the first answer sets the size
  if (envelope.pageSize !== asked) return `the service reported pageSize ${envelope.pageSize} for a page of ${asked}`;
  if (envelope.results.length < asked) return `a page held ${envelope.results.length} results where the service reported pageSize ${asked}`;
  if (JSON.stringify(envelope.results) === previous) return 'the service answered the same page twice';
  // Bounded: a page past the last one the total allows is not progress.
  if (page > Math.ceil(envelope.totalResults / asked)) return 'the service answered past its last page';
  return undefined;
}

/**
 * One page (the API envelope, unchanged) or, with `all`, every page merged
 * into the list envelope of cli.md.
 */
export async function listPages<T>(
  api: ApiClient,
  path: string,
  options: { page?: number; pageSize?: number; all?: boolean; query?: Query; notFound?: boolean; item?: ResponseSchema },
): Promise<{ doc: Envelope<T>; rows: T[]; merged: boolean }> {
  if (options.all) {
    const rows = await fetchAll<T>(api, path, options.query, { pageSize: options.pageSize ?? ALL_PAGE_SIZE, notFound: options.notFound, item: options.item });
    return { doc: { totalResults: rows.length, pageNumber: 1, pageSize: rows.length, results: rows }, rows, merged: true };
  }
  const doc = await api.get<Envelope<T>>(path, { ...options.query, pageNumber: options.page, pageSize: options.pageSize }, { notFound: options.notFound, schema: envelopeSchema(options.item) });
  return { doc, rows: doc.results, merged: false };
}

/** A footer for a page of a list: "page 2 of 5 (230 results); --all for every page". */
export function pageFooter(doc: Envelope<unknown>, merged: boolean): string | undefined {
  if (merged) return `${doc.totalResults} result(s)`;
  const size = doc.pageSize || doc.results.length || 1;
  const pages = Math.max(1, Math.ceil(doc.totalResults / size));
  if (pages <= 1) return undefined;
  return `page ${doc.pageNumber} of ${pages} (${doc.totalResults} results); --page N for another, --all for every page`;
}
