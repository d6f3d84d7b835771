// --data-dir: metadata and files survive a restart; without it, the temp
// folder goes away on close.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_API_KEY, DEMO_USER, withEmulator } from './helpers.js';

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
    const { emu, client } = await withEmulator();
    await client.createAsset('temp');
    await client.uploadVersion('temp', 'ios', 'x');
    const before = (await readdir(tmpdir())).filter((name) => name.startsWith('ahs-emulator-'));
    await emu.close();
    const after = (await readdir(tmpdir())).filter((name) => name.startsWith('ahs-emulator-'));
    expect(after.length).toBe(before.length - 1);
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

function isMissing(res: { status: number }): boolean {
  return res.status === 404;
}
