// Connecting to the emulator (issue 13): `emulator start` prints an export
// line a person pastes, and `emulator env --port N` prints the same line for
// an emulator on that port without starting one. Both are run as a shell
// would: the printed line is evaluated by bash, then ahs talks to the emulator.
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshBuild, BIN, harness, runInProcess, type Harness } from './helpers.js';

let h: Harness;
let home: string;
beforeAll(async () => {
  assertFreshBuild();
  h = await harness();
  home = await mkdtemp(join(tmpdir(), 'ahs-emu-env-'));
});
afterAll(async () => {
  await h?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

/** A shell with no AHS_* settings and an empty config: only the evaluated line points ahs anywhere. */
function bash(script: string) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, AHS_CONFIG_DIR: join(home, 'config'), CI: '1', NO_COLOR: '1' };
  return execa('bash', ['--norc', '--noprofile', '-c', `set -euo pipefail\nahs() { node ${JSON.stringify(BIN)} "$@"; }\n${script}`], { env, extendEnv: false, reject: false });
}

/** `ahs emulator start --port 0 ARGS` as a process; `printed` resolves with its stdout once `ready` says it is. */
function startEmulator(args: string[], ready: (stdout: string) => boolean) {
  const child = spawn('node', [BIN, 'emulator', 'start', '--port', '0', ...args], { env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
  const printed = new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (ready(text)) resolve(text);
    });
    child.on('exit', (code) => reject(new Error(`emulator exited (${code}) before it was ready:\n${text}`)));
  });
  return { child, printed };
}

/** `ahs ARGS` as main() in this process, with this process's (hermetic) environment: what it prints is the point, not the process (issue 46). */
const ahs = (args: string[]) => runInProcess(args, { ...process.env });

describe('ahs emulator env', () => {
  it('eval "$(ahs emulator env --port N)" points ahs at the emulator on that port', async () => {
    const port = new URL(h.emu.baseUrl).port;
    const r = await bash(`eval "$(ahs emulator env --port ${port})"\nahs asset list --json --query totalResults`);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('0');
    expect(r.exitCode).toBe(0);
  });

  it('prints one export line; --json the same variables', async () => {
    const line = await ahs(['emulator', 'env', '--port', '4010']);
    expect(line.exitCode, line.stderr).toBe(0);
    expect(line.stdout).toBe('export AHS_BASE_URL=http://127.0.0.1:4010 AHS_DELIVERY_URL=http://127.0.0.1:4010 AHS_DOMAIN=demo AHS_API_KEY=demo-key AHS_USER=owner@demo.test');
    const json = await ahs(['emulator', 'env', '--port', '4010', '--host', '0.0.0.0', '--json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      AHS_BASE_URL: 'http://127.0.0.1:4010',
      AHS_DELIVERY_URL: 'http://127.0.0.1:4010',
      AHS_DOMAIN: 'demo',
      AHS_API_KEY: 'demo-key',
      AHS_USER: 'owner@demo.test',
    });
  });

  it('-o yaml prints the same variables as YAML, which a YAML reader parses back whole', async () => {
    const yaml = await ahs(['emulator', 'env', '--port', '4010', '-o', 'yaml']);
    expect(yaml.exitCode, yaml.stderr).toBe(0);
    expect(yaml.stderr).toMatch(/^warning: nothing listens on 127\.0\.0\.1:4010/);
    expect(yaml.stdout).toContain('AHS_BASE_URL: http://127.0.0.1:4010\n');
    expect((await import('yaml')).parse(yaml.stdout)).toEqual({
      AHS_BASE_URL: 'http://127.0.0.1:4010',
      AHS_DELIVERY_URL: 'http://127.0.0.1:4010',
      AHS_DOMAIN: 'demo',
      AHS_API_KEY: 'demo-key',
      AHS_USER: 'owner@demo.test',
    });
  });

  it('without --port it is a usage error: the port of a default start changes every time', async () => {
    const r = await ahs(['emulator', 'env']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --port is required/);
  });
});

describe('ahs emulator start', () => {
  it('prints an export line that, pasted in a shell, reaches it', async () => {
    const { child, printed } = startEmulator([], (text) => text.includes('Ctrl-C'));
    try {
      const banner = await printed;
      const exported = banner.split('\n').find((row) => row.trim().startsWith('export AHS_BASE_URL='));
      expect(exported).toMatch(/^ {2}export AHS_BASE_URL=http:\/\/127\.0\.0\.1:\d+ AHS_DELIVERY_URL=\S+ AHS_DOMAIN=demo AHS_API_KEY=demo-key AHS_USER=owner@demo\.test$/);
      // --port 0: the banner says the port changes and how to keep it.
      expect(banner).toContain('start with a fixed --port N');
      const r = await bash(`${exported!.trim()}\nahs asset list --json --query totalResults`);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('0');
    } finally {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGINT');
        await exited;
      }
    }
  });

  it('-o yaml prints its addresses as a YAML document, and they answer', async () => {
    const started = startEmulator(['-o', 'yaml'], (text) => /deliveryUrl: .*\n/.test(text));
    const { child } = started;
    try {
      const addresses = (await import('yaml')).parse(await started.printed) as { baseUrl: string; deliveryUrl: string };
      expect(Object.keys(addresses)).toEqual(['baseUrl', 'deliveryUrl']);
      expect(addresses.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const r = await bash(`export AHS_BASE_URL=${addresses.baseUrl} AHS_DOMAIN=demo AHS_API_KEY=demo-key\nahs asset list --json --query totalResults`);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('0');
    } finally {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGINT');
        await exited;
      }
    }
  });

  it('a fixture of only a variation block runs the demo domains; one whose delivery port is chosen at start is refused', async () => {
    const variation = await h.file('variation.json', JSON.stringify({ variation: { maxPageSize: 20 } }));
    const plain = await h.ahs(['emulator', 'env', '--port', '4999', '--config', variation]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('AHS_DOMAIN=demo AHS_API_KEY=demo-key');
    const prefixed = await h.file('prefixed.json', JSON.stringify({ variation: { deliveryPrefix: '/cdn' } }));
    const refused = await h.ahs(['emulator', 'env', '--port', '4999', '--config', prefixed]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('copy the export line `ahs emulator start` prints');
  });
});
