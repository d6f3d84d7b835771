// A fault-injecting HTTP proxy for tests: it stands in front of a target (the
// emulator) on port 0 and forwards every request unchanged, except those a
// rule or the seeded chaos picks, which get a fault instead.
//
//   const proxy = await startFaultProxy(emulator.baseUrl, { pageSizeCap: 20 });
//   proxy.inject({ kind: 'reset-after' }, { method: 'POST', path: '/va' });   // next POST .../va
//   proxy.inject({ kind: 'status', status: 503 }, { times: 2 });            // a burst of two 503s
//   ... drive ApiClient or the CLI at proxy.url ...
//   expect(proxy.log.filter((r) => r.forwarded)).toHaveLength(1);
//   await proxy.close();
//
// Faults (Fault['kind']):
//   reset-before  the client's connection is reset before anything is forwarded: the server never sees it
//   reset-after   forwarded, the server's answer read in full (a write IS applied), then the client's
//                 connection is reset: the answer is lost
//   status        an answer of `status` (502, 503, ...) with an optional body, not forwarded
//   cut-body      forwarded; the client gets the headers and the first `after` bytes (default: half)
//                 of the body, then a reset
//   stall         `phase: 'headers'` (default): never answers; `phase: 'body'`: forwarded, the headers and
//                 the first `after` bytes sent, then nothing more. Held until the client gives up or close()
//   redirect      a 3xx (default 302) to `location`, not forwarded
//   oversize      a 200 application/json answer of `bytes` bytes (a JSON array), generated, not forwarded
//   answer        any canned answer, not forwarded: `status` (default 200), `contentType`, `body`
//                 (an HTML page, invalid JSON, '', 'null', ...)
//   gateway       forwarded, the server's answer read in full (a write IS applied), then the client
//                 gets a gateway's error page instead: `status` (default 504), an HTML `body`
//   reset-reused  a request that came on a kept-alive connection (not its first) is reset before
//                 forwarding, as a server closing an idle connection just as it is reused; only such
//                 a request takes the rule
//
// A 429 or 503 with Retry-After is a `status` fault with `headers: { 'retry-after': '1' }`.
//
// As an HTTP proxy (HTTP_PROXY=proxy.url): CONNECT tunnels go to the target, and absolute-form requests
// (`GET http://host/path`, as a client forwards to an http:// service) are forwarded to the target, or
// either gets a 407 when `proxyAuth: 'user:pass'` is set and the request's Proxy-Authorization is not
// that; proxy.tunnels counts the tunnels opened, proxy.forwards the absolute-form requests. deadPort() gives a URL where nothing listens (a dead proxy).
//
// Rules: inject(fault, match) queues a rule; a request takes the first rule
// that matches it (method; path: a RegExp, or a string the URL's path - the
// query left out - ends with) and uses one of its `times` (default 1).
// chaos({ seed, rate, faults }) gives each request that no rule took a
// fault with probability `rate`, picked from `faults` by a PRNG seeded with
// `seed`: the same seed and the same requests give the same faults.
// pageSizeCap rewrites every pageSize query parameter down to the cap before
// forwarding: the target then answers like a service with that cap.
// together([match, ...]) holds the answers of requests matching those until
// one request of each has arrived: requests a client sends at once all pass,
// and its `met` says so; one that waits for another's answer would wait
// forever, so the barrier gives up after `giveUpMs` (a failing test's
// safety, never waited for when the client is right) and `met` stays false.
// untilConnections(count, match) holds the answers of requests matching
// `match` until `count` connections have been opened to the proxy (its
// `met` says whether they were, before `giveUpMs`).
// log lists every request (method, path with query, the fault taken,
// whether it was forwarded to the target, the connection it came on: 1 for
// the first opened) in order of arrival.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';

export type Fault =
  | { kind: 'reset-before' }
  | { kind: 'reset-after' }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'cut-body'; after?: number }
  | { kind: 'stall'; phase?: 'headers' | 'body'; after?: number }
  | { kind: 'redirect'; status?: number; location: string }
  | { kind: 'oversize'; bytes: number }
  | { kind: 'answer'; status?: number; contentType?: string; body: string }
  | { kind: 'gateway'; status?: number; body?: string }
  | { kind: 'reset-reused' }
  /** Forwarded unchanged: lets the first `times` matching requests through before a later rule's fault. */
  | { kind: 'pass' };

export interface Match {
  method?: string;
  path?: string | RegExp;
  /** A RegExp the query string (without `?`) must match. */
  query?: RegExp;
  /** How many matching requests get the fault (default 1). */
  times?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  fault?: Fault['kind'];
  forwarded: boolean;
  /** The connection it came on, by order of opening (1 for the first). */
  connection: number;
}

export interface FaultProxy {
  /** http://127.0.0.1:PORT: use as --base-url / --delivery-url. */
  url: string;
  log: LoggedRequest[];
  inject(fault: Fault, match?: Match): void;
  chaos(options: { seed: number; rate: number; faults: Fault[] }): void;
  /** CONNECT tunnels opened (as an HTTP proxy). */
  tunnels: number;
  /** Absolute-form requests forwarded (as an HTTP proxy to an http:// service). */
  forwards: number;
  /** A barrier: the answers of requests matching `matches` are held until one of each has arrived. */
  together(matches: Match[], giveUpMs?: number): Barrier;
  /** A barrier: the answers of requests matching `match` are held until `count` connections have been opened. */
  untilConnections(count: number, match?: Match, giveUpMs?: number): Barrier;
  /** Drops every rule and the chaos. */
  reset(): void;
  /** Resets every open connection (stalled ones included) and stops listening. */
  close(): Promise<void>;
}

export interface Barrier {
  /** Every match's request arrived while the others were held: they were sent at once. */
  readonly met: boolean;
}

interface Rule {
  fault: Fault;
  match: Match;
  left: number;
}

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Change control's sentinel assets (a run's lock): spared by a proxy that tests the content's writes. */
export const SPARE_CONTROL = /\/va\/ahs-control/;

/** A gateway's error page, as a load balancer serves it. */
export const GATEWAY_PAGE = '<!DOCTYPE html>\n<html><head><title>504 Gateway Time-out</title></head>\n<body><center><h1>504 Gateway Time-out</h1></center><hr><center>nginx</center></body></html>\n';

export async function startFaultProxy(target: string, options: { pageSizeCap?: number; proxyAuth?: string; cutAfterWrites?: number; spare?: RegExp } = {}): Promise<FaultProxy> {
  // cutAfterWrites N: the Nth write is applied and its answer lost, and every later request is reset before it is
  // forwarded: a runner lost right after that write.
  // spare: requests whose path matches are forwarded untouched, never counted, cut or faulted (change control's
  // sentinel, SPARE_CONTROL, for a test of the content's writes).
  let writes = 0;
  const targetUrl = new URL(target);
  let rules: Rule[] = [];
  let chaos: { random: () => number; rate: number; faults: Fault[] } | undefined;
  const log: LoggedRequest[] = [];
  const barriers: Array<{ slots: Array<{ match: Match; arrived: boolean }>; open: Promise<void>; release: () => void; state: { met: boolean; closed: boolean } }> = [];
  /** Held until the barrier this request takes a place in opens. */
  const barrierFor = (req: IncomingMessage): Promise<void> | undefined => {
    const [pathname, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    for (const barrier of barriers) {
      if (barrier.state.closed) continue;
      const slot = barrier.slots.find((s) => !s.arrived && matches(s.match, req.method!, pathname, query));
      if (!slot) continue;
      slot.arrived = true;
      if (barrier.slots.every((s) => s.arrived)) {
        barrier.state.met = true;
        barrier.state.closed = true;
        barrier.release();
      }
      return barrier.open;
    }
    return undefined;
  };

  const pick = (req: IncomingMessage, reused: boolean): Fault | undefined => {
    const pathname = (req.url ?? '/').split('?')[0]!;
    // A reset-reused rule is only taken by a request on a kept-alive connection.
    const query = (req.url ?? '/').split('?')[1] ?? '';
    const rule = rules.find((r) => r.left > 0 && (reused || r.fault.kind !== 'reset-reused') && matches(r.match, req.method!, pathname, query));
    if (rule) {
      rule.left--;
      return rule.fault;
    }
    if (chaos && chaos.random() < chaos.rate) return chaos.faults[Math.floor(chaos.random() * chaos.faults.length)];
    return undefined;
  };

  const forward = async (req: IncomingMessage, body: Buffer): Promise<Upstream> => {
    const url = new URL(req.url ?? '/', targetUrl);
    if (options.pageSizeCap !== undefined && url.searchParams.has('pageSize')) {
      url.searchParams.set('pageSize', String(Math.min(Number(url.searchParams.get('pageSize')), options.pageSizeCap)));
    }
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      upstream.on('error', reject);
      upstream.end(body);
    });
  };

  /** Connections opened to the proxy, in order, and the barriers waiting for a number of them. */
  const connectionIds = new WeakMap<object, number>();
  let connections = 0;
  const connectionGates: Array<{ count: number; match: Match; open: Promise<void>; release: () => void; state: { met: boolean; closed: boolean } }> = [];
  const onConnection = (socket: Socket) => {
    connections++;
    connectionIds.set(socket, connections);
    for (const gate of connectionGates) {
      if (gate.state.closed || connections < gate.count) continue;
      gate.state.met = true;
      gate.state.closed = true;
      gate.release();
    }
  };
  const connectionGateFor = (req: IncomingMessage): Promise<void> | undefined => {
    const [pathname, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    return connectionGates.find((gate) => !gate.state.closed && matches(gate.match, req.method!, pathname, query))?.open;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (/^https?:\/\//i.test(req.url ?? '')) {
      // A forward proxy's request: authorised as a CONNECT is, then handled as any other (its path only).
      const expected = options.proxyAuth === undefined ? undefined : `Basic ${Buffer.from(options.proxyAuth).toString('base64')}`;
      if (expected !== undefined && req.headers['proxy-authorization'] !== expected) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="gateway"', 'content-length': '0' }).end();
        return;
      }
      forwards++;
      const absolute = new URL(req.url!);
      req.url = `${absolute.pathname}${absolute.search}`;
      delete req.headers['proxy-authorization'];
    }
    const served = (served_.get(req.socket) ?? 0) + 1;
    served_.set(req.socket, served);
    const spared = options.spare !== undefined && options.spare.test(req.url ?? '/');
    const write = req.method !== 'GET' && req.method !== 'HEAD' && !spared;
    if (write && options.cutAfterWrites !== undefined) writes++;
    const cut = !spared && options.cutAfterWrites !== undefined && writes >= options.cutAfterWrites;
    const fault: Fault | undefined = spared ? undefined : cut ? { kind: write && writes === options.cutAfterWrites ? 'reset-after' : 'reset-before' } : pick(req, served > 1);
    const entry: LoggedRequest = { method: req.method!, path: req.url ?? '/', fault: fault?.kind, forwarded: false, connection: connectionIds.get(req.socket) ?? 0 };
    log.push(entry);
    if (fault?.kind === 'reset-before') return void req.socket.resetAndDestroy();
    if (fault?.kind === 'reset-reused') return void req.socket.resetAndDestroy();
    const body = await readAll(req);
    await barrierFor(req);
    await connectionGateFor(req);
    const send = (status: number, headers: Record<string, string>, text: string) => res.writeHead(status, { 'content-length': String(Buffer.byteLength(text)), ...headers }).end(text);
    switch (fault?.kind) {
      case 'status':
        return void send(fault.status, { 'content-type': 'text/plain', ...fault.headers }, fault.body ?? `proxy: ${fault.status}`);
      case 'redirect':
        return void send(fault.status ?? 302, { location: fault.location, 'content-type': 'text/html' }, `<a href="${fault.location}">moved</a>`);
      case 'answer':
        return void send(fault.status ?? 200, fault.contentType ? { 'content-type': fault.contentType } : {}, fault.body);
      case 'oversize':
        return void send(200, { 'content-type': 'application/json' }, oversizeJson(fault.bytes));
      case 'stall':
        if ((fault.phase ?? 'headers') === 'headers') return; // held until the client gives up or close()
    }
    const answer = await forward(req, body);
    entry.forwarded = true;
    if (fault?.kind === 'reset-after') return void req.socket.resetAndDestroy();
    if (fault?.kind === 'gateway') return void send(fault.status ?? 504, { 'content-type': 'text/html' }, fault.body ?? GATEWAY_PAGE);
    const headers = { ...answer.headers, 'content-length': String(answer.body.length) };
    delete headers['transfer-encoding'];
    if (fault?.kind === 'cut-body' || fault?.kind === 'stall') {
      res.writeHead(answer.status, headers);
      res.write(answer.body.subarray(0, fault.after ?? Math.floor(answer.body.length / 2)), () => {
        if (fault.kind === 'cut-body') req.socket.resetAndDestroy();
      });
      return;
    }
    res.writeHead(answer.status, headers).end(answer.body);
  };

  const served_ = new WeakMap<object, number>();
  let tunnels = 0;
  let forwards = 0;
  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  // As a forward proxy: a tunnel (CONNECT) to the target.
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => {});
    const expected = options.proxyAuth === undefined ? undefined : `Basic ${Buffer.from(options.proxyAuth).toString('base64')}`;
    if (expected !== undefined && req.headers['proxy-authorization'] !== expected) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="gateway"\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    tunnels++;
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
  });
  server.on('connection', onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    log,
    get tunnels() {
      return tunnels;
    },
    get forwards() {
      return forwards;
    },
    inject(fault, match = {}) {
      rules.push({ fault, match, left: match.times ?? 1 });
    },
    together(matchList, giveUpMs = 5000) {
      let release!: () => void;
      const open = new Promise<void>((resolve) => (release = resolve));
      const state = { met: false, closed: false };
      barriers.push({ slots: matchList.map((match) => ({ match, arrived: false })), open, release, state });
      // Only a client that does not send them at once meets this: then the test fails, not hangs.
      setTimeout(() => {
        state.closed = true;
        release();
      }, giveUpMs).unref();
      return {
        get met() {
          return state.met;
        },
      };
    },
    untilConnections(count, match = {}, giveUpMs = 5000) {
      let release!: () => void;
      const open = new Promise<void>((resolve) => (release = resolve));
      const state = { met: connections >= count, closed: connections >= count };
      if (state.closed) release();
      connectionGates.push({ count, match, open, release, state });
      // A client that opens fewer does not meet it: then the test fails, not hangs.
      setTimeout(() => {
        state.closed = true;
        release();
      }, giveUpMs).unref();
      return {
        get met() {
          return state.met;
        },
      };
    },
    chaos({ seed, rate, faults }) {
      chaos = { random: mulberry32(seed), rate, faults };
    },
    reset() {
      rules = [];
      chaos = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function matches(match: Match, method: string, pathname: string, query = ''): boolean {
  if (match.method && match.method.toUpperCase() !== method) return false;
  if (match.query && !match.query.test(query)) return false;
  if (match.path === undefined) return true;
  return typeof match.path === 'string' ? pathname.endsWith(match.path) : match.path.test(pathname);
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A JSON array of exactly `bytes` bytes: `[0,0,...,0]` padded with spaces. */
function oversizeJson(bytes: number): string {
  const count = Math.max(1, Math.floor((bytes - 1) / 2));
  const text = `[${'0,'.repeat(count - 1)}0]`;
  return text.padEnd(bytes, ' ');
}

/** A small seeded PRNG (mulberry32): the same seed gives the same faults. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** http://127.0.0.1:PORT where nothing listens any more (a dead proxy, a service that is down). */
export async function deadPort(): Promise<string> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
