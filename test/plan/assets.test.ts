// The kinds of step that write assets (src/plan/kinds/assets.ts), each
// question asked on its own against the fake client, by table: requests,
// predictions and the settling reads of lost answers.
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/io/output.js';
import { assetCreate, assetDelete, assetUndeploy, assetUpdate, targetedRecords } from '../../src/plan/kinds/assets.js';
import type { KindIO } from '../../src/plan/kinds/kind.js';
import { stepBudget } from '../../src/plan/retry.js';
import type { DeploymentState } from '../../src/rules/index.js';
import { bufferIO } from '../unit/helpers.js';
import { FakeService, USER } from './fake.js';

async function kindIO(service: FakeService): Promise<KindIO> {
  const api = service.client();
  return { api, out: await Output.create(bufferIO(), { format: 'table' }), signal: new AbortController().signal, retry: stepBudget(api.policy), sentAt: 0, progress: () => undefined };
}

const createBody = { assetId: 'A', assetName: 'App', assetType: '1001', createdBy: USER };

describe('asset.create', () => {
  it('request and description', () => {
    const api = new FakeService().client();
    expect(assetCreate.request({ body: createBody }, api)).toEqual({ method: 'POST', path: '/api/v2/d/va', body: createBody });
    expect(assetCreate.describe({ body: createBody })).toBe('create asset A');
  });

  it('predicts 201 with the new asset when the id is free, the 409 over the one that exists', async () => {
    const service = new FakeService();
    service.asset = undefined;
    const free = await assetCreate.predict({ body: createBody }, service.client());
    expect(free.current).toBeNull();
    expect(free.decision).toMatchObject({ ok: true, status: 201, next: { assetId: 'A', assetName: 'App', assetType: '1001', createdBy: USER } });
    expect(free.notes).toEqual(['the asset type and the acting user are checked by the service (404 / 400 when unknown)']);
    const taken = await assetCreate.predict({ body: createBody }, new FakeService().client());
    expect(taken.current).toMatchObject({ assetId: 'A' });
    expect(taken.decision).toMatchObject({ ok: false, status: 409 });
  });

  const rows: Array<{ name: string; asset?: Record<string, unknown> | 'missing'; since?: boolean; applied: boolean; how: string }> = [
    { name: 'missing', asset: 'missing', applied: false, how: 'GET of asset A answers 404' },
    { name: 'made by this user since the send', applied: true, how: `asset A exists, created by ${USER} at 2026-01-01T00:00:00Z` },
    { name: 'made by this user before the send', since: false, applied: false, how: `asset A exists, created by ${USER} at 2026-01-01T00:00:00Z, before this command: another create made it` },
    { name: 'made by someone else', asset: { createdBy: 'other@example.com' }, applied: false, how: 'asset A exists, created by other@example.com at 2026-01-01T00:00:00Z, before this command: another create made it' },
  ];
  for (const row of rows) {
    it(`settles: ${row.name}: ${row.applied ? 'applied' : 'not applied'}`, async () => {
      const service = new FakeService();
      if (row.asset === 'missing') service.asset = undefined;
      else if (row.asset) Object.assign(service.asset!, row.asset);
      service.madeSince = row.since ?? true;
      const settled = await assetCreate.settle!({ body: createBody }, await kindIO(service));
      expect([settled.applied, (settled as { how: string }).how]).toEqual([row.applied, row.how]);
      if (row.applied) expect((settled as { result: unknown }).result).toMatchObject({ assetId: 'A' });
    });
  }
});

describe('asset.update', () => {
  const params = (body: Record<string, unknown>, before?: Record<string, unknown>) => ({ assetId: 'A', body: { updatedBy: 'u@example.com', ...body } as never, before: before as never });

  it('request and description', () => {
    const api = new FakeService().client();
    expect(assetUpdate.request(params({ assetName: 'B' }), api)).toEqual({ method: 'PUT', path: '/api/v2/d/va/A', body: { updatedBy: 'u@example.com', assetName: 'B' } });
    expect(assetUpdate.describe(params({}))).toBe('update asset A');
  });

  const predictions: Array<{ name: string; body: Record<string, unknown>; before?: Record<string, unknown>; next: Record<string, unknown>; notes: string[]; reads: number }> = [
    { name: 'the values sent, over the asset read', body: { assetName: 'B', active: false, localCacheMaxAge: 5, localCacheControl: true, assetType: '1001' }, next: { assetName: 'B', active: false, localCacheMaxAge: 5, localCacheControl: true, assetType: '1001', updatedBy: 'u@example.com' }, notes: [], reads: 1 },
    { name: 'over the asset the command read; the type cannot change', body: { assetType: '2002', description: 'd' }, before: { assetId: 'A', assetName: 'Old', assetType: '1001' }, next: { assetName: 'Old', assetType: '1001', updatedBy: 'u@example.com' }, notes: ['the asset type cannot actually change: it stays 1001 (404 if 2002 is not an active type)'], reads: 0 },
  ];
  for (const row of predictions) {
    it(`predicts ${row.name}`, async () => {
      const service = new FakeService();
      const prediction = await assetUpdate.predict(params(row.body, row.before), service.client());
      expect(prediction.decision).toMatchObject({ ok: true, status: 200, next: row.next });
      expect((prediction.decision as { next: Record<string, unknown> }).next).not.toHaveProperty('description');
      expect(prediction.notes).toEqual(row.notes);
      expect(prediction.current).toMatchObject({ assetId: 'A' });
      expect(service.reads).toHaveLength(row.reads);
    });
  }

  const settles: Array<{ name: string; body: Record<string, unknown>; applied: boolean | 'unknown'; how?: string }> = [
    { name: 'every value shown', body: { assetName: 'A', active: true }, applied: true, how: 'asset A shows every value sent' },
    { name: 'values not shown', body: { assetName: 'B', active: false, localCacheMaxAge: 5, localCacheControl: true }, applied: false, how: 'asset A still differs in assetName, localCacheControl, localCacheMaxAge, active' },
    { name: 'a description (never echoed)', body: { assetName: 'A', description: 'd' }, applied: 'unknown' },
  ];
  for (const row of settles) {
    it(`settles: ${row.name}`, async () => {
      const service = new FakeService();
      const settled = await assetUpdate.settle!(params(row.body), await kindIO(service));
      expect(settled.applied).toBe(row.applied);
      if (row.how) expect((settled as { how: string }).how).toBe(row.how);
      if (row.applied === true) expect((settled as { result: unknown }).result).toMatchObject({ assetId: 'A' });
      if (row.applied === 'unknown') expect(settled).toEqual({ applied: 'unknown', check: 'ahs asset search A --json' });
    });
  }
});

describe('asset.delete', () => {
  const params = { assetId: 'A', body: { deletedBy: USER } };
  it('request, description; predicted over the version count', async () => {
    const service = new FakeService();
    expect(assetDelete.request(params, service.client())).toEqual({ method: 'DELETE', path: '/api/v2/d/va/A', body: { deletedBy: USER } });
    expect(assetDelete.describe(params)).toBe('delete asset A');
    const empty = await assetDelete.predict(params, service.client());
    expect(empty).toMatchObject({ current: { asset: { assetId: 'A' }, versionCount: 0 }, decision: { ok: true, status: 204 }, unchanged: 'exists' });
    service.versionCount = 2;
    expect((await assetDelete.predict(params, service.client())).decision).toMatchObject({ ok: false, status: 400 });
  });
  it('settles: gone is applied, still there is not', async () => {
    const service = new FakeService();
    expect(await assetDelete.settle!(params, await kindIO(service))).toEqual({ applied: false, how: 'asset A still exists' });
    service.asset = undefined;
    expect(await assetDelete.settle!(params, await kindIO(service))).toEqual({ applied: true, how: 'GET of asset A answers 404', result: undefined });
  });
});

describe('asset.undeploy', () => {
  const record = (versionId: string, targetPlatform: string, state: DeploymentState) => ({ assetId: 'A', version: 1, versionId, versionName: versionId, targetPlatform, assetType: '1001', secured: true, state, envId: 'prod' });
  const params = (targetPlatforms: string[], records: unknown[] = []) => ({ assetId: 'A', body: { envId: 'prod', targetPlatforms }, records: records as never });

  it('request, description; predicted over the records as read', async () => {
    const service = new FakeService();
    expect(assetUndeploy.request(params(['ios']), service.client())).toEqual({ method: 'POST', path: '/api/v2/d/va/A/undeploy', body: { envId: 'prod', targetPlatforms: ['ios'] } });
    expect(assetUndeploy.describe(params(['ios', 'android']))).toBe('undeploy A for ios, android in prod');
    const prediction = await assetUndeploy.predict(params(['ios'], [record('IOS1', 'ios', 'LIVE'), record('AND1', 'android', 'DEFAULT')]), service.client());
    expect(prediction.current).toEqual([
      { versionId: 'IOS1', targetPlatform: 'ios', state: 'LIVE' },
      { versionId: 'AND1', targetPlatform: 'android', state: 'DEFAULT' },
    ]);
    expect(prediction.decision).toMatchObject({ ok: true, status: 200, next: { totalUndeployedVersions: 1 } });
    expect(prediction.notes).toEqual(['unknown environment or platform codes are checked by the service (404)']);
  });

  it('the targeted records: of the platforms named only', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'LIVE', IOS2: 'OFFLINE' };
    expect((await targetedRecords(service.client(), 'A', { envId: 'prod', targetPlatforms: ['ios'] })).map((r) => r.versionId).sort()).toEqual(['IOS1', 'IOS2']);
    expect(await targetedRecords(service.client(), 'A', { envId: 'prod', targetPlatforms: ['android'] })).toEqual([]);
    expect(await targetedRecords(service.client(), 'A', { envId: 'qa', targetPlatforms: ['ios'] })).toEqual([]);
  });

  it('settles: applied when no targeted record is left', async () => {
    const service = new FakeService();
    service.records = { IOS1: 'LIVE' };
    const p = params(['ios', 'android'], [record('IOS1', 'ios', 'LIVE'), record('IOS2', 'ios', 'LIVE')]);
    const left = await assetUndeploy.settle!(p, await kindIO(service));
    expect(left.applied).toBe(false);
    expect((left as { how: string }).how).toMatch(/^prod still has .*IOS1/);
    service.records = {};
    expect(await assetUndeploy.settle!(p, await kindIO(service))).toEqual({
      applied: true,
      how: 'prod has no record left for ios, android',
      result: { message: 'Undeploy confirmed by a read of the records.', totalUndeployedVersions: 2 },
    });
  });
});
