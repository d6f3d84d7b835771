// The lean download transport (src/http/lean.ts) against small real servers
// in this process: raw `net` servers where the bytes on the wire matter,
// node:http elsewhere. No sleeps: every wait is on an event.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTlsServer } from 'node:tls';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { leanTransport } from '../../src/http/lean.js';
import type { Transport, TransportAnswer } from '../../src/http/transport.js';
import { ApiClient } from '../../src/http/client.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { Redactor } from '../../src/http/redact.js';
import { UnexpectedAnswerError } from '../../src/http/errors.js';

const servers: Server[] = [];
const transports: Transport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.destroy()));
  for (const server of servers.splice(0)) {
    (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close();
  }
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A raw server: `onRequest` gets each request's head (as text) and the socket; counts connections. */
async function rawServer(onRequest: (request: string, socket: Socket, index: number) => void): Promise<{ base: string; connections: () => number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  let requests = 0;
  const server = createNetServer((socket) => {
    sockets.push(socket);
    socket.setNoDelay(true);
    let pending = '';
    socket.on('data', (data) => {
      pending += data.toString('latin1');
      let end: number;
      while ((end = pending.indexOf('\r\n\r\n')) >= 0) {
        const request = pending.slice(0, end);
        pending = pending.slice(end + 4);
        onRequest(request, socket, requests++);
      }
    });
    socket.on('error', () => {});
  });
  const base = await listen(server);
  return { base, connections: () => sockets.length, sockets };
}

function lean(connections?: number): Transport {
  const transport = leanTransport(connections);
  transports.push(transport);
  return transport;
}

function get(transport: Transport, url: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<TransportAnswer> {
  return transport.request(url, { method: 'GET', headers: { accept: '*/*' }, signal: options.signal ?? new AbortController().signal, timeoutMs: options.timeoutMs ?? 5000 });
}

/** Reads a body whole, copying each piece: what a consumer that keeps pieces must do. */
async function read(answer: TransportAnswer): Promise<Buffer> {
  const pieces: Buffer[] = [];
  await answer.body.consume((piece) => pieces.push(Buffer.from(piece)));
  return Buffer.concat(pieces);
}

const content = (size: number, seed = 1) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) & 0xff));
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('lean transport', () => {
  it('a body larger than the read buffer arrives whole, hashed in place as the pieces pass', async () => {
    const big = content(1024 * 1024 + 123);
    const base = await listen(createHttpServer((_req, res) => res.writeHead(200, { 'content-length': String(big.length) }).end(big)));
    const answer = await get(lean(), `${base}/big`);
    const hash = createHash('sha256');
    let bytes = 0;
    let pieces = 0;
    await answer.body.consume((piece) => {
      hash.update(piece);
      bytes += piece.length;
      pieces++;
    });
    expect(answer.statusCode).toBe(200);
    expect(bytes).toBe(big.length);
    expect(hash.digest('hex')).toBe(sha(big));
    expect(pieces).toBeGreaterThan(1);
  });

  it('decodes a chunked body written in several pieces, and keeps the connection for the next file', async () => {
    const parts = [content(10), content(300_000, 2), content(5, 3)];
    const server = createHttpServer((_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (const part of parts) res.write(part);
      res.end();
    });
    let connections = 0;
    server.on('connection', () => connections++);
    const base = await listen(server);
    const transport = lean();
    for (const name of ['a', 'b']) {
      const answer = await get(transport, `${base}/${name}`);
      expect(answer.headers['transfer-encoding']).toBe('chunked');
      expect((await read(answer)).equals(Buffer.concat(parts))).toBe(true);
    }
    expect(connections).toBe(1);
  });

  it('reads a head that comes in several reads', async () => {
    const { base } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Le');
      // A second write after the first has left: the client reads the head in two pieces, at least.
      socket.write('', () => setImmediate(() => socket.write('ngth: 5\r\nX-Name: split\r', () => setImmediate(() => socket.write('\n\r\nhello')))));
    });
    const answer = await get(lean(), `${base}/split`);
    expect(answer.headers['x-name']).toBe('split');
    expect((await read(answer)).toString()).toBe('hello');
  });

  it('a body its consumer reads only turns of the event loop after the head loses nothing: the connection waits for it', async () => {
    const rest = content(50_000, 9);
    let sendRest!: () => Promise<void>;
    const { base } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 50010\r\n\r\n0123456789');
      sendRest = () => new Promise((resolve) => socket.write(rest, () => resolve()));
    });
    const answer = await get(lean(), `${base}/late`);
    // The rest of the body is in the client's kernel buffer, and the event loop has had turns to read it.
    await sendRest();
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect((await read(answer)).equals(Buffer.concat([Buffer.from('0123456789'), rest]))).toBe(true);
  });

  it('a connection is used again only after an answer that allows it: not after HTTP/1.0, Connection: close, or a body longer than its length', async () => {
    const answers = [
      'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok',
      // Bytes past the length, shaped like an answer: never taken for the next file's.
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
    ];
    const { base, connections } = await rawServer((_request, socket, index) => socket.write(answers[index]!));
    const transport = lean(1);
    for (let i = 0; i < answers.length; i++) expect((await read(await get(transport, `${base}/${i}`))).toString()).toBe('ok');
    expect(connections()).toBe(4);
  });

  it('answers with no body (HEAD, 204, 304) after interim ones (100, 103) keep the connection for the next file', async () => {
    const { base, connections } = await rawServer((request, socket) => {
      const interim = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n';
      if (request.startsWith('HEAD')) socket.write(`${interim}HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n`);
      else if (request.includes('/204')) socket.write(`${interim}HTTP/1.1 204 No Content\r\n\r\n`);
      else socket.write('HTTP/1.1 304 Not Modified\r\nContent-Length: 1000\r\n\r\n');
    });
    const transport = lean(1);
    const head = await transport.request(`${base}/file`, { method: 'HEAD', headers: {}, signal: new AbortController().signal, timeoutMs: 5000 });
    expect([head.statusCode, head.headers['content-length'], (await read(head)).length]).toEqual([200, '1000', 0]);
    expect((await get(transport, `${base}/204`)).statusCode).toBe(204);
    expect((await get(transport, `${base}/304`)).statusCode).toBe(304);
    expect(connections()).toBe(1);
  });

  it('an answer sent before the request was read, the connection closed at once after it: the answer is read, not lost to a reset', async () => {
    const server = createNetServer((socket) => {
      socket.on('error', () => {});
      // A server refusing every connection (a 503 page), without reading the request: closing with it unread resets the connection.
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy');
    });
    const base = await listen(server);
    const answer = await get(lean(), `${base}/early`);
    expect([answer.statusCode, (await read(answer)).toString()]).toEqual([503, 'busy']);
  });

  it('a header flood is refused at 64 KiB, its connection closed, not read on into memory', async () => {
    const { base, sockets } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      const line = `X-Flood: ${'f'.repeat(1000)}\r\n`;
      const flood = (): void => {
        // On and on until the client hangs up.
        while (!socket.destroyed && socket.write(line));
        if (!socket.destroyed) socket.once('drain', flood);
      };
      flood();
    });
    await expect(get(lean(), `${base}/flood`)).rejects.toThrow(/a head of more than 65536 bytes/);
    // Closed by the client (a reset: what it left unread is dropped).
    if (!sockets[0]!.closed) await new Promise((resolve) => sockets[0]!.once('close', resolve));
  });

  it('many files at once through one pool: each connection carries one request at a time, each answer goes to its own file', async () => {
    let inFlight = 0;
    let overlapped = false;
    const server = createHttpServer((req, res) => {
      const socket = req.socket as Socket & { busy?: boolean };
      overlapped ||= socket.busy === true;
      socket.busy = true;
      inFlight++;
      const file = content(1000 + Number(req.url!.slice(1)) * 997, Number(req.url!.slice(1)));
      // Some answers chunked, some with a length, each after a turn: requests overlap across connections.
      setImmediate(() => {
        socket.busy = false;
        inFlight--;
        if (req.url!.endsWith('0')) res.writeHead(200).end(file);
        else res.writeHead(200, { 'content-length': String(file.length) }).end(file);
      });
    });
    let connections = 0;
    server.on('connection', () => connections++);
    const base = await listen(server);
    const transport = lean(3);
    const bodies = await Promise.all(Array.from({ length: 40 }, async (_, i) => sha(await read(await get(transport, `${base}/${i}`)))));
    expect(bodies).toEqual(Array.from({ length: 40 }, (_, i) => sha(content(1000 + i * 997, i))));
    expect(overlapped).toBe(false);
    expect(inFlight).toBe(0);
    expect(connections).toBe(3);
  });

  it.skipIf(!ipv6())('an IPv6 literal host ([::1]) is connected to, and named in the host header, as the URL writes it', async () => {
    let host = '';
    const server = createHttpServer((req, res) => {
      host = req.headers.host ?? '';
      res.writeHead(200, { 'content-length': '2' }).end('ok');
    });
    servers.push(server);
    server.listen(0, '::1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    expect((await read(await get(lean(), `http://[::1]:${port}/file`))).toString()).toBe('ok');
    expect(host).toBe(`[::1]:${port}`);
  });

  it('an answer with both content-length and chunked is refused, and its connection closed', async () => {
    const { base, connections } = await rawServer((_request, socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'));
    const transport = lean(1);
    for (const name of ['one', 'two']) await expect(get(transport, `${base}/${name}`)).rejects.toThrow('both a content-length and a transfer-encoding');
    expect(connections()).toBe(2);
  });

  it('a kept-alive connection the server closed before answering the next file: sent again once, on a new connection', async () => {
    const served = content(1000);
    const { base, connections } = await rawServer((_request, socket, index) => {
      // The first answer keeps the connection alive; the second request on it is dropped unanswered, as a server timing out an idle connection does.
      if (index === 1) return void socket.destroy();
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${served.length}\r\n\r\n`);
      socket.write(served);
    });
    const transport = lean(1);
    expect((await read(await get(transport, `${base}/one`))).equals(served)).toBe(true);
    expect((await read(await get(transport, `${base}/two`))).equals(served)).toBe(true);
    expect(connections()).toBe(2);
  });

  it('a new connection closed before any answer is not sent again: a connection error for the caller', async () => {
    const { base, connections } = await rawServer((_request, socket) => socket.destroy());
    await expect(get(lean(), `${base}/gone`)).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect(connections()).toBe(1);
  });

  it('a body cut short is a closed connection (undici\'s code), never a whole file', async () => {
    const { base } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n');
      socket.write(content(30_000), () => socket.destroy());
    });
    const answer = await get(lean(), `${base}/cut`);
    await expect(read(answer)).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('a body that stalls mid-way times out (--timeout), the connection dropped', async () => {
    const { base, sockets } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n');
      socket.write(content(40_000));
    });
    const answer = await get(lean(), `${base}/stall`, { timeoutMs: 100 });
    await expect(read(answer)).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
    if (!sockets[0]!.closed) await once(sockets[0]!, 'close');
  });

  it('no head within the timeout is a headers timeout', async () => {
    const { base } = await rawServer(() => {});
    await expect(get(lean(), `${base}/silent`, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('abort mid-body destroys the connection and fails the read', async () => {
    const { base, sockets } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n');
      socket.write(content(40_000));
    });
    const controller = new AbortController();
    const answer = await get(lean(), `${base}/abort`, { signal: controller.signal });
    let got = 0;
    const reading = answer.body.consume((piece) => {
      got += piece.length;
      if (got >= 40_000) controller.abort();
    });
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    if (!sockets[0]!.closed) await once(sockets[0]!, 'close');
  });

  it('never opens more connections to one host than allowed: requests beyond them wait for one to be free', async () => {
    const server = createHttpServer((_req: IncomingMessage, res: ServerResponse) => setImmediate(() => res.writeHead(200, { 'content-length': '3' }).end('abc')));
    let connections = 0;
    server.on('connection', () => connections++);
    const base = await listen(server);
    const transport = lean(2);
    const bodies = await Promise.all(Array.from({ length: 7 }, async (_, i) => (await read(await get(transport, `${base}/${i}`))).toString()));
    expect(bodies).toEqual(Array(7).fill('abc'));
    expect(connections).toBe(2);
  });

  it('asks for the bytes as stored (accept-encoding: identity): a server free to compress (no accept-encoding: any coding goes) sends them plain', async () => {
    const file = content(20_000, 6);
    const server = createHttpServer((req, res) => {
      // RFC 9110 12.5.3: without accept-encoding, any content coding is acceptable.
      const asked = req.headers['accept-encoding'];
      if (asked === undefined || /gzip/.test(asked)) res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(file));
      else res.writeHead(200, { 'content-length': String(file.length) }).end(file);
    });
    const base = await listen(server);
    const answer = await get(lean(), `${base}/file.bin`);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect((await read(answer)).equals(file)).toBe(true);
  });

  it('a URL with user:password@ sends them as Basic credentials, as node:http does for the delivery document, and never in the request line', async () => {
    let head = '';
    const { base } = await rawServer((request, socket) => {
      head = request;
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    const answer = await get(lean(), `${base.replace('http://', 'http://us%20er:p%40ss@')}/file`);
    expect((await read(answer)).toString()).toBe('ok');
    expect(head).toContain(`\r\nauthorization: Basic ${Buffer.from('us er:p@ss').toString('base64')}`);
    expect(head.split('\r\n')[0]).toBe('GET /file HTTP/1.1');
    expect(head).not.toContain('p%40ss');
  });

  it.each([
    ['a line break (no header smuggled in)', 'k\r\nx-evil: 1'],
    ['a character beyond latin1 (it would be written as another one)', 'k\u20ack'],
  ])('refuses a header value with %s', async (_case, value) => {
    const transport = lean();
    await expect(transport.request('http://127.0.0.1:9/x', { method: 'GET', headers: { apikey: value }, signal: new AbortController().signal, timeoutMs: 1000 })).rejects.toThrow(/cannot carry/);
  });
});

/** Whether this machine has IPv6 loopback (some CI containers have none). */
function ipv6(): boolean {
  return Object.values(networkInterfaces()).some((addresses) => addresses?.some((address) => address.address === '::1'));
}

/** A self-signed certificate for 127.0.0.1 (openssl, an EC key: a few ms), or undefined without openssl. */
function selfSigned(): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'ahs-tls-'));
  try {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    if (made.status !== 0) return undefined;
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('lean transport over TLS', () => {
  const pair = selfSigned();
  it.skipIf(!pair)('reads an https body into its buffer as over plain TCP (tls.connect honours onread), and checks the certificate', async () => {
    const big = content(600_000, 5);
    const server = createHttpsServer({ key: pair!.key, cert: pair!.cert }, (_req, res) => res.writeHead(200, { 'content-length': String(big.length) }).end(big));
    const base = (await listen(server as unknown as Server)).replace('http:', 'https:');
    const trusting = leanTransport(1, { ca: pair!.cert });
    transports.push(trusting);
    const answer = await get(trusting, `${base}/secure`);
    let pieces = 0;
    const hash = createHash('sha256');
    await answer.body.consume((piece) => {
      pieces++;
      hash.update(piece);
    });
    expect(hash.digest('hex')).toBe(sha(big));
    expect(pieces).toBeGreaterThan(1);
    // Without its CA, the same server is refused.
    await expect(get(lean(), `${base}/secure`)).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it.skipIf(!pair)('a certificate that is not trusted: refused before any request, in words that say how to trust a CA of your own', async () => {
    let requests = 0;
    const server = createHttpsServer({ key: pair!.key, cert: pair!.cert }, (_req, res) => void (requests++, res.end('file')));
    const base = (await listen(server as unknown as Server)).replace('http:', 'https:');
    const api = new ApiClient({ baseUrl: base, timeoutMs: 5000, retries: 0 });
    try {
      const refused = await api.send({ method: 'GET', path: '/file' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NetworkError);
      expect((refused as Error).message).toBe(`could not reach ${base}: its TLS certificate was refused (self-signed certificate, DEPTH_ZERO_SELF_SIGNED_CERT); check the address, or, for a certificate of your own CA, point NODE_EXTRA_CA_CERTS at that CA's certificate`);
      expect(requests).toBe(0);
    } finally {
      await api.destroy();
    }
  });

  it.skipIf(!pair)('a body its consumer reads turns after the head loses nothing over TLS either: records decrypted after pause() are kept', async () => {
    const body = content(100_000, 4);
    const server = createTlsServer({ key: pair!.key, cert: pair!.cert }, (socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        // The head in a record of its own, the body in many small ones, all in one go: one read of the client decrypts them all.
        socket.cork();
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`);
        for (let at = 0; at < body.length; at += 1000) socket.write(body.subarray(at, at + 1000));
        socket.uncork();
      });
    });
    const base = (await listen(server as unknown as Server)).replace('http:', 'https:');
    const trusting = leanTransport(1, { ca: pair!.cert });
    transports.push(trusting);
    const answer = await get(trusting, `${base}/late`);
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect((await read(answer)).equals(body)).toBe(true);
  });
});

describe('ApiClient.send over the lean transport', () => {
  const client = (baseUrl: string) => new ApiClient({ baseUrl, timeoutMs: 5000, retries: 2, backoffMs: 1, connections: 2 });

  it('a 4xx is an ApiError with the body read, its connection kept for the next file; a 3xx is never followed', async () => {
    let connections = 0;
    const server = createHttpServer((req, res) => {
      if (req.url === '/missing') res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ title: 'no such file', status: 404 }));
      else if (req.url === '/moved') res.writeHead(302, { location: 'http://elsewhere.test/' }).end();
      else res.writeHead(200, { 'content-length': '2' }).end('ok');
    });
    server.on('connection', () => connections++);
    const base = await listen(server);
    const api = client(base);
    try {
      const missing = await api.send({ method: 'GET', path: `${base}/missing` }).catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(ApiError);
      expect((missing as ApiError).status).toBe(404);
      expect((missing as ApiError).message).toContain('no such file');
      const found = await api.send({ method: 'GET', path: `${base}/file` });
      expect(await found.body.text()).toBe('ok');
      expect(connections).toBe(1);
      await expect(api.send({ method: 'GET', path: `${base}/moved` })).rejects.toBeInstanceOf(UnexpectedAnswerError);
    } finally {
      await api.destroy();
    }
  });

  it('an answer that is not HTTP/1.1 is named in the error, quoting the server whole or not at all (a key it echoes is redacted, never cut in half)', async () => {
    const key = 'k3y-0123456789abcdef-SECRET';
    const { base } = await rawServer((request, socket) => {
      const echoed = /apikey: (.*)/.exec(request)?.[1] ?? '';
      // A status line that is not one, the key echoed across the 40th character.
      socket.end(request.includes('/short') ? 'HTTP/1.1 2OO OK\r\n\r\n' : `HTTP/1.1 2OO ${'x'.repeat(25)} ${echoed} ${'y'.repeat(40)}\r\n\r\n`);
    });
    const api = new ApiClient({ baseUrl: base, apiKey: key, timeoutMs: 5000, retries: 0, backoffMs: 1 });
    const redactor = new Redactor();
    redactor.add(key);
    try {
      const short = await api.send({ method: 'GET', path: `${base}/short` }).catch((error: unknown) => error);
      expect(short).toBeInstanceOf(NetworkError);
      expect((short as Error).message).toContain('not a valid HTTP/1.1 answer: a status line "HTTP/1.1 2OO OK"');
      const long = await api.send({ method: 'GET', path: `${base}/long` }).catch((error: unknown) => error);
      expect((long as Error).message).toMatch(/not a valid HTTP\/1\.1 answer: a status line of \d+ characters/);
      expect(redactor.redact((long as Error).message)).not.toContain(key.slice(0, 6));
    } finally {
      await api.destroy();
    }
  });

  it('the password of a URL with user:password@ is no more printed than the key: not in the --verbose trace, nor where the server echoes it', async () => {
    const password = 'pa ss/w0rd+9';
    const { base } = await rawServer((request, socket) => {
      const basic = Buffer.from(/authorization: Basic (\S+)/.exec(request)?.[1] ?? '', 'base64').toString();
      socket.write(`HTTP/1.1 200 OK\r\nX-Echo: ${basic}\r\nContent-Length: 2\r\n\r\nok`);
    });
    const lines: string[] = [];
    const trace = new Writable({ write: (chunk: Buffer, _encoding, done) => done(void lines.push(chunk.toString())) });
    const api = new ApiClient({ baseUrl: base, timeoutMs: 5000, retries: 0, trace });
    try {
      const url = `${base.replace('http://', `http://user:${encodeURIComponent(password)}@`)}/file`;
      expect(await (await api.send({ method: 'GET', path: url })).body.text()).toBe('ok');
      const traced = lines.join('');
      expect(traced).toContain('< x-echo: user:***');
      expect(traced).toContain('> GET http://user:***@');
      expect(traced).not.toContain(encodeURIComponent(password));
      expect(traced).not.toContain(password);
    } finally {
      await api.destroy();
    }
  });

  it('a 503 is retried, a 500 is not', async () => {
    const seen: string[] = [];
    const server = createHttpServer((req, res) => {
      seen.push(req.url!);
      if (req.url === '/busy' && seen.filter((url) => url === '/busy').length === 1) res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
      else if (req.url === '/broken') res.writeHead(500, { 'content-type': 'text/plain' }).end('broken');
      else res.writeHead(200, { 'content-length': '4' }).end('done');
    });
    const base = await listen(server);
    const api = client(base);
    try {
      expect(await (await api.send({ method: 'GET', path: `${base}/busy` })).body.text()).toBe('done');
      await expect(api.send({ method: 'GET', path: `${base}/broken` })).rejects.toMatchObject({ status: 500 });
      expect(seen).toEqual(['/busy', '/busy', '/broken']);
    } finally {
      await api.destroy();
    }
  });
});
