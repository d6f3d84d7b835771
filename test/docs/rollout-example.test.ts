// The rollout workflow of docs/rollouts.md works as written: its jobs' shell steps,
// extracted from the YAML, run in order (dev, staging, prod), each job twice
// at once (a re-run while the first still runs), under `bash -eo pipefail`
// against the emulator with the journal set; its check reads the secured
// asset with the run's own key. Only what cannot
// run here is stood in for: the service is the emulator, `npm install` a
// shim, the soaks a second each (SOAK_DEV, SOAK_STAGING, as a repository
// variable would set them).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO_API_KEY, DEMO_USER, assertFreshBuild, harness, type Harness } from '../e2e/helpers.js';
import { docWorkflow } from './workflow.js';

/** The workflow's env and its jobs' `run` scripts, from docs/rollouts.md's rollout YAML block. */
const rolloutExample = () => docWorkflow('rollouts.md', '# Rollouts across environments');

let h: Harness;
let work: string;
beforeAll(async () => {
  assertFreshBuild();
  h = await harness();
  work = mkdtempSync(join(tmpdir(), 'ahs-rollout-ci-'));
  writeFileSync(join(work, 'ahs'), `#!/bin/sh\nexec node '${BIN}' "$@"\n`);
  writeFileSync(join(work, 'npm'), '#!/bin/sh\nexit 0\n');
  for (const name of ['ahs', 'npm']) chmodSync(join(work, name), 0o755);
});
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the rollout workflow of docs/rollouts.md', () => {
  it('runs as written, one job per wave in order, each twice at once: dev, staging, then prod behind its environment; every job passes, every wave ends on the version, promoted once', async () => {
    const { env, jobs } = rolloutExample();
    expect(jobs.map((j) => [j.name, j.needs, j.environment])).toEqual([
      ['dev', undefined, undefined],
      ['staging', 'dev', undefined],
      ['prod', 'staging', 'production'],
    ]);
    // The same command line in every job, the prod job adding its approval.
    const lines = jobs.map((j) => j.runs[1]!.replace(/ --timeout \d+/, '').replace(' || [ $? -eq 11 ]', '').replace(' --approved prod', ''));
    expect(new Set(lines).size).toBe(1);

    await h.createAsset('my-bundle');
    const old = await h.uploadVersion('my-bundle', 'web', '1.0');
    for (const e of ['dev', 'staging', 'prod']) {
      await h.deploy('my-bundle', old, 'web', e, 'LIVE');
      await h.deploy('my-bundle', old, 'web', e, 'DEFAULT');
    }
    const version = await h.uploadVersion('my-bundle', 'web', 'v2.0.0');
    const runEnv = {
      PATH: `${work}:${process.env.PATH}`,
      HOME: work,
      ...env,
      SOAK_DEV: '1s',
      SOAK_STAGING: '1s',
      AHS_API_KEY: DEMO_API_KEY,
      AHS_BASE_URL: h.emu.baseUrl,
      AHS_DOMAIN: 'demo',
      AHS_USER: DEMO_USER,
      AHS_CONFIG_DIR: join(work, 'config'),
      CI: 'true',
      GITHUB_REF_NAME: 'v2.0.0',
      RUNNER_TEMP: work,
    };
    const run = (script: string) => promisify(execFile)('bash', ['-eo', 'pipefail', '-c', script], { cwd: work, env: runEnv });
    // Once, before the first rollout: the journal the soaks are measured from.
    await run(`ahs journal init ${env.AHS_JOURNAL} --env prod`);
    const defaults = async () => (await h.records('my-bundle')).filter((r) => r.endsWith('=DEFAULT'));
    const after: string[][] = [];
    for (const job of jobs) {
      // Two runs of the job at once: both pass.
      await Promise.all([0, 1].map(async () => {
        for (const script of job.runs) await run(script);
      }));
      after.push(await defaults());
    }
    expect(after[0]).toContain(`web/dev/${version}=DEFAULT`);
    expect(after[1]).toEqual([`web/dev/${version}=DEFAULT`, `web/prod/${old}=DEFAULT`, `web/staging/${version}=DEFAULT`]);
    expect(after[2]).toEqual([`web/dev/${version}=DEFAULT`, `web/prod/${version}=DEFAULT`, `web/staging/${version}=DEFAULT`]);
    // Each wave promoted once, by one of the two jobs; the check fetched what each wave serves.
    const history = JSON.parse((await run('ahs history --json')).stdout).results.filter((e: any) => e.rollout?.asset === 'my-bundle' && e.rollout.action === 'promote');
    expect(history.map((e: any) => e.rollout.wave).sort()).toEqual(['dev', 'prod', 'staging']);
    // ahs fetch --url "$AHS_ROLLOUT_URL" wrote the file the wave serves under its own name.
    expect(readFileSync(join(work, 'after-prod', 'bundle.zip'), 'utf8')).toBe('payload');
    expect(readFileSync(join(work, 'before-staging', 'bundle.zip'), 'utf8')).toBe('payload');
    // A re-run of the whole workflow: complete, nothing sent.
    const again = await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', `${jobs[2]!.runs[1]!} --verbose`], { cwd: work, env: runEnv });
    expect(again.stderr).not.toMatch(/> POST /);
    expect(again.stderr).toContain('the rollout is complete');
  });
});
