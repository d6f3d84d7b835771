// ahs item sync against the emulator: a folder, then the folder changed
// (edited, added, deleted with --delete) and its --dry-run, an unchanged
// re-run, a collection at its maxAssets, --pattern, a refused file,
// --reconcile. The writes are counted by a proxy in front of the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_USER, harness, stubServer, type Harness } from './helpers.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import type { FixtureConfig } from '../../src/emulator/index.js';

// Type 1001 takes .zip, .json and .txt files only (the service checks the extension).
const FIXTURE: FixtureConfig = {
  domains: [
    {
      domainId: 'demo',
      users: [{ email: DEMO_USER, role: 'owner', active: true }],
      apiKeys: [{ key: 'demo-key' }],
      environments: ['dev', 'prod'],
      targetPlatforms: ['generic'],
      assetTypes: [
        { code: '1001', name: 'Bundle', active: true, allowedExtensions: ['.zip', '.json', '.txt'] },
        { code: '9999', name: 'Other', active: true },
      ],
    },
  ],
};

let h: Harness;
let proxy: Awaited<ReturnType<typeof stubServer>>;
beforeAll(async () => {
  h = await harness({ config: FIXTURE });
  proxy = await stubServer(() => false, h.emu.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

/** ahs through the counting proxy; returns the run and the writes it sent ("METHOD /path"). */
async function counted(args: string[], baseUrl = proxy.url) {
  const from = proxy.requests.length;
  const run = await h.ahs(args, { env: { AHS_BASE_URL: baseUrl } });
  const writes = proxy.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.url.replace('/api/v2/demo', '').replace(/\?.*/, '')}`);
  return { run, writes };
}

/** A folder holding exactly `files` (name → content). */
async function folder(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(h.dir, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) await writeFile(join(dir, file), content);
  return dir;
}

async function createCollection(id: string, maxAssets = 10): Promise<void> {
  const r = await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], maxAssets, createdBy: DEMO_USER });
  expect(r.status).toBe(201);
}

/** The collection's items as "name:size:id", by name. */
async function items(id: string): Promise<string[]> {
  const r = await h.call('GET', `/vc/${id}/items?pageSize=500`);
  expect(r.status).toBe(200);
  return (r.body.results as Array<{ assetItemName: string; size: number; assetItemId: string }>)
    .map((i) => `${i.assetItemName}:${i.size}:${i.assetItemId}`)
    .sort();
}

describe('item sync', () => {
  const id = 'mirror';
  let dir: string;
  let first: Record<string, string>;

  beforeAll(async () => {
    await createCollection(id);
    dir = await folder('mirror', { 'a.zip': 'aa', 'b.zip': 'bbb', 'c.zip': 'c' });
  });

  it('uploads the files of a folder, with a per-file summary', async () => {
    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001']);
    expect(run.exitCode).toBe(0);
    expect(writes).toEqual([`POST /vc/${id}/items`, `POST /vc/${id}/items`, `POST /vc/${id}/items`]);
    const rows = run.stdout.split('\n').map((line) => line.split('\t'));
    expect(rows[0]).toEqual(['FILE', 'RESULT', 'ITEM', 'DETAIL']);
    expect(rows.slice(1).map(([file, result]) => `${file} ${result}`)).toEqual(['a.zip uploaded', 'b.zip uploaded', 'c.zip uploaded']);
    expect(run.stderr).toContain(`${dir} → ${id}: 3 to upload, 0 to replace, 0 unchanged`);
    expect(run.stderr).toContain(`synced ${dir} into ${id}: 3 uploaded, 0 replaced, 0 removed, 0 unchanged`);
    const state = await items(id);
    expect(state.map((i) => i.split(':').slice(0, 2).join(':'))).toEqual(['a.zip:2', 'b.zip:3', 'c.zip:1']);
    first = Object.fromEntries(state.map((i) => [i.split(':')[0], i.split(':')[2]]));
  });

  it('a changed folder: --dry-run shows the plan and sends no write; the real run removes first, replaces, uploads', async () => {
    await writeFile(join(dir, 'b.zip'), 'bbbbbb');
    await writeFile(join(dir, 'd.zip'), 'dddd');
    await rm(join(dir, 'c.zip'));

    const dry = await counted(['item', 'sync', id, dir, '--type', '1001', '--delete', '--dry-run', '--json']);
    expect(dry.run.exitCode).toBe(0);
    expect(dry.writes).toEqual([]);
    const doc = dry.run.json();
    const requests = [...doc.before, doc].map((step: { request: { method: string; path: string; body: { assetItemName?: string } }; predicted: { status: number } }) =>
      [step.request.method, step.request.path.replace('/api/v2/demo', ''), step.request.body.assetItemName, step.predicted.status].filter(Boolean).join(' '),
    );
    expect(requests).toEqual([
      `DELETE /vc/${id}/items/${first['c.zip']} 200`,
      `POST /vc/${id}/items b.zip 201`,
      `DELETE /vc/${id}/items/${first['b.zip']} 200`,
      `POST /vc/${id}/items d.zip 201`,
    ]);
    expect(dry.run.stderr).toContain('1 to upload, 1 to replace, 1 to remove, 1 unchanged');
    expect((await items(id)).length).toBe(3);

    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001', '--delete', '--yes', '--json']);
    expect(run.exitCode).toBe(0);
    // The removal before any upload; the replacement uploads, then removes the old item (its removal waits
    // for its own upload only: the new file's upload runs beside them, in either order).
    expect(writes[0]).toBe(`DELETE /vc/${id}/items/${first['c.zip']}`);
    // Sorted both sides: the item ids come from uploads that ran together, in either order.
    expect([...writes].sort()).toEqual([`DELETE /vc/${id}/items/${first['b.zip']}`, `DELETE /vc/${id}/items/${first['c.zip']}`, `POST /vc/${id}/items`, `POST /vc/${id}/items`].sort());
    expect(writes.indexOf(`DELETE /vc/${id}/items/${first['b.zip']}`)).toBeGreaterThan(1);
    const result = run.json();
    expect(result.uploaded.map((i: { assetItemName: string }) => i.assetItemName)).toEqual(['d.zip']);
    expect(result.replaced).toEqual([{ old: first['b.zip'], new: expect.objectContaining({ assetItemName: 'b.zip', size: 6 }), removedFirst: false }]);
    expect(result.removed).toEqual([first['c.zip']]);
    expect(result.unchanged).toEqual(['a.zip']);
    expect(result.failed).toEqual([]);
    const state = await items(id);
    expect(state.map((i) => i.split(':').slice(0, 2).join(':'))).toEqual(['a.zip:2', 'b.zip:6', 'd.zip:4']);
    expect(state).toContain(`a.zip:2:${first['a.zip']}`);
  });

  it('an unchanged folder sends no write and says every file is unchanged', async () => {
    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001', '--delete', '--yes', '--json']);
    expect(run.exitCode).toBe(0);
    expect(writes).toEqual([]);
    expect(run.json()).toEqual({ uploaded: [], replaced: [], removed: [], unchanged: ['a.zip', 'b.zip', 'd.zip'], failed: [], compared: { content: 0, size: 3, checksum: false }, skipped: [] });
    expect(run.stderr).toContain('0 uploaded, 0 replaced, 0 removed, 3 unchanged');
  });

  it('a folder missing or a file name over the item name limit: exit 2, nothing sent', async () => {
    const missing = await counted(['item', 'sync', id, join(h.dir, 'no-such-folder'), '--type', '1001']);
    expect(missing.run.exitCode).toBe(2);
    expect(missing.run.stderr).toContain('no such folder');
    const long = await folder('long', { [`${'x'.repeat(70)}.zip`]: 'x' });
    const tooLong = await counted(['item', 'sync', id, long, '--type', '1001']);
    expect(tooLong.run.exitCode).toBe(2);
    expect(tooLong.run.stderr).toMatch(/item name of .*x\.zip/);
    expect([...missing.writes, ...tooLong.writes]).toEqual([]);
  });
});

describe('item sync reads every page of items', () => {
  it('a file whose item is on the second page is unchanged: no write', async () => {
    const id = 'long-list';
    await createCollection(id, 200);
    for (let n = 0; n <= 100; n++) {
      const form = new FormData();
      form.set('assetItemName', `n${String(n).padStart(3, '0')}.zip`);
      form.set('assetType', '1001');
      form.set('createdBy', DEMO_USER);
      form.set('assetFile', new Blob(['x']), 'n.zip');
      expect((await h.call('POST', `/vc/${id}/items`, form)).status).toBe(201);
    }
    const from = proxy.requests.length;
    // A service that caps pages at 50: the 101 items are 3 pages (ahs asks for 1,000 at first).
    const capped = await startFaultProxy(proxy.url, { pageSizeCap: 50 });
    const { run, writes } = await counted(['item', 'sync', id, await folder('long-list', { 'n100.zip': 'y' }), '--type', '1001', '--json'], capped.url).finally(() => capped.close());
    expect(run.exitCode).toBe(0);
    expect(writes).toEqual([]);
    expect(proxy.requests.slice(from).filter((r) => r.method === 'GET' && r.url.includes(`/vc/${id}/items?`)).length).toBeGreaterThan(1);
    expect(run.json().unchanged).toEqual(['n100.zip']);
    expect(run.stderr).toContain('kept without a file (--delete removes them): n000.zip');
  });
});

describe('item sync at maxAssets', () => {
  it('a changed file in a full collection: the old item is removed first, and the output says so', async () => {
    const id = 'full';
    await createCollection(id, 2);
    const dir = await folder('full', { 'a.zip': 'a', 'b.zip': 'b' });
    expect((await h.ahs(['item', 'sync', id, dir, '--type', '1001'])).exitCode).toBe(0);
    const [oldA] = (await items(id)).map((i) => i.split(':')[2]);
    await writeFile(join(dir, 'a.zip'), 'a changed');

    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001']);
    expect(run.exitCode).toBe(0);
    expect(writes).toEqual([`DELETE /vc/${id}/items/${oldA}`, `POST /vc/${id}/items`]);
    expect(run.stderr).toContain(`collection ${id} is at its maxAssets (2): each changed file's old item is removed before its new one is uploaded`);
    expect(run.stdout).toMatch(/a\.zip\treplaced\titem-\d+\twas .*the old item was removed first \(the collection was at maxAssets\)/);
    expect((await items(id)).map((i) => i.split(':').slice(0, 2).join(':'))).toEqual(['a.zip:9', 'b.zip:1']);
  });

  it('new files that cannot fit: refused before any write (exit 1), saying by how many', async () => {
    const id = 'too-small';
    await createCollection(id, 2);
    const dir = await folder('too-small', { 'a.zip': 'a', 'b.zip': 'b', 'c.zip': 'c' });
    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001']);
    expect(run.exitCode).toBe(1);
    expect(writes).toEqual([]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('nothing was sent');
    expect(run.stderr).toContain('the folder needs 3 items, 1 over maxAssets 2');
    expect(await items(id)).toEqual([]);
  });

  it('--delete makes the room: the removals go first, the collection never holds more than maxAssets', async () => {
    const id = 'swap';
    await createCollection(id, 2);
    expect((await h.ahs(['item', 'sync', id, await folder('swap-old', { 'x.zip': 'x', 'y.zip': 'y' }), '--type', '1001'])).exitCode).toBe(0);
    const dir = await folder('swap-new', { 'p.zip': 'p', 'q.zip': 'q' });
    const without = await counted(['item', 'sync', id, dir, '--type', '1001']);
    expect(without.run.exitCode).toBe(1);
    expect(without.run.stderr).toContain('--delete to remove the 2 item(s) with no file');
    expect(without.writes).toEqual([]);
    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001', '--delete', '--yes']);
    expect(run.exitCode).toBe(0);
    expect(writes.map((w) => w.split(' ')[0])).toEqual(['DELETE', 'DELETE', 'POST', 'POST']);
    expect((await items(id)).map((i) => i.split(':')[0])).toEqual(['p.zip', 'q.zip']);
  });
});

describe('item sync --pattern', () => {
  it('narrows the files, and the items --delete may remove', async () => {
    const id = 'patterned';
    await createCollection(id);
    const other = await h.ahs(['item', 'upload', id, await h.file('notes.json', '{}'), '--type', '1001']);
    expect(other.exitCode).toBe(0);
    const dir = await folder('patterned', { 'a.zip': 'a', 'b.zip': 'b', 'readme.txt': 'r' });
    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001', '--pattern', '*.zip', '--delete', '--yes', '--json']);
    expect(run.exitCode).toBe(0);
    expect(writes).toEqual([`POST /vc/${id}/items`, `POST /vc/${id}/items`]);
    expect(run.json().uploaded.map((i: { assetItemName: string }) => i.assetItemName)).toEqual(['a.zip', 'b.zip']);
    expect(run.json().removed).toEqual([]);
    // readme.txt is not considered; notes.json does not match, so --delete leaves it.
    expect((await items(id)).map((i) => i.split(':')[0])).toEqual(['a.zip', 'b.zip', 'notes.json']);
  });
});

describe('item sync with several items of one name', () => {
  it('the item of the same size is the file\'s; --delete removes the other', async () => {
    const id = 'twice';
    await createCollection(id);
    for (const content of ['1', '22']) expect((await h.ahs(['item', 'upload', id, await h.file('a.zip', content), '--type', '1001'])).exitCode).toBe(0);
    const [small] = (await items(id)).filter((i) => i.startsWith('a.zip:1:')).map((i) => i.split(':')[2]);
    const { run, writes } = await counted(['item', 'sync', id, await folder('twice', { 'a.zip': '22' }), '--type', '1001', '--delete', '--yes', '--json']);
    expect(run.exitCode).toBe(0);
    expect(writes).toEqual([`DELETE /vc/${id}/items/${small}`]);
    expect(run.json()).toMatchObject({ removed: [small], unchanged: ['a.zip'], uploaded: [], replaced: [] });
    expect((await items(id)).map((i) => i.split(':').slice(0, 2).join(':'))).toEqual(['a.zip:2']);
  });
});

describe('item sync failures', () => {
  it('a file the service refuses does not stop the others: exit 1, the summary names it', async () => {
    const id = 'picky';
    await createCollection(id);
    const dir = await folder('picky', { 'a.zip': 'a', 'setup.exe': 'MZ', 'c.json': '{}' });
    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001']);
    expect(run.exitCode).toBe(1);
    expect(writes).toHaveLength(3);
    expect(run.stdout).toMatch(/^setup\.exe\tfailed\t-\tHTTP 400: File type \.exe/m);
    expect(run.stdout).toMatch(/^a\.zip\tuploaded\t/m);
    expect(run.stdout).toMatch(/^c\.json\tuploaded\t/m);
    expect(run.stderr).toMatch(/error: 2 uploaded, 0 replaced, 0 removed, 0 unchanged; failed: setup\.exe \(HTTP 400: File type \.exe/);
    expect((await items(id)).map((i) => i.split(':')[0])).toEqual(['a.zip', 'c.json']);

    // JSON: the whole result on stdout, the first failure's error body on stderr.
    const again = await counted(['item', 'sync', id, dir, '--type', '1001', '--json']);
    expect(again.run.exitCode).toBe(1);
    expect(again.writes).toEqual([`POST /vc/${id}/items`]);
    expect(again.run.json()).toMatchObject({ uploaded: [], unchanged: ['a.zip', 'c.json'], failed: [{ file: 'setup.exe', error: { status: 400 } }] });
    expect(again.run.errJson()).toMatchObject({ status: 400 });
  });

  it('a type the collection does not allow: refused before any write (exit 1)', async () => {
    const id = 'typed';
    await createCollection(id);
    const { run, writes } = await counted(['item', 'sync', id, await folder('typed', { 'a.zip': 'a' }), '--type', '2002']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('nothing was sent: the service would answer 400: Asset type 2002 is not allowed');
    expect(writes).toEqual([]);
  });

  it('a collection that does not exist: exit 4, nothing sent', async () => {
    const { run, writes } = await counted(['item', 'sync', 'no-such-collection', await folder('nowhere', { 'a.zip': 'a' }), '--type', '1001']);
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain('collection no-such-collection not found');
    expect(writes).toEqual([]);
  });
});

describe('item sync --reconcile', () => {
  it('re-runs the Live deployments when the sync changed something; skips it (and says why) otherwise', async () => {
    const id = 'published';
    await createCollection(id);
    const dir = await folder('published', { 'a.zip': 'a' });
    const offline = await counted(['item', 'sync', id, dir, '--type', '1001', '--reconcile', '--json']);
    expect(offline.run.exitCode).toBe(0);
    expect(offline.run.stderr).toContain(`collection ${id} is not Live in any environment: nothing to reconcile`);
    expect(offline.writes).toEqual([`POST /vc/${id}/items`]);
    expect(offline.run.json().reconciled).toBe(false);

    expect((await h.ahs(['collection-deploy', id, '--env', 'dev'])).exitCode).toBe(0);
    await writeFile(join(dir, 'b.zip'), 'b');
    const live = await counted(['item', 'sync', id, dir, '--type', '1001', '--reconcile', '--json']);
    expect(live.run.exitCode).toBe(0);
    expect(live.writes).toEqual([`POST /vc/${id}/items`, `POST /vc/${id}/deployments`]);
    expect(live.run.json()).toMatchObject({ uploaded: [{ assetItemName: 'b.zip' }], unchanged: ['a.zip'], reconciled: true });
    expect(live.run.stderr).toMatch(/redeployed in 1 environment/);

    const unchanged = await counted(['item', 'sync', id, dir, '--type', '1001', '--reconcile']);
    expect(unchanged.run.exitCode).toBe(0);
    expect(unchanged.writes).toEqual([]);
    expect(unchanged.run.stderr).toContain(`nothing changed: the Live deployments of ${id} are left as they are`);
  });
});

describe('two syncs of one folder into one collection at once (two CI jobs)', () => {
  it('end with one item per file, and a plain re-run finds everything unchanged', async () => {
    const dir = join(h.dir, 'twins');
    await mkdir(dir, { recursive: true });
    for (const name of ['a.zip', 'b.zip', 'c.json', 'd.txt', 'e.zip']) await writeFile(join(dir, name), `content of ${name}`);
    expect((await h.ahs(['collection', 'create', 'twins', '--name', 'Twins', '--allowed-types', '1001'])).exitCode).toBe(0);
    // One item already there, changed locally: both runs replace it.
    expect((await h.ahs(['item', 'upload', 'twins', join(dir, 'a.zip'), '--type', '1001'])).exitCode).toBe(0);
    await writeFile(join(dir, 'a.zip'), 'a longer content of a.zip');
    const runs = await Promise.all([1, 2].map(() => h.ahs(['item', 'sync', 'twins', dir, '--type', '1001', '--json'])));
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    const items = (await h.ahs(['item', 'list', 'twins', '--all', '--json'])).json().results as Array<{ assetItemName: string }>;
    expect(items.map((item) => item.assetItemName).sort()).toEqual(['a.zip', 'b.zip', 'c.json', 'd.txt', 'e.zip']);
    const again = await h.ahs(['item', 'sync', 'twins', dir, '--type', '1001', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ uploaded: [], replaced: [], removed: [], failed: [] });
    expect(again.json().unchanged).toHaveLength(5);
  });
});

describe('item sync --delete is destructive; links are not followed unless asked', () => {
  it('without --yes and no terminal: exit 2 naming what it would remove, nothing sent', async () => {
    const id = 'guarded';
    await createCollection(id);
    const dir = await folder('guarded', { 'keep.zip': 'k', 'gone.zip': 'g' });
    expect((await h.ahs(['item', 'sync', id, dir, '--type', '1001'])).exitCode).toBe(0);
    await rm(join(dir, 'gone.zip'));
    const { run, writes } = await counted(['item', 'sync', id, dir, '--type', '1001', '--delete']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/to remove \(no file of their name\): gone\.zip \(item-\d+\)/);
    expect(run.stderr).toMatch(/^error: item sync --delete \(removes 1 item\(s\)\) needs confirmation: pass --yes/m);
    expect(writes).toEqual([]);
    expect((await items(id)).map((i) => i.split(':')[0])).toEqual(['gone.zip', 'keep.zip']);
  });

  it('a symbolic link is skipped and named; --follow-links uploads what it points to', async () => {
    const id = 'linked';
    await createCollection(id);
    const dir = await folder('linked', { 'real.zip': 'r' });
    const target = join(h.dir, 'outside-secret.txt');
    await writeFile(target, 'not for upload');
    await symlink(target, join(dir, 'link.txt'));
    const skipped = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--json']);
    expect(skipped.exitCode, skipped.stderr).toBe(0);
    expect(skipped.stderr).toMatch(/skipped 1 symbolic link\(s\), not followed without --follow-links: link\.txt/);
    expect(skipped.json().skipped).toEqual([{ file: 'link.txt', reason: 'symbolic link (--follow-links follows it)' }]);
    expect((await items(id)).map((i) => i.split(':')[0])).toEqual(['real.zip']);
    const followed = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--follow-links', '--json']);
    expect(followed.exitCode, followed.stderr).toBe(0);
    expect((await items(id)).map((i) => i.split(':')[0])).toEqual(['link.txt', 'real.zip']);
  });
});
