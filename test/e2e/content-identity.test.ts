// Content identity (issue 22) against the emulator: a same-size edit is seen
// by item sync --checksum (and reported as compared by size without it),
// release refuses a same-size rebuild of a LIVE version (exit 5) and reuses
// the same bytes, verify exits 0 on a synced collection and 1 naming the
// one file changed afterwards, fetch --verify keeps the old copy on a
// mismatch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_USER, harness, stubServer, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const sha = (content: string) => createHash('sha256').update(content).digest('hex');

/** A folder holding exactly `files` (name → content). */
async function folder(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(h.dir, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) await writeFile(join(dir, file), content);
  return dir;
}

/** A collection synced from `files` and deployed LIVE in dev. */
async function liveCollection(files: Record<string, string>): Promise<{ id: string; dir: string }> {
  const id = uid('ci');
  const created = await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: DEMO_USER });
  expect(created.status).toBe(201);
  const dir = await folder(id, files);
  const synced = await h.ahs(['item', 'sync', id, dir, '--type', '1001']);
  expect(synced.exitCode, synced.stderr).toBe(0);
  const deployed = await h.ahs(['collection-deploy', id, '--env', 'dev']);
  expect(deployed.exitCode, deployed.stderr).toBe(0);
  return { id, dir };
}

/** The collection's items as "name:id", by name. */
async function items(id: string): Promise<string[]> {
  const r = await h.call('GET', `/vc/${id}/items?pageSize=500`);
  return (r.body.results as Array<{ assetItemName: string; assetItemId: string }>).map((i) => `${i.assetItemName}:${i.assetItemId}`).sort();
}

describe('item sync --checksum', () => {
  it('replaces a Live item edited to the same size; without --checksum the edit is unseen and the output says it was compared by size', async () => {
    const { id, dir } = await liveCollection({ 'a.txt': 'alpha one', 'b.txt': 'bravo two' });
    const before = await items(id);
    await writeFile(join(dir, 'a.txt'), 'ALPHA ONE'); // same size, other bytes

    const bySize = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--json']);
    expect(bySize.exitCode, bySize.stderr).toBe(0);
    expect(bySize.json()).toMatchObject({ uploaded: [], replaced: [], unchanged: ['a.txt', 'b.txt'], compared: { content: 0, size: 2 } });
    expect(bySize.stderr).toMatch(/2 compared by size: an edit that keeps a file's size is not seen \(--checksum compares content\)/);
    expect(await items(id)).toEqual(before);

    const byContent = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--checksum', '--json']);
    expect(byContent.exitCode, byContent.stderr).toBe(0);
    const doc = byContent.json();
    const old = before.find((line) => line.startsWith('a.txt:'))!.split(':')[1];
    expect(doc).toMatchObject({ uploaded: [], unchanged: ['b.txt'], compared: { content: 2, size: 0 } });
    expect(doc.replaced).toEqual([expect.objectContaining({ old })]);
    expect(byContent.stderr).toMatch(/2 compared by content, 0 by size/);
    const after = await items(id);
    expect(after).toContain(before.find((line) => line.startsWith('b.txt:')));
    expect(after.filter((line) => line.startsWith('a.txt:'))).toEqual([`a.txt:${doc.replaced[0].new.assetItemId}`]);

    const again = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--checksum']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/0 uploaded, 0 replaced, 0 removed, 2 unchanged/);
  });

  it('items Live in no environment are compared by size, and the output says so', async () => {
    const id = uid('nl');
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: DEMO_USER })).status).toBe(201);
    const dir = await folder(id, { 'c.txt': 'charlie' });
    expect((await h.ahs(['item', 'sync', id, dir, '--type', '1001'])).exitCode).toBe(0);
    await writeFile(join(dir, 'c.txt'), 'CHARLIE');
    const run = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--checksum', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ unchanged: ['c.txt'], compared: { content: 0, size: 1 } });
    expect(run.stderr).toMatch(/0 compared by content, 1 by size \(items Live in no environment are compared by size\)/);
  });
});

describe('verify', () => {
  it('exits 0 on a freshly synced collection, and 1 naming the one file changed afterwards (JSON: matched, differ, missing, extra)', async () => {
    const { id, dir } = await liveCollection({ 'one.txt': 'first file', 'two.json': '{"n":2}', 'three.txt': 'third' });
    const ok = await h.ahs(['verify', id, dir, '--env', 'dev', '--json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.json()).toEqual({ matched: ['one.txt', 'three.txt', 'two.json'], differ: [], missing: [], extra: [], failed: [] });

    await writeFile(join(dir, 'two.json'), '{"n":3}');
    const bad = await h.ahs(['verify', id, dir, '--env', 'dev', '--json']);
    expect(bad.exitCode).toBe(1);
    expect(bad.json()).toEqual({ matched: ['one.txt', 'three.txt'], differ: [{ name: 'two.json', expected: sha('{"n":3}'), actual: sha('{"n":2}') }], missing: [], extra: [], failed: [] });
    const text = await h.ahs(['verify', id, dir, '--env', 'dev']);
    expect(text.exitCode).toBe(1);
    expect(text.stderr).toContain(`two.json differs (expected ${sha('{"n":3}')}, served ${sha('{"n":2}')})`);
    expect(text.stderr).not.toMatch(/one\.txt|three\.txt/);

    // A file without an item and an item without a file are differences too.
    await writeFile(join(dir, 'two.json'), '{"n":2}');
    await writeFile(join(dir, 'four.txt'), 'new');
    await rm(join(dir, 'three.txt'));
    const listed = await h.ahs(['verify', id, dir, '--env', 'dev', '--json']);
    expect(listed.exitCode).toBe(1);
    expect(listed.json()).toMatchObject({ matched: ['one.txt', 'two.json'], differ: [], missing: ['three.txt'], extra: ['four.txt'] });
  });

  it('a symbolic link item sync skipped is skipped by verify too (named); --follow-links counts it', async () => {
    const { id, dir } = await liveCollection({ 'a.txt': 'aaa' });
    await writeFile(join(h.dir, 'outside.txt'), 'outside');
    await symlink(join(h.dir, 'outside.txt'), join(dir, 'link.txt'));
    const skipped = await h.ahs(['verify', id, dir, '--env', 'dev', '--json']);
    expect(skipped.exitCode, skipped.stderr).toBe(0);
    expect(skipped.stderr).toContain('skipped 1 symbolic link(s), not followed without --follow-links (as item sync): link.txt');
    expect(skipped.json()).toMatchObject({ matched: ['a.txt'], extra: [] });
    const followed = await h.ahs(['verify', id, dir, '--env', 'dev', '--follow-links', '--json']);
    expect(followed.exitCode).toBe(1);
    expect(followed.json()).toMatchObject({ extra: ['link.txt'] });
  });

  it('--sums checks against a sums file as sha256sum -c reads it ("  " and " *")', async () => {
    const { id } = await liveCollection({ 'x.txt': 'ex', 'y.txt': 'why' });
    const sums = await h.file(`${id}.sums`, `${sha('ex')}  x.txt\n${sha('WHY')} *./y.txt\n`);
    const run = await h.ahs(['verify', id, '--sums', sums, '--env', 'dev', '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.json()).toMatchObject({ matched: ['x.txt'], differ: [{ name: 'y.txt', expected: sha('WHY'), actual: sha('why') }] });
    const broken = await h.file(`${id}.bad`, 'not a sums line\n');
    const refused = await h.ahs(['verify', id, '--sums', broken, '--env', 'dev']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/\.bad:1: not a SHA-256 line/);
  });

  it('ASSET_ID FILE: the channel\'s Default against FILE; another file is exit 1', async () => {
    const asset = uid('va');
    await h.createAsset(asset);
    const file = await h.file(`${asset}.zip`, 'the build');
    const released = await h.ahs(['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0']);
    expect(released.exitCode, released.stderr).toBe(0);
    const ok = await h.ahs(['verify', asset, file, '--platform', 'ios', '--env', 'prod', '--json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.json()).toMatchObject({ matched: [file], differ: [] });
    const other = await h.file(`${asset}-other.zip`, 'the BUILD');
    const bad = await h.ahs(['verify', asset, other, '--platform', 'ios', '--env', 'prod']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain(`differs (expected ${sha('the BUILD')}, served ${sha('the build')})`);
  });
});

describe('release compares content', () => {
  it('a same-size rebuild of a LIVE version is a conflict (exit 5, urn:ahs:conflict, nothing written, both digests named); the same bytes are reused, matched by content', async () => {
    const asset = uid('rc');
    await h.createAsset(asset);
    const dir = join(h.dir, asset);
    await mkdir(dir);
    const file = join(dir, 'ci.zip');
    await writeFile(file, 'build 0001');
    const args = ['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0', '--state', 'LIVE'];
    expect((await h.ahs(args)).exitCode).toBe(0);
    const records = await h.records(asset);

    const same = await h.ahs(args);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stderr).toMatch(/reused \(matched by content: ci\.zip and what IOS1 serves have the same SHA-256/);

    await writeFile(file, 'build 0002'); // a rebuild: same name, same size
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const rebuilt = await h.ahs(args, { env: { AHS_BASE_URL: spy.url } });
      // A version of that name with another content is a conflict (cli.md, "Release workflows"): exit 5.
      expect(rebuilt.exitCode).toBe(5);
      expect(rebuilt.stderr).toContain(`it serves SHA-256 ${sha('build 0001')}, ci.zip is ${sha('build 0002')}; nothing was written`);
      const json = await h.ahs([...args, '--json'], { env: { AHS_BASE_URL: spy.url } });
      expect(json.exitCode).toBe(5);
      expect(json.errJson()).toMatchObject({ type: 'urn:ahs:conflict', status: null });
      expect(spy.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await spy.close();
    }
    expect(await h.records(asset)).toEqual(records);
    const versions = await h.call('GET', `/va/${asset}/versions`);
    expect(versions.body.totalResults).toBe(1);
  });

  it('a version LIVE or DEFAULT nowhere cannot be downloaded: matched by name and size, and the output says so', async () => {
    const asset = uid('rn');
    await h.createAsset(asset);
    const file = await h.file(`${asset}.zip`, 'offline build');
    const first = await h.ahs(['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0', '--state', 'LIVE']);
    expect(first.exitCode).toBe(0);
    expect((await h.deploy(asset, 'IOS1', 'ios', 'prod', 'OFFLINE')).status).toBe(201);
    const again = await h.ahs(['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0', '--state', 'LIVE']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/reused \(matched by name and size .*its content was not compared: it is LIVE or DEFAULT nowhere/);
  });
});

describe('fetch --verify', () => {
  it('a file whose digest differs from SHA256SUMS fails (exit 1) and the old copy stays; the others take their names', async () => {
    const { id } = await liveCollection({ 'good.txt': 'good bytes', 'bad.txt': 'served bytes' });
    const out = join(h.dir, `${id}-out`);
    await mkdir(out);
    await writeFile(join(out, 'bad.txt'), 'the old copy');
    const sums = await h.file(`${id}.sha256`, `${sha('good bytes')}  good.txt\n${sha('other bytes!')}  bad.txt\n`);
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', out, '--verify', sums, '--json']);
    expect(run.exitCode).toBe(1);
    const doc = run.json();
    expect(doc.downloaded.map((f: { name: string }) => f.name)).toEqual(['good.txt']);
    expect(doc.failed).toEqual([expect.objectContaining({ name: 'bad.txt', error: expect.stringContaining(`SHA-256 mismatch: ${sums} says ${sha('other bytes!')}, the download is ${sha('served bytes')}; the file already there is kept as it was`) })]);
    expect(await readFile(join(out, 'bad.txt'), 'utf8')).toBe('the old copy');
    expect(await readFile(join(out, 'good.txt'), 'utf8')).toBe('good bytes');
    expect((await readdir(out)).sort()).toEqual(['bad.txt', 'good.txt']); // no partial file left

    // A file the sums file does not list cannot be verified: not downloaded.
    const partial = await h.file(`${id}.partial`, `${sha('good bytes')}  good.txt\n`);
    const unlisted = await h.ahs(['fetch', id, '--env', 'dev', '--dir', out, '--verify', partial]);
    expect(unlisted.exitCode).toBe(1);
    expect(unlisted.stderr).toMatch(/bad\.txt .*not listed in .*\.partial \(--verify\): cannot be verified, not downloaded/);
    // Said as what it is: how many were not checked and why, not "failed to download".
    expect(unlisted.stderr).toContain(`1 downloaded, 0 skipped, 0 failed, 1 not checked (not in ${partial})`);
    expect(unlisted.stderr).toContain(`error: 1 of 2 file(s) not checked, so not downloaded: ${partial} (--verify) has no line for bad.txt`);
    expect(unlisted.stderr).not.toContain('failed to download');
    expect(await readFile(join(out, 'bad.txt'), 'utf8')).toBe('the old copy');
  });

  it('a sums file that cannot be read is exit 2 before anything is sent', async () => {
    const run = await h.ahs(['fetch', 'whatever', '--env', 'dev', '--verify', join(h.dir, 'no-such.sums')]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--verify .*no-such\.sums: cannot read it: no such file/);
  });
});
