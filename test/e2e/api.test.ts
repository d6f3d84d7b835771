// ahs api METHOD PATH (issue 24): any endpoint with the settings every
// command uses, {domainId} filled, the key never printed, pages followed with
// --paginate, exit codes as everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_USER, harness, uid, type Harness } from './helpers.js';
import { startFaultProxy } from '../support/fault-proxy.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe('ahs api', () => {
  it('GET prints the answer unchanged; POST sends --field as the JSON body; a missing thing is exit 4', async () => {
    const id = uid('api');
    const created = await h.ahs(['api', 'POST', '{domainId}/va', '--field', `assetId=${id}`, '--field', 'assetName=Made by api', '--field', 'assetType=1001', '--field', `createdBy=${DEMO_USER}`, '--field', 'localCacheMaxAge:=60']);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.json()).toMatchObject({ assetId: id, assetName: 'Made by api', localCacheMaxAge: 60 });

    const read = await h.ahs(['api', 'get', `/api/v2/{domainId}/va/${id}`]);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(read.json()).toEqual((await h.call('GET', `/va/${id}`)).body);
    const query = await h.ahs(['api', 'GET', `/{domainId}/va/${id}`, '--query', 'assetName']);
    expect(query.stdout).toBe('Made by api');

    const missing = await h.ahs(['api', 'GET', '{domainId}/va/no-such-asset', '--json']);
    expect(missing.exitCode).toBe(4);
    expect(missing.errJson()).toMatchObject({ status: 404 });
  });

  it('--input FILE is the body; an empty answer prints nothing', async () => {
    const id = uid('api');
    await h.createAsset(id);
    const body = await h.file(`${id}.json`, JSON.stringify({ assetType: '1001', assetName: 'renamed', updatedBy: DEMO_USER }));
    const put = await h.ahs(['api', 'PUT', `{domainId}/va/${id}`, '--input', body]);
    expect(put.exitCode, put.stderr).toBe(0);
    expect((await h.call('GET', `/va/${id}`)).body.assetName).toBe('renamed');
    const del = await h.ahs(['api', 'DELETE', `{domainId}/va/${id}`, '--input', await h.file(`${id}-del.json`, JSON.stringify({ deletedBy: DEMO_USER }))]);
    expect(del.exitCode, del.stderr).toBe(0);
    expect(del.stdout).toBe('');
    expect((await h.call('GET', `/va/${id}`)).status).toBe(404);
  });

  it('--paginate reads every page at the size the service allows: one list, each version once', async () => {
    const id = uid('api');
    await h.createAsset(id);
    for (let i = 0; i < 5; i++) await h.uploadVersion(id, 'ios', `1.${i}`);
    const proxy = await startFaultProxy(h.emu.baseUrl, { pageSizeCap: 2 });
    try {
      const r = await h.ahs(['api', 'GET', `{domainId}/va/${id}/versions`, '--paginate'], { env: { AHS_BASE_URL: proxy.url } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ totalResults: 5, pageNumber: 1, pageSize: 5 });
      expect(r.json().results.map((v: { versionId: string }) => v.versionId)).toEqual(['IOS1', 'IOS2', 'IOS3', 'IOS4', 'IOS5']);
      expect(proxy.log.filter((entry) => entry.method === 'GET').length).toBeGreaterThanOrEqual(3);
    } finally {
      await proxy.close();
    }
  });

  it('a refused key is exit 3, and the key is in no output, --verbose included', async () => {
    const r = await h.ahs(['api', 'GET', '{domainId}/va', '--verbose'], { env: { AHS_API_KEY: 'wrong-key-0123456789' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('apikey: ***');
    expect(r.stdout + r.stderr).not.toContain('wrong-key-0123456789');
    const ok = await h.ahs(['api', 'GET', '{domainId}/va', '--verbose']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout + ok.stderr).not.toContain(DEMO_API_KEY);
  });

  it.each([
    [['api', 'FETCH', '{domainId}/va'], 'error: METHOD must be one of GET, POST, PUT, PATCH, DELETE (got FETCH)'],
    [['api', 'GET', '{domainId}/va/{assetId}'], 'error: PATH: {assetId} is not filled by ahs (only {domainId} is); put the value in the path'],
    [['api', 'POST', '{domainId}/va', '--paginate'], 'error: --paginate reads a list: it needs GET (got POST)'],
    [['api', 'POST', '{domainId}/va', '--field', 'novalue'], 'error: --field must be key=value or key:=JSON (got "novalue")'],
    [['api', 'POST', '{domainId}/va', '--field', 'n:=five'], 'error: --field n:= must be followed by a JSON value (got "five"); for text, use n=...'],
  ])('%j: exit 2, nothing sent', async (args, message) => {
    const r = await h.ahs(args, { env: { AHS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(message);
  });
});

// A raw write is a write of ahs (cli.md "Change control"): the executor gates it as every
// other, by the environment or the collection its path and body name, and predicts it in a
// dry run; the library's request() alike.
describe('ahs api under change control', () => {
  let c: Harness;
  let asset: string;
  let version: string;
  beforeAll(async () => {
    c = await harness();
    expect((await c.ahs(['journal', 'init', '--env', 'dev'])).exitCode).toBe(0);
    asset = uid('raw');
    await c.createAsset(asset);
    version = await c.uploadVersion(asset, 'web', '1.0');
  });
  afterAll(async () => c?.close());

  const deployArgs = (env: string) => ['api', 'POST', `va/${asset}/versions/${version}/deploy?targetPlatformId=web`, '--field', `envId=${env}`, '--field', 'intent=LIVE', '--field', `createdBy=${DEMO_USER}`];

  it('a deploy through ahs api to a frozen environment is exit 12 naming the freeze, nothing sent; --break-glass sends it and history shows it', async () => {
    expect((await c.ahs(['freeze', 'staging', '--for', '1h', '--reason', 'launch week'])).exitCode).toBe(0);
    const refused = await c.ahs(deployArgs('staging'));
    expect(refused.exitCode, refused.stderr).toBe(12);
    expect(refused.stderr).toMatch(/^error: staging is frozen .*launch week/m);
    expect(await c.records(asset)).toEqual([]);
    const through = await c.ahs([...deployArgs('staging'), '--break-glass', '--reason', 'hotfix by hand']);
    expect(through.exitCode, through.stderr).toBe(0);
    expect(await c.records(asset)).toEqual([`web/staging/${version}=LIVE`]);
    const history = (await c.ahs(['history', '--json'])).json().results as Array<{ command: string; changes: Array<{ address: string }> }>;
    expect(history.find((entry) => entry.command === 'api')?.changes[0]?.address).toBe('request.POST');
    expect((await c.ahs(['unfreeze', 'staging'])).exitCode).toBe(0);
  });

  it('a blocked version deployed through ahs api is exit 12 naming the block; --dry-run says so and sends nothing', async () => {
    expect((await c.ahs(['version', 'block', asset, version, '--reason', 'crashes on start'])).exitCode).toBe(0);
    const refused = await c.ahs(deployArgs('prod'));
    expect(refused.exitCode, refused.stderr).toBe(12);
    expect(refused.stderr).toMatch(new RegExp(`^error: version ${version} of ${asset} is blocked by ${DEMO_USER}`, 'm'));
    const dry = await c.ahs([...deployArgs('prod'), '--dry-run', '--json']);
    expect(dry.exitCode).toBe(12);
    expect(await c.records(asset)).toEqual([`web/staging/${version}=LIVE`]);
    expect((await c.ahs(['version', 'unblock', asset, version, '--reason', 'fixed server side'])).exitCode).toBe(0);
    const predicted = await c.ahs([...deployArgs('prod'), '--dry-run', '--json']);
    expect(predicted.exitCode, predicted.stderr).toBe(0);
    expect(predicted.json()).toMatchObject({ dryRun: true, request: { method: 'POST', path: `/api/v2/demo/va/${asset}/versions/${version}/deploy?targetPlatformId=web`, body: { envId: 'prod', intent: 'LIVE' } } });
    expect(await c.records(asset)).toEqual([`web/staging/${version}=LIVE`]);
  });

  it("the library's request() of a write obeys the same gate: a BlockedError under a lock another run holds", async () => {
    const lock = await c.ahs(['lock', 'acquire', 'prod', '--ttl', '10m', '--reason', 'release train', '--json']);
    expect(lock.exitCode, lock.stderr).toBe(0);
    const { createClient, BlockedError } = await import('../../src/library/index.js');
    const client = createClient({ baseUrl: c.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER });
    try {
      const write = client.request({ method: 'POST', path: `va/${asset}/versions/${version}/deploy?targetPlatformId=web`, body: { envId: 'prod', intent: 'LIVE', createdBy: DEMO_USER } });
      await expect(write).rejects.toBeInstanceOf(BlockedError);
      await expect(write).rejects.toMatchObject({ blockedBy: 'lock', exitCode: 12 });
      expect(await c.records(asset)).toEqual([`web/staging/${version}=LIVE`]);
      // A read is not gated.
      expect(await client.request<{ assetId: string }>({ method: 'GET', path: `va/${asset}` })).toMatchObject({ assetId: asset });
    } finally {
      await client.close();
    }
  });
});
