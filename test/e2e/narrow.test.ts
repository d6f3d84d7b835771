// Tables fit the terminal (issue 24; issue 48: cli.md "Output"): boxed, and
// a table wider than the terminal wraps its cells rather than cutting them
// (no ellipsis: the value a person came for stays whole); long id lists of collection
// status shown as counts (--wide lists them). In a real pty at 60 and 100
// columns: no line is wider than the terminal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, harness, hasScript, runInPty, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

/** The screen's lines as shown: colours and the pty's carriage returns out. */
function lines(screen: string): string[] {
  return screen
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((line) => line.replace(/\r/g, ''))
    .filter((line) => line.trim() !== '');
}

const widest = (screen: string) => Math.max(...lines(screen).map((line) => [...line].length));

describe.skipIf(!hasScript)('tables in a narrow terminal', () => {
  it('version list and asset list at 60 columns: no line is wider; a cell that does not fit wraps, never cut', async () => {
    const id = uid('narrow-asset-with-a-rather-long-identifier');
    const r = await h.call('POST', '/va', { assetId: id, assetName: 'A bundle whose name is long enough to need a wide column', assetType: '1001', createdBy: DEMO_USER });
    expect(r.status).toBe(201);
    await h.uploadVersion(id, 'ios', 'release candidate with a long version name 1.0.0-rc.1');
    await h.uploadVersion(id, 'android', '1.0');
    for (const args of [['version', 'list', id], ['asset', 'list', '--all']]) {
      const wide = await runInPty(h.env, args, [], { columns: 200 });
      expect(wide.code, wide.screen).toBe(0);
      expect(widest(wide.screen), 'the table needs more than 60 columns').toBeGreaterThan(60);
      // --quiet: a spinner under load (a read past 100 ms) is not part of the table measured.
      const narrow = await runInPty(h.env, [...args, '--quiet'], [], { columns: 60 });
      expect(narrow.code, narrow.screen).toBe(0);
      expect(widest(narrow.screen), narrow.screen).toBeLessThanOrEqual(60);
      expect(narrow.screen).not.toContain('…');
      expect(narrow.screen).toMatch(/┌/);
    }
  });

  it('version list at 60 columns never cuts the file name: it wraps at its dashes; -o wide keeps it on one line', async () => {
    const id = uid('narrow-file');
    await h.createAsset(id);
    const form = new FormData();
    form.set('versionName', 'release candidate 1.0.0-rc.1');
    form.set('createdBy', DEMO_USER);
    const file = 'a-long-release-file-name-for-ios-app2.zip';
    form.set('assetFile', new Blob(['payload']), file);
    expect((await h.call('POST', `/va/${id}/versions?targetPlatformId=ios`, form)).status).toBe(201);
    const narrow = await runInPty(h.env, ['version', 'list', id, '--quiet'], [], { columns: 60 });
    expect(narrow.code, narrow.screen).toBe(0);
    expect(widest(narrow.screen), narrow.screen).toBeLessThanOrEqual(60);
    expect(narrow.screen).not.toContain('…');
    // The FILE column's lines, read down, are the whole name.
    const fileColumn = lines(narrow.screen).filter((line) => line.startsWith('│')).map((line) => line.split('│')[4]!.trim()).join('');
    expect(fileColumn).toContain(file);
    const wideOption = await runInPty(h.env, ['version', 'list', id, '--quiet', '-o', 'wide'], [], { columns: 60 });
    expect(wideOption.screen).toContain(file);
    const wide = await runInPty(h.env, ['version', 'list', id], [], { columns: 200 });
    expect(wide.screen).toMatch(/VERSION ID.*NAME.*PLATFORM.*FILE.*SIZE.*ACTIVE.*CREATED/);
  });

  it('asset status at 60 columns: the matrix when it fits, else one row per record; never a broken border', async () => {
    const small = uid('st');
    await h.createAsset(small);
    const v = await h.uploadVersion(small, 'ios', '1');
    for (const env of ['dev', 'staging', 'prod']) await h.deploy(small, v, 'ios', env, 'LIVE');
    // --quiet: no spinner on the screen under load, only the table.
    const fits = await runInPty(h.env, ['asset', 'status', small, '--quiet'], [], { columns: 60 });
    expect(fits.code, fits.screen).toBe(0);
    expect(widest(fits.screen), fits.screen).toBeLessThanOrEqual(60);
    expect(fits.screen).toMatch(/┌/);

    const big = uid('status-with-long-names');
    await h.createAsset(big);
    const w = await h.uploadVersion(big, 'ios', 'release candidate 1.0.0-rc.1');
    for (const env of ['dev', 'staging', 'prod']) await h.deploy(big, w, 'ios', env, 'LIVE');
    const wide = await runInPty(h.env, ['asset', 'status', big], [], { columns: 200 });
    expect(wide.screen).toMatch(/┌/);
    const narrow = await runInPty(h.env, ['asset', 'status', big, '--quiet'], [], { columns: 60 });
    expect(narrow.code, narrow.screen).toBe(0);
    expect(widest(narrow.screen), narrow.screen).toBeLessThanOrEqual(60);
    expect(lines(narrow.screen).filter((line) => /^│ ios /.test(line))).toHaveLength(3);
  });

  it('collection status at 100 columns: item id lists as counts, --wide lists them, JSON keeps them', async () => {
    const id = uid('narrow');
    expect((await h.ahs(['collection', 'create', id, '--name', 'n', '--allowed-types', '9999'])).exitCode).toBe(0);
    const files = await Promise.all([1, 2, 3, 4, 5].map((n) => h.file(`${id}-${n}.json`, `{"n":${n}}`)));
    expect((await h.ahs(['item', 'upload', id, ...files, '--type', '9999'])).exitCode).toBe(0);
    expect((await h.ahs(['collection-deploy', id, '--env', 'dev'])).exitCode).toBe(0);

    const status = await runInPty(h.env, ['collection', 'status', id], [], { columns: 100 });
    expect(status.code, status.screen).toBe(0);
    expect(widest(status.screen), status.screen).toBeLessThanOrEqual(100);
    expect(status.screen).toContain('5 items');
    expect(status.screen).toContain('item ids: --wide, or --json');

    const wide = await runInPty(h.env, ['collection', 'status', id, '--wide'], [], { columns: 100 });
    expect(wide.code, wide.screen).toBe(0);
    expect(widest(wide.screen), wide.screen).toBeLessThanOrEqual(100);
    expect(wide.screen).toMatch(/5: item-/);

    const json = await h.ahs(['collection', 'status', id, '--json']);
    expect(json.json().items[0].live).toHaveLength(5);
  });
});
