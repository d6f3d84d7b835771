// --data-dir: metadata and files survive a restart; without it, the temp
// folder goes away on close.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { CollectionRecord, ItemRecord } from '../../src/emulator/state.js';
import { DiskStore } from '../../src/emulator/store.js';
import { Client, DEMO_API_KEY, DEMO_USER, withEmulator } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('persistence', () => {
  it('keeps assets, versions, deployments, collections, items and files across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-data-'));
    dirs.push(dataDir);
    const first = await withEmulator({ dataDir });
    const c1 = first.client;
    await c1.createAsset('kept', { description: 'survives' });
    await c1.uploadVersion('kept', 'ios', 'version bytes');
    await c1.deploy('kept', 'IOS1', 'ios', { envId: 'prod', intent: 'LIVE', createdBy: DEMO_USER });
    await c1.deploy('kept', 'IOS1', 'ios', { envId: 'prod', intent: 'DEFAULT', updatedBy: DEMO_USER });
    await c1.createCollection('kept-c');
    const item = await c1.uploadItem('kept-c', '{"kept":true}');
    await c1.post('/vc/kept-c/deployments', { state: 'LIVE', createdBy: DEMO_USER, envId: 'dev' });
    // Served before the restart too, while its bytes are held (no file yet).
    expect(await itemBytes(first.emu, c1, 'kept-c')).toBe('{"kept":true}');
    await first.emu.close();

    const second = await withEmulator({ dataDir });
    try {
      const c2 = second.client;
      expect((await c2.get('/va/kept')).status).toBe(200);
      expect((await c2.get('/va/search?text=survives')).body.results.total).toBe(1);
      const urls = await c2.get('/va/kept/asset-urls');
      expect(urls.body.results).toEqual([expect.objectContaining({ versionId: 'IOS1', state: 'DEFAULT', envId: 'prod' })]);
      const file = await fetch(urls.body.results[0].downloadUrl, { headers: { apikey: DEMO_API_KEY } });
      expect(await file.text()).toBe('version bytes');
      // Sequences continue.
      expect((await c2.uploadVersion('kept', 'ios')).body.versionId).toBe('IOS2');
      const url = await c2.get('/vc/kept-c/deployments/dev');
      const doc = await (await fetch(url.body.downloadUrl, { headers: { apikey: DEMO_API_KEY } })).json();
      expect(doc.assetItemUrls[0].assetItemId).toBe(item.body.assetItemId);
      const bytes = await fetch(`${second.emu.deliveryUrl}/api/vi${doc.assetItemUrls[0].downloadUrl}`, { headers: { apikey: DEMO_API_KEY } });
      expect(await bytes.text()).toBe('{"kept":true}');
      expect((await c2.uploadItem('kept-c', 'x')).body.assetItemId).not.toBe(item.body.assetItemId);
    } finally {
      await second.emu.close();
    }
  });

  it('drops unfinished uploads and orphan files on start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-data-'));
    dirs.push(dataDir);
    const first = await withEmulator({ dataDir });
    await first.client.createAsset('a');
    await first.client.uploadVersion('a', 'ios', 'kept');
    await first.emu.close();
    await writeFile(join(dataDir, 'blobs', 'orphan'), 'x');
    await writeFile(join(dataDir, 'tmp', 'half.part'), 'x');
    const second = await withEmulator({ dataDir });
    try {
      expect(await readdir(join(dataDir, 'blobs'))).toHaveLength(1);
      expect(await readdir(join(dataDir, 'tmp'))).toHaveLength(0);
      expect((await second.client.get('/va/a/versions')).body.totalResults).toBe(1);
    } finally {
      await second.emu.close();
    }
  });

  it('without --data-dir state is in memory and the temp folder is removed on close', async () => {
    // A temporary folder of its own: other test files start and stop emulators in the shared one meanwhile.
    const privateTmp = await mkdtemp(join(tmpdir(), 'ahs-emu-tmpdir-'));
    dirs.push(privateTmp);
    const shared = process.env.TMPDIR;
    process.env.TMPDIR = privateTmp;
    let started: Awaited<ReturnType<typeof withEmulator>>;
    try {
      started = await withEmulator();
    } finally {
      if (shared === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = shared;
    }
    const { emu, client } = started;
    await client.createAsset('temp');
    await client.uploadVersion('temp', 'ios', 'x');
    expect((await readdir(privateTmp)).filter((name) => name.startsWith('ahs-emulator-'))).toHaveLength(1);
    await emu.close();
    expect(await readdir(privateTmp)).toEqual([]);
    const again = await withEmulator();
    try {
      expect(isMissing(await again.client.get('/va/temp'))).toBe(true);
    } finally {
      await again.emu.close();
    }
  });

  it('close waits for in-flight requests', async () => {
    const { emu, client } = await withEmulator();
    await client.createAsset('slow');
    await client.uploadVersion('slow', 'ios', 'x');
    const hold = emu.holdDeployments();
    const pending = client.deploy('slow', 'IOS1', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER });
    await hold.held();
    const closing = emu.close();
    hold();
    await closing;
    expect((await pending).status).toBe(201);
  });
});

/** The bytes of the collection's first item, through the delivery network at dev. */
async function itemBytes(emu: RunningEmulator, client: Client, collectionId: string): Promise<string> {
  const url = await client.get(`/vc/${collectionId}/deployments/dev`);
  const doc = await (await fetch(url.body.downloadUrl, { headers: { apikey: DEMO_API_KEY } })).json();
  return (await fetch(`${emu.deliveryUrl}/api/vi${doc.assetItemUrls[0].downloadUrl}`, { headers: { apikey: DEMO_API_KEY } })).text();
}

function isMissing(res: { status: number }): boolean {
  return res.status === 404;
}

describe('the journal', () => {
  const asset = (assetId: string) => ({
    assetId,
    assetName: assetId,
    assetType: '1001',
    secured: true,
    localCacheControl: false,
    localCacheMaxAge: 30,
    createdBy: DEMO_USER,
    updatedBy: DEMO_USER,
    active: true,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    sequences: {},
  });

  it('replays what a crash left in the journal; a last line cut short was never acknowledged', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-data-'));
    dirs.push(dataDir);
    const crashed = await DiskStore.open(dataDir);
    for (const id of ['j1', 'j2', 'j3']) await crashed.createAsset('demo', asset(id));
    // No close(): as after kill -9, the journal is all there is. Then a write torn mid-line.
    await appendFile(join(dataDir, 'journal.ndjson'), '{"seq":4,"operation":{"domainId":"demo","op":"createAsset","asset":{"assetId":"j4"');
    const reopened = await DiskStore.open(dataDir);
    try {
      expect(Object.keys(reopened.domain('demo').assets).sort()).toEqual(['j1', 'j2', 'j3']);
      expect(await readFile(join(dataDir, 'journal.ndjson'), 'utf8')).toBe('');
    } finally {
      await reopened.close();
      // The crashed store's file handle, released as the kernel would at a kill (not closed by GC, with a warning).
      await (crashed as unknown as { journal: { close(): Promise<void> } }).journal.close();
    }
  });

  it("replays a crash's small uploads from their journal lines (their files written at start); a last line cut short was never acknowledged", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-data-'));
    dirs.push(dataDir);
    const crashed = await DiskStore.open(dataDir);
    await crashed.createCollection('demo', collection('c'));
    const items = [];
    for (const n of [1, 2]) items.push(await crashed.addItem('demo', 'c', { bytes: Buffer.from(`small ${n}`) }, (blobId, sequence) => item(`i${sequence}`, blobId)));
    // No close (kill -9): no file was made for them, the journal holds their bytes. Then a third torn mid-bytes.
    expect(await readdir(join(dataDir, 'blobs'))).toEqual([]);
    const torn = JSON.stringify({ seq: 4, operation: { domainId: 'demo', op: 'addItem', collectionId: 'c', item: item('i3', 'torn-blob'), sequence: 3 }, bytes: Buffer.from('small 3').toString('base64') });
    await appendFile(join(dataDir, 'journal.ndjson'), torn.slice(0, -6));
    const reopened = await DiskStore.open(dataDir);
    try {
      expect(Object.keys(reopened.domain('demo').items).sort()).toEqual(['i1', 'i2']);
      expect((await readdir(join(dataDir, 'blobs'))).sort()).toEqual(items.map((i) => i.blobId).sort());
      for (const [n, { blobId }] of items.entries()) expect(await readFile(join(dataDir, 'blobs', blobId), 'utf8')).toBe(`small ${n + 1}`);
      expect(await readFile(join(dataDir, 'journal.ndjson'), 'utf8')).toBe('');
    } finally {
      await reopened.close();
      await (crashed as unknown as { journal: { close(): Promise<void> } }).journal.close();
    }
  });

  it('folds into the snapshot every so many writes and keeps the later ones in the journal', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-data-'));
    dirs.push(dataDir);
    const store = await DiskStore.open(dataDir, { compactEvery: 3 });
    for (let i = 1; i <= 5; i++) await store.createAsset('demo', asset(`c${i}`));
    const snapshot = JSON.parse(await readFile(join(dataDir, 'state.json'), 'utf8'));
    expect(Object.keys(snapshot.domains.demo.assets).sort()).toEqual(['c1', 'c2', 'c3']);
    expect((await readFile(join(dataDir, 'journal.ndjson'), 'utf8')).trim().split('\n')).toHaveLength(2);
    const reopened = await DiskStore.open(dataDir);
    try {
      expect(Object.keys(reopened.domain('demo').assets)).toHaveLength(5);
    } finally {
      await reopened.close();
      await store.close().catch(() => undefined);
    }
  });

  it('loses no acknowledged small upload to kill -9, and serves its bytes after the restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-data-'));
    dirs.push(dataDir);
    const child = await spawnEmulator(dataDir);
    const exited = new Promise((resolve) => child.process.once('exit', resolve));
    const client = new Client({ baseUrl: child.baseUrl } as RunningEmulator);
    expect((await client.createCollection('k', { maxAssets: 100 })).status).toBe(201);
    const acknowledged = new Map<string, string>();
    const uploads = Array.from({ length: 24 }, async (_, i) => {
      const res = await client.uploadItem('k', `small upload ${i}`).catch(() => undefined);
      if (res?.status === 201) acknowledged.set(res.body.assetItemId, `small upload ${i}`);
      if (acknowledged.size === 12) child.process.kill('SIGKILL');
    });
    await Promise.all(uploads);
    if (acknowledged.size < 12) child.process.kill('SIGKILL');
    await exited;
    expect(acknowledged.size).toBeGreaterThanOrEqual(12);
    const again = await withEmulator({ dataDir });
    try {
      expect((await again.client.post('/vc/k/deployments', { state: 'LIVE', createdBy: DEMO_USER, envId: 'dev' })).status).toBe(201);
      const url = await again.client.get('/vc/k/deployments/dev');
      const doc = await (await fetch(url.body.downloadUrl, { headers: { apikey: DEMO_API_KEY } })).json();
      const served = new Map<string, string>();
      for (const entry of doc.assetItemUrls) {
        const bytes = await fetch(`${again.emu.deliveryUrl}/api/vi${entry.downloadUrl}`, { headers: { apikey: DEMO_API_KEY } });
        served.set(entry.assetItemId, await bytes.text());
      }
      for (const [itemId, text] of acknowledged) expect(served.get(itemId), itemId).toBe(text);
    } finally {
      await again.emu.close();
    }
  });

  it('loses no acknowledged write to kill -9', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-data-'));
    dirs.push(dataDir);
    const child = await spawnEmulator(dataDir);
    // Listened to from the start: the process may be gone before the writes in flight have failed.
    const exited = new Promise((resolve) => child.process.once('exit', resolve));
    const acknowledged: string[] = [];
    const client = new Client({ baseUrl: child.baseUrl } as RunningEmulator);
    // Writes in flight when the process dies; the ones answered 201 must survive.
    const writes = Array.from({ length: 60 }, async (_, i) => {
      const id = `k${i}`;
      const res = await client.createAsset(id).catch(() => undefined);
      if (res?.status === 201) acknowledged.push(id);
      if (acknowledged.length === 30) child.process.kill('SIGKILL');
    });
    await Promise.all(writes);
    if (acknowledged.length < 30) child.process.kill('SIGKILL'); // fewer answered: the test fails below, without waiting
    await exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    const again = await withEmulator({ dataDir });
    try {
      const ids = (await again.client.get('/va?pageSize=500')).body.results.map((a: any) => a.assetId);
      expect(acknowledged.filter((id) => !ids.includes(id))).toEqual([]);
    } finally {
      await again.emu.close();
    }
  });
});

function collection(collectionId: string): CollectionRecord {
  const at = '2024-01-01T00:00:00.000Z';
  return { collectionId, domainId: 'demo', collectionName: collectionId, allowedAssetTypes: ['1001'], maxAssets: 100, editable: true, deployable: true, assetItems: [], targetPlatform: 'generic', secured: true, createdBy: DEMO_USER, updatedBy: DEMO_USER, deleted: false, deletedAt: null, everDeployed: false, localCacheControl: false, localCacheMaxAge: 30, createdAt: at, updatedAt: at };
}

function item(assetItemId: string, blobId: string): ItemRecord {
  const at = '2024-01-01T00:00:00.000Z';
  return { assetItemId, assetItemName: assetItemId, assetType: '1001', mimetype: 'text/plain', size: 7, fileName: `${assetItemId}.txt`, parentCollections: ['c'], domain: 'demo', createdBy: DEMO_USER, updatedBy: DEMO_USER, createdAt: at, updatedAt: at, blobId };
}

/** The emulator in a child process (bundled from source) so that it can be killed for real. */
async function spawnEmulator(dataDir: string): Promise<{ process: ChildProcess; baseUrl: string }> {
  const entry = await (childEntry ??= bundleChild());
  const child = spawn(process.execPath, [entry, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { process: child, baseUrl: line };
}

/** Bundled once for the file's tests (a bundle takes longer than a test). */
let childEntry: Promise<string> | undefined;
afterAll(async () => {
  if (childEntry) await rm(dirname(await childEntry), { recursive: true, force: true });
});
async function bundleChild(): Promise<string> {
  const outdir = await mkdtemp(join(tmpdir(), 'ahs-emu-child-'));
  const entry = join(outdir, 'child.mjs');
  await build({
    stdin: {
      contents: `import { startEmulator } from './src/emulator/index.ts';
const emu = await startEmulator({ dataDir: process.argv[2] });
process.stdout.write(emu.baseUrl + '\\n');`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: entry,
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return entry;
}
