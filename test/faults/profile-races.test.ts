// Runs of the built binary at once on one config folder (two terminals, CI
// jobs): profile writes are atomic and none loses another run's profile;
// `current` always names a profile that exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertFreshBuild, BIN } from '../e2e/helpers.js';

let root: string;
let folders = 0;
beforeAll(async () => {
  assertFreshBuild();
  root = await mkdtemp(join(tmpdir(), 'ahs-profile-races-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

function ahs(configDir: string, args: string[]) {
  return execa('node', [BIN, ...args], { reject: false, timeout: 50_000, stdin: 'ignore', extendEnv: false, env: { PATH: process.env.PATH, HOME: process.env.HOME, AHS_CONFIG_DIR: configDir, NO_COLOR: '1', CI: '1' } });
}

async function stored(configDir: string): Promise<{ current?: string; profiles: Record<string, { baseUrl?: string }> }> {
  return JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8'));
}

const newFolder = () => join(root, `config-${++folders}`);
const add = (configDir: string, name: string) => ahs(configDir, ['profile', 'add', name, '--base-url', `http://${name}.example`, '--domain', 'demo']);

describe('profile writes at once', () => {
  it('six profile add started together leave six profiles, and current names one of them', async () => {
    const configDir = newFolder();
    const names = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    const runs = await Promise.all(names.map((name) => add(configDir, name)));
    for (const run of runs) expect([run.exitCode, run.stderr]).toEqual([0, expect.stringContaining('Added profile')]);
    const file = await stored(configDir);
    expect(Object.keys(file.profiles).sort()).toEqual(names);
    expect(names).toContain(file.current);
    for (const name of names) expect(file.profiles[name]).toEqual({ baseUrl: `http://${name}.example`, domainId: 'demo' });
    // Exactly one run says it made its profile the current one, the one the file names.
    expect(runs.filter((run) => run.stderr.includes('now the current profile'))).toHaveLength(1);
    // No lock and no temporary file left behind.
    expect(await readdir(configDir)).toEqual(['config.json']);
  });

  it('profile remove and use at once with adds lose nothing else, and current never names a removed profile', async () => {
    const configDir = newFolder();
    for (const name of ['keep', 'gone']) expect((await add(configDir, name)).exitCode).toBe(0);
    const runs = await Promise.all([
      ahs(configDir, ['profile', 'use', 'gone']),
      ahs(configDir, ['profile', 'remove', 'gone']),
      add(configDir, 'n1'),
      add(configDir, 'n2'),
      ahs(configDir, ['profile', 'use', 'keep']),
      add(configDir, 'n3'),
    ]);
    // `use gone` may come after its removal: then a usage error naming it, nothing written.
    const [useGone, ...rest] = runs;
    for (const run of rest) expect([run.exitCode, run.stderr]).toEqual([0, expect.anything()]);
    expect([0, 2]).toContain(useGone!.exitCode);
    if (useGone!.exitCode === 2) expect(useGone!.stderr).toBe('error: no profile named "gone" (see: ahs profile list)');
    const file = await stored(configDir);
    expect(Object.keys(file.profiles).sort()).toEqual(['keep', 'n1', 'n2', 'n3']);
    if (file.current !== undefined) expect(Object.keys(file.profiles)).toContain(file.current);
    expect(await readdir(configDir)).toEqual(['config.json']);
  });
});
