// What sends one HTTP request for ApiClient (client.ts), the only way
// commands talk HTTP. Two transports behind one shape:
//
// - undici for every request to the service's API (JSON reads and writes,
//   uploads small and large) and for everything through a proxy
//   (EnvHttpProxyAgent honours NO_PROXY): one pool per host, one set of
//   timeouts;
// - the lean transport (lean.ts) for delivery downloads only: sockets read
//   into reused buffers, each piece handed over in place.
//
// Every body is handed over piece by piece (body.ts, AnswerBody).
//
// Failures keep one vocabulary whatever the transport: the lean
// transport's carry the codes undici uses for the same event (errors.ts
// words them).
import type { Socket } from 'node:net';
import type { Dispatcher, buildConnector as BuildConnector } from 'undici';
import { ProxyError, StatusOutOfRangeError } from './errors.js';
import { streamBody, type AnswerBody } from './body.js';
import { WarmConnections } from './warm.js';

export type Headers = Record<string, string | string[] | undefined>;

/** A streamed body (an upload), piece by piece. */
export interface BodySource {
  open(): AsyncIterable<Uint8Array>;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  /** A JSON text, or a streamed body (an upload). */
  body?: string | BodySource;
  signal: AbortSignal;
  /** Longest wait for the answer's headers, and between two pieces of its body. */
  timeoutMs: number;
  /**
   * On a connection that never carried a request, closed after the answer:
   * a write (it must not meet a connection a gateway closed while it sat
   * idle), and a read sent again after its connection failed.
   */
  fresh?: boolean;
}

/** An answer's status and headers, its body unread. */
export interface TransportAnswer {
  statusCode: number;
  headers: Headers;
  body: AnswerBody;
}

export interface Transport {
  request(url: string, init: TransportRequest): Promise<TransportAnswer>;
  /** Drops every connection at once. */
  destroy(): Promise<void>;
  /** Lets requests in flight finish, then closes. */
  close(): Promise<void>;
  /** Opens up to `count` connections to `url`'s origin ahead of the requests that will use them (warm.ts). */
  preconnect?(url: string, count: number): void;
}

/**
 * How long a connection opened ahead of a write (warm.ts) may wait for it
 * and still be taken for fresh: past this it may have met an idle timeout
 * on the way, and a new one is opened. undici's own keep-alive default (4 s,
 * below the 5 s idle timeout of Node's http server and Apache, the shortest
 * of the common servers; nginx 75 s, AWS ALB 60 s). Measured: in a release
 * at 50 ms each way the upload's connection is taken one round trip of reads
 * after it was opened (100 to 150 ms); in an item sync of 200 files, a
 * replacement one round of uploads after (bench/rounds.mjs --log); on this
 * loaded 2-core machine, a round of 8 uploads took up to 1.5 s.
 */
export const FRESH_CONNECTION_MS = 4000;

/**
 * undici `request` through two dispatchers (EnvHttpProxyAgent when a proxy
 * is set): one for reads, its connections kept alive, one for fresh
 * requests (writes), each on a connection of its own; at most `connections`
 * to one host in each. Without that limit undici's
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
  const { Agent, EnvHttpProxyAgent, buildConnector } = await import('./undici.js');
  // Not in the build's warm-up (scripts/build.mjs): the code caches it writes are made under the flags a
  // command starts with, and its reads now load undici (every API request goes through it).
  if (env.AHS_BUILD_WARM_UP !== '1') {
    (await import('node:v8')).setFlagsFromString('--liftoff-only');
    // bin/ahs.js makes no code cache after this: V8 refuses one made under other flags.
    (globalThis as Record<symbol, unknown>)[Symbol.for('ahs.v8-flags-changed')] = true;
  }
  const proxies = proxiesOf(env);
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  // Connections open now (warm ones included): at the limit, undici cannot open another.
  let open = 0;
  const connect = counted(answersWin(buildConnector({ timeout: Math.min(connectTimeoutMs, 30_000) })), (change) => (open += change));
  // Through a proxy a connection is the proxy's tunnel, which undici sets up itself: none is opened ahead.
  const warm = proxies.http || proxies.https ? undefined : new WarmConnections(connect, FRESH_CONNECTION_MS);
  let freedThisTurn = false;
  const connectionFreed = () => {
    if (freedThisTurn) return;
    freedThisTurn = true;
    setImmediate(() => (freedThisTurn = false));
  };
  // Two pools (cli.md, "Reading the service"): reads keep their connections alive; a write goes on a
  // connection of its own, never one that may have gone stale (see FRESH_CONNECTION_MS). The connections
  // opened ahead (warm.ts) are the uploads': they are writes.
  // As curl does: an http:// service through plain forwarding (absolute-form requests), an https:// one
  // through a CONNECT tunnel (proxyTunnel: false), so a stock proxy allowing CONNECT to 443 only works for both.
  const pool = (connector: BuildConnector.connector): Dispatcher =>
    (proxies.http || proxies.https
      ? new EnvHttpProxyAgent({ httpProxy: proxies.http, httpsProxy: proxies.https, noProxy, connect: connector, connections, proxyTunnel: false })
      : new Agent({ connect: connector, connections })
    ).compose(refuseStatusOutOfRange);
  const reads = pool(connect);
  const writes = pool(warm ? warm.connector() : connect);
  return {
    async request(url, init) {
      const { origin, pathname, search, protocol } = new URL(url);
      const fresh = init.fresh === true;
      // A connection whose answer ended in this turn of the event loop is free, but undici's pool learns so
      // a turn later: asked now, it opened another one beside it (a handshake on a real network). Sent a
      // turn later, the request takes it. At the pool's limit it cannot open one, and waiting a turn would
      // only hold back the uploads of an item sync that follow their answers (issue 21). A write opens its
      // own connection anyway.
      if (!fresh && freedThisTurn && open < (connections ?? Infinity)) await new Promise((resolve) => setImmediate(resolve));
      try {
        const response = await (fresh ? writes : reads).request({
          origin,
          path: `${pathname}${search}`,
          method: init.method as Dispatcher.HttpMethod,
          headers: init.headers,
          // undici documents an AsyncIterable body (its types lag: Dispatcher.md, "body").
          body: (typeof init.body === 'object' ? init.body.open() : init.body) as Dispatcher.DispatchOptions['body'],
          signal: init.signal,
          // A fresh request's connection is closed after its answer (connection: close): no later write
          // can find it stale. Otherwise kept: undici closes a connection after a DELETE with a body (the
          // service's removals carry their deletedBy) unless told the server reads it, as this service's does.
          reset: fresh,
          headersTimeout: init.timeoutMs,
          bodyTimeout: init.timeoutMs,
        });
        if (!fresh) response.body.once('close', connectionFreed);
        return { statusCode: response.statusCode, headers: response.headers, body: streamBody(response.body) };
      } catch (error) {
        throw proxyFailure(error, proxyFor(proxies, protocol)) ?? error;
      }
    },
    destroy: () => {
      warm?.close();
      return Promise.all([reads.destroy(), writes.destroy()]).then(() => undefined);
    },
    close: () => {
      warm?.close();
      return Promise.all([reads.close(), writes.close()]).then(() => undefined);
    },
    preconnect: warm ? (url, count) => warm.open(url, Math.min(count, connections ?? count), count) : undefined,
  };
}

/**
 * An interceptor that ends a request whose answer's status is outside
 * 100-599 as its head arrives (StatusOutOfRangeError). undici passes 000 to
 * 099 to the handler as an interim answer, then waits for a final one, and
 * failed the request (an assertion) only when the connection ended: a write
 * answered 000 waited out the headers timeout (test/faults/hostile-server.test.ts).
 */
function refuseStatusOutOfRange(dispatch: Dispatcher['dispatch']): Dispatcher['dispatch'] {
  return (options, handler) => {
    const own = handler as Record<string | symbol, unknown>;
    const wrapped = new Proxy(own, {
      get(target, property) {
        if (property === 'onResponseStart') {
          return (controller: { abort(reason: Error): void }, status: number, ...rest: unknown[]) => {
            if (status < 100 || status > 599) return controller.abort(new StatusOutOfRangeError(status));
            return (target.onResponseStart as (...args: unknown[]) => unknown).call(target, controller, status, ...rest);
          };
        }
        const value = target[property];
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    return dispatch(options, wrapped as Dispatcher.DispatchHandler);
  };
}

/**
 * A server may answer an upload before it has read the body (a refused key,
 * a 413) and close the connection; the next write of the body then fails
 * (EPIPE, ECONNRESET) while the answer waits, unread, in the kernel. Node
 * destroys a socket, and drops what it had not read, at the first write that
 * fails, so undici reported "connection closed" in place of the answer
 * (test/faults/early-answer.test.ts: 1 to 4 runs in 100 on a loaded
 * machine). Here such a write error leaves the socket open for two more
 * turns of the event loop, its later writes held: the answer already
 * received is read and wins (undici ends the request with it); only when
 * none came is the socket destroyed with the write's error.
 */
function answersWin(connect: BuildConnector.connector): BuildConnector.connector {
  return (options, callback) =>
    connect(options, (...args) => {
      if (args[1]) readOnAfterPeerClosed(args[1]);
      callback(...args);
    });
}

/** A connector that reports each connection made (+1) and closed (-1). */
function counted(connect: BuildConnector.connector, change: (by: number) => void): BuildConnector.connector {
  return (options, callback) =>
    connect(options, (...args) => {
      const socket = args[1];
      if (socket) {
        change(1);
        socket.once('close', () => change(-1));
      }
      callback(...args);
    });
}

type WriteGeneric = (writev: boolean, data: unknown, encoding: string, cb: (error?: Error | null) => void) => void;
const PEER_CLOSED = new Set(['EPIPE', 'ECONNRESET']);

/**
 * Needed for servers without a lingering close: those that answer an
 * upload before reading its body (a refused key, a 413) and then close or
 * reset the connection at once, the body unread (the emulator before issue
 * 30, many small servers and proxies). A server with a lingering close
 * (reading and dropping the body for a while before it closes, as nginx and
 * the emulator now do) never makes the write fail first. Patches Node's
 * private `net.Socket._writeGeneric`, the one path of write and writev (TLS
 * included), stable since Node 12; test/unit/http-peer-closed.test.ts fails
 * the day a Node version changes it. Returns whether it could.
 */
export function readOnAfterPeerClosed(socket: Socket): boolean {
  const target = socket as Socket & { _writeGeneric?: WriteGeneric };
  const write = target._writeGeneric;
  if (typeof write !== 'function') return false;
  let closedBy: Error | undefined;
  target._writeGeneric = function (writev, data, encoding, cb) {
    if (closedBy) return; // held: the socket is destroyed below, which settles it
    write.call(this, writev, data, encoding, (error) => {
      const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
      if (!error || !code || !PEER_CLOSED.has(code) || closedBy) return cb(error);
      closedBy = error;
      setImmediate(() => setImmediate(() => socket.destroy(closedBy)));
    });
  };
  return true;
}

export interface Proxies {
  http?: string;
  https?: string;
}

/** HTTP_PROXY for http:// URLs, HTTPS_PROXY (else HTTP_PROXY) for https:// ones, as EnvHttpProxyAgent is given them. */
function proxiesOf(env: NodeJS.ProcessEnv): Proxies {
  const http = env.HTTP_PROXY ?? env.http_proxy;
  const https = env.HTTPS_PROXY ?? env.https_proxy ?? http;
  return { http: http || undefined, https: https || undefined };
}

function proxyFor(proxies: Proxies, protocol: string): { url: string; variable: string } | undefined {
  const url = protocol === 'https:' ? proxies.https : proxies.http;
  if (!url) return undefined;
  return { url, variable: protocol === 'https:' && url !== proxies.http ? 'HTTPS_PROXY' : protocol === 'https:' ? 'HTTPS_PROXY or HTTP_PROXY' : 'HTTP_PROXY' };
}

/**
 * A failure of the proxy itself, named as such: its tunnel refused
 * ("Proxy response (407) !== 200", which undici throws as an abort and ahs
 * took for Ctrl-C), or no connection to it (its address is the one that
 * failed). Anything else is the request's own failure (undefined).
 */
function proxyFailure(error: unknown, proxy: { url: string; variable: string } | undefined): ProxyError | undefined {
  if (!proxy) return undefined;
  const shown = withoutCredentials(proxy.url);
  // A tunnel refused ("Proxy response (407) !== 200 when HTTP Tunneling"), or a forwarded request answered 407.
  const refused = /^Proxy (?:response|Authentication Required) \((\d{3})\)/.exec(error instanceof Error ? error.message : '');
  if (refused) return proxyAnswered(Number(refused[1]), shown, proxy.variable, hasCredentials(proxy.url));
  const failed = failedConnection(error);
  if (!failed || !isProxy(failed, proxy.url)) return undefined;
  return new ProxyError(`could not reach the proxy ${shown} (${failed.code}): check ${proxy.variable === 'HTTP_PROXY' ? 'HTTP_PROXY' : 'HTTPS_PROXY/HTTP_PROXY'}`, true);
}

/** A 407 that reached the client as an answer (a proxy that forwards rather than tunnels): the proxy named. */
export function proxyAuthenticationRequired(env: NodeJS.ProcessEnv, url: string): ProxyError {
  const proxy = proxyFor(proxiesOf(env), new URL(url).protocol);
  if (!proxy) return new ProxyError('a proxy answered 407 Proxy Authentication Required, but none is set: check HTTPS_PROXY/HTTP_PROXY and the base URL', false);
  return proxyAnswered(407, withoutCredentials(proxy.url), proxy.variable, hasCredentials(proxy.url));
}

/** What a proxy's answer other than 200 to a request (or to CONNECT) means, in one line (exit 6). */
export function proxyAnswered(status: number, shown: string, variable: string, credentials: boolean): ProxyError {
  if (status === 407) {
    const fix = credentials ? `the credentials in ${variable} were refused: check them (http://user:pass@host:port)` : `put credentials in ${variable} (http://user:pass@host:port)`;
    return new ProxyError(`the proxy ${shown} answered 407 Proxy Authentication Required: ${fix} or check NO_PROXY`, false);
  }
  return new ProxyError(`the proxy ${shown} answered ${status} and opened no connection to the service: check ${variable}, NO_PROXY and the base URL`, status >= 500);
}

/** The proxy's URL with no user name or password (what messages may show). */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '(the proxy named in the environment)';
  }
}

function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

/** What a connect failure names: the address and port it tried, or the host name it could not look up (through AggregateError and causes). */
function failedConnection(error: unknown): { code: string; address?: string; port?: number; hostname?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const { address, port, hostname, code } = current as { address?: unknown; port?: unknown; hostname?: unknown; code?: unknown };
    if (typeof code === 'string' && typeof address === 'string' && typeof port === 'number') return { code, address, port };
    if (typeof code === 'string' && typeof hostname === 'string') return { code, hostname };
    current = (current as { errors?: unknown[] }).errors?.[0] ?? (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isProxy(failed: { address?: string; port?: number; hostname?: string }, proxy: string): boolean {
  if (failed.hostname !== undefined) return safeHostname(proxy) === failed.hostname.toLowerCase();
  return failed.address !== undefined && failed.port !== undefined && sameEndpoint({ address: failed.address, port: failed.port }, proxy);
}

function safeHostname(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function sameEndpoint(failed: { address: string; port: number }, proxy: string): boolean {
  try {
    const url = new URL(proxy);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (port !== failed.port) return false;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A host name resolves to the address that failed: the port alone tells them apart from the service's then.
    return host === failed.address || !/^[\d.:]+$/.test(host);
  } catch {
    return false;
  }
}

/** True when the environment names a proxy (only undici's EnvHttpProxyAgent goes through one). */
export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.HTTP_PROXY ?? env.http_proxy ?? env.HTTPS_PROXY ?? env.https_proxy);
}
