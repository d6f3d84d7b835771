// The connections undici's pool is handed ahead of the uploads (warm.ts) sit
// idle while the command's first reads are answered; a server may close
// them, or write on them, meanwhile. An upload must then go on a new
// connection, sent once, and get its own answer.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { assertFreshBuild, harness, uid } from '../e2e/helpers.js';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { undiciTransport } from '../../src/http/transport.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { tempDirs } from '../support/temp-dir.js';

let server: Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});
/** The certificate's folder of the https test, removed after the file. */
const temp = tempDirs();

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

/** Every upload goes through undici (client.ts, transportFor), fresh as every write is. */
async function uploadOnce(base: string) {
  const transport = await undiciTransport({}, 5_000, 8);
  const body = '{"a":1}';
  return { transport, send: () => transport.request(`${base}/api/v2/d/vc/c/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: new AbortController().signal, timeoutMs: 5_000, fresh: true }) };
}

describe('a warm connection the server spoiled before it was used', () => {
  it.each([
    ['closed (FIN)', (socket: Socket) => void socket.end()],
    ['reset (RST)', (socket: Socket) => void socket.resetAndDestroy()],
    ['answered with a 408 before any request (an idle timeout), then closed', (socket: Socket) => void socket.end('HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')],
  ])('%s by the server right after it was opened: the upload goes on a new one, sent once', async (_how, poison) => {
    const { base, seen } = await serverPoisoning(1, poison);
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
});

describe('a warm connection that never connects', () => {
  it('(a TLS handshake never answered): the upload fails with its connect timeout, on that one connection, not a second wait', async () => {
    // Accepts, and never says a word.
    const held: Socket[] = [];
    const silent = createNetServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const base = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const transport = await undiciTransport({}, 100, 8);
    try {
      transport.preconnect!(base, 1);
      const failed = await transport.request(`${base}/api/v2/d/vc/c/items`, { method: 'POST', headers: {}, body: '{}', signal: new AbortController().signal, timeoutMs: 5_000, fresh: true }).catch((error: unknown) => error);
      expect((failed as { code?: string }).code).toBe('UND_ERR_CONNECT_TIMEOUT');
      expect(held).toHaveLength(1);
    } finally {
      await transport.destroy();
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });
});

describe('the origins a warm connection is opened to', () => {
  // A machine without IPv6 on its loopback (some CI containers) cannot listen on ::1.
  const loopbackV6 = Object.values(networkInterfaces()).some((addresses) => addresses?.some((address) => address.address === '::1'));
  it.skipIf(!loopbackV6)('an IPv6 literal host ([::1]): the upload goes on the connection opened ahead', async () => {
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
  it('opens nothing ahead; to an http:// service forwards (no tunnel), its reads on one kept-alive connection, each write on one of its own', async () => {
    const { base } = await serverPoisoning(0, () => {});
    const proxy = await startFaultProxy(base);
    const transport = await undiciTransport({ HTTP_PROXY: proxy.url }, 5_000, 8);
    try {
      expect(transport.preconnect).toBeUndefined();
      const send = (method: string) =>
        transport.request(`${base}/api/v2/d/vc/c/items/i1`, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{"deletedBy":"a@b.c"}', signal: new AbortController().signal, timeoutMs: 5_000, fresh: method !== 'GET' });
      for (const method of ['GET', 'DELETE', 'GET', 'POST', 'GET']) {
        const answer = await send(method);
        expect(answer.statusCode).toBe(201);
        await answer.body.text();
      }
      expect(proxy.tunnels).toBe(0);
      expect(proxy.forwards).toBe(5);
      const on = (method: string) => new Set(proxy.log.filter((r) => r.method === method).map((r) => r.connection));
      expect(on('GET').size).toBe(1);
      expect(on('DELETE').size + on('POST').size).toBe(2);
      expect([...on('DELETE'), ...on('POST')].some((id) => on('GET').has(id))).toBe(false);
    } finally {
      await transport.destroy();
      await proxy.close();
    }
  });
});

describe('https', () => {
  it('the connections opened ahead name the host (servername) and trust NODE_EXTRA_CA_CERTS as the others do: the upload goes through', async () => {
    assertFreshBuild();
    const dir = await temp('ahs-warm-tls-');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    expect(made.status).toBe(0);
    const h = await harness();
    const target = new URL(h.emu.baseUrl);
    const names: Array<string | false | null> = [];
    // TLS in front of the emulator, each connection's servername noted.
    const front = createHttpsServer({ key: await readPem(dir, 'key.pem'), cert: await readPem(dir, 'cert.pem') }, (req, res) => {
      const forwarded = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forwarded);
    });
    front.on('secureConnection', (socket: TLSSocket) => names.push(socket.servername));
    await new Promise<void>((resolve) => front.listen(0, resolve));
    try {
      const id = uid('tls');
      expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: 'owner@demo.test' })).status).toBe(201);
      const files = join(h.dir, id);
      await mkdir(files);
      for (const name of ['a', 'b', 'c', 'd']) await writeFile(join(files, `${name}.zip`), name);
      const base = `https://localhost:${(front.address() as AddressInfo).port}`;
      const run = await h.ahs(['item', 'sync', id, files, '--type', '1001', '--json'], { binary: true, env: { AHS_BASE_URL: base, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.json().uploaded).toHaveLength(4);
      // The two reads' connections and the two more opened ahead for the four uploads.
      expect(names.length).toBeGreaterThanOrEqual(3);
      expect(names.every((name) => name === 'localhost')).toBe(true);
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await h.close();
    }
  });
});

async function readPem(dir: string, name: string): Promise<Buffer> {
  const { readFile } = await import('node:fs/promises');
  return readFile(join(dir, name));
}
