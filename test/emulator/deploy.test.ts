// Version deploy and asset undeploy: the state table and every row of the
// spec's "Version deploy and asset undeploy" error table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ACME, ACME_USER, Client, DEMO_USER, isProblem, withEmulator } from './helpers.js';

let emu: RunningEmulator;
let api: Client;
beforeAll(async () => {
  ({ emu, client: api } = await withEmulator());
});
afterAll(() => emu.close());

const U = DEMO_USER;
let counter = 0;
/** A fresh asset with `count` ios versions. */
async function freshAsset(count = 2): Promise<string> {
  const assetId = `dep${++counter}`;
  await api.createAsset(assetId);
  for (let i = 0; i < count; i++) await api.uploadVersion(assetId, 'ios', `content ${i}`);
  return assetId;
}
const deploy = (assetId: string, versionId: string, body: Record<string, unknown>, platform = 'ios') => api.deploy(assetId, versionId, platform, body);

describe('version deployment states', () => {
  it('first deploy LIVE and OFFLINE give 201 with the record and message', async () => {
    const a = await freshAsset();
    const live = await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
    expect(live.status).toBe(201);
    expect(live.body.message).toBe('Deployment has been completed.');
    expect(live.body.assetVersion).toMatchObject({ versionId: 'IOS1', version: 1, envId: 'dev', state: 'LIVE', fallback: false, lock: false, targetPlatform: 'ios', uploadStatus: 'Committed', createdBy: U, updatedBy: U, size: '9 B' });
    expect((await deploy(a, 'IOS2', { envId: 'dev', intent: 'OFFLINE', createdBy: U })).body.assetVersion.state).toBe('OFFLINE');
  });

  it('OFFLINE -> LIVE -> OFFLINE, then LIVE -> DEFAULT with no current Default', async () => {
    const a = await freshAsset();
    await deploy(a, 'IOS1', { envId: 'dev', intent: 'OFFLINE', createdBy: U });
    expect((await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', updatedBy: U })).body.assetVersion.state).toBe('LIVE');
    expect((await deploy(a, 'IOS1', { envId: 'dev', intent: 'OFFLINE', updatedBy: U })).body.assetVersion.state).toBe('OFFLINE');
    await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', updatedBy: U });
    expect((await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', updatedBy: U })).body.assetVersion.state).toBe('DEFAULT');
  });

  it('promotion over an existing Default demotes it to LIVE in the same request', async () => {
    const a = await freshAsset();
    await deploy(a, 'IOS1', { envId: 'prod', intent: 'LIVE', createdBy: U });
    await deploy(a, 'IOS1', { envId: 'prod', intent: 'DEFAULT', updatedBy: U });
    await deploy(a, 'IOS2', { envId: 'prod', intent: 'LIVE', createdBy: U });
    const res = await deploy(a, 'IOS2', { envId: 'prod', intent: 'DEFAULT', updatedBy: U, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' });
    expect(res.status).toBe(201);
    expect(res.body.assetVersion).toMatchObject({ versionId: 'IOS2', state: 'DEFAULT' });
    const urls = await api.get(`/va/${a}/asset-urls`);
    expect(urls.body.results.map((e: any) => `${e.versionId}:${e.state}`)).toEqual(['IOS1:LIVE', 'IOS2:DEFAULT']);
  });

  it('asset-urls excludes OFFLINE unless state is given (exact match), absolute downloadUrl', async () => {
    const a = await freshAsset(3);
    await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
    await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', updatedBy: U });
    await deploy(a, 'IOS2', { envId: 'dev', intent: 'LIVE', createdBy: U });
    await deploy(a, 'IOS3', { envId: 'dev', intent: 'OFFLINE', createdBy: U });
    await api.uploadVersion(a, 'android');
    await deploy(a, 'AND1', { envId: 'staging', intent: 'LIVE', createdBy: U }, 'android');
    const all = await api.get(`/va/${a}/asset-urls`);
    expect(all.body.totalResults).toBe(3);
    expect(all.body.results.every((e: any) => e.downloadUrl.startsWith(`${emu.deliveryUrl}/api/vi/`))).toBe(true);
    const offline = await api.get(`/va/${a}/asset-urls?state=OFFLINE`);
    expect(offline.body.results).toHaveLength(1);
    expect(offline.body.results[0]).not.toHaveProperty('downloadUrl');
    expect((await api.get(`/va/${a}/asset-urls?state=LIVE`)).body.results.map((e: any) => e.versionId)).toEqual(['IOS2', 'AND1']);
    expect((await api.get(`/va/${a}/asset-urls?targetPlatform=android`)).body.results.map((e: any) => e.versionId)).toEqual(['AND1']);
    expect((await api.get(`/va/${a}/asset-urls?envId=dev`)).body.totalResults).toBe(2);
    const one = await api.get(`/va/${a}/versions/IOS3/asset-urls?envId=dev`);
    expect(one.body.results).toEqual([expect.objectContaining({ versionId: 'IOS3', state: 'OFFLINE', envId: 'dev' })]);
  });

  it('undeploy removes every record of the platforms in that environment and counts them', async () => {
    const a = await freshAsset(2);
    await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
    await deploy(a, 'IOS2', { envId: 'dev', intent: 'OFFLINE', createdBy: U });
    await deploy(a, 'IOS1', { envId: 'prod', intent: 'LIVE', createdBy: U });
    const res = await api.post(`/va/${a}/undeploy`, { envId: 'dev', targetPlatforms: ['ios', 'web'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Asset Container undeployed successfully.', totalUndeployedVersions: 2 });
    expect((await api.get(`/va/${a}/asset-urls?envId=dev&state=OFFLINE`)).body.totalResults).toBe(0);
    expect((await api.get(`/va/${a}/asset-urls?envId=prod`)).body.totalResults).toBe(1);
  });
});

describe('errors: version deploy', () => {
  describe('400', () => {
    it('unrecognized intent on a re-publish', async () => {
      const a = await freshAsset();
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'PUBLISHED', updatedBy: U }), 400)).toBe(true);
    });
    it('the version is currently Default', async () => {
      const a = await freshAsset();
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', updatedBy: U });
      const res = await deploy(a, 'IOS1', { envId: 'dev', intent: 'OFFLINE', updatedBy: U });
      expect(isProblem(res, 400)).toBe(true);
      expect(res.body.title).toMatch(/promote another version/);
    });
    it('already in the target state', async () => {
      const a = await freshAsset();
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', updatedBy: U }), 400)).toBe(true);
    });
    it('promoting an Offline version to Default', async () => {
      const a = await freshAsset();
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'OFFLINE', createdBy: U });
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', updatedBy: U }), 400)).toBe(true);
    });
    it('promoting while a Default exists without demotion info', async () => {
      const a = await freshAsset();
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', updatedBy: U });
      await deploy(a, 'IOS2', { envId: 'dev', intent: 'LIVE', createdBy: U });
      expect(isProblem(await deploy(a, 'IOS2', { envId: 'dev', intent: 'DEFAULT', updatedBy: U }), 400)).toBe(true);
    });
    it('demoting a version that is not Default (never was)', async () => {
      const a = await freshAsset(3);
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', updatedBy: U });
      await deploy(a, 'IOS2', { envId: 'dev', intent: 'LIVE', createdBy: U });
      await deploy(a, 'IOS3', { envId: 'dev', intent: 'LIVE', createdBy: U });
      expect(isProblem(await deploy(a, 'IOS3', { envId: 'dev', intent: 'DEFAULT', updatedBy: U, currentVersionId: 'IOS2', currentAssetIntent: 'LIVE' }), 400)).toBe(true);
    });
  });

  describe('404', () => {
    it('asset not found', async () => {
      expect(isProblem(await deploy('nope', 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U }), 404)).toBe(true);
    });
    it('environment not found', async () => {
      const a = await freshAsset(1);
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'qa', intent: 'LIVE', createdBy: U }), 404)).toBe(true);
      expect(isProblem(await deploy(a, 'IOS1', { intent: 'LIVE', createdBy: U }), 404)).toBe(true);
    });
    it('platform not found', async () => {
      const a = await freshAsset(1);
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U }, 'tv'), 404)).toBe(true);
    });
    it('version missing, or not of that platform', async () => {
      const a = await freshAsset(1);
      expect(isProblem(await deploy(a, 'IOS7', { envId: 'dev', intent: 'LIVE', createdBy: U }), 404)).toBe(true);
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U }, 'android'), 404)).toBe(true);
    });
    it('intent missing or invalid on a first deploy; nothing deployed yet to re-publish', async () => {
      const a = await freshAsset(1);
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', createdBy: U }), 404)).toBe(true);
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'NOPE', createdBy: U }), 404)).toBe(true);
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', createdBy: U, updatedBy: U }), 404)).toBe(true);
    });
    it('old Default not found when demoting', async () => {
      const a = await freshAsset(2);
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', updatedBy: U });
      await deploy(a, 'IOS2', { envId: 'dev', intent: 'LIVE', createdBy: U });
      expect(isProblem(await deploy(a, 'IOS2', { envId: 'dev', intent: 'DEFAULT', updatedBy: U, currentVersionId: 'IOS42', currentAssetIntent: 'LIVE' }), 404)).toBe(true);
    });
  });

  it('409: the Default pointer moved since it was read', async () => {
    const a = await freshAsset(3);
    for (const v of ['IOS1', 'IOS2', 'IOS3']) await deploy(a, v, { envId: 'dev', intent: 'LIVE', createdBy: U });
    await deploy(a, 'IOS1', { envId: 'dev', intent: 'DEFAULT', updatedBy: U });
    await deploy(a, 'IOS2', { envId: 'dev', intent: 'DEFAULT', updatedBy: U, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' });
    const res = await deploy(a, 'IOS3', { envId: 'dev', intent: 'DEFAULT', updatedBy: U, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' });
    expect(isProblem(res, 409)).toBe(true);
    expect(res.body.title).toMatch(/retry/i);
  });

  describe('500', () => {
    it('createdBy missing on a first deploy; updatedBy missing on a change', async () => {
      const a = await freshAsset(1);
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE' }), 500)).toBe(true);
      await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'OFFLINE', createdBy: U }), 500)).toBe(true);
    });
    it('the channel is already mid-deployment (a held deployment)', async () => {
      const a = await freshAsset(1);
      const hold = emu.holdDeployments();
      const first = deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U });
      await hold.held();
      expect(isProblem(await deploy(a, 'IOS1', { envId: 'dev', intent: 'LIVE', createdBy: U }), 500)).toBe(true);
      // Another channel (environment) is not blocked: it reaches the hold too.
      const other = deploy(a, 'IOS1', { envId: 'prod', intent: 'LIVE', createdBy: U });
      await hold.held(2);
      hold();
      expect((await first).status).toBe(201);
      expect((await other).status).toBe(201);
      // Released: deployments go straight through again.
      expect((await deploy(a, 'IOS1', { envId: 'staging', intent: 'LIVE', createdBy: U })).status).toBe(201);
    });
    it('deployDelayMs in the fixture still keeps a deployment in progress for that long', async () => {
      const slow = await withEmulator({ config: { ...ACME, deployDelayMs: 150 } });
      const c = new Client(slow.emu, 'acme', 'acme-all-key');
      try {
        await c.post('/va', { assetId: 's', assetName: 's', assetType: '9999', createdBy: ACME_USER });
        const form = new FormData();
        form.set('versionName', 'v');
        form.set('createdBy', ACME_USER);
        form.set('assetFile', new Blob(['x']), 'x.bin');
        await c.post('/va/s/versions?targetPlatformId=ios', form);
        const started = performance.now();
        expect((await c.deploy('s', 'IOS1', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: ACME_USER })).status).toBe(201);
        expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      } finally {
        await slow.emu.close();
      }
    });
  });

  it('403: an environment-scoped key deploys only to its environment', async () => {
    const scoped = await withEmulator({ config: ACME });
    const c = new Client(scoped.emu, 'acme', 'acme-prod-key');
    try {
      await c.post('/va', { assetId: 's', assetName: 's', assetType: '9999', createdBy: ACME_USER });
      const form = new FormData();
      form.set('versionName', 'v');
      form.set('createdBy', ACME_USER);
      form.set('assetFile', new Blob(['x']), 'x.bin');
      await c.post('/va/s/versions?targetPlatformId=ios', form);
      expect(isProblem(await c.deploy('s', 'IOS1', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: ACME_USER }), 403)).toBe(true);
      expect((await c.deploy('s', 'IOS1', 'ios', { envId: 'prod', intent: 'LIVE', createdBy: ACME_USER })).status).toBe(201);
    } finally {
      await scoped.emu.close();
    }
  });
});

describe('errors: asset undeploy', () => {
  it('404: asset or environment not found', async () => {
    expect(isProblem(await api.post('/va/nope/undeploy', { envId: 'dev', targetPlatforms: ['ios'] }), 404)).toBe(true);
    const a = await freshAsset(0);
    expect(isProblem(await api.post(`/va/${a}/undeploy`, { envId: 'qa', targetPlatforms: ['ios'] }), 404)).toBe(true);
  });
  it('404: targetPlatforms missing, empty or with an unknown code', async () => {
    const a = await freshAsset(0);
    expect(isProblem(await api.post(`/va/${a}/undeploy`, { envId: 'dev' }), 404)).toBe(true);
    expect(isProblem(await api.post(`/va/${a}/undeploy`, { envId: 'dev', targetPlatforms: [] }), 404)).toBe(true);
    expect(isProblem(await api.post(`/va/${a}/undeploy`, { envId: 'dev', targetPlatforms: ['ios', 'tv'] }), 404)).toBe(true);
  });
});
