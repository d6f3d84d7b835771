// The README's CI example works as written (issue 12): its shell steps,
// extracted from the YAML, run under `bash -eo pipefail` (GitHub's bash)
// against the emulator, twice: the release, then a re-run of the job.
// Only what cannot run here is stood in for: the connection settings point
// at the emulator, `npm install --global git+…` and `make bundle` are shims.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO_API_KEY, DEMO_USER, assertFreshBuild, harness, ROOT, type Harness } from '../e2e/helpers.js';

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
beforeAll(async () => {
  assertFreshBuild();
  h = await harness();
  await h.createAsset('my-bundle');
  work = mkdtempSync(join(tmpdir(), 'ahs-ci-'));
  // Stand-ins for what a runner has: ahs on the PATH (the built binary), the install and the build.
  writeFileSync(join(work, 'ahs'), `#!/bin/sh\nexec node '${BIN}' "$@"\n`);
  writeFileSync(join(work, 'npm'), '#!/bin/sh\nexit 0\n');
  writeFileSync(join(work, 'make'), '#!/bin/sh\nmkdir -p build && printf "bundle of %s" "$GITHUB_REF_NAME" > build/app.zip\n');
  for (const name of ['ahs', 'npm', 'make']) chmodSync(join(work, name), 0o755);
});
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs every step of the job in order, as GitHub would; returns each step's outputs. */
async function runJob(): Promise<Record<string, Record<string, string>>> {
  const { env, steps } = ciExample();
  const outputs: Record<string, Record<string, string>> = {};
  for (const step of steps) {
    const outputFile = join(work, 'github-output');
    writeFileSync(outputFile, '');
    const script = step.run
      .replace(/\$\{\{ secrets\.AHS_API_KEY \}\}/g, DEMO_API_KEY)
      .replace(/\$\{\{ steps\.(\w+)\.outputs\.(\w+) \}\}/g, (_, id: string, key: string) => outputs[id]?.[key] ?? '');
    // Asynchronous: the emulator answers from this process.
    await promisify(execFile)('bash', ['-eo', 'pipefail', '-c', script], {
      cwd: work,
      env: {
        PATH: `${work}:${process.env.PATH}`,
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
  it('runs as written: released to staging, promoted to prod; a re-run of the job sends nothing new', async () => {
    const first = await runJob();
    expect(first.release).toEqual({ version_id: 'IOS1' });
    expect(await h.records('my-bundle')).toEqual(['ios/prod/IOS1=DEFAULT', 'ios/staging/IOS1=DEFAULT']);
    const again = await runJob();
    expect(again.release).toEqual({ version_id: 'IOS1' });
    expect((await h.call('GET', '/va/my-bundle/versions')).body.totalResults).toBe(1);
    expect(await h.records('my-bundle')).toEqual(['ios/prod/IOS1=DEFAULT', 'ios/staging/IOS1=DEFAULT']);
  });
});
