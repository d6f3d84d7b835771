import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../src/http/client.js';
import { parseErrorBody } from '../../src/http/errors.js';
import { ApiError, NetworkError, ExitCode } from '../../src/errors.js';
import { Sink } from './helpers.js';

let server: Server;
let base: string;
const seen: Array<{ method: string; url: string; apikey?: string; body: string }> = [];
let plan: Array<(res: import('node:http').ServerResponse) => void> = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method!, url: req.url!, apikey: req.headers.apikey as string | undefined, body });
    const next = plan.shift();
    if (next) next(res);
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function client(extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  return new ApiClient({ baseUrl: base, domainId: 'd o', apiKey: 'sekrit-key', timeoutMs: 2000, retries: 2, backoffMs: 1, env: {}, ...extra });
}

describe('ApiClient', () => {
  it('builds encoded /api/v2/{domain}/ paths and sends the key', async () => {
    seen.length = 0;
    const api = client();
    expect(api.path('va', 'a/b')).toBe('/api/v2/d%20o/va/a%2Fb');
    expect(await api.get(api.path('va'), { pageNumber: 2, skip: undefined })).toEqual({ ok: true });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/v2/d%20o/va?pageNumber=2', apikey: 'sekrit-key' });
  });

  it('retries reads on 503 and gives up after --retries', async () => {
    seen.length = 0;
    plan = [(res) => res.writeHead(503).end(), (res) => res.writeHead(504).end()];
    expect(await client().get('/x')).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
    seen.length = 0;
    plan = [(res) => res.writeHead(502).end(), (res) => res.writeHead(502).end()];
    await expect(client({ retries: 1 }).get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(2);
  });

  it('never retries a write on 5xx; a gateway\'s 503 is a lost answer, for a read to settle', async () => {
    seen.length = 0;
    plan = [(res) => res.writeHead(503).end()];
    await expect(client().post('/x', { a: 1 })).rejects.toMatchObject({ status: 503, mayHaveApplied: true, message: expect.stringContaining('a gateway answered 503 (no body)') });
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]!.body)).toEqual({ a: 1 });
  });

  it('maps error bodies and statuses to exit codes', async () => {
    plan = [(res) => res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 't', title: 'gone', status: 404, detail: 'gone' }))];
    const error = (await client().get('/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.exitCode).toBe(ExitCode.notFound);
    expect(error.toBody()).toEqual({ type: 't', title: 'gone', status: 404, detail: 'gone' });
    plan = [(res) => res.writeHead(400).end(JSON.stringify({ type: 't', title: 'bad', status: 400, detail: 'bad' }))];
    expect(((await client().get('/x', undefined, { notFound: true }).catch((e: unknown) => e)) as ApiError).exitCode).toBe(ExitCode.notFound);
  });

  it('parses plain-text error bodies', () => {
    expect(parseErrorBody(500, 'Internal kaboom\n')).toMatchObject({ status: 500, title: 'the service answered 500: Internal kaboom' });
    expect(parseErrorBody(500, '')).toMatchObject({ status: 500 });
  });

  it('never makes an HTML page the title of an error', () => {
    expect(parseErrorBody(504, '<html><body><h1>504 Gateway Time-out</h1></body></html>').title).toBe('a gateway answered 504 (an HTML page)');
    expect(parseErrorBody(404, '<!DOCTYPE html><p>Not here</p>').title).toBe("the server answered 404 with an HTML page, not the service's error body: check the service's base URL");
  });

  it('waits what Retry-After asks for, on the policy\'s clock, then sends the read again', async () => {
    seen.length = 0;
    plan = [(res) => res.writeHead(429, { 'retry-after': '5' }).end(), (res) => res.writeHead(503, { 'retry-after': '2' }).end()];
    const slept: number[] = [];
    let now = 0;
    const clock = {
      now: () => now,
      random: () => 0.5,
      async sleep(ms: number) {
        slept.push(ms);
        now += ms;
      },
    };
    expect(await client({ clock, timeoutMs: 30_000 }).get('/x')).toEqual({ ok: true });
    expect(slept).toEqual([5000, 2000]);
    expect(seen).toHaveLength(3);
  });

  it('a 407 with no proxy set says so (exit 6), not the service\'s answer', async () => {
    plan = [(res) => res.writeHead(407).end()];
    const error = (await client().get('/x').catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe('a proxy answered 407 Proxy Authentication Required, but none is set: check HTTPS_PROXY/HTTP_PROXY and the base URL');
  });

  it('turns refused connections into NetworkError and traces with the key redacted', async () => {
    const trace = new Sink();
    const api = new ApiClient({ baseUrl: 'http://127.0.0.1:9', domainId: 'd', apiKey: 'sekrit-key', timeoutMs: 1000, retries: 1, backoffMs: 1, trace, env: {} });
    const error = await api.get('/api/v2/d/va').catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(trace.text).toContain('apikey: ***');
    expect(trace.text).not.toContain('sekrit-key');
    expect(trace.text).toContain('(attempt 2)');
  });
});
