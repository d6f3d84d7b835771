// The README's install recipes, run as printed (issue 36): each ```sh block
// of its Install section, line by line under bash, the repository's URL
// replaced by a local repository holding the project with a release tag
// (test/support/local-release.ts; one for the run, shared with the CI
// example's test): the global install from a tag, the
// project's install from a tag, the tarball (`npm pack` in the clone, which
// builds dist/ through `prepack`), and the clone's link. Only `npm ci` is not
// run: the clone's node_modules is the project's own, which `npm ci` made.
// Each global install lands in a prefix of its own (npm_config_prefix, in
// the environment, so the line stays as printed). The tarball is the one the
// library's tests below install. One build (the tarball's), the rest is npm
// and git. The global install from the tag is the CI example's install step
// as well, run once for both (sharedGlobalInstall, in a prefix of the run's). The single executable's lines: test/sea/smoke.test.ts.
import { execa } from 'execa';
import { build } from 'esbuild';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, DEMO_API_KEY } from '../../src/emulator/index.js';
import { NPM_ENV, README_REPO_URL, VERSION as version, sharedGlobalInstall, sharedRelease, type LocalRelease } from '../support/local-release.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

interface Ran {
  line: string;
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** The ```sh blocks of the README's Install section (up to its next ## heading), each as its command lines. */
function installBlocks(): string[][] {
  const start = readme.indexOf('\n## Install\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, body]) => body!.split('\n').filter((line) => line.trim() !== ''));
}

/** The one block that `match` picks out, as printed. */
function block(match: (lines: string[]) => boolean): string[] {
  const found = installBlocks().filter(match);
  expect(found, 'one block of the README Install section').toHaveLength(1);
  return found[0]!;
}

let work: string;
let release: LocalRelease;
const prefixes = { git: '', tarball: '', link: '' };
const runs: Record<string, Ran[]> = {};
let tarball: string;

/** Each line under bash, in order, in `cwd`, stopping at the first that fails; the URL of the README replaced by the local repository's. */
async function runLines(lines: string[], cwd: string, prefix?: string, skip: (line: string) => boolean = () => false): Promise<Ran[]> {
  const ran: Ran[] = [];
  const env = { ...process.env, ...NPM_ENV, ...(prefix ? { npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` } : {}) };
  for (const line of lines) {
    if (skip(line)) continue;
    const run = await execa('bash', ['-eo', 'pipefail', '-c', line.replaceAll(README_REPO_URL, release.url)], { cwd, env, reject: false, stdin: 'ignore' });
    ran.push({ line, exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr });
    if (run.exitCode !== 0) break;
  }
  return ran;
}

const ahsOf = (prefix: string) => join(prefix, 'bin', 'ahs');
const ok = (name: string) => {
  for (const run of runs[name]!) expect(run.exitCode, `${run.line}\n${run.stderr}`).toBe(0);
};
/** What npm says on stderr, less a warning of the machine's own npm configuration (an unknown user config key). */
const npmWarnings = (run: Ran) => run.stderr.split('\n').filter((line) => line.trim() !== '' && !/Unknown (user|global|project|env|builtin) config/.test(line));

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ahs-install-'));
  release = await sharedRelease();
  for (const name of Object.keys(prefixes) as Array<keyof typeof prefixes>) prefixes[name] = join(work, `prefix-${name}`);
  const runner = join(work, 'runner');
  const project = join(work, 'my-project');
  await mkdir(runner);
  await mkdir(project);
  // The two installs from git (git and npm mostly) beside the pack (a build).
  await Promise.all([
    (async () => {
      // Its install line is the CI example's install step too: run once for the run, whichever file comes first (issue 34).
      const [install, ...rest] = block((lines) => lines.some((line) => line.includes('--global "git+')));
      const shared = await sharedGlobalInstall(install!);
      prefixes.git = shared.prefix;
      runs.git = [shared, ...(shared.exitCode === 0 ? await runLines(rest, runner, shared.prefix) : [])];
    })(),
    (async () => (runs.project = await runLines(block((lines) => lines.some((line) => line.includes('--save-dev "git+'))), project)))(),
    (async () => {
      runs.tarball = await runLines(block((lines) => lines.some((line) => line.startsWith('npm pack'))), release.dir, prefixes.tarball);
      tarball = join(release.dir, `ahs-cli-${version}.tgz`);
      // After the pack, which changes package.json for a moment.
      runs.link = await runLines(block((lines) => lines.some((line) => /^npm install --global \. /.test(line))), release.dir, prefixes.link, (line) => line.startsWith('npm ci'));
    })(),
  ]);
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the README install recipes, run as printed', () => {
  it('are every npm install and npm pack line of the README and docs/, the CI example and the GitOps recipe included', () => {
    const ran = new Set(Object.values(runs).flatMap((lines) => lines.map((run) => run.line.replace(/\s+#.*$/, '').trim())));
    const texts = [readme, ...readdirSync(join(root, 'docs')).map((name) => readFileSync(join(root, 'docs', name), 'utf8'))];
    const printed = texts.flatMap((text) => text.split('\n')).map((line) => line.trim().replace(/^- run: /, '').replace(/\s+#.*$/, '')).filter((line) => /^npm (install|i|pack)\b/.test(line));
    expect(printed.length).toBeGreaterThanOrEqual(6);
    for (const line of printed) expect([...ran], line).toContain(line);
  });

  it('a global install from a release tag: one package, no build, no warning; ahs runs from the PATH', async () => {
    ok('git');
    const [install, shown] = runs.git!;
    expect(install!.line).toBe(`npm install --global "git+${README_REPO_URL}#v${version}"`);
    expect(install!.stdout.trim()).toMatch(/^added 1 package in /);
    expect(npmWarnings(install!)).toEqual([]);
    expect(shown).toMatchObject({ line: 'ahs --version', stdout: version });
    const installed = join(prefixes.git, 'lib', 'node_modules', 'ahs-cli');
    await expect(stat(join(installed, 'node_modules'))).rejects.toMatchObject({ code: 'ENOENT' });
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(prepare|prepack|build|(pre|post)?install)$/.test(name))).toEqual([]);
    // The builder's code caches stay out of the tag: the user's first run makes its own.
    const dist = await readdir(join(installed, 'dist'), { recursive: true });
    expect(dist.filter((name) => name.endsWith('.v8cache'))).toEqual([]);
  });

  it('the install into a project from a release tag: npx ahs runs, and the library is there', async () => {
    ok('project');
    const [install, shown] = runs.project!;
    expect(install!.stdout.trim()).toMatch(/^added 1 package in /);
    expect(shown).toMatchObject({ line: 'npx ahs --version', stdout: version });
    const manifest = JSON.parse(await readFile(join(work, 'my-project', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(manifest.devDependencies['ahs-cli']).toBe(`${release.url.replace('file://', 'git+file://')}#v${version}`);
    expect((await stat(join(work, 'my-project', 'node_modules', 'ahs-cli', 'dist', 'lib.mjs'))).isFile()).toBe(true);
  });

  it('npm run release:tag refuses, in one line naming the fix, a tag that exists and a working tree with changes', async () => {
    const again = await execa('npm', ['run', '--silent', 'release:tag'], { cwd: release.dir, reject: false });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toBe(`error: release:tag: the tag v${version} exists already: bump the version in package.json, or delete the tag (git tag -d v${version})`);
    const readmeCopy = join(release.dir, 'README.md');
    const text = await readFile(readmeCopy, 'utf8');
    await writeFile(readmeCopy, `${text}\nchanged\n`);
    try {
      const dirty = await execa('npm', ['run', '--silent', 'release:tag', '--', 'v9.9.9'], { cwd: release.dir, reject: false });
      expect(dirty.exitCode).toBe(1);
      expect(dirty.stderr).toBe('error: release:tag: the working tree has changes: commit them first (the tag is made from HEAD)');
    } finally {
      await writeFile(readmeCopy, text);
    }
  });

  it("the clone's link: the global ahs runs the clone's build", async () => {
    ok('link');
    expect(runs.link!.map((run) => run.line)).toEqual([expect.stringMatching(/^npm install --global \. /)]);
    const shown = await execa(ahsOf(prefixes.link), ['--version']);
    expect(shown.stdout).toBe(version);
  });
});

describe('the tarball: npm pack in the clone, and a global install of it', () => {
  const ahs = () => ahsOf(prefixes.tarball);
  it('packs and installs', () => ok('tarball'));

  it('packs the launcher, the bundle, the man page, the completions, the README and the docs it links, not the sources', async () => {
    const packed = (await execa('tar', ['tzf', tarball])).stdout.split('\n').map((path) => path.replace(/^package\//, ''));
    expect(packed).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'bin/ahs.js', 'dist/main.js', 'man/ahs.1', 'completions/ahs.bash', 'completions/ahs.zsh', 'completions/ahs.fish', 'docs/commands.md', 'docs/library.md']),
    );
    expect(packed.filter((path) => /^(src|test|bench|scripts)\//.test(path))).toEqual([]);
    // A code cache is good for one Node on one CPU: the user's first run makes its own (~/.cache/ahs).
    expect(packed.filter((path) => path.endsWith('.v8cache'))).toEqual([]);
  });

  it('installs saying nothing but its success: the packed package.json has no install script (npm 11 warns of one)', async () => {
    const packedManifest = JSON.parse((await execa('tar', ['xzf', tarball, '-O', 'package/package.json'])).stdout) as { scripts?: Record<string, string> };
    const install = runs.tarball!.find((run) => run.line.startsWith('npm install'))!;
    expect(Object.keys(packedManifest.scripts ?? {}).filter((name) => /^(preinstall|install|postinstall|prepare)$/.test(name))).toEqual([]);
    expect(install.stdout.trim()).toMatch(/^added 1 package in /);
    // The machine's own npm configuration may draw a warning of its own (an unknown user config key): not the package's.
    expect(npmWarnings(install)).toEqual([]);
  });

  it('packing leaves the project package.json as it was', async () => {
    expect(await readFile(join(release.dir, 'package.json'), 'utf8')).toBe(await readFile(join(root, 'package.json'), 'utf8'));
  });

  it('runs ahs --version and ahs --help from the prefix', async () => {
    const versionRun = await execa(ahs(), ['--version']);
    expect(versionRun.stdout.trim()).toBe(version);
    const help = await execa(ahs(), ['--help']);
    expect(help.stdout).toMatch(/^Usage: ahs /);
    expect(help.stdout).toContain('completion');
  });

  it('links the man page into the prefix', async () => {
    const page = join(prefixes.tarball, 'share', 'man', 'man1', 'ahs.1');
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
    const installed = join(prefixes.tarball, 'lib', 'node_modules', 'ahs-cli');
    expect((await stat(installed)).isDirectory()).toBe(true);
    await expect(stat(join(installed, 'node_modules'))).rejects.toMatchObject({ code: 'ENOENT' });
    const config = join(work, 'config');
    const env = { AHS_CONFIG_DIR: config, CI: '1' };
    await execa(ahs(), ['profile', 'add', 'local', '--base-url', 'http://127.0.0.1:4010', '--domain', 'demo'], { env });
    const listed = await execa(ahs(), ['profile', 'list', '--json', '--query', '[0].name'], { env });
    expect(listed.stdout).toBe('local');
  });
});

describe('the library, in the project that installed the release tag (docs/library.md)', () => {
  /** A script of a release engineer's against the library's per-call options, errors, lists and events. */
  const PER_CALL_SCRIPT = `import { writeFileSync } from 'node:fs';
import { ConflictError, NotFoundError, CancelledError, createClient, type ClientEvent } from 'ahs-cli';
const events: ClientEvent[] = [];
const ahs = createClient({ baseUrl: process.env.AHS_BASE_URL!, domainId: 'demo', apiKey: process.env.AHS_API_KEY!, user: 'owner@demo.test', onEvent: (e) => events.push(e) });
const controller = new AbortController();
const aborted = ahs.assets.get('my-bundle', { signal: controller.signal }).catch((e: unknown) => e);
controller.abort(new Error('called off'));
const other = await ahs.assets.get('my-bundle', { timeoutMs: 10_000 });
const error = await aborted;
if (error instanceof CancelledError) console.log(\`aborted alone: \${error.name}, cause: \${(error.cause as Error).message}\`);
console.log(\`the other call: \${other.assetId}\`);
const missing = await ahs.assets.get('no-such-bundle').catch((e: unknown) => e);
if (missing instanceof NotFoundError && 'status' in missing) console.log(\`not found: true \${missing.name} \${String(missing.status)}\`);
const cas = await ahs.promoteDefault({ assetId: 'my-bundle', platform: 'ios', envId: 'prod', versionId: 'IOS1', expectCurrent: 'IOS9' }).then((p) => p.apply()).catch((e: unknown) => e);
if (cas instanceof ConflictError) console.log(\`conflict: true expected \${String(cas.expected)} actual \${String(cas.actual)}\`);
await (await ahs.assets.create({ assetId: 'second-bundle', name: 'Second bundle', type: '1001' })).apply();
const before = events.length;
let total: number | undefined;
for await (const page of ahs.assets.list({ pageSize: 1 }).pages()) {
  total = page.totalResults;
  break;
}
for await (const asset of ahs.assets.list({ pageSize: 1 })) {
  if (asset.assetId) console.log('first asset read, then break');
  break;
}
const listed = events.slice(before).filter((e) => e.type === 'request' && e.method === 'GET');
console.log(\`pages read for two lists broken out of, of \${String(total)} assets one a page: \${listed.length}\`);
writeFileSync('bundle-2.bin', Buffer.alloc(300_000, 7));
const uploaded = await (await ahs.versions.upload({ assetId: 'second-bundle', file: 'bundle-2.bin', platform: 'ios', name: '2.0.0' })).apply();
const bytes = events.filter((e): e is Extract<ClientEvent, { type: 'bytes' }> => e.type === 'bytes');
const last = bytes.at(-1);
console.log(\`upload \${uploaded.versionId}: bytes events rising to \${String(last?.done)} of \${String(last?.total)}, in order: \${String(bytes.every((e, i) => i === 0 || e.done >= bytes[i - 1]!.done))}\`);
console.log(\`events: request \${events.filter((e) => e.type === 'request').length}, answer \${events.filter((e) => e.type === 'answer').length}\`);
await ahs.close();
`;

  /** The example of docs/library.md, as a user would paste it. */
  const example = (): string => {
    const code = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(root, 'docs', 'library.md'), 'utf8'))?.[1];
    if (!code) throw new Error('docs/library.md has no ts example');
    return code;
  };

  it('type-checks the example with tsc, and runs it against the emulator', async () => {
    const project = join(work, 'my-project');
    // The example is an ES module.
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(project, 'package.json'), JSON.stringify({ ...manifest, type: 'module' }));
    await writeFile(join(project, 'example.ts'), example());
    await writeFile(join(project, 'per-call.ts'), PER_CALL_SCRIPT);
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        // skipLibCheck: checking @types/node took 6 of the 8 s; the build refuses declarations that name anything but themselves.
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, exactOptionalPropertyTypes: true, skipLibCheck: true, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')], outDir: 'out' },
        files: ['example.ts', 'per-call.ts'],
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
      // A script of a release engineer's: one call aborted while another completes, errors by meaning, a list
      // broken out of, typed events (issue 35), compiled strict with exactOptionalPropertyTypes from the tarball.
      const perCall = await execa(process.execPath, ['out/per-call.js'], { cwd: project, reject: false, env: { AHS_BASE_URL: emu.baseUrl, AHS_API_KEY: DEMO_API_KEY } });
      expect(perCall.exitCode, perCall.stderr).toBe(0);
      expect(perCall.stdout.split('\n')).toEqual([
        'aborted alone: CancelledError, cause: called off',
        'the other call: my-bundle',
        'not found: true ApiError 404',
        'conflict: true expected IOS9 actual IOS1',
        'first asset read, then break',
        'pages read for two lists broken out of, of 2 assets one a page: 2',
        'upload IOS1: bytes events rising to 300000 of 300000, in order: true',
        expect.stringMatching(/^events: request \d+, answer \d+$/),
      ]);
      // From CommonJS, and bundled by esbuild into one file that runs with no node_modules beside it.
      await writeFile(
        join(project, 'list.cjs'),
        `const { createClient, ConflictError } = require('ahs-cli');
(async () => {
  const ahs = createClient({ baseUrl: process.env.AHS_BASE_URL, domainId: 'demo', apiKey: process.env.AHS_API_KEY });
  const ids = (await ahs.assets.list().toArray()).map((a) => a.assetId);
  await ahs.close();
  console.log(\`required: \${typeof ConflictError} \${ids.join(' ')}\`);
})();`,
      );
      const required = await execa(process.execPath, ['--no-warnings', 'list.cjs'], { cwd: project, reject: false, env: { AHS_BASE_URL: emu.baseUrl, AHS_API_KEY: DEMO_API_KEY } });
      expect(required.exitCode, required.stderr).toBe(0);
      expect(required.stdout).toBe('required: function my-bundle second-bundle');
      const bundled = join(work, 'bundled', 'per-call.mjs');
      await build({ entryPoints: [join(project, 'out', 'per-call.js')], bundle: true, platform: 'node', format: 'esm', outfile: bundled, logLevel: 'silent', absWorkingDir: project });
      const fresh = await startEmulator({ port: 0 });
      try {
        const seeded = await execa(process.execPath, ['out/example.js'], { cwd: project, reject: false, env: { AHS_BASE_URL: fresh.baseUrl, AHS_API_KEY: DEMO_API_KEY } });
        expect(seeded.exitCode, seeded.stderr).toBe(0);
        const run = await execa(process.execPath, [bundled], { cwd: join(work, 'bundled'), reject: false, env: { AHS_BASE_URL: fresh.baseUrl, AHS_API_KEY: DEMO_API_KEY } });
        expect(run.exitCode, run.stderr).toBe(0);
        expect(run.stdout).toContain('pages read for two lists broken out of, of 2 assets one a page: 2');
      } finally {
        await fresh.close();
      }
    } finally {
      await emu.close();
    }
  });

  it("exports the library only: the CLI's internals stay private, and the library loads no command-line parser", async () => {
    const project = join(work, 'my-project');
    const internal = await execa(process.execPath, ['--input-type=module', '-e', "await import('ahs-cli/dist/main.js')"], { cwd: project, reject: false });
    expect(internal.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const installed = join(project, 'node_modules', 'ahs-cli');
    const library = await readFile(join(installed, 'dist', 'lib.mjs'), 'utf8');
    expect(library).not.toContain('CommanderError');
    const types = await readFile(join(installed, 'dist', 'types', 'library', 'client.d.ts'), 'utf8');
    expect(types).toContain('export interface Client');
  });
});
