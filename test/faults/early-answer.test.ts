// A server (or a proxy in front of it) may answer an upload before reading
// its body - a refused key, a body too large - and close the connection.
// ahs must report that answer, with its exit code, not a lost answer: the
// emulator reads every body before answering, so this needs its own server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, assertFreshBuild } from '../e2e/helpers.js';

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

async function upload(size: number) {
  const file = join(dir, `f${size}.bin`);
  await writeFile(file, Buffer.alloc(size, 7));
  // The built binary in a process of its own: in-process, the server's answer is always read before the write fails.
  const env = { AHS_CONFIG_DIR: dir, AHS_BASE_URL: base, AHS_DOMAIN: 'demo', AHS_API_KEY: 'some-key', AHS_USER: 'a@b.c', NO_COLOR: '1' };
  const run = await execa(process.execPath, [BIN, 'version', 'upload', 'A1', file, '--platform', 'ios', '--name', 'v1', '--retries', '0'], { env, reject: false });
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

  it.each([
    [401, 'Unauthorized', 1],
    [403, 'Forbidden: key not valid for this domain', 3],
    [413, 'Payload Too Large', 1],
  ])('reports the %i the service sent', async (status, title, code) => {
    answer = { status, title };
    for (const size of [1, 1024 * 1024, 3 * 1024 * 1024 + 1]) {
      const run = await upload(size);
      expect(run.stderr).toContain(title);
      expect(run.stderr).not.toMatch(/lost|network/);
      expect(run.exitCode).toBe(code);
    }
  });
});
