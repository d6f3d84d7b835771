// The CLI (main() over an IO of buffers) against the emulator through the
// fault proxy: what a user sees - exit code and one line - for every fault;
// never "unexpected error"; never the API key; no control character raw.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, DEMO_API_KEY, DEMO_DOMAIN, DEMO_USER, type RunningEmulator } from '../../src/emulator/index.js';
import { ApiClient } from '../../src/http/client.js';
import { main } from '../../src/main.js';
import { bufferIO } from '../unit/helpers.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../support/fault-proxy.js';

let emulator: RunningEmulator;
let proxy: FaultProxy;
let configDir: string;
const ASSETS = 27;
const ROOT = join(import.meta.dirname, '..', '..');

beforeAll(async () => {
  emulator = await startEmulator();
  configDir = await mkdtemp(join(tmpdir(), 'ahs-faults-'));
  const api = new ApiClient({ baseUrl: emulator.baseUrl, domainId: DEMO_DOMAIN, apiKey: DEMO_API_KEY, timeoutMs: 5000, retries: 0, env: {} });
  for (let i = 0; i < ASSETS; i++) {
    await api.post(api.path('va'), { assetId: `A${String(i).padStart(3, '0')}`, assetName: `asset ${i}`, assetType: '1001', createdBy: DEMO_USER });
  }
  await api.post(api.path('va'), { assetId: 'HOSTILE', assetName: 'x\u001b[2Jy\tz\u0007', assetType: '1001', createdBy: DEMO_USER });
  proxy = await startFaultProxy(emulator.baseUrl, { pageSizeCap: 20 });
});
afterAll(async () => {
  await proxy.close();
  await emulator.close();
  await rm(configDir, { recursive: true, force: true });
});
afterEach(() => {
  proxy.reset();
  proxy.log.length = 0;
});

async function ahs(args: string[], env: Record<string, string> = {}) {
  const io = bufferIO({
    env: { AHS_CONFIG_DIR: configDir, AHS_BASE_URL: proxy.url, AHS_DOMAIN: DEMO_DOMAIN, AHS_API_KEY: DEMO_API_KEY, AHS_USER: DEMO_USER, ...env },
  });
  const exitCode = await main([...args, '--retries', '2'], { io });
  return { exitCode, stdout: io.out.text, stderr: io.err.text };
}

describe('paging', () => {
  it('asset list --all reads every page of a service that caps the page size at 20', async () => {
    const run = await ahs(['asset', 'list', '--all', '--json']);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ totalResults: ASSETS + 1 });
    expect(JSON.parse(run.stdout).results).toHaveLength(ASSETS + 1);
  });

  it('asset list --all --page-size 1000 returns everything past the emulator\'s cap of 500', async () => {
    const api = new ApiClient({ baseUrl: emulator.baseUrl, domainId: DEMO_DOMAIN, apiKey: DEMO_API_KEY, timeoutMs: 5000, retries: 0, env: {} });
    const extra = 500 - ASSETS;
    const ids = Array.from({ length: extra }, (_, i) => `B${String(i).padStart(4, '0')}`);
    for (let i = 0; i < ids.length; i += 25) {
      await Promise.all(ids.slice(i, i + 25).map((assetId) => api.post(api.path('va'), { assetId, assetName: assetId, assetType: '1001', createdBy: DEMO_USER })));
    }
    const run = await ahs(['asset', 'list', '--all', '--page-size', '1000', '--json'], { AHS_BASE_URL: emulator.baseUrl });
    expect(run.exitCode).toBe(0);
    const ids2 = (JSON.parse(run.stdout).results as Array<{ assetId: string }>).map((a) => a.assetId);
    expect(ids2).toHaveLength(ASSETS + 1 + extra);
    expect(new Set(ids2).size).toBe(ids2.length);
    // 25 at a time, as they were made: each write opens a connection of its own.
    for (let i = 0; i < ids.length; i += 25) await Promise.all(ids.slice(i, i + 25).map((assetId) => api.delete(api.path('va', assetId), { deletedBy: DEMO_USER })));
  });
});

describe('answers that are not what the spec says: exit 1, one line naming the request', () => {
  const faults: Array<[string, Fault, RegExp]> = [
    ['HTML', { kind: 'answer', contentType: 'text/html', body: '<html><body>Sign in</body></html>' }, /^error: GET \/va\/A001 answered 200 with a text\/html body starting "<html><body>Sign in<\/body><\/html>", not JSON; /],
    ['invalid JSON', { kind: 'answer', contentType: 'application/json', body: '{"assetId":' }, /^error: GET \/va\/A001 answered 200 with a application\/json body starting /],
    ['null', { kind: 'answer', contentType: 'application/json', body: 'null' }, /^error: GET \/va\/A001 answered 200 with JSON null where an object was expected/],
    ['empty', { kind: 'answer', contentType: 'application/json', body: '' }, /^error: GET \/va\/A001 answered 200 with an empty body/],
    ['302', { kind: 'redirect', location: 'https://sso.example/login' }, /^error: GET \/va\/A001 answered 302 with a redirect to https:\/\/sso\.example\/login; /],
  ];
  for (const [name, fault, message] of faults) {
    it(`asset get: ${name}`, async () => {
      proxy.inject(fault);
      const run = await ahs(['asset', 'get', 'A001']);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stdout).toBe('');
    });
  }

  it('asset list: an envelope without pageSize', async () => {
    proxy.inject({ kind: 'answer', contentType: 'application/json', body: '{"results":[]}' });
    const run = await ahs(['asset', 'list']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^error: GET \/va answered 200 with a body not of the shape the spec gives: totalResults: /);
  });
});

describe('broken bodies, stalls, retries', () => {
  it('a read whose body breaks off is retried, and the retry is said', async () => {
    proxy.inject({ kind: 'cut-body' });
    const run = await ahs(['asset', 'get', 'A002', '--json']);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ assetId: 'A002' });
    proxy.inject({ kind: 'cut-body' });
    const text = await ahs(['asset', 'get', 'A002']);
    expect(text.exitCode).toBe(0);
    expect(text.stderr).toBe('retrying GET /va/A002 (attempt 2 of 3) after connection closed unexpectedly\n');
  });

  it('--quiet says nothing about retries', async () => {
    // Retry-After: 0 (honoured) spares the backoff: two retries all the same, and their notices to keep quiet.
    proxy.inject({ kind: 'status', status: 503, headers: { 'retry-after': '0' } }, { times: 2 });
    const run = await ahs(['asset', 'get', 'A002', '--quiet']);
    expect(proxy.log.filter((r) => r.path.endsWith('/va/A002')).map((r) => r.fault ?? 'forwarded')).toEqual(['status', 'status', 'forwarded']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('a stall is exit 6 within --timeout, retries included, in our words', async () => {
    proxy.inject({ kind: 'stall', phase: 'body' }, { times: 3 });
    const run = await ahs(['asset', 'get', 'A003', '--timeout', '0.5']);
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toMatch(/^error: no answer from http:\/\/127\.0\.0\.1:\d+ to GET \/va\/A003 within 0\.5 s \(--timeout, retries included\)/);
    expect(run.stderr).not.toMatch(/Body Timeout|other side closed|unexpected error/);
  });

  it('a write whose answer was lost is settled by a read: applied, exit 0, sent once', async () => {
    proxy.inject({ kind: 'reset-after' }, { method: 'POST', path: '/va' });
    const run = await ahs(['asset', 'create', 'LOST', '--name', 'lost', '--type', '1001']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('unexpected error');
    expect(run.stderr).toContain('a read confirms the write was applied');
    expect(proxy.log.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a seeded storm of faults on reads ends 0, 1 or 6, never "unexpected error"', async () => {
    proxy.chaos({
      seed: 42,
      rate: 0.5,
      faults: [{ kind: 'reset-before' }, { kind: 'cut-body' }, { kind: 'status', status: 503 }, { kind: 'answer', contentType: 'text/html', body: '<html>' }, { kind: 'redirect', location: '/x' }],
    });
    for (const args of [['asset', 'list', '--all'], ['asset', 'get', 'A004'], ['asset', 'list', '--all', '--json'], ['asset', 'get', 'A005', '--json']]) {
      const run = await ahs(args);
      expect([0, 1, 6]).toContain(run.exitCode);
      expect(run.stderr).not.toContain('unexpected error');
    }
  });
});

describe('the API key never printed', () => {
  const echo: Fault = { kind: 'status', status: 403, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'about:blank', title: `Invalid apikey ${DEMO_API_KEY}`, status: 403, detail: `Invalid apikey ${DEMO_API_KEY}` }) };

  it('in an error body, table mode', async () => {
    proxy.inject(echo);
    const run = await ahs(['asset', 'get', 'A001']);
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toBe('error: Invalid apikey *** (HTTP 403)\n');
  });

  it('in an error body, json mode and --verbose', async () => {
    proxy.inject(echo);
    const json = await ahs(['asset', 'get', 'A001', '--json']);
    expect(json.exitCode).toBe(3);
    expect(JSON.parse(json.stderr)).toMatchObject({ title: 'Invalid apikey ***' });
    proxy.inject(echo);
    const verbose = await ahs(['asset', 'get', 'A001', '--verbose']);
    expect(verbose.stderr).toContain('error: Invalid apikey *** (HTTP 403)');
    expect(verbose.stderr).not.toContain(DEMO_API_KEY);
  });

  it('in commander\'s unknown-option line', async () => {
    const run = await ahs(['asset', 'list', '--api-key=s3cr3t-key-value']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("unknown option '--api-key': the API key is never given on the command line");
    expect(run.stderr).not.toContain('s3cr3t-key-value');
    const spaced = await ahs(['asset', 'list', '--apikey', 'an0ther-key']);
    expect(spaced.stderr).not.toContain('an0ther-key');
  });
});

describe('server strings for people', () => {
  it('escapes control characters in tables and records; JSON stays exact', async () => {
    const table = await ahs(['asset', 'get', 'HOSTILE']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain('x\\e[2Jy\\tz\\x07');
    expect(table.stdout).not.toMatch(/[\u0007\u001b]/);
    const list = await ahs(['asset', 'list', '--all']);
    expect(list.stdout.split('\n').find((line) => line.startsWith('HOSTILE'))?.split('\t')).toHaveLength(list.stdout.split('\n')[0]!.split('\t').length);
    const json = await ahs(['asset', 'get', 'HOSTILE', '--json']);
    expect(JSON.parse(json.stdout).assetName).toBe('x\u001b[2Jy\tz\u0007');
  });
});

describe('bad settings are usage errors', () => {
  for (const [env, message] of [
    [{ AHS_BASE_URL: 'notaurl' }, 'error: invalid API base URL "notaurl" (from environment variable AHS_BASE_URL): not a URL'],
    [{ AHS_BASE_URL: 'ftp://x' }, 'error: invalid API base URL "ftp://x" (from environment variable AHS_BASE_URL): only http:// and https:// URLs are accepted'],
    [{ AHS_BASE_URL: 'http://' }, 'error: invalid API base URL "http://" (from environment variable AHS_BASE_URL): not a URL'],
    [{ AHS_BASE_URL: 'http://127.0.0.1:1/api/v2' }, 'drop it: http://127.0.0.1:1'],
  ] as const) {
    it(env.AHS_BASE_URL, async () => {
      const run = await ahs(['asset', 'list'], env);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain(message);
    });
  }

  it('names --base-url when the flag gave it', async () => {
    const run = await ahs(['asset', 'list', '--base-url', 'ftp://x']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('(from --base-url)');
  });
});

describe.skipIf(!existsSync(join(ROOT, 'dist', 'main.js')))('a closed stdout', () => {
  it('ends the command quietly, exit 0 (`ahs emulator start --help | head -1`)', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'ahs.js'), 'emulator', 'start', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader is gone before ahs writes its first byte.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
