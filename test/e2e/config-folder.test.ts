// The config folder, against the built binary: made 0700 whatever the umask,
// made 0700 when it existed open to others (issue 36), and every failure to make or write
// it one line naming the folder and the fix, exit 2, in bounded time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertFreshBuild, BIN } from './helpers.js';

let root: string;
beforeAll(async () => {
  assertFreshBuild();
  root = await mkdtemp(join(tmpdir(), 'ahs-config-folder-'));
});
afterAll(async () => {
  await chmod(join(root, 'locked'), 0o700).catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

/** `profile add` in a child, under `umask` when given. */
function addProfile(configDir: string, options: { umask?: string; json?: boolean } = {}) {
  const args = [BIN, 'profile', 'add', 'ci', '--base-url', 'http://ci.example', ...(options.json ? ['--json'] : [])];
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, AHS_CONFIG_DIR: configDir, NO_COLOR: '1', CI: '1' };
  const command = options.umask ? execa('sh', ['-c', `umask ${options.umask} && exec node "$@"`, 'sh', ...args], { env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 }) : execa('node', args, { env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 });
  return command;
}

const mode = async (path: string) => (await stat(path)).mode & 0o7777;
const FIX = 'set AHS_CONFIG_DIR to a writable folder';

describe('the config folder', () => {
  it('is made 0700, its missing parents too, under umask 000; the profiles file 0600', async () => {
    const configDir = join(root, 'umask', 'nested', 'ahs');
    const run = await addProfile(configDir, { umask: '000' });
    expect(run.exitCode).toBe(0);
    expect(await mode(join(root, 'umask'))).toBe(0o700);
    expect(await mode(join(root, 'umask', 'nested'))).toBe(0o700);
    expect(await mode(configDir)).toBe(0o700);
    expect(await mode(join(configDir, 'config.json'))).toBe(0o600);
  });

  it('an existing folder open to others is made 0700 before the key is written, with a warning saying so', async () => {
    for (const [name, before] of [['open', 0o777], ['listed', 0o755], ['group', 0o750]] as const) {
      const configDir = join(root, name);
      await mkdir(configDir);
      await chmod(configDir, before);
      const run = await addProfile(configDir, { umask: '000' });
      expect(run.exitCode).toBe(0);
      expect(await mode(configDir)).toBe(0o700);
      expect(await mode(join(configDir, 'config.json'))).toBe(0o600);
      expect(run.stderr).toContain(`warning: the config folder ${configDir} was open to other users (mode 0${before.toString(8)}): made it 0700, as it holds the API key`);
    }
    // Once tightened, the next write says nothing.
    const again = await addProfile(join(root, 'listed'));
    expect(again.exitCode).toBe(0);
    expect(again.stderr).not.toContain('config folder');
  });

  it.skipIf(process.getuid?.() !== 0)("another user's folder is left as it is and named in a warning, with the fix", async () => {
    const configDir = join(root, 'theirs');
    await mkdir(configDir);
    await chmod(configDir, 0o755);
    const { chown } = await import('node:fs/promises');
    await chown(configDir, 65534, 65534);
    const run = await addProfile(configDir);
    expect(run.exitCode).toBe(0);
    expect(await mode(configDir)).toBe(0o755);
    expect(run.stderr).toContain(`warning: the config folder ${configDir} is open to other users (mode 0755) and not yours to change: run chmod 700 ${configDir}, or ${FIX} of your own`);
  });

  it('a shared folder (sticky, as /tmp is) is left as it is and named', async () => {
    const configDir = join(root, 'sticky');
    await mkdir(configDir);
    await chmod(configDir, 0o1777);
    const run = await addProfile(configDir);
    expect(run.exitCode).toBe(0);
    expect(await mode(configDir)).toBe(0o1777);
    expect(run.stderr).toContain(`warning: the config folder ${configDir} is open to other users (mode 1777) and shared (sticky): run chmod 700 ${configDir}, or ${FIX} of your own`);
  });

  it.skipIf(!existsSync('/proc/self'))('under /proc: exit 2 at once, one line naming the folder and the fix (no endless mkdir)', async () => {
    const run = await addProfile('/proc/nope/ahs');
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`error: cannot create the config folder /proc/nope/ahs (at /proc/nope: the system does not allow a folder there); ${FIX}`);
  });

  it('under a regular file: exit 2 naming the file in the way; --json gives one JSON error', async () => {
    const file = join(root, 'a-file');
    await writeFile(file, 'x');
    const run = await addProfile(join(file, 'ahs'));
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`error: cannot create the config folder ${join(file, 'ahs')} (at ${file}: a file is in the way, not a folder); ${FIX}`);
    const json = await addProfile(join(file, 'ahs'), { json: true });
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({ type: 'urn:ahs:usage', title: expect.stringContaining(FIX) });
  });

  // As root, a folder's mode does not stop writes.
  it.skipIf(process.getuid?.() === 0)('not writable (0500): exit 2, permission denied, naming the folder', async () => {
    const locked = join(root, 'locked');
    await mkdir(locked);
    await chmod(locked, 0o500);
    const run = await addProfile(locked);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`error: cannot write to the config folder ${locked} (permission denied); ${FIX}`);
  });
});
