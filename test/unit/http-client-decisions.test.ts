// ApiClient's decisions (src/http/client.ts) against scripted transports, in
// process: which transport carries a request, what is retried and how long
// it waits, when a lost answer is reported as possibly applied, how error
// answers, redirects and statuses outside 100-599 end, and what --verbose
// prints. A fake clock records the waits (no sleeping). Mutation testing
// runs this file (vitest.mutation.config.ts; test/README.md).
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { ApiClient, type ClientOptions } from '../../src/http/client.js';
import type { Transport, TransportAnswer, TransportRequest } from '../../src/http/transport.js';
import { streamBody } from '../../src/http/body.js';
import { AnswerLostError, GatewayAnswerError, ProxyError, StatusOutOfRangeError, UnexpectedAnswerError } from '../../src/http/errors.js';
import { ApiError, CancelledError, ConflictError, ExitCode, NetworkError, UsageError } from '../../src/errors.js';
import { Sink } from './helpers.js';

type Step =
  | { status: number; headers?: Record<string, string | string[]>; body?: string; breaks?: boolean }
  | { error: Error & { code?: string } }
  | { hang: true };

interface Seen {
  url: string;
  init: TransportRequest;
}

/** A transport that answers each request with the next step of its script (the last one repeated), and records them. */
function scripted(steps: Step[]): Transport & { seen: Seen[]; destroyed: number; closed: number; warmed: Array<[string, number]>; destroyedBodies: number } {
  const transport = {
    seen: [] as Seen[],
    destroyed: 0,
    closed: 0,
    destroyedBodies: 0,
    warmed: [] as Array<[string, number]>,
    async request(url: string, init: TransportRequest): Promise<TransportAnswer> {
      transport.seen.push({ url, init });
      // As undici: a request whose signal is already aborted is never sent.
      if (init.signal.aborted) throw Object.assign(new Error('This operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
      const step = steps.length > 1 ? steps.shift()! : steps[0]!;
      if ('error' in step) throw step.error;
      if ('hang' in step) {
        return new Promise((_resolve, reject) => init.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));
      }
      const stream = new PassThrough();
      if (step.breaks) {
        stream.write(step.body ?? '');
        setImmediate(() => stream.destroy(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })));
      } else stream.end(step.body ?? '');
      const body = streamBody(stream);
      const destroy = body.destroy.bind(body);
      body.destroy = (error) => {
        transport.destroyedBodies++;
        destroy(error);
      };
      return { statusCode: step.status, headers: step.headers ?? {}, body };
    },
    async destroy() {
      transport.destroyed++;
    },
    async close() {
      transport.closed++;
    },
    preconnect(url: string, count: number) {
      transport.warmed.push([url, count]);
    },
  };
  return transport;
}

/** A clock whose sleeps are recorded and pass at once. */
function fakeClock() {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    async sleep(ms: number) {
      slept.push(ms);
      now += ms;
    },
    random: () => 0.5,
  };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Step => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const failure = (code: string, message = code) => ({ error: Object.assign(new Error(message), { code }) });

function client(steps: Step[], extra: Partial<ClientOptions> = {}, downloads: Step[] = [{ status: 200, body: 'file' }]) {
  const api = scripted(steps);
  const files = scripted(downloads);
  const clock = fakeClock();
  const notices: string[] = [];
  const waits: string[] = [];
  const trace = new Sink();
  const client = new ApiClient({
    baseUrl: 'https://svc.example/',
    domainId: 'd o',
    apiKey: 'sekrit-key-123',
    timeoutMs: 10_000,
    retries: 2,
    backoffMs: 100,
    env: {},
    clock,
    trace,
    feedback: {
      waiting: (request) => {
        waits.push(request);
        return () => waits.push(`done ${request}`);
      },
      retrying: (notice) => notices.push(notice),
    },
    transports: { api, downloads: files },
    ...extra,
  });
  return { client, api, files, clock, notices, waits, trace };
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('paths, URLs and names', () => {
  it('builds /api/v2/{domain}/ paths encoded, URLs with the query (undefined and null left out), and names requests without the prefix', () => {
    const { client: api } = client([]);
    expect(api.baseUrl).toBe('https://svc.example');
    expect(api.path('va', 'a/b')).toBe('/api/v2/d%20o/va/a%2Fb');
    expect(api.url('/x', { a: 1, b: undefined, c: null, d: false })).toBe('https://svc.example/x?a=1&d=false');
    expect(api.url('http://other.example/y?z=1', { a: 'b' })).toBe('http://other.example/y?z=1&a=b');
    expect(api.describe('GET', 'https://svc.example/api/v2/d%20o/va/a%20b')).toBe('GET /va/a b');
    expect(api.describe('GET', 'https://cdn.example/api/v2/d%20o/f')).toBe('GET https://cdn.example/f');
    expect(api.describe('GET', 'https://svc.example/api/v2/other/x')).toBe('GET /api/v2/other/x');
    expect(api.describe('GET', 'https://svc.example/bad%zz')).toBe('GET /bad%zz');
    expect(new ApiClient({ baseUrl: 'https://svc.example', timeoutMs: 1, retries: 0 }).describe('GET', 'https://svc.example/api/v2/d/x')).toBe('GET /api/v2/d/x');
    expect(() => new ApiClient({ baseUrl: 'https://svc.example', timeoutMs: 1, retries: 0 }).path('x')).toThrow('needs a domainId');
  });
});

describe('which transport carries a request', () => {
  it('every request to the API through the API transport (undici); a download (send of a GET) through the download reader', async () => {
    const { client: api, api: apiTransport, files } = client([json({ ok: true })]);
    await api.get('/a');
    await api.post('/b', { x: 1 });
    await api.put('/c', { x: 1 });
    await api.patch('/d', { x: 1 });
    await api.delete('/e');
    const download = await api.send({ method: 'GET', path: 'https://svc.example/f.zip', headers: { accept: '*/*' } });
    expect(await download.body.text()).toBe('file');
    const head = await api.send({ method: 'POST', path: '/g' });
    head.body.destroy();
    expect(apiTransport.seen.map((s) => s.init.method)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'POST']);
    expect(files.seen.map((s) => s.url)).toEqual(['https://svc.example/f.zip']);
    await api.destroy();
    await api.close();
    expect([apiTransport.destroyed, apiTransport.closed, files.destroyed, files.closed]).toEqual([1, 1, 1, 1]);
  });

  it('through a proxy a download goes through undici too', async () => {
    const { client: api, api: apiTransport, files } = client([{ status: 200, body: 'via proxy' }], { env: { HTTPS_PROXY: 'http://proxy:8080' } });
    const download = await api.send({ method: 'GET', path: 'https://svc.example/f.zip' });
    expect(await download.body.text()).toBe('via proxy');
    expect(apiTransport.seen).toHaveLength(1);
    expect(files.seen).toHaveLength(0);
  });

  it('prepareUploads opens the uploads\' connections ahead on the API transport; nothing to close before any request', async () => {
    const { client: api, api: apiTransport } = client([json({})]);
    await api.destroy();
    expect(apiTransport.destroyed).toBe(0);
    api.prepareUploads(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(apiTransport.warmed).toEqual([['https://svc.example', 3]]);
    api.prepareUploads();
    await new Promise((resolve) => setImmediate(resolve));
    expect(apiTransport.warmed.at(-1)).toEqual(['https://svc.example', 1]);
  });
});

describe('what is sent', () => {
  it('the key, the user agent, accept; a JSON body with its type; a streamed body as given, with its type and length', async () => {
    const { client: api, api: transport } = client([json({ ok: true })], { userAgent: 'ua/1' });
    await api.post('/a', { x: 1 }, { q: 'v' }, { headers: { 'x-extra': '1' } });
    expect(transport.seen[0]!.url).toBe('https://svc.example/a?q=v');
    expect(transport.seen[0]!.init.headers).toEqual({ accept: 'application/json', 'accept-encoding': 'gzip, br', 'user-agent': 'ua/1', 'x-extra': '1', apikey: 'sekrit-key-123', 'content-type': 'application/json' });
    expect(transport.seen[0]!.init.body).toBe('{"x":1}');
    const stream = { contentType: 'multipart/form-data; boundary=b', length: 42, open: async function* () {} };
    await api.json({ method: 'POST', path: '/up', stream });
    // As given, its passes counted (a lost upload says whether its body was all sent).
    expect(transport.seen[1]!.init.body).toMatchObject({ contentType: stream.contentType, length: 42 });
    expect(transport.seen[1]!.init.headers).toMatchObject({ 'content-type': 'multipart/form-data; boundary=b', 'content-length': '42' });
    await api.get('/noauth', undefined, { auth: false });
    expect(transport.seen[2]!.init.headers.apikey).toBeUndefined();
    expect(transport.seen[2]!.init.headers['user-agent']).toBe('ua/1');
    expect(transport.seen[2]!.init.body).toBeUndefined();
  });

  it('a key no header can carry is a usage error, nothing sent; without a key none is sent', async () => {
    const bad = client([json({})], { apiKey: 'bad\u0001key' });
    expect(await caught(bad.client.get('/a'))).toBeInstanceOf(UsageError);
    expect(bad.api.seen).toHaveLength(0);
    for (const key of [' lead', 'trail ', 'caf\u00e9']) expect(await caught(client([json({})], { apiKey: key }).client.get('/a'))).toBeInstanceOf(UsageError);
    expect(await client([json({ ok: 1 })], { apiKey: 'a b' }).client.get('/a')).toEqual({ ok: 1 });
    expect(await client([json({ ok: 1 })], { apiKey: 'k' }).client.get('/a')).toEqual({ ok: 1 });
    const none = client([json({})], { apiKey: undefined });
    await none.client.get('/a');
    expect(none.api.seen[0]!.init.headers.apikey).toBeUndefined();
    const unchecked = client([json({ ok: 1 })], { apiKey: 'bad\u0001key' });
    expect(await unchecked.client.get('/a', undefined, { auth: false })).toEqual({ ok: 1 });
  });
});

describe('reads: retried on a failure of the connection and on 502/503/504, within --retries', () => {
  it('a connection reset: retried with backoff, each retry said, then a network error naming the request', async () => {
    const { client: api, api: transport, clock, notices } = client([failure('ECONNRESET')]);
    const error = await caught(api.get(api.path('va')));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(AnswerLostError);
    expect(error.message).toBe('could not reach https://svc.example: connection reset (ECONNRESET)');
    expect(transport.seen).toHaveLength(3);
    expect(clock.slept).toEqual([75, 150]);
    expect(notices).toEqual(['retrying GET /va (attempt 2 of 3) after connection reset', 'retrying GET /va (attempt 3 of 3) after connection reset']);
  });

  it('an error without a code of the network is worded as a failed read', async () => {
    const error = await caught(client([{ error: new Error('weird') }], { retries: 0 }).client.get('/a'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe('could not read the answer of https://svc.example to GET /a: connection failed');
  });

  it('a 503 then a success: the success; a 500 is not retried', async () => {
    const retried = client([{ status: 503, body: 'busy' }, json({ ok: true })]);
    expect(await retried.client.get('/a')).toEqual({ ok: true });
    expect(retried.notices).toEqual(['retrying GET /a (attempt 2 of 3) after HTTP 503']);
    for (const status of [502, 504]) expect(await client([{ status }, json({ ok: status })]).client.get('/a')).toEqual({ ok: status });
    const once = client([json({ title: 'boom' }, 500)]);
    const error = await caught(once.client.get('/a'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect(once.api.seen).toHaveLength(1);
  });

  it('502s past --retries end with the last answer; --retries 0 sends once', async () => {
    const many = client([{ status: 502, body: 'gateway' }]);
    expect(((await caught(many.client.get('/a'))) as ApiError).status).toBe(502);
    expect(many.api.seen).toHaveLength(3);
    const none = client([failure('ECONNRESET')], { retries: 0 });
    await caught(none.client.get('/a'));
    expect(none.api.seen).toHaveLength(1);
    expect(none.clock.slept).toEqual([]);
  });

  it('a body that breaks off is retried like a reset', async () => {
    const { client: api, api: transport } = client([{ status: 200, body: '{"a":', breaks: true }, json({ a: 1 })]);
    expect(await api.get('/a')).toEqual({ a: 1 });
    expect(transport.seen).toHaveLength(2);
  });

  it('a refused certificate is not retried: another attempt meets the same one', async () => {
    const { client: api, api: transport } = client([failure('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate')]);
    const error = await caught(api.get('/a'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(transport.seen).toHaveLength(1);
  });

  it('no answer within --timeout: the budget is said, retries included', async () => {
    const { client: api, api: transport } = client([{ hang: true }], { timeoutMs: 60, retries: 0 });
    const error = await caught(api.get('/a'));
    expect(error.message).toBe('no answer from https://svc.example to GET /a within 0.1 s (--timeout, retries included); try again, or allow more time with --timeout SECONDS');
    expect(transport.seen[0]!.init.timeoutMs).toBeLessThanOrEqual(60);
    const coded = await caught(client([failure('UND_ERR_HEADERS_TIMEOUT')], { retries: 0 }).client.get('/a'));
    expect(coded.message).toContain('within 10 s (--timeout, retries included)');
  });

  it('Ctrl-C: cancelled, not retried', async () => {
    const controller = new AbortController();
    controller.abort();
    const { client: api, api: transport } = client([{ error: Object.assign(new Error('aborted'), { name: 'AbortError' }) }], { signal: controller.signal });
    expect(await caught(api.get('/a'))).toBeInstanceOf(CancelledError);
    expect(transport.seen).toHaveLength(1);
    const during = new AbortController();
    const hung = client([{ hang: true }], { signal: during.signal });
    const pending = caught(hung.client.get('/a'));
    await new Promise((resolve) => setImmediate(resolve));
    during.abort();
    expect(await pending).toBeInstanceOf(CancelledError);
  });
});

describe('writes: never sent twice unless surely not applied', () => {
  it('the time the HTTP client takes to load is not the request\'s: a write on a slow start is sent, not reported lost', async () => {
    const { client: c, api } = client([json({ ok: true }, 201)], { timeoutMs: 20, retries: 0 });
    // A first request on a loaded machine: undici takes longer to load than the request's whole budget.
    (c as unknown as { undiciTransport(): Promise<Transport> }).undiciTransport = () => new Promise((resolve) => setTimeout(() => resolve(api), 60));
    await expect(c.post('/va', { assetId: 'A' })).resolves.toEqual({ ok: true });
    expect(api.seen).toHaveLength(1);
  });

  it('a reset after the request left: the answer is lost, may have been applied, sent once', async () => {
    const { client: api, api: transport } = client([failure('ECONNRESET')]);
    const error = await caught(api.post('/va', { a: 1 }));
    expect(error).toBeInstanceOf(AnswerLostError);
    expect((error as AnswerLostError).mayHaveApplied).toBe(true);
    expect(error.message).toBe('the answer to POST /va was lost (connection reset) after the request was sent: it may have been applied; check before running it again');
    expect(transport.seen).toHaveLength(1);
  });

  it('no connection at all (refused, no host, connect timeout): sent again, then a network error, not a lost answer', async () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) {
      const retried = client([failure(code), json({ ok: true }, 201)]);
      expect(await retried.client.post('/va', {}), code).toEqual({ ok: true });
      const failed = client([failure(code)]);
      const error = await caught(failed.client.post('/va', {}));
      expect(error).not.toBeInstanceOf(AnswerLostError);
      expect(failed.api.seen).toHaveLength(3);
    }
  });

  it('a write declared idempotent is retried after a reset; a streamed upload is not, even never sent', async () => {
    const idempotent = client([failure('ECONNRESET'), json({ ok: true })]);
    expect(await idempotent.client.json({ method: 'PUT', path: '/a', body: {}, idempotent: true })).toEqual({ ok: true });
    const stream = { contentType: 'application/octet-stream', length: 1, open: async function* () {} };
    const upload = client([failure('ECONNREFUSED')]);
    const error = await caught(upload.client.json({ method: 'POST', path: '/up', stream }));
    expect(error).not.toBeInstanceOf(AnswerLostError);
    expect(upload.api.seen).toHaveLength(1);
    const lost = client([failure('ECONNRESET')]);
    expect(await caught(lost.client.json({ method: 'POST', path: '/up', stream }))).toBeInstanceOf(AnswerLostError);
    expect(lost.api.seen[0]!.init.timeoutMs).toBe(10_000);
  });

  it('a gateway\'s 502/503/504 or HTML 5xx to a write: lost, not retried; the service\'s own JSON 500 is its answer', async () => {
    for (const status of [502, 503, 504]) {
      const gateway = client([{ status, body: 'Bad Gateway' }]);
      const error = await caught(gateway.client.post('/va', {}));
      expect(error, String(status)).toBeInstanceOf(GatewayAnswerError);
      expect(gateway.api.seen).toHaveLength(1);
    }
    const html = await caught(client([{ status: 500, headers: { 'content-type': 'text/html' }, body: '<html>oops</html>' }]).client.post('/va', {}));
    expect(html).toBeInstanceOf(GatewayAnswerError);
    const own = await caught(client([json({ type: 'x', title: 'broken', status: 500 }, 500)]).client.post('/va', {}));
    expect(own).toBeInstanceOf(ApiError);
    const idempotent = client([{ status: 503 }, json({ ok: 1 })]);
    expect(await idempotent.client.json({ method: 'PUT', path: '/a', body: {}, idempotent: true })).toEqual({ ok: 1 });
  });

  it('a 429 was not applied: retried after Retry-After, a read or a write', async () => {
    const { client: api, clock, notices } = client([{ status: 429, headers: { 'retry-after': '2' } }, json({ ok: true }, 201)]);
    expect(await api.post('/va', {})).toEqual({ ok: true });
    expect(clock.slept).toEqual([2000]);
    expect(notices).toEqual(['retrying POST /va (attempt 2 of 3) after HTTP 429 (the service asked to wait 2 s)']);
    const exhausted = client([{ status: 429 }]);
    expect(((await caught(exhausted.client.get('/a'))) as ApiError).status).toBe(429);
    expect(exhausted.api.seen).toHaveLength(3);
  });

  it('a Retry-After past what is left of --timeout: at once, said so (exit 6), nothing applied', async () => {
    const { client: api, api: transport } = client([{ status: 503, headers: { 'retry-after': '60' } }]);
    const error = await caught(api.get('/a'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe('GET /a answered 503, and the service asked to retry after 60 s, more than the 10 s left of --timeout (10 s): try again later, or allow more time with --timeout SECONDS');
    expect(transport.seen).toHaveLength(1);
  });
});

describe('answers that are not the service\'s', () => {
  it('a redirect is never followed: an unexpected answer naming where it pointed', async () => {
    const { client: api, api: transport } = client([{ status: 301, headers: { location: 'https://elsewhere/' } }]);
    const error = await caught(api.get('/a'));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error.message).toBe('GET /a answered 301 with a redirect to https://elsewhere/; this is not what the service returns (check the base URL and the delivery URL)');
    expect(transport.destroyedBodies).toBe(1);
    expect((await caught(client([{ status: 302 }]).client.get('/a'))).message).toContain('answered 302 with a redirect;');
  });

  it.each([0, 99, 600, 999])('status %i is an unexpected answer (exit 1), never a success, not retried, its body dropped', async (status) => {
    const { client: api, api: transport } = client([{ status, body: '{"assetId":"a1"}' }]);
    const error = await caught(api.post('/va', {}));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect((error as UnexpectedAnswerError).exitCode).toBe(ExitCode.rejected);
    expect(error.message).toContain('a status outside 100-599');
    expect(transport.seen).toHaveLength(1);
    expect(transport.destroyedBodies).toBe(1);
  });

  it.each([100, 199, 200, 599])('status %i is an answer', async (status) => {
    const { client: api } = client([{ status, body: '{"t":"x"}' }]);
    const outcome = await api.get('/a').catch((error: Error) => error);
    expect(String(outcome)).not.toContain('outside 100-599');
  });

  it('a status the transport refused as its head arrived (undici\'s interceptor): an unexpected answer naming it, not retried, not a lost write', async () => {
    const { client: api, api: transport } = client([{ error: new StatusOutOfRangeError(0) }]);
    const error = await caught(api.post('/va', {}));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error.message).toBe('POST /va answered 0 with a status outside 100-599; this is not what the service returns (check the base URL and the delivery URL)');
    expect(transport.seen).toHaveLength(1);
  });

  it('a proxy\'s 407 is named as the proxy\'s; a failure a transport words itself is passed on', async () => {
    expect(await caught(client([{ status: 407 }]).client.get('/a'))).toBeInstanceOf(ProxyError);
    for (const own of [new UnexpectedAnswerError('GET /a', 200, 'x'), new UsageError('file changed'), new ConflictError('changed')]) {
      const { client: api, api: transport } = client([{ error: own }]);
      expect(await caught(api.post('/a', {}))).toBe(own);
      expect(transport.seen).toHaveLength(1);
    }
  });

  it('no connection to the proxy: retried while it is transient, else said at once', async () => {
    const transient = client([{ error: new ProxyError('could not reach the proxy', true) }]);
    expect(await caught(transient.client.get('/a'))).toBeInstanceOf(ProxyError);
    expect(transient.api.seen).toHaveLength(3);
    expect(transient.notices[0]).toBe('retrying GET /a (attempt 2 of 3) after no connection to the proxy');
    const refused = client([{ error: new ProxyError('the proxy refused', false) }]);
    expect(await caught(refused.client.get('/a'))).toBeInstanceOf(ProxyError);
    expect(refused.api.seen).toHaveLength(1);
  });
});

describe('JSON answers', () => {
  it('an empty answer is undefined for a 204 or a DELETE only; a body of the wrong shape is an unexpected answer', async () => {
    expect(await client([{ status: 204 }]).client.post('/a', {})).toBeUndefined();
    expect(await client([{ status: 200 }]).client.delete('/a')).toBeUndefined();
    expect(await caught(client([{ status: 200 }]).client.get('/a'))).toBeInstanceOf(UnexpectedAnswerError);
    const schema = z.object({ id: z.string() });
    expect(await caught(client([json({ id: 1 })]).client.get('/a', undefined, { schema }))).toBeInstanceOf(UnexpectedAnswerError);
    expect(await client([json({ id: 'x', extra: 1 })]).client.get('/a', undefined, { schema })).toEqual({ id: 'x', extra: 1 });
    const large = await caught(client([json({ text: 'x'.repeat(100) })], { maxJsonBytes: 50 }).client.get('/a'));
    expect(large).toBeInstanceOf(UnexpectedAnswerError);
    expect(large.message).toContain('an answer of more than 50 bytes');
  });

  it('an error answer: the service\'s problem, exit by status; a 400 of a missing thing is exit 4 when asked', async () => {
    const error = (await caught(client([json({ type: 't', title: 'no such asset', status: 404 }, 404)]).client.get('/a'))) as ApiError;
    expect([error.status, error.message, error.exitCode]).toEqual([404, 'no such asset', ExitCode.notFound]);
    const missing = (await caught(client([json({ title: 'bad', status: 400 }, 400)]).client.get('/a', undefined, { notFound: true }))) as ApiError;
    expect([missing.notFound, missing.exitCode]).toEqual([true, ExitCode.notFound]);
    const plain = (await caught(client([json({ title: 'bad', status: 400 }, 400)]).client.get('/a'))) as ApiError;
    expect(plain.notFound).toBe(false);
    const echoed = (await caught(client([json({ title: 'bad key sekrit-key-123' }, 403)]).client.get('/a'))) as ApiError;
    expect(echoed.message).not.toContain('sekrit-key-123');
    const unread = (await caught(client([{ status: 403, body: 'x', breaks: true }]).client.get('/a'))) as ApiError;
    expect(unread.status).toBe(403);
  });

  it('every GET answered is heard, success or error, until the listener stops', async () => {
    const { client: api } = client([json({ ok: 1 }), json({ title: 'gone' }, 404), json({ ok: 2 })]);
    const heard: unknown[] = [];
    const stop = api.onRead((read) => heard.push(read));
    await api.get('/a', { q: 1 });
    await caught(api.get('/b'));
    await api.post('/c', {});
    stop();
    await api.get('/d');
    expect(heard).toEqual([
      { path: '/a', query: { q: 1 }, status: 200, body: { ok: 1 } },
      { path: '/b', query: {}, status: 404, body: undefined },
    ]);
  });

  it('says what it waits for while a JSON request waits, and ends the wait; a download is not waited on', async () => {
    const { client: api, waits } = client([json({ ok: 1 })]);
    await api.get(api.path('va'));
    await api.send({ method: 'GET', path: 'https://svc.example/f.zip' });
    expect(waits).toEqual(['GET /va', 'done GET /va']);
  });
});

describe('the service\'s clock', () => {
  it('a timestamp is read on the service\'s clock, from the Date header of the latest answer, to the second', async () => {
    const { client: api } = client([json({}, 200, { date: new Date(Date.now() + 60_000).toUTCString() })]);
    const start = Date.now();
    expect(api.madeSince(new Date(start).toISOString(), start)).toBe(true);
    await api.get('/a');
    expect(api.madeSince(new Date(start + 30_000).toISOString(), start)).toBe(false);
    expect(api.madeSince(new Date(start + 59_500).toISOString(), start)).toBe(true);
    expect(api.madeSince(new Date(start - 1500).toISOString(), start)).toBe(false);
    const undated = client([json({}, 200, { date: 'not a date' })]);
    await undated.client.get('/a');
    expect(undated.client.madeSince(new Date(start).toISOString(), start)).toBe(true);
  });
});

describe('--verbose', () => {
  it('traces requests and answers, secrets masked, what the server sent escaped, a JSON error whole, another excerpted', async () => {
    const hostile = `\u001b]0;x\u0007\r\u009b2J`;
    const { client: api, trace } = client([
      json({ a: hostile }, 200, { 'x-h': hostile, 'set-cookie': 'id=1' }),
      json({ title: 'bad' }, 400),
      { status: 500, headers: { 'content-type': 'text/html' }, body: `<html>${'x '.repeat(150)}</html>` },
      { status: 502, body: 'short page' },
    ]);
    await api.get('/a');
    await caught(api.get('/b'));
    await caught(api.get('/c'));
    await caught(api.get('/d', undefined, { idempotent: false }));
    const text = trace.text;
    expect(text).not.toMatch(/[\u0007\u001b\u009b\r]/);
    expect(text).toContain('> GET https://svc.example/a');
    expect(text).toContain('> apikey: ***');
    expect(text).toContain('< set-cookie: ***');
    expect(text).toContain('< x-h: \\e]0;x\\x07\\r\\x9b2J');
    expect(text).toMatch(/< 200 \(\d+ ms\)/);
    expect(text).toContain('< {"title":"bad"}');
    expect(text).toMatch(/< <html>x x .*… \(\d+ chars\)/);
    expect(text).toContain('< short page');
    expect(text).not.toContain('sekrit-key-123');
  });

  it('a streamed body is named by its size and type, a retry by its attempt; a password of the URL is masked', async () => {
    const { client: api, trace } = client([failure('ECONNREFUSED'), json({})]);
    await api.json({ method: 'POST', path: 'https://user:pa%24%24word@svc.example/up', stream: { contentType: 'application/zip; x=y', length: 5, open: async function* () {} }, idempotent: true });
    expect(trace.text).toContain('> [5 bytes of application/zip]');
    expect(trace.text).toContain('(attempt 2)');
    expect(trace.text).toContain('* retrying in 75 ms');
    expect(trace.text).toContain('< failed: connection refused');
    expect(trace.text).not.toMatch(/pa%24%24word|pa\$\$word/);
    const long = client([json({ t: 'y'.repeat(5000) })]);
    await long.client.get('/a');
    expect(long.trace.text).toMatch(/… \(5\d\d\d chars\)/);
    const quiet = client([json({})], { trace: undefined });
    await quiet.client.get('/a');
    expect(quiet.trace.text).toBe('');
  });
});

// Exact lines and boundaries (mutation testing: the wording and the cut-off
// points of --verbose, the feedback's shape, which reads are heard).
describe('--verbose, line by line', () => {
  const lines = (text: string) =>
    text
      .replace(/\(\d+ ms\)/g, '(N ms)')
      .replace(/ahs-cli\/\S+ node\/\S+/g, 'UA')
      .trimEnd()
      .split('\n');

  it('a read and a refused write: every line, in order', async () => {
    const { client: api, trace } = client([json({ ok: 1 }), json({ title: 'no' }, 404)]);
    await api.get('/a', { q: 'x y' });
    await caught(api.post('/b', { n: 1 }));
    expect(lines(trace.text)).toEqual([
      '> GET https://svc.example/a?q=x+y',
      '> accept: application/json',
      '> accept-encoding: gzip, br',
      '> user-agent: UA',
      '> apikey: ***',
      '< 200 (N ms)',
      '< content-type: application/json',
      '< {"ok":1}',
      '> POST https://svc.example/b',
      '> accept: application/json',
      '> accept-encoding: gzip, br',
      '> user-agent: UA',
      '> apikey: ***',
      '> content-type: application/json',
      '> {"n":1}',
      '< 404 (N ms)',
      '< content-type: application/json',
      '< {"title":"no"}',
    ]);
    // The time is the attempt's own, not a sum with the clock.
    for (const [, ms] of trace.text.matchAll(/\((\d+) ms\)/g)) expect(Number(ms)).toBeLessThan(60_000);
  });

  it.each([
    ['an excerpt of 200 characters is whole', 200, false],
    ['one of 201 is cut at 200', 201, true],
  ])('a page that is not JSON: %s', async (_name, length, cut) => {
    const page = ` ${'p'.repeat(length - 2)}  \n `;
    const { client: api, trace } = client([{ status: 500, headers: { 'content-type': 'text/html' }, body: `x\n${page}` }]);
    await caught(api.get('/c', undefined, { idempotent: false }));
    const shown = lines(trace.text).find((line) => line.startsWith('< x'))!;
    const squashed = `x ${'p'.repeat(length - 2)}`;
    expect(shown).toBe(cut ? `< ${squashed.slice(0, 200)}… (${`x\n${page}`.length} chars)` : `< ${squashed}`);
  });

  it.each([
    ['a body of 4000 characters is whole', 4000, false],
    ['one of 4001 is cut at 4000', 4001, true],
  ])('%s', async (_name, length, cut) => {
    const body = `{"t":"${'y'.repeat(length - 8)}"}`;
    expect(body).toHaveLength(length);
    const { client: api, trace } = client([{ status: 200, headers: { 'content-type': 'application/json' }, body }]);
    await api.get('/a');
    const shown = lines(trace.text).find((line) => line.startsWith('< {'))!;
    expect(shown).toBe(cut ? `< ${body.slice(0, 4000)}… (${length} chars)` : `< ${body}`);
  });
});

describe('what a person (or a library caller) is told of each request', () => {
  it('the wait names the request and its parts; each attempt is told when sent and when answered, with its status', async () => {
    const calls: unknown[] = [];
    const { client: api } = client([failure('ECONNRESET'), json({ ok: 1 })], {
      feedback: {
        waiting: (request, shape) => {
          calls.push(['waiting', request, shape?.method, shape?.path, shape?.query.toString(), shape?.body]);
          return () => calls.push(['done', request]);
        },
        retrying: (notice) => calls.push(['retrying', notice.replace(/\d+ ms|\d+(\.\d+)? s/g, 'T')]),
        sent: (method, label) => calls.push(['sent', method, label]),
        answered: (method, label, status, ms) => calls.push(['answered', method, label, status, typeof ms === 'number' && ms >= 0 && ms < 60_000]),
      },
    });
    await api.get(api.path('va', 'x'), { state: 'LIVE' });
    expect(calls).toEqual([
      ['waiting', 'GET /va/x', 'GET', '/va/x', 'state=LIVE', undefined],
      ['sent', 'GET', 'GET /va/x'],
      ['answered', 'GET', 'GET /va/x', null, true],
      ['retrying', expect.stringMatching(/^retrying GET \/va\/x \(attempt 2 of 3\) after connection reset/)],
      ['sent', 'GET', 'GET /va/x'],
      ['answered', 'GET', 'GET /va/x', 200, true],
      ['done', 'GET /va/x'],
    ]);
  });

  it('a write that fails is not heard as a read (a plan rests on what GETs saw)', async () => {
    const { client: api } = client([json({ title: 'bad' }, 400), json({ title: 'gone' }, 404)]);
    const heard: unknown[] = [];
    api.onRead((read) => heard.push(read));
    await caught(api.post('/w', {}));
    await caught(api.get('/r'));
    expect(heard).toEqual([{ path: '/r', query: {}, status: 404, body: undefined }]);
  });

  it('a timestamp one second before the start, on the service\'s clock, still counts; a moment earlier does not', async () => {
    const { client: api } = client([json({})]);
    const start = 1_700_000_000_000;
    expect(api.madeSince(new Date(start - 1000).toISOString(), start)).toBe(true);
    expect(api.madeSince(new Date(start - 1001).toISOString(), start)).toBe(false);
  });
});

describe('decisions, row by row (mutation testing)', () => {
  it('a key no header can carry: the usage error says why and how to fix it', async () => {
    const bad = client([json({})], { apiKey: 'bad\u0001key' });
    expect((await caught(bad.client.get('/a'))).message).toBe(
      "the API key has characters an HTTP header cannot carry (control characters or non-ASCII): check AHS_API_KEY or the profile's key (ahs profile add NAME --api-key-stdin)",
    );
  });

  it('Ctrl-C is "interrupted" with the abort\'s reason as its cause, whatever the transport answered; an abort no signal asked for is one too', async () => {
    const controller = new AbortController();
    const reason = new Error('stop now');
    controller.abort(reason);
    // The signal fired, and the transport failed otherwise (a reset): still cancelled, not retried.
    const reset = client([failure('ECONNRESET'), json({ ok: 1 })], { signal: controller.signal });
    const cancelled = await caught(reset.client.get('/a'));
    expect(cancelled).toBeInstanceOf(CancelledError);
    expect(cancelled.message).toBe('interrupted');
    expect(cancelled.cause).toBe(reason);
    expect(reset.api.seen).toHaveLength(1);
    // No outer signal: an abort the transport reports (its own) is cancelled too, its cause unknown.
    const own = client([{ error: Object.assign(new Error('aborted'), { name: 'AbortError' }) }, json({ ok: 1 })]);
    const ownCancel = await caught(own.client.get('/a'));
    expect(ownCancel).toBeInstanceOf(CancelledError);
    expect(ownCancel.cause).toBeUndefined();
    expect(own.api.seen).toHaveLength(1);
  });

  it('a failed attempt\'s trace gives its own time; a body that breaks is told answered once per attempt', async () => {
    const answered: Array<number | null> = [];
    const { client: api, trace } = client([{ status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":', breaks: true }, failure('ECONNREFUSED'), json({ ok: 1 })], {
      feedback: { waiting: () => () => {}, retrying: () => {}, answered: (_m, _l, status) => answered.push(status) },
    });
    expect(await api.get('/a')).toEqual({ ok: 1 });
    expect(answered).toEqual([200, null, 200]);
    const failed = [...trace.text.matchAll(/< failed: .* \((\d+) ms\)/g)].map((m) => Number(m[1]));
    expect(failed.length).toBeGreaterThan(0);
    for (const ms of failed) expect(ms).toBeLessThan(60_000);
  });

  it('an error answer carries the request it answered and the service\'s Retry-After', async () => {
    const { client: api } = client([json({ title: 'busy' }, 409, { 'retry-after': '7' })]);
    const error = (await caught(api.post(api.path('va', 'x'), {}))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.request).toEqual({ method: 'POST', path: '/api/v2/d o/va/x' });
    expect(error.retryAfter).toBe('7');
  });

  it('a HEAD is a read: a 502 is retried, as a GET\'s', async () => {
    const { client: api, api: transport } = client([{ status: 502, body: '' }, { status: 200, body: '' }]);
    const answer = await api.send({ method: 'HEAD', path: '/a' });
    expect(answer.status).toBe(200);
    expect(transport.seen).toHaveLength(2);
  });

  it('a 300 is a redirect too, never a success', async () => {
    const { client: api } = client([{ status: 300, headers: { location: '/elsewhere' }, body: '' }]);
    const error = await caught(api.get('/a'));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error.message).toMatch(/300/);
  });
});
