// List envelopes and paging, in one place (cli.md "Reading the service"):
// a list read asks for a large page, learns from the first envelope the size
// the service really uses (a service may cap the requested size silently)
// and how many results there are, then reads the remaining pages in
// parallel, at most PAGES_IN_FLIGHT at once: a list of any length takes two
// rounds of requests, not one per page (issue 21). Every page is checked
// against what the first one announced; a list that does not add up is a
// clear error, never a short or duplicated list.
import type { ApiClient, Query, ResponseSchema } from './client.js';
import { ServiceError } from './errors.js';
import { ConflictError } from '../errors.js';
import { eachLimited } from '../util/pool.js';

import type { Envelope } from '../rules/schemas.js';

export type { Envelope };

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

/**
 * What a list read asks for first when the caller names no size: more than
 * any list ahs reads in one go usually holds, so that most lists take one
 * request; a service that caps it says so in the envelope, and the other
 * pages are then asked at its size.
 */
export const ALL_PAGE_SIZE = 1000;
/** Pages read at once after the first (the issue's "at most 8 requests in flight"). */
export const PAGES_IN_FLIGHT = 8;
/**
 * Whole reads of a list whose totalResults changes while it is read (another
 * run writing to it, which cli.md expects) before ahs gives up: each read
 * takes two rounds, and a writer rarely changes a list three times in a row.
 */
export const LIST_READS = 3;

/**
 * Reads every page of a list endpoint (pageNumber/pageSize) and returns all
 * results, in the service's order, each once.
 */
export async function fetchAll<T>(api: ApiClient, path: string, query: Query = {}, pageSizeOrOptions: number | PageOptions = ALL_PAGE_SIZE, notFound = false): Promise<T[]> {
  const options: PageOptions = typeof pageSizeOrOptions === 'number' ? { pageSize: pageSizeOrOptions, notFound } : pageSizeOrOptions;
  const changes: string[] = [];
  for (;;) {
    const read = await readList<T>(api, path, query, options);
    if ('results' in read) return read.results;
    changes.push(read.changed);
    if (changes.length >= LIST_READS) {
      // Another run's change in the way: exit 5 (cli.md).
      throw new ConflictError(
        `${listLabel(api, path)}: the list changed while it was read, ${LIST_READS} times in a row (${changes.join('; ')}): another run is writing to it; try again once it is done`,
      );
    }
  }
}

type ListRead<T> = { results: T[] } | { changed: string };

/** One read of a whole list: page 1, then the others in parallel; `changed` when its totalResults moved meanwhile. */
async function readList<T>(api: ApiClient, path: string, query: Query, options: PageOptions): Promise<ListRead<T>> {
  const schema = envelopeSchema(options.item);
  const readPage = (page: number, size: number) =>
    api.get<Envelope<T>>(path, { ...query, pageNumber: page, pageSize: size }, { notFound: options.notFound, schema });
  const first = await readPage(1, options.pageSize ?? ALL_PAGE_SIZE);
  const total = first.totalResults;
  if (first.results.length >= total) return { results: first.results };
  const stuck = firstPageStall(first);
  if (stuck) throw stalled(api, path, 1, stuck, first.results.length, total);
  // Later pages ask for the size the service reported on the first, or
  // fewer when it gave fewer than it claims (a cap applied silently to a
  // size it echoes back).
  const size = Math.min(first.pageSize, first.results.length);
  const pages = Math.ceil(total / size);
  const rest = await readPages(pages, (page) => readPage(page, size));
  let read = first.results.length;
  let previous = JSON.stringify(first.results);
  for (const [index, envelope] of rest.entries()) {
    const page = index + 2;
    // Checked before the page's shape: a list that grew or shrank moves every page after the change.
    if (envelope.totalResults !== total) return { changed: `totalResults ${total} on page 1, ${envelope.totalResults} on page ${page}` };
    read += envelope.results.length;
    const left = total - (page - 1) * size;
    const why = pageStall(envelope, size, Math.min(size, left), page === pages, previous);
    if (why) throw stalled(api, path, page, why, read, total);
    previous = JSON.stringify(envelope.results);
  }
  return { results: [first, ...rest].flatMap((envelope) => envelope.results) };
}

/** Pages 2 to `pages`, at most PAGES_IN_FLIGHT at once, in page order; none starts after one fails. */
async function readPages<E>(pages: number, readPage: (page: number) => Promise<E>): Promise<E[]> {
  const numbers = Array.from({ length: pages - 1 }, (_, index) => index + 2);
  const answers: E[] = [];
  let failure: { error: unknown } | undefined;
  await eachLimited(numbers, PAGES_IN_FLIGHT, NEVER_ABORTED, async (page, index) => {
    try {
      answers[index] = await readPage(page);
    } catch (error) {
      failure ??= { error };
      return false;
    }
  });
  if (failure) throw failure.error;
  return answers;
}

const NEVER_ABORTED = new AbortController().signal;

/** Why the first page cannot set the size of the others (the list being longer than it), or undefined. */
function firstPageStall(envelope: Envelope<unknown>): string | undefined {
  if (envelope.results.length === 0) return 'the service answered an empty page before the end of the list';
  if (envelope.pageSize <= 0) return `the service reported pageSize ${envelope.pageSize}`;
  return undefined;
}

/**
 * Why a later page does not hold what the first announced, or undefined.
 * `asked`: the page size of the request; `expected`: the results this page
 * must hold (fewer on the last page).
 */
function pageStall(envelope: Envelope<unknown>, asked: number, expected: number, last: boolean, previous: string): string | undefined {
  const held = envelope.results.length;
  if (held === 0) return 'the service answered an empty page before the end of the list';
  if (envelope.pageSize !== asked) return `the service reported pageSize ${envelope.pageSize} for a page of ${asked}`;
  if (JSON.stringify(envelope.results) === previous) return 'the service answered the same page twice';
  if (held > expected) return `a page held ${held} results where ${expected} were due`;
  if (held < expected && !last) return `a page held ${held} results where the service reported pageSize ${asked}`;
  // The results the total promises would be on a page past the last one.
  if (held < expected) return `the last page held ${held} results where ${expected} were left: the list ends before its totalResults`;
  return undefined;
}

function stalled(api: ApiClient, path: string, page: number, why: string, read: number, total: number): ServiceError {
  return new ServiceError(`${listLabel(api, path)} page ${page}: ${why} (${read} of ${total} results read); the list cannot be read reliably`);
}

/** "GET /va": the list as messages name it. */
function listLabel(api: ApiClient, path: string): string {
  return api.describe('GET', api.url(path));
}

/**
 * The pages of a list one request at a time, as the caller takes them (the
 * library's lazy lists, issue 35): page 1 asks for `pageSize` (default
 * ALL_PAGE_SIZE), the others for the size the service reported on it; it
 * stops once totalResults are read, or when the caller stops asking (a
 * `break` sends nothing more). A list that changes while it is read may
 * move a result across a page boundary: fetchAll() reads a consistent whole.
 */
export async function* eachPage<T>(api: ApiClient, path: string, query: Query = {}, options: PageOptions = {}): AsyncGenerator<Envelope<T>, void, undefined> {
  const schema = envelopeSchema(options.item);
  const readPage = (page: number, size: number) => api.get<Envelope<T>>(path, { ...query, pageNumber: page, pageSize: size }, { notFound: options.notFound, schema });
  let envelope = await readPage(1, options.pageSize ?? ALL_PAGE_SIZE);
  let read = envelope.results.length;
  yield envelope;
  // As fetchAll: the later pages at the size the service used, or fewer when it gave fewer than it claims.
  const size = Math.min(envelope.pageSize, envelope.results.length);
  for (let page = 2; read < envelope.totalResults; page++) {
    const stuck = firstPageStall(envelope);
    if (stuck) throw stalled(api, path, page - 1, stuck, read, envelope.totalResults);
    envelope = await readPage(page, size);
    read += envelope.results.length;
    yield envelope;
  }
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
