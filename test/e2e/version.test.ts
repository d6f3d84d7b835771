// ahs version upload|get|list|delete|urls
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, DEMO_USER, ERROR_TYPE, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe('ahs version upload', () => {
  it('streams the file as multipart and prints the version (json)', async () => {
    const id = uid('up');
    await h.createAsset(id);
    const file = await h.file('app.zip', Buffer.alloc(300_000, 7));
    const r = await h.ahs(['version', 'upload', id, file, '--platform', 'ios', '--name', 'v1.0.0', '--json']);
    expect(r.exitCode).toBe(0);
    const version = r.json();
    expect(version).toMatchObject({ versionId: 'IOS1', version: 1, versionName: 'v1.0.0', targetPlatform: 'ios', fileName: 'app.zip', createdBy: DEMO_USER, uploadStatus: 'Committed' });
    // CI: a plain final line on stderr, no live bar escape codes
    expect(r.stderr).toMatch(/Uploaded app\.zip as IOS1 \(300\.0 KB/);
    expect(r.stderr).not.toContain('\x1b[');
    const second = await h.ahs(['version', 'upload', id, file, '--platform', 'ios', '--name', 'v1.0.1', '--quiet', '--json']);
    expect(second.json().versionId).toBe('IOS2');
    expect(second.stderr).toBe('');
    const server = await h.call('GET', `/va/${id}/versions/IOS2`);
    expect(server.body.versionName).toBe('v1.0.1');
  });

  it('refuses locally: missing file, missing --platform, missing --name, long name (exit 2)', async () => {
    const id = uid('up');
    await h.createAsset(id);
    const file = await h.file('x.zip', 'x');
    const cases: Array<[string[], RegExp]> = [
      [[id, `${file}.missing`, '--platform', 'ios', '--name', 'n'], /no such file/],
      [[id, file, '--name', 'n'], /--platform/],
      [[id, file, '--platform', 'ios'], /--name is required/],
      [[id, file, '--platform', 'ios', '--name', 'n'.repeat(65)], /--name must be at most 64/],
      [[id], /FILE is required/],
    ];
    for (const [args, message] of cases) {
      const r = await h.ahs(['version', 'upload', ...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect((await h.call('GET', `/va/${id}/version-count`)).body.counts).toBe(0);
  });

  it('maps service errors: unknown asset or platform (4), bad key (3)', async () => {
    const file = await h.file('y.zip', 'y');
    expect((await h.ahs(['version', 'upload', 'no-such-asset', file, '--platform', 'ios', '--name', 'n'])).exitCode).toBe(4);
    const id = uid('up');
    await h.createAsset(id);
    expect((await h.ahs(['version', 'upload', id, file, '--platform', 'amiga', '--name', 'n'])).exitCode).toBe(4);
    expect((await h.ahs(['version', 'upload', id, file, '--platform', 'ios', '--name', 'n'], { env: { AHS_API_KEY: 'bad-key-0000' } })).exitCode).toBe(3);
  });
});

describe('ahs version get|list|urls|delete', () => {
  it('reads versions and their deployed URL', async () => {
    const id = uid('ver');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', 'one');
    const v2 = await h.uploadVersion(id, 'ios', 'two');
    await h.uploadVersion(id, 'web', 'three');
    const get = await h.ahs(['version', 'get', id, v2, '--json']);
    expect(get.json()).toMatchObject({ versionId: v2, versionName: 'two' });
    expect((await h.ahs(['version', 'get', id, 'IOS99'])).exitCode).toBe(4);
    const page = await h.ahs(['version', 'list', id, '--page-size', '2', '--json']);
    expect(page.json()).toMatchObject({ totalResults: 3, pageSize: 2 });
    const all = await h.ahs(['version', 'list', id, '--all', '--page-size', '2', '--json']);
    expect(all.json()).toMatchObject({ totalResults: 3, pageNumber: 1, pageSize: 3 });
    expect(all.json().results).toHaveLength(3);

    await h.deploy(id, v1, 'ios', 'staging', 'LIVE');
    const urls = await h.ahs(['version', 'urls', id, v1, '--env', 'staging', '--json']);
    expect(urls.exitCode).toBe(0);
    expect(urls.json().results[0]).toMatchObject({ versionId: v1, envId: 'staging', state: 'LIVE' });
    expect(urls.json().results[0].downloadUrl).toMatch(/^http/);
    const noEnv = await h.ahs(['version', 'urls', id, v1]);
    expect(noEnv.exitCode).toBe(2);
    expect(noEnv.stderr).toContain('--env');
  });

  it('refuses a version LIVE or DEFAULT somewhere before asking, sending nothing (exit 1, urn:ahs:predicted holding the service\'s error body); without --yes, before any request (exit 2)', async () => {
    const id = uid('vdel');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios');
    await h.deploy(id, v1, 'ios', 'prod', 'LIVE');
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      // Outside a terminal without --yes: refused before any request at all.
      const unconfirmed = await h.ahs(['version', 'delete', id, v1], { env: { AHS_BASE_URL: spy.url } });
      expect(unconfirmed.exitCode).toBe(2);
      expect(unconfirmed.stderr).toContain(`version delete ${v1} needs confirmation: pass --yes`);
      expect(spy.requests).toEqual([]);
      // With --yes: refused before sending, as the rules already say the service would refuse.
      const refused = await h.ahs(['version', 'delete', id, v1, '--yes'], { env: { AHS_BASE_URL: spy.url } });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain(`nothing was sent: the service would answer 400: Version ${v1} is LIVE in prod; set it OFFLINE in all environments before deleting it`);
      expect(refused.stderr).toContain(`first ahs deploy ${id} ${v1} --platform ios --env prod --state OFFLINE`);
      const json = await h.ahs(['version', 'delete', id, v1, '--yes', '--json'], { env: { AHS_BASE_URL: spy.url } });
      expect(json.exitCode).toBe(1);
      expect(json.stdout).toBe('');
      expect(json.errJson()).toMatchObject({ type: 'urn:ahs:predicted', status: null, predicted: { type: ERROR_TYPE, status: 400 } });
      expect(json.errJson().title).toContain(`Version ${v1} is LIVE in prod; set it OFFLINE in all environments before deleting it`);
      expect(spy.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await spy.close();
    }
    expect((await h.call('GET', `/va/${id}/versions/${v1}`)).status).toBe(200);
  });

  it('deletes a version deployed nowhere or OFFLINE, with --yes; --json prints a result object', async () => {
    const id = uid('vdel');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios');
    const v2 = await h.uploadVersion(id, 'ios');
    await h.deploy(id, v1, 'ios', 'prod', 'LIVE');
    await h.deploy(id, v1, 'ios', 'prod', 'OFFLINE');
    const noYes = await h.ahs(['version', 'delete', id, v1]);
    expect(noYes.exitCode).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    const ok = await h.ahs(['version', 'delete', id, v1, '--yes', '--json']);
    expect(ok.exitCode).toBe(0);
    expect(ok.json()).toEqual({ deleted: true, assetId: id, versionId: v1 });
    expect((await h.call('GET', `/va/${id}/versions/${v1}`)).status).toBe(404);
    const text = await h.ahs(['version', 'delete', id, v2, '--yes']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain(`Deleted version ${v2} of ${id}`);
    expect((await h.ahs(['version', 'delete', id, v1, '--yes'])).exitCode).toBe(4);
  });
});
