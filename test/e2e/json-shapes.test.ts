// One command, one JSON shape, whatever path it took (issue 24): a fresh
// run, a re-run and a write whose answer was lost and settled by a read
// print the same keys (README, "JSON output of commands that are not one
// API body").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, uid, type Harness } from './helpers.js';
import { SPARE_CONTROL, startFaultProxy } from '../support/fault-proxy.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const CH = ['--platform', 'ios', '--env', 'prod'];

/** Every key of a document, nested ones as `a.b`, sorted: the shape without the values. */
function shape(doc: unknown, prefix = ''): string[] {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return [];
  return Object.entries(doc as Record<string, unknown>)
    .flatMap(([key, value]) => [`${prefix}${key}`, ...shape(value, `${prefix}${key}.`)])
    .sort();
}

const DEPLOYMENT_RECORD = ['active', 'assetType', 'createdAt', 'createdBy', 'envId', 'fallback', 'lock', 'secured', 'size', 'state', 'targetPlatform', 'updatedAt', 'updatedBy', 'uploadStatus', 'version', 'versionId', 'versionName'];
/** release's assetVersion: the fields an asset-urls entry and a deploy answer share. */
const ASSET_URL = ['assetId', 'assetType', 'envId', 'secured', 'state', 'targetPlatform', 'version', 'versionId', 'versionName'];

/** Runs ahs with every answer to a deploy POST lost after the service applied it (settled by reads). */
async function answersLost(args: string[]) {
  const proxy = await startFaultProxy(h.emu.baseUrl, { spare: SPARE_CONTROL });
  try {
    proxy.inject({ kind: 'reset-after' }, { method: 'POST', path: /\/deploy$/, times: 5 });
    const run = await h.ahs(args, { env: { AHS_BASE_URL: proxy.url } });
    expect(proxy.log.some((r) => r.fault === 'reset-after'), 'an answer was lost').toBe(true);
    return run;
  } finally {
    await proxy.close();
  }
}

describe('release --json', () => {
  it('a fresh run, a re-run and a run whose answers were lost give the same keys; assetVersion is the asset-urls entry', async () => {
    const id = uid('shape');
    await h.createAsset(id);
    const file = await h.file('shape.zip', 'one shape');
    const fresh = await h.ahs(['release', id, file, ...CH, '--name', '1.0', '--json']);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    const again = await h.ahs(['release', id, file, ...CH, '--name', '1.0', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    const lost = await answersLost(['release', id, await h.file('shape-2.zip', 'other shape'), ...CH, '--name', '2.0', '--json']);
    expect(lost.exitCode, lost.stderr).toBe(0);
    expect(lost.stderr).toContain('a read confirms the write was applied');

    const keys = shape(fresh.json());
    expect(shape(again.json())).toEqual(keys);
    expect(shape(lost.json())).toEqual(keys);
    for (const run of [fresh, again, lost]) expect(Object.keys(run.json().assetVersion).sort()).toEqual(ASSET_URL);
    expect(fresh.json().assetVersion).toEqual(again.json().assetVersion);
    expect(lost.json()).toMatchObject({ assetVersion: { versionId: 'IOS2', state: 'DEFAULT' }, previousDefault: 'IOS1' });
    expect(again.json().previousDefault).toBeNull();
    expect(await h.records(id)).toEqual(['ios/prod/IOS1=LIVE', 'ios/prod/IOS2=DEFAULT']);
  });
});

describe('deploy and promote-default --json', () => {
  it('deploy: the settled answer has the deployment record keys, and the table says how it was confirmed', async () => {
    const id = uid('shape');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios');
    const v2 = await h.uploadVersion(id, 'ios');
    const fresh = await h.ahs(['deploy', id, v1, ...CH, '--json']);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    const lost = await answersLost(['deploy', id, v2, ...CH, '--json']);
    expect(lost.exitCode, lost.stderr).toBe(0);
    expect(Object.keys(fresh.json().assetVersion).sort()).toEqual(DEPLOYMENT_RECORD);
    expect(shape(lost.json())).toEqual(shape(fresh.json()));
    expect(lost.json().assetVersion).toMatchObject({ versionId: v2, state: 'LIVE', size: fresh.json().assetVersion.size, updatedAt: null, updatedBy: null });

    const table = await answersLost(['deploy', id, v1, '--platform', 'ios', '--env', 'dev']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/updated\s+\(confirmed by a read of the channel\)/);
    expect(table.stdout).not.toContain('undefined');
    expect(await h.records(id)).toEqual([`ios/dev/${v1}=LIVE`, `ios/prod/${v1}=LIVE`, `ios/prod/${v2}=LIVE`]);
  });

  it('promote-default: fresh and settled give the same keys', async () => {
    const id = uid('shape');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios');
    const v2 = await h.uploadVersion(id, 'ios');
    for (const v of [v1, v2]) expect((await h.deploy(id, v, 'ios', 'prod', 'LIVE')).status).toBe(201);
    const fresh = await h.ahs(['promote-default', id, v1, ...CH, '--json']);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    const lost = await answersLost(['promote-default', id, v2, ...CH, '--json']);
    expect(lost.exitCode, lost.stderr).toBe(0);
    expect(shape(lost.json())).toEqual(shape(fresh.json()));
    expect(lost.json()).toMatchObject({ previousDefault: v1, assetVersion: { versionId: v2, state: 'DEFAULT' } });
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=LIVE`, `ios/prod/${v2}=DEFAULT`]);
  });
});
