// What a new user tripped over (issue 37): each point as a person or a
// script meets it, against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startFaultProxy } from '../support/fault-proxy.js';
import { DEMO_USER, ERROR_TYPE, harness, hasScript, runInPty, stubServer, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

async function createCollection(id: string, extra: Record<string, unknown> = {}): Promise<void> {
  const r = await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['9999'], maxAssets: 10, createdBy: DEMO_USER, ...extra });
  if (r.status !== 201) throw new Error(`seed collection ${id}: ${r.status} ${JSON.stringify(r.body)}`);
}

async function folder(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(h.dir, name);
  await mkdir(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) await writeFile(join(dir, file), content);
  return dir;
}

describe('a refusal predicted before anything was sent', () => {
  it('is urn:ahs:predicted with status null and the predicted body, and its text does not look like an answer', async () => {
    const id = uid('pred');
    await createCollection(id);
    const dir = await folder(id, { 'a.zip': 'a' });
    const text = await h.ahs(['item', 'sync', id, dir, '--type', '1001']);
    expect(text.exitCode).toBe(1);
    expect(text.stderr).toMatch(/^error: nothing was sent: the service would answer 400: .*1001/m);
    expect(text.stderr).not.toContain('(HTTP 400)');

    const outFile = join(h.dir, `${id}.jsonl`);
    const json = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--json'], { env: { AHS_OUTPUT_FILE: outFile } });
    expect(json.exitCode).toBe(1);
    const error = json.errJson();
    expect(error).toMatchObject({ type: 'urn:ahs:predicted', status: null, predicted: { status: 400, type: 'https://errors.asset-hosting.example/problem' } });
    expect(error.title).toMatch(/^nothing was sent: the service would answer 400: /);
    const line = JSON.parse((await readFile(outFile, 'utf8')).trim());
    expect(line).toMatchObject({ exitCode: 1, result: { type: 'urn:ahs:predicted', status: null, predicted: { status: 400 } } });
  });
});

describe('what ahs itself established', () => {
  it('a not-found it read for itself is urn:ahs:not-found, exit 4', async () => {
    const run = await h.ahs(['collection', 'status', uid('nowhere'), '--json']);
    expect(run.exitCode).toBe(4);
    expect(run.errJson()).toMatchObject({ type: 'urn:ahs:not-found', status: null, title: expect.stringMatching(/not found/) });
  });
});

describe('a delivery refusal reads as the service\'s answer, in every command', () => {
  it('version download and fetch --url: the error body unchanged, exit 4 for a 404', async () => {
    const id = uid('dl');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    await h.deploy(id, v, 'ios', 'prod', 'LIVE');
    const wrong = `${h.emu.deliveryUrl}/no-such-prefix`;
    const download = await h.ahs(['version', 'download', id, v, '--env', 'prod', '-O', join(h.dir, `${id}.zip`), '--delivery-url', wrong, '--json']);
    expect(download.exitCode).toBe(4);
    const body = download.errJson();
    expect(body).toMatchObject({ type: ERROR_TYPE, status: 404 });
    const url = await h.ahs(['fetch', '--url', `${wrong}/api/vi/demo/x`, '--dir', h.dir, '--json']);
    expect(url.exitCode).toBe(4);
    expect(Object.keys(url.errJson()).sort()).toEqual(Object.keys(body).sort());
    expect(url.errJson()).toMatchObject({ type: ERROR_TYPE, status: 404 });
  });

  it('an answer with no error body: the four fields with its status, said once', async () => {
    const id = uid('dl');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    await h.deploy(id, v, 'ios', 'prod', 'LIVE');
    const bare = await stubServer((_req, res) => {
      res.writeHead(404).end();
      return true;
    });
    try {
      const args = ['version', 'download', id, v, '--env', 'prod', '-O', join(h.dir, `${id}.zip`), '--delivery-url', bare.url];
      const text = await h.ahs(args);
      expect(text.exitCode).toBe(4);
      expect(text.stderr).toBe('error: the service answered 404 with no error body');
      const json = await h.ahs([...args, '--json']);
      expect(json.errJson()).toEqual({ type: 'urn:ahs:http', title: 'the service answered 404 with no error body', status: 404, detail: 'the service answered 404 with no error body' });
      const url = await h.ahs(['fetch', '--url', `${bare.url}/api/vi/demo/x`, '--dir', h.dir, '--json']);
      expect(url.exitCode).toBe(4);
      expect(url.errJson()).toEqual(json.errJson());
    } finally {
      await bare.close();
    }
  });
});

describe('item sync when only the network failed', () => {
  it('exits 6, as fetch and item upload do (a refused file is still 1: item-sync.test.ts)', async () => {
    const id = uid('net');
    await createCollection(id);
    const dir = await folder(id, { 'a.txt': 'a', 'b.txt': 'b' });
    const proxy = await startFaultProxy(h.emu.baseUrl);
    try {
      proxy.inject({ kind: 'reset-before' }, { method: 'POST', path: /\/items$/, times: 100 });
      const text = await h.ahs(['item', 'sync', id, dir, '--type', '9999', '--timeout', '1'], { env: { AHS_BASE_URL: proxy.url } });
      expect(text.exitCode, text.stderr).toBe(6);
      expect(text.stderr).toMatch(/failed: a\.txt/);
      const json = await h.ahs(['item', 'sync', id, dir, '--type', '9999', '--json', '--timeout', '1'], { env: { AHS_BASE_URL: proxy.url } });
      expect(json.exitCode).toBe(6);
      // The first failure's own body: a lost upload no read shows done is an unknown outcome (exit 6 too).
      expect(json.errJson()).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
    } finally {
      await proxy.close();
    }
    const items = await h.call('GET', `/vc/${id}/items`);
    expect(items.body.totalResults).toBe(0);
  });
});

describe('waits after a deployment\'s 500 honour Retry-After', () => {
  it('a Retry-After longer than --timeout allows is not waited out: exit 5 after the one send', async () => {
    const id = uid('ra');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    const proxy = await startFaultProxy(h.emu.baseUrl);
    try {
      proxy.inject({ kind: 'status', status: 500, body: JSON.stringify({ type: ERROR_TYPE, title: 'busy', status: 500, detail: 'busy' }), headers: { 'content-type': 'application/json', 'retry-after': '3600' } }, { method: 'POST', path: /\/deploy$/, times: 1 });
      const run = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'prod', '--timeout', '20'], { env: { AHS_BASE_URL: proxy.url } });
      expect(run.exitCode, run.stderr).toBe(5);
      expect(proxy.log.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
    expect(await h.records(id)).toEqual([]);
  });
});

describe('a flag and its environment variable mean the same thing', () => {
  it('AHS_ENV=prod asset status is --env prod; AHS_PLATFORM=ios version list is --platform ios; a profile\'s default narrows nothing', async () => {
    const id = uid('env');
    await h.createAsset(id);
    const ios = await h.uploadVersion(id, 'ios');
    const android = await h.uploadVersion(id, 'android');
    for (const env of ['dev', 'staging', 'prod']) await h.deploy(id, ios, 'ios', env, 'LIVE');
    await h.deploy(id, android, 'android', 'prod', 'LIVE');
    const envs = (run: { json(): any }) => run.json().results.map((r: any) => `${r.targetPlatform}/${r.envId}`).sort();

    const byFlag = await h.ahs(['asset', 'status', id, '--env', 'prod', '--json']);
    const byEnv = await h.ahs(['asset', 'status', id, '--json'], { env: { AHS_ENV: 'prod' } });
    expect(envs(byFlag)).toEqual(['android/prod', 'ios/prod']);
    expect(envs(byEnv)).toEqual(envs(byFlag));
    const both = await h.ahs(['asset', 'status', id, '--json'], { env: { AHS_ENV: 'prod', AHS_PLATFORM: 'ios' } });
    expect(envs(both)).toEqual(['ios/prod']);

    const listed = await h.ahs(['version', 'list', id, '--json'], { env: { AHS_PLATFORM: 'ios' } });
    expect(listed.json().results.map((v: any) => v.versionId)).toEqual([ios]);

    // A profile's environment and platform are defaults for writes, not filters.
    const profile = await h.ahs(['profile', 'add', 'narrow', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--env', 'prod', '--platform', 'ios', '--user', DEMO_USER, '--api-key-stdin'], { input: 'demo-key\n' });
    expect(profile.exitCode, profile.stderr).toBe(0);
    const viaProfile = await h.ahs(['asset', 'status', id, '--json', '--profile', 'narrow'], { env: { AHS_BASE_URL: undefined, AHS_DOMAIN: undefined, AHS_API_KEY: undefined } });
    expect(viaProfile.exitCode, viaProfile.stderr).toBe(0);
    expect(envs(viaProfile)).toEqual(['android/prod', 'ios/dev', 'ios/prod', 'ios/staging']);
    expect((await h.ahs(['profile', 'remove', 'narrow', '--yes'])).exitCode).toBe(0);
  });
});

describe('collection create names a platform it did not get on the command line', () => {
  it('from the environment or a profile, said; from --platform, nothing to say', async () => {
    const fromEnv = uid('cp');
    const env = await h.ahs(['collection', 'create', fromEnv, '--name', 'n', '--allowed-types', '9999'], { env: { AHS_PLATFORM: 'ios' } });
    expect(env.exitCode, env.stderr).toBe(0);
    expect(env.stderr).toContain("platform ios, from environment variable AHS_PLATFORM: a collection's platform can never change (--platform chooses another)");
    expect((await h.call('GET', `/vc/${fromEnv}`)).body.targetPlatform).toBe('ios');

    await h.ahs(['profile', 'add', 'emu', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--platform', 'android', '--user', DEMO_USER, '--api-key-stdin'], { input: 'demo-key\n' });
    const fromProfile = uid('cp');
    const profile = await h.ahs(['collection', 'create', fromProfile, '--name', 'n', '--allowed-types', '9999', '--profile', 'emu', '--json']);
    expect(profile.exitCode, profile.stderr).toBe(0);
    expect(profile.stderr).toContain('platform android, from profile "emu"');
    expect(profile.json().targetPlatform).toBe('android');

    const typed = await h.ahs(['collection', 'create', uid('cp'), '--name', 'n', '--allowed-types', '9999', '--platform', 'web'], { env: { AHS_PLATFORM: 'ios' } });
    expect(typed.exitCode, typed.stderr).toBe(0);
    expect(typed.stderr).not.toContain('can never change');
    expect((await h.ahs(['profile', 'remove', 'emu', '--yes'])).exitCode).toBe(0);
  });
});

describe('promote-default --from-env', () => {
  it('the same environment as --env is refused before sending (exit 2); otherwise it says which version it resolved', async () => {
    const id = uid('from');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios', '1.5.0');
    await h.deploy(id, v, 'ios', 'staging', 'LIVE');
    await h.deploy(id, v, 'ios', 'staging', 'DEFAULT');
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const same = await h.ahs(['promote-default', id, '--from-env', 'staging', '--platform', 'ios', '--env', 'staging'], { env: { AHS_BASE_URL: spy.url } });
      expect(same.exitCode).toBe(2);
      expect(same.stderr).toBe('error: --from-env staging is the environment being promoted in (--env staging): its Default is already its Default; name another source environment. Nothing was sent');
      expect(spy.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await spy.close();
    }
    const prod = await h.ahs(['promote-default', id, '--from-env', 'staging', '--platform', 'ios', '--env', 'prod', '--make-live']);
    expect(prod.exitCode, prod.stderr).toBe(0);
    expect(prod.stderr).toContain(`${v} (1.5.0) is the Default of ${id}/ios/staging (--from-env staging)`);
    const again = await h.ahs(['promote-default', id, '--from-env', 'staging', '--platform', 'ios', '--env', 'prod', '--idempotent']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${v} (1.5.0) is the Default of ${id}/ios/staging (--from-env staging)`);
    expect(await h.records(id)).toEqual([`ios/prod/${v}=DEFAULT`, `ios/staging/${v}=DEFAULT`]);
  });
});

describe('items in name order, as item sync lists them', () => {
  /** A collection Live in dev whose items were uploaded in the order given (so their ids follow it). */
  async function liveInOrder(names: string[]): Promise<string> {
    const id = uid('order');
    await createCollection(id);
    for (const name of names) expect((await h.ahs(['item', 'upload', id, await h.file(name, `${name} bytes`), '--type', '9999'])).exitCode).toBe(0);
    expect((await h.ahs(['collection-deploy', id, '--env', 'dev'])).exitCode).toBe(0);
    return id;
  }

  it("fetch's table", async () => {
    const id = await liveInOrder(['zeta.txt', 'alpha.txt', 'mu.txt']);
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', join(h.dir, `${id}-out`)]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.split('\n').slice(1).map((line) => line.split('\t')[0])).toEqual(['alpha.txt', 'mu.txt', 'zeta.txt']);
  });

  it.skipIf(!hasScript)("fetch's picker", async () => {
    const id = await liveInOrder(['zulu.txt', 'bravo.txt']);
    const { code, screen } = await runInPty(
      { ...h.env, COLUMNS: '100' },
      ['fetch', '--dir', `${id}-picked`],
      [
        [/Collection \(type to search\)/, id],
        [new RegExp(`${id}\\r\\n❯ [^\\r\\n]*${id}[^\\r\\n]*\\r\\n\\r\\n`), '\r'],
        [/Items to download[\s\S]*zulu\.txt[\s\S]*submit/, '\r'],
      ],
      { cwd: h.dir },
    );
    expect(code, screen).toBe(0);
    const list = screen.slice(screen.indexOf('Items to download'));
    expect(list.indexOf('bravo.txt')).toBeGreaterThan(0);
    expect(list.indexOf('bravo.txt')).toBeLessThan(list.indexOf('zulu.txt'));
  });
});

describe('an answer that is not JSON', () => {
  it('is urn:ahs:unexpected-answer, exit 1, and not sent again', async () => {
    const html = await stubServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in to the proxy</body></html>');
      return true;
    });
    try {
      const run = await h.ahs(['asset', 'get', 'anything', '--json', '--retries', '3'], { env: { AHS_BASE_URL: html.url } });
      expect(run.exitCode).toBe(1);
      expect(run.errJson()).toMatchObject({ type: 'urn:ahs:unexpected-answer', status: null, title: expect.stringMatching(/^GET \/va\/anything answered 200 with a text\/html body .*not JSON/) });
      expect(html.requests).toHaveLength(1);
    } finally {
      await html.close();
    }
  });
});
