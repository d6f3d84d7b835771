// Tables fit the terminal (issue 24): boxed when they fit; else plain
// columns, the widest cut with an ellipsis; long id lists of collection
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
  it('version list and asset list at 60 columns: no line wraps; a cut cell ends in an ellipsis', async () => {
    const id = uid('narrow-asset-with-a-rather-long-identifier');
    const r = await h.call('POST', '/va', { assetId: id, assetName: 'A bundle whose name is long enough to need a wide column', assetType: '1001', createdBy: DEMO_USER });
    expect(r.status).toBe(201);
    await h.uploadVersion(id, 'ios', 'release candidate with a long version name 1.0.0-rc.1');
    await h.uploadVersion(id, 'android', '1.0');
    for (const args of [['version', 'list', id], ['asset', 'list', '--all']]) {
      const wide = await runInPty(h.env, args, [], { columns: 200 });
      expect(wide.code, wide.screen).toBe(0);
      expect(widest(wide.screen), 'the table needs more than 60 columns').toBeGreaterThan(60);
      const narrow = await runInPty(h.env, args, [], { columns: 60 });
      expect(narrow.code, narrow.screen).toBe(0);
      expect(widest(narrow.screen), narrow.screen).toBeLessThanOrEqual(60);
      expect(narrow.screen).toContain('…');
      expect(narrow.screen).not.toMatch(/[│┌└├]/);
    }
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
