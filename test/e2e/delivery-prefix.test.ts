// A delivery network at a path prefix whose URLs carry no /api/vi (issue 45,
// cli.md "Reading the service"): a CDN at {front}/cdn/x serves the collection's
// delivery document at {front}/cdn/x/pub/... (the absolute downloadUrl the
// service gives) and the files at {front}/cdn/x/api/vi{downloadUrl}. An
// absolute URL that already starts with the delivery URL is used as it is:
// the prefix is never doubled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, syncedLiveCollection, type Harness } from './helpers.js';

let h: Harness;
let cdn: { url: string; seen: string[]; close(): Promise<void> };

/** The API passed through with each deployed downloadUrl moved to {cdn}/cdn/x/pub/...; the CDN's two paths served from the emulator's /api/vi/. */
async function prefixedCdn(target: string): Promise<typeof cdn> {
  const seen: string[] = [];
  let self = '';
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '/');
    const path = (req.url ?? '/').replace(/^\/cdn\/x\/(pub|api\/vi)\//, '/api/vi/');
    const url = new URL(path, target);
    const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host, 'accept-encoding': 'identity' } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let body = Buffer.concat(chunks);
        if (/\/deployments/.test(url.pathname) && answer.statusCode === 200) {
          body = Buffer.from(body.toString('utf8').replace(/"downloadUrl":"[^"]*?\/api\/vi\//g, `"downloadUrl":"${self}/cdn/x/pub/`));
        }
        const headers = { ...answer.headers, 'content-length': String(body.length) };
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, headers).end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  h = await harness();
  cdn = await prefixedCdn(h.emu.baseUrl);
});
afterAll(async () => {
  await cdn?.close();
  await h?.close();
});

describe('fetch behind a delivery path prefix', () => {
  it('a deployed URL without /api/vi, already on the delivery URL: used as it is, and every file written', async () => {
    const { id } = await syncedLiveCollection(h, { 'a.txt': 'alpha', 'b.json': '{"b":1}' }, 'cdn');
    const dir = join(h.dir, `${id}-out`);
    cdn.seen.length = 0;
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--json'], { env: { AHS_BASE_URL: cdn.url, AHS_DELIVERY_URL: `${cdn.url}/cdn/x` } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('alpha');
    expect(await readFile(join(dir, 'b.json'), 'utf8')).toBe('{"b":1}');
    expect(cdn.seen).toContain(`/cdn/x/pub/demo/vc/${id}/dev`);
    expect(cdn.seen.filter((path) => path.includes('/cdn/x/cdn/x'))).toEqual([]);
    expect(cdn.seen.filter((path) => path.startsWith('/cdn/x/api/vi/'))).toHaveLength(2);
  });
});
