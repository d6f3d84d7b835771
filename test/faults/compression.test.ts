// Compressed answers (issue 45, cli.md "Reading the service"): API requests
// ask for gzip and br and decode the answer, also one that was not asked for
// (a front that compresses whatever the client said); a download asks for
// identity and is stored byte for byte; an error body is decoded before it
// is shown, and bytes that are not text are never printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { harness, uid, type Harness } from '../e2e/helpers.js';

let h: Harness;
let front: { url: string; mode: 'gzip' | 'br' | 'gzip-binary-404' | 'zstd'; seen: Array<{ path: string; acceptEncoding?: string }>; close(): Promise<void> };

/** In front of the emulator: every API answer compressed by `mode`, whatever the request asked for. */
async function compressingFront(target: string): Promise<typeof front> {
  const seen: Array<{ path: string; acceptEncoding?: string }> = [];
  const state = { mode: 'gzip' as typeof front.mode };
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '/', acceptEncoding: req.headers['accept-encoding'] });
    const url = new URL(req.url ?? '/', target);
    const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host, 'accept-encoding': 'identity' } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const headers = { ...answer.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        // Downloads (the delivery path) pass as served.
        if (url.pathname.startsWith('/api/vi/')) return void res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(body.length) }).end(body);
        let coded: Buffer;
        let coding: string = state.mode;
        if (state.mode === 'br') coded = brotliCompressSync(body);
        else if (state.mode === 'zstd') coded = body;
        else if (state.mode === 'gzip-binary-404' && answer.statusCode === 404) {
          // A 404 whose body is bytes that are not text, gzipped.
          coded = gzipSync(Buffer.from([0x00, 0xff, 0x1b, 0x5b, 0x32, 0x4a, 0x07, 0x89]));
          coding = 'gzip';
        } else {
          coded = gzipSync(body);
          coding = 'gzip';
        }
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-encoding': coding, 'content-length': String(coded.length), vary: 'accept-encoding' }).end(coded);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    get mode() {
      return state.mode;
    },
    set mode(mode) {
      state.mode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  h = await harness();
  front = await compressingFront(h.emu.baseUrl);
});
afterAll(async () => {
  await front?.close();
  await h?.close();
});

const through = (args: string[]) => h.ahs(args, { env: { AHS_BASE_URL: front.url, AHS_DELIVERY_URL: front.url } });

describe('a front that compresses every answer, asked or not', () => {
  it.each(['gzip', 'br'] as const)('%s: reads exit 0 with the right JSON; API requests ask for gzip and br, downloads for identity and keep their bytes', async (mode) => {
    front.mode = mode;
    front.seen.length = 0;
    const id = uid('gz');
    await h.createAsset(id);
    const content = 'payload'; // the harness's version file
    const v = await h.uploadVersion(id, 'ios');
    expect((await h.deploy(id, v, 'ios', 'dev', 'LIVE')).status).toBe(201);
    const get = await through(['asset', 'get', id, '--json']);
    expect(get.exitCode, get.stderr).toBe(0);
    expect(get.json()).toEqual((await h.call('GET', `/va/${id}`)).body);
    const status = await through(['asset', 'status', id, '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.json().results).toEqual([expect.objectContaining({ versionId: v, state: 'LIVE' })]);
    const target = join(h.dir, `${id}.bin`);
    const download = await through(['version', 'download', id, v, '--env', 'dev', '-O', target]);
    expect(download.exitCode, download.stderr).toBe(0);
    expect(await readFile(target, 'utf8')).toBe(content);
    const api = front.seen.filter((r) => !r.path.startsWith('/api/vi/'));
    const files = front.seen.filter((r) => r.path.startsWith('/api/vi/'));
    expect(api.length).toBeGreaterThan(2);
    expect(api.every((r) => r.acceptEncoding === 'gzip, br')).toBe(true);
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((r) => r.acceptEncoding === 'identity')).toBe(true);
  });

  it('a gzipped 404: the service\'s one line, decoded', async () => {
    front.mode = 'gzip';
    const run = await through(['asset', 'status', 'nope']);
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toBe('error: Virtual Asset nope not found in domain demo (HTTP 404)');
  });

  it('a gzipped 404 of bytes that are not text: named, never printed', async () => {
    front.mode = 'gzip-binary-404';
    const run = await through(['asset', 'get', 'nope']);
    expect(run.exitCode).toBe(4);
    expect(run.stderr, JSON.stringify(run.stderr)).toBe('error: the service answered 404 with a body that is not text');
  });

  it('a coding ahs cannot decode: exit 1 naming it, no bytes printed', async () => {
    front.mode = 'zstd';
    const id = uid('gz');
    await h.createAsset(id);
    const run = await through(['asset', 'get', id]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^error: GET /va/${id} answered 200 with an answer in the "zstd" content coding, which ahs cannot read; `));
  });
});
