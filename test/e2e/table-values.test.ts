// Tables that keep their values (issue 48, cli.md "Output"): history's CHANGE
// column and the rollout table keep version ids and states whole at 60 and 100
// columns (a cell wraps, never cut), and the rollout table is drawn the same
// way on every run. In a real pty, as the other terminal tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, hasScript, runInPty, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

function lines(screen: string): string[] {
  return screen
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((line) => line.replace(/\r/g, ''))
    .filter((line) => line.trim() !== '');
}
/**
 * The widest line of the table (a message line after it is the terminal's to
 * wrap; a line where the pty's output was split inside a character, decoded
 * chunk by chunk by runInPty, is left out: its U+FFFDs are not the table's).
 */
const widest = (screen: string) => Math.max(...lines(screen).filter((line) => /^[│┌└├]/.test(line) && !line.includes('\ufffd')).map((line) => [...line].length));
/** Every cell of every table row, as drawn (a wrapped value is in pieces on lines of its own). */
const cells = (screen: string) => lines(screen).filter((line) => line.startsWith('│')).flatMap((line) => line.split('│').map((cell) => cell.trim()));

describe.skipIf(!hasScript)('tables keep the values a person came for', () => {
  it('history at 60 and 100 columns: every version id whole, nothing cut', async () => {
    const journal = uid('jr');
    expect((await h.ahs(['journal', 'init', journal, '--env', 'prod'])).exitCode).toBe(0);
    const env = { ...h.env, AHS_JOURNAL: journal };
    const id = uid('hist');
    await h.createAsset(id);
    const ids: string[] = [];
    for (const name of ['1.0', '1.1']) {
      const r = await h.ahs(['release', id, await h.file(`${id}-${name}.zip`, name), '--platform', 'ios', '--env', 'prod', '--name', name, '--json'], { env: { AHS_JOURNAL: journal } });
      expect(r.exitCode, r.stderr).toBe(0);
      ids.push(r.json().version.versionId);
    }
    for (const columns of [60, 100]) {
      const { code, screen } = await runInPty(env, ['history', id, '--quiet'], [], { columns });
      expect(code, screen).toBe(0);
      expect(widest(screen), screen).toBeLessThanOrEqual(columns);
      expect(screen).not.toContain('…');
      // `(none) → IOS1`, `IOS1 → IOS2`: each id is a word of its own in some cell line.
      const words = cells(screen).flatMap((cell) => cell.split(/[\s=]+/));
      for (const versionId of ids) expect(words, screen).toContain(versionId);
      // At 100 columns the change itself is one line: the column a person reads history for, the others give up room first.
      if (columns === 100) expect(cells(screen), screen).toContain(`channel.${id}.ios.prod: ${ids[0]} → ${ids[1]}`);
    }
  });

  it('the rollout table at 60 and 100 columns: waves and states whole, boxed on every run', async () => {
    const id = uid('wide');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'web', '1.0');
    const args = ['rollout', id, v, '--platform', 'web', '--waves', 'dev,staging,prod', '--approve', 'prod', '--quiet'];
    for (const columns of [60, 100, 60]) {
      const { code, screen } = await runInPty(h.env, args, [], { columns });
      expect(code, screen).toBe(11);
      expect(widest(screen), screen).toBeLessThanOrEqual(columns);
      expect(screen).not.toContain('…');
      expect(screen).toMatch(/┌/);
      const drawn = cells(screen);
      for (const wave of ['dev', 'staging', 'prod']) expect(drawn, screen).toContain(wave);
      expect(drawn.filter((cell) => cell === 'done'), screen).toHaveLength(2);
      // A state wraps only where it breaks itself (after its dash).
      expect(drawn.join(' '), screen).toMatch(/waiting-(?: approval|approval)/);
      // A header wraps between its words, never inside one (PREVIOU / S DEFAULT at 60 columns once).
      const words = drawn.join(' ').split(/\s+/);
      for (const word of ['WAVE', 'STATE', 'PREVIOUS', 'DEFAULT']) expect(words, screen).toContain(word);
    }
  });
});
