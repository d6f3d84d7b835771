// bench/latency-proxy.mjs, which bench/rounds.mjs measures every workflow
// through: what passes it must reach the emulator and come back unchanged
// but for what it is there to change (pageSize under a cap, the emulator's
// origin in JSON answers), and be logged. How long it holds each request is
// not asserted here (no timing in tests): rounds.mjs's own figures, at 0 ms
// and at 50 ms, show it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { Client, DEMO_API_KEY, DEMO_USER } from '../emulator/helpers.js';

interface Entry {
  method: string;
  path: string;
  start: number;
  bodyAt: number;
  answeredAt: number;
  end: number;
}
interface Proxy {
  url: string;
  delayMs: number;
  pageCap: number | undefined;
  log: Entry[];
  reset(): void;
  close(): Promise<void>;
}
interface ProxyModule {
  startLatencyProxy(target: string, options?: { delayMs?: number; pageCap?: number }): Promise<Proxy>;
}

const DELAY = 5;
let emu: RunningEmulator;
let proxy: Proxy;
/** The emulator's API, reached through the proxy. */
let api: Client;

beforeAll(async () => {
  emu = await startEmulator();
  const { startLatencyProxy } = (await import(pathToFileURL(join(__dirname, '..', '..', 'bench', 'latency-proxy.mjs')).href)) as ProxyModule;
  proxy = await startLatencyProxy(emu.baseUrl, { delayMs: DELAY });
  api = new Client({ ...emu, baseUrl: proxy.url });
});
afterAll(async () => {
  await proxy?.close();
  await emu?.close();
});

describe('the latency proxy', () => {
  it('passes an upload, a JSON answer naming the emulator (rewritten to the proxy) and a download, each logged in order', async () => {
    proxy.reset();
    await api.createAsset('proxied');
    const payload = randomBytes(70_000);
    const uploaded = await api.uploadVersion('proxied', 'generic', payload);
    expect(uploaded.status, uploaded.text).toBe(201);
    expect((await api.deploy('proxied', uploaded.body.versionId, 'generic', { envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER })).status).toBe(201);
    const urls = await api.get('/va/proxied/asset-urls?targetPlatform=generic&envId=dev');
    const downloadUrl: string = urls.body.results[0].downloadUrl;
    expect(downloadUrl.startsWith(`${proxy.url}/`)).toBe(true);
    expect(urls.text).not.toContain(emu.baseUrl);
    const download = await fetch(downloadUrl, { headers: { apikey: DEMO_API_KEY } });
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await download.arrayBuffer()).equals(payload)).toBe(true);

    expect(proxy.log.map((entry) => `${entry.method} ${entry.path.split('?')[0]}`)).toEqual([
      'POST /api/v2/demo/va',
      'POST /api/v2/demo/va/proxied/versions',
      `POST /api/v2/demo/va/proxied/versions/${uploaded.body.versionId}/deploy`,
      'GET /api/v2/demo/va/proxied/asset-urls',
      new URL(downloadUrl).pathname.replace(/^/, 'GET '),
    ]);
    for (const entry of proxy.log) {
      expect([entry.start, entry.bodyAt, entry.answeredAt, entry.end]).toEqual([entry.start, entry.bodyAt, entry.answeredAt, entry.end].sort((a, b) => a - b));
    }
  });

  it('caps pageSize when a cap is set, and logs the path the client sent', async () => {
    for (let i = 0; i < 3; i++) await api.createAsset(`capped-${i}`);
    proxy.pageCap = 2;
    proxy.reset();
    try {
      const page = await api.get('/va?pageSize=50&pageNumber=1');
      expect(page.body).toMatchObject({ pageSize: 2, pageNumber: 1 });
      expect(page.body.results).toHaveLength(2);
      expect(proxy.log.map((entry) => entry.path)).toEqual(['/api/v2/demo/va?pageSize=50&pageNumber=1']);
    } finally {
      proxy.pageCap = undefined;
    }
    expect((await api.get('/va?pageSize=50')).body.pageSize).toBe(50);
  });

  it('forwards a chunked request body whole, and an error answer as it is', async () => {
    const body = JSON.stringify({ assetId: 'chunked', assetName: 'chunked', assetType: '1001', createdBy: DEMO_USER });
    const send = (text: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = httpRequest(`${proxy.url}/api/v2/demo/va`, { method: 'POST', headers: { apikey: DEMO_API_KEY, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          let received = '';
          res.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(received) }));
        });
        req.on('error', reject);
        req.write(text.slice(0, 10));
        req.end(text.slice(10));
      });
    expect(await send(body)).toMatchObject({ status: 201, body: { assetId: 'chunked' } });
    expect(await send(body)).toMatchObject({ status: 409, body: { status: 409 } });
  });

  it('without a delay, and with the target gone: a 502 naming the proxy', async () => {
    proxy.delayMs = 0;
    try {
      expect((await api.get('/va/proxied')).status).toBe(200);
      const other = await startEmulator();
      const { startLatencyProxy } = (await import(pathToFileURL(join(__dirname, '..', '..', 'bench', 'latency-proxy.mjs')).href)) as ProxyModule;
      const orphan = await startLatencyProxy(other.baseUrl, { delayMs: 0 });
      await other.close();
      try {
        const answer = await fetch(`${orphan.url}/api/v2/demo/va`, { headers: { apikey: DEMO_API_KEY } });
        expect(answer.status).toBe(502);
        expect(await answer.text()).toMatch(/^latency proxy: /);
      } finally {
        await orphan.close();
      }
    } finally {
      proxy.delayMs = DELAY;
    }
  });
});
