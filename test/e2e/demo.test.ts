// `npm run demo` (scripts/demo.mjs against the built binary): a whole release
// on the embedded emulator, each command printed before its output; exits 0 and
// leaves nothing behind (emulator stopped, temporary folder removed).
import { execa } from 'execa';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const scratch = await mkdtemp(join(tmpdir(), 'ahs-demo-test-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('npm run demo', () => {
  it('runs a whole release through ahs, exits 0 and leaves nothing running', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: scratch, NO_COLOR: '1' };
    for (const name of Object.keys(env)) if (name.startsWith('AHS_')) delete env[name];
    const result = await execa('node', [join(root, 'scripts', 'demo.mjs')], { cwd: root, env, reject: false, timeout: 240_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const out = result.stdout;
    for (const command of [
      '$ ahs emulator start --port 0 --json',
      '$ ahs asset create hello-bundle',
      '$ ahs version upload hello-bundle',
      '$ ahs deploy hello-bundle IOS1 --platform ios --env prod',
      '$ ahs promote-default hello-bundle IOS1',
      '$ ahs promote-default hello-bundle IOS2',
      '$ ahs asset status hello-bundle',
      '$ ahs collection create launch-pack',
      '$ ahs item upload launch-pack',
      '$ ahs collection-deploy launch-pack',
      '$ ahs fetch launch-pack',
      '--dry-run',
    ]) {
      expect(out).toContain(command);
    }
    // the second promotion demotes the first Default
    expect(`${out}\n${result.stderr}`).toMatch(/IOS1/);
    expect(out).toMatch(/fetched: banner\.svg, config\.json, notes\.txt/);
    expect(out).toContain('(exit status 1, as predicted)');
    // commands come before their output
    expect(out.indexOf('$ ahs asset status')).toBeLessThan(out.indexOf('DEFAULT', out.indexOf('$ ahs asset status')));

    const ready = JSON.parse(out.split('\n').find((line) => line.startsWith('{"baseUrl"')) ?? '{}') as { baseUrl?: string };
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await refused(Number(new URL(ready.baseUrl!).port))).toBe(true);
    expect(await readdir(scratch)).toEqual([]);
  }, 300_000);
});
