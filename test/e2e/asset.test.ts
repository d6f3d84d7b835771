// ahs asset create|get|list|search|update|delete|status|undeploy|version-count
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, hasScript, runInPty, stubServer, uid, DEMO_USER, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe('ahs asset create', () => {
  it('creates an asset (json: the API body unchanged) and 409s on a second create (exit 5)', async () => {
    const id = uid('create');
    const r = await h.ahs(['asset', 'create', id, '--name', 'Bundle', '--type', '1001', '--description', 'desc', '--no-secured', '--local-cache-control', '--local-cache-max-age', '60', '--json']);
    expect(r.exitCode).toBe(0);
    const body = r.json();
    expect(body).toMatchObject({ assetId: id, assetName: 'Bundle', assetType: '1001', secured: false, localCacheControl: true, localCacheMaxAge: 60, createdBy: DEMO_USER, active: true });
    expect(body).not.toHaveProperty('description');
    const server = await h.call('GET', `/va/${id}`);
    expect(server.status).toBe(200);
    const again = await h.ahs(['asset', 'create', id, '--name', 'Bundle', '--type', '1001', '--json']);
    expect(again.exitCode).toBe(5);
    expect(again.stdout).toBe('');
    expect(again.errJson()).toMatchObject({ status: 409 });
  });

  it('prints a table and a success line for people', async () => {
    const id = uid('create');
    const r = await h.ahs(['asset', 'create', id, '--name', 'Bundle', '--type', '1001']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`asset id\\s+${id}`));
    expect(r.stderr).toContain(`Created asset ${id}`);
  });

  it('validates locally before any request (exit 2, nothing sent)', async () => {
    const id = uid('invalid');
    const cases: Array<[string[], RegExp]> = [
      [['--name', 'n', '--type', '1001', '--local-cache-max-age', '0'], /--local-cache-max-age must be an integer from 1 to 525600 \(got 0\)/],
      [['--name', 'x'.repeat(65), '--type', '1001'], /--name must be at most 64 characters/],
      [['--type', '1001'], /--name is required/],
      [['--name', 'n'], /--type is required/],
    ];
    for (const [flags, message] of cases) {
      const r = await h.ahs(['asset', 'create', id, ...flags]);
      expect(r.exitCode, flags.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const noUser = await h.ahs(['asset', 'create', id, '--name', 'n', '--type', '1001'], { env: { AHS_USER: undefined } });
    expect(noUser.exitCode).toBe(2);
    expect(noUser.stderr).toContain('--user');
    expect((await h.call('GET', `/va/${id}`)).status).toBe(404);
  });

  it('maps the service\'s 404 for an unknown asset type to exit 4', async () => {
    const r = await h.ahs(['asset', 'create', uid('type'), '--name', 'n', '--type', '4242']);
    expect(r.exitCode).toBe(4);
  });
});

describe('ahs asset get|list|search|version-count', () => {
  it('gets an asset, 404 is exit 4', async () => {
    const id = uid('get');
    await h.createAsset(id);
    const r = await h.ahs(['asset', 'get', id, '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.json().assetId).toBe(id);
    const missing = await h.ahs(['asset', 'get', 'no-such-asset', '--json']);
    expect(missing.exitCode).toBe(4);
    expect(missing.errJson()).toMatchObject({ status: 404, type: 'https://errors.asset-hosting.example/problem' });
  });

  it('lists one page unchanged, or every page merged with --all', async () => {
    for (let i = 0; i < 3; i++) await h.createAsset(uid('list'));
    const page = await h.ahs(['asset', 'list', '--page-size', '2', '--json']);
    expect(page.exitCode).toBe(0);
    const env = page.json();
    expect(env.pageSize).toBe(2);
    expect(env.results).toHaveLength(2);
    expect(env.totalResults).toBeGreaterThanOrEqual(3);
    const all = await h.ahs(['asset', 'list', '--all', '--page-size', '2', '--json']);
    const merged = all.json();
    expect(merged.pageNumber).toBe(1);
    expect(merged.results).toHaveLength(env.totalResults);
    expect(merged.totalResults).toBe(env.totalResults);
    expect(merged.pageSize).toBe(env.totalResults);
    const table = await h.ahs(['asset', 'list', '--page-size', '2']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ASSET ID\tNAME\tTYPE/);
    expect(table.stderr).toMatch(/page 1 of \d+/);
  });

  it('searches and counts versions', async () => {
    const id = uid('findme');
    await h.createAsset(id);
    const r = await h.ahs(['asset', 'search', id, '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.json().results.hits.map((hit: any) => hit._source.assetId)).toContain(id);
    await h.uploadVersion(id, 'ios');
    await h.uploadVersion(id, 'web');
    const count = await h.ahs(['asset', 'version-count', id, '--json']);
    expect(count.json()).toEqual({ counts: 2 });
    const plain = await h.ahs(['asset', 'version-count', id, '--active']);
    expect(plain.stdout.trim()).toBe('2');
    const conflicting = await h.ahs(['asset', 'version-count', id, '--active', '--inactive']);
    expect(conflicting.exitCode).toBe(2);
  });
});

describe('ahs asset update', () => {
  it('sends the current assetType when --type is absent', async () => {
    const id = uid('upd');
    await h.createAsset(id);
    const r = await h.ahs(['asset', 'update', id, '--name', 'Renamed', '--local-cache-max-age', '120', '--inactive', '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toMatchObject({ assetName: 'Renamed', assetType: '1001', localCacheMaxAge: 120, active: false });
    const server = (await h.call('GET', `/va/${id}`)).body;
    expect(server).toMatchObject({ assetName: 'Renamed', localCacheMaxAge: 120, active: false, updatedBy: DEMO_USER });
    const off = await h.ahs(['asset', 'update', id, '--no-local-cache-control', '--active', '--json']);
    expect(off.json()).toMatchObject({ localCacheControl: false, active: true });
  });

  it('refuses an empty update and an invalid value (exit 2), 404 for a missing asset (exit 4)', async () => {
    expect((await h.ahs(['asset', 'update', 'whatever'])).exitCode).toBe(2);
    expect((await h.ahs(['asset', 'update', 'whatever', '--local-cache-max-age', 'abc'])).exitCode).toBe(2);
    expect((await h.ahs(['asset', 'update', 'no-such-asset', '--name', 'x'])).exitCode).toBe(4);
  });
});

describe('ahs asset delete', () => {
  it('needs --yes without a terminal, 400 with versions (exit 1), 204 without', async () => {
    const id = uid('del');
    await h.createAsset(id);
    const noYes = await h.ahs(['asset', 'delete', id]);
    expect(noYes.exitCode).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    expect((await h.call('GET', `/va/${id}`)).status).toBe(200);

    const withVersion = uid('del');
    await h.createAsset(withVersion);
    await h.uploadVersion(withVersion, 'ios');
    const refused = await h.ahs(['asset', 'delete', withVersion, '--yes', '--json']);
    expect(refused.exitCode).toBe(1);
    expect(refused.errJson().title).toMatch(/contains no versions/);

    const ok = await h.ahs(['asset', 'delete', id, '--yes']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toBe('');
    expect(ok.stderr).toContain(`Deleted asset ${id}`);
    expect((await h.call('GET', `/va/${id}`)).status).toBe(404);
    expect((await h.ahs(['asset', 'delete', id, '--yes'])).exitCode).toBe(4);
  });

  it('--json prints a result object', async () => {
    const id = uid('del');
    await h.createAsset(id);
    const r = await h.ahs(['asset', 'delete', id, '--yes', '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toEqual({ deleted: true, assetId: id });
  });
});

describe('ahs asset status', () => {
  it('shows every record, OFFLINE included, as one list envelope', async () => {
    const id = uid('status');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios');
    const v2 = await h.uploadVersion(id, 'ios');
    const w1 = await h.uploadVersion(id, 'web');
    await h.deploy(id, v1, 'ios', 'staging', 'LIVE');
    await h.deploy(id, v1, 'ios', 'staging', 'DEFAULT');
    await h.deploy(id, v2, 'ios', 'staging', 'OFFLINE');
    await h.deploy(id, w1, 'web', 'prod', 'LIVE');
    const r = await h.ahs(['asset', 'status', id, '--json']);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc).toMatchObject({ totalResults: 3, pageNumber: 1, pageSize: 3 });
    expect(doc.results.map((e: any) => `${e.targetPlatform}/${e.envId}/${e.versionId}=${e.state}`).sort()).toEqual(
      [`ios/staging/${v1}=DEFAULT`, `ios/staging/${v2}=OFFLINE`, `web/prod/${w1}=LIVE`].sort(),
    );
    const offline = await h.ahs(['asset', 'status', id, '--state', 'OFFLINE', '--json']);
    expect(offline.json().results.map((e: any) => e.versionId)).toEqual([v2]);
    const web = await h.ahs(['asset', 'status', id, '--platform', 'web', '--json']);
    expect(web.json().results.map((e: any) => e.versionId)).toEqual([w1]);
    const table = await h.ahs(['asset', 'status', id]);
    expect(table.stdout).toContain(`ios\tstaging\t${v2}\tv\tOFFLINE`);
    expect((await h.ahs(['asset', 'status', 'no-such-asset'])).exitCode).toBe(4);
  });
});

describe('ahs asset undeploy', () => {
  it('removes the records of the platforms in one environment', async () => {
    const id = uid('undeploy');
    await h.createAsset(id);
    const i1 = await h.uploadVersion(id, 'ios');
    const a1 = await h.uploadVersion(id, 'android');
    await h.deploy(id, i1, 'ios', 'staging', 'LIVE');
    await h.deploy(id, a1, 'android', 'staging', 'OFFLINE');
    await h.deploy(id, i1, 'ios', 'prod', 'LIVE');
    const noYes = await h.ahs(['asset', 'undeploy', id, '--env', 'staging', '--platform', 'ios,android']);
    expect(noYes.exitCode).toBe(2);
    const r = await h.ahs(['asset', 'undeploy', id, '--env', 'staging', '--platform', 'ios,android', '--yes', '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toEqual({ message: 'Asset Container undeployed successfully.', totalUndeployedVersions: 2 });
    expect(await h.records(id)).toEqual([`ios/prod/${i1}=LIVE`]);
    const unknown = await h.ahs(['asset', 'undeploy', id, '--env', 'staging', '--platform', 'amiga', '--yes']);
    expect(unknown.exitCode).toBe(4);
    const noEnv = await h.ahs(['asset', 'undeploy', id, '--platform', 'ios', '--yes']);
    expect(noEnv.exitCode).toBe(2);
    expect(noEnv.stderr).toContain('--env');
  });

  it.skipIf(!hasScript)('in a terminal, the confirmation lists the records that will be removed', async () => {
    const id = uid('undeploy');
    await h.createAsset(id);
    for (let i = 0; i < 3; i++) await h.uploadVersion(id, 'ios');
    await h.deploy(id, 'IOS1', 'ios', 'prod', 'LIVE');
    await h.deploy(id, 'IOS2', 'ios', 'prod', 'OFFLINE');
    await h.deploy(id, 'IOS3', 'ios', 'prod', 'LIVE');
    await h.deploy(id, 'IOS3', 'ios', 'staging', 'LIVE');
    const { code, screen } = await runInPty(h.env, ['asset', 'undeploy', id, '--env', 'prod', '--platform', 'ios'], [[/IOS1 LIVE\)\?/, 'y\r']]);
    // The prompt wraps at the terminal's width.
    expect(screen.replace(/\s+/g, ' ')).toContain(`Undeploy every version of ${id} for ios in prod (removes IOS3 LIVE, IOS2 OFFLINE, IOS1 LIVE)?`);
    expect(code).toBe(0);
    expect(await h.records(id)).toEqual([`ios/staging/IOS3=LIVE`]);
  });
});

describe('asset delete of an asset that still has versions', () => {
  it('is refused before the question, sending nothing (exit 1, the service\'s 400 with what to do)', async () => {
    const id = uid('adel');
    await h.createAsset(id);
    await h.uploadVersion(id, 'ios');
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const r = await h.ahs(['asset', 'delete', id, '--yes'], { env: { AHS_BASE_URL: spy.url } });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/nothing was sent: the service would answer 400: .*; delete its versions first/);
      expect(spy.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    } finally {
      await spy.close();
    }
    expect((await h.call('GET', `/va/${id}`)).status).toBe(200);
  });
});
