// List envelopes and --all paging.
import type { ApiClient, Query } from './client.js';

export interface Envelope<T> {
  totalResults: number;
  pageNumber: number;
  pageSize: number;
  results: T[];
}

export const ALL_PAGE_SIZE = 100;

/** Reads every page of a list endpoint (pageNumber/pageSize) and returns all results. */
export async function fetchAll<T>(api: ApiClient, path: string, query: Query = {}, pageSize = ALL_PAGE_SIZE, notFound = false): Promise<T[]> {
  const results: T[] = [];
  for (let page = 1; ; page++) {
    const envelope = await api.get<Envelope<T>>(path, { ...query, pageNumber: page, pageSize }, { notFound });
    const batch = envelope?.results ?? [];
    results.push(...batch);
    const total = typeof envelope?.totalResults === 'number' ? envelope.totalResults : undefined;
    if (batch.length === 0 || batch.length < pageSize || (total !== undefined && results.length >= total)) break;
    if (page > 100_000) break; // a service that never ends its list
  }
  return results;
}

/**
 * One page (the API envelope, unchanged) or, with `all`, every page merged
 * into the list envelope of cli.md.
 */
export async function listPages<T>(
  api: ApiClient,
  path: string,
  options: { page?: number; pageSize?: number; all?: boolean; query?: Query; notFound?: boolean },
): Promise<{ doc: Envelope<T>; rows: T[]; merged: boolean }> {
  if (options.all) {
    const rows = await fetchAll<T>(api, path, options.query, options.pageSize ?? ALL_PAGE_SIZE, options.notFound);
    return { doc: { totalResults: rows.length, pageNumber: 1, pageSize: rows.length, results: rows }, rows, merged: true };
  }
  const doc = await api.get<Envelope<T>>(path, { ...options.query, pageNumber: options.page, pageSize: options.pageSize }, { notFound: options.notFound });
  return { doc, rows: doc?.results ?? [], merged: false };
}

/** A footer for a page of a list: "page 2 of 5 (230 results); --all for every page". */
export function pageFooter(doc: Envelope<unknown>, merged: boolean): string | undefined {
  if (merged) return `${doc.totalResults} result(s)`;
  const size = doc.pageSize || doc.results.length || 1;
  const pages = Math.max(1, Math.ceil(doc.totalResults / size));
  if (pages <= 1) return undefined;
  return `page ${doc.pageNumber} of ${pages} (${doc.totalResults} results); --page N for another, --all for every page`;
}
