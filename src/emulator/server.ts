// The HTTP server: API under /api/v2/{domainId}/..., delivery under
// /api/vi/..., both on one port (or delivery on its own, under a prefix,
// with the `deliveryPrefix` variation). Authentication, routing, error bodies and
// the request log live here; handlers/ hold the resources.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestContext, Emulator } from './context.js';
import { registerAssets } from './handlers/assets.js';
import { registerCollections } from './handlers/collections.js';
import { registerDelivery, type DeliveryContext } from './handlers/delivery.js';
import { registerItems } from './handlers/items.js';
import { registerVersions } from './handlers/versions.js';
import { answerBeforeBody, bodyUnread, checkQueryEncoding, decodeSegment, jsonHeaders, Router, sendJson, textHeaders } from './http.js';
import { fail, Problem } from './problem.js';
import {
  apiKeyInvalid,
  apiKeyMissing,
  apiKeyOfAnotherDomain,
  methodNotAllowed,
  noEndpoint,
  requestHeadersTooLarge,
  requestMalformed,
  requestTimedOut,
  unexpected,
} from '../rules/rejections.js';
import { errorBody, type Rejection } from '../rules/index.js';
import { titleOf } from './variation.js';

const API_PREFIX = /^\/api\/v2\/([^/]+)(\/.*)?$/;
const DELIVERY_PREFIX = '/api/vi/';

export interface EmulatorServer {
  server: Server;
  /**
   * Stops accepting and lets in-flight requests finish; connections still
   * busy after `shutdownGraceMs` are cut. Resolves once every handler is done.
   */
  close(): Promise<void>;
}

/** Time limits of a request and of the stop (emulator.md, "Start"). */
export interface RequestLimits {
  /** For a request's headers to arrive. */
  headersTimeoutMs: number;
  /** For a whole request, body included, to arrive. */
  requestTimeoutMs: number;
  /** Silence on a connection (no byte either way) after which it is closed. */
  idleTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /** On close(), how long requests in flight may take before their connections are cut. */
  shutdownGraceMs: number;
  /** After an answer sent before the request's body was read: how long the rest is read and dropped for... */
  lingerMs: number;
  /** ... and how many of its bytes, before the connection is cut. */
  lingerBytes: number;
}

// A release upload over a slow link takes minutes; a client that stalls for a
// minute is gone. The stop deadline keeps "stopped within 5 s" (emulator.md).
export const DEFAULT_LIMITS: RequestLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 300_000,
  idleTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  shutdownGraceMs: 3_000,
  lingerMs: 5_000,
  lingerBytes: 256 * 1024 * 1024,
};

/** What one server answers: the API, and the delivery network under a prefix ('' for none). */
export interface Serves {
  api: boolean;
  deliveryPrefix?: string;
}

export function createEmulatorServer(emu: Emulator, serves: Serves, limits: RequestLimits = DEFAULT_LIMITS): EmulatorServer {
  const api = new Router<RequestContext>();
  registerAssets(api);
  registerVersions(api);
  registerCollections(api);
  registerItems(api);
  const delivery = new Router<DeliveryContext>();
  registerDelivery(delivery);

  let inFlight = 0;
  let closing = false;
  let onIdle: (() => void) | undefined;
  // The response in progress on each connection: a client error arriving meanwhile must not write into it.
  const answering = new WeakMap<Duplex, ServerResponse>();

  const server = createServer(serverOptions(limits), (req, res) => {
    inFlight += 1;
    const started = Date.now();
    answering.set(req.socket, res);
    if (closing) res.setHeader('connection', 'close');
    // The Date header on the emulator's clock (emulator.md, "A clock of its own").
    if (emu.clock.offsetMs !== 0) res.setHeader('date', new Date(Date.now() + emu.clock.offsetMs).toUTCString());
    res.on('close', () => {
      emu.log(`${req.method} ${req.url} ${outcome(res, closing)} ${Date.now() - started}ms`);
      if (answering.get(req.socket) === res) answering.delete(req.socket);
      inFlight -= 1;
      if (inFlight === 0 && onIdle) onIdle();
    });
    const running = handle(emu, serves, api, delivery, req, res, limits);
    handlers.add(running);
    void running.finally(() => handlers.delete(running));
  });
  server.timeout = limits.idleTimeoutMs;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inProgress = answering.get(socket);
    // A client gone in the middle of its request (Ctrl-C during an upload): its request's line says so.
    if (inProgress && !inProgress.writableFinished && GONE.has(error.code ?? '')) socket.destroy();
    else answerClientError(emu, error, socket, inProgress);
  });
  // Handlers still running, also those whose client went away (an aborted
  // upload cleaning up its temporary file): close() waits for them.
  const handlers = new Set<Promise<void>>();

  return {
    server,
    close: async () => {
      let deadline: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        closing = true;
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
        // A finished keep-alive socket turns idle just after its response closes.
        const whenIdle = () => setImmediate(() => server.closeIdleConnections());
        if (inFlight === 0) whenIdle();
        else onIdle = whenIdle;
        // A client that stalls (half its headers, a trickling upload) would hold the stop forever.
        deadline = setTimeout(() => {
          emu.log(`stopping: cutting the connections still open after ${limits.shutdownGraceMs} ms`);
          server.closeAllConnections();
        }, limits.shutdownGraceMs);
      }).finally(() => clearTimeout(deadline));
      await Promise.all(handlers);
    },
  };
}

/** Errors of a connection closed by the client part-way through a request. */
const GONE = new Set(['HPE_INVALID_EOF_STATE', 'ECONNRESET', 'EPIPE']);

/** What a request's log line says of its answer: the status, or that it ended without one. */
function outcome(res: ServerResponse, closing: boolean): string {
  if (res.writableFinished) return String(res.statusCode);
  if (res.headersSent) return `${res.statusCode}, closed before the end of the request, after`;
  return closing ? 'cut at the stop after' : 'aborted by the client after';
}

function serverOptions(limits: RequestLimits) {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the two limits above on this period (30 s by default): a fraction of the shorter one.
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/**
 * A request Node could not take (bytes HTTP does not allow, headers too
 * large, not received in time): the usual error body, then the connection
 * closes. Nothing is written into a response already under way.
 */
function answerClientError(emu: Emulator, error: NodeJS.ErrnoException, socket: Duplex, inProgress: ServerResponse | undefined): void {
  emu.log(`client error: ${error.code ?? error.message}`);
  if (error.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent) {
    socket.destroy();
    return;
  }
  const rejection = clientErrorRejection(error);
  const body = JSON.stringify(errorBody({ status: rejection.status, title: titleOf(emu.variation, rejection) }));
  const head = [
    `HTTP/1.1 ${rejection.status} ${STATUS_TEXT[rejection.status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function clientErrorRejection(error: NodeJS.ErrnoException): Rejection {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return requestTimedOut();
  if (error.code === 'HPE_HEADER_OVERFLOW') return requestHeadersTooLarge();
  return requestMalformed(error.code === undefined ? error.message : `${error.code.replace(/^HPE_/, '').toLowerCase().replace(/_/g, ' ')}`);
}

async function handle(
  emu: Emulator,
  serves: Serves,
  api: Router<RequestContext>,
  delivery: Router<DeliveryContext>,
  req: IncomingMessage,
  res: ServerResponse,
  limits: RequestLimits,
): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    checkQueryEncoding(url.search);
    const apiMatch = serves.api ? API_PREFIX.exec(path) : null;
    if (apiMatch) {
      const domainId = decodeSegment(apiMatch[1]!);
      const rest = apiMatch[2] ?? '/';
      const found = api.match(method, rest);
      if (!('route' in found)) throw notRouted(method, path, found.methodMismatch);
      const ctx = authenticate(emu, req, res, url, domainId);
      await found.route.handler(ctx, found.params);
      return;
    }
    const deliveryPath = serves.deliveryPrefix === undefined ? undefined : `${serves.deliveryPrefix}${DELIVERY_PREFIX}`;
    if (deliveryPath !== undefined && path.startsWith(deliveryPath)) {
      const found = delivery.match(method === 'HEAD' ? 'GET' : method, path.slice(deliveryPath.length - 1));
      if (!('route' in found)) throw notRouted(method, path, found.methodMismatch);
      await found.route.handler({ emu, req, res, url, query: url.searchParams }, found.params);
      return;
    }
    if (path === '/' || path === '/healthz') {
      sendJson(res, 200, { service: 'ahs-emulator', api: `${emu.baseUrl}/api/v2`, delivery: `${emu.deliveryUrl}/api/vi` });
      return;
    }
    throw notRouted(method, path, false);
  } catch (error) {
    writeError(emu, req, res, error, limits);
  }
}

function notRouted(method: string, path: string, methodMismatch: boolean): Problem {
  return new Problem(methodMismatch ? methodNotAllowed(method, path) : noEndpoint(method, path));
}

/** Every API endpoint needs an `apikey` of the path's domain (spec, Authentication 1-2). */
function authenticate(emu: Emulator, req: IncomingMessage, res: ServerResponse, url: URL, domainId: string): RequestContext {
  const header = req.headers.apikey;
  const presented = Array.isArray(header) ? header[0] : header;
  if (!presented) fail(apiKeyMissing());
  for (const domain of emu.fixture.domains) {
    const key = domain.apiKeys.find((candidate) => candidate.key === presented);
    if (!key) continue;
    if (domain.domainId !== domainId) fail(apiKeyOfAnotherDomain(domainId));
    const data = emu.store.domain(domainId);
    return { emu, req, res, url, query: url.searchParams, domainId, domain, data, key };
  }
  fail(apiKeyInvalid());
}

function writeError(emu: Emulator, req: IncomingMessage, res: ServerResponse, error: unknown, limits: RequestLimits): void {
  // The client went away mid-request (its request's log line says so): nobody to answer, nothing unexpected.
  if (req.socket.destroyed && !(error instanceof Problem)) {
    res.destroy();
    return;
  }
  const known = error instanceof Problem ? error : undefined;
  if (!known) emu.log(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const answer = known ?? new Problem(unexpected(error instanceof Error ? error.message : String(error)));
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const title = titleOf(emu.variation, answer.rejection);
  const text = answer.plainText ? title : JSON.stringify(errorBody({ status: answer.status, title }));
  const headers = answer.plainText ? textHeaders(text) : jsonHeaders(text);
  // Refused before its body was read whole (no key, too large, too deep): the
  // answer, then the rest of the body read and dropped before the close.
  if (bodyUnread(req)) answerBeforeBody(req, res, answer.status, headers, text, { ms: limits.lingerMs, bytes: limits.lingerBytes });
  else {
    res.writeHead(answer.status, headers);
    res.end(text);
  }
}
