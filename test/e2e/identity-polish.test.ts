// Follow-ups of issue 22's review, tried as a release engineer would against
// the emulator: the JSON error type of files refused by an answer, the name
// verify --sums looks up for a version, sums files of sha256sum dist/*, and
// the symbolic links --follow-links cannot follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { DEMO_API_KEY, DEMO_USER, syncedLiveCollection, ERROR_TYPE, harness, stubServer, uid, type Harness } from './helpers.js';
import { createClient, UsageError } from '../../src/library/index.js';
import { startFaultProxy } from '../support/fault-proxy.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const sha = (content: string) => createHash('sha256').update(content).digest('hex');

const liveCollection = (files: Record<string, string>) => syncedLiveCollection(h, files, 'ip');

/** An asset whose ios/prod Default is `content`, released from a file named `ci.zip`; that file. */
async function releasedAsset(content: string): Promise<{ asset: string; file: string }> {
  const asset = uid('ipa');
  await h.createAsset(asset);
  const dir = join(h.dir, asset);
  await mkdir(dir);
  const file = join(dir, 'ci.zip');
  await writeFile(file, content);
  const released = await h.ahs(['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0']);
  expect(released.exitCode, released.stderr).toBe(0);
  return { asset, file };
}

/**
 * The API through a stub whose asset-urls answers have each downloadUrl
 * rewritten (the spec does not fix their form); `answer` may take any other
 * request itself (return true), the rest goes to the emulator.
 */
async function apiWithUrls(rewrite: (downloadUrl: string, stubUrl: string) => string, answer?: (url: string, res: ServerResponse) => boolean) {
  const stub: Awaited<ReturnType<typeof stubServer>> = await stubServer(async (req, res) => {
    const url = req.url ?? '';
    if (answer?.(url, res)) return true;
    if (req.method !== 'GET' || !/\/asset-urls(\?|$)/.test(url)) return false;
    const upstream = await fetch(new URL(url, h.emu.baseUrl), { headers: { apikey: String(req.headers.apikey ?? '') } });
    const body = (await upstream.json()) as { results?: Array<{ downloadUrl?: string }> };
    for (const record of body.results ?? []) if (record.downloadUrl) record.downloadUrl = rewrite(record.downloadUrl, stub.url);
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return true;
  }, h.emu.baseUrl);
  return stub;
}

describe('files refused by an answer are not a network failure (exit 1, urn:ahs:rejected)', () => {
  it('fetch: every file refused (404, 410): exit 1, urn:ahs:rejected, each file\'s status in its row', async () => {
    const entry = (id: string) => ({ assetItemId: id, assetItemName: `${id}.bin`, downloadUrl: `/files/${id}`, targetPlatform: 'generic', mimetype: 'application/octet-stream' });
    const doc = { downloadUrl: '/doc', anchorAsset: null, assetItemUrls: [entry('gone'), entry('removed')], collectionId: 'c', domainId: 'demo', envId: 'dev', secured: false, localCacheControl: false, localCacheMaxAge: 30, targetPlatform: 'generic' };
    const delivery = await stubServer((req, res) => {
      if (req.url === '/doc') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
      else res.writeHead(req.url?.endsWith('/gone') ? 404 : 410).end();
      return true;
    });
    const dir = join(h.dir, uid('refused'));
    try {
      const run = await h.ahs(['fetch', '--url', `${delivery.url}/doc`, '--dir', dir, '--json', '--retries', '0']);
      expect(run.exitCode).toBe(1);
      expect(run.errJson()).toEqual({ type: 'urn:ahs:rejected', title: '2 of 2 file(s) failed to download', status: null, detail: '2 of 2 file(s) failed to download' });
      const failed = run.json().failed.sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name));
      expect(failed).toEqual([expect.objectContaining({ name: 'gone.bin', error: expect.stringContaining('404') }), expect.objectContaining({ name: 'removed.bin', error: expect.stringContaining('410') })]);
    } finally {
      await delivery.close();
    }
  });

  it('verify: a served file refused (403) and nothing else: exit 1, urn:ahs:rejected, not a difference (conflict)', async () => {
    const { id, dir } = await liveCollection({ 'a.txt': 'aa', 'b.txt': 'bb' });
    const proxy = await startFaultProxy(h.emu.deliveryUrl);
    try {
      proxy.inject({ kind: 'status', status: 403 }, { method: 'GET', path: /\/b\.txt$/, times: 5 });
      const run = await h.ahs(['verify', id, dir, '--env', 'dev', '--json', '--retries', '0'], { env: { AHS_DELIVERY_URL: proxy.url } });
      expect(run.exitCode).toBe(1);
      expect(run.json()).toMatchObject({ matched: ['a.txt'], differ: [], failed: [{ name: 'b.txt', error: expect.stringContaining('answered 403') }] });
      expect(run.errJson()).toMatchObject({ type: 'urn:ahs:rejected', status: null, title: expect.stringContaining('b.txt could not be read (the service answered 403') });
    } finally {
      await proxy.close();
    }
  });

  it('item sync, without --json: the AHS_OUTPUT_FILE error of an upload the service refused is urn:ahs:rejected', async () => {
    const id = uid('ips');
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: DEMO_USER })).status).toBe(201);
    const dir = join(h.dir, id);
    await mkdir(dir);
    await writeFile(join(dir, 'a.txt'), 'aa');
    const proxy = await startFaultProxy(h.emu.baseUrl);
    const results = join(h.dir, `${id}.jsonl`);
    try {
      const refusal = { type: ERROR_TYPE, title: 'file type not allowed', status: 400, detail: 'file type not allowed' };
      proxy.inject({ kind: 'status', status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify(refusal) }, { method: 'POST', path: `/vc/${id}/items` });
      const run = await h.ahs(['item', 'sync', id, dir, '--type', '1001'], { env: { AHS_BASE_URL: proxy.url, AHS_OUTPUT_FILE: results } });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('error: 0 uploaded, 0 replaced, 0 removed, 0 unchanged; failed: a.txt');
      const line = JSON.parse(await readFile(results, 'utf8'));
      expect(line.error).toMatchObject({ type: 'urn:ahs:rejected', status: null });
      expect(line.result.failed[0].error).toEqual(refusal);
    } finally {
      await proxy.close();
    }
  });

  it('version download: a file that cannot be written here is exit 1, urn:ahs:rejected, not a network failure', async () => {
    const { asset } = await releasedAsset('written nowhere');
    const versions = await h.call('GET', `/va/${asset}/versions?targetPlatformId=ios`);
    const versionId = versions.body.results[0].versionId as string;
    // A folder with something in it at the path: the finished download cannot take its name.
    const target = join(h.dir, `${asset}-taken`);
    await mkdir(join(target, 'inside'), { recursive: true });
    const run = await h.ahs(['version', 'download', asset, versionId, '--env', 'prod', '-O', target, '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.errJson()).toMatchObject({ type: 'urn:ahs:rejected', status: null, title: expect.stringContaining(`was not downloaded`) });
  });

  it('release: the version already there cannot be downloaded to compare (403): exit 1, urn:ahs:rejected, not a conflict; nothing written', async () => {
    const { asset, file } = await releasedAsset('compared content');
    const before = await h.records(asset);
    const api = await apiWithUrls(
      (url, stubUrl) => `${stubUrl}/refused${new URL(url).pathname}`,
      (url, res) => url.startsWith('/refused/') && (res.writeHead(403).end(), true),
    );
    try {
      // No delivery URL set: the download URL is used as served (with one set, its path from /api/vi/ on would go to that URL instead).
      const run = await h.ahs(['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0', '--json', '--retries', '0'], { env: { AHS_BASE_URL: api.url, AHS_DELIVERY_URL: undefined } });
      expect(run.exitCode, run.stderr).toBe(1);
      expect(run.errJson()).toMatchObject({ type: 'urn:ahs:rejected', status: null, title: expect.stringContaining('nothing was written') });
      expect(await h.records(asset)).toEqual(before);
    } finally {
      await api.close();
    }
  });
});

describe('verify ASSET_ID --sums', () => {
  it('looks up the version\'s file name (its record), whatever its downloadUrl ends with', async () => {
    const { asset } = await releasedAsset('build one');
    const sums = await h.file(`${asset}.sums`, `${sha('build one')}  ci.zip\n`);
    // Served at a URL that does not end with the file name (the emulator serves any last segment).
    const api = await apiWithUrls((url) => url.replace(/\/[^/]+$/, '/blob'));
    try {
      const run = await h.ahs(['verify', asset, '--sums', sums, '--platform', 'ios', '--env', 'prod', '--json'], { env: { AHS_BASE_URL: api.url } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.json()).toEqual({ matched: ['ci.zip'], differ: [], missing: [], extra: [], failed: [] });
    } finally {
      await api.close();
    }
  });

  it('a version with no file name on record (older versions): exit 2 saying so and how to check it, rather than a guess', async () => {
    const old = await harness({ variation: { versionFileName: false } });
    try {
      const asset = uid('ipo');
      await old.createAsset(asset);
      const file = await old.file('ci.zip', 'old build');
      expect((await old.ahs(['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0'])).exitCode).toBe(0);
      const sums = await old.file('SHA256SUMS', `${sha('old build')}  ci.zip\n`);
      const run = await old.ahs(['verify', asset, '--sums', sums, '--platform', 'ios', '--env', 'prod']);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^error: \\S+ of ${asset} has no file name on record \\(older versions lack one\\): no line of --sums can be told to be its; compare it with the file instead: give PATH rather than --sums, with the same --platform and --env$`, 'm'));
      // The library says it in its parameters' words.
      const client = createClient({ baseUrl: old.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY });
      const refused = client.verify({ assetId: asset, platform: 'ios', envId: 'prod', sums });
      await expect(refused).rejects.toBeInstanceOf(UsageError);
      await expect(refused).rejects.toThrow(/: no line of sums can be told to be its; compare it with the file instead: give file rather than sums, with the same platform and envId$/);
    } finally {
      await old.close();
    }
  });
});

describe('a sums file of sha256sum dist/* (names with a folder)', () => {
  it('verify: a line naming a folder is the line of the file of its base name, said in one line; two folders\' lines of one base name stand for neither, with a warning saying how to fix', async () => {
    const { id } = await liveCollection({ 'a.txt': 'aa', 'b.txt': 'bb' });
    const sums = await h.file(`${id}.sums`, `${sha('aa')}  dist/a.txt\n${sha('bb')}  old/b.txt\n${sha('bb')}  new/b.txt\n`);
    const run = await h.ahs(['verify', id, '--sums', sums, '--env', 'dev', '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.json()).toEqual({ matched: ['a.txt'], differ: [], missing: ['b.txt'], extra: ['new/b.txt', 'old/b.txt'], failed: [] });
    expect(run.stderr).toContain(`matched by base name (${sums} names folders, the served files have none): dist/a.txt as a.txt\n`);
    expect(run.stderr).toContain(`warning: b.txt: ${sums} lists old/b.txt and new/b.txt, so which is its cannot be told and neither is compared; list one folder's files from inside it (cd old && sha256sum * > SHA256SUMS)\n`);

    const only = await h.file(`${id}-dist.sums`, `${sha('aa')}  dist/a.txt\n${sha('bb')}  ./dist/b.txt\n`);
    const ok = await h.ahs(['verify', id, '--sums', only, '--env', 'dev']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('dist/a.txt as a.txt, dist/b.txt as b.txt');
  });

  it('fetch --verify reads them the same way', async () => {
    const { id } = await liveCollection({ 'a.txt': 'aa', 'b.txt': 'bb' });
    const sums = await h.file(`${id}.sums`, `${sha('aa')}  dist/a.txt\n${sha('bb')}  old/b.txt\n${sha('bb')}  new/b.txt\n`);
    const out = join(h.dir, `${id}-out`);
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', out, '--verify', sums, '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.json().downloaded.map((f: { name: string }) => f.name)).toEqual(['a.txt']);
    expect(run.json().failed).toEqual([expect.objectContaining({ name: 'b.txt', error: `listed as old/b.txt and new/b.txt in ${sums} (--verify): which is its cannot be told, not downloaded; list one folder's files from inside it (cd old && sha256sum * > SHA256SUMS)` })]);
    expect(run.stderr).toContain(`--verify: matched by base name (${sums} names folders, the items have none): dist/a.txt as a.txt`);
    expect(await readFile(join(out, 'a.txt'), 'utf8')).toBe('aa');
  });
});

describe('--follow-links and a link that leads to no file', () => {
  it('item sync and verify name each dangling or looping link and why, one warning line each; sync\'s JSON lists them as skipped', async () => {
    const { id, dir } = await liveCollection({ 'a.txt': 'aa' });
    await symlink('missing.txt', join(dir, 'gone.txt'));
    await symlink('loop.txt', join(dir, 'loop.txt'));
    const sync = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--follow-links', '--json']);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(sync.json()).toMatchObject({
      unchanged: ['a.txt'],
      uploaded: [],
      skipped: [
        { file: 'gone.txt', reason: 'a symbolic link to nothing: missing.txt does not exist (--follow-links)' },
        { file: 'loop.txt', reason: 'a symbolic link in a loop (following it leads back to a link already followed) (--follow-links)' },
      ],
    });
    const warnings = sync.stderr.split('\n').filter((line) => line.startsWith('warning: skipped'));
    expect(warnings).toEqual([
      'warning: skipped gone.txt: a symbolic link to nothing: missing.txt does not exist (--follow-links)',
      'warning: skipped loop.txt: a symbolic link in a loop (following it leads back to a link already followed) (--follow-links)',
    ]);
    const items = await h.call('GET', `/vc/${id}/items`);
    expect(items.body.results.map((item: { assetItemName: string }) => item.assetItemName)).toEqual(['a.txt']);

    const verify = await h.ahs(['verify', id, dir, '--env', 'dev', '--follow-links']);
    expect(verify.exitCode, verify.stderr).toBe(0);
    expect(verify.stderr.split('\n').filter((line) => line.startsWith('warning: skipped'))).toEqual(warnings);
  });
});
