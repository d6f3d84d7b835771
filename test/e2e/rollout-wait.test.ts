// ahs rollout --wait (cli.md "Rollouts across environments"): main() in CI,
// the built binary in a terminal, against the emulator, waiting out real
// soaks of a few seconds. A file of its own, so that its waits run beside the other rollout tests
// (rollout.test.ts) rather than after them; its two tests wait out their
// soaks at the same time (describe.concurrent: an asset each, one journal),
// ~6 s instead of ~11 s (issue 34).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, hasScript, runInPty, uid, type Harness } from './helpers.js';
import { WAVES, seededRollout, waveDefaults } from './rollout-fixture.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const seeded = () => seededRollout(h);
const defaults = (id: string) => waveDefaults(h, id);
const ahs = (args: string[], env: Record<string, string> = {}) => h.ahs(args, { env });


describe.concurrent('ahs rollout --wait, with the journal', () => {
  let journal: Record<string, string>;
  beforeAll(async () => {
    const id = uid('jr');
    const init = await ahs(['journal', 'init', id, '--env', 'dev']);
    expect(init.exitCode, init.stderr).toBe(0);
    journal = { AHS_JOURNAL: id };
  });

  it('--wait sleeps out a short soak within --timeout and goes on (periodic lines in CI); a soak longer than --timeout leaves exits 11 at once', async () => {
    const { id, v2 } = await seeded();
    // 5 s: long enough that the run still finds it soaking on a loaded machine.
    const line = ['rollout', id, v2, ...WAVES, '--soak', 'staging=5s'];
    const waited = await ahs([...line, '--wait'], journal);
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(waited.stderr).toMatch(/^waiting: staging soaks until (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\dZ, [1-5]s left$/m);
    expect(await defaults(id)).toEqual([v2, v2, v2]);
    const other = await seeded();
    const long = await ahs(['rollout', other.id, other.v2, ...WAVES, '--soak', 'dev=1h', '--wait', '--timeout', '5'], journal);
    expect(long.exitCode).toBe(11);
    expect(long.stderr).toMatch(/--wait: dev soaks until .*, longer than what --timeout leaves/);
  });

  it.skipIf(!hasScript)('--wait in a terminal: a countdown line redrawn in place, then the next wave', async () => {
    const { id, v2 } = await seeded();
    const r = await runInPty({ ...h.env, ...journal }, ['rollout', id, v2, '--platform', 'web', '--waves', 'dev,staging', '--soak', 'dev=5s', '--wait'], []);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/\r\x1b\[2Kwaiting: dev soaks until (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\dZ, [1-5]s left/);
    expect(r.screen).toContain(`${v2} is now the Default of ${id}/web/staging`);
    expect(await defaults(id)).toEqual([v2, v2, expect.any(String)]);
  });
});
