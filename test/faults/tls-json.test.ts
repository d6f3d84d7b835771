// The JSON exchanges over https go through the lean transport (lean.ts):
// reads and writes on one kept-alive connection, the service's certificate
// checked against the host's name, with NODE_EXTRA_CA_CERTS trusted as every
// Node program trusts it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { assertFreshBuild, harness, uid, type Harness } from '../e2e/helpers.js';

let h: Harness;
let dir: string;
let front: Server;
let base: string;
const seen = { names: [] as Array<string | false | null>, requests: [] as string[] };

beforeAll(async () => {
  assertFreshBuild();
  dir = await mkdtemp(join(tmpdir(), 'ahs-tls-json-'));
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  expect(made.status).toBe(0);
  h = await harness();
  const target = new URL(h.emu.baseUrl);
  // TLS in front of the emulator: each connection's servername and each request noted.
  front = createHttpsServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, (req, res) => {
    seen.requests.push(`${req.method} ${req.url}`);
    const forwarded = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  front.on('secureConnection', (socket: TLSSocket) => seen.names.push(socket.servername));
  await new Promise<void>((resolve) => front.listen(0, resolve));
  base = `https://localhost:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  front?.closeAllConnections();
  await new Promise((resolve) => front?.close(resolve));
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('JSON over https', () => {
  it('a write and the reads around it: answered over one connection, the host named and its certificate trusted', async () => {
    const id = uid('tls');
    const trusted = { AHS_BASE_URL: base, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') };
    seen.names.length = 0;
    seen.requests.length = 0;
    const created = await h.ahs(['asset', 'create', id, '--name', 'over tls', '--type', '1001', '--json'], { binary: true, env: trusted });
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.json()).toMatchObject({ assetId: id, assetName: 'over tls' });
    expect((await h.call('GET', `/va/${id}`)).body).toMatchObject({ assetName: 'over tls' });
    // A command of several requests (a status merges reads) keeps its connection.
    seen.names.length = 0;
    seen.requests.length = 0;
    const status = await h.ahs(['asset', 'status', id, '--platform', 'generic', '--env', 'dev', '--json'], { binary: true, env: trusted });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(seen.requests.length).toBeGreaterThan(seen.names.length);
    expect(seen.names.every((name) => name === 'localhost')).toBe(true);
  });

  it('a certificate this machine does not trust: refused before anything is sent, one line saying so, exit 6', async () => {
    seen.requests.length = 0;
    const run = await h.ahs(['asset', 'create', uid('tls'), '--name', 'n', '--type', '1001'], { binary: true, env: { AHS_BASE_URL: base } });
    expect(run.exitCode).toBe(6);
    expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
    expect(run.stderr).toMatch(/certificate/i);
    expect(seen.requests).toEqual([]);
  });
});
