// Reads parse conf's file directly (conf loads only to write): the path must
// be the one conf writes, with AHS_CONFIG_DIR and without.
import { afterEach, describe, expect, it } from 'vitest';
import Conf from 'conf';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openProfileStore, profilesPath } from '../../src/config/profiles.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ahs-profiles-'));
  dirs.push(dir);
  return dir;
}

describe('the profiles file', () => {
  it('is where conf writes it, under AHS_CONFIG_DIR', async () => {
    const dir = await tempDir();
    const conf = new Conf({ projectName: 'ahs', projectSuffix: '', cwd: dir, configName: 'config' });
    expect(profilesPath({ AHS_CONFIG_DIR: dir })).toBe(conf.path);
  });

  it('is where conf writes it in the user config folder (XDG_CONFIG_HOME)', async () => {
    const home = await tempDir();
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = home;
    try {
      const conf = new Conf({ projectName: 'ahs', projectSuffix: '', configName: 'config' });
      expect(profilesPath({})).toBe(conf.path);
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });

  it('round-trips through a write (conf) and a read (plain JSON), owner-only', async () => {
    const dir = await tempDir();
    const store = openProfileStore({ AHS_CONFIG_DIR: dir });
    expect(store.names()).toEqual([]);
    expect(await store.put('ci', { baseUrl: 'http://x', apiKey: 'k' })).toBe(true);
    expect(await store.put('other', { baseUrl: 'http://y' })).toBe(false);
    const again = openProfileStore({ AHS_CONFIG_DIR: dir });
    expect(again.current()).toBe('ci');
    expect(again.names()).toEqual(['ci', 'other']);
    expect(again.get('ci')).toEqual({ baseUrl: 'http://x', apiKey: 'k' });
    expect((await stat(again.path)).mode & 0o777).toBe(0o600);
    await again.remove('ci');
    expect(openProfileStore({ AHS_CONFIG_DIR: dir }).current()).toBeUndefined();
  });
});
