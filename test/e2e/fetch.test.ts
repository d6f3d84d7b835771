// fetch through the built binary: bytes equal the uploaded ones, hostile
// names stay inside --dir, an interrupted fetch leaves no partial file (exit
// 130), overwrite / --skip-existing, --pattern, --item, --manifest, --url.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BIN, DEMO_API_KEY, harness, hasScript, stubServer, type Harness } from './helpers.js';

let h: Harness;
const id = 'fetch-me';
let big: Buffer;
let paths: Record<string, string>;
let itemIds: Record<string, string>;

beforeAll(async () => {
  h = await harness();
  big = randomBytes(3 * 1024 * 1024 + 17);
  paths = {
    'big.bin': await h.file('big.bin', big),
    'notes.txt': await h.file('notes.txt', 'release notes\n'),
    'empty.json': await h.file('empty.json', ''),
  };
  expect((await h.ahs(['collection', 'create', id, '--name', 'Fetch me', '--allowed-types', '1001'])).exitCode).toBe(0);
  const up = await h.ahs(['item', 'upload', id, ...Object.values(paths), '--type', '1001', '--json']);
  expect(up.exitCode).toBe(0);
  itemIds = Object.fromEntries(up.json().uploaded.map((i: { fileName: string; assetItemId: string }) => [i.fileName, i.assetItemId]));
  expect((await h.ahs(['collection-deploy', id, '--env', 'dev'])).exitCode).toBe(0);
});
afterAll(async () => {
  await h?.close();
});

describe('fetch', () => {
  it('downloads every item; the bytes equal the uploaded ones; a re-run overwrites (a same-size edit too); --skip-existing keeps files', async () => {
    const dir = join(h.dir, 'out-all');
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--json']);
    expect(run.exitCode).toBe(0);
    const doc = run.json();
    expect(doc).toMatchObject({ collectionId: id, envId: 'dev', dir, skipped: [], failed: [] });
    expect(doc.downloaded).toHaveLength(3);
    expect(doc.downloaded).toContainEqual({ id: itemIds['notes.txt'], name: 'notes.txt', path: join(dir, 'notes.txt'), bytes: 14 });
    expect((await readFile(join(dir, 'big.bin'))).equals(big)).toBe(true);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('release notes\n');
    expect((await readFile(join(dir, 'empty.json'))).length).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['big.bin', 'empty.json', 'notes.txt']);

    // A stale file of the same size is replaced, not kept.
    await writeFile(join(dir, 'notes.txt'), 'stale notes!!\n');
    const again = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--json']);
    expect(again.exitCode).toBe(0);
    expect(again.json()).toMatchObject({ skipped: [], failed: [] });
    expect(again.json().downloaded).toHaveLength(3);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('release notes\n');

    await writeFile(join(dir, 'notes.txt'), 'my own notes\n');
    const kept = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--skip-existing']);
    expect(kept.exitCode).toBe(0);
    expect(kept.stderr).toMatch(/0 downloaded, 3 skipped, 0 failed/);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('my own notes\n');
    expect((await readdir(dir)).sort()).toEqual(['big.bin', 'empty.json', 'notes.txt']);
  });

  it('--pattern narrows the download to items whose name matches a glob; no match at all is exit 4', async () => {
    const dir = join(h.dir, 'out-pattern');
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--pattern', '*.txt', '--pattern', 'empty.[jy]son', '--json']);
    expect(run.exitCode).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['empty.json', 'notes.txt']);
    const none = await h.ahs(['fetch', id, '--env', 'dev', '--dir', join(h.dir, 'out-pattern-none'), '--pattern', '*.png']);
    expect(none.exitCode).toBe(4);
    expect(none.stderr).toMatch(/--pattern \*\.png/);
  });

  it('removes the partial files an earlier killed run left in --dir', async () => {
    const dir = join(h.dir, 'out-stale');
    await rm(dir, { recursive: true, force: true });
    await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--item', itemIds['notes.txt']!]);
    await writeFile(join(dir, '.big.bin.ahs-partial-0a1b2c3d'), Buffer.alloc(1000));
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--item', itemIds['notes.txt']!]);
    expect(run.exitCode).toBe(0);
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('--item picks items; an unknown item is exit 4', async () => {
    const dir = join(h.dir, 'out-one');
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--item', itemIds['notes.txt']!, '--json']);
    expect(run.exitCode).toBe(0);
    expect(await readdir(dir)).toEqual(['notes.txt']);
    expect((await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--item', 'item-nope'])).exitCode).toBe(4);
  });

  it('--item before COLLECTION_ID (which --item swallows): a usage error that says to put COLLECTION_ID first', async () => {
    const run = await h.ahs(['fetch', '--item', itemIds['notes.txt']!, id, '--env', 'dev', '--dir', join(h.dir, 'out-swallowed')]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/put COLLECTION_ID first/);
  });

  it('--manifest prints the delivery document unchanged', async () => {
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--manifest', '--json']);
    expect(run.exitCode).toBe(0);
    const doc = run.json();
    expect(doc).toMatchObject({ collectionId: id, envId: 'dev', domainId: 'demo' });
    expect(doc.assetItemUrls).toHaveLength(3);
  });

  it('--url fetches from the deployed URL, without a configured service', async () => {
    const url = (await h.ahs(['collection', 'url', id, '--env', 'dev'])).stdout.trim();
    const dir = join(h.dir, 'out-url');
    // The collection is secured (the default): without a key, 403 (exit 3), explained.
    const refused = await h.ahs(['fetch', '--url', url, '--dir', dir], { bare: true });
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toMatch(/secured/);
    // The key goes only to the configured service's hosts.
    const run = await h.ahs(['fetch', '--url', url, '--dir', dir, '--json'], { bare: true, env: { AHS_API_KEY: DEMO_API_KEY, AHS_DELIVERY_URL: h.emu.deliveryUrl } });
    expect(run.exitCode).toBe(0);
    expect((await readFile(join(dir, 'big.bin'))).equals(big)).toBe(true);
  });

  it('--url of one file (not a delivery document): that file, streamed into --dir under the URL\'s last segment; a JSON file that is no delivery document is a file too; an HTML page, --item, a 404: one line, nothing saved', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const json = '{"name":"app","version":"1.2.3"}';
    const stub = await stubServer((req, res) => {
      if (req.url === '/f/app%20bundle.bin') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
      else if (req.url === '/f/app.json') res.writeHead(200, { 'content-type': 'application/json' }).end(json);
      else if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>sign in</body></html>');
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such file');
      return true;
    });
    const root = await mkdtemp(join(tmpdir(), 'ahs-fetch-file-'));
    try {
      const dir = join(root, 'out');
      const run = await h.ahs(['fetch', '--url', `${stub.url}/f/app%20bundle.bin`, '--dir', dir, '--json']);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.json()).toEqual({ url: `${stub.url}/f/app%20bundle.bin`, dir, downloaded: [{ id: 'app bundle.bin', name: 'app bundle.bin', path: join(dir, 'app bundle.bin'), bytes: bytes.length }], skipped: [], failed: [] });
      expect((await readFile(join(dir, 'app bundle.bin'))).equals(bytes)).toBe(true);
      const plain = await h.ahs(['fetch', '--url', `${stub.url}/f/app.json`, '--dir', dir]);
      expect(plain.exitCode, plain.stderr).toBe(0);
      expect(plain.stderr).toContain(`1 downloaded, 0 skipped, 0 failed → ${dir}`);
      expect(await readFile(join(dir, 'app.json'), 'utf8')).toBe(json);
      const kept = await h.ahs(['fetch', '--url', `${stub.url}/f/app.json`, '--dir', dir, '--skip-existing', '--json']);
      expect(kept.exitCode, kept.stderr).toBe(0);
      expect(kept.json()).toMatchObject({ downloaded: [], skipped: [{ name: 'app.json' }] });
      const page = await h.ahs(['fetch', '--url', `${stub.url}/page`, '--dir', join(root, 'page')]);
      expect(page.exitCode).toBe(2);
      expect(page.stderr).toMatch(/^error: --url http:\/\/127\.0\.0\.1:\d+\/page answered an HTML page, neither a file nor a collection's delivery document: check the URL/m);
      const item = await h.ahs(['fetch', '--url', `${stub.url}/f/app.json`, '--dir', join(root, 'item'), '--item', 'x']);
      expect(item.exitCode).toBe(2);
      expect(item.stderr).toMatch(/is one file, not a collection: it has no items to choose \(remove --item and --pattern\)$/m);
      const missing = await h.ahs(['fetch', '--url', `${stub.url}/f/gone.zip`, '--dir', join(root, 'missing')]);
      expect(missing.exitCode).toBe(4);
      expect(missing.stderr).toMatch(/^error: the service answered 404: no such file$/m);
      expect((await readdir(root)).sort()).toEqual(['out']);
      expect((await readdir(dir)).sort()).toEqual(['app bundle.bin', 'app.json']);
    } finally {
      await stub.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('--url run twice with --skip-existing: the second run sends no file request and keeps the files', async () => {
    const url = (await h.ahs(['collection', 'url', id, '--env', 'dev'])).stdout.trim();
    const dir = join(h.dir, 'out-url-twice');
    const env = { AHS_API_KEY: DEMO_API_KEY, AHS_DELIVERY_URL: h.emu.deliveryUrl };
    expect((await h.ahs(['fetch', '--url', url, '--dir', dir], { bare: true, env })).exitCode).toBe(0);
    const again = await h.ahs(['fetch', '--url', url, '--dir', dir, '--skip-existing', '--json'], { bare: true, env });
    expect(again.stderr).not.toMatch(/RequestAbortedError|Unhandled/);
    expect(again.exitCode).toBe(0);
    expect(again.json()).toMatchObject({ downloaded: [], failed: [] });
    expect(again.json().skipped).toHaveLength(3);
    expect(again.json().skipped[0]).toEqual({ id: expect.any(String), name: expect.any(String), path: expect.stringContaining(dir), reason: expect.stringMatching(/--skip-existing/) });
  });

  it('a collection not Live in the environment: the service\'s 400, exit 1', async () => {
    const run = await h.ahs(['fetch', id, '--env', 'prod', '--dir', join(h.dir, 'none')]);
    expect(run.exitCode).toBe(1);
  });

  it('--dir naming a file: a usage error naming --dir (exit 2), nothing written', async () => {
    const file = await h.file('not-a-folder', 'keep me');
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', file, '--json']);
    expect(run.exitCode).toBe(2);
    expect(run.errJson()).toMatchObject({ type: 'urn:ahs:usage', status: null });
    expect(run.errJson().title).toMatch(/^--dir .*not a folder/);
    expect(await readFile(file, 'utf8')).toBe('keep me');
  });

  it('--dir that cannot be created (under /proc): exit 2 at once, naming --dir', async () => {
    for (const dir of ['/proc/nope', '/proc/nope/x']) {
      const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir]);
      expect(run.exitCode, dir).toBe(2);
      expect(run.stderr.trim(), dir).toBe(`error: --dir ${dir}: cannot download into it: folders cannot be created there; pass another --dir`);
    }
  });

  it('20 items at once: no MaxListenersExceededWarning (or any other warning) on stderr; a progress line per file; stdout is the data', async () => {
    const many = 'fetch-twenty';
    const files = await Promise.all(Array.from({ length: 20 }, (_, i) => h.file(`m${i}.txt`, `file ${i}\n`.repeat(100 + i))));
    expect((await h.ahs(['collection', 'create', many, '--name', 'Twenty', '--allowed-types', '1001'])).exitCode).toBe(0);
    expect((await h.ahs(['item', 'upload', many, ...files, '--type', '1001', '--json'])).exitCode).toBe(0);
    expect((await h.ahs(['collection-deploy', many, '--env', 'dev'])).exitCode).toBe(0);
    for (const concurrency of ['8', '20']) {
      // The built binary: Node prints its warnings on the process's stderr, which a run in this process does not capture.
      const run = await h.ahs(['fetch', many, '--env', 'dev', '--dir', join(h.dir, `out-twenty-${concurrency}`), '--concurrency', concurrency, '--json'], { binary: true });
      expect(run.exitCode).toBe(0);
      expect(run.json().downloaded).toHaveLength(20);
      expect(run.stderr).not.toMatch(/MaxListenersExceededWarning|Warning|abort listeners/);
      expect(run.stderr.match(/^✓ m\d+\.txt/gm)).toHaveLength(20);
      expect(run.stderr).not.toContain('\x1b');
    }
  });

  it.skipIf(!hasScript)('--manifest in an 80-column terminal: every line fits; long names and URLs lose their middle', async () => {
    const long = `${'release-candidate-'.repeat(5)}final.txt`;
    const narrow = 'fetch-narrow';
    expect((await h.ahs(['collection', 'create', narrow, '--name', 'Narrow', '--allowed-types', '1001'])).exitCode).toBe(0);
    expect((await h.ahs(['item', 'upload', narrow, await h.file(long, 'x'), '--type', '1001'])).exitCode).toBe(0);
    expect((await h.ahs(['collection-deploy', narrow, '--env', 'dev'])).exitCode).toBe(0);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...h.env, TERM: 'xterm' };
    delete env.CI;
    const command = `stty cols 80 rows 40; node '${BIN}' fetch ${narrow} --env dev --manifest`;
    const run = await execa('script', ['-qfec', command, '/dev/null'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    expect(run.exitCode).toBe(0);
    // A spinner shown on a slow machine is erased in place (ESC[1G ESC[0K): what it erased is not on screen.
    const lines = String(run.stdout).replace(/[^\r\n]*\x1b\[1G\x1b\[0K/g, '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/).filter(Boolean);
    expect(lines.some((line) => /release-.*….*final\.txt/.test(line)), lines.join("\n")).toBe(true);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
  });

  it('without --env and without a terminal: usage error naming --env', async () => {
    const run = await h.ahs(['fetch', id]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--env/);
  });
});

describe('fetch from a hostile server', () => {
  const entry = (assetItemId: string, assetItemName: string) => ({
    assetItemId,
    assetItemName,
    downloadUrl: `/files/${assetItemId}`,
    targetPlatform: 'generic',
    mimetype: 'application/octet-stream',
  });
  const hostileDoc = {
    downloadUrl: '/doc',
    anchorAsset: null,
    assetItemUrls: [
      entry('i1', '../x'),
      entry('i2', '/etc/x'),
      entry('i3', '..\\x'),
      entry('i4', '../../../../tmp/evil'),
      entry('i5', '\u0000'),
      entry('i6', '..'),
    ],
    collectionId: '../../escape',
    domainId: 'demo',
    envId: 'dev',
    secured: false,
    localCacheControl: false,
    localCacheMaxAge: 30,
    targetPlatform: 'generic',
  };

  it('writes every file inside --dir under a safe name, and never sends the API key to another host', async () => {
    const stub = await stubServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/doc') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(hostileDoc));
        return true;
      }
      const match = /^\/api\/vi\/files\/(i\d)$/.exec(req.url ?? '');
      if (match) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(`content of ${match[1]}`);
        return true;
      }
      res.writeHead(404).end();
      return true;
    });
    const root = await mkdtemp(join(tmpdir(), 'ahs-hostile-'));
    try {
      const dir = join(root, 'inside');
      const run = await h.ahs(['fetch', '--url', `${stub.url}/doc`, '--dir', dir, '--json']);
      expect(run.exitCode).toBe(0);
      const doc = run.json();
      expect(doc.failed).toEqual([]);
      expect(doc.downloaded).toHaveLength(6);
      const names = (await readdir(dir)).sort();
      // `..\x` is a file name on Linux (a backslash is no separator there): kept as it is (cli.md "Release workflows").
      expect(names).toEqual(['..\\x', 'evil', 'i5', 'i6', 'x', 'x (2)'].sort());
      for (const file of doc.downloaded) expect(file.path.startsWith(`${dir}/`)).toBe(true);
      expect(await readFile(join(dir, 'x'), 'utf8')).toBe('content of i1');
      // Nothing landed next to the folder or anywhere above it.
      expect(await readdir(root)).toEqual(['inside']);
      // The key is configured for the emulator, not for this host.
      expect(stub.requests.every((r) => r.headers.apikey === undefined)).toBe(true);
    } finally {
      await stub.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('defaults --dir to a safe folder named after the collection', async () => {
    const stub = await stubServer((req, res) => {
      if (req.url === '/doc') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...hostileDoc, assetItemUrls: [entry('i1', 'a.txt')] }));
      } else res.writeHead(200).end('a');
      return true;
    });
    const cwd = await mkdtemp(join(tmpdir(), 'ahs-cwd-'));
    try {
      const run = await execa('node', [BIN, 'fetch', '--url', `${stub.url}/doc`], { cwd, reject: false, env: { ...h.env }, stdin: 'ignore' });
      expect(run.exitCode).toBe(0);
      expect(await readdir(cwd)).toEqual(['escape']);
      expect(await readdir(join(cwd, 'escape'))).toEqual(['a.txt']);
    } finally {
      await stub.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('a file cut short by the server fails, leaves no partial file, and the others still arrive (exit 6: only the network failed)', async () => {
    const stub = await stubServer((req, res) => {
      if (req.url === '/doc') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...hostileDoc, assetItemUrls: [entry('ok', 'ok.bin'), entry('cut', 'cut.bin')] }));
      } else if (req.url?.endsWith('/cut')) {
        res.writeHead(200, { 'content-length': '100000' });
        res.write(Buffer.alloc(10_000), () => setImmediate(() => res.socket?.destroy()));
      } else res.writeHead(200).end('fine');
      return true;
    });
    const dir = await mkdtemp(join(tmpdir(), 'ahs-cut-'));
    try {
      const run = await h.ahs(['fetch', '--url', `${stub.url}/doc`, '--dir', dir, '--json', '--retries', '0']);
      expect(run.exitCode).toBe(6);
      expect(run.json().failed.map((f: { id: string }) => f.id)).toEqual(['cut']);
      expect(await readdir(dir)).toEqual(['ok.bin']);
    } finally {
      await stub.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a redirect on a file download fails that file (exit 1) and is never saved as the file', async () => {
    const stub = await stubServer((req, res) => {
      if (req.url === '/doc') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...hostileDoc, assetItemUrls: [entry('ok', 'ok.bin'), entry('moved', 'moved.bin')] }));
      } else if (req.url?.endsWith('/moved')) {
        res.writeHead(302, { location: '/login', 'content-type': 'text/html' }).end('<html>sign in</html>');
      } else res.writeHead(200).end('fine');
      return true;
    });
    const dir = await mkdtemp(join(tmpdir(), 'ahs-302-'));
    try {
      const run = await h.ahs(['fetch', '--url', `${stub.url}/doc`, '--dir', dir, '--json']);
      expect(run.exitCode).toBe(1);
      expect(run.json().failed).toEqual([{ id: 'moved', name: 'moved.bin', error: expect.stringMatching(/^GET \/api\/vi\/files\/moved answered 302 with a redirect to \/login; /) }]);
      expect(run.json().downloaded.map((f: { id: string }) => f.id)).toEqual(['ok']);
      expect(await readdir(dir)).toEqual(['ok.bin']);
    } finally {
      await stub.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('through HTTP_PROXY the downloads go through the proxy too (the lean transport knows no proxy), and around it for NO_PROXY', async () => {
    const proxy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const dir = join(h.dir, 'out-proxy');
      const via = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--json'], { env: { HTTP_PROXY: proxy.url } });
      expect(via.exitCode).toBe(0);
      expect((await readFile(join(dir, 'big.bin'))).equals(big)).toBe(true);
      // The files' connections are tunnels of the proxy: more than the API's and the delivery document's.
      const tunnels = proxy.requests.length;
      expect(tunnels).toBeGreaterThan(2);
      const around = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--json'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
      expect(around.exitCode).toBe(0);
      expect(proxy.requests.length).toBe(tunnels);
    } finally {
      await proxy.close();
    }
  });

  it('Ctrl-C mid-download removes the partial files and exits 130', async () => {
    const stub = await stubServer((req, res) => {
      if (req.url === '/doc') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...hostileDoc, assetItemUrls: [entry('s1', 'slow1.bin'), entry('s2', 'slow2.bin')] }));
      } else {
        // Half a body, then nothing: the download stays in flight.
        res.writeHead(200, { 'content-length': '1000000' });
        res.write(Buffer.alloc(200_000, 1));
      }
      return true;
    });
    const dir = await mkdtemp(join(tmpdir(), 'ahs-int-'));
    try {
      const child = execa('node', [BIN, 'fetch', '--url', `${stub.url}/doc`, '--dir', dir], { reject: false, env: { ...h.env }, stdin: 'ignore' });
      // Wait until both partial files are on disk.
      for (const started = Date.now(); Date.now() - started < 45_000; ) {
        const names = await readdir(dir).catch(() => [] as string[]);
        if (names.filter((n) => n.includes('.ahs-partial-')).length === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await readdir(dir)).filter((n) => n.includes('.ahs-partial-'))).toHaveLength(2);
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode).toBe(130);
      expect(String(result.stderr)).toMatch(/interrupted/);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      stub.close().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('Ctrl-C into a --dir that fetch created: the folders it made go too; a folder that was there stays', async () => {
    const stub = await stubServer((req, res) => {
      if (req.url === '/doc') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...hostileDoc, assetItemUrls: [entry('s1', 'slow1.bin')] }));
      } else {
        res.writeHead(200, { 'content-length': '1000000' });
        res.write(Buffer.alloc(100_000, 1));
      }
      return true;
    });
    const parent = await mkdtemp(join(tmpdir(), 'ahs-int-new-'));
    const dir = join(parent, 'made', 'by-fetch');
    try {
      const child = execa('node', [BIN, 'fetch', '--url', `${stub.url}/doc`, '--dir', dir], { reject: false, env: { ...h.env }, stdin: 'ignore' });
      for (const started = Date.now(); Date.now() - started < 45_000; ) {
        const names = await readdir(dir).catch(() => [] as string[]);
        if (names.some((n) => n.includes('.ahs-partial-'))) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await readdir(dir)).filter((n) => n.includes('.ahs-partial-'))).toHaveLength(1);
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode).toBe(130);
      // `made` and `made/by-fetch` were created by this run and are empty: gone. The parent was there: kept.
      expect(await readdir(parent)).toEqual([]);
    } finally {
      stub.close().catch(() => {});
      await rm(parent, { recursive: true, force: true });
    }
  });
});


describe('fetch with a delivery URL that names an alias host of the delivery network', () => {
  it('reads the delivery document and the files there, with the key: a secured collection is fetched', async () => {
    const cdn = await harness({ variation: { deliveryPrefix: '/cdn' } });
    // The alias serves the network under /edge: what reaches it is passed on under /cdn.
    const alias = await stubServer((req) => {
      req.url = req.url?.replace(/^\/edge\//, '/cdn/');
      return false;
    }, cdn.emu.deliveryUrl);
    try {
      const c = 'secured-alias';
      expect((await cdn.ahs(['collection', 'create', c, '--name', 'Secured', '--allowed-types', '1001'])).exitCode).toBe(0);
      expect((await cdn.ahs(['item', 'upload', c, await cdn.file('notes.txt', 'behind an alias\n'), '--type', '1001'])).exitCode).toBe(0);
      expect((await cdn.ahs(['collection-deploy', c, '--env', 'dev'])).exitCode).toBe(0);
      const dir = join(cdn.dir, 'out-alias');
      const run = await cdn.ahs(['fetch', c, '--env', 'dev', '--dir', dir, '--json'], { env: { AHS_DELIVERY_URL: `${alias.url}/edge` } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('behind an alias\n');
      // Every delivery request went to the alias, each with the key.
      expect(alias.requests.map((r) => r.url.replace(/\/items\/.*/, '/items/…'))).toEqual([`/edge/api/vi/demo/vc/${c}/dev`, `/edge/api/vi/demo/vc/${c}/dev/items/…`]);
      expect(alias.requests.every((r) => r.headers.apikey === DEMO_API_KEY)).toBe(true);
    } finally {
      await alias.close();
      await cdn.close();
    }
  });
});
