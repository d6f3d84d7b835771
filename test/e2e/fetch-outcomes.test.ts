// fetch runs that share a folder, and runs whose files all fail: what a
// script sees (exit code, stdout, files on disk). cli.md "Reading the
// service" (concurrent runs) and "Exit codes".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watch } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { harness, stubServer, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const entry = (assetItemId: string, assetItemName: string) => ({
  assetItemId,
  assetItemName,
  downloadUrl: `/files/${assetItemId}`,
  targetPlatform: 'generic',
  mimetype: 'application/octet-stream',
});

const deliveryDoc = (items: Array<ReturnType<typeof entry>>) => ({
  downloadUrl: '/doc',
  anchorAsset: null,
  assetItemUrls: items,
  collectionId: 'shared',
  domainId: 'demo',
  envId: 'dev',
  secured: false,
  localCacheControl: false,
  localCacheMaxAge: 30,
  targetPlatform: 'generic',
});

/** Resolves once a partial file is in `dir` (watched, not polled). */
async function partialIn(dir: string): Promise<void> {
  const has = async () => (await readdir(dir).catch(() => [] as string[])).some((name) => name.includes('.ahs-partial-'));
  await new Promise<void>((resolve) => {
    const watcher = watch(dir, () => {
      void has().then((yes) => yes && (watcher.close(), resolve()));
    });
    void has().then((yes) => yes && (watcher.close(), resolve()));
  });
}

describe('two fetches into one folder at once', () => {
  it('both exit 0 and leave whole files only: neither removes the partial file the other is writing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ahs-twice-'));
    const content: Record<string, Buffer> = { one: Buffer.alloc(50_000, 1), two: Buffer.alloc(60_000, 2) };
    // Each file is answered half, then held until both runs are downloading it (each into its own partial file).
    const waiting = new Map<string, Array<() => void>>();
    const bothAsked = (id: string) =>
      new Promise<void>((resolve) => {
        const list = [...(waiting.get(id) ?? []), resolve];
        waiting.set(id, list);
        if (list.length === 2) list.forEach((release) => release());
      });
    let documents = 0;
    const stub = await stubServer(async (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/doc') {
        // The second run starts (and looks at the folder) only while the first has a partial file there.
        documents += 1;
        if (documents === 2) await partialIn(dir);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(deliveryDoc([entry('one', 'one.bin'), entry('two', 'two.bin')])));
        return true;
      }
      const id = /\/files\/(\w+)$/.exec(req.url ?? '')?.[1] ?? '';
      const body = content[id]!;
      res.writeHead(200, { 'content-length': String(body.length) });
      res.write(body.subarray(0, body.length / 2));
      await bothAsked(id);
      res.end(body.subarray(body.length / 2));
      return true;
    });
    try {
      const args = ['fetch', '--url', `${stub.url}/doc`, '--dir', dir, '--json'];
      const [first, second] = await Promise.all([h.ahs(args, { binary: true }), h.ahs(args, { binary: true })]);
      for (const run of [first, second]) {
        expect(run.stderr).not.toMatch(/ENOENT|rename/);
        expect(run.exitCode).toBe(0);
        expect(run.json()).toMatchObject({ failed: [], skipped: [] });
      }
      expect((await readdir(dir)).sort()).toEqual(['one.bin', 'two.bin']);
      expect((await readFile(join(dir, 'one.bin'))).equals(content.one!)).toBe(true);
      expect((await readFile(join(dir, 'two.bin'))).equals(content.two!)).toBe(true);
    } finally {
      await stub.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a fetch whose files fail', () => {
  /** A delivery host whose file answers are cut (network) or refused (404), per item id. */
  async function delivery(cut: string[], refused: string[] = []) {
    return stubServer((req, res) => {
      if (req.url === '/doc') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(deliveryDoc([...cut, ...refused].map((id) => entry(id, `${id}.bin`)))));
        return true;
      }
      const id = /\/files\/(\w+)$/.exec(req.url ?? '')?.[1] ?? '';
      if (refused.includes(id)) res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"gone"}');
      else res.socket?.destroy();
      return true;
    });
  }

  it('every file failed on the network: exit 6 (retry later), the folder it created not left behind; a refused one among them: exit 1', async () => {
    const stub = await delivery(['a', 'b']);
    const parent = await mkdtemp(join(tmpdir(), 'ahs-netfail-'));
    const dir = join(parent, 'made', 'here');
    try {
      const run = await h.ahs(['fetch', '--url', `${stub.url}/doc`, '--dir', dir, '--json', '--retries', '0']);
      expect(run.exitCode).toBe(6);
      expect(run.json().failed.map((f: { id: string }) => f.id).sort()).toEqual(['a', 'b']);
      expect(run.errJson()).toMatchObject({ type: 'urn:ahs:network', status: null, title: expect.stringMatching(/^2 of 2 file\(s\) failed to download, each for want of an answer .*run again later$/) });
      expect(await readdir(parent)).toEqual([]);
      const table = await h.ahs(['fetch', '--url', `${stub.url}/doc`, '--dir', dir, '--retries', '0']);
      expect(table.exitCode).toBe(6);
      expect(table.stderr).toMatch(/error: 2 of 2 file\(s\) failed to download, each for want of an answer/);
      expect(await readdir(parent)).toEqual([]);
    } finally {
      await stub.close();
      await rm(parent, { recursive: true, force: true });
    }
    // A file the server refused among them: exit 1 (a rejection); a folder that was there stays.
    const mixed = await delivery(['a'], ['b']);
    const there = await mkdtemp(join(tmpdir(), 'ahs-mixfail-'));
    try {
      const run = await h.ahs(['fetch', '--url', `${mixed.url}/doc`, '--dir', there, '--json', '--retries', '0']);
      expect(run.exitCode).toBe(1);
      expect(run.json().failed).toHaveLength(2);
      expect(await readdir(there)).toEqual([]);
    } finally {
      await mixed.close();
      await rm(there, { recursive: true, force: true });
    }
  });
});
