// A server (or a proxy in front of it) may answer an upload before reading
// its body - a refused key, a body too large - and close the connection.
// ahs must report that answer, with its exit code, not a lost answer: the
// emulator reads every body before answering, so this needs its own server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, assertFreshBuild, runInProcess } from '../e2e/helpers.js';
import { undiciTransport } from '../../src/http/transport.js';
import { UPLOAD_PIECE } from '../../src/transfer/upload.js';

let server: Server;
let base: string;
let dir: string;
/** What the server answers every POST at once, without reading its body. */
let answer = { status: 401, title: 'Unauthorized' };

beforeAll(async () => {
  assertFreshBuild();
  dir = await mkdtemp(join(tmpdir(), 'ahs-early-'));
  server = createServer((req, res) => {
    if (req.method !== 'POST') {
      // The reads before the upload (the versions of that name): none.
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalResults: 0, pageNumber: 1, pageSize: 50, results: [] }));
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify({ type: 'about:blank', title: answer.title, status: answer.status }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function upload(size: number, where: 'process' | 'in-process') {
  const file = join(dir, `f${size}.bin`);
  await writeFile(file, Buffer.alloc(size, 7));
  return uploadFile(file, where);
}

async function uploadFile(file: string, where: 'process' | 'in-process' = 'process') {
  const env = { AHS_CONFIG_DIR: dir, AHS_BASE_URL: base, AHS_DOMAIN: 'demo', AHS_API_KEY: 'some-key', AHS_USER: 'a@b.c', NO_COLOR: '1' };
  const args = ['version', 'upload', 'A1', file, '--platform', 'ios', '--name', 'v1', '--retries', '0'];
  if (where === 'in-process') return runInProcess(args, env);
  // The built binary in a process of its own: in-process, the server's answer is always read before the write fails.
  const run = await execa(process.execPath, [BIN, ...args], { env, reject: false });
  return { exitCode: run.exitCode, stderr: run.stderr };
}

describe('an upload answered before its body was read', () => {
  it('reports an answer sent after part of the body was read, the server still reading the rest', async () => {
    // Raw, to read part of the body before answering; it then reads and drops the rest, so no write fails.
    const partial = createNetServer((socket) => {
      let seen = 0;
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen < 64 * 1024 || socket.writableEnded) return;
        const body = JSON.stringify({ type: 'about:blank', title: 'Payload Too Large', status: 413 });
        socket.end(`HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => partial.listen(0, '127.0.0.1', resolve));
    try {
      const file = join(dir, 'partial.bin');
      await writeFile(file, Buffer.alloc(5 * 1024 * 1024, 7));
      const env = { AHS_CONFIG_DIR: dir, AHS_BASE_URL: `http://127.0.0.1:${(partial.address() as AddressInfo).port}`, AHS_DOMAIN: 'demo', AHS_API_KEY: 'some-key', AHS_USER: 'a@b.c', NO_COLOR: '1' };
      // version upload sends its POST first: the server answers nothing else.
      const run = await execa(process.execPath, [BIN, 'version', 'upload', 'A1', file, '--platform', 'ios', '--name', 'v1', '--retries', '0'], { env, reject: false });
      expect(run.stderr).toContain('Payload Too Large');
      expect(run.exitCode).toBe(1);
    } finally {
      await new Promise((resolve) => partial.close(resolve));
    }
  });

  it('the answer wins every time: 6 uploads at once, each a process of its own (the load widens the race)', async () => {
    // The fix (answersWin, src/http/transport.ts) is guarded by "the upload transport" below, which forces
    // the race every time and fails without it. This is the same answer through the whole CLI, six
    // processes at once on a 2-core machine: it meets the race only now and then (without the fix, 30
    // uploads failed 1 run in 3, six rarely), so it proves the built CLI reports it, not the fix (issue 34:
    // it was 30, 6 at a time, ~5 s of CPU).
    answer = { status: 401, title: 'Unauthorized' };
    const file = join(dir, 'many.bin');
    await writeFile(file, Buffer.alloc(3 * 1024 * 1024 + 1, 7));
    const runs = await Promise.all(Array.from({ length: 6 }, () => uploadFile(file)));
    expect(runs.filter((run) => run.exitCode !== 1 || !run.stderr.includes('Unauthorized')).map((run) => run.stderr)).toEqual([]);
    expect(runs).toHaveLength(6);
  });

  it.each([
    [401, 'Unauthorized', 1],
    [403, 'Forbidden: key not valid for this domain', 3],
    [413, 'Payload Too Large', 1],
  ])('reports the %i the service sent', async (status, title, code) => {
    answer = { status, title };
    // One write, the socket taking part of it; then pieces, with a turn of the event loop between them.
    // main() in this process: what is reported for each answer (the race is the tests' above and below).
    for (const size of [1, 1024 * 1024, 2 * UPLOAD_PIECE + 1]) {
      const run = await upload(size, 'in-process');
      expect(run.stderr).toContain(title);
      expect(run.stderr).not.toMatch(/lost|network/);
      expect(run.exitCode).toBe(code);
    }
  });
});

describe('the upload transport', () => {
  it('reads the answer already received when the next write of the body meets the reset', async () => {
    // The server answers at the first bytes and resets; the body's next piece is written only after that,
    // so the write fails before the client's socket was read: the race of the CLI runs above, every time.
    let answered!: () => void;
    const reset = new Promise<void>((resolve) => (answered = resolve));
    const server = createNetServer((socket: Socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        const body = JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401 });
        socket.write(`HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body}`, () => {
          socket.resetAndDestroy();
          setImmediate(answered);
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const transport = await undiciTransport({}, 5000);
    async function* body() {
      yield Buffer.alloc(1000, 1);
      await reset;
      for (let i = 0; i < 10; i++) yield Buffer.alloc(1000, 2);
    }
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/demo/va/A1/versions`;
      const answer = await transport.request(url, { method: 'POST', headers: { 'content-length': '11000' }, body: { open: body }, signal: new AbortController().signal, timeoutMs: 5000 });
      expect(answer.statusCode).toBe(401);
      expect(await answer.body.text()).toContain('Unauthorized');
    } finally {
      await transport.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
