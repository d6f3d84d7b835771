// Real intermediaries for the tests of test/proxies (issue 45): nginx and
// squid, the Debian packages .ci/run installs, started by a test file on free
// loopback ports with every file of theirs (config, pid, logs, temp bodies)
// in one temporary folder, stopped by their PID and the folder removed.
//
//   const bins = intermediaryBinaries();           // what is missing, and whether that skips
//   const nginx = await startNginx(dir, (port) => `server { listen 127.0.0.1:${port}; ... }`);
//   const squid = await startSquid(dir);           // Debian's /etc/squid/squid.conf, port/pid/logs moved
//   ... HTTP_PROXY=squid.url ...; await squid.stop();
//
// Missing binaries skip a file with a message naming them on a developer's
// machine; under CI (CI set) the file fails instead: .ci/run installs them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';

export const NGINX = '/usr/sbin/nginx';
export const SQUID = '/usr/sbin/squid';

/** Which binaries are missing, and the message a skipped file gives; under CI a missing one is an error. */
export function intermediaryBinaries(...wanted: Array<'nginx' | 'squid'>): { missing: string[]; skip: boolean; why: string } {
  const paths = { nginx: NGINX, squid: SQUID };
  const missing = wanted.filter((name) => !existsSync(paths[name]));
  const why = `${missing.join(' and ')} not installed (${missing.map((name) => paths[name]).join(', ')}): apt-get install ${missing.join(' ')} to run the real-intermediaries tier`;
  // CI as it was when the run began: hermetic.ts removes it from each file's environment.
  if (missing.length > 0 && (inject('underCI') || process.env.CI)) throw new Error(`under CI the real-intermediaries tier must run: ${why}`);
  return { missing, skip: missing.length > 0, why };
}

/** A free TCP port on `host` (default 127.0.0.1). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Intermediary {
  url: string;
  port: number;
  pid: number;
  /** Stops it by its PID (SIGTERM, then SIGKILL) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Waits until `port` accepts a connection, or the process exits (its stderr in the error). */
async function listening(child: ChildProcess, port: number, name: string, output: () => string, giveUpMs = 20_000): Promise<void> {
  const deadline = Date.now() + giveUpMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited ${child.exitCode ?? child.signalCode} before listening on ${port}: ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true))).on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${name} did not listen on ${port} within ${giveUpMs} ms: ${output()}`);
    await new Promise((resolve) => child.once('exit', resolve).once('spawn', resolve) && setTimeout(resolve, 50));
  }
}

function stopper(child: ChildProcess, graceMs = 5000): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(child.pid!, 'SIGTERM');
    const timer = setTimeout(() => child.exitCode === null && child.signalCode === null && process.kill(child.pid!, 'SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
}

/**
 * nginx in the foreground, one process (master_process off: one PID to
 * stop), its config `http { <servers> }` written to `dir`, every path of it
 * (pid, logs, temp bodies) in `dir`. `servers(port)` gives the server
 * blocks, the first listening on `port`.
 */
export async function startNginx(dir: string, servers: (port: number) => string): Promise<Intermediary> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const temp = (name: string) => `${name}_temp_path ${join(dir, `${name}-temp`)};`;
  const config = [
    'daemon off;',
    'master_process off;',
    // Running as root, nginx would hand its workers to nobody, who cannot write the temp folders here.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 256; }',
    'http {',
    `  access_log ${join(dir, 'access.log')};`,
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    servers(port),
    '}',
  ].join('\n');
  const file = join(dir, 'nginx.conf');
  await writeFile(file, config);
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await listening(child, port, 'nginx', () => stderr);
  return { url: `http://127.0.0.1:${port}`, port, pid: child.pid!, stop: stopper(child) };
}

/**
 * squid with Debian's stock configuration (/etc/squid/squid.conf, its
 * `http_access deny CONNECT !SSL_ports` and all): only its port (a free one
 * on 127.0.0.1), its pid file and its logs moved to `dir`, and its netdb
 * state kept there too (not in /var/spool/squid).
 */
export async function startSquid(dir: string): Promise<Intermediary & { accessLog: string }> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const stock = await readFile('/etc/squid/squid.conf', 'utf8');
  if (!/^http_port 3128$/m.test(stock)) throw new Error('/etc/squid/squid.conf has no "http_port 3128" line to move: not the stock configuration');
  const accessLog = join(dir, 'access.log');
  const config = stock.replace(/^http_port 3128$/m, `http_port 127.0.0.1:${port}`).replace(/^coredump_dir .*$/m, `coredump_dir ${dir}`) +
    ['', `pid_filename ${join(dir, 'squid.pid')}`, `access_log stdio:${accessLog}`, `cache_log ${join(dir, 'cache.log')}`, `netdb_filename stdio:${join(dir, 'netdb.state')}`, ''].join('\n');
  const file = join(dir, 'squid.conf');
  await writeFile(file, config);
  // Started as root, squid runs as its Debian user (proxy), who must write the logs here.
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'proxy'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'proxy'], { encoding: 'utf8' }).stdout.trim());
    if (Number.isInteger(uid) && Number.isInteger(gid)) await chown(dir, uid, gid);
    // And reach them: a test's temporary folder is made 0700.
    await chmod(dirname(dir), 0o755);
  }
  // A service name of its own: squid names its shared memory (/dev/shm/NAME-cf__*.shm) after it, removed at stop.
  const name = `ahs${process.pid}x${port}`;
  const child = spawn(SQUID, ['-N', '-n', name, '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await listening(child, port, 'squid', () => `${stderr}${existsSync(join(dir, 'cache.log')) ? spawnSync('tail', ['-n', '20', join(dir, 'cache.log')], { encoding: 'utf8' }).stdout : ''}`);
  // squid waits out its shutdown_lifetime (30 s) for clients after SIGTERM: what it logged is written by then.
  const stop = stopper(child, 300);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    accessLog,
    async stop() {
      await stop();
      const shm = await readdir('/dev/shm').catch(() => [] as string[]);
      await Promise.all(shm.filter((entry) => entry.startsWith(`${name}-`)).map((entry) => rm(join('/dev/shm', entry), { force: true })));
    },
  };
}
