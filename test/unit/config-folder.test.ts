// The profiles lock: a live holder is waited for (bounded, then exit 5 naming
// the lock), a dead one's lock is taken over.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withLock } from '../../src/config/config-folder.js';
import { ConflictError } from '../../src/errors.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function folder(): Promise<{ dir: string; file: string; lock: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'ahs-lock-'));
  dirs.push(dir);
  const file = join(dir, 'config.json');
  return { dir, file, lock: `${file}.lock` };
}

/** The pid of a process that has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('withLock', () => {
  it('holds FILE.lock while the change runs and removes it after, on failure too', async () => {
    const { dir, file, lock } = await folder();
    await withLock(file, dir, async () => expect(existsSync(lock)).toBe(true));
    expect(existsSync(lock)).toBe(false);
    await expect(withLock(file, dir, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a live holder, then gives up with exit 5 naming the lock', async () => {
    const { dir, file, lock } = await folder();
    await writeFile(lock, `${process.pid}\n`);
    const attempt = withLock(file, dir, async () => 'ran', 50);
    await expect(attempt).rejects.toBeInstanceOf(ConflictError);
    await expect(attempt).rejects.toThrow(`another ahs run has held the profiles lock ${lock} for over 1 s; try again, or remove that file if no ahs is running`);
  });

  it('takes over the lock of a run that died, and an old lock without a pid', async () => {
    const { dir, file, lock } = await folder();
    await writeFile(lock, `${deadPid()}\n`);
    expect(await withLock(file, dir, async () => 'ran', 50)).toBe('ran');
    await writeFile(lock, '');
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withLock(file, dir, async () => 'ran', 50)).toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });
});
