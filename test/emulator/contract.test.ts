// Contract tests: what any service that obeys the spec answers, and nothing
// the emulator chooses on its own (no titles, id numbers, size styles or page
// caps). By default they run in process against the emulator, with its
// default choices and with every variation on; pointed at another service
// through the environment, they run once against it (Azurite's practice):
//
//   AHS_CONTRACT_BASE_URL      API base URL (https://host, paths /api/v2/...)
//   AHS_CONTRACT_DELIVERY_URL  delivery URL (default: the base URL)
//   AHS_CONTRACT_API_KEY       a domain-wide key of the domain
//   AHS_CONTRACT_DOMAIN        the domain
//   AHS_CONTRACT_USER          e-mail of an active admin or owner
//   AHS_CONTRACT_ENV, AHS_CONTRACT_PLATFORM, AHS_CONTRACT_ASSET_TYPE
//                              an environment, a platform and an active asset
//                              type to use (default dev, ios, 1001)
//
// Every id is prefixed with this run's id, so runs never collide; what a run
// creates is deleted where the spec allows (collections are purged).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ALL_VARIATIONS, DEMO_API_KEY, DEMO_DOMAIN, DEMO_USER, type RunningEmulator, type VariationConfig } from '../../src/emulator/index.js';
import { answer, Client, isProblem, withEmulator, type Answer } from './helpers.js';

const env = process.env;
const remote = env.AHS_CONTRACT_BASE_URL;
const ENV = env.AHS_CONTRACT_ENV ?? 'dev';
const PLATFORM = env.AHS_CONTRACT_PLATFORM ?? 'ios';
const TYPE = env.AHS_CONTRACT_ASSET_TYPE ?? '1001';
const RUN = `ct${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const id = (name: string) => `${RUN}-${name}`;

interface Target {
  name: string;
  start(): Promise<{ emu: Pick<RunningEmulator, 'baseUrl' | 'deliveryUrl' | 'close'>; domain: string; apiKey: string; user: string }>;
}

const inProcess = (name: string, variation?: VariationConfig): Target => ({
  name,
  start: async () => ({ emu: (await withEmulator(variation ? { variation } : {})).emu, domain: DEMO_DOMAIN, apiKey: DEMO_API_KEY, user: DEMO_USER }),
});

const targets: Target[] = remote
  ? [
      {
        name: remote,
        start: async () => ({
          emu: { baseUrl: remote.replace(/\/+$/, ''), deliveryUrl: (env.AHS_CONTRACT_DELIVERY_URL ?? remote).replace(/\/+$/, ''), close: async () => undefined },
          domain: env.AHS_CONTRACT_DOMAIN ?? DEMO_DOMAIN,
          apiKey: env.AHS_CONTRACT_API_KEY ?? DEMO_API_KEY,
          user: env.AHS_CONTRACT_USER ?? DEMO_USER,
        }),
      },
    ]
  : [inProcess('the emulator'), inProcess('the emulator with every variation', ALL_VARIATIONS)];

describe.each(targets)('contract: $name', (target) => {
  let api: Client;
  let deliveryUrl: string;
  let apiKey: string;
  let U: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const started = await target.start();
    api = new Client(started.emu as RunningEmulator, started.domain, started.apiKey);
    deliveryUrl = started.emu.deliveryUrl;
    apiKey = started.apiKey;
    U = started.user;
    close = () => started.emu.close();
  });
  afterAll(() => close());

  const createAsset = (assetId: string, extra: Record<string, unknown> = {}) => api.post('/va', { assetId, assetName: assetId, assetType: TYPE, createdBy: U, ...extra });
  const upload = (assetId: string, content = 'contract bytes') => {
    const form = new FormData();
    form.set('versionName', 'contract');
    form.set('createdBy', U);
    form.set('assetFile', new Blob([content]), 'contract.zip');
    return api.post(`/va/${assetId}/versions?targetPlatformId=${PLATFORM}`, form);
  };
  const deploy = (assetId: string, versionId: string, body: Record<string, unknown>) => api.deploy(assetId, versionId, PLATFORM, { envId: ENV, ...body });
  const stateOf = async (assetId: string, versionId: string) => {
    const page = await api.get(`/va/${assetId}/versions/${versionId}/asset-urls?envId=${ENV}`);
    return page.body.results.find((entry: any) => entry.envId === ENV)?.state;
  };

  /** Every page of a list, advancing by the page size the envelope reports. */
  async function readAll(path: string): Promise<any[]> {
    const all: any[] = [];
    for (let pageNumber = 1; pageNumber < 10_000; pageNumber++) {
      const page: Answer = await api.get(`${path}${path.includes('?') ? '&' : '?'}pageNumber=${pageNumber}&pageSize=100`);
      expect(page.status).toBe(200);
      expect(page.body.pageSize).toBeLessThanOrEqual(100);
      all.push(...page.body.results);
      if (page.body.results.length === 0 || all.length >= page.body.totalResults) return all;
    }
    throw new Error(`${path}: the list never ended`);
  }

  it('refuses a missing or wrong apikey with 403 and the four-field body', async () => {
    expect(isProblem(await answer(await fetch(api.url('/va'))), 403)).toBe(true);
    expect(isProblem(await api.withKey(`${RUN}-not-a-key`).get('/va'), 403)).toBe(true);
  });

  it('virtual assets: create with the spec defaults, 409 on a taken id, 404 when missing, hard delete', async () => {
    const assetId = id('asset');
    const created = await createAsset(assetId, { description: 'contract' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ assetId, assetType: TYPE, secured: true, localCacheControl: false, localCacheMaxAge: 30, active: true, createdBy: U, updatedBy: U });
    expect(created.body).not.toHaveProperty('description');
    expect((await api.get(`/va/${assetId}`)).body).toMatchObject({ assetId });
    expect(isProblem(await createAsset(assetId), 409)).toBe(true);
    expect(isProblem(await api.get(`/va/${id('missing')}`), 404)).toBe(true);
    expect((await api.delete(`/va/${assetId}`, { deletedBy: U })).status).toBe(204);
    expect(isProblem(await api.get(`/va/${assetId}`), 404)).toBe(true);
  });

  it('lists page by the envelope: every asset is reached, whatever the page cap', async () => {
    const ids = Array.from({ length: 23 }, (_, i) => id(`page${i}`));
    for (const assetId of ids) expect((await createAsset(assetId)).status).toBe(201);
    const listed = (await readAll('/va')).map((asset) => asset.assetId);
    expect(ids.filter((assetId) => !listed.includes(assetId))).toEqual([]);
    for (const assetId of ids) await api.delete(`/va/${assetId}`, { deletedBy: U });
  });

  it('versions: ids from the platform and a per-platform number; the deploy state table', async () => {
    const assetId = id('versions');
    await createAsset(assetId);
    const first = await upload(assetId);
    expect(first.status, first.text).toBe(201);
    const prefix = PLATFORM.slice(0, 3).toUpperCase();
    expect(first.body.versionId).toBe(`${prefix}${first.body.version}`);
    expect(first.body).toMatchObject({ targetPlatform: PLATFORM, uploadStatus: 'Committed', assetType: TYPE, secured: true });
    expect(first.body.size).toMatch(/^\d+(\.\d+)? ?[A-Za-z]+$/);
    const second = await upload(assetId, 'second');
    expect(second.body.version).toBeGreaterThan(first.body.version);
    const [v1, v2] = [first.body.versionId as string, second.body.versionId as string];

    expect(isProblem(await deploy(assetId, v1, { intent: 'DEFAULT', createdBy: U, updatedBy: U }), 404)).toBe(true);
    const live = await deploy(assetId, v1, { intent: 'LIVE', createdBy: U });
    expect(live.status, live.text).toBe(201);
    expect(live.body).toMatchObject({ message: 'Deployment has been completed.', assetVersion: { versionId: v1, state: 'LIVE', envId: ENV } });
    expect(isProblem(await deploy(assetId, v1, { intent: 'LIVE', updatedBy: U }), 400)).toBe(true);
    expect((await deploy(assetId, v1, { intent: 'DEFAULT', updatedBy: U })).status).toBe(201);
    await deploy(assetId, v2, { intent: 'LIVE', createdBy: U });
    expect(isProblem(await deploy(assetId, v2, { intent: 'DEFAULT', updatedBy: U }), 400)).toBe(true);
    const promoted = await deploy(assetId, v2, { intent: 'DEFAULT', updatedBy: U, currentVersionId: v1, currentAssetIntent: 'LIVE' });
    expect(promoted.status, promoted.text).toBe(201);
    expect(await stateOf(assetId, v1)).toBe('LIVE');
    expect(await stateOf(assetId, v2)).toBe('DEFAULT');
    // The pointer moved away from v1: naming it again is the 409.
    expect(isProblem(await deploy(assetId, v1, { intent: 'DEFAULT', updatedBy: U, currentVersionId: v1, currentAssetIntent: 'LIVE' }), 409)).toBe(true);
    expect(isProblem(await api.delete(`/va/${assetId}/versions/${v2}`), 400)).toBe(true);
    expect(isProblem(await api.delete(`/va/${assetId}`, { deletedBy: U }), 400)).toBe(true);

    const undeployed = await api.post(`/va/${assetId}/undeploy`, { envId: ENV, targetPlatforms: [PLATFORM] });
    expect(undeployed.status).toBe(200);
    expect(undeployed.body).toMatchObject({ message: 'Asset Container undeployed successfully.', totalUndeployedVersions: 2 });
    for (const versionId of [v1, v2]) expect((await api.delete(`/va/${assetId}/versions/${versionId}`)).status).toBe(204);
    expect((await api.delete(`/va/${assetId}`, { deletedBy: U })).status).toBe(204);
  });

  it('collections: every field present, missing is 400 on GET and 404 on PATCH, the soft-delete lifecycle', async () => {
    const collectionId = id('c');
    const created = await api.post('/vc', { collectionId, collectionName: 'contract', allowedAssetTypes: [TYPE], createdBy: U });
    expect(created.status, created.text).toBe(201);
    for (const field of ['collectionId', 'domainId', 'collectionName', 'allowedAssetTypes', 'maxAssets', 'editable', 'deployable', 'anchorAsset', 'assetItems', 'targetPlatform', 'deleted', 'localCacheControl', 'localCacheMaxAge']) {
      expect(created.body, field).toHaveProperty(field);
    }
    expect(created.body).toMatchObject({ editable: true, deployable: true, targetPlatform: 'generic', assetItems: [], deleted: false });
    expect(created.body).not.toHaveProperty('secured');
    expect(isProblem(await api.get(`/vc/${id('nope')}`), 400)).toBe(true);
    expect(isProblem(await api.patch(`/vc/${id('nope')}`, { collectionName: 'x', updatedBy: U }), 404)).toBe(true);
    expect((await api.delete(`/vc/${collectionId}`, { deletedBy: U })).body).toMatchObject({ message: `Asset collection ${collectionId} has been deleted.` });
    expect(isProblem(await api.delete(`/vc/${collectionId}`, { deletedBy: U }), 400)).toBe(true);
    expect((await api.post(`/vc/${collectionId}/restore`, { createdBy: U })).body).toMatchObject({ message: `Asset collection ${collectionId} has been restored.` });
    expect(isProblem(await api.post(`/vc/${collectionId}/purge`, { createdBy: U }), 400)).toBe(true);
    await api.delete(`/vc/${collectionId}`, { deletedBy: U });
    expect((await api.post(`/vc/${collectionId}/purge`, { createdBy: U })).body).toMatchObject({ message: `Asset collection ${collectionId} has been purged.` });
  });

  it('items and delivery: the document lists each item, whose bytes come back unchanged', async () => {
    const collectionId = id('d');
    await api.post('/vc', { collectionId, collectionName: 'delivery', allowedAssetTypes: [TYPE], createdBy: U });
    expect(isProblem(await api.uploadItem(id('nope'), 'x', { assetType: TYPE, createdBy: U }), 400)).toBe(true);
    const payload = randomBytes(2048);
    const item = await api.uploadItem(collectionId, payload, { assetType: TYPE, createdBy: U }, 'payload.json');
    expect(item.status, item.text).toBe(201);
    expect(item.body).toMatchObject({ size: 2048, parentCollections: [collectionId], uploadStatus: 'Committed' });
    expect(isProblem(await api.get(`/vc/${collectionId}/items/${id('nope')}`), 404)).toBe(true);
    const deployed = await api.post(`/vc/${collectionId}/deployments`, { state: 'LIVE', createdBy: U, envId: ENV });
    expect(deployed.status, deployed.text).toBe(201);
    const doc = answer(await fetch(deployed.body.downloadUrl, { headers: { apikey: apiKey } }));
    const document = (await doc).body;
    expect(document).toMatchObject({ collectionId, envId: ENV, secured: true });
    expect(document.assetItemUrls.map((entry: any) => entry.assetItemId)).toEqual([item.body.assetItemId]);
    const file = await fetch(`${deliveryUrl}/api/vi${document.assetItemUrls[0].downloadUrl}`, { headers: { apikey: apiKey } });
    expect(Buffer.from(await file.arrayBuffer()).equals(payload)).toBe(true);
    expect((await api.delete(`/vc/${collectionId}/deployments/${ENV}`, { updatedBy: U })).status).toBe(200);
    await api.delete(`/vc/${collectionId}`, { deletedBy: U });
    await api.post(`/vc/${collectionId}/purge`, { createdBy: U });
  });
});
