// The HTTP server: API under /api/v2/{domainId}/..., delivery under
// /api/vi/..., both on one port (or delivery on its own, under a prefix,
// with the `deliveryPrefix` variation). Authentication, routing, error bodies and
// the request log live here; handlers/ hold the resources.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { RequestContext, Emulator } from './context.js';
import { registerAssets } from './handlers/assets.js';
import { registerCollections } from './handlers/collections.js';
import { registerDelivery, type DeliveryContext } from './handlers/delivery.js';
import { registerItems } from './handlers/items.js';
import { registerVersions } from './handlers/versions.js';
import { Router, sendJson, sendText } from './http.js';
import { fail, Problem } from './problem.js';
import { apiKeyInvalid, apiKeyMissing, apiKeyOfAnotherDomain, methodNotAllowed, noEndpoint, unexpected } from '../rules/rejections.js';
import { errorBody } from '../rules/index.js';
import { titleOf } from './variation.js';

const API_PREFIX = /^\/api\/v2\/([^/]+)(\/.*)?$/;
const DELIVERY_PREFIX = '/api/vi/';

export interface EmulatorServer {
  server: Server;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** What one server answers: the API, and the delivery network under a prefix ('' for none). */
export interface Serves {
  api: boolean;
  deliveryPrefix?: string;
}

export function createEmulatorServer(emu: Emulator, serves: Serves): EmulatorServer {
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

  const server = createServer({ requestTimeout: 0, keepAliveTimeout: 5_000 }, (req, res) => {
    inFlight += 1;
    const started = Date.now();
    if (closing) res.setHeader('connection', 'close');
    res.on('close', () => {
      emu.log(`${req.method} ${req.url} ${res.statusCode} ${Date.now() - started}ms`);
      inFlight -= 1;
      if (inFlight === 0 && onIdle) onIdle();
    });
    const running = handle(emu, serves, api, delivery, req, res);
    handlers.add(running);
    void running.finally(() => handlers.delete(running));
  });
  // Handlers still running, also those whose client went away (an aborted
  // upload cleaning up its temporary file): close() waits for them.
  const handlers = new Set<Promise<void>>();

  return {
    server,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        closing = true;
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
        // A finished keep-alive socket turns idle just after its response closes.
        const whenIdle = () => setImmediate(() => server.closeIdleConnections());
        if (inFlight === 0) whenIdle();
        else onIdle = whenIdle;
      });
      await Promise.all(handlers);
    },
  };
}

async function handle(emu: Emulator, serves: Serves, api: Router<RequestContext>, delivery: Router<DeliveryContext>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const apiMatch = serves.api ? API_PREFIX.exec(path) : null;
    if (apiMatch) {
      const domainId = decodeURIComponent(apiMatch[1]!);
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
    writeError(emu, res, error);
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

function writeError(emu: Emulator, res: ServerResponse, error: unknown): void {
  const known = error instanceof Problem ? error : undefined;
  if (!known) emu.log(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const answer = known ?? new Problem(unexpected(error instanceof Error ? error.message : String(error)));
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const title = titleOf(emu.variation, answer.rejection);
  if (answer.plainText) sendText(res, answer.status, title);
  else sendJson(res, answer.status, errorBody({ status: answer.status, title }));
}
