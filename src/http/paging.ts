// List envelopes and paging, in one place (cli.md "Reading the service"):
// every list read goes page after page until `totalResults` is reached,
// advancing by the page size the envelope REPORTS (a service may cap the
// requested size silently), and stops with a clear error when the service
// does not advance.
import { z } from 'zod';
import type { ApiClient, Query, ResponseSchema } from './client.js';
import { ServiceError } from './errors.js';

import type { Envelope } from '../rules/schemas.js';

export type { Envelope };

export const ALL_PAGE_SIZE = 100;

const count = z.number().int().min(0);
/** The list envelope of the spec; results checked by the item schema when given. */
export function envelopeSchema(item: ResponseSchema = z.unknown()): ResponseSchema {
  return z.object({ totalResults: count, pageNumber: count, pageSize: count, results: z.array(item as z.ZodType) });
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
