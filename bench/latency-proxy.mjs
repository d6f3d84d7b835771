#!/usr/bin/env node
// A latency proxy for the round-trip bench (bench/rounds.mjs, issue 21): it
// stands in front of a target (the emulator) and holds each request
// `delayMs` before forwarding it and each answer `delayMs` before sending it
// back, so that every request costs one round trip of 2 x delayMs, as a
// service that far away would. Connection set-up is free by default (the
// issue's floors do not count it); `setupRoundTrips` charges a new
// connection's handshakes (1: TCP, 2: TCP and TLS 1.3) to its first
// request, counted from when the client opened it. Each request is logged
// with the time it arrived and the time its answer was sent in full, from
// which the bench counts the requests and the longest chain of requests that
// waited for one another. JSON answers naming the target's origin (a
// deployed downloadUrl) name the proxy's instead, so that every request of a
// command goes through it. `pageCap` rewrites pageSize down to the cap: the
// target then answers like a service with that cap.
//
//   node bench/latency-proxy.mjs TARGET_URL [--delay 50] [--port 0] [--page-cap N] [--setup-round-trips N]
//   (prints the proxy's URL, then one JSON line per request)
import { createServer } from 'node:http';
import { createConnection } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * Starts the proxy. `delayMs` and `pageCap` can be changed between runs
 * (proxy.delayMs = 0); `log` collects {method, path, start, end, bodyAt,
 * answeredAt} (ms, from performance.now(): the headers arrived, the answer
 * was sent, the body had arrived, the target had answered); `reset()`
 * empties it.
 */
export async function startLatencyProxy(target, { delayMs = 50, pageCap, port = 0, setupRoundTrips = 0, onRequest } = {}) {
  const targetUrl = new URL(target);
  const proxy = { delayMs, pageCap, setupRoundTrips, log: [], url: '', reset: () => (proxy.log = []), close: undefined };
  const upstream = new Upstream(targetUrl);
  // Callbacks rather than async steps: the proxy shares the bench's two cores
  // with the client and the emulator, and each request it holds is on the
  // path of a round (bench/README.md, "The emulator's CPU per upload").
  const server = createServer((req, res) => {
    const start = performance.now();
    // setupRoundTrips: a new connection's first bytes reach the service only
    // once its handshakes are done (TCP 1 round trip, TLS 1.3 one more),
    // counted from when the client opened it: one opened ahead of need has
    // paid them by the time it is used.
    const setUp = (req.socket[OPENED] ?? start) + proxy.setupRoundTrips * 2 * proxy.delayMs;
    const delay = proxy.delayMs;
    const inbound = delay + Math.max(0, setUp - start);
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const bodyAt = performance.now();
      const path = cappedPath(req.url ?? '/', proxy.pageCap);
      const send = (answer) => {
        const answeredAt = performance.now();
        let body = answer.body;
        if (String(answer.headers['content-type'] ?? '').includes('json') && body.includes(targetUrl.origin)) {
          body = Buffer.from(body.toString('utf8').split(targetUrl.origin).join(proxy.url));
        }
        after(delay, () => {
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          delete headers.connection;
          delete headers['keep-alive'];
          res.writeHead(answer.status, headers);
          res.end(body, () => {
            const entry = { method: req.method, path: req.url, start, end: performance.now(), bodyAt, answeredAt };
            proxy.log.push(entry);
            onRequest?.(entry);
          });
        });
      };
      after(inbound, () =>
        upstream.request(req, path, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).then(send, (error) =>
          send({ status: 502, headers: { 'content-type': 'text/plain' }, body: Buffer.from(`latency proxy: ${error.message}`) }),
        ),
      );
    });
  });
  server.on('connection', (socket) => (socket[OPENED] = performance.now()));
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${server.address().port}`;
  proxy.close = async () => {
    upstream.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}

/** Runs `work` after `ms` (at once for 0, as a proxy without delay would). */
function after(ms, work) {
  if (ms > 0) setTimeout(work, ms);
  else work();
}

/** The request's path and query, its pageSize lowered to `pageCap` (when set and larger). */
function cappedPath(path, pageCap) {
  if (pageCap === undefined || !path.includes('pageSize=')) return path;
  const url = new URL(path, 'http://proxy.invalid');
  if (!url.searchParams.has('pageSize')) return path;
  url.searchParams.set('pageSize', String(Math.min(Number(url.searchParams.get('pageSize')), pageCap)));
  return `${url.pathname}${url.search}`;
}

/** When a client connection was accepted (performance.now()). */
const OPENED = Symbol('opened');

/** The answer a connection is reading (net.Socket has a `pending` of its own). */
const PENDING = Symbol('pending');

/** Hop-by-hop headers and the body's framing: the proxy sets its own towards the target. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * Keep-alive HTTP/1.1 connections to the target, one request at a time on
 * each, idle ones reused. A plain client on net sockets: node:http's
 * ClientRequest and its agent took a fifth of the proxy's CPU per request.
 * It reads answers framed by Content-Length or chunked, or up to the close.
 */
class Upstream {
  constructor(url) {
    this.host = url.hostname;
    this.port = Number(url.port || 80);
    this.authority = url.host;
    this.idle = [];
    this.open = new Set();
  }

  /** Forwards `req` (its method and headers) with `path` and the whole `body`; resolves with the answer. */
  request(req, path, body) {
    let head = `${req.method} ${path} HTTP/1.1\r\nhost: ${this.authority}\r\n`;
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (!NOT_FORWARDED.has(raw[i].toLowerCase())) head += `${raw[i]}: ${raw[i + 1]}\r\n`;
    const hasBody = body.length > 0 || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (hasBody) head += `content-length: ${body.length}\r\n`;
    head += '\r\n';
    const socket = this.idle.pop() ?? this.connect();
    return new Promise((resolve, reject) => {
      socket[PENDING] = { method: req.method, resolve, reject, parts: [], length: 0 };
      socket.write(body.length > 0 ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : head);
    });
  }

  connect() {
    const socket = createConnection({ host: this.host, port: this.port, noDelay: true });
    this.open.add(socket);
    const fail = (error) => {
      this.open.delete(socket);
      this.idle = this.idle.filter((other) => other !== socket);
      const pending = socket[PENDING];
      socket[PENDING] = undefined;
      if (pending?.answer?.untilClose) pending.resolve(finish(pending));
      else pending?.reject(error ?? new Error('the target closed the connection'));
    };
    socket.on('data', (chunk) => this.read(socket, chunk));
    socket.on('error', fail);
    socket.on('close', () => fail());
    return socket;
  }

  /** Takes a piece of the answer in progress on `socket`; resolves it once whole. */
  read(socket, chunk) {
    const pending = socket[PENDING];
    if (!pending) return;
    pending.parts.push(chunk);
    pending.length += chunk.length;
    if (!pending.answer) {
      const bytes = pending.parts.length === 1 ? chunk : Buffer.concat(pending.parts);
      const end = bytes.indexOf('\r\n\r\n');
      if (end < 0) return;
      pending.answer = parseHead(bytes.latin1Slice(0, end), pending.method);
      pending.parts = [bytes.subarray(end + 4)];
      pending.length = bytes.length - end - 4;
    }
    const answer = pending.answer;
    if (answer.untilClose) return;
    let body;
    if (answer.chunked) {
      body = dechunk(Buffer.concat(pending.parts));
      if (!body) return;
    } else {
      if (pending.length < answer.length) return;
      body = (pending.parts.length === 1 ? pending.parts[0] : Buffer.concat(pending.parts)).subarray(0, answer.length);
    }
    socket[PENDING] = undefined;
    if (answer.close) socket.destroy();
    else this.idle.push(socket);
    pending.resolve({ status: answer.status, headers: answer.headers, body });
  }

  destroy() {
    for (const socket of this.open) socket.destroy();
  }
}

/** Status, headers and framing of an answer's head (`HEAD` and 204/304 answers have no body). */
function parseHead(text, method) {
  const lines = text.split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers = {};
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    const name = lines[i].slice(0, colon).trim().toLowerCase();
    const value = lines[i].slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const bodiless = method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
  const chunked = !bodiless && /\bchunked\b/i.test(headers['transfer-encoding'] ?? '');
  const declared = headers['content-length'];
  return {
    status,
    headers,
    chunked,
    length: bodiless ? 0 : Number(declared ?? 0),
    untilClose: !bodiless && !chunked && declared === undefined,
    close: /\bclose\b/i.test(headers.connection ?? ''),
  };
}

/** A whole chunked body's data, or undefined while its last chunk has not arrived. */
function dechunk(bytes) {
  const parts = [];
  let at = 0;
  for (;;) {
    const line = bytes.indexOf('\r\n', at);
    if (line < 0) return undefined;
    const size = parseInt(bytes.latin1Slice(at, line), 16);
    // The last chunk, then trailers (none expected) up to an empty line.
    if (size === 0) return bytes.indexOf('\r\n\r\n', line) < 0 ? undefined : Buffer.concat(parts);
    if (bytes.length < line + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

/** An answer read up to the connection's close. */
function finish(pending) {
  const { answer } = pending;
  return { status: answer.status, headers: answer.headers, body: Buffer.concat(pending.parts) };
}

/**
 * The longest chain of requests that waited for one another: the most
 * requests of the log that ran one after another, each starting after the
 * one before it ended (requests that overlap were in flight together).
 */
export function longestChain(log) {
  const byEnd = [...log].sort((a, b) => a.end - b.end);
  const depth = [];
  let longest = 0;
  for (const request of [...log].sort((a, b) => a.start - b.start)) {
    let before = 0;
    for (let index = 0; index < byEnd.length && byEnd[index].end <= request.start; index++) before = Math.max(before, depth[index] ?? 0);
    const own = before + 1;
    depth[byEnd.indexOf(request)] = own;
    longest = Math.max(longest, own);
  }
  return longest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { delay: { type: 'string', default: '50' }, port: { type: 'string', default: '0' }, 'page-cap': { type: 'string' }, 'setup-round-trips': { type: 'string', default: '0' } } });
  if (positionals.length !== 1) {
    console.error('usage: node bench/latency-proxy.mjs TARGET_URL [--delay MS] [--port N] [--page-cap N]');
    process.exit(2);
  }
  const proxy = await startLatencyProxy(positionals[0], {
    delayMs: Number(values.delay),
    port: Number(values.port),
    pageCap: values['page-cap'] === undefined ? undefined : Number(values['page-cap']),
    setupRoundTrips: Number(values['setup-round-trips']),
    onRequest: (entry) => console.log(JSON.stringify(entry)),
  });
  console.log(proxy.url);
}
