// bin/ahs.js answers --version, and help outside a terminal, from
// dist/answers.json without loading the bundle (issue 14). What it prints
// must be byte for byte what the bundle's main() prints, exit code included.
import { execa } from 'execa';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, assertFreshBuild } from './helpers.js';

const BUNDLE = pathToFileURL(join(ROOT, 'dist', 'main.js')).href;
const ENV = { NO_COLOR: '1', AHS_API_KEY: undefined };

/** The bundle itself, launched without bin/ahs.js, stdout a pipe as for the launcher. */
function viaBundle(args: string[], env: Record<string, string | undefined> = ENV) {
  const script = `const { main } = await import(${JSON.stringify(BUNDLE)}); process.exitCode = await main(process.argv.slice(1));`;
  return execa(process.execPath, ['--input-type=module', '-e', script, '--', ...args], { reject: false, env, stripFinalNewline: false });
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
});
