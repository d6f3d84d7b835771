// nginx in front of the service (issue 45), one process for the file:
// (a) a reverse proxy at a path prefix (/cdn/x) with `gzip on`, behind a
//     front that asks it for gzip whatever the client asked and passes
//     Content-Encoding: gzip on: every read exits 0 with the right JSON, the
//     workflows exit 0, a 404 is the service's one line;
// (b) proxy_read_timeout 1s in front of a slow service (each write answered
//     1.5 s after it was applied): nginx answers 504 after forwarding, and
//     every outcome is still truthful: settled by a read, exit 0, one version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, uid, type Harness } from '../e2e/helpers.js';
import { freePort, intermediaryBinaries, startNginx, type Intermediary } from '../support/intermediaries.js';
import { tempDirs } from '../support/temp-dir.js';
import { workflows } from './workflows.js';

const bins = intermediaryBinaries('nginx');
if (bins.skip) console.warn(`test/proxies/nginx.test.ts skipped: ${bins.why}`);
const temp = tempDirs();

let h: Harness;
let dir: string;
let nginx: Intermediary;
let slow: Server;
let gzipFront: string;
let timeoutFront: string;

/** The emulator, each write's answer held 1.5 s after the emulator gave it (the write applied by then). */
async function slowService(target: string): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const send = () => {
          if (res.destroyed) return;
          const headers = { ...answer.headers, 'content-length': String(Buffer.concat(chunks).length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers).end(Buffer.concat(chunks));
        };
        if (req.method === 'GET') send();
        else setTimeout(send, 1500);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  if (bins.skip) return;
  h = await harness();
  dir = await temp('ahs-nginx-');
  slow = await slowService(h.emu.baseUrl);
  const emulator = new URL(h.emu.baseUrl).port;
  const slowPort = (slow.address() as AddressInfo).port;
  const [inner, timeoutPort] = [await freePort(), await freePort()];
  const proxied = 'proxy_http_version 1.1; proxy_set_header Connection ""; client_max_body_size 0; proxy_request_buffering off;';
  nginx = await startNginx(join(dir, 'nginx'), (front) =>
    [
      // (a) the front: asks the inner one for gzip, whatever the client asked, and passes its answer on.
      `server { listen 127.0.0.1:${front}; location / { proxy_pass http://127.0.0.1:${inner}; proxy_set_header Accept-Encoding gzip; ${proxied} } }`,
      // (a) the inner one: the service at /cdn/x/, gzip on for JSON (error bodies included; the files, not JSON, as stored).
      `server { listen 127.0.0.1:${inner}; gzip on; gzip_proxied any; gzip_min_length 0; gzip_types application/json application/problem+json;`,
      `  location /cdn/x/ { proxy_pass http://127.0.0.1:${emulator}/; ${proxied} } }`,
      // (b) a read timeout shorter than the service's answer to a write.
      `server { listen 127.0.0.1:${timeoutPort}; location / { proxy_pass http://127.0.0.1:${slowPort}; proxy_read_timeout 1s; ${proxied} } }`,
    ].join('\n'),
  );
  gzipFront = `${nginx.url}/cdn/x`;
  timeoutFront = `http://127.0.0.1:${timeoutPort}`;
});
afterAll(async () => {
  await nginx?.stop();
  await new Promise((resolve) => (slow ? slow.close(resolve) : resolve(undefined)));
  await h?.close();
});

const viaGzip = (args: string[], extra: Record<string, string> = {}) => h.ahs(args, { env: { AHS_BASE_URL: gzipFront, AHS_DELIVERY_URL: gzipFront, ...extra } });

describe.skipIf(bins.skip)('nginx at a path prefix, gzip on, behind a forced-gzip front', () => {
  it('the front really sends gzip (curl-like check of the setup)', async () => {
    const answer = await fetch(`${gzipFront}/api/v2/demo/va`, { headers: { apikey: 'demo-key', 'accept-encoding': 'identity' } });
    expect(answer.headers.get('content-encoding')).toBe('gzip');
  });

  it('every read exits 0 with the right JSON', async () => {
    const id = uid('ng');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    expect((await h.deploy(id, v, 'ios', 'dev', 'LIVE')).status).toBe(201);
    for (const [args, path] of [
      [['asset', 'get', id, '--json'], `/va/${id}`],
      [['version', 'list', id, '--json'], `/va/${id}/versions`],
    ] as const) {
      const run = await viaGzip([...args]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.json()).toEqual((await h.call('GET', path)).body);
    }
    const status = await viaGzip(['asset', 'status', id, '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.json().results).toEqual([expect.objectContaining({ versionId: v, state: 'LIVE' })]);
    const missing = await viaGzip(['asset', 'status', 'nope']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toBe('error: Virtual Asset nope not found in domain demo (HTTP 404)');
  });

  it('release, item sync, fetch and history exit 0', async () => {
    await workflows(h, dir, viaGzip);
  });
});

describe.skipIf(bins.skip)('nginx with proxy_read_timeout 1s before a slow service', () => {
  it('its 504 after forwarding: each write settled by a read, release exits 0 with one version, LIVE', async () => {
    const id = uid('ng');
    await h.createAsset(id);
    const file = await h.file(`${id}.bin`, 'slow release');
    const run = await h.ahs(['release', id, file, '--name', 'r1', '--platform', 'ios', '--env', 'dev', '--no-journal'], { env: { AHS_BASE_URL: timeoutFront, AHS_DELIVERY_URL: timeoutFront } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('a read confirms the write was applied');
    expect(run.stderr).not.toMatch(/<|nginx|may have been applied/);
    expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(1);
    expect(await h.records(id)).toEqual([expect.stringMatching(/^ios\/dev\/IOS1=(LIVE|DEFAULT)$/)]);
    const log = await readFile(join(dir, 'nginx', 'access.log'), 'utf8');
    expect(log).toMatch(/"POST \/api\/v2\/demo\/va\/[^ ]+\/versions\?[^"]*" 504 /);
  });
});
