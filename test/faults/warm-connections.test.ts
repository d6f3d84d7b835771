// The connections undici's pool is handed ahead of the uploads (warm.ts) sit
// idle while the command's first reads are answered; a server may close
// them, or write on them, meanwhile. An upload must then go on a new
// connection, sent once, and get its own answer.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { undiciTransport } from '../../src/http/transport.js';
import { startFaultProxy } from '../support/fault-proxy.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server that does `poison` to its first `count` connections at once, and answers every request on the others (counted). */
async function serverPoisoning(count: number, poison: (socket: Socket) => void) {
  const seen = { posts: 0, connections: 0, poisoned: [] as Promise<void>[], accepted: (n: number) => accepted(n) };
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const accepted = (n: number) => new Promise<void>((resolve) => (seen.connections >= n ? resolve() : waiting.push({ n, resolve })));
  server = createServer((req, res) => {
    if (req.method === 'POST') seen.posts += 1;
    req.resume().on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  server.on('connection', (socket: Socket) => {
    seen.connections += 1;
    for (const waiter of waiting.filter((w) => w.n <= seen.connections)) waiter.resolve();
    if (seen.connections > count) return;
    seen.poisoned.push(new Promise((done) => socket.once('close', () => done()).once('finish', () => done())));
    poison(socket);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Two turns of the event loop: the bytes a server wrote on loopback are in this process's socket by then. */
const twoTurns = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

async function uploadOnce(base: string) {
  const transport = await undiciTransport({}, 5_000, 8);
  return { transport, send: () => transport.request(`${base}/api/v2/d/vc/c/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}', signal: new AbortController().signal, timeoutMs: 5_000 }) };
}

describe('a warm connection the server spoiled before it was used', () => {
  it('closed by the server right after it was opened: the upload goes on a new one, sent once', async () => {
    const { base, seen } = await serverPoisoning(1, (socket) => socket.end());
    const { transport, send } = await uploadOnce(base);
    try {
      transport.preconnect!(base, 1);
      await seen.accepted(1);
      await seen.poisoned[0];
      await twoTurns();
      const answer = await send();
      expect(answer.statusCode).toBe(201);
      expect(seen.posts).toBe(1);
      expect(seen.connections).toBe(2);
    } finally {
      await transport.destroy();
    }
  });

  it('a 408 written on it before any request (an idle timeout): the upload goes on a new one and gets its own answer', async () => {
    const { base, seen } = await serverPoisoning(1, (socket) => socket.end('HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'));
    const { transport, send } = await uploadOnce(base);
    try {
      transport.preconnect!(base, 1);
      await seen.accepted(1);
      await seen.poisoned[0];
      await twoTurns();
      const answer = await send();
      expect(answer.statusCode).toBe(201);
      expect(seen.posts).toBe(1);
    } finally {
      await transport.destroy();
    }
  });
});

describe('the origins a warm connection is opened to', () => {
  it('an IPv6 literal host ([::1]): the upload goes on the connection opened ahead', async () => {
    const { seen, base: v4 } = await serverPoisoning(0, () => {});
    server!.close();
    await new Promise<void>((resolve) => server!.listen(Number(new URL(v4).port), '::1', resolve));
    const base = `http://[::1]:${new URL(v4).port}`;
    const { transport, send } = await uploadOnce(base);
    try {
      transport.preconnect!(base, 1);
      await seen.accepted(1);
      const answer = await send();
      expect(answer.statusCode).toBe(201);
      expect(seen.connections).toBe(1);
    } finally {
      await transport.destroy();
    }
  });
});

describe('a transport closed before its connections were opened', () => {
  it('opens none (a command done before undici was loaded: its close ran before preconnect, and a connection still connecting held the process)', async () => {
    const { base, seen } = await serverPoisoning(0, () => {});
    const { transport } = await uploadOnce(base);
    await transport.destroy();
    transport.preconnect!(base, 2);
    // A connection of the test's own, made after: accepted after any the transport opened.
    const probe = connect(Number(new URL(base).port), '127.0.0.1');
    try {
      await seen.accepted(1);
      await twoTurns();
      expect(seen.connections).toBe(1);
    } finally {
      probe.destroy();
    }
  });
});

describe('through a proxy (HTTP_PROXY)', () => {
  it('opens nothing ahead, and a DELETE with a body keeps its tunnel for the requests that follow', async () => {
    const { base, seen } = await serverPoisoning(0, () => {});
    const proxy = await startFaultProxy(base);
    const transport = await undiciTransport({ HTTP_PROXY: proxy.url }, 5_000, 8);
    try {
      expect(transport.preconnect).toBeUndefined();
      const send = (method: string) => transport.request(`${base}/api/v2/d/vc/c/items/i1`, { method, headers: { 'content-type': 'application/json' }, body: '{"deletedBy":"a@b.c"}', signal: new AbortController().signal, timeoutMs: 5_000 });
      for (const method of ['DELETE', 'DELETE', 'POST']) {
        const answer = await send(method);
        expect(answer.statusCode).toBe(201);
        await answer.body.text();
      }
      expect(proxy.tunnels).toBe(1);
      expect(seen.connections).toBe(1);
    } finally {
      await transport.destroy();
      await proxy.close();
    }
  });
});
