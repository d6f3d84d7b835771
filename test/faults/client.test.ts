// ApiClient against the emulator through the fault proxy: paging by the
// envelope, answers that are not what the spec says, bodies that break off,
// the --timeout budget, lost answers of writes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, DEMO_API_KEY, DEMO_DOMAIN, DEMO_USER, type RunningEmulator } from '../../src/emulator/index.js';
import { ApiClient, type ClientOptions } from '../../src/http/client.js';
import { fetchAll, listPages } from '../../src/http/paging.js';
import { getAsset, listRecords } from '../../src/service/assets.js';
import { AnswerLostError, ServiceError, UnexpectedAnswerError } from '../../src/http/errors.js';
import { ApiError, ExitCode, NetworkError } from '../../src/errors.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { failure } from '../support/failure.js';

let emulator: RunningEmulator;
let proxy: FaultProxy;
const ASSETS = 27;

beforeAll(async () => {
  emulator = await startEmulator();
  const direct = client(emulator.baseUrl);
  for (let i = 0; i < ASSETS; i++) await createAsset(direct, `A${String(i).padStart(3, '0')}`);
  proxy = await startFaultProxy(emulator.baseUrl, { pageSizeCap: 20 });
});
afterAll(async () => {
  await proxy.close();
  await emulator.close();
});
afterEach(() => {
  proxy.reset();
  proxy.log.length = 0;
});

function client(baseUrl = proxy.url, extra: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({ baseUrl, domainId: DEMO_DOMAIN, apiKey: DEMO_API_KEY, timeoutMs: 5000, retries: 2, backoffMs: 1, env: {}, ...extra });
}

function createAsset(api: ApiClient, assetId: string) {
  return api.post(api.path('va'), { assetId, assetName: assetId, assetType: '1001', createdBy: DEMO_USER });
}

describe('paging by the envelope', () => {
  it('reads every page at the size the service reports, not the one asked for', async () => {
    const api = client();
    const assets = await fetchAll<{ assetId: string }>(api, api.path('va'), {}, 100);
    expect(assets).toHaveLength(ASSETS);
    expect(new Set(assets.map((a) => a.assetId)).size).toBe(ASSETS);
    expect(proxy.log.map((r) => new URL(r.path, 'http://x').searchParams.get('pageSize'))).toEqual(['100', '20']);
  });

  it('merges every page for --all with a page size above the cap', async () => {
    const api = client();
    const { doc, merged } = await listPages(api, api.path('va'), { all: true, pageSize: 1000 });
    expect(merged).toBe(true);
    expect(doc).toMatchObject({ totalResults: ASSETS, results: expect.any(Array) });
    expect(doc.results).toHaveLength(ASSETS);
  });

  it('advances by the number of results when the service echoes a size it did not honour', async () => {
    const echo = (pageNumber: number, ids: number[]) =>
      JSON.stringify({ totalResults: 5, pageNumber, pageSize: 100, results: ids.map((i) => ({ assetId: `E${i}` })) });
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: echo(1, [0, 1]) });
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: JSON.stringify({ totalResults: 5, pageNumber: 2, pageSize: 2, results: [{ assetId: 'E2' }, { assetId: 'E3' }] }) });
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: JSON.stringify({ totalResults: 5, pageNumber: 3, pageSize: 2, results: [{ assetId: 'E4' }] }) });
    const api = client();
    expect((await fetchAll<{ assetId: string }>(api, api.path('va'))).map((a) => a.assetId)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);
    expect(proxy.log.map((r) => new URL(r.path, 'http://x').searchParams.get('pageSize'))).toEqual(['1000', '2', '2']);
  });

  it('stops with a clear error when the service answers the same page twice', async () => {
    const page = { totalResults: 50, pageNumber: 1, pageSize: 20, results: Array.from({ length: 20 }, (_, i) => ({ assetId: `S${i}` })) };
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: JSON.stringify(page) }, { times: 3 });
    const api = client();
    const error = await failure(fetchAll(api, api.path('va')));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toBe('GET /va page 2: the service answered the same page twice (40 of 50 results read); the list cannot be read reliably');
    // Page 1, then pages 2 and 3 at once.
    expect(proxy.log).toHaveLength(3);
  });

  it('stops when the service answers an empty page before the end', async () => {
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: JSON.stringify({ totalResults: 9, pageNumber: 1, pageSize: 20, results: [] }) });
    const api = client();
    const error = await failure(fetchAll(api, api.path('va')));
    expect(error.message).toMatch(/^GET \/va page 1: the service answered an empty page before the end of the list/);
  });

  it('refuses an envelope without totalResults', async () => {
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: JSON.stringify({ results: [] }) });
    const api = client();
    const error = await failure(fetchAll(api, api.path('va')));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error.message).toMatch(/^GET \/va answered 200 with a body not of the shape the spec gives: totalResults: /);
  });

  it('reads a channel across pages (listRecords)', async () => {
    const direct = client(emulator.baseUrl);
    const path = direct.path('va', 'A000', 'versions');
    for (let i = 0; i < 3; i++) {
      const form = new FormData();
      form.set('versionName', `v${i}`);
      form.set('createdBy', DEMO_USER);
      form.set('assetFile', new Blob([`file ${i}`]), `f${i}.bin`);
      const response = await fetch(`${emulator.baseUrl}${path}?targetPlatformId=ios`, { method: 'POST', headers: { apikey: DEMO_API_KEY }, body: form });
      expect(response.status).toBe(201);
    }
    const versions = await fetchAll<{ versionId: string }>(direct, path);
    for (const v of versions) {
      await direct.post(direct.path('va', 'A000', 'versions', v.versionId, 'deploy'), { envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER }, { targetPlatformId: 'ios' });
    }
    const small = await startFaultProxy(emulator.baseUrl, { pageSizeCap: 1 });
    try {
      const records = await listRecords(client(small.url), 'A000', { platform: 'ios', envId: 'dev' });
      expect(records).toHaveLength(3);
      expect(small.log.filter((r) => r.path.includes('asset-urls')).length).toBeGreaterThanOrEqual(4);
    } finally {
      await small.close();
    }
  });
});

describe('answers that are not what the spec says', () => {
  const cases = [
    { name: 'an HTML page', fault: { kind: 'answer', contentType: 'text/html', body: '<!DOCTYPE html><html>login</html>' }, says: 'a text/html body starting "<!DOCTYPE html><html>login</html>", not JSON' },
    { name: 'invalid JSON', fault: { kind: 'answer', contentType: 'application/json', body: '{"assetId": ' }, says: 'a application/json body starting "{\\"assetId\\": ", not JSON' },
    { name: 'null', fault: { kind: 'answer', contentType: 'application/json', body: 'null' }, says: 'JSON null where an object was expected' },
    { name: 'an empty 200', fault: { kind: 'answer', contentType: 'application/json', body: '' }, says: 'an empty body (application/json) where JSON was expected' },
    { name: 'a redirect', fault: { kind: 'redirect', location: 'https://login.example/' }, says: 'a redirect to https://login.example/' },
  ] as const;
  for (const { name, fault, says } of cases) {
    it(`names the request and what came back: ${name}`, async () => {
      proxy.inject(fault);
      const api = client();
      const error = await failure(getAsset(api, 'A001'));
      expect(error).toBeInstanceOf(UnexpectedAnswerError);
      expect((error as UnexpectedAnswerError).exitCode).toBe(ExitCode.rejected);
      expect(error.message).toContain(`GET /va/A001 answered ${fault.kind === 'redirect' ? 302 : 200} with ${says}`);
      expect(error.message).not.toContain('\n');
    });
  }

  it('accepts extra fields and returns the body as received', async () => {
    const api = client(emulator.baseUrl);
    const asset = await api.get<Record<string, unknown>>(api.path('va', 'A001'));
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: JSON.stringify({ ...asset, futureField: { x: 1 } }) });
    expect(await getAsset(client(), 'A001')).toEqual({ ...asset, futureField: { x: 1 } });
  });

  it('refuses a body that misses a field the spec returns', async () => {
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: JSON.stringify({ assetId: 'A001' }) });
    const error = await failure(getAsset(client(), 'A001'));
    expect(error.message).toMatch(/^GET \/va\/A001 answered 200 with a body not of the shape the spec gives: assetName: /);
  });

  it('refuses an answer past the size cap without reading it all', async () => {
    proxy.inject({ kind: 'oversize', bytes: 5000 });
    const api = client(proxy.url, { maxJsonBytes: 1000 });
    const error = await failure(api.get(api.path('va')));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error.message).toContain('GET /va answered 200 with an answer of more than 1000 bytes, the most ahs reads');
  });
});

describe('bodies that break off, stalls and the --timeout budget', () => {
  it('retries a read whose body breaks off after the headers', async () => {
    proxy.inject({ kind: 'cut-body' }, { times: 2 });
    const feedback: string[] = [];
    const api = client(proxy.url, { feedback: { waiting: () => () => {}, retrying: (line) => feedback.push(line) } });
    expect(await getAsset(api, 'A002')).toMatchObject({ assetId: 'A002' });
    expect(proxy.log).toHaveLength(3);
    expect(feedback).toEqual([
      'retrying GET /va/A002 (attempt 2 of 3) after connection closed unexpectedly',
      'retrying GET /va/A002 (attempt 3 of 3) after connection closed unexpectedly',
    ]);
  });

  it('gives up with our own words, exit 6, when every attempt breaks off', async () => {
    proxy.inject({ kind: 'cut-body' }, { times: 3 });
    const error = await failure(getAsset(client(), 'A002'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(AnswerLostError);
    expect(error.message).not.toMatch(/other side closed|Body Timeout/);
    expect(error.message).toContain('connection closed unexpectedly');
  });

  it('a stalled body is a timeout within the budget, retries included (exit 6)', async () => {
    proxy.inject({ kind: 'stall', phase: 'body' }, { times: 3 });
    const error = await failure(getAsset(client(proxy.url, { timeoutMs: 400 }), 'A003'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(ExitCode.network);
    expect(error.message).toMatch(/^no answer from http:\/\/127\.0\.0\.1:\d+ to GET \/va\/A003 within 0\.4 s \(--timeout, retries included\)/);
  });

  it('a server that never answers is a timeout too', async () => {
    proxy.inject({ kind: 'stall' }, { times: 3 });
    const error = await failure(getAsset(client(proxy.url, { timeoutMs: 300 }), 'A003'));
    expect(error.message).toContain('within 0.3 s (--timeout, retries included)');
  });

  it('retries a 503 burst and says so', async () => {
    proxy.inject({ kind: 'status', status: 503 }, { times: 2 });
    const feedback: string[] = [];
    const api = client(proxy.url, { feedback: { waiting: () => () => {}, retrying: (line) => feedback.push(line) } });
    expect(await getAsset(api, 'A004')).toMatchObject({ assetId: 'A004' });
    expect(feedback).toEqual(['retrying GET /va/A004 (attempt 2 of 3) after HTTP 503', 'retrying GET /va/A004 (attempt 3 of 3) after HTTP 503']);
  });

  it('a 502 burst longer than the retries is the service\'s error (exit 1)', async () => {
    proxy.inject({ kind: 'status', status: 502 }, { times: 3 });
    const error = await failure(getAsset(client(), 'A004'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
  });
});

describe('lost answers of writes', () => {
  it('a write whose answer was lost after it reached the server is an AnswerLostError, not retried', async () => {
    proxy.inject({ kind: 'reset-after' }, { method: 'POST', path: '/va' });
    const api = client();
    const error = await failure(createAsset(api, 'LOST1'));
    expect(error).toBeInstanceOf(AnswerLostError);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as AnswerLostError).mayHaveApplied).toBe(true);
    expect(error.message).toBe('the answer to POST /va was lost (connection reset) after the request was sent: it may have been applied; check before running it again');
    expect(proxy.log.filter((r) => r.method === 'POST')).toHaveLength(1);
    // It was applied: the settling read finds it.
    expect(await getAsset(api, 'LOST1')).toMatchObject({ assetId: 'LOST1' });
  });

  it('a write whose connection was reset before forwarding is lost too (the client cannot tell)', async () => {
    proxy.inject({ kind: 'reset-before' }, { method: 'POST' });
    const error = await failure(createAsset(client(), 'LOST2'));
    expect(error).toBeInstanceOf(AnswerLostError);
    expect(proxy.log.filter((r) => r.forwarded)).toHaveLength(0);
  });

  it('a write that surely never left is retried (connection refused)', async () => {
    const closed = await startFaultProxy(emulator.baseUrl);
    const url = closed.url;
    await closed.close();
    const error = await failure(createAsset(client(url), 'NEVER'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(AnswerLostError);
    expect(error.message).toContain('connection refused');
  });

  it('a write whose answer stalled past the budget is lost, not a plain timeout', async () => {
    proxy.inject({ kind: 'stall', phase: 'body' }, { method: 'POST' });
    const error = await failure(createAsset(client(proxy.url, { timeoutMs: 300 }), 'LOST3'));
    expect(error).toBeInstanceOf(AnswerLostError);
    expect(error.message).toContain('(no complete answer within 0.3 s)');
  });
});
