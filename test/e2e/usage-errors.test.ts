// Usage errors found by the argument parser itself exit 2 and, in json mode,
// leave stderr as exactly one JSON object (cli.md, "Output").
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, assertFreshBuild, runInProcess } from './helpers.js';

/** main() in this process, as a pipe sees it: nothing but NO_COLOR, CI and `env` (issue 34: a process per case cost ~0.1 s of CPU each). */
function ahs(args: string[], env: Record<string, string> = {}) {
  return runInProcess(args, { NO_COLOR: '1', CI: '1', ...env });
}

/** The built binary: what Node itself might print (a warning, a stack) would break the one JSON object on stderr. */
function binary(args: string[]) {
  assertFreshBuild();
  return execa('node', [BIN, ...args], { reject: false, env: { NO_COLOR: '1', CI: '1' }, extendEnv: false, stdin: 'ignore' });
}

describe('usage errors from the parser', () => {
  it.each([
    [['asset', 'list', '--page', '0', '--json'], /^--page must be a whole number, 1 or more \(got 0\)$/],
    [['asset', '--bogus', '--json'], /^unknown option '--bogus'$/],
    [['-o', 'json', 'asset'], /^a subcommand is required/],
    [['deploy', 'app', 'IOS1', '--state', 'PAUSED', '--json'], /^--state must be LIVE or OFFLINE \(got PAUSED\)$/],
  ])('%j: exit 2, one JSON object on stderr, nothing on stdout', async (args, title) => {
    const result = await ahs(args);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const body = JSON.parse(result.stderr);
    expect(body).toMatchObject({ type: 'urn:ahs:usage', status: null });
    expect(body.title).toMatch(title);
    expect(body.detail).toBe(body.title);
  });

  it('from the built binary too: exit 2, stderr exactly one JSON object, nothing on stdout', async () => {
    const result = await binary(['asset', '--bogus', '--json']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ type: 'urn:ahs:usage', status: null, title: "unknown option '--bogus'" });
  });

  it('in table mode: commander\'s message and a hint, exit 2', async () => {
    const result = await ahs(['asset', '--bogus']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--bogus'[\s\S]*--help/);
  });

  it('nothing configured: one message naming --base-url, --domain and how to set them, exit 2', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'ahs-empty-'));
    try {
      const result = await ahs(['asset', 'list'], { AHS_CONFIG_DIR: configDir, PATH: process.env.PATH ?? '' });
      expect(result.exitCode).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --base-url and --domain are required.*AHS_BASE_URL and AHS_DOMAIN.*profile/)]);
    } finally {
      await rm(configDir, { recursive: true, force: true });
    }
  });

  it.each([
    [['asset', 'create', 'app', '--name', 'x', '--type', '1001', '--local-cache-max-age', '0'], '--local-cache-max-age must be an integer from 1 to 525600 (got 0)'],
    [['collection', 'create', 'bad id', '--name', 'x', '--allowed-types', '9999'], 'COLLECTION_ID may contain only letters, digits, _ and - (got "bad id")'],
    [['version', 'upload', 'app', 'a.zip', '--name', 'v'.repeat(65)], '--name must be at most 64 characters (got 65 characters)'],
  ])('a bad flag is refused before anything else is needed: %j', async (args, message) => {
    const configDir = await mkdtemp(join(tmpdir(), 'ahs-empty-'));
    try {
      const result = await ahs(args, { AHS_CONFIG_DIR: configDir, PATH: process.env.PATH ?? '' });
      expect(result.exitCode).toBe(2);
      expect(result.stderr.trim()).toBe(`error: ${message}`);
    } finally {
      await rm(configDir, { recursive: true, force: true });
    }
  });
});

describe('destructive commands outside a terminal without --yes', () => {
  it.each([
    ['collection', 'purge', 'c1'],
    ['collection', 'delete', 'c1'],
    ['collection', 'undeploy', 'c1', '--env', 'dev'],
    ['asset', 'delete', 'a1'],
    ['asset', 'undeploy', 'a1', '--env', 'dev', '--platform', 'ios'],
    ['item', 'remove', 'c1', 'i1'],
    ['version', 'delete', 'a1', 'IOS1'],
  ])('%s %s: exit 2 before any request (nothing listens at the address)', async (...args) => {
    const r = await runInProcess(args, { AHS_BASE_URL: 'http://127.0.0.1:9', AHS_DOMAIN: 'demo', AHS_USER: 'owner@demo.test', AHS_API_KEY: 'k', CI: '1', AHS_CONFIG_DIR: '/nonexistent-ahs-config' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/needs confirmation: pass --yes/);
    expect(r.stderr).not.toMatch(/could not reach|retrying/);
  });
});

describe('bad values are refused before any request', () => {
  it.each([
    [['item', 'list', 'c1', '--until', '2024-02-30'], /--until must be a date/],
    [['asset', 'list', '--page', '99999999999999999999'], /--page must be a whole number, 1 or more/],
    [['promote-default', 'a1', 'IOS1', '--platform', 'ios', '--env', 'dev', '--expect-current', ''], /must not be empty/],
    [['deploy', '', 'IOS1', '--platform', 'ios', '--env', 'dev'], /ASSET_ID must not be empty/],
  ])('%j', async (args, message) => {
    const r = await runInProcess(args, { AHS_BASE_URL: 'http://127.0.0.1:9', AHS_DOMAIN: 'demo', AHS_USER: 'owner@demo.test', AHS_API_KEY: 'k', CI: '1', AHS_CONFIG_DIR: '/nonexistent-ahs-config' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/could not reach|retrying/);
  });
});
