// No phantom retries (issue 45): a request the command no longer needs (the
// other half of a parallel read after a 404) is cancelled as such when the
// command ends: never counted as a network failure, never retried, and no
// "retrying" line follows the command's final answer (cli.md, "Reading the
// service").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h?.close());

const missing = (id: string) => `error: Virtual Asset ${id} not found in domain demo (HTTP 404)`;

describe('a missing asset: the 404 is the one line', () => {
  it('asset status (the built binary: what the process prints up to its exit)', async () => {
    const run = await h.ahs(['asset', 'status', 'nope'], { binary: true });
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toBe(missing('nope'));
  });

  it.each([
    ['asset status --platform', ['asset', 'status', '@', '--platform', 'ios']],
    ['rollback', ['rollback', '@', '--platform', 'ios', '--env', 'dev', '--yes']],
    ['promote-default', ['promote-default', '@', 'IOS1', '--platform', 'ios', '--env', 'dev']],
    ['verify', ['verify', '@', '--platform', 'ios', '--env', 'dev', '.']],
  ])('%s', async (_name, args) => {
    const id = uid('ph');
    const run = await h.ahs(args.map((arg) => (arg === '@' ? id : arg)));
    expect(run.stderr).not.toContain('retrying');
    expect(run.exitCode, run.stderr).toBe(4);
    expect(run.stderr.split('\n')).toHaveLength(1);
  });
});
