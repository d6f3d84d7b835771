// e2e harness: ahs against an in-process emulator on port 0, with its own
// AHS_CONFIG_DIR in a temp folder. Runs call main() in this process over
// buffers (fast: no Node start-up per run); `binary: true`, runInPty and the
// BIN tests drive the BUILT binary (`npm run build` first, checked fresh). Seeding and state checks talk to the emulator
// directly over HTTP.
import { execa, type Options as ExecaOptions } from 'execa';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import { bufferIO } from '../unit/helpers.js';
import { formBody } from '../support/form-body.js';
import { main } from '../../src/main.js';
import { isCI } from '../../src/io/streams.js';
import { startEmulator, DEMO_API_KEY, DEMO_USER, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export { DEMO_API_KEY, DEMO_USER };
export const ROOT = join(import.meta.dirname, '..', '..');
/** The built launcher; AHS_E2E_BIN points elsewhere (a private build) when set. */
export const BIN = process.env.AHS_E2E_BIN ?? join(ROOT, 'bin', 'ahs.js');
export const ERROR_TYPE = 'https://errors.asset-hosting.example/problem';

/**
 * The tests that drive the built binary must not run an old build: dist/
 * must be newer than every source file (npm test builds first). Called by
 * every path that runs BIN.
 */
export function assertFreshBuild(): void {
  if (process.env.AHS_E2E_BIN) return;
  assertBuiltFromSources(join(ROOT, 'dist', 'main.js'), 'npm run build', 'npm test');
}

/** `built` exists and is newer than every file of src/; otherwise an error naming the command that makes it. */
export function assertBuiltFromSources(built: string, buildCommand: string, runner: string): void {
  const name = built.slice(ROOT.length + 1);
  if (!existsSync(built)) throw new Error(`${name} is missing: run \`${buildCommand}\` before these tests (${runner} does)`);
  const stale = newestSource(join(ROOT, 'src'));
  if (stale.mtime > statSync(built).mtimeMs) throw new Error(`${name} is older than ${stale.path}: run \`${buildCommand}\` (${runner} does)`);
}

function newestSource(dir: string): { path: string; mtime: number } {
  let newest = { path: dir, mtime: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const candidate = entry.isDirectory() ? newestSource(path) : { path, mtime: statSync(path).mtimeMs };
    if (candidate.mtime > newest.mtime) newest = candidate;
  }
  return newest;
}

export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
  json<T = any>(): T;
  errJson<T = any>(): T;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** Leave AHS_* settings out of the environment (profile tests). */
  bare?: boolean;
  timeout?: number;
  /**
   * Run the built binary in a child process instead of main() in-process:
   * for what only a real process shows (signals, start-up, the launcher).
   */
  binary?: boolean;
}

export interface Harness {
  emu: RunningEmulator;
  configDir: string;
  dir: string;
  /** The environment every run gets (settings of the demo fixture, no colour, CI). */
  env: Record<string, string>;
  ahs(args: string[], options?: RunOptions): Promise<Run>;
  call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  createAsset(assetId: string, assetType?: string): Promise<void>;
  uploadVersion(assetId: string, platform: string, name?: string): Promise<string>;
  deploy(assetId: string, versionId: string, platform: string, envId: string, intent: string, extra?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** Every record of an asset (OFFLINE included) as "platform/env/versionId=STATE", sorted. */
  records(assetId: string): Promise<string[]>;
  file(name: string, content: string | Buffer): Promise<string>;
  close(): Promise<void>;
}

export async function harness(options: EmulatorOptions = {}): Promise<Harness> {
  const emu = await startEmulator({ port: 0, ...options });
  const dir = await mkdtemp(join(tmpdir(), 'ahs-e2e-'));
  const configDir = join(dir, 'config');
  const env: Record<string, string> = {
    AHS_CONFIG_DIR: configDir,
    AHS_BASE_URL: emu.baseUrl,
    AHS_DELIVERY_URL: emu.deliveryUrl,
    AHS_DOMAIN: 'demo',
    AHS_USER: DEMO_USER,
    AHS_API_KEY: DEMO_API_KEY,
    NO_COLOR: '1',
    CI: '1',
  };
  // Seeding and state checks: undici's request on a pool of the harness's own, a third of the CPU of a
  // fetch() each (~0.6 ms against ~1.7 ms a request on this machine: web streams); a form as its multipart bytes.
  const pool = new Agent();
  const call = async <T = any>(method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { apikey: DEMO_API_KEY };
    let payload: string | Buffer | undefined;
    const url = `${emu.baseUrl}/api/v2/demo${path}`;
    if (body instanceof FormData) {
      const form = await formBody(body);
      headers['content-type'] = form.contentType;
      payload = form.body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const send = async (): Promise<{ status: number; text: string }> => {
      const response = await undiciRequest(url, { method: method as Dispatcher.HttpMethod, headers, dispatcher: pool, ...(payload !== undefined ? { body: payload } : {}) });
      return { status: response.statusCode, text: await response.body.text() };
    };
    // A kept-alive connection the emulator closed idle (its keep-alive timeout, reached late on a loaded machine)
    // resets the set-up's next request before the server read it (ECONNRESET on read): sent again, once, on a new one.
    // undici says "other side closed" (UND_ERR_SOCKET) of a close it saw first: sent again only when reading.
    const codes = method === 'GET' ? ['ECONNRESET', 'UND_ERR_SOCKET'] : ['ECONNRESET'];
    const isReset = (error: unknown) => [(error as { code?: string }).code, (error as { cause?: { code?: string } }).cause?.code].some((code) => code !== undefined && codes.includes(code));
    const response = await send().catch((error: unknown) => {
      if (!isReset(error)) throw error;
      return send();
    });
    const text = response.text;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* text */
    }
    return { status: response.status, body: parsed as T };
  };
  const h: Harness = {
    emu,
    dir,
    configDir,
    env,
    async ahs(args, runOptions = {}) {
      const base = runOptions.bare
        ? { AHS_CONFIG_DIR: configDir, NO_COLOR: '1', CI: '1' }
        : env;
      const childEnv: Record<string, string | undefined> = { ...cleanEnv(), ...base, ...runOptions.env };
      if (!runOptions.binary) return runInProcess(args, childEnv, runOptions.input);
      assertFreshBuild();
      const execaOptions: ExecaOptions = {
        reject: false,
        env: childEnv,
        extendEnv: false,
        timeout: runOptions.timeout ?? 50_000,
        ...(runOptions.input !== undefined ? { input: runOptions.input } : { stdin: 'ignore' }),
      };
      const result = await execa('node', [BIN, ...args], execaOptions);
      const stdout = String(result.stdout ?? '');
      const stderr = String(result.stderr ?? '');
      return {
        exitCode: result.exitCode ?? -1,
        stdout,
        stderr,
        json: () => JSON.parse(stdout),
        errJson: () => JSON.parse(stderr.trim().split('\n').filter(Boolean).pop() ?? ''),
      };
    },
    call,
    async createAsset(assetId, assetType = '1001') {
      const r = await call('POST', '/va', { assetId, assetName: assetId, assetType, createdBy: DEMO_USER });
      if (r.status !== 201) throw new Error(`seed asset ${assetId}: ${r.status} ${JSON.stringify(r.body)}`);
    },
    async uploadVersion(assetId, platform, name = 'v') {
      const form = new FormData();
      form.set('versionName', name);
      form.set('createdBy', DEMO_USER);
      form.set('assetFile', new Blob(['payload']), 'bundle.zip');
      const r = await call('POST', `/va/${assetId}/versions?targetPlatformId=${platform}`, form);
      if (r.status !== 201) throw new Error(`seed version: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.versionId as string;
    },
    async deploy(assetId, versionId, platform, envId, intent, extra = {}) {
      return call('POST', `/va/${assetId}/versions/${versionId}/deploy?targetPlatformId=${platform}`, {
        envId,
        intent,
        createdBy: DEMO_USER,
        updatedBy: DEMO_USER,
        ...extra,
      });
    },
    async records(assetId) {
      const out: string[] = [];
      for (const state of ['LIVE', 'OFFLINE', 'DEFAULT']) {
        // Page by the envelope: a service may cap the page size (the maxPageSize variation).
        for (let page = 1; ; page++) {
          const r = await call('GET', `/va/${assetId}/asset-urls?state=${state}&pageSize=500&pageNumber=${page}`);
          if (r.status !== 200) throw new Error(`records: ${r.status}`);
          for (const e of r.body.results) if (e.state === state) out.push(`${e.targetPlatform}/${e.envId}/${e.versionId}=${e.state}`);
          if (r.body.results.length === 0 || page * r.body.pageSize >= r.body.totalResults) break;
        }
      }
      return out.sort();
    },
    async file(name, content) {
      const path = join(dir, name);
      await writeFile(path, content);
      return path;
    },
    async close() {
      await pool.close();
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return h;
}

/**
 * main() in this process over buffers, as a pipe would see it (no terminal):
 * the same code as the binary without a Node start-up per run.
 */
export async function runInProcess(args: string[], env: Record<string, string | undefined>, input?: string): Promise<Run> {
  const io = bufferIO({ in: Readable.from(input === undefined ? [] : [input]), ci: isCI(env), env: env as NodeJS.ProcessEnv });
  const { out, err } = io;
  const exitCode = await main(args, { io });
  // As execa gives a child's output: without its final newline.
  const stdout = out.text.replace(/\n$/, '');
  const stderr = err.text.replace(/\n$/, '');
  return {
    exitCode,
    stdout,
    stderr,
    json: () => JSON.parse(stdout),
    errJson: () => JSON.parse(stderr.trim().split('\n').filter(Boolean).pop() ?? ''),
  };
}

/** The parent's environment without anything that would change the CLI's behaviour. */
function cleanEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(AHS_|CI$|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|NO_PROXY$|https?_proxy$|no_proxy$)/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

let counter = 0;
/** A unique id per test (deterministic within a run). */
export function uid(prefix = 'a'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/**
 * A programmable HTTP server in front of a target (or alone): `handle` may
 * answer a request itself (return true) or let it through to the target.
 */
export async function stubServer(
  handle: (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | Promise<boolean>,
  target?: string,
): Promise<{ url: string; requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>; close(): Promise<void> }> {
  const requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
    if (await handle(req, res, body)) return;
    if (!target) {
      res.writeHead(500).end('no target');
      return;
    }
    const upstream = new URL(req.url ?? '/', target);
    const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    forward.end(body);
  });
  // As a forward proxy: undici tunnels through CONNECT, even to http targets.
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    requests.push({ method: 'CONNECT', url: req.url ?? '', headers: req.headers, body: '' });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- pseudo-terminal runs ------------------------------------------------------

/** util-linux `script` gives the built binary a pty (no extra installs on Linux CI). */
export const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

/** A prompt to wait for (in output not yet consumed), and the keys that answer it. */
export type PtyStep = [RegExp, string];

/**
 * Runs the binary in a pty; each step waits for its pattern and only then
 * types its keys, so nothing depends on timing. CI is removed from the
 * environment (it would turn prompting off); `unset` removes more.
 */
export function runInPty(
  env: Record<string, string>,
  args: string[],
  steps: PtyStep[],
  options: {
    cwd?: string;
    unset?: string[];
    /** Every time output arrives: the whole screen so far (to act when something is shown). */
    onScreen?: (screen: string) => void;
    /** The terminal's width (stty): a pty of `script` without a parent terminal has no size at all. */
    columns?: number;
  } = {},
): Promise<{ code: number | null; screen: string }> {
  assertFreshBuild();
  const ptyEnv: Record<string, string> = { ...(process.env as Record<string, string>), ...env, TERM: 'xterm', COLUMNS: String(options.columns ?? 160), LINES: '50' };
  for (const name of ['CI', ...(options.unset ?? [])]) delete ptyEnv[name];
  const command = ['node', BIN, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  const sized = options.columns ? `stty cols ${options.columns} rows 30 2>/dev/null; ${command}` : command;
  const child = spawn('script', ['-qfec', sized, '/dev/null'], { cwd: options.cwd, env: ptyEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let seen = 0;
  let step = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pty run stuck at step ${step}; screen:\n${screen.slice(-2000)}`));
    }, 50_000);
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      options.onScreen?.(screen);
      while (step < steps.length) {
        const [pattern, keys] = steps[step]!;
        const match = pattern.exec(screen.slice(seen));
        if (!match) break;
        seen += match.index + match[0].length;
        step++;
        child.stdin.write(keys);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

/** A collection holding `files` (name → content), synced by `ahs item sync` and LIVE in dev; the folder it was synced from. */
export async function syncedLiveCollection(h: Harness, files: Record<string, string>, prefix = 'lc'): Promise<{ id: string; dir: string }> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const id = uid(prefix);
  const created = await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: DEMO_USER });
  if (created.status !== 201) throw new Error(`creating ${id}: ${created.status}`);
  const dir = join(h.dir, id);
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  const synced = await h.ahs(['item', 'sync', id, dir, '--type', '1001']);
  if (synced.exitCode !== 0) throw new Error(`item sync ${id}: ${synced.stderr}`);
  const deployed = await h.ahs(['collection-deploy', id, '--env', 'dev']);
  if (deployed.exitCode !== 0) throw new Error(`collection-deploy ${id}: ${deployed.stderr}`);
  return { id, dir };
}
