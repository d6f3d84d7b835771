// squid with Debian's stock configuration (its `http_access deny CONNECT
// !SSL_ports`: CONNECT to port 443 only) as HTTP_PROXY and HTTPS_PROXY
// (issue 45, cli.md "Output", proxies): an http:// service is reached by
// plain forwarding (absolute-form requests, no CONNECT), an https:// one on
// port 443 through a CONNECT tunnel, as curl does; the release, item sync,
// fetch and history workflows exit 0 through it, and the key is in none of
// its access-log lines, in any encoding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { DEMO_API_KEY, harness, type Harness } from '../e2e/helpers.js';
import { workflows } from './workflows.js';
import { keyEncodings } from '../support/key-encodings.js';
import { intermediaryBinaries, startSquid, type Intermediary } from '../support/intermediaries.js';
import { tempDirs } from '../support/temp-dir.js';

const bins = intermediaryBinaries('squid');
if (bins.skip) console.warn(`test/proxies/squid.test.ts skipped: ${bins.why}`);
const temp = tempDirs();

let h: Harness;
let squid: Intermediary & { accessLog: string };
let dir: string;
beforeAll(async () => {
  if (bins.skip) return;
  h = await harness();
  dir = await temp('ahs-squid-');
  squid = await startSquid(join(dir, 'squid'));
});
afterAll(async () => {
  await squid?.stop();
  await h?.close();
});

function keyInLog(log: string): string[] {
  const lines = log.split('\n').filter(Boolean);
  return Object.entries(keyEncodings(DEMO_API_KEY)).flatMap(([form, text]) => lines.filter((line) => line.includes(text)).map((line) => `${form}: ${line}`));
}

describe.skipIf(bins.skip)('squid, stock configuration', () => {
  it('an http:// service: forwarded, never tunnelled; release, sync, fetch and history exit 0; the key in no log line', async () => {
    const before = (await readFile(squid.accessLog, 'utf8').catch(() => '')).length;
    await workflows(h, dir, (args, extra = {}) => h.ahs(args, { env: { HTTP_PROXY: squid.url, HTTPS_PROXY: squid.url, NO_PROXY: '', ...extra } }));
    const log = (await readFile(squid.accessLog, 'utf8')).slice(before);
    const lines = log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter((line) => / CONNECT /.test(line))).toEqual([]);
    expect(lines.filter((line) => /TCP_DENIED|\/403 /.test(line))).toEqual([]);
    expect(lines.some((line) => line.includes(` ${h.emu.baseUrl}/api/v2/`))).toBe(true);
    expect(keyInLog(log)).toEqual([]);
  });

  it('an https:// service on port 443 (a self-signed CA through NODE_EXTRA_CA_CERTS): tunnelled; release, sync, fetch and history exit 0; the key in no log line', async () => {
    // Port 443 (stock squid tunnels to no other) on a loopback address of its own, free whoever else listens.
    const host = `127.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
    const certs = join(dir, 'tls');
    await mkdir(certs, { recursive: true });
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${host}`, '-addext', `subjectAltName=IP:${host}`, '-keyout', join(certs, 'key.pem'), '-out', join(certs, 'cert.pem')], { stdio: 'ignore' });
    expect(made.status).toBe(0);
    const target = new URL(h.emu.baseUrl);
    const sockets = new Set<Socket>();
    const front: TlsServer = createTlsServer({ key: await readFile(join(certs, 'key.pem')), cert: await readFile(join(certs, 'cert.pem')) }, (socket) => {
      const upstream = connect(Number(target.port), target.hostname);
      for (const end of [socket, upstream]) {
        sockets.add(end);
        end.on('error', () => {}).on('close', () => sockets.delete(end));
      }
      socket.pipe(upstream).pipe(socket);
    });
    const bound = await new Promise<Error | undefined>((resolve) => front.once('error', resolve).listen(443, host, () => resolve(undefined)));
    if (bound && (bound as NodeJS.ErrnoException).code === 'EACCES' && !process.env.CI) {
      console.warn(`skipped: binding ${host}:443 needs root (${bound.message})`);
      return;
    }
    expect(bound).toBeUndefined();
    try {
      const base = `https://${host}`;
      const before = (await readFile(squid.accessLog, 'utf8').catch(() => '')).length;
      const tunnels = () => readFile(squid.accessLog, 'utf8').then((text) => text.slice(before).split('\n').filter((line) => / CONNECT /.test(line)));
      await workflows(h, dir, (args, extra = {}) =>
        h.ahs(args, { binary: true, env: { AHS_BASE_URL: base, AHS_DELIVERY_URL: base, HTTPS_PROXY: squid.url, HTTP_PROXY: squid.url, NO_PROXY: '', NODE_EXTRA_CA_CERTS: join(certs, 'cert.pem'), ...extra } }),
      );
      // squid logs a tunnel when it closes: the last commands' are written once the process ended.
      const log = (await readFile(squid.accessLog, 'utf8')).slice(before);
      expect((await tunnels()).length).toBeGreaterThan(0);
      expect(log.split('\n').filter((line) => /TCP_DENIED|\/403 /.test(line))).toEqual([]);
      expect(keyInLog(log)).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});
