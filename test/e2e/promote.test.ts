// ahs promote-default: the dance, retries, --make-live, --expect-current, --idempotent,
// and the CI path of issue 4's "Done when".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const CH = ['--platform', 'ios', '--env', 'staging'];

async function channel(versions = 2) {
  const id = uid('promo');
  await h.createAsset(id);
  const ids: string[] = [];
  for (let i = 0; i < versions; i++) ids.push(await h.uploadVersion(id, 'ios', `v${i + 1}`));
  return { id, ids };
}

describe('ahs promote-default', () => {
  it('promotes with no Default yet, then over the previous Default (demoted to LIVE)', async () => {
    const { id, ids } = await channel();
    const [v1, v2] = ids as [string, string];
    await h.deploy(id, v1, 'ios', 'staging', 'LIVE');
    await h.deploy(id, v2, 'ios', 'staging', 'LIVE');
    const first = await h.ahs(['promote-default', id, v1, ...CH, '--json']);
    expect(first.exitCode).toBe(0);
    expect(first.json()).toMatchObject({ assetVersion: { versionId: v1, state: 'DEFAULT' }, message: 'Deployment has been completed.', previousDefault: null, attempts: 1 });
    const second = await h.ahs(['promote-default', id, v2, ...CH]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain(`old Default: ${v1}`);
    expect(second.stdout).toContain(`new Default: ${v2}`);
    expect(second.stderr).toContain(`previous Default ${v1} is now LIVE`);
    expect(await h.records(id)).toEqual([`ios/staging/${v1}=LIVE`, `ios/staging/${v2}=DEFAULT`]);
  });

  it('--make-live deploys an OFFLINE or undeployed version LIVE first', async () => {
    const { id, ids } = await channel();
    const [v1, v2] = ids as [string, string];
    const undeployed = await h.ahs(['promote-default', id, v1, ...CH, '--make-live', '--json']);
    expect(undeployed.exitCode).toBe(0);
    expect(undeployed.json().previousDefault).toBeNull();
    await h.deploy(id, v2, 'ios', 'staging', 'OFFLINE');
    const withoutFlag = await h.ahs(['promote-default', id, v2, ...CH]);
    expect(withoutFlag.exitCode).toBe(1); // the service refuses an OFFLINE version
    const offline = await h.ahs(['promote-default', id, v2, ...CH, '--make-live', '--json']);
    expect(offline.exitCode).toBe(0);
    expect(offline.json().previousDefault).toBe(v1);
    expect(await h.records(id)).toEqual([`ios/staging/${v1}=LIVE`, `ios/staging/${v2}=DEFAULT`]);
  });

  it('--expect-current is a compare-and-set: exit 5 and nothing written when it does not hold', async () => {
    const { id, ids } = await channel(3);
    const [v1, v2, v3] = ids as [string, string, string];
    for (const v of ids) await h.deploy(id, v, 'ios', 'staging', 'LIVE');
    const noneOk = await h.ahs(['promote-default', id, v1, ...CH, '--expect-current', 'none', '--json']);
    expect(noneOk.exitCode).toBe(0);
    const wrong = await h.ahs(['promote-default', id, v2, ...CH, '--expect-current', v3, '--json']);
    expect(wrong.exitCode).toBe(5);
    expect(wrong.errJson()).toMatchObject({ type: 'urn:ahs:conflict', status: null });
    expect(wrong.errJson().title).toContain(v1);
    const noneWrong = await h.ahs(['promote-default', id, v2, ...CH, '--expect-current', 'none']);
    expect(noneWrong.exitCode).toBe(5);
    expect(await h.records(id)).toEqual([`ios/staging/${v1}=DEFAULT`, `ios/staging/${v2}=LIVE`, `ios/staging/${v3}=LIVE`]);
    const right = await h.ahs(['promote-default', id, v2, ...CH, '--expect-current', v1, '--json']);
    expect(right.exitCode).toBe(0);
    expect(right.json().previousDefault).toBe(v1);
  });

  it('--idempotent: already the Default is success with nothing sent, checked before --expect-current', async () => {
    const { id, ids } = await channel(1);
    const [v1] = ids as [string];
    await h.deploy(id, v1, 'ios', 'staging', 'LIVE');
    await h.deploy(id, v1, 'ios', 'staging', 'DEFAULT');
    const plain = await h.ahs(['promote-default', id, v1, ...CH]);
    expect(plain.exitCode).toBe(1);
    const idem = await h.ahs(['promote-default', id, v1, ...CH, '--idempotent', '--expect-current', 'none', '--json']);
    expect(idem.exitCode).toBe(0);
    expect(idem.json()).toMatchObject({ changed: false, state: 'DEFAULT' });
  });

  it('retries a real 409 (the pointer moved between read and write) with a fresh read', async () => {
    const { id, ids } = await channel(3);
    const [v1, v2, v3] = ids as [string, string, string];
    for (const v of ids) await h.deploy(id, v, 'ios', 'staging', 'LIVE');
    await h.deploy(id, v1, 'ios', 'staging', 'DEFAULT');
    let raced = false;
    // Another pipeline promotes v2 just before our first write arrives.
    const stub = await stubServer(async (req) => {
      if (!raced && req.method === 'POST' && req.url?.includes('/deploy')) {
        raced = true;
        await h.deploy(id, v2, 'ios', 'staging', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' });
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const r = await h.ahs(['promote-default', id, v3, ...CH, '--json'], { env: { AHS_BASE_URL: stub.url } });
      expect(r.exitCode).toBe(0);
      expect(r.json()).toMatchObject({ previousDefault: v2, attempts: 2 });
      expect(r.stderr).toContain('moved');
    } finally {
      await stub.close();
    }
    expect(await h.records(id)).toEqual([`ios/staging/${v1}=LIVE`, `ios/staging/${v2}=LIVE`, `ios/staging/${v3}=DEFAULT`]);
  });

  it('retries the stale-read 400 (a Default appeared after the read)', async () => {
    const { id, ids } = await channel(2);
    const [v1, v2] = ids as [string, string];
    for (const v of ids) await h.deploy(id, v, 'ios', 'staging', 'LIVE');
    let raced = false;
    const stub = await stubServer(async (req) => {
      if (!raced && req.method === 'POST' && req.url?.includes('/deploy')) {
        raced = true;
        await h.deploy(id, v1, 'ios', 'staging', 'DEFAULT');
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const r = await h.ahs(['promote-default', id, v2, ...CH, '--json'], { env: { AHS_BASE_URL: stub.url } });
      expect(r.exitCode).toBe(0);
      expect(r.json()).toMatchObject({ previousDefault: v1, attempts: 2 });
    } finally {
      await stub.close();
    }
  });

  it('gives up with exit 5 when the 409 keeps standing', async () => {
    const { id, ids } = await channel(2);
    for (const v of ids) await h.deploy(id, v, 'ios', 'staging', 'LIVE');
    const stub = await stubServer((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(409, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'https://errors.asset-hosting.example/problem', title: 'The Default pointer moved', status: 409, detail: 'The Default pointer moved' }));
        return true;
      }
      return false;
    }, h.emu.baseUrl);
    try {
      // The waits between attempts take at most half of what is left of --timeout: 0.5 s keeps them near 0.4 s in all
      // instead of the default backoff's 3.4 s; the attempts are counted, not the budget (each request is local).
      const r = await h.ahs(['promote-default', id, ids[1]!, ...CH, '--json', '--timeout', '0.5'], { env: { AHS_BASE_URL: stub.url } });
      expect(r.exitCode).toBe(5);
      expect(r.errJson()).toMatchObject({ status: 409 });
      expect(stub.requests.filter((q) => q.method === 'POST')).toHaveLength(5);
    } finally {
      await stub.close();
    }
  });

  it('without a terminal, a missing argument is a usage error naming it', async () => {
    const r = await h.ahs(['promote-default', '--platform', 'ios', '--env', 'staging']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('ASSET_ID is required');
    const noEnv = await h.ahs(['promote-default', 'x', 'IOS1', '--platform', 'ios']);
    expect(noEnv.exitCode).toBe(2);
    expect(noEnv.stderr).toContain('--env');
  });
});

describe('the CI path (issue 4, "Done when")', () => {
  it('create, upload, deploy LIVE in staging, promote over the previous Default, one DEFAULT on the channel', async () => {
    const id = uid('ci');
    const file = await h.file('release.zip', 'release');
    const run = async (args: string[]) => {
      const r = await h.ahs([...args, '--json', '--no-input']);
      expect(r.exitCode, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      return r.json();
    };
    await run(['asset', 'create', id, '--name', 'CI asset', '--type', '1001']);
    const first = (await run(['version', 'upload', id, file, '--platform', 'ios', '--name', '1.0.0'])).versionId;
    await run(['deploy', id, first, '--platform', 'ios', '--env', 'staging']);
    await run(['promote-default', id, first, '--platform', 'ios', '--env', 'staging']);
    const second = (await run(['version', 'upload', id, file, '--platform', 'ios', '--name', '1.0.1'])).versionId;
    await run(['deploy', id, second, '--platform', 'ios', '--env', 'staging']);
    const promoted = await run(['promote-default', id, second, '--platform', 'ios', '--env', 'staging']);
    expect(promoted.previousDefault).toBe(first);
    const status = await run(['asset', 'status', id]);
    const channelRecords = status.results.filter((e: any) => e.targetPlatform === 'ios' && e.envId === 'staging');
    expect(channelRecords.filter((e: any) => e.state === 'DEFAULT').map((e: any) => e.versionId)).toEqual([second]);
  });

  it('a version not LIVE on the channel, without --make-live: refused before sending, saying to use --make-live', async () => {
    const { id, ids } = await channel(1);
    const [v1] = ids as [string];
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const r = await h.ahs(['promote-default', id, v1, ...CH], { env: { AHS_BASE_URL: spy.url } });
      expect(r.exitCode).toBe(4); // the service's 404: nothing deployed yet on this channel
      expect(r.stderr).toMatch(/^error: nothing was sent: the service would answer 404: .*; .* is not deployed on .*: add --make-live/);
      expect(spy.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    } finally {
      await spy.close();
    }
    expect(await h.records(id)).toEqual([]);
  });

  it('--from-env promotes what is Default in the source environment (no upload); a source without a Default is named', async () => {
    const { id, ids } = await channel(2);
    const [, v2] = ids as [string, string];
    await h.deploy(id, v2, 'ios', 'dev', 'LIVE');
    await h.deploy(id, v2, 'ios', 'dev', 'DEFAULT');
    const r = await h.ahs(['promote-default', id, '--from-env', 'dev', ...CH, '--make-live', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ assetVersion: { versionId: v2, state: 'DEFAULT', envId: 'staging' }, previousDefault: null });
    expect(await h.records(id)).toEqual([`ios/dev/${v2}=DEFAULT`, `ios/staging/${v2}=DEFAULT`]);
    const none = await h.ahs(['promote-default', id, '--from-env', 'prod', ...CH]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toBe(`error: prod has no Default for ${id} on ios: nothing to promote from --from-env prod`);
    const both = await h.ahs(['promote-default', id, v2, '--from-env', 'dev', ...CH]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('give VERSION_ID or --from-env, not both');
  });
});
