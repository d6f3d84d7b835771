// Names that round trip (issue 48): item sync uploads a folder's files, fetch
// writes each under its own name, and verify of the source folder agrees
// (cli.md "Release workflows": only a name that cannot be a file name here is
// renamed, and the rename is printed and in the JSON).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_USER, harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const NAMES = ['.hidden', 'we"ird$name&.txt', 'with space.txt', 'ünïcödé-名前.txt'];

async function collection(): Promise<string> {
  const id = uid('names');
  const created = await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['9999'], maxAssets: 20, createdBy: DEMO_USER });
  if (created.status !== 201) throw new Error(`creating ${id}: ${created.status}`);
  return id;
}

describe('sync, fetch and verify of one folder agree', () => {
  it('every file comes back under its own name, and verify of the source folder exits 0', async () => {
    const id = await collection();
    const source = join(h.dir, `${id}-source`);
    await mkdir(join(source, 'sub', 'deeper'), { recursive: true });
    for (const [index, name] of NAMES.entries()) await writeFile(join(source, name), `content ${index} of ${name}\n`);
    await writeFile(join(source, 'sub', 'inside.txt'), 'not synced');

    const sync = await h.ahs(['item', 'sync', id, source, '--type', '9999']);
    expect(sync.exitCode, sync.stderr).toBe(0);
    // The subfolder it does not read is named.
    expect(sync.stderr).toContain('warning: skipped 1 subfolder (item sync reads the files at the top of the folder only): sub/');
    expect(sync.stderr).not.toContain('is fetched as');
    expect(await h.ahs(['collection-deploy', id, '--env', 'prod'])).toMatchObject({ exitCode: 0 });

    const target = join(h.dir, `${id}-fetched`);
    const fetched = await h.ahs(['fetch', id, '--env', 'prod', '--dir', target, '--json']);
    expect(fetched.exitCode, fetched.stderr).toBe(0);
    expect(fetched.stderr).not.toContain('is written as');
    const doc = fetched.json();
    expect(doc.downloaded.map((f: { name: string }) => f.name).sort()).toEqual([...NAMES].sort());
    expect(doc.downloaded.some((f: { renamed?: unknown }) => f.renamed !== undefined)).toBe(false);
    expect((await readdir(target)).sort()).toEqual([...NAMES].sort());
    for (const [index, name] of NAMES.entries()) expect(await readFile(join(target, name), 'utf8')).toBe(`content ${index} of ${name}\n`);

    const ofSource = await h.ahs(['verify', id, source, '--env', 'prod']);
    expect(ofSource.exitCode, ofSource.stderr).toBe(0);
    const ofFetched = await h.ahs(['verify', id, target, '--env', 'prod', '--json']);
    expect(ofFetched.exitCode, ofFetched.stderr).toBe(0);
    expect(ofFetched.json().matched.sort()).toEqual([...NAMES].sort());
  });

  it('a name that cannot be a file name is renamed: printed, in the JSON, warned of at upload, and verify maps it as fetch does', async () => {
    const id = await collection();
    // ahs's own temporary-file name: the one name a folder can hold that fetch does not write as it is.
    const partial = '.notes.txt.ahs-partial-1-0badf00d';
    const source = join(h.dir, `${id}-source`);
    await mkdir(source, { recursive: true });
    await writeFile(join(source, partial), 'kept');
    await writeFile(join(source, 'plain.txt'), 'plain');

    const sync = await h.ahs(['item', 'sync', id, source, '--type', '9999']);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(sync.stderr).toContain(`warning: ${partial} is fetched as _notes.txt.ahs-partial-1-0badf00d: ahs's temporary files are named so (a later fetch would remove it)`);
    expect(await h.ahs(['collection-deploy', id, '--env', 'prod'])).toMatchObject({ exitCode: 0 });

    const target = join(h.dir, `${id}-fetched`);
    const fetched = await h.ahs(['fetch', id, '--env', 'prod', '--dir', target, '--json']);
    expect(fetched.exitCode, fetched.stderr).toBe(0);
    expect(fetched.stderr).toMatch(new RegExp(`^warning: "\\.notes\\.txt\\.ahs-partial-1-0badf00d" \\(\\S+\\) is written as _notes\\.txt\\.ahs-partial-1-0badf00d: ahs's temporary files are named so \\(a later fetch would remove it\\)$`, 'm'));
    const row = fetched.json().downloaded.find((f: { name: string }) => f.name === '_notes.txt.ahs-partial-1-0badf00d');
    expect(row.renamed).toEqual({ from: partial, reason: "ahs's temporary files are named so (a later fetch would remove it)" });
    expect(await readFile(join(target, '_notes.txt.ahs-partial-1-0badf00d'), 'utf8')).toBe('kept');

    expect(await h.ahs(['verify', id, target, '--env', 'prod'])).toMatchObject({ exitCode: 0 });
  });

  it('fetch --help documents the rule', async () => {
    const help = await h.ahs(['fetch', '--help']);
    expect(help.stdout).toContain('Each file is written under its item\'s name exactly');
  });
});
