#!/usr/bin/env node
// A latency proxy for the round-trip bench (bench/rounds.mjs, issue 21): it
// stands in front of a target (the emulator) and holds each request
// `delayMs` before forwarding it and each answer `delayMs` before sending it
// back, so that every request costs one round trip of 2 x delayMs, as a
// service that far away would (connection set-up is not delayed: it is paid
// once per connection, which keep-alive makes rare). Each request is logged
// with the time it arrived and the time its answer was sent in full, from
// which the bench counts the requests and the longest chain of requests that
// waited for one another. JSON answers naming the target's origin (a
// deployed downloadUrl) name the proxy's instead, so that every request of a
// command goes through it. `pageCap` rewrites pageSize down to the cap: the
// target then answers like a service with that cap.
//
//   node bench/latency-proxy.mjs TARGET_URL [--delay 50] [--port 0] [--page-cap N]
//   (prints the proxy's URL, then one JSON line per request)
import { createServer, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * Starts the proxy. `delayMs` and `pageCap` can be changed between runs
 * (proxy.delayMs = 0); `log` collects {method, path, start, end, bodyAt,
 * answeredAt} (ms, from performance.now(): the headers arrived, the answer
 * was sent, the body had arrived, the target had answered); `reset()`
 * empties it.
 */
export async function startLatencyProxy(target, { delayMs = 50, pageCap, port = 0, onRequest } = {}) {
  const targetUrl = new URL(target);
  const proxy = { delayMs, pageCap, log: [], url: '', reset: () => (proxy.log = []), close: undefined };
  const server = createServer(async (req, res) => {
    const start = performance.now();
    const delay = proxy.delayMs;
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const bodyAt = performance.now();
    const url = new URL(req.url ?? '/', targetUrl);
    if (proxy.pageCap !== undefined && url.searchParams.has('pageSize')) {
      url.searchParams.set('pageSize', String(Math.min(Number(url.searchParams.get('pageSize')), proxy.pageCap)));
    }
    if (delay > 0) await sleep(delay);
    let answer;
    try {
      answer = await forward(url, req, Buffer.concat(chunks));
    } catch (error) {
      answer = { status: 502, headers: { 'content-type': 'text/plain' }, body: Buffer.from(`latency proxy: ${error.message}`) };
    }
    const answeredAt = performance.now();
    let body = answer.body;
    if (String(answer.headers['content-type'] ?? '').includes('json') && body.includes(targetUrl.origin)) {
      body = Buffer.from(body.toString('utf8').split(targetUrl.origin).join(proxy.url));
    }
    if (delay > 0) await sleep(delay);
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
  // The target's keep-alive connections, reused like a client's.
  const agent = new (await import('node:http')).Agent({ keepAlive: true });
  function forward(url, req, body) {
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host }, agent }, (res) => {
        const parts = [];
        res.on('data', (chunk) => parts.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(parts) }));
        res.on('error', reject);
      });
      upstream.on('error', reject);
      upstream.end(body);
    });
  }
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${server.address().port}`;
  proxy.close = async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
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
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { delay: { type: 'string', default: '50' }, port: { type: 'string', default: '0' }, 'page-cap': { type: 'string' } } });
  if (positionals.length !== 1) {
    console.error('usage: node bench/latency-proxy.mjs TARGET_URL [--delay MS] [--port N] [--page-cap N]');
    process.exit(2);
  }
  const proxy = await startLatencyProxy(positionals[0], {
    delayMs: Number(values.delay),
    port: Number(values.port),
    pageCap: values['page-cap'] === undefined ? undefined : Number(values['page-cap']),
    onRequest: (entry) => console.log(JSON.stringify(entry)),
  });
  console.log(proxy.url);
}
