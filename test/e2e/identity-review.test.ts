// Issue 22 tried as a release engineer would, against the emulator: what
// verify names, the JSON error types of a failed check, fetch --skip-existing
// beside a symbolic link, sums files as `sha256sum -c` reads them, and what
// CI is told of the rule that compared files and of how release matched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { syncedLiveCollection, harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const sha = (content: string) => createHash('sha256').update(content).digest('hex');

const liveCollection = (files: Record<string, string>) => syncedLiveCollection(h, files, 'ir');

/** An asset whose ios/prod Default is `content`, released from a file named `ci.zip`. */
async function releasedAsset(content: string): Promise<string> {
  const asset = uid('ira');
  await h.createAsset(asset);
  const dir = join(h.dir, asset);
  await mkdir(dir);
  await writeFile(join(dir, 'ci.zip'), content);
  const released = await h.ahs(['release', asset, join(dir, 'ci.zip'), '--platform', 'ios', '--env', 'prod', '--name', '1.0']);
  expect(released.exitCode, released.stderr).toBe(0);
  return asset;
}

describe('verify ASSET_ID FILE', () => {
  it('names FILE, the local file it was asked about, not the file the version was uploaded as', async () => {
    const asset = await releasedAsset('build one');
    const copy = await h.file(`${asset}-copy.zip`, 'build one');
    const ok = await h.ahs(['verify', asset, copy, '--platform', 'ios', '--env', 'prod', '--json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.json()).toEqual({ matched: [copy], differ: [], missing: [], extra: [], failed: [] });

    const other = await h.file(`${asset}-other.zip`, 'build two');
    const bad = await h.ahs(['verify', asset, other, '--platform', 'ios', '--env', 'prod']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout).toMatch(new RegExp(`^${other.replace(/[.]/g, '\\.')}\\s+differs`, 'm'));
    expect(bad.stderr).toContain(`${other} differs (expected ${sha('build two')}, served ${sha('build one')})`);
    expect(bad.stdout + bad.stderr).not.toContain('ci.zip');
  });
});

describe('the JSON error of a check that failed', () => {
  it('verify: a difference is urn:ahs:mismatch (exit 1), not a network failure', async () => {
    const { id, dir } = await liveCollection({ 'a.txt': 'aaaa', 'b.txt': 'bbbb' });
    await writeFile(join(dir, 'b.txt'), 'BBBB');
    const run = await h.ahs(['verify', id, dir, '--env', 'dev', '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.errJson()).toEqual({ type: 'urn:ahs:mismatch', title: expect.stringContaining(`b.txt differs (expected ${sha('BBBB')}, served ${sha('bbbb')})`), status: null, detail: expect.any(String) });
  });

  it('verify: a local file that cannot be read is a usage error naming it (exit 2), not a raw system error', async () => {
    const asset = await releasedAsset('readable');
    // Regular by stat, and every read of it fails (EIO), even for root.
    const run = await h.ahs(['verify', asset, '/proc/self/mem', '--platform', 'ios', '--env', 'prod', '--json']);
    expect(run.exitCode).toBe(2);
    expect(run.errJson()).toMatchObject({ type: 'urn:ahs:usage', title: 'cannot read /proc/self/mem: input/output error (EIO)', status: null });
  });

  it('fetch --verify: a file that is not the one SHA256SUMS lists is urn:ahs:mismatch (exit 1), naming it', async () => {
    const { id } = await liveCollection({ 'good.txt': 'good', 'bad.txt': 'served' });
    const sums = await h.file(`${id}.sums`, `${sha('good')}  good.txt\n${sha('expected')}  bad.txt\n`);
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', join(h.dir, `${id}-out`), '--verify', sums, '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.errJson()).toMatchObject({ type: 'urn:ahs:mismatch', title: `1 of 2 file(s) failed to download: bad.txt is not what ${sums} lists (SHA-256): not saved, a copy already at the name stays as it was`, status: null });
  });
});

describe('fetch --skip-existing', () => {
  it('keeps a symbolic link at an item\'s name as it is (not followed) and skips that item; the others download', async () => {
    const { id } = await liveCollection({ 'a.txt': 'served a', 'b.txt': 'served b' });
    const out = join(h.dir, `${id}-out`);
    await mkdir(out);
    const mine = await h.file(`${id}-mine.txt`, 'my own a');
    await symlink(mine, join(out, 'a.txt'));
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', out, '--skip-existing', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const doc = run.json();
    expect(doc.downloaded.map((f: { name: string }) => f.name)).toEqual(['b.txt']);
    expect(doc.skipped).toEqual([expect.objectContaining({ name: 'a.txt', reason: expect.stringContaining('a symbolic link of that name is already there (--skip-existing): kept as it is') })]);
    expect(doc.failed).toEqual([]);
    expect(run.stderr).toContain('1 downloaded, 1 skipped, 0 failed');
    expect((await lstat(join(out, 'a.txt'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(out, 'a.txt'))).toBe(mine);
    expect(await readFile(mine, 'utf8')).toBe('my own a');
    expect(await readFile(join(out, 'b.txt'), 'utf8')).toBe('served b');
  });
});

describe('--sums read as sha256sum -c reads it', () => {
  it('verify: --tag and one-space lines, leading blanks, CRLF, comments, ./ and escaped names; a listed name not in the collection is extra', async () => {
    const { id } = await liveCollection({ 'a.txt': 'aa', 'b.txt': 'bb', 'c.txt': 'cc', 'd.txt': 'dd' });
    const lines = [
      '# SHA256SUMS of the build, written on Windows',
      `SHA256 (a.txt) = ${sha('aa')}`, // sha256sum --tag
      `${sha('bb')} ./b.txt`, // one space: BSD's -r
      `  ${sha('cc')} *c.txt`,
      `\\${sha('dd')}  d.txt`, // escaped, with nothing to unescape
      `\\${sha('ee')}  we\\\\ird.txt`, // a name holding a backslash
    ];
    const sums = await h.file(`${id}.sums`, `${lines.join('\r\n')}\r\n`);
    const run = await h.ahs(['verify', id, '--sums', sums, '--env', 'dev', '--json']);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.json()).toEqual({ matched: ['a.txt', 'b.txt', 'c.txt', 'd.txt'], differ: [], missing: [], extra: ['we\\ird.txt'], failed: [] });
    expect(run.errJson().title).toContain('we\\ird.txt is in');
  });

  it('fetch --verify reads the same lines', async () => {
    const { id } = await liveCollection({ 'a.txt': 'aa', 'b.txt': 'bb' });
    const sums = await h.file(`${id}.sums`, `SHA256 (a.txt) = ${sha('aa')}\r\n${sha('bb')}\tb.txt\r\n`);
    const out = join(h.dir, `${id}-out`);
    const run = await h.ahs(['fetch', id, '--env', 'dev', '--dir', out, '--verify', sums, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json().downloaded.map((f: { name: string }) => f.name).sort()).toEqual(['a.txt', 'b.txt']);
  });
});

describe('what CI is told of a release re-run', () => {
  it('how the version already there was matched: in the JSON upload stage and in the step summary', async () => {
    const asset = uid('irc');
    await h.createAsset(asset);
    const file = await h.file(`${asset}.zip`, 'bytes of the build');
    const args = ['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0', '--json'];
    const gh = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(h.dir, `${asset}.summary`), GITHUB_OUTPUT: join(h.dir, `${asset}.output`) };
    // Uploaded, never deployed: it cannot be downloaded.
    const uploaded = await h.ahs(['version', 'upload', asset, file, '--platform', 'ios', '--name', '1.0']);
    expect(uploaded.exitCode, uploaded.stderr).toBe(0);
    const first = await h.ahs(args, { env: gh });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.json().stages[0]).toEqual({ stage: 'upload', changed: false, matched: 'name and size' });
    const again = await h.ahs(args, { env: gh });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.json().stages[0]).toEqual({ stage: 'upload', changed: false, matched: 'content' });
    const summary = await readFile(gh.GITHUB_STEP_SUMMARY, 'utf8');
    expect(summary).toContain('| upload | already done, nothing sent (matched by name and size) |');
    expect(summary).toContain('| upload | already done, nothing sent (matched by content) |');
  });
});

describe('what CI is told of an item sync', () => {
  it('the step summary says which rule decided for how many files, and warns without --checksum that a same-size edit is not seen', async () => {
    const { id, dir } = await liveCollection({ 'a.txt': 'same size', 'b.txt': 'other' });
    await writeFile(join(dir, 'a.txt'), 'SAME SIZE');
    const summaryFile = join(h.dir, `${id}.summary`);
    const gh = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: join(h.dir, `${id}.output`) };
    const bySize = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--json'], { env: gh });
    expect(bySize.exitCode, bySize.stderr).toBe(0);
    expect(bySize.json().compared).toEqual({ content: 0, size: 2, checksum: false });
    expect(await readFile(summaryFile, 'utf8')).toContain("| failed | 0 |  |\n\n2 compared by size: an edit that keeps a file's size is not seen (--checksum compares content)\n");

    await writeFile(summaryFile, '');
    const byContent = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--checksum', '--json'], { env: gh });
    expect(byContent.exitCode, byContent.stderr).toBe(0);
    expect(byContent.json().compared).toEqual({ content: 2, size: 0, checksum: true });
    const summary = await readFile(summaryFile, 'utf8');
    expect(summary).toMatch(/\| replaced \| 1 \| a\.txt /);
    expect(summary).toContain('\n2 compared by content, 0 by size\n');
  });

  it('--checksum --dry-run says a changed file is one whose content differs, not its size', async () => {
    const { id, dir } = await liveCollection({ 'a.txt': 'same size' });
    await writeFile(join(dir, 'a.txt'), 'SAME SIZE');
    const run = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--checksum', '--dry-run']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('a changed file is one whose SHA-256 differs from what its Live item serves');
    expect(run.stdout).not.toContain("a changed file is one whose byte size differs from its item's\n");
  });
});

describe('--version after a command', () => {
  it('is verify\'s own flag (the version checked), not the program\'s, which printed the version and exited 0 unchecked', async () => {
    const asset = await releasedAsset('checked bytes');
    const other = await h.file(`${asset}-other.zip`, 'other bytes!!');
    const run = await h.ahs(['verify', asset, other, '--platform', 'ios', '--env', 'prod', '--version', 'IOS1', '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.json().differ).toEqual([{ name: other, expected: sha('other bytes!!'), actual: sha('checked bytes') }]);
  });

  it('anywhere else after a command is an unknown option (exit 2, nothing sent), never a release that printed the version and exited 0', async () => {
    const asset = uid('irv');
    await h.createAsset(asset);
    const file = await h.file(`${asset}.zip`, 'a build');
    const run = await h.ahs(['release', asset, file, '--platform', 'ios', '--env', 'prod', '--version', '1.0']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("unknown option '--version'");
    expect((await h.call('GET', `/va/${asset}/versions`)).body.totalResults).toBe(0);
    const alone = await h.ahs(['--version']);
    expect(alone.exitCode).toBe(0);
    expect(alone.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('verify --version', () => {
  it('a version that does not exist is exit 4; one not deployed on the channel is exit 2 saying so', async () => {
    const asset = await releasedAsset('v1');
    const file = await h.file(`${asset}.bin`, 'v1');
    const missing = await h.ahs(['verify', asset, file, '--platform', 'ios', '--env', 'prod', '--version', 'IOS99']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain(`version IOS99 of ${asset} not found`);
    const elsewhere = await h.ahs(['verify', asset, file, '--platform', 'ios', '--env', 'dev', '--version', 'IOS1']);
    expect(elsewhere.exitCode).toBe(2);
    expect(elsewhere.stderr).toContain(`IOS1 is not deployed on ${asset} ios/dev: nothing is served to verify`);
  });
});
