// Collections, items and collection deployment: endpoints and every row of
// the spec's "Collections", "Collection items" and "Collection deployment"
// error tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ACME, ACME_USER, Client, isProblem, withEmulator } from './helpers.js';

let emu: RunningEmulator;
let api: Client;
beforeAll(async () => {
  ({ emu } = await withEmulator({ config: ACME }));
  api = new Client(emu, 'acme', 'acme-all-key');
});
afterAll(() => emu.close());

const U = ACME_USER;
let counter = 0;
async function fresh(extra: Record<string, unknown> = {}): Promise<string> {
  const id = `col-${++counter}`;
  const res = await api.post('/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: U, ...extra });
  expect(res.status, res.text).toBe(201);
  return id;
}
function item(collectionId: string, fields: Record<string, string | undefined> = {}, content = '{"x":1}', fileName: string | undefined = 'data.json', client = api) {
  const form = new FormData();
  const all = { assetItemName: 'data', assetType: '1001', createdBy: U, ...fields };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) form.set(key, value);
  if (fileName) form.set('assetFile', new Blob([content], { type: 'application/json' }), fileName);
  return client.post(`/vc/${collectionId}/items`, form);
}
const goLive = (id: string, envId = 'dev') => api.post(`/vc/${id}/deployments`, { state: 'LIVE', createdBy: U, envId });

describe('collection endpoints', () => {
  it('creates with defaults, never returns secured, lists soft-deleted ones', async () => {
    const res = await api.post('/vc', { collectionId: 'c-main', collectionName: 'Main', allowedAssetTypes: ['1001', '1002'], createdBy: U, secured: false, description: 'd' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ collectionId: 'c-main', domainId: 'acme', maxAssets: 5000, editable: true, deployable: true, assetItems: [], targetPlatform: 'generic', deleted: false, description: 'd', updatedBy: U });
    expect(res.body).not.toHaveProperty('secured');
    expect((await api.get('/vc/c-main')).body).not.toHaveProperty('secured');
    const gone = await fresh();
    await api.delete(`/vc/${gone}`, { deletedBy: U });
    const list = await api.get('/vc?pageSize=500');
    expect(list.body.results.find((c: any) => c.collectionId === gone)).toMatchObject({ deleted: true });
    expect(list.body.results.every((c: any) => !('secured' in c))).toBe(true);
  });

  it('returns every field the spec lists, null when unset', async () => {
    const id = await fresh();
    const fields = ['collectionId', 'domainId', 'collectionName', 'description', 'allowedAssetTypes', 'maxAssets', 'editable', 'deployable', 'anchorAsset', 'assetItems', 'targetPlatform', 'createdBy', 'updatedBy', 'deleted', 'deletedAt', 'localCacheControl', 'localCacheMaxAge', 'createdAt', 'updatedAt'];
    const got = (await api.get(`/vc/${id}`)).body;
    expect(Object.keys(got).sort()).toEqual([...fields].sort());
    expect(got).toMatchObject({ description: null, anchorAsset: null, deletedAt: null });
  });

  it('updates with PATCH; delete, restore and purge answer with messages', async () => {
    const id = await fresh();
    const patched = await api.patch(`/vc/${id}`, { collectionName: 'Renamed', maxAssets: 10, updatedBy: 'admin@acme.test' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ collectionName: 'Renamed', maxAssets: 10, updatedBy: 'admin@acme.test' });
    expect((await api.patch(`/vc/${id}`, { description: 'no updatedBy' })).status).toBe(200);
    expect((await api.delete(`/vc/${id}`, { deletedBy: U })).body).toEqual({ message: `Asset collection ${id} has been deleted.` });
    expect((await api.post(`/vc/${id}/restore`, { createdBy: U })).body).toEqual({ message: `Asset collection ${id} has been restored.` });
    await api.delete(`/vc/${id}`, { deletedBy: U });
    expect((await api.post(`/vc/${id}/purge`, { createdBy: U })).body).toEqual({ message: `Asset collection ${id} has been purged.` });
    expect(isProblem(await api.get(`/vc/${id}`), 400)).toBe(true);
  });

  it('purge removes items whose only parent it was and its deployments', async () => {
    const id = await fresh();
    const added = await item(id);
    await goLive(id);
    await api.post(`/vc/${id}/deployments`, { state: 'OFFLINE', updatedBy: U, envId: 'dev' });
    await api.delete(`/vc/${id}`, { deletedBy: U });
    expect((await api.post(`/vc/${id}/purge`, { createdBy: U })).status).toBe(200);
    // A new collection with the same id starts clean.
    await api.post('/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: U });
    expect(isProblem(await api.get(`/vc/${id}/items/${added.body.assetItemId}`), 404)).toBe(true);
    expect(isProblem(await api.get(`/vc/${id}/deployments`), 404)).toBe(true);
  });
});

describe('errors: collections', () => {
  describe('400', () => {
    it('missing or invalid field', async () => {
      expect(isProblem(await api.post('/vc', { collectionId: 'x', allowedAssetTypes: ['1001'], createdBy: U }), 400)).toBe(true);
      expect(isProblem(await api.post('/vc', { collectionId: 'bad id!', collectionName: 'x', allowedAssetTypes: ['1001'], createdBy: U }), 400)).toBe(true);
      expect(isProblem(await api.post('/vc', { collectionId: 'x', collectionName: 'x', allowedAssetTypes: [], createdBy: U }), 400)).toBe(true);
      expect(isProblem(await api.post('/vc', { collectionId: 'x', collectionName: 'x', allowedAssetTypes: ['4242'], createdBy: U }), 400)).toBe(true);
      expect(isProblem(await api.post('/vc', { collectionId: 'x', collectionName: 'x', allowedAssetTypes: ['1001'], createdBy: U, maxAssets: 5001 }), 400)).toBe(true);
      expect(isProblem(await api.post('/vc', { collectionId: 'x', collectionName: 'x', allowedAssetTypes: ['1001'] }), 400)).toBe(true);
      expect(isProblem(await api.post('/vc', { collectionId: 'x', collectionName: 'x', allowedAssetTypes: ['1001'], createdBy: 'viewer@acme.test' }), 400)).toBe(true);
    });
    it('an immutable field sent on update', async () => {
      const id = await fresh();
      expect(isProblem(await api.patch(`/vc/${id}`, { allowedAssetTypes: ['1002'], updatedBy: U }), 400)).toBe(true);
      expect(isProblem(await api.patch(`/vc/${id}`, { targetPlatform: 'ios', updatedBy: U }), 400)).toBe(true);
    });
    it('assetItems or deleted in an update', async () => {
      const id = await fresh();
      expect(isProblem(await api.patch(`/vc/${id}`, { assetItems: [], updatedBy: U }), 400)).toBe(true);
      expect(isProblem(await api.patch(`/vc/${id}`, { deleted: true, updatedBy: U }), 400)).toBe(true);
    });
    it('maxAssets below the current item count', async () => {
      const id = await fresh();
      await item(id);
      await item(id);
      expect(isProblem(await api.patch(`/vc/${id}`, { maxAssets: 1, updatedBy: U }), 400)).toBe(true);
    });
    it('collection not found on GET, with "not found" in the title', async () => {
      const res = await api.get('/vc/ghost');
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/not found/);
    });
    it('already deleted (delete); not deleted (restore, purge)', async () => {
      const id = await fresh();
      expect(isProblem(await api.post(`/vc/${id}/restore`, { createdBy: U }), 400)).toBe(true);
      expect(isProblem(await api.post(`/vc/${id}/purge`, { createdBy: U }), 400)).toBe(true);
      await api.delete(`/vc/${id}`, { deletedBy: U });
      expect(isProblem(await api.delete(`/vc/${id}`, { deletedBy: U }), 400)).toBe(true);
    });
    it('still LIVE (delete), title says to make it OFFLINE first', async () => {
      const id = await fresh();
      await item(id);
      await goLive(id, 'prod');
      const res = await api.delete(`/vc/${id}`, { deletedBy: U });
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/LIVE.*OFFLINE first/);
    });
  });
  it('403: missing or invalid apikey', async () => {
    expect(isProblem(await api.withKey(undefined).get('/vc'), 403)).toBe(true);
    expect(isProblem(await api.withKey('bogus').post('/vc', {}), 403)).toBe(true);
  });
  it('404: collectionId not found on update, delete, restore and purge', async () => {
    expect(isProblem(await api.patch('/vc/ghost', { collectionName: 'x', updatedBy: U }), 404)).toBe(true);
    expect(isProblem(await api.delete('/vc/ghost', { deletedBy: U }), 404)).toBe(true);
    expect(isProblem(await api.post('/vc/ghost/restore', { createdBy: U }), 404)).toBe(true);
    expect(isProblem(await api.post('/vc/ghost/purge', { createdBy: U }), 404)).toBe(true);
  });
  it('409: collectionId already in use', async () => {
    const id = await fresh();
    expect(isProblem(await api.post('/vc', { collectionId: id, collectionName: 'x', allowedAssetTypes: ['1001'], createdBy: U }), 409)).toBe(true);
  });
});

describe('items', () => {
  it('uploads, gets, lists with date filters, removes; a shared item stays elsewhere', async () => {
    const id = await fresh();
    const res = await item(id, { assetItemName: 'config' }, '{"a":2}');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ assetItemName: 'config', assetType: '1001', mimetype: 'application/json', size: 7, fileName: 'data.json', parentCollections: [id], domain: 'acme', uploadStatus: 'Committed' });
    const itemId = res.body.assetItemId;
    expect((await api.get(`/vc/${id}/items/${itemId}`)).body.assetItemId).toBe(itemId);
    expect((await api.get(`/vc/${id}`)).body.assetItems).toEqual([itemId]);
    expect((await api.get(`/vc/${id}/items`)).body.totalResults).toBe(1);
    expect((await api.get(`/vc/${id}/items?startDate=2999-01-01`)).body.totalResults).toBe(0);
    expect((await api.get(`/vc/${id}/items?endDate=2000-01-01`)).body.totalResults).toBe(0);
    expect((await api.get(`/vc/${id}/items?startDate=2000-01-01&endDate=2999-01-01`)).body.totalResults).toBe(1);
    const other = await item(id, { assetType: '9999' }, 'other', 'notes.txt');
    expect(other.status).toBe(201);
    const removed = await api.delete(`/vc/${id}/items/${itemId}`, { deletedBy: U });
    expect(removed.body).toEqual({ message: 'Asset Item removed successfully' });
    expect(isProblem(await api.get(`/vc/${id}/items/${itemId}`), 404)).toBe(true);
  });
});

describe('errors: items', () => {
  describe('400', () => {
    it('collectionId missing or nonexistent', async () => {
      expect(isProblem(await item('ghost'), 400)).toBe(true);
      expect(isProblem(await api.get('/vc/ghost/items'), 400)).toBe(true);
      expect(isProblem(await api.get('/vc/ghost/items/item-000001'), 400)).toBe(true);
      expect(isProblem(await api.delete('/vc/ghost/items/item-000001', { deletedBy: U }), 400)).toBe(true);
    });
    it('collection not editable', async () => {
      const id = await fresh({ editable: false });
      expect(isProblem(await item(id), 400)).toBe(true);
    });
    it('collection not editable: removing an item is refused too', async () => {
      const id = await fresh();
      const added = await item(id);
      expect(added.status).toBe(201);
      expect((await api.patch(`/vc/${id}`, { editable: false, updatedBy: U })).status).toBe(200);
      const res = await api.delete(`/vc/${id}/items/${added.body.assetItemId}`, { deletedBy: U });
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/not editable/);
    });
    it('item limit reached', async () => {
      const id = await fresh({ maxAssets: 1 });
      expect((await item(id)).status).toBe(201);
      const res = await item(id);
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/maxAssets/);
    });
    it('assetType missing or not allowed', async () => {
      const id = await fresh();
      expect(isProblem(await item(id, { assetType: undefined }), 400)).toBe(true);
      expect(isProblem(await item(id, { assetType: '1002' }, 'png', 'a.png'), 400)).toBe(true);
    });
    it('no file, or file type not allowed', async () => {
      const id = await fresh();
      expect(isProblem(await item(id, {}, '', ''), 400)).toBe(true);
      expect(isProblem(await item(id, {}, 'exe', 'tool.exe'), 400)).toBe(true);
    });
    it('createdBy or deletedBy missing', async () => {
      const id = await fresh();
      expect(isProblem(await item(id, { createdBy: undefined }), 400)).toBe(true);
      const ok = await item(id);
      expect(isProblem(await api.delete(`/vc/${id}/items/${ok.body.assetItemId}`, {}), 400)).toBe(true);
    });
  });
  describe('403', () => {
    it('missing or invalid apikey', async () => {
      const id = await fresh();
      expect(isProblem(await item(id, {}, 'x', 'x.json', api.withKey(undefined)), 403)).toBe(true);
      expect(isProblem(await api.withKey('bogus').get(`/vc/${id}/items`), 403)).toBe(true);
    });
    it("the plan's upload-size limit", async () => {
      const id = await fresh();
      expect(isProblem(await item(id, {}, 'x'.repeat(1001)), 403)).toBe(true);
      expect((await api.get(`/vc/${id}/items`)).body.totalResults).toBe(0);
    });
  });
  it('404: item missing or not a member of the collection', async () => {
    const a = await fresh();
    const b = await fresh();
    const inA = await item(a);
    expect(isProblem(await api.get(`/vc/${a}/items/item-999999`), 404)).toBe(true);
    expect(isProblem(await api.get(`/vc/${b}/items/${inA.body.assetItemId}`), 404)).toBe(true);
    expect(isProblem(await api.delete(`/vc/${b}/items/${inA.body.assetItemId}`, { deletedBy: U }), 404)).toBe(true);
  });
});

describe('collection deployment', () => {
  it('LIVE gives an absolute downloadUrl; OFFLINE a message; status and per-env URL; reconcile; undeploy', async () => {
    const id = await fresh();
    const it1 = (await item(id)).body.assetItemId;
    const live = await goLive(id, 'staging');
    expect(live.status).toBe(201);
    expect(live.body.downloadUrl).toBe(`${emu.deliveryUrl}/api/vi/acme/vc/${id}/staging`);
    expect((await api.get(`/vc/${id}/deployments/staging`)).body).toEqual({ downloadUrl: live.body.downloadUrl });
    const status = await api.get(`/vc/${id}/deployments`);
    expect(status.body.collectionId).toBe(id);
    expect(status.body.items).toContainEqual({ envId: 'staging', live: [it1], offline: [], undeployed: [] });
    const re = await api.post(`/vc/${id}/deployments?reconcile=true`, { createdBy: U });
    expect(re.status).toBe(200);
    expect(re.body.message).toMatch(new RegExp(`${id}.*1 environment`));
    const off = await api.post(`/vc/${id}/deployments`, { state: 'OFFLINE', updatedBy: U, envId: 'staging' });
    expect(off.status).toBe(201);
    expect(off.body).toEqual({ message: 'Asset collection is now OFFLINE.' });
    expect((await api.post(`/vc/${id}/deployments`, { state: 'LIVE', createdBy: U, envId: 'staging' })).status).toBe(201);
    const undeployed = await api.delete(`/vc/${id}/deployments/staging`, { updatedBy: U });
    expect(undeployed.body).toEqual({ message: `Asset collection ${id} has been undeployed.` });
  });

  it('an environment-scoped key deploys to its own environment without envId', async () => {
    const id = await fresh();
    await item(id);
    const scoped = api.withKey('acme-prod-key');
    const res = await scoped.post(`/vc/${id}/deployments`, { state: 'LIVE', createdBy: U });
    expect(res.status).toBe(201);
    expect(res.body.downloadUrl).toMatch(/\/prod$/);
  });
});

describe('errors: collection deployment', () => {
  describe('400', () => {
    it('collectionId not found (deploy, URL, undeploy, reconcile)', async () => {
      expect(isProblem(await goLive('ghost'), 400)).toBe(true);
      expect(isProblem(await api.get('/vc/ghost/deployments/dev'), 400)).toBe(true);
      expect(isProblem(await api.delete('/vc/ghost/deployments/dev', { updatedBy: U }), 400)).toBe(true);
      expect(isProblem(await api.post('/vc/ghost/deployments?reconcile=true', { createdBy: U }), 400)).toBe(true);
    });
    it('collection not deployable, or without items', async () => {
      const empty = await fresh();
      expect(isProblem(await goLive(empty), 400)).toBe(true);
      const locked = await fresh({ deployable: false });
      await item(locked);
      expect(isProblem(await goLive(locked), 400)).toBe(true);
    });
    it('deploy or offline from a state that does not allow it', async () => {
      const id = await fresh();
      await item(id);
      expect(isProblem(await api.post(`/vc/${id}/deployments`, { state: 'OFFLINE', updatedBy: U, envId: 'dev' }), 400)).toBe(true);
      await goLive(id);
      expect(isProblem(await goLive(id), 400)).toBe(true);
      expect(isProblem(await api.post(`/vc/${id}/deployments`, { state: 'PAUSED', createdBy: U, envId: 'dev' }), 400)).toBe(true);
    });
    it('reconcile while not deployed anywhere', async () => {
      const id = await fresh();
      await item(id);
      expect(isProblem(await api.post(`/vc/${id}/deployments?reconcile=true`, { createdBy: U }), 400)).toBe(true);
    });
    it('undeploy where it is not LIVE', async () => {
      const id = await fresh();
      await item(id);
      expect(isProblem(await api.delete(`/vc/${id}/deployments/dev`, { updatedBy: U }), 400)).toBe(true);
    });
    it('no deployed URL for the collection and environment', async () => {
      const id = await fresh();
      await item(id);
      await goLive(id);
      expect(isProblem(await api.get(`/vc/${id}/deployments/prod`), 400)).toBe(true);
      await api.post(`/vc/${id}/deployments`, { state: 'OFFLINE', updatedBy: U, envId: 'dev' });
      expect(isProblem(await api.get(`/vc/${id}/deployments/dev`), 400)).toBe(true);
    });
  });
  describe('403', () => {
    it('missing or invalid apikey', async () => {
      expect(isProblem(await api.withKey(undefined).get('/vc/x/deployments'), 403)).toBe(true);
    });
    it("the key's environment differs from the requested one", async () => {
      const id = await fresh();
      await item(id);
      const res = await api.withKey('acme-prod-key').post(`/vc/${id}/deployments`, { state: 'LIVE', createdBy: U, envId: 'dev' });
      expect(isProblem(res, 403)).toBe(true);
    });
  });
  it('404: GET status when the collection is missing or never deployed', async () => {
    expect(isProblem(await api.get('/vc/ghost/deployments'), 404)).toBe(true);
    const id = await fresh();
    expect(isProblem(await api.get(`/vc/${id}/deployments`), 404)).toBe(true);
  });
  it('500: createdBy missing for LIVE, updatedBy missing for OFFLINE', async () => {
    const id = await fresh();
    await item(id);
    expect(isProblem(await api.post(`/vc/${id}/deployments`, { state: 'LIVE', envId: 'dev' }), 500)).toBe(true);
    await goLive(id);
    expect(isProblem(await api.post(`/vc/${id}/deployments`, { state: 'OFFLINE', envId: 'dev' }), 500)).toBe(true);
  });
  it('500: the collection is already mid-deployment in that environment (a held deployment)', async () => {
    const id = await fresh();
    await item(id);
    const hold = emu.holdDeployments();
    const first = goLive(id, 'dev');
    await hold.held();
    expect(isProblem(await goLive(id, 'dev'), 500)).toBe(true);
    // Another environment is not blocked: it reaches the hold too.
    const other = goLive(id, 'staging');
    await hold.held(2);
    hold();
    expect((await first).status).toBe(201);
    expect((await other).status).toBe(201);
  });
});
