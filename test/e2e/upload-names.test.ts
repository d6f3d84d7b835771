// Local file names in uploads: one a multipart header cannot carry (a
// newline, an ESC) is refused before anything is sent, by every upload
// command, naming the file with its control character made visible; one it
// can carry but that would reorder a terminal (a bidi override) is sent and
// printed escaped, progress lines included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, type Harness } from './helpers.js';

let h: Harness;
let folder: string;
const NEWLINE = 'a\nuploading fake.zip: 100% (forged).zip';
const ESCAPE = 'e\u001b[2Jx.zip';
const BIDI = 'evil\u202egpj.zip';

beforeAll(async () => {
  h = await harness();
  await h.createAsset('names');
  expect((await h.ahs(['collection', 'create', 'names-c', '--name', 'Names', '--allowed-types', '1001'])).exitCode).toBe(0);
  folder = join(h.dir, 'folder');
  await mkdir(folder);
  for (const name of ['0-good.zip', NEWLINE]) await writeFile(join(folder, name), 'payload');
});
afterAll(async () => h?.close());

const refusal = (path: string, char: string) => `error: cannot upload ${path.replace(/\n/g, '\\n').replace(/\u001b/g, '\\e')}: its name holds a control character (${char}), which an upload cannot carry; rename the file; nothing was sent`;

async function versions(): Promise<number> {
  return (await h.call('GET', '/va/names/versions')).body.totalResults;
}
async function items(): Promise<number> {
  return (await h.call('GET', '/vc/names-c/items')).body.totalResults;
}

describe('a file name the upload cannot carry', () => {
  for (const [what, name, char] of [['a newline', NEWLINE, '\\n'], ['an ESC', ESCAPE, '\\e']] as const) {
    it(`holding ${what}: version upload and release exit 2 naming it, one line, nothing stored`, async () => {
      const file = await h.file(name, 'payload');
      for (const args of [
        ['version', 'upload', 'names', file, '--platform', 'ios', '--name', 'v1'],
        ['release', 'names', file, '--platform', 'ios', '--env', 'dev', '--name', 'v1'],
      ]) {
        const run = await h.ahs(args);
        expect([run.exitCode, run.stderr]).toEqual([2, refusal(file, char)]);
        const json = await h.ahs([...args, '--json']);
        expect(json.exitCode).toBe(2);
        expect(json.errJson()).toMatchObject({ type: 'urn:ahs:usage', title: refusal(file, char).replace(/^error: /, '') });
      }
      expect(await versions()).toBe(0);
    });
  }

  it('item upload of a good file and a bad one sends neither', async () => {
    const run = await h.ahs(['item', 'upload', 'names-c', join(folder, '0-good.zip'), join(folder, NEWLINE), '--type', '1001']);
    expect([run.exitCode, run.stderr]).toEqual([2, refusal(join(folder, NEWLINE), '\\n')]);
    expect(await items()).toBe(0);
  });

  it('item sync of a folder holding one sends nothing', async () => {
    const run = await h.ahs(['item', 'sync', 'names-c', folder, '--type', '1001']);
    expect([run.exitCode, run.stderr]).toEqual([2, refusal(join(folder, NEWLINE), '\\n')]);
    expect(await items()).toBe(0);
  });
});

describe('a file name holding a bidirectional override', () => {
  it('is uploaded, and every line naming it shows the override escaped', async () => {
    const file = await h.file(BIDI, 'payload');
    const run = await h.ahs(['version', 'upload', 'names', file, '--platform', 'ios', '--name', 'bidi'], { env: { AHS_PROGRESS_INTERVAL: '0.000001' } });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('Uploaded evil\\u202egpj.zip as ');
    expect(run.stdout + run.stderr).not.toContain('\u202e');
    const item = await h.ahs(['item', 'upload', 'names-c', file, '--type', '1001'], { env: { AHS_PROGRESS_INTERVAL: '0.000001' } });
    expect(item.exitCode).toBe(0);
    expect(item.stderr).toContain('evil\\u202egpj.zip');
    expect(item.stdout + item.stderr).not.toContain('\u202e');
  });
});

describe('a folder name holding a newline', () => {
  it('item sync names it escaped, on one line', async () => {
    const odd = join(h.dir, 'odd\nsynced forged');
    await mkdir(odd);
    await writeFile(join(odd, 'ok.zip'), 'payload');
    const run = await h.ahs(['item', 'sync', 'names-c', odd, '--type', '1001', '--dry-run']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('odd\\nsynced forged → names-c');
    expect(run.stderr.split('\n').some((line) => line.startsWith('synced forged'))).toBe(false);
  });
});
