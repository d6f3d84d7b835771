// A deployment in progress is waited out (cli.md, "Reading the service"):
// the channel answers 500 while another deployment holds it, and ahs keeps
// trying past --retries for as long as --timeout lasts, then succeeds. The
// hold is released once ahs has been refused more often than --retries
// allows (event-driven: the retry notices on its stderr), never by a sleep.
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, assertFreshBuild, harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  assertFreshBuild();
  h = await harness();
});
afterAll(async () => h.close());

describe('deploy while the channel is mid-deployment', () => {
  it('waits the deployment out past --retries, within --timeout, and exits 0', async () => {
    const id = uid('busy');
    await h.createAsset(id);
    const first = await h.uploadVersion(id, 'ios', '1.0');
    const second = await h.uploadVersion(id, 'ios', '1.1');
    const hold = h.emu.holdDeployments();
    const holding = h.deploy(id, first, 'ios', 'prod', 'LIVE');
    await hold.held();
    const run = execa(process.execPath, [BIN, 'deploy', id, second, '--platform', 'ios', '--env', 'prod', '--retries', '1', '--timeout', '60'], { env: h.env, reject: false });
    let notices = 0;
    run.stderr!.on('data', (chunk: Buffer) => {
      notices += (chunk.toString().match(/retrying/g) ?? []).length;
      // Refused three times with --retries 1: a bounded retry would have given up already.
      if (notices >= 3) hold.release();
    });
    const result = await run;
    hold.release();
    expect((await holding).status).toBe(201);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(notices).toBeGreaterThanOrEqual(3);
    expect(await h.records(id)).toEqual(expect.arrayContaining([`ios/prod/${first}=LIVE`, `ios/prod/${second}=LIVE`]));
  });
});
