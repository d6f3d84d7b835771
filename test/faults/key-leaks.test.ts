// A server that echoes the API key back in every encoding it may use (in a
// 403 body, JSON, HTML or plain, and in its headers): no form of the key in
// what ahs prints, in table, --json and --verbose, for keys holding the
// characters encoders treat specially.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/main.js';
import { bufferIO } from '../unit/helpers.js';
import { HOSTILE_KEYS, keyEncodings } from '../support/key-encodings.js';

let server: Server;
let url: string;
let dir: string;

/** The key as the request carried it: undici sends a header as latin1 bytes, read back here as UTF-8. */
function keyOf(header: string | string[] | undefined): string {
  return Buffer.from(String(header ?? ''), 'latin1').toString('utf8');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ahs-key-leaks-'));
  server = createServer((req, res) => {
    const encodings = Object.values(keyEncodings(keyOf(req.headers.apikey)));
    const echoed = encodings.join(' | ');
    // Header values must be ASCII: the forms that are.
    const headers = Object.fromEntries(encodings.filter((form) => /^[\x20-\x7e]*$/.test(form)).map((form, i) => [`x-echo-${i}`, form]));
    if (req.url === '/doc') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(deliveryDoc()));
    if (req.url?.endsWith('/files/garbled')) {
      // Not HTTP/1.1: a status line that is the key itself, and no length to frame anything (the lean transport's parser names it).
      return void req.socket.end(`HTTP/1.1 ${keyOf(req.headers.apikey)}\r\n\r\n`);
    }
    const kind = new URL(req.url ?? '/', 'http://x').searchParams.get('kind') ?? (req.url?.includes('/html') ? 'html' : 'json');
    req.resume();
    req.on('end', () => {
      if (kind === 'html') {
        res.writeHead(403, { ...headers, 'content-type': 'text/html' }).end(`<html><body>Invalid key ${echoed}</body></html>`);
        return;
      }
      const body = { type: 'about:blank', title: `Invalid apikey ${echoed}`, status: 403, detail: `the key ${echoed} is not known`, ...Object.fromEntries(encodings.map((form, i) => [`echo${i}`, form])) };
      res.writeHead(403, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function ahs(args: string[], key: string) {
  const io = bufferIO({ env: { AHS_CONFIG_DIR: join(dir, 'config'), AHS_BASE_URL: url, AHS_DOMAIN: 'demo', AHS_API_KEY: key, AHS_USER: 'u@example.com' } });
  const exitCode = await main([...args, '--retries', '0'], { io });
  return { exitCode, output: `${io.out.text}\n${io.err.text}` };
}

/** A secured collection's delivery document: two files on this same host (the configured service's, so the key goes with them). */
function deliveryDoc() {
  const entry = (id: string) => ({ assetItemId: id, assetItemName: `${id}.bin`, downloadUrl: `/files/${id}`, targetPlatform: 'generic', mimetype: 'application/octet-stream' });
  return { downloadUrl: '/doc', anchorAsset: null, assetItemUrls: [entry('echo'), entry('garbled')], collectionId: 'c1', domainId: 'demo', envId: 'dev', secured: true, localCacheControl: false, localCacheMaxAge: 30, targetPlatform: 'generic' };
}

function leaks(output: string, key: string): string[] {
  return Object.entries(keyEncodings(key))
    .filter(([, form]) => output.includes(form))
    .map(([name]) => name);
}

/** ahs refuses to send a key an HTTP header cannot carry (exit 2), without printing it either. */
function exitFor(key: string): number {
  return /^[\x20-\x7e]*$/.test(key) ? 3 : 2;
}

describe('a 403 that echoes the key in every encoding', () => {
  for (const key of HOSTILE_KEYS) {
    for (const mode of [[], ['--json'], ['--verbose'], ['--verbose', '--json']]) {
      it(`prints no form of ${JSON.stringify(key)} with ${mode.join(' ') || 'table output'}`, async () => {
        const json = await ahs(['asset', 'get', 'A001', ...mode], key);
        expect(json.exitCode).toBe(exitFor(key));
        if (exitFor(key) === 3) expect(json.output).toContain('***');
        expect(leaks(json.output, key)).toEqual([]);
        const html = await ahs(['asset', 'get', 'html', ...mode], key);
        expect(html.exitCode).toBe(exitFor(key));
        expect(leaks(html.output, key)).toEqual([]);
      });
    }
  }

  it('prints no form of the key from downloads (the lean transport): a 403 echoing it, an answer that is not HTTP/1.1, with --verbose', async () => {
    const key = HOSTILE_KEYS[0]!;
    for (const mode of [['--verbose'], ['--verbose', '--json']]) {
      const run = await ahs(['fetch', '--url', `${url}/doc`, '--dir', join(dir, 'fetched'), ...mode], key);
      expect(run.exitCode).toBe(1);
      expect(run.output).toContain('> apikey: ***');
      expect(run.output).toMatch(/garbled.*not a valid HTTP\/1\.1 answer: a status line "HTTP\/1\.1 \*\*\*"/);
      expect(leaks(run.output, key)).toEqual([]);
    }
  });

  it('prints no form of the key from an upload, its progress lines included', async () => {
    const file = join(dir, 'bundle.zip');
    await writeFile(file, 'payload');
    const key = HOSTILE_KEYS[0]!;
    for (const mode of [[], ['--json'], ['--verbose']]) {
      const run = await ahs(['version', 'upload', 'A001', file, '--platform', 'IOS', '--name', 'v1', ...mode], key);
      expect(run.exitCode).toBe(3);
      expect(leaks(run.output, key)).toEqual([]);
    }
  });
});
