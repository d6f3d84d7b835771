// The README's CI example works as written (issue 12): its shell steps,
// extracted from the YAML, run under `bash -eo pipefail` (GitHub's bash)
// against the emulator, twice: the release, then a re-run of the job.
// Only what cannot run here is stood in for: the connection settings point
// at the emulator, the git host is a local repository with a release tag
// (test/support/local-release.ts, the one of the run, shared with the
// packaging tests: the install step runs as printed, its URL replaced, once
// for the run: it is the README's global install line, which packaging.test.ts
// runs too, so whichever file comes first installs into the run's prefix and
// the other reads what it printed; issue 34), and `make bundle`, the user's
// own build, is a shim.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_USER, harness, ROOT, type Harness } from '../e2e/helpers.js';
import { NPM_ENV, README_REPO_URL, VERSION, sharedGlobalInstall, sharedRelease, type LocalRelease } from '../support/local-release.js';

interface Step {
  id?: string;
  run: string;
}

/** The job's env and its steps' `run` scripts, from the README's YAML block. */
function ciExample(): { env: Record<string, string>; steps: Step[] } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## CI example (GitHub Actions)'));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!.split('\n');
  const env: Record<string, string> = {};
  const steps: Step[] = [];
  let inEnv = false;
  for (let i = 0; i < yaml.length; i++) {
    const line = yaml[i]!;
    if (/^ {4}env:$/.test(line)) inEnv = true;
    else if (/^ {4}\S/.test(line)) inEnv = false;
    else if (inEnv && /^ {6}(\w+): (.*)$/.test(line)) {
      const [, key, value] = /^ {6}(\w+): (.*)$/.exec(line)!;
      env[key!] = value!;
    }
    if (/^ {6}- /.test(line)) steps.push({ run: '' });
    const step = steps[steps.length - 1];
    if (!step) continue;
    const id = /^ {6}[- ] id: (\S+)/.exec(line);
    if (id) step.id = id[1];
    const run = /^ {6}[- ] run: (.*)$/.exec(line);
    if (!run) continue;
    if (run[1] !== '|') {
      step.run = run[1]!;
      continue;
    }
    const body: string[] = [];
    while (i + 1 < yaml.length && (/^ {10}/.test(yaml[i + 1]!) || yaml[i + 1] === '')) body.push(yaml[++i]!.slice(10));
    step.run = body.join('\n');
  }
  return { env, steps: steps.filter((s) => s.run) };
}

let h: Harness;
let work: string;
let release: LocalRelease;
/** The runner's global npm prefix: nothing but what the job's install step installs (sharedGlobalInstall). */
let prefix: string;
beforeAll(async () => {
  h = await harness();
  await h.createAsset('my-bundle');
  work = mkdtempSync(join(tmpdir(), 'ahs-ci-'));
  release = await sharedRelease();
  // A stand-in for the user's own build.
  mkdirSync(join(work, 'tools'));
  writeFileSync(join(work, 'tools', 'make'), '#!/bin/sh\nmkdir -p build && printf "bundle of %s" "$GITHUB_REF_NAME" > build/app.zip\n');
  chmodSync(join(work, 'tools', 'make'), 0o755);
});
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

/**
 * Runs every step of the job in order, as GitHub would; returns each step's
 * outputs. The install step is run as printed once for the whole run
 * (sharedGlobalInstall: the README's Install section has the same line), and
 * the job's later steps find what it installed on their PATH. `installed`:
 * the runner has ahs already (a re-run on the same runner): the install step
 * is not run again.
 */
async function runJob(installed = false): Promise<Record<string, Record<string, string>>> {
  const { env, steps: all } = ciExample();
  const steps = all.filter((step) => !step.run.startsWith('npm install'));
  if (!installed) {
    const install = await sharedGlobalInstall(all.find((step) => step.run.startsWith('npm install'))!.run);
    if (install.exitCode !== 0) throw new Error(`the install step failed (exit ${install.exitCode}): ${install.line}\n${install.stderr}`);
    prefix = install.prefix;
  }
  const outputs: Record<string, Record<string, string>> = {};
  for (const step of steps) {
    const outputFile = join(work, 'github-output');
    writeFileSync(outputFile, '');
    const script = step.run
      .replaceAll(README_REPO_URL, release.url)
      .replace(/\$\{\{ secrets\.AHS_API_KEY \}\}/g, DEMO_API_KEY)
      .replace(/\$\{\{ steps\.(\w+)\.outputs\.(\w+) \}\}/g, (_, id: string, key: string) => outputs[id]?.[key] ?? '');
    // Asynchronous: the emulator answers from this process.
    await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', script], {
      cwd: work,
      env: {
        ...NPM_ENV,
        // npm's cache stays the machine's (the registry is not needed: the package comes from git).
        npm_config_cache: join(process.env.HOME ?? work, '.npm'),
        npm_config_prefix: prefix,
        PATH: `${join(work, 'tools')}:${join(prefix, 'bin')}:${process.env.PATH}`,
        HOME: work,
        ...env,
        AHS_API_KEY: DEMO_API_KEY,
        // The example's service is a placeholder: the emulator stands in for it.
        AHS_BASE_URL: h.emu.baseUrl,
        AHS_DELIVERY_URL: h.emu.deliveryUrl,
        AHS_DOMAIN: 'demo',
        AHS_USER: DEMO_USER,
        AHS_CONFIG_DIR: join(work, 'config'),
        CI: 'true',
        GITHUB_REF_NAME: 'v1.2.3',
        GITHUB_OUTPUT: outputFile,
      },
    });
    if (step.id) outputs[step.id] = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((line) => line.split('=') as [string, string]));
  }
  return outputs;
}

describe('the README CI example', () => {
  it('runs as written: ahs installed from the release tag, released to staging, promoted to prod; a re-run of the job sends nothing new', async () => {
    const install = ciExample().steps.find((step) => step.run.startsWith('npm install'));
    expect(install?.run).toBe(`npm install --global "git+${README_REPO_URL}#v${VERSION}"`);
    const first = await runJob();
    // The job's ahs is the one it installed: the release tag's, in the runner's prefix.
    expect(realpathSync(join(prefix, 'bin', 'ahs'))).toBe(join(prefix, 'lib', 'node_modules', 'ahs-cli', 'bin', 'ahs.js'));
    expect(first.release).toEqual({ version_id: 'IOS1' });
    expect(await h.records('my-bundle')).toEqual(['ios/prod/IOS1=DEFAULT', 'ios/staging/IOS1=DEFAULT']);
    const again = await runJob(true);
    expect(again.release).toEqual({ version_id: 'IOS1' });
    expect((await h.call('GET', '/va/my-bundle/versions')).body.totalResults).toBe(1);
    expect(await h.records('my-bundle')).toEqual(['ios/prod/IOS1=DEFAULT', 'ios/staging/IOS1=DEFAULT']);
  }, 180_000);
});
