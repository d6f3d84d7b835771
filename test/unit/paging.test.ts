// http/paging.ts: the list envelope, checked by hand (zod stays off a read's
// path, issue 14): one row per way an answer can miss the spec's shape; then
// the reading of every page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/http/client.js';
import { ServiceError, UnexpectedAnswerError } from '../../src/http/errors.js';
import { ConflictError } from '../../src/errors.js';
import { ALL_PAGE_SIZE, LIST_READS, PAGES_IN_FLIGHT, eachPage, envelopeSchema, fetchAll, listPages, pageFooter } from '../../src/http/paging.js';
import { assetSchema } from '../../src/rules/schemas.js';

const asset = {
  assetId: 'A1',
  assetName: 'app',
  assetType: '1',
  secured: false,
  localCacheControl: true,
  localCacheMaxAge: 60,
  createdBy: 'a@b.c',
  updatedBy: 'a@b.c',
  active: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const envelope = (fields: Record<string, unknown>) => ({ totalResults: 1, pageNumber: 1, pageSize: 50, results: [asset], ...fields });

function issueOf(value: unknown, item?: typeof assetSchema): string | undefined {
  const result = envelopeSchema(item).safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

describe('the list envelope check', () => {
  it.each([
    ['an envelope of the spec', envelope({}), undefined],
    ['extra fields', envelope({ nextPage: 'x' }), undefined],
    ['an empty page', envelope({ totalResults: 0, results: [] }), undefined],
    ['an array', [asset], ': expected an object, received an array'],
    ['null', null, ': expected an object, received null'],
    ['a string', 'page', ': expected an object, received string'],
    ['totalResults missing', envelope({ totalResults: undefined }), 'totalResults: expected a whole number of at least 0, received undefined'],
    ['totalResults a string', envelope({ totalResults: '1' }), 'totalResults: expected a whole number of at least 0, received string'],
    ['pageNumber negative', envelope({ pageNumber: -1 }), 'pageNumber: expected a whole number of at least 0, received -1'],
    ['pageSize a fraction', envelope({ pageSize: 2.5 }), 'pageSize: expected a whole number of at least 0, received 2.5'],
    ['results missing', envelope({ results: undefined }), 'results: expected an array, received undefined'],
    ['results an object', envelope({ results: {} }), 'results: expected an array, received object'],
  ])('%s', (_name, value, expected) => {
    expect(issueOf(value)).toBe(expected);
  });

  it('checks each result with the item schema, naming the result and its field', () => {
    expect(issueOf(envelope({}), assetSchema)).toBeUndefined();
    expect(issueOf(envelope({ results: [asset, { ...asset, assetName: 7 }] }), assetSchema)).toMatch(/^results\.1\.assetName: /);
  });

  it('names the result when the item schema gives no issue', () => {
    const silent = { safeParse: () => ({ success: false as const, error: { issues: [] } }) };
    expect(issueOf(envelope({}), silent as unknown as typeof assetSchema)).toBe('results.0: not of the shape the spec gives');
  });
});

describe('the footer of a page', () => {
  const doc = (totalResults: number, pageNumber: number, pageSize: number, results: unknown[] = []) => ({ totalResults, pageNumber, pageSize, results });
  it.each<[string, ReturnType<typeof doc>, boolean, string | undefined]>([
    ['every page merged', doc(230, 1, 230), true, '230 result(s)'],
    ['a list on one page', doc(20, 1, 50), false, undefined],
    ['page 2 of 5', doc(230, 2, 50), false, 'page 2 of 5 (230 results); --page N for another, --all for every page'],
    ['pageSize 0: the page\'s results give the size', doc(30, 1, 0, [1, 2, 3]), false, 'page 1 of 10 (30 results); --page N for another, --all for every page'],
    ['pageSize 0 and no results: one per page', doc(3, 4, 0), false, 'page 4 of 3 (3 results); --page N for another, --all for every page'],
  ])('%s', (_name, page, merged, footer) => {
    expect(pageFooter(page, merged)).toBe(footer);
  });
});

// fetchAll and listPages against a fake list endpoint over real HTTP (an
// ApiClient as every command uses it): what is asked for, in what order and
// how many at once, and every way a list that does not add up is refused.
describe('reading every page of a list', () => {
  type Answer = { status?: number; body: unknown };
  type Page = (page: number, size: number, query: URLSearchParams) => Answer | Promise<Answer>;
  let server: Server;
  let baseUrl: string;
  let answer: Page;
  let requests: URLSearchParams[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      requests.push(query);
      void Promise.resolve(answer(Number(query.get('pageNumber')), Number(query.get('pageSize')), query)).then(({ status = 200, body }) => {
        const text = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));
  beforeEach(() => {
    requests = [];
  });

  const client = () => new ApiClient({ baseUrl, domainId: 'demo', apiKey: 'k', timeoutMs: 5000, retries: 0, env: {} });
  const path = '/api/v2/demo/list';
  const ids = (count: number, from = 0) => Array.from({ length: count }, (_, index) => ({ id: `R${from + index}` }));
  /** A service of `total` results that caps the page size at `cap` and says so in the envelope. */
  const capped = (total: number, cap: number): Page => (page, size) => {
    const used = Math.min(size, cap);
    return { body: { totalResults: total, pageNumber: page, pageSize: used, results: ids(Math.max(0, Math.min(used, total - (page - 1) * used)), (page - 1) * used) } };
  };
  const sizes = () => requests.map((query) => query.get('pageSize'));
  const pageNumbers = () => requests.map((query) => Number(query.get('pageNumber')));

  async function failure(promise: Promise<unknown>): Promise<Error & { exitCode?: number }> {
    try {
      await promise;
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a failure');
  }

  it('asks for a large first page and takes a list that fits in it in one request', async () => {
    answer = capped(700, 5000);
    const rows = await fetchAll<{ id: string }>(client(), path);
    expect(rows).toEqual(ids(700));
    expect(sizes()).toEqual([String(ALL_PAGE_SIZE)]);
  });

  it('reads the other pages at the size the service reported, each once, results in order', async () => {
    answer = capped(1000, 20);
    const rows = await fetchAll<{ id: string }>(client(), path);
    expect(rows).toEqual(ids(1000));
    expect(sizes()).toEqual([String(ALL_PAGE_SIZE), ...Array<string>(49).fill('20')]);
    expect([...pageNumbers()].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  });

  it(`reads the pages after the first ${PAGES_IN_FLIGHT} at a time, never more`, async () => {
    // Each later page is answered only once as many requests wait as the
    // client may send: a client reading one page after another never gets
    // its answer (the test times out), one sending more is seen.
    const pages = 30;
    let waiting: (() => void)[] = [];
    let unanswered = pages - 1;
    let most = 0;
    const serve = capped(pages * 10, 10);
    answer = (page, size, query) => {
      if (page === 1) return serve(page, size, query);
      return new Promise((done) => {
        waiting.push(() => done(serve(page, size, query)));
        most = Math.max(most, waiting.length);
        if (waiting.length === Math.min(PAGES_IN_FLIGHT, unanswered)) {
          unanswered -= waiting.length;
          const release = waiting;
          waiting = [];
          for (const send of release) send();
        }
      });
    };
    expect(await fetchAll(client(), path)).toHaveLength(pages * 10);
    expect(most).toBe(PAGES_IN_FLIGHT);
  });

  it('--all asks for the --page-size given first (listPages), then the size the service reported', async () => {
    answer = capped(25, 10);
    const { doc, merged } = await listPages<{ id: string }>(client(), path, { all: true, pageSize: 7 });
    expect(merged).toBe(true);
    expect(doc).toEqual({ totalResults: 25, pageNumber: 1, pageSize: 25, results: ids(25) });
    expect(sizes()).toEqual(['7', '7', '7', '7']);
  });

  it('without --all, reads the one page asked for and returns its envelope unchanged', async () => {
    answer = capped(30, 20);
    const { doc, rows, merged } = await listPages<{ id: string }>(client(), path, { page: 2, pageSize: 5, query: { state: 'LIVE' } });
    expect(merged).toBe(false);
    expect(doc).toEqual({ totalResults: 30, pageNumber: 2, pageSize: 5, results: ids(5, 5) });
    expect(rows).toEqual(ids(5, 5));
    expect(requests.map((query) => query.toString())).toEqual(['state=LIVE&pageNumber=2&pageSize=5']);
  });

  it('takes a page size given as a number (fetchAll)', async () => {
    answer = capped(5, 10);
    await fetchAll(client(), path, {}, 3);
    expect(sizes()).toEqual(['3', '3']);
  });

  it('passes the query on every page', async () => {
    answer = capped(30, 20);
    await fetchAll(client(), path, { state: 'LIVE' });
    expect(requests.map((query) => query.get('state'))).toEqual(['LIVE', 'LIVE']);
  });

  it('checks each result of every page with the item schema (listPages --all)', async () => {
    answer = (page, size) => {
      const body = (capped(30, 20)(page, size, new URLSearchParams()) as Answer).body as { results: { id: unknown }[] };
      if (page === 2) body.results[3] = { id: 7 };
      return { body };
    };
    const item = z.object({ id: z.string() });
    const error = await failure(listPages(client(), path, { all: true, item }));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error.message).toMatch(/results\.3\.id: /);
  });

  it('a 400 is "not found" (exit 4) when the caller says so: one page, --all, fetchAll', async () => {
    answer = () => ({ status: 400, body: { type: 'about:blank', title: 'unknown collection id', status: 400, detail: 'x' } });
    expect((await failure(listPages(client(), path, { all: true, notFound: true }))).exitCode).toBe(4);
    expect((await failure(listPages(client(), path, { notFound: true }))).exitCode).toBe(4);
    expect((await failure(fetchAll(client(), path, {}, 50, true))).exitCode).toBe(4);
    expect((await failure(fetchAll(client(), path, {}, { notFound: true }))).exitCode).toBe(4);
    expect((await failure(fetchAll(client(), path))).exitCode).toBe(1);
  });

  describe('a list that does not add up is refused, never returned short or with duplicates', () => {
    const envelope = (totalResults: number, pageNumber: number, pageSize: number, results: unknown[]) => ({ body: { totalResults, pageNumber, pageSize, results } });

    it.each<[string, Page, string]>([
      ['an empty first page', () => envelope(9, 1, 20, []), 'page 1: the service answered an empty page before the end of the list (0 of 9 results read)'],
      ['pageSize 0 on the first page', (page) => envelope(30, page, 0, ids(5)), 'page 1: the service reported pageSize 0 (5 of 30 results read)'],
      ['an empty later page', (page) => envelope(30, page, 10, page === 2 ? [] : ids(10, (page - 1) * 10)), 'page 2: the service answered an empty page before the end of the list (10 of 30 results read)'],
      ['pageSize changing between pages', (page) => envelope(30, page, page === 3 ? 15 : 10, ids(10, (page - 1) * 10)), 'page 3: the service reported pageSize 15 for a page of 10 (30 of 30 results read)'],
      ['a short page before the last', (page) => envelope(30, page, 10, ids(page === 2 ? 9 : 10, (page - 1) * 10)), 'page 2: a page held 9 results where the service reported pageSize 10 (19 of 30 results read)'],
      ['the last page short: the rest would be past the last page', (page) => envelope(25, page, 10, ids(page === 3 ? 4 : 10, (page - 1) * 10)), 'page 3: the last page held 4 results where 5 were left: the list ends before its totalResults (24 of 25 results read)'],
      ['a page holding more than its size', (page) => envelope(30, page, 10, ids(page === 2 ? 11 : 10, (page - 1) * 10)), 'page 2: a page held 11 results where 10 were due (21 of 30 results read)'],
      ['the last page holding more than was left', (page) => envelope(25, page, 10, ids(10, (page - 1) * 10)), 'page 3: a page held 10 results where 5 were due (30 of 25 results read)'],
      ['the same page twice', (page) => envelope(30, page, 10, ids(10, page === 3 ? 10 : (page - 1) * 10)), 'page 3: the service answered the same page twice (30 of 30 results read)'],
    ])('%s', async (_name, page, says) => {
      answer = page;
      const error = await failure(fetchAll(client(), path));
      expect(error).toBeInstanceOf(ServiceError);
      expect(error.message).toBe(`GET /list ${says}; the list cannot be read reliably`);
      expect(error.exitCode).toBe(1);
    });

    it('reads the list again when its totalResults changes between pages (another run writing), and returns the new list whole', async () => {
      let reads = 0;
      answer = (page, size, query) => {
        if (page === 1) reads++;
        // The first read sees 30 on page 1 and 31 after; the second, 31 throughout.
        const total = reads === 1 && page === 1 ? 30 : 31;
        return capped(total, 10)(page, size, query);
      };
      expect(await fetchAll(client(), path)).toEqual(ids(31));
      expect(reads).toBe(2);
    });

    it(`gives up with exit 5 naming the change when the list changes ${LIST_READS} reads in a row`, async () => {
      let total = 30;
      // Every read sees one more result after its first page than on it.
      answer = (page, size, query) => capped(page === 1 ? ++total : total + 1, 10)(page, size, query);
      const error = await failure(fetchAll(client(), path));
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.exitCode).toBe(5);
      expect(error.message).toBe(
        'GET /list: the list changed while it was read, 3 times in a row (totalResults 31 on page 1, 32 on page 2; totalResults 32 on page 1, 33 on page 2; totalResults 33 on page 1, 34 on page 2): another run is writing to it; try again once it is done',
      );
      expect(pageNumbers().filter((page) => page === 1)).toHaveLength(LIST_READS);
    });

    it('starts no page after one failed', async () => {
      answer = (page, size, query) => (page === 2 ? { status: 500, body: { title: 'boom', status: 500 } } : capped(1000, 10)(page, size, query));
      expect((await failure(fetchAll(client(), path))).exitCode).toBe(1);
      expect(requests.length).toBeLessThanOrEqual(1 + PAGES_IN_FLIGHT);
    });
  });
});

// eachPage: the library's lazy lists (issue 35), one page at a time, as the caller takes them.
describe('reading a list page by page, as the caller takes it', () => {
  let server: Server;
  let baseUrl: string;
  let total = 0;
  let cap = 0;
  let emptyFrom = Infinity;
  let requests: URLSearchParams[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      requests.push(query);
      const page = Number(query.get('pageNumber'));
      const used = Math.min(Number(query.get('pageSize')), cap);
      const first = (page - 1) * used;
      const count = page >= emptyFrom ? 0 : Math.max(0, Math.min(used, total - first));
      const text = JSON.stringify({ totalResults: total, pageNumber: page, pageSize: used, results: Array.from({ length: count }, (_, i) => ({ id: `R${first + i}` })) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));
  beforeEach(() => {
    requests = [];
    emptyFrom = Infinity;
  });
  const client = () => new ApiClient({ baseUrl, domainId: 'demo', apiKey: 'k', timeoutMs: 5000, retries: 0, env: {} });
  const read = async (options: { pageSize?: number; stopAfter?: number } = {}) => {
    const pages: Array<{ pageNumber: number; ids: string[] }> = [];
    for await (const envelope of eachPage<{ id: string }>(client(), '/api/v2/demo/list', { state: 'LIVE' }, { pageSize: options.pageSize })) {
      pages.push({ pageNumber: envelope.pageNumber, ids: envelope.results.map((r) => r.id) });
      if (pages.length === options.stopAfter) break;
    }
    return pages;
  };

  it.each([
    ['a list that fits in the first page: one request', 30, 1000, undefined, ['1000'], [30]],
    ['a capped service: the later pages at the size it reported', 45, 20, undefined, ['1000', '20', '20'], [20, 20, 5]],
    ['the page size asked for first, then the reported one', 25, 10, 7, ['7', '7', '7', '7'], [7, 7, 7, 4]],
    ['an empty list: one request, one empty page', 0, 20, undefined, ['1000'], [0]],
    ['a list that ends exactly on a page', 40, 20, undefined, ['1000', '20'], [20, 20]],
  ] as const)('%s', async (_name, size, limit, pageSize, asked, counts) => {
    total = size;
    cap = limit;
    const pages = await read({ pageSize });
    expect(requests.map((q) => q.get('pageSize'))).toEqual(asked);
    expect(requests.every((q) => q.get('state') === 'LIVE')).toBe(true);
    expect(requests.map((q) => Number(q.get('pageNumber')))).toEqual(asked.map((_, i) => i + 1));
    expect(pages.map((p) => p.ids.length)).toEqual(counts);
    expect(pages.flatMap((p) => p.ids)).toEqual(Array.from({ length: size }, (_, i) => `R${i}`));
  });

  it('sends nothing more once the caller stops (a break after the first page)', async () => {
    total = 100;
    cap = 10;
    const pages = await read({ stopAfter: 1 });
    expect(pages).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });

  it('refuses a list whose page runs empty before its totalResults', async () => {
    total = 50;
    cap = 10;
    emptyFrom = 3;
    await expect(read()).rejects.toThrow(/page 3: the service answered an empty page before the end of the list \(20 of 50 results read\)/);
    expect(requests).toHaveLength(3);
  });

  it('a missing thing named by a 400 is not found (exit 4) when the caller says a 400 means that', async () => {
    total = 5;
    cap = 10;
    const answer400 = createServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'x', title: 'Collection not found', status: 400, detail: 'd' })));
    await new Promise<void>((done) => answer400.listen(0, '127.0.0.1', done));
    try {
      const api = new ApiClient({ baseUrl: `http://127.0.0.1:${(answer400.address() as AddressInfo).port}`, domainId: 'demo', apiKey: 'k', timeoutMs: 5000, retries: 0, env: {} });
      const first = (notFound: boolean) => eachPage(api, '/api/v2/demo/vc/c/items', {}, { notFound }).next();
      await expect(first(true)).rejects.toMatchObject({ status: 400, exitCode: 4 });
      await expect(first(false)).rejects.toMatchObject({ status: 400, exitCode: 1 });
    } finally {
      await new Promise<void>((done) => answer400.close(() => done()));
    }
  });

  it('refuses a first page that cannot set the size of the others', async () => {
    total = 50;
    cap = 10;
    emptyFrom = 1;
    await expect(read()).rejects.toThrow(/page 1: the service answered an empty page before the end of the list \(0 of 50 results read\)/);
    expect(requests).toHaveLength(1);
  });
});
