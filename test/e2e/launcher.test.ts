// bin/ahs.js answers --version, and help outside a terminal, from
// dist/answers.json without loading the bundle (issue 14). What it prints
// must be byte for byte what the bundle's main() prints, exit code included.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, assertFreshBuild, harness } from './helpers.js';

const ENV = { NO_COLOR: '1', AHS_API_KEY: undefined };

/**
 * The bundle's main() itself, without the launcher's answers, stdout a pipe as
 * for the launcher. Compiled as the launcher compiles it (loadBundle, with the
 * built code cache): an import of dist/main.js compiled it whole each time,
 * twice the CPU of a run for the same text.
 */
function viaBundle(args: string[], env: Record<string, string | undefined> = ENV) {
  const script = `require(${JSON.stringify(BIN)}).loadBundle().main(process.argv.slice(1)).then((code) => (process.exitCode = code));`;
  return execa(process.execPath, ['-e', script, '--', ...args], { reject: false, env, stripFinalNewline: false });
}

function viaLauncher(args: string[], env: Record<string, string | undefined> = ENV) {
  return execa(process.execPath, [BIN, ...args], { reject: false, env, stripFinalNewline: false });
}

beforeAll(() => assertFreshBuild());

describe('the launcher', () => {
  it.each([
    ['--version'],
    ['-V'],
    ['--help'],
    ['-h'],
    ['help'],
    ['help', 'asset'],
    ['asset', '--help'],
    ['help', 'asset', 'list'],
    ['asset', 'list', '-h'],
    ['fetch', '--help'],
    ['help', 'globals'],
  ])('prints what the bundle prints for ahs %s', async (...args: string[]) => {
    const [launched, bundled] = await Promise.all([viaLauncher(args), viaBundle(args)]);
    expect(launched.stdout).not.toBe('');
    expect(launched.stdout).toBe(bundled.stdout);
    expect(launched.stderr).toBe(bundled.stderr);
    expect(launched.exitCode).toBe(0);
  });

  it.each([[['--json', '--help']], [['asset']], [['help', 'nothing-of-that-name']], [['--version', '--help']]])('hands %j to the bundle', async (args: string[]) => {
    const [launched, bundled] = await Promise.all([viaLauncher(args), viaBundle(args)]);
    expect(launched.stdout).toBe(bundled.stdout);
    expect(launched.stderr).toBe(bundled.stderr);
    expect(launched.exitCode).toBe(bundled.exitCode);
  });

  it('keeps an API key that appears in a help text out of it, as the bundle does', async () => {
    const env = { ...ENV, AHS_API_KEY: 'deploy' };
    const [launched, bundled] = await Promise.all([viaLauncher(['--help'], env), viaBundle(['--help'], env)]);
    expect(launched.stdout).toContain('***');
    expect(launched.stdout).not.toContain('deploy');
    expect(launched.stdout).toBe(bundled.stdout);
  });

  it('compiles the bundle and each library of dist/vendor with the code cache built for this Node', async () => {
    // A refused cache costs a whole compile: 8 ms of every command that checks with zod (issue 14).
    const script = `
      const { readdirSync } = require('node:fs');
      const bundle = require(${JSON.stringify(BIN)}).loadBundle();
      for (const name of readdirSync(${JSON.stringify(join(ROOT, 'dist', 'vendor'))})) if (name.endsWith('.js')) bundle.load('./vendor/' + name);
      console.log(JSON.stringify(bundle.cacheReport()));
    `;
    const run = await execa(process.execPath, ['-e', script], { env: { XDG_CACHE_HOME: join(ROOT, 'dist', 'no-such-folder') } });
    const report = (JSON.parse(run.stdout) as Array<{ file: string; accepted: boolean }>).map(({ file, accepted }) => [file.slice(ROOT.length + 1), accepted]);
    expect(report).toContainEqual(['dist/main.js', true]);
    expect(report.filter(([file]) => String(file).startsWith('dist/vendor/')).length).toBeGreaterThanOrEqual(5);
    expect(report.filter(([, accepted]) => !accepted)).toEqual([]);
  });

  it('keeps a cache of its own where the built one is refused: one per script, in an absolute XDG_CACHE_HOME only, never hanging on one it cannot use', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ahs-cache-'));
    try {
      // V8 refuses a cache made under other flags: the built one, here.
      const env = { ...ENV, NODE_OPTIONS: '--max-old-space-size=200', XDG_CACHE_HOME: home, HOME: home };
      const folder = join(home, 'ahs');
      await mkdir(folder);
      const stale = join(folder, `1-2-main-${process.version}-${process.arch}.v8cache`);
      await writeFile(stale, 'an earlier build');
      const first = await viaLauncher(['completion', 'bash'], env);
      expect(first.exitCode).toBe(0);
      const kept = await readdir(folder);
      expect(kept.some((name) => name.endsWith(`-main-${process.version}-${process.arch}.v8cache`))).toBe(true);
      expect(kept).not.toContain(basename(stale));
      expect(kept.filter((name) => !name.endsWith('.v8cache'))).toEqual([]);
      const second = await viaLauncher(['completion', 'bash'], env);
      expect(second.stdout).toBe(first.stdout);
      expect(await readdir(folder)).toEqual(kept);
      // Relative: ignored (the XDG spec); under /proc (a recursive mkdir there never returned): no cache, no hang.
      for (const xdg of ['relative-cache', '/proc/ahs-no-such']) {
        const run = await execa(process.execPath, [BIN, 'completion', 'bash'], { reject: false, cwd: home, env: { ...env, XDG_CACHE_HOME: xdg }, timeout: 20_000 });
        expect(run.exitCode).toBe(0);
      }
      expect(existsSync(join(home, 'relative-cache'))).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('the read of the bench (asset list) loads undici of the libraries of dist/vendor, and nothing else (zod, conf, yaml: not evaluated)', async () => {
    // Each library costs its compile and evaluation at every start: zod alone was ~9% of
    // `ahs asset list` once the list's view asked change control's rules whether an asset is a sentinel.
    // (Reads that check what they read with a schema, version list or asset status, load zod: by design.)
    const h = await harness();
    try {
      await h.createAsset('a-read');
      const script = `
        const bundle = require(${JSON.stringify(BIN)}).loadBundle();
        bundle.main(process.argv.slice(1)).then((code) => {
          process.exitCode = code;
          console.error(JSON.stringify(bundle.cacheReport().map(({ file }) => file)));
        });
      `;
      for (const read of [['asset', 'list', '--json'], ['asset', 'list']]) {
        const run = await execa(process.execPath, ['-e', script, '--', ...read], { reject: false, env: { ...h.env, XDG_CACHE_HOME: join(ROOT, 'dist', 'no-such-folder') }, extendEnv: false });
        expect(run.exitCode, `${read.join(' ')}: ${run.stderr}`).toBe(0);
        const loaded = (JSON.parse(run.stderr.trim().split('\n').pop()!) as string[]).map((file) => file.slice(ROOT.length + 1));
        expect(loaded, read.join(' ')).toEqual(['dist/main.js', 'dist/vendor/undici.js']);
      }
    } finally {
      await h.close();
    }
  });

  it.skipIf(!existsSync('/dev/full'))('says in one line that it cannot write the output to a full disk, exit 1', async () => {
    for (const args of [['--help'], ['completion', 'bash']]) {
      // A shell redirection: the command's own stdout is the full device, not a pipe to this process.
      const run = await execa('sh', ['-c', '"$0" "$@" > /dev/full', process.execPath, BIN, ...args], { reject: false, env: ENV });
      expect(run.stderr).toBe('error: cannot write the output: ENOSPC: no space left on device, write');
      expect(run.exitCode).toBe(1);
    }
  });
});
