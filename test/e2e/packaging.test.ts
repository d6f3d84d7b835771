// Packaging: `npm pack` (which builds dist/ through `prepack`) gives a tarball
// that installs globally into a temporary prefix, saying nothing but its
// success (no install script for npm 11 to warn about), and the installed `ahs` runs:
// --version, --help, `emulator start --port 0 --json`, and the man page is linked.
// The pack runs in a copy of the project so the shared dist/ is never rebuilt
// under other tests. Slow (npm install): generous timeout.
import { execa } from 'execa';
import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, DEMO_API_KEY } from '../../src/emulator/index.js';

const root = join(import.meta.dirname, '..', '..');
const SKIP = new Set(['node_modules', '.git', 'dist', 'test', 'coverage']);
let work: string;
let prefix: string;
let tarball: string;
let packed: string[];
let install: { stdout: string; stderr: string };
let packedManifest: { scripts?: Record<string, string> };
const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };

const ahs = () => join(prefix, 'bin', 'ahs');

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ahs-pack-'));
  const copy = join(work, 'project');
  prefix = join(work, 'prefix');
  await cp(root, copy, {
    recursive: true,
    filter: (source) => {
      const rel = relative(root, source);
      return rel === '' || !SKIP.has(rel.split(/[\\/]/)[0] ?? '');
    },
  });
  await symlink(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  const pack = await execa('npm', ['pack', '--json', '--pack-destination', work], { cwd: copy, env });
  const info = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info[0]!.filename);
  packed = info[0]!.files.map((file) => file.path);
  const listing = await execa('tar', ['xzf', tarball, '-O', 'package/package.json']);
  packedManifest = JSON.parse(listing.stdout) as typeof packedManifest;
  install = await execa('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', tarball], { cwd: work, env });
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm pack and a global install', () => {
  it('packs the launcher, the bundle, the man page, the completions and the README, not the sources', () => {
    expect(packed).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'bin/ahs.js', 'dist/main.js', 'man/ahs.1', 'completions/ahs.bash', 'completions/ahs.zsh', 'completions/ahs.fish']),
    );
    expect(packed.filter((path) => /^(src|test|bench|scripts)\//.test(path))).toEqual([]);
  });

  it('installs saying nothing but its success: the packed package.json has no install script (npm 11 warns of one)', async () => {
    expect(Object.keys(packedManifest.scripts ?? {}).filter((name) => /^(preinstall|install|postinstall|prepare)$/.test(name))).toEqual([]);
    expect(install.stdout.trim()).toMatch(/^added 1 package in /);
    // The machine's own npm configuration may draw a warning of its own (an unknown user config key): not the package's.
    const ours = install.stderr.split('\n').filter((line) => line.trim() !== '' && !/Unknown (user|global|project|env|builtin) config/.test(line));
    expect(ours).toEqual([]);
  });

  it('packing leaves the project package.json as it was', async () => {
    expect(await readFile(join(work, 'project', 'package.json'), 'utf8')).toBe(await readFile(join(root, 'package.json'), 'utf8'));
  });

  it('runs ahs --version and ahs --help from the prefix', async () => {
    const versionRun = await execa(ahs(), ['--version']);
    expect(versionRun.stdout.trim()).toBe(version);
    const help = await execa(ahs(), ['--help']);
    expect(help.stdout).toMatch(/^Usage: ahs /);
    expect(help.stdout).toContain('completion');
  });

  it('links the man page into the prefix', async () => {
    const page = join(prefix, 'share', 'man', 'man1', 'ahs.1');
    expect((await stat(page)).isFile()).toBe(true);
    expect(await readFile(page, 'utf8')).toMatch(/^\.TH AHS 1 /m);
  });

  it('starts the emulator from the prefix and stops it cleanly', async () => {
    const child = execa(ahs(), ['emulator', 'start', '--port', '0', '--json'], { reject: false });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout! });
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`emulator exited ${code} before its ready line`)));
      });
      const ready = JSON.parse(line) as { baseUrl: string; deliveryUrl: string };
      expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${ready.baseUrl}/api/v2/demo/va`, { headers: { apikey: 'demo-key' } });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      const result = await child;
      expect(result.exitCode).toBe(0);
    }
  });

  it('installs no dependencies: the bundle carries them (the config store too)', async () => {
    const installed = join(prefix, 'lib', 'node_modules', 'ahs-cli');
    expect((await stat(installed)).isDirectory()).toBe(true);
    await expect(stat(join(installed, 'node_modules'))).rejects.toMatchObject({ code: 'ENOENT' });
    const config = join(work, 'config');
    const env = { AHS_CONFIG_DIR: config, CI: '1' };
    await execa(ahs(), ['profile', 'add', 'local', '--base-url', 'http://127.0.0.1:4010', '--domain', 'demo'], { env });
    const listed = await execa(ahs(), ['profile', 'list', '--json', '--query', '[0].name'], { env });
    expect(listed.stdout).toBe('local');
  });
});

describe('the library from the packed tarball (docs/library.md)', () => {
  /** The example of docs/library.md, as a user would paste it. */
  const example = (): string => {
    const code = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(root, 'docs', 'library.md'), 'utf8'))?.[1];
    if (!code) throw new Error('docs/library.md has no ts example');
    return code;
  };

  it('installs into a project, type-checks the README example with tsc, and runs it against the emulator', async () => {
    const project = join(work, 'library-user');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'library-user', private: true, type: 'module' }));
    await execa('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, env: { ...process.env, npm_config_update_notifier: 'false' } });
    await writeFile(join(project, 'example.ts'), example());
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        // skipLibCheck: checking @types/node took 6 of the 8 s; the build refuses declarations that name anything but themselves.
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')], outDir: 'out' },
        files: ['example.ts'],
      }),
    );
    const tsc = await execa(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project, reject: false });
    expect(tsc.exitCode, tsc.stdout + tsc.stderr).toBe(0);

    const emu = await startEmulator({ port: 0 });
    try {
      const run = await execa(process.execPath, ['out/example.js'], { cwd: project, reject: false, env: { AHS_BASE_URL: emu.baseUrl, AHS_API_KEY: DEMO_API_KEY } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout.split('\n')).toEqual([
        'created my-bundle',
        'version.upload, version.deploy, version.promote',
        expect.stringMatching(/^would answer 20[01]$/),
        'IOS1 is DEFAULT',
        'IOS1 DEFAULT',
        expect.stringMatching(/^conflict \(exit 5\): ios version IOS1 of my-bundle is already named 1\.0\.0/),
      ]);
      // The stage lines a person would see went to onMessage (stderr here); the key to none.
      expect(run.stderr).toContain('promote: IOS1 is the Default of my-bundle/ios/prod');
      expect(run.stdout + run.stderr).not.toContain(DEMO_API_KEY);
      const asset = await fetch(`${emu.baseUrl}/api/v2/demo/va/my-bundle`, { headers: { apikey: DEMO_API_KEY } });
      expect(asset.status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it("exports the library only: the CLI's internals stay private, and the library loads no command-line parser", async () => {
    const project = join(work, 'library-user');
    const internal = await execa(process.execPath, ['--input-type=module', '-e', "await import('ahs-cli/dist/main.js')"], { cwd: project, reject: false });
    expect(internal.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const installed = join(project, 'node_modules', 'ahs-cli');
    const library = await readFile(join(installed, 'dist', 'lib.mjs'), 'utf8');
    expect(library).not.toContain('CommanderError');
    const types = await readFile(join(installed, 'dist', 'types', 'library', 'types.d.ts'), 'utf8');
    expect(types).toContain('export interface Client');
  });
});
