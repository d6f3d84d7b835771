// What sends one HTTP request for ApiClient (client.ts), the only way
// commands talk HTTP. Two transports behind one shape, chosen per kind of
// request by measurement (figures in client.ts, transportFor()):
//
// - node:http for JSON exchanges: it is part of Node's start-up snapshot,
//   where `ahs asset list --json` spent about 60 ms loading undici (1 MB)
//   before it could connect;
// - undici for streamed bodies (uploads: it reads an answer the server sent
//   before the body; downloads: less CPU and far fewer full GCs than
//   node:http's body pieces) and whenever HTTP(S)_PROXY is set
//   (EnvHttpProxyAgent honours NO_PROXY). Loaded only then.
//
// Failures keep one vocabulary whatever the transport: node:http's are
// given the codes undici uses for the same event (errors.ts words them).
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions as NodeRequestOptions } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

export type Headers = Record<string, string | string[] | undefined>;

/** A streamed body (an upload), piece by piece. */
export interface BodySource {
  open(): AsyncIterable<Uint8Array>;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | BodySource;
  signal: AbortSignal;
  /** Longest wait for the answer's headers, and between two pieces of its body. */
  timeoutMs: number;
}

/** An answer's status and headers, its body unread. */
export interface TransportAnswer {
  statusCode: number;
  headers: Headers;
  body: Readable & { text(): Promise<string>; dump(): Promise<void> };
}

export interface Transport {
  request(url: string, init: TransportRequest): Promise<TransportAnswer>;
  /** Drops every connection at once. */
  destroy(): Promise<void>;
  /** Lets requests in flight finish, then closes. */
  close(): Promise<void>;
}

/**
 * node:http (and node:https, loaded for the first https URL), keep-alive
 * connections, at most `connections` to one host: a request beyond them
 * waits for one to be free rather than opening another.
 */
export function nodeTransport(connections = Infinity): Transport {
  const http = new HttpAgent({ keepAlive: true, maxSockets: connections });
  let https: HttpsAgent | undefined;
  let httpsRequest: typeof httpRequest | undefined;
  const destroy = async () => {
    http.destroy();
    https?.destroy();
  };
  return {
    async request(url, init) {
      const target = new URL(url);
      let send = httpRequest;
      let agent: HttpAgent = http;
      if (target.protocol === 'https:') {
        const module = await import('node:https');
        https ??= new module.Agent({ keepAlive: true, maxSockets: connections });
        httpsRequest ??= module.request;
        [send, agent] = [httpsRequest, https];
      }
      return exchange(send, target, { method: init.method, headers: withLength(init), agent }, init);
    },
    destroy,
    close: destroy,
  };
}

/** A string body is sent with its length; a stream is sent chunked. */
function withLength(init: TransportRequest): Record<string, string> {
  if (typeof init.body !== 'string' || init.headers['content-length'] !== undefined) return init.headers;
  return { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) };
}

function exchange(send: typeof httpRequest, target: URL, options: NodeRequestOptions, init: TransportRequest): Promise<TransportAnswer> {
  return new Promise((resolve, reject) => {
    const request = send(target, options);
    abortWith(request, init.signal);
    let response: IncomingMessage | undefined;
    // No byte for timeoutMs: while waiting for the headers, or inside the body.
    request.setTimeout(init.timeoutMs, () => {
      if (response) response.destroy(coded('UND_ERR_BODY_TIMEOUT', 'the answer stalled'));
      else request.destroy(coded('UND_ERR_HEADERS_TIMEOUT', 'no answer'));
    });
    request.once('error', reject);
    request.once('response', (answer: IncomingMessage) => {
      response = answer;
      // Node calls a body that breaks off ECONNRESET "aborted"; undici, and so errors.ts, "connection closed unexpectedly".
      answer.prependListener('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNRESET' && error.message === 'aborted') error.code = 'UND_ERR_SOCKET';
      });
      resolve({ statusCode: answer.statusCode ?? 0, headers: answer.headers, body: withBodyMethods(answer) });
    });
    if (typeof init.body === 'string' || init.body === undefined) request.end(init.body);
    else Readable.from(init.body.open(), { objectMode: false }).pipe(request);
  });
}

/**
 * What node:http's `signal` option does (destroy the request, and with it
 * its answer, with an AbortError), without the module that option loads on
 * first use: 1 ms of a 90 ms read (issue 14).
 */
function abortWith(request: ClientRequest, signal: AbortSignal): void {
  const abort = () => request.destroy(Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' }));
  if (signal.aborted) {
    process.nextTick(abort);
    return;
  }
  signal.addEventListener('abort', abort, { once: true });
  request.once('close', () => signal.removeEventListener('abort', abort));
}

function withBodyMethods(response: IncomingMessage): TransportAnswer['body'] {
  return Object.assign(response, {
    async text() {
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    async dump() {
      response.resume();
      if (!response.complete) await new Promise((done) => response.once('close', done));
    },
  });
}

function coded(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * undici `request` through one dispatcher (EnvHttpProxyAgent when a proxy
 * is set), at most `connections` to one host. Without that limit undici's
 * pool opens a connection for a request sent in the same turn of the event
 * loop as the answer that frees one (it learns that a connection is free a
 * microtask later): 8 downloads one after another each opened 12 to 16
 * connections (issue 21); with it, such a request waits for the free one. Its llhttp parser is WebAssembly: V8's optimising tier-up of it
 * runs in the background and held the process open 100 to 150 ms after the
 * command was done; the baseline compiler alone parses as fast here, so
 * --liftoff-only is set before undici's first request compiles it (and only
 * then: node:v8 costs about 3 ms at start-up).
 */
export async function undiciTransport(env: NodeJS.ProcessEnv, connectTimeoutMs: number, connections?: number): Promise<Transport> {
  // Loaded first: V8 would refuse undici's code cache (bin/ahs.js) once the flags changed.
  const { Agent, EnvHttpProxyAgent } = await import('./undici.js');
  (await import('node:v8')).setFlagsFromString('--liftoff-only');
  // bin/ahs.js makes no code cache after this: V8 refuses one made under other flags.
  (globalThis as Record<symbol, unknown>)[Symbol.for('ahs.v8-flags-changed')] = true;
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  const connect = { timeout: Math.min(connectTimeoutMs, 30_000) };
  const dispatcher: Dispatcher =
    httpProxy || httpsProxy ? new EnvHttpProxyAgent({ httpProxy, httpsProxy: httpsProxy ?? httpProxy, noProxy, connect, connections }) : new Agent({ connect, connections });
  return {
    async request(url, init) {
      const { origin, pathname, search } = new URL(url);
      const response = await dispatcher.request({
        origin,
        path: `${pathname}${search}`,
        method: init.method as Dispatcher.HttpMethod,
        headers: init.headers,
        // undici documents an AsyncIterable body (its types lag: Dispatcher.md, "body").
        body: (typeof init.body === 'object' ? init.body.open() : init.body) as Dispatcher.DispatchOptions['body'],
        signal: init.signal,
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      });
      return { statusCode: response.statusCode, headers: response.headers, body: response.body as unknown as TransportAnswer['body'] };
    },
    destroy: () => dispatcher.destroy(),
    close: () => dispatcher.close(),
  };
}

/** True when the environment names a proxy (only undici's EnvHttpProxyAgent goes through one). */
export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.HTTP_PROXY ?? env.http_proxy ?? env.HTTPS_PROXY ?? env.https_proxy);
}
