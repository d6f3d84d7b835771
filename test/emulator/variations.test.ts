// Variations (emulator.md): with every one on, the emulator still obeys the
// spec but chooses otherwise wherever the spec is silent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as rejections from '../../src/rules/rejections.js';
import { ALL_VARIATIONS, ALTERNATE_TITLES, DEMO_FIXTURE, OTHER_VARIATIONS, type RunningEmulator } from '../../src/emulator/index.js';
import { Client, DEMO_API_KEY, DEMO_USER, isProblem, withEmulator } from './helpers.js';

let emu: RunningEmulator;
let api: Client;
beforeAll(async () => {
  ({ emu, client: api } = await withEmulator({ variation: ALL_VARIATIONS }));
});
afterAll(() => emu.close());

const U = DEMO_USER;

describe('every variation on', () => {
  it('caps the page size silently; the envelope says the size used', async () => {
    for (let i = 0; i < 27; i++) await api.createAsset(`page-${String(i).padStart(2, '0')}`);
    const first = await api.get('/va?pageSize=100');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ totalResults: 27, pageNumber: 1, pageSize: 20 });
    expect(first.body.results).toHaveLength(20);
    const second = await api.get('/va?pageSize=100&pageNumber=2');
    expect(second.body.results).toHaveLength(7);
  });

  it('starts version sequences elsewhere, sizes in binary units, versions without fileName', async () => {
    await api.createAsset('seq');
    const created = await api.uploadVersion('seq', 'android', new Uint8Array(1_100_000));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ versionId: 'AND1001', version: 1001, size: '1.05 MiB' });
    expect(created.body).not.toHaveProperty('fileName');
    expect((await api.uploadVersion('seq', 'android')).body.versionId).toBe('AND1002');
    expect((await api.get('/va/seq/versions/AND1001')).body).not.toHaveProperty('fileName');
  });

  it('adds fields the spec does not list to objects and envelopes', async () => {
    await api.createAsset('extra');
    const list = await api.get('/va?pageSize=1');
    expect(list.body).toHaveProperty('requestId');
    expect(list.body.results[0]).toHaveProperty('revision');
    expect((await api.get('/va/extra')).body).toHaveProperty('_links');
  });

  it('words every error title otherwise; the body keeps the four fields', async () => {
    const missing = await api.get('/va/nope');
    expect(isProblem(missing, 404)).toBe(true);
    expect(missing.body.title).not.toMatch(/not found|does not exist/i);
    const collection = await api.get('/vc/nope');
    expect(isProblem(collection, 400)).toBe(true);
    expect(collection.body.title).not.toMatch(/not found|does not exist/i);
  });

  it('answers an undeploy that meets a running deployment with a plain-text 500', async () => {
    await api.createAsset('busy');
    await api.uploadVersion('busy', 'ios');
    const hold = emu.holdDeployments();
    const deploying = api.deploy('busy', 'IOS1001', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: U });
    await hold.held();
    const undeploy = await api.post('/va/busy/undeploy', { envId: 'dev', targetPlatforms: ['ios'] });
    expect(undeploy.status).toBe(500);
    expect(undeploy.headers.get('content-type')).toMatch(/^text\/plain/);
    hold();
    expect((await deploying).status).toBe(201);
  });

  it('serves the delivery network on its own port under a path prefix', async () => {
    expect(emu.deliveryUrl).not.toBe(emu.baseUrl);
    expect(new URL(emu.deliveryUrl).pathname).toBe('/cdn');
    await api.createCollection('cdn-c');
    const item = await api.uploadItem('cdn-c', '{"served":"apart"}');
    const live = await api.post('/vc/cdn-c/deployments', { state: 'LIVE', createdBy: U, envId: 'dev' });
    expect(live.body.downloadUrl.startsWith(`${emu.deliveryUrl}/api/vi/`)).toBe(true);
    const doc = await (await fetch(live.body.downloadUrl, { headers: { apikey: DEMO_API_KEY } })).json();
    expect(doc.assetItemUrls[0].assetItemId).toBe(item.body.assetItemId);
    const file = await fetch(`${emu.deliveryUrl}/api/vi${doc.assetItemUrls[0].downloadUrl}`, { headers: { apikey: DEMO_API_KEY } });
    expect(await file.text()).toBe('{"served":"apart"}');
    // Not on the API's port, nor without the prefix.
    expect((await fetch(`${emu.baseUrl}/api/vi${doc.downloadUrl}`, { headers: { apikey: DEMO_API_KEY } })).status).toBe(404);
    expect((await fetch(`${new URL(emu.deliveryUrl).origin}/api/vi${doc.downloadUrl}`, { headers: { apikey: DEMO_API_KEY } })).status).toBe(404);
  });
});

describe('every variation on: a version\'s own asset-urls', () => {
  it('leave its OFFLINE record out, as the asset-wide listing does; the state filter shows it', async () => {
    await api.createAsset('off');
    await api.uploadVersion('off', 'ios');
    expect((await api.deploy('off', 'IOS1001', 'ios', { envId: 'dev', intent: 'OFFLINE', createdBy: U })).status).toBe(201);
    expect((await api.get('/va/off/versions/IOS1001/asset-urls?envId=dev')).body).toMatchObject({ totalResults: 0, results: [] });
    expect((await api.get('/va/off/asset-urls')).body.results).toEqual([]);
    expect((await api.get('/va/off/asset-urls?state=OFFLINE')).body.results).toMatchObject([{ versionId: 'IOS1001', state: 'OFFLINE', envId: 'dev' }]);
    expect((await api.deploy('off', 'IOS1001', 'ios', { envId: 'dev', intent: 'LIVE', updatedBy: U })).status).toBe(201);
    expect((await api.get('/va/off/versions/IOS1001/asset-urls?envId=dev')).body.results).toMatchObject([{ versionId: 'IOS1001', state: 'LIVE' }]);
  });
});

describe('the other variations: relative download URLs under a delivery prefix', () => {
  it('give every download URL relative to the delivery URL (/api/vi/...), served there only', async () => {
    const other = await withEmulator({ variation: OTHER_VARIATIONS });
    try {
      const { emu: e, client } = other;
      expect(new URL(e.deliveryUrl).pathname).toBe('/assets');
      await client.createCollection('rel-c');
      await client.uploadItem('rel-c', '{"relative":true}');
      const live = await client.post('/vc/rel-c/deployments', { state: 'LIVE', createdBy: U, envId: 'dev' });
      expect(live.body.downloadUrl).toBe('/api/vi/demo/vc/rel-c/dev');
      expect((await client.get('/vc/rel-c/deployments/dev')).body.downloadUrl).toBe('/api/vi/demo/vc/rel-c/dev');
      const doc = await (await fetch(`${e.deliveryUrl}${live.body.downloadUrl}`, { headers: { apikey: DEMO_API_KEY } })).json();
      const file = await fetch(`${e.deliveryUrl}/api/vi${doc.assetItemUrls[0].downloadUrl}`, { headers: { apikey: DEMO_API_KEY } });
      expect(await file.text()).toBe('{"relative":true}');
      await client.createAsset('rel-a');
      await client.uploadVersion('rel-a', 'ios');
      expect((await client.deploy('rel-a', 'IOS1', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: U })).status).toBe(201);
      const [entry] = (await client.get('/va/rel-a/asset-urls')).body.results;
      expect(entry.downloadUrl).toMatch(/^\/api\/vi\/demo\/va\/rel-a\/ios\/dev\/IOS1\//);
      expect((await fetch(`${e.deliveryUrl}${entry.downloadUrl}`, { headers: { apikey: DEMO_API_KEY } })).status).toBe(200);
    } finally {
      await other.emu.close();
    }
  });
});

describe('the variation block of a fixture', () => {
  it('switches one choice, the rest stay the defaults', async () => {
    const one = await withEmulator({ config: { ...DEMO_FIXTURE, variation: { maxPageSize: 5 } } });
    try {
      for (let i = 0; i < 6; i++) await one.client.createAsset(`f${i}`);
      expect((await one.client.get('/va?pageSize=50')).body).toMatchObject({ pageSize: 5, totalResults: 6 });
      expect((await one.client.uploadVersion('f0', 'ios')).body).toMatchObject({ versionId: 'IOS1', fileName: 'bundle.zip', size: '5 B' });
      expect(one.emu.deliveryUrl).toBe(one.emu.baseUrl);
    } finally {
      await one.emu.close();
    }
  });
});

describe('the alternate wording', () => {
  const names = Object.keys(rejections).filter((name) => typeof (rejections as Record<string, unknown>)[name] === 'function');

  it('covers every rejection of the rules', () => {
    expect(names.filter((name) => !(name in ALTERNATE_TITLES))).toEqual([]);
  });

  it('shares none of the default key phrases', () => {
    const phrases = /not found|does not exist|already|in use|mid-deployment|pointer moved|retry|not deployed|is deleted|not editable|not deployable|has no items|item limit/i;
    expect(Object.entries(ALTERNATE_TITLES).filter(([, title]) => phrases.test(title))).toEqual([]);
  });
});
