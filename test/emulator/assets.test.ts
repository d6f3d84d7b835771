// Virtual assets and versions: endpoints and every row of the spec's
// "Statuses common to the asset and version endpoints" table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { IN_MEMORY_BODY_BYTES } from '../../src/emulator/multipart.js';
import { ACME, ACME_USER, Client, isProblem, withEmulator } from './helpers.js';

let emu: RunningEmulator;
let api: Client;
beforeAll(async () => {
  ({ emu } = await withEmulator({ config: ACME }));
  api = new Client(emu, 'acme', 'acme-all-key');
});
afterAll(() => emu.close());

const create = (assetId: string, extra: Record<string, unknown> = {}) =>
  api.post('/va', { assetId, assetName: `Asset ${assetId}`, assetType: '1001', createdBy: ACME_USER, ...extra });
const upload = (assetId: string, platform = 'ios', content = 'abc', fileName = 'a.zip', fields: Record<string, string | undefined> = {}) => {
  const form = new FormData();
  const all = { versionName: 'v', createdBy: ACME_USER, ...fields };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) form.set(key, value);
  if (fileName) form.set('assetFile', new Blob([content]), fileName);
  return api.post(`/va/${assetId}/versions?targetPlatformId=${platform}`, form);
};

describe('virtual asset endpoints', () => {
  it('creates with defaults and never echoes description', async () => {
    const res = await create('a1', { description: 'secret words' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ assetId: 'a1', secured: true, localCacheControl: false, localCacheMaxAge: 30, updatedBy: ACME_USER, active: true });
    expect(res.body).not.toHaveProperty('description');
    expect((await api.get('/va/a1')).body).not.toHaveProperty('description');
    const list = await api.get('/va');
    expect(list.body).toMatchObject({ totalResults: 1, pageNumber: 1, pageSize: 50 });
    expect(list.body.results[0]).not.toHaveProperty('description');
  });

  it('search has its own envelope and shows description in hits', async () => {
    const res = await api.get('/va/search?text=SECRET');
    expect(res.status).toBe(200);
    expect(res.body.results.total).toBe(1);
    expect(res.body.results.pageSize).toBe(50);
    expect(res.body.results.hits[0]).toMatchObject({ _id: 'a1', _score: null, _source: { assetId: 'a1', description: 'secret words', domain: 'acme' } });
    expect((await api.get('/va/search?text=nomatch')).body.results.hits).toEqual([]);
  });

  it('updates with PUT; assetType is required but cannot change', async () => {
    const res = await api.put('/va/a1', { updatedBy: 'admin@acme.test', assetType: '1002', assetName: 'Renamed', localCacheMaxAge: 60 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ assetName: 'Renamed', assetType: '1001', localCacheMaxAge: 60, updatedBy: 'admin@acme.test' });
  });

  it('pages lists and clamps pageSize to 500', async () => {
    for (const id of ['p1', 'p2', 'p3']) await create(id);
    const page = await api.get('/va?pageNumber=2&pageSize=2');
    expect(page.body).toMatchObject({ totalResults: 4, pageNumber: 2, pageSize: 2 });
    expect(page.body.results.map((a: any) => a.assetId)).toEqual(['p2', 'p3']);
    expect((await api.get('/va?pageSize=9999')).body.pageSize).toBe(500);
  });

  it('counts versions and deletes an empty asset with 204', async () => {
    await create('counted');
    await upload('counted', 'ios');
    await upload('counted', 'android');
    expect((await api.get('/va/counted/version-count')).body).toEqual({ counts: 2 });
    expect((await api.get('/va/counted/version-count?active=false')).body).toEqual({ counts: 0 });
    await create('empty');
    const del = await api.delete('/va/empty', { deletedBy: ACME_USER });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
  });
});

describe('versions', () => {
  it('generates per-platform ids, never reuses numbers, and formats size', async () => {
    await create('ver');
    const first = await upload('ver', 'ios', 'x'.repeat(512));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ versionId: 'IOS1', version: 1, targetPlatform: 'ios', assetType: '1001', secured: true, size: '512 B', fileName: 'a.zip', uploadStatus: 'Committed' });
    expect(first.body).not.toHaveProperty('url');
    expect((await upload('ver', 'android', 'y'.repeat(999))).body.versionId).toBe('AND1');
    expect((await upload('ver', 'ios')).body.versionId).toBe('IOS2');
    expect((await api.delete('/va/ver/versions/IOS2')).status).toBe(204);
    expect((await upload('ver', 'ios')).body.versionId).toBe('IOS3');
    expect((await api.get('/va/ver/versions/IOS1')).body.versionId).toBe('IOS1');
    expect((await api.get('/va/ver/versions')).body.totalResults).toBe(3);
  });
});

describe('errors: asset and version endpoints', () => {
  describe('400', () => {
    it('createdBy missing on create', async () => {
      expect(isProblem(await api.post('/va', { assetId: 'x', assetName: 'x', assetType: '1001' }), 400)).toBe(true);
    });
    it('updatedBy missing on update', async () => {
      expect(isProblem(await api.put('/va/a1', { assetType: '1001' }), 400)).toBe(true);
    });
    it('deletedBy missing on delete', async () => {
      expect(isProblem(await api.delete('/va/a1', {}), 400)).toBe(true);
    });
    it('localCacheMaxAge out of range', async () => {
      const res = await create('bad-age', { localCacheMaxAge: 0 });
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/localCacheMaxAge/);
      expect(isProblem(await create('bad-age', { localCacheMaxAge: 525601 }), 400)).toBe(true);
    });
    it('createdBy not an active admin or owner (viewer, inactive admin)', async () => {
      expect(isProblem(await create('by-viewer', { createdBy: 'viewer@acme.test' }), 400)).toBe(true);
      expect(isProblem(await create('by-former', { createdBy: 'former@acme.test' }), 400)).toBe(true);
    });
    it('deleting an asset that still has versions', async () => {
      await create('has-versions');
      await upload('has-versions');
      const res = await api.delete('/va/has-versions', { deletedBy: ACME_USER });
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/make sure the Virtual Asset contains no versions/);
    });
    it('version create without createdBy, or by a non-admin', async () => {
      await create('v400');
      expect(isProblem(await upload('v400', 'ios', 'abc', 'a.zip', { createdBy: undefined }), 400)).toBe(true);
      expect(isProblem(await upload('v400', 'ios', 'abc', 'a.zip', { createdBy: 'viewer@acme.test' }), 400)).toBe(true);
    });
    it('no file', async () => {
      expect(isProblem(await upload('v400', 'ios', 'abc', ''), 400)).toBe(true);
      expect(isProblem(await api.post('/va/v400/versions?targetPlatformId=ios', { versionName: 'v', createdBy: ACME_USER }), 400)).toBe(true);
    });
    it('file type not allowed for the asset type', async () => {
      const res = await upload('v400', 'ios', 'abc', 'photo.png');
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/\.png/);
    });
    it('deleting a version still LIVE or DEFAULT somewhere', async () => {
      await create('live-del');
      await upload('live-del', 'web');
      await api.post('/va/live-del/versions/WEB1/deploy?targetPlatformId=web', { envId: 'staging', intent: 'LIVE', createdBy: ACME_USER });
      const res = await api.delete('/va/live-del/versions/WEB1');
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/LIVE in staging; set it OFFLINE in all environments/);
      await api.post('/va/live-del/versions/WEB1/deploy?targetPlatformId=web', { envId: 'staging', intent: 'OFFLINE', updatedBy: ACME_USER });
      expect((await api.delete('/va/live-del/versions/WEB1')).status).toBe(204);
    });
  });

  describe('403', () => {
    it('missing apikey', async () => {
      expect(isProblem(await api.withKey(undefined).get('/va'), 403)).toBe(true);
      expect(isProblem(await api.withKey(undefined).post('/va', {}), 403)).toBe(true);
    });
    it('invalid apikey, or a key of another domain', async () => {
      expect(isProblem(await api.withKey('nope').get('/va/a1'), 403)).toBe(true);
      expect(isProblem(await api.withKey('other-key').get('/va/a1'), 403)).toBe(true);
      expect(isProblem(await api.withKey('acme-all-key', 'other').get('/va'), 403)).toBe(true);
    });
    it("the plan's upload-size limit", async () => {
      await create('big');
      const res = await upload('big', 'ios', 'z'.repeat(1001));
      expect(isProblem(res, 403)).toBe(true);
      expect((await upload('big', 'ios', 'z'.repeat(1000))).status).toBe(201);
    });
    it("the plan's storage limit", async () => {
      const quota = await withEmulator({ config: { ...ACME, domains: [{ ...ACME.domains[0]!, plan: { maxStorageBytes: 1500 } }] } });
      const q = new Client(quota.emu, 'acme', 'acme-all-key');
      try {
        await q.post('/va', { assetId: 's', assetName: 's', assetType: '1001', createdBy: ACME_USER });
        const form = (size: number) => {
          const f = new FormData();
          f.set('versionName', 'v');
          f.set('createdBy', ACME_USER);
          f.set('assetFile', new Blob(['s'.repeat(size)]), 's.zip');
          return f;
        };
        expect((await q.post('/va/s/versions?targetPlatformId=ios', form(1000))).status).toBe(201);
        expect(isProblem(await q.post('/va/s/versions?targetPlatformId=ios', form(600)), 403)).toBe(true);
        expect((await q.delete('/va/s/versions/IOS1')).status).toBe(204);
        expect((await q.post('/va/s/versions?targetPlatformId=ios', form(600))).status).toBe(201);
      } finally {
        await quota.emu.close();
      }
    });
  });

  describe('404', () => {
    it('asset not found, the title names it', async () => {
      const res = await api.get('/va/ghost');
      expect(isProblem(res, 404)).toBe(true);
      expect(res.body.title).toMatch(/ghost.*not found/);
      expect(isProblem(await api.put('/va/ghost', { updatedBy: ACME_USER, assetType: '1001' }), 404)).toBe(true);
      expect(isProblem(await api.delete('/va/ghost', { deletedBy: ACME_USER }), 404)).toBe(true);
      expect(isProblem(await api.get('/va/ghost/asset-urls'), 404)).toBe(true);
      expect(isProblem(await api.get('/va/ghost/version-count'), 404)).toBe(true);
      expect(isProblem(await api.get('/va/ghost/versions'), 404)).toBe(true);
      expect(isProblem(await upload('ghost'), 404)).toBe(true);
    });
    it('assetType not a known active type (create and update)', async () => {
      expect(isProblem(await create('retired', { assetType: '1003' }), 404)).toBe(true);
      expect(isProblem(await create('unknown', { assetType: '4242' }), 404)).toBe(true);
      expect(isProblem(await api.put('/va/a1', { updatedBy: ACME_USER, assetType: '4242' }), 404)).toBe(true);
    });
    it('targetPlatformId unknown or missing', async () => {
      expect(isProblem(await upload('a1', 'tv'), 404)).toBe(true);
      const form = new FormData();
      form.set('versionName', 'v');
      expect(isProblem(await api.post('/va/a1/versions', form), 404)).toBe(true);
    });
    it('version not found under the asset', async () => {
      expect(isProblem(await api.get('/va/a1/versions/IOS99'), 404)).toBe(true);
      expect(isProblem(await api.delete('/va/a1/versions/IOS99'), 404)).toBe(true);
    });
    it('version paths need an active asset', async () => {
      await create('inactive');
      await api.put('/va/inactive', { updatedBy: ACME_USER, assetType: '1001', active: false });
      expect(isProblem(await api.get('/va/inactive/versions'), 404)).toBe(true);
    });
  });

  it('409: assetId already in use', async () => {
    expect(isProblem(await create('a1'), 409)).toBe(true);
  });

  it('500: unexpected error (the store fails)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-500-'));
    const broken = await withEmulator({ dataDir });
    try {
      await broken.client.createAsset('x');
      await rm(join(dataDir, 'blobs'), { recursive: true });
      // Streamed (over the in-memory size), so its file is renamed into the missing blobs/: a small
      // upload's bytes go to the journal, which still works.
      expect(isProblem(await broken.client.uploadVersion('x', 'ios', new Uint8Array(IN_MEMORY_BODY_BYTES + 1)), 500)).toBe(true);
    } finally {
      await broken.emu.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
