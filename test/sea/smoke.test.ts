// The single executable (dist/ahs-linux-x64, `npm run build:sea`) run as on a
// machine without Node: by name, from a PATH with no `node` on it (this
// machine's node is in /usr/bin, so the PATH is a folder of symlinks to the
// executable and sh alone), with no environment but what the test gives it.
// It starts the emulator, releases a file and fetches a collection against
// it, and ends with the CLI's exit codes. `npm run test:sea` builds it and
// runs this file; CI runs that after `npm test` (vitest.sea.config.ts says why).
// The Node inside is 24 LTS, from the registry (scripts/node-runtime.mjs).
import { execa, type ResultPromise } from 'execa';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_API_KEY, ROOT, assertBuiltFromSources } from '../e2e/helpers.js';

const SEA = join(ROOT, 'dist', `ahs-linux-${process.arch}`);
const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };

let dir: string;
let env: Record<string, string>;
let emulator: ResultPromise | undefined;

beforeAll(async () => {
  assertBuiltFromSources(SEA, 'npm run build:sea', 'npm run test:sea');
  dir = await mkdtemp(join(tmpdir(), 'ahs-sea-'));
  const bin = join(dir, 'bin');
  await mkdir(bin);
  await mkdir(join(dir, 'home'));
  await symlink(SEA, join(bin, 'ahs'));
  await symlink('/bin/sh', join(bin, 'sh'));
  env = { PATH: bin, HOME: join(dir, 'home') };
});

afterAll(async () => {
  emulator?.kill('SIGKILL');
  await emulator?.catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `ahs ARGS` found on the PATH by sh, in the folder of the test, with `env` and nothing else. */
function ahs(args: string[], extra: Record<string, string> = {}) {
  return execa('sh', ['-c', 'exec ahs "$@"', 'ahs', ...args], { env: { ...env, ...extra }, extendEnv: false, cwd: dir, reject: false, stdin: 'ignore' });
}

describe.sequential('dist/ahs-linux-x64 with no node on PATH', () => {
  let settings: Record<string, string>;

  test('the PATH has no node, and ahs answers --version and --help from it', async () => {
    const lookup = await execa('/bin/sh', ['-c', 'command -v node'], { env, extendEnv: false, reject: false });
    expect(lookup.exitCode).not.toBe(0);
    expect(lookup.stdout).toBe('');

    const shown = await ahs(['--version']);
    expect(shown).toMatchObject({ exitCode: 0, stdout: version, stderr: '' });
    // Answered without loading the CLI (src/sea.ts), and as main() would answer a full disk.
    const full = await execa('sh', ['-c', 'exec ahs --version > /dev/full'], { env, extendEnv: false, reject: false });
    expect(full.exitCode).toBe(1);
    expect(full.stderr).toMatch(/^error: cannot write the output: [^\n]+$/);
    const help = await ahs(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ahs /);
    expect(help.stdout).toContain('release');
  });

  test('emulator start --port 0 --json says where it listens, and emulator env gives the settings', async () => {
    emulator = execa('sh', ['-c', 'exec ahs emulator start --port 0 --json', 'ahs'], { env, extendEnv: false, cwd: dir, stdin: 'ignore' });
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: emulator!.stdout! }).once('line', resolve);
      emulator!.catch(reject);
    });
    const { baseUrl } = JSON.parse(first) as { baseUrl: string };
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const shown = await ahs(['emulator', 'env', '--port', new URL(baseUrl).port, '--json']);
    expect(shown.exitCode).toBe(0);
    settings = JSON.parse(shown.stdout) as Record<string, string>;
    expect(settings).toMatchObject({ AHS_BASE_URL: baseUrl, AHS_DOMAIN: 'demo' });
  });

  test('Node 24 LTS runs inside it (issue 36): its requests say node/24 (process.versions.node) in their user-agent', async () => {
    const traced = await ahs(['-v', 'asset', 'list', '--json'], settings);
    expect(traced.exitCode, traced.stderr).toBe(0);
    const agent = /^> user-agent: (.*)$/m.exec(traced.stderr)?.[1];
    expect(agent).toMatch(new RegExp(`^ahs-cli/${version.replace(/\./g, '\\.')} node/24\\.\\d+\\.\\d+$`));
  });

  test('release uploads a file, deploys it LIVE and makes it the Default', async () => {
    await writeFile(join(dir, 'app.zip'), 'the app, version 1\n');
    expect((await ahs(['asset', 'create', 'sea-app', '--name', 'SEA app', '--type', '1001'], settings)).exitCode).toBe(0);

    const release = await ahs(['release', 'sea-app', 'app.zip', '--platform', 'generic', '--env', 'dev', '--name', '1.0.0', '--json'], settings);
    expect(release.exitCode).toBe(0);
    const result = JSON.parse(release.stdout) as { version: { versionId: string }; stages: { stage: string; changed: boolean }[] };
    expect(result.stages).toEqual([
      { stage: 'upload', changed: true },
      { stage: 'deploy', changed: true },
      { stage: 'promote', changed: true },
    ]);

    // The service's own record, read over HTTP: the version is the Default of the channel.
    const answer = await fetch(`${settings.AHS_BASE_URL}/api/v2/demo/va/sea-app/asset-urls?targetPlatform=generic&envId=dev`, { headers: { apikey: DEMO_API_KEY } });
    const urls = (await answer.json()) as { results: { versionId: string; state: string }[] };
    expect(urls.results).toEqual([expect.objectContaining({ versionId: result.version.versionId, state: 'DEFAULT' })]);
  });

  test('fetch downloads a deployed collection into a folder', async () => {
    await writeFile(join(dir, 'notes.txt'), 'release notes\n');
    for (const args of [
      ['collection', 'create', 'sea-files', '--name', 'SEA files', '--allowed-types', '9999'],
      ['item', 'upload', 'sea-files', 'notes.txt', '--type', '9999'],
      ['collection-deploy', 'sea-files', '--env', 'dev'],
    ]) {
      const run = await ahs(args, settings);
      expect(run.exitCode, `ahs ${args.join(' ')}: ${run.stderr}`).toBe(0);
    }

    const fetched = await ahs(['fetch', 'sea-files', '--env', 'dev', '--dir', 'downloads', '--json'], settings);
    expect(fetched.exitCode).toBe(0);
    expect(JSON.parse(fetched.stdout)).toMatchObject({ downloaded: [expect.objectContaining({ name: 'notes.txt', bytes: 14 })], failed: [] });
    expect(await readFile(join(dir, 'downloads', 'notes.txt'), 'utf8')).toBe('release notes\n');
  });

  test('the exit codes of cli.md, with one line on stderr and no key in it', async () => {
    const usage = await ahs(['release', 'sea-app'], settings);
    expect(usage.exitCode).toBe(2);
    const missing = await ahs(['fetch', 'no-such-collection', '--env', 'dev', '--dir', 'nowhere'], settings);
    expect(missing.exitCode).toBe(4);
    const refused = await ahs(['asset', 'get', 'sea-app'], { ...settings, AHS_API_KEY: 'not-the-key' });
    expect(refused.exitCode).toBe(3);
    const unreachable = await ahs(['asset', 'get', 'sea-app', '--base-url', 'http://127.0.0.1:1', '--retries', '0'], settings);
    expect(unreachable.exitCode).toBe(6);
    for (const run of [usage, missing, refused, unreachable]) {
      expect(run.stderr).toMatch(/^error: [^\n]+$/);
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/not-the-key|demo-key/);
    }
  });

  test("the README's install lines of the executable, run as printed (the release URL a local file)", async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### A single executable'));
    const lines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, body]) => body!).find((body) => body.includes('curl'))!.trim().split('\n');
    const url = /https:\/\/\S+\/ahs-linux-x64/.exec(lines[0]!)?.[0];
    expect(url).toBe(`https://git.example.com/tools/ahs-cli/releases/download/v${version}/ahs-linux-x64`);
    const home = join(dir, 'runner-home');
    await mkdir(home);
    // A runner's PATH: ~/.local/bin first (where the lines put it), then the system's tools (curl, chmod).
    const runner = { HOME: home, PATH: `${join(home, '.local', 'bin')}:/usr/local/bin:/usr/bin:/bin` };
    let last = '';
    for (const line of lines) {
      const run = await execa('bash', ['-eo', 'pipefail', '-c', line.replace(url!, `file://${SEA}`)], { env: runner, extendEnv: false, cwd: dir, reject: false, stdin: 'ignore' });
      expect(run.exitCode, `${line}\n${run.stderr}`).toBe(0);
      last = run.stdout;
    }
    expect(lines[lines.length - 1]).toBe('ahs --version');
    expect(last).toBe(version);
  });

  test('SIGTERM stops the emulator cleanly, exit 0', async () => {
    emulator!.kill('SIGTERM');
    const stopped = await emulator!;
    emulator = undefined;
    expect(stopped.exitCode).toBe(0);
  });
});
