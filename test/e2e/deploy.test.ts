// ahs deploy ASSET VERSION --platform --env [--state] [--idempotent]
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

async function seed(platform = 'ios') {
  const id = uid('dep');
  await h.createAsset(id);
  const v = await h.uploadVersion(id, platform);
  return { id, v };
}

describe('ahs deploy', () => {
  it('deploys LIVE by default, then OFFLINE, printing the deploy response', async () => {
    const { id, v } = await seed();
    const live = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'staging', '--json']);
    expect(live.exitCode).toBe(0);
    expect(live.json()).toMatchObject({ message: 'Deployment has been completed.', assetVersion: { versionId: v, state: 'LIVE', envId: 'staging' } });
    const off = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'staging', '--state', 'OFFLINE']);
    expect(off.exitCode).toBe(0);
    expect(off.stderr).toContain(`${v} is now OFFLINE on ${id}/ios/staging`);
    expect(await h.records(id)).toEqual([`ios/staging/${v}=OFFLINE`]);
  });

  it('takes --platform/--env from the environment or fails naming the flag', async () => {
    const { id, v } = await seed();
    const r = await h.ahs(['deploy', id, v, '--json'], { env: { AHS_PLATFORM: 'ios', AHS_ENV: 'dev' } });
    expect(r.exitCode).toBe(0);
    expect(await h.records(id)).toEqual([`ios/dev/${v}=LIVE`]);
    const noPlatform = await h.ahs(['deploy', id, v, '--env', 'dev']);
    expect(noPlatform.exitCode).toBe(2);
    expect(noPlatform.stderr).toContain('--platform');
    const badState = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'dev', '--state', 'DEFAULT']);
    expect(badState.exitCode).toBe(2);
  });

  it('already in the target state: 400 (exit 1), or exit 0 with --idempotent and nothing sent', async () => {
    const { id, v } = await seed();
    await h.deploy(id, v, 'ios', 'prod', 'LIVE');
    const again = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'prod', '--json']);
    expect(again.exitCode).toBe(1);
    expect(again.errJson()).toMatchObject({ status: 400 });
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const idem = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'prod', '--idempotent', '--json'], { env: { AHS_BASE_URL: spy.url } });
      expect(idem.exitCode).toBe(0);
      expect(idem.json()).toMatchObject({ changed: false, state: 'LIVE' });
      expect(spy.requests.length).toBeGreaterThan(0);
      expect(spy.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await spy.close();
    }
    expect(await h.records(id)).toEqual([`ios/prod/${v}=LIVE`]);
  });

  it('a DEFAULT asked to go LIVE is not "already there" even with --idempotent (400, exit 1)', async () => {
    const { id, v } = await seed();
    await h.deploy(id, v, 'ios', 'prod', 'LIVE');
    await h.deploy(id, v, 'ios', 'prod', 'DEFAULT');
    const r = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'prod', '--idempotent']);
    expect(r.exitCode).toBe(1);
    expect(await h.records(id)).toEqual([`ios/prod/${v}=DEFAULT`]);
  });

  it('404s: unknown version, version of another platform, unknown env (exit 4)', async () => {
    const { id, v } = await seed();
    expect((await h.ahs(['deploy', id, 'IOS77', '--platform', 'ios', '--env', 'dev'])).exitCode).toBe(4);
    expect((await h.ahs(['deploy', id, v, '--platform', 'web', '--env', 'dev'])).exitCode).toBe(4);
    expect((await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'moon'])).exitCode).toBe(4);
    expect(await h.records(id)).toEqual([]);
  });
});
