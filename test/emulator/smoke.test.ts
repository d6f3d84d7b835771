import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, DEMO_USER, isProblem, withEmulator } from './helpers.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

let emu: RunningEmulator;
let client: Client;
beforeAll(async () => {
  ({ emu, client } = await withEmulator());
});
afterAll(async () => {
  await emu.close();
});

describe('release flow', () => {
  it('asset, version, deploy, promote, collection, item, deploy, delivery', async () => {
    expect((await client.createAsset('app')).status).toBe(201);
    const v1 = await client.uploadVersion('app', 'ios', 'one');
    expect(v1.status, v1.text).toBe(201);
    expect(v1.body.versionId).toBe('IOS1');
    expect(v1.body.size).toBe('3 B');
    const v2 = await client.uploadVersion('app', 'ios', 'two2');
    expect(v2.body.versionId).toBe('IOS2');
    const d1 = await client.deploy('app', 'IOS1', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER });
    expect(d1.status, d1.text).toBe(201);
    expect(d1.body.assetVersion.state).toBe('LIVE');
    const p1 = await client.deploy('app', 'IOS1', 'ios', { envId: 'dev', intent: 'DEFAULT', createdBy: DEMO_USER, updatedBy: DEMO_USER });
    expect(p1.status, p1.text).toBe(201);
    await client.deploy('app', 'IOS2', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: DEMO_USER });
    const p2 = await client.deploy('app', 'IOS2', 'ios', { envId: 'dev', intent: 'DEFAULT', updatedBy: DEMO_USER, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' });
    expect(p2.status, p2.text).toBe(201);
    const urls = await client.get('/va/app/asset-urls');
    expect(urls.body.results.map((r: any) => `${r.versionId}:${r.state}`)).toEqual(['IOS1:LIVE', 'IOS2:DEFAULT']);
    const file = await fetch(urls.body.results[1].downloadUrl, { headers: { apikey: 'demo-key' } });
    expect(await file.text()).toBe('two2');
    const stale = await client.deploy('app', 'IOS1', 'ios', { envId: 'dev', intent: 'DEFAULT', updatedBy: DEMO_USER, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' });
    expect(isProblem(stale, 409), stale.text).toBe(true);

    expect((await client.createCollection('bundle')).status).toBe(201);
    const item = await client.uploadItem('bundle', '{"a":1}');
    expect(item.status, item.text).toBe(201);
    const dep = await client.post('/vc/bundle/deployments', { state: 'LIVE', createdBy: DEMO_USER, envId: 'prod' });
    expect(dep.status, dep.text).toBe(201);
    const doc = await (await fetch(dep.body.downloadUrl, { headers: { apikey: 'demo-key' } })).json();
    const bytes = await (await fetch(`${emu.deliveryUrl}/api/vi${doc.assetItemUrls[0].downloadUrl}`, { headers: { apikey: 'demo-key' } })).text();
    expect(bytes).toBe('{"a":1}');
  });
});
