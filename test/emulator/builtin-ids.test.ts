// Ids named like object built-ins (`constructor`, `__proto__`, ...) are
// ordinary ids (emulator.md): every lookup is own-property only. Each
// request with such an id is answered as it is with an ordinary unknown id,
// and each can be created, read, deployed and delivered like any other,
// also as a domain, environment or platform of the fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { answer, Client, DEMO_API_KEY, DEMO_USER, withEmulator, type Answer } from './helpers.js';

const NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];
const ORDINARY = 'plain-unknown';

let emu: RunningEmulator;
let client: Client;
beforeAll(async () => {
  ({ emu, client } = await withEmulator());
  await client.createAsset('known');
  const version = await client.uploadVersion('known', 'ios');
  expect(version.status).toBe(201);
  await client.createCollection('bag');
  expect((await client.uploadItem('bag')).status).toBe(201);
  expect((await client.post('/vc/bag/deployments', { envId: 'dev', state: 'LIVE', createdBy: DEMO_USER })).status).toBeLessThan(300);
});
afterAll(() => emu.close());

/** The same request with `id` where the template says ID. */
type Probe = [label: string, method: string, path: string, body?: (id: string) => unknown];
const UNKNOWN_ID_PROBES: Probe[] = [
  ['GET asset', 'GET', '/api/v2/demo/va/ID'],
  ['PUT asset', 'PUT', '/api/v2/demo/va/ID', () => ({ assetType: '1001', updatedBy: DEMO_USER })],
  ['DELETE asset', 'DELETE', '/api/v2/demo/va/ID', () => ({ deletedBy: DEMO_USER })],
  ['asset-urls', 'GET', '/api/v2/demo/va/ID/asset-urls'],
  ['version-count', 'GET', '/api/v2/demo/va/ID/version-count'],
  ['versions of an asset', 'GET', '/api/v2/demo/va/ID/versions'],
  ['GET version', 'GET', '/api/v2/demo/va/known/versions/ID'],
  ['DELETE version', 'DELETE', '/api/v2/demo/va/known/versions/ID'],
  ['version asset-urls', 'GET', '/api/v2/demo/va/known/versions/ID/asset-urls'],
  ['deploy version', 'POST', '/api/v2/demo/va/known/versions/ID/deploy?targetPlatformId=ios', () => ({ envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER })],
  ['deploy to env', 'POST', '/api/v2/demo/va/known/versions/IOS1/deploy?targetPlatformId=ios', (id) => ({ envId: id, intent: 'LIVE', createdBy: DEMO_USER })],
  ['deploy to platform', 'POST', '/api/v2/demo/va/known/versions/IOS1/deploy?targetPlatformId=ID', () => ({ envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER })],
  ['promote naming a current version', 'POST', '/api/v2/demo/va/known/versions/IOS1/deploy?targetPlatformId=ios', (id) => ({ envId: 'staging', intent: 'DEFAULT', updatedBy: DEMO_USER, currentVersionId: id })],
  ['version asset-urls of env', 'GET', '/api/v2/demo/va/known/versions/IOS1/asset-urls?envId=ID'],
  ['undeploy env', 'POST', '/api/v2/demo/va/known/undeploy', (id) => ({ envId: id, targetPlatforms: ['ios'] })],
  ['GET collection', 'GET', '/api/v2/demo/vc/ID'],
  ['PATCH collection', 'PATCH', '/api/v2/demo/vc/ID', () => ({ description: 'x' })],
  ['DELETE collection', 'DELETE', '/api/v2/demo/vc/ID', () => ({ deletedBy: DEMO_USER })],
  ['restore collection', 'POST', '/api/v2/demo/vc/ID/restore', () => ({ createdBy: DEMO_USER })],
  ['purge collection', 'POST', '/api/v2/demo/vc/ID/purge', () => ({ createdBy: DEMO_USER })],
  ['items of a collection', 'GET', '/api/v2/demo/vc/ID/items'],
  ['deployments of a collection', 'GET', '/api/v2/demo/vc/ID/deployments'],
  ['deploy collection', 'POST', '/api/v2/demo/vc/ID/deployments', () => ({ envId: 'dev', state: 'LIVE', createdBy: DEMO_USER })],
  ['deploy collection to env', 'POST', '/api/v2/demo/vc/bag/deployments', (id) => ({ envId: id, state: 'LIVE', createdBy: DEMO_USER })],
  ['deployed URL of env', 'GET', '/api/v2/demo/vc/bag/deployments/ID'],
  ['undeploy collection env', 'DELETE', '/api/v2/demo/vc/bag/deployments/ID', () => ({ updatedBy: DEMO_USER })],
  ['GET item', 'GET', '/api/v2/demo/vc/bag/items/ID'],
  ['DELETE item', 'DELETE', '/api/v2/demo/vc/bag/items/ID', () => ({ deletedBy: DEMO_USER })],
  ['domain', 'GET', '/api/v2/ID/va'],
  ['delivery domain', 'GET', '/api/vi/ID/vc/bag/dev'],
  ['delivery collection', 'GET', '/api/vi/demo/vc/ID/dev'],
  ['delivery env', 'GET', '/api/vi/demo/vc/bag/ID'],
  ['delivery item', 'GET', '/api/vi/demo/vc/bag/dev/items/ID/file.json'],
  ['delivery version', 'GET', '/api/vi/demo/va/known/ios/dev/ID/bundle.zip'],
  ['delivery platform', 'GET', '/api/vi/demo/va/known/ID/dev/IOS1/bundle.zip'],
  ['delivery default of env', 'GET', '/api/vi/demo/va/known/ios/ID/default'],
];

async function send(method: string, template: string, id: string, body?: (id: string) => unknown): Promise<Answer> {
  const headers: Record<string, string> = { apikey: DEMO_API_KEY };
  const payload = body?.(id);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${emu.baseUrl}${template.replaceAll('ID', encodeURIComponent(id))}`, {
    method,
    headers,
    ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
  });
  return answer(res);
}

describe('an id named like a built-in, where none exists', () => {
  it.each(UNKNOWN_ID_PROBES)('%s: answered as an ordinary unknown id', async (_label, method, path, body) => {
    const ordinary = await send(method, path, ORDINARY, body);
    const answers = await Promise.all(NAMES.map((name) => send(method, path, name, body)));
    const seen = Object.fromEntries(NAMES.map((name, index) => [name, { status: answers[index]!.status, title: answers[index]!.body?.title }]));
    const expected = Object.fromEntries(NAMES.map((name) => [name, { status: ordinary.status, title: ordinary.body?.title?.replaceAll(ORDINARY, name) }]));
    expect(seen).toEqual(expected);
  });
});

describe.each(NAMES)('the id %s', (name) => {
  it('as an asset: created once, read, listed, uploaded to, deployed, delivered, deleted', async () => {
    expect((await client.createAsset(name)).status).toBe(201);
    expect((await client.createAsset(name)).status).toBe(409);
    const id = encodeURIComponent(name);
    expect((await client.get(`/va/${id}`)).body.assetId).toBe(name);
    expect((await client.get('/va?pageSize=500')).body.results.filter((asset: { assetId: string }) => asset.assetId === name)).toHaveLength(1);
    const version = await client.uploadVersion(id, 'ios');
    expect(version.body.versionId).toBe('IOS1');
    expect((await client.deploy(id, 'IOS1', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER })).status).toBe(201);
    const urls = (await client.get(`/va/${id}/asset-urls`)).body.results;
    expect(urls.map((entry: { versionId: string; state: string }) => [entry.versionId, entry.state])).toEqual([['IOS1', 'LIVE']]);
    const delivered = await fetch(urls[0].downloadUrl, { headers: { apikey: DEMO_API_KEY } });
    expect(await delivered.text()).toBe('hello');
    await client.post(`/va/${id}/undeploy`, { envId: 'dev', targetPlatforms: ['ios'] });
    expect((await client.delete(`/va/${id}/versions/IOS1`)).status).toBe(204);
    expect((await client.delete(`/va/${id}`, { deletedBy: DEMO_USER })).status).toBe(204);
    expect((await client.get(`/va/${id}`)).status).toBe(404);
  });

  it('as a collection: created once, read, listed, an item added, deployed, delivered', async () => {
    expect((await client.createCollection(name)).status).toBe(201);
    expect((await client.createCollection(name)).status).toBe(409);
    expect((await client.get(`/vc/${name}`)).body.collectionId).toBe(name);
    expect((await client.get('/vc?pageSize=500')).body.results.filter((collection: { collectionId: string }) => collection.collectionId === name)).toHaveLength(1);
    const item = await client.uploadItem(name);
    expect(item.status).toBe(201);
    expect((await client.get(`/vc/${name}/items/${item.body.assetItemId}`)).body.assetItemId).toBe(item.body.assetItemId);
    expect((await client.post(`/vc/${name}/deployments`, { envId: 'dev', state: 'LIVE', createdBy: DEMO_USER })).status).toBeLessThan(300);
    expect((await client.get(`/vc/${name}/deployments`)).body.items.find((entry: { envId: string }) => entry.envId === 'dev').live).toEqual([item.body.assetItemId]);
    const document = await fetch(`${emu.deliveryUrl}/api/vi/demo/vc/${name}/dev`, { headers: { apikey: DEMO_API_KEY } });
    expect((await document.json()).assetItemUrls).toHaveLength(1);
  });
});

describe.each(NAMES)('a fixture whose domain, environment and platform are all named %s', (name) => {
  let own: RunningEmulator;
  let api: Client;
  beforeAll(async () => {
    own = (
      await withEmulator({
        config: {
          domains: [
            {
              domainId: name,
              users: [{ email: DEMO_USER, role: 'owner' }],
              apiKeys: [{ key: 'k' }],
              environments: ['dev', name],
              targetPlatforms: ['generic', name],
              assetTypes: [{ code: '1001' }],
            },
          ],
        },
      })
    ).emu;
    api = new Client(own, name, 'k');
  });
  afterAll(() => own.close());

  it('a version is uploaded for the platform, deployed to the environment and delivered', async () => {
    const platform = encodeURIComponent(name);
    expect((await api.get('/va')).body.totalResults).toBe(0);
    expect((await api.createAsset('game')).status).toBe(201);
    const version = await api.uploadVersion('game', platform);
    expect(version.status).toBe(201);
    expect((await api.deploy('game', version.body.versionId, platform, { envId: name, intent: 'LIVE', createdBy: DEMO_USER })).status).toBe(201);
    expect((await api.deploy('game', version.body.versionId, platform, { envId: 'dev', intent: 'OFFLINE', createdBy: DEMO_USER })).status).toBe(201);
    const urls = (await api.get('/va/game/asset-urls')).body.results;
    expect(urls.map((entry: { envId: string; state: string }) => [entry.envId, entry.state])).toEqual([[name, 'LIVE']]);
    expect(await (await fetch(urls[0].downloadUrl, { headers: { apikey: 'k' } })).text()).toBe('hello');
  });

  it('a collection for the platform is deployed to the environment and delivered', async () => {
    expect((await api.createCollection('bag', { targetPlatform: name })).status).toBe(201);
    expect((await api.uploadItem('bag')).status).toBe(201);
    expect((await api.post('/vc/bag/deployments', { envId: name, state: 'LIVE', createdBy: DEMO_USER })).status).toBeLessThan(300);
    const deployed = await api.get(`/vc/bag/deployments/${encodeURIComponent(name)}`);
    expect(deployed.status).toBe(200);
    const document = await (await fetch(deployed.body.downloadUrl, { headers: { apikey: 'k' } })).json();
    expect(document).toMatchObject({ domainId: name, envId: name, targetPlatform: name });
    expect((await api.get('/vc/bag/deployments/dev')).status).toBe(400);
  });
});

describe('with --data-dir', () => {
  it('ids named like built-ins come back as ordinary ids after a restart (snapshot and journal)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ahs-emu-builtins-'));
    try {
      const first = await withEmulator({ dataDir: dir });
      for (const name of ['__proto__', 'constructor']) {
        await first.client.createAsset(name);
        await first.client.uploadVersion(name, 'ios');
      }
      await first.emu.close();
      const second = await withEmulator({ dataDir: dir });
      try {
        await second.client.deploy('__proto__', 'IOS1', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER });
        expect((await second.client.get('/va/__proto__')).body.assetId).toBe('__proto__');
        expect((await second.client.get('/va/constructor/versions')).body.totalResults).toBe(1);
        expect((await second.client.get('/va/toString')).status).toBe(404);
      } finally {
        await second.emu.close();
      }
      const third = await withEmulator({ dataDir: dir });
      try {
        expect((await third.client.get('/va?pageSize=500')).body.results.map((asset: { assetId: string }) => asset.assetId).sort()).toEqual(['__proto__', 'constructor']);
        expect((await third.client.get('/va/__proto__/asset-urls')).body.results.map((entry: { state: string }) => entry.state)).toEqual(['LIVE']);
        expect((await third.client.get('/va/valueOf')).status).toBe(404);
      } finally {
        await third.emu.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
