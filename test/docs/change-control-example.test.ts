// The workflow of docs/change-control.md works as written: its jobs' shell
// steps, extracted from the YAML, run under `bash -eo pipefail` against the
// emulator (the built binary), with the service's clock moved (the
// emulator's clock variation), never waited for: the weekend freeze set on a
// Wednesday; the release job takes prod's lock, rolls out through staging and
// prod with it and releases it; on a Saturday inside the freeze a write to
// prod is refused naming the freeze while the incident's rollback goes
// through and blocks the bad version; on the Monday after, a re-run of the
// release job does not bring it back, and promoting it is refused naming the
// block. Only what cannot run here is stood in for: the service is the
// emulator, its URL and key the test's.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO_API_KEY, DEMO_USER, assertFreshBuild, harness, type Harness } from '../e2e/helpers.js';
import { docWorkflow } from './workflow.js';

/** The workflow's env and its jobs' `run` scripts, from docs/change-control.md's YAML block. */
const workflow = () => docWorkflow('change-control.md', '## A workflow');

let h: Harness;
let work: string;
beforeAll(async () => {
  assertFreshBuild();
  h = await harness();
  work = mkdtempSync(join(tmpdir(), 'ahs-control-ci-'));
  writeFileSync(join(work, 'ahs'), `#!/bin/sh\nexec node '${BIN}' "$@"\n`);
  chmodSync(join(work, 'ahs'), 0o755);
});
afterAll(async () => {
  h?.emu.setClockOffset(0);
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The next `day` (0 Sunday .. 6 Saturday) at `hour`:00 UTC, at least a day from now. */
function next(day: number, hour: number, from = Date.now()): number {
  const at = new Date(from + 86_400_000);
  at.setUTCHours(hour, 0, 0, 0);
  while (at.getUTCDay() !== day) at.setUTCDate(at.getUTCDate() + 1);
  return at.getTime();
}

describe('the workflow of docs/change-control.md', () => {
  it('the release job locks prod, rolls out and releases; in the weekend freeze the incident\'s rollback goes through and blocks the version; no re-run brings it back', async () => {
    const { env, jobs } = workflow();
    expect(jobs.map((j) => j.name)).toEqual(['freeze-weekends', 'release', 'incident']);
    const job = (name: string) => jobs.find((j) => j.name === name)!;

    await h.createAsset('my-bundle');
    const good = await h.uploadVersion('my-bundle', 'ios', '1.4.1');
    for (const e of ['staging', 'prod']) {
      await h.deploy('my-bundle', good, 'ios', e, 'LIVE');
      await h.deploy('my-bundle', good, 'ios', e, 'DEFAULT');
    }
    const bad = await h.uploadVersion('my-bundle', 'ios', '1.4.2');
    const runEnv = {
      PATH: `${work}:${process.env.PATH}`,
      HOME: work,
      ...env,
      AHS_API_KEY: DEMO_API_KEY,
      AHS_BASE_URL: h.emu.baseUrl,
      AHS_DOMAIN: 'demo',
      AHS_USER: DEMO_USER,
      AHS_CONFIG_DIR: join(work, 'config'),
      CI: 'true',
      GITHUB_SHA: 'c0ffee',
      VERSION_NAME: '1.4.2',
      GOOD_VERSION: good,
      INCIDENT: 'INC-42: crash on start',
    };
    const run = (script: string) =>
      promisify(execFile)('bash', ['-eo', 'pipefail', '-c', script], { cwd: work, env: runEnv }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );
    const jobRun = async (name: string) => {
      let last = { code: 0, stdout: '', stderr: '' };
      for (const script of job(name).runs) {
        last = await run(script);
        if (last.code !== 0) break;
      }
      return last;
    };
    const defaults = async () => (await h.records('my-bundle')).filter((r) => r.endsWith('=DEFAULT'));
    const at = (ms: number) => h.emu.setClockOffset(ms - Date.now());
    // The journal the rollout records its waves in (once, as docs/rollouts.md starts it).
    expect((await run('ahs journal init --env prod')).code).toBe(0);

    // A Wednesday noon: the weekend freeze is set, not in force; the release job goes through.
    at(next(3, 12));
    const frozen = await jobRun('freeze-weekends');
    expect(frozen.code, frozen.stderr).toBe(0);
    expect(frozen.stderr).toContain('froze prod (weekly Fri 16:00-Mon 08:00 Europe/Berlin): not in force right now');
    const released = await jobRun('release');
    expect(released.code, released.stderr).toBe(0);
    expect(released.stderr).toContain('holding the lock on prod (lock id ');
    expect(released.stderr).toMatch(/released prod \(lock id [0-9a-f]{12}\)/);
    expect(await defaults()).toEqual([`ios/prod/${bad}=DEFAULT`, `ios/staging/${bad}=DEFAULT`]);
    expect(JSON.parse((await run('ahs lock status prod --json')).stdout)).toMatchObject({ held: false });

    // Saturday noon, inside the freeze: a write to prod is refused naming it; the incident's rollback goes through.
    at(next(6, 12));
    const refused = await run(`ahs deploy my-bundle ${bad} --env prod --state OFFLINE`);
    expect(refused.code).toBe(12);
    expect(refused.stderr).toContain('prod is frozen (weekly Fri 16:00-Mon 08:00 Europe/Berlin)');
    expect(refused.stderr).toContain('no weekend deploys');
    const incident = await jobRun('incident');
    expect(incident.code, incident.stderr).toBe(0);
    expect(await defaults()).toEqual([`ios/prod/${good}=DEFAULT`, `ios/staging/${bad}=DEFAULT`]);
    expect((await h.ahs(['freeze', 'list', '--json'])).json().results).toMatchObject([{ env: 'prod', active: true }]);

    // The Monday after, out of the freeze: a re-run of the release job does not bring the version back, and
    // promoting it is refused naming the block (who, why).
    at(next(1, 12, next(6, 12)));
    const rerun = await jobRun('release');
    expect(rerun.code, rerun.stderr).not.toBe(0);
    expect(await defaults()).toEqual([`ios/prod/${good}=DEFAULT`, `ios/staging/${bad}=DEFAULT`]);
    const promote = await run(`ahs promote-default my-bundle ${bad} --env prod`);
    expect(promote.code).toBe(12);
    expect(promote.stderr).toContain(`version ${bad} of my-bundle is blocked by ${DEMO_USER}`);
    expect(promote.stderr).toContain('INC-42: crash on start');
    // Every lock the jobs took was given back.
    expect(JSON.parse((await run('ahs lock status prod --json')).stdout)).toMatchObject({ held: false });
  }, 120_000);
});
