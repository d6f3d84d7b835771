// The interactive browse (`ahs fetch` with no arguments in a terminal),
// driven through its real prompts in a pseudo-terminal: util-linux `script`
// gives the built binary a pty (no extra installs on Linux CI). Keystrokes
// are sent only once the prompt they answer is on screen: no timing asserts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, hasScript, runInPty, type Harness, type PtyStep } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
  const a = await h.file('alpha.txt', 'alpha bytes\n');
  const b = await h.file('beta.json', '{"beta":true}');
  for (const [id, name] of [['browse-one', 'Browse One'], ['other-two', 'Other Two'], ['never-live', 'Never Live']] as const) {
    expect((await h.ahs(['collection', 'create', id, '--name', name, '--allowed-types', '1001'])).exitCode).toBe(0);
  }
  expect((await h.ahs(['item', 'upload', 'browse-one', a, b, '--type', '1001'])).exitCode).toBe(0);
  expect((await h.ahs(['item', 'upload', 'other-two', a, '--type', '1001'])).exitCode).toBe(0);
  expect((await h.ahs(['item', 'upload', 'never-live', a, '--type', '1001'])).exitCode).toBe(0);
  expect((await h.ahs(['collection-deploy', 'browse-one', '--env', 'dev'])).exitCode).toBe(0);
  expect((await h.ahs(['collection-deploy', 'browse-one', '--env', 'staging'])).exitCode).toBe(0);
});
afterAll(async () => {
  await h?.close();
});


/** The search list once filtered down to exactly one match (Enter before that would pick from the stale list). */
const only = (term: string, name: string) => new RegExp(`${term}\\r\\n❯ ${name}[^\\r\\n]*\\r\\n\\r\\n`);

/** Runs the binary in a pty; each step waits for its pattern (in output not yet consumed) and then types its keys. */

describe.skipIf(!hasScript)('ahs fetch: interactive browse in a terminal', () => {
  it('search a collection, pick an environment where it is Live, untick an item, download', async () => {
    const dir = 'picked';
    const { code, screen } = await inPty(
      ['fetch', '--dir', dir],
      [
        [/Collection \(type to search\)[\s\S]*Never Live/, 'Brow'],
        [only('Brow', 'Browse One'), '\r'],
        [/Environment \(where it is Live\)[\s\S]*staging[\s\S]*navigate/, '\x1b[B'],
        [/❯ staging/, '\r'],
        // Untick the first item in the list (whichever it is), then confirm.
        [/Items to download[\s\S]*alpha\.txt[\s\S]*submit/, ' '],
        [/◯ \S+/, '\r'],
      ],
      h.dir,
    );
    expect(code, screen).toBe(0);
    const unticked = /◯ (\S+)/.exec(screen)![1];
    const kept = unticked === 'alpha.txt' ? 'beta.json' : 'alpha.txt';
    expect(screen).toMatch(/1 downloaded, 0 skipped, 0 failed/);
    expect(await readdir(join(h.dir, dir))).toEqual([kept]);
    expect(await readFile(join(h.dir, dir, kept), 'utf8')).toBe(kept === 'alpha.txt' ? 'alpha bytes\n' : '{"beta":true}');
  });

  it('a collection not Live anywhere is refused and the list comes back', async () => {
    const dir = 'picked-2';
    const { code, screen } = await inPty(
      ['fetch', '--dir', dir],
      [
        [/Collection \(type to search\)[\s\S]*Never Live/, 'never'],
        [only('never', 'Never Live'), '\r'],
        [/not Live in any environment[\s\S]*Collection \(type to search\)[\s\S]*navigate/, 'other'],
        [only('other', 'Other Two'), '\r'],
        // Other Two is not Live either; pick the first one after that.
        [/not Live in any environment[\s\S]*Collection \(type to search\)[\s\S]*navigate/, 'browse'],
        [only('browse', 'Browse One'), '\r'],
        [/Environment[\s\S]*navigate/, '\r'],
        [/Items to download[\s\S]*submit/, '\r'],
      ],
      h.dir,
    );
    expect(code, screen).toBe(0);
    expect((await readdir(join(h.dir, dir))).sort()).toEqual(['alpha.txt', 'beta.json']);
  });

  it('the same prompts fill a missing argument of the other commands (collection status)', async () => {
    const { code, screen } = await inPty(
      ['collection', 'status'],
      // Collections are listed in creation order: Browse One comes first.
      [[/Collection[\s\S]*❯ Browse One[\s\S]*navigate/, '\r']],
      h.dir,
    );
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/dev\s*│\s*LIVE/);
  });

  it('no environment to pick: a missing collection is exit 4, one Live nowhere says how to deploy it (exit 2)', async () => {
    const missing = await inPty(['fetch', 'no-such-collection', '--dir', 'none'], [], h.dir);
    expect(missing.code, missing.screen).toBe(4);
    expect(missing.screen).toMatch(/collection no-such-collection not found/);
    const undeploy = await inPty(['collection', 'undeploy', 'no-such-collection'], [], h.dir);
    expect(undeploy.code, undeploy.screen).toBe(4);
    const never = await inPty(['fetch', 'never-live', '--dir', 'none'], [], h.dir);
    expect(never.code, never.screen).toBe(2);
    expect(never.screen).toMatch(/never-live is not Live in any environment: deploy it with `ahs collection-deploy never-live --env ENV`/);
    expect(await readdir(h.dir)).not.toContain('none');
  });

  it('Ctrl-C at a prompt exits 130 without writing anything', async () => {
    const { code } = await inPty(['fetch', '--dir', 'never'], [[/Collection \(type to search\)[\s\S]*navigate/, '\x03']], h.dir);
    expect(code).toBe(130);
    expect(await readdir(h.dir)).not.toContain('never');
  });
});

function inPty(args: string[], steps: PtyStep[], cwd: string) {
  return runInPty(h.env, args, steps, { cwd });
}
