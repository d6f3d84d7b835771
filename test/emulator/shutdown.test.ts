// `ahs emulator start` (the built binary) stops on SIGTERM within 5 s
// (emulator.md) even while clients stall: one mid-headers, one trickling an
// upload. The connections are proven accepted (a first request answered on
// each) before the stall starts, so the stop really has them to deal with.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { assertFreshBuild, BIN } from '../e2e/helpers.js';
import { DEMO_API_KEY, DEMO_USER } from './helpers.js';

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts the built emulator; resolves with its API URL once it prints the ready line. */
async function startBinary(): Promise<{ child: ChildProcess; baseUrl: string; stderr: () => string }> {
  assertFreshBuild();
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--json'], { env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}) before it was ready: ${stderr}`)));
  });
  return { child, baseUrl: (JSON.parse(first) as { baseUrl: string }).baseUrl, stderr: () => stderr };
}

/** A keep-alive connection on which one request has been answered: the server holds it. */
async function acceptedConnection(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
  await new Promise<void>((resolve) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      // The answer is small JSON: it is whole once its closing brace arrives.
      if (!seen.includes('\r\n\r\n') || !seen.trimEnd().endsWith('}')) return;
      socket.off('data', onData);
      resolve();
    };
    socket.on('data', onData);
  });
  return socket;
}

function written(socket: Socket, text: string): Promise<void> {
  return new Promise((resolve) => socket.write(text, () => resolve()));
}

function exitWithin(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the emulator was still running ${ms} ms after SIGTERM`)), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

describe('ahs emulator start under stalled clients', () => {
  it('SIGTERM stops it within 5 s, exit 0, while one client stalls mid-headers and another trickles an upload', async () => {
    const { child, baseUrl, stderr } = await startBinary();
    const asset = await fetch(`${baseUrl}/api/v2/demo/va`, {
      method: 'POST',
      headers: { apikey: DEMO_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ assetId: 'slow', assetName: 'Slow', assetType: '1001', createdBy: DEMO_USER }),
    });
    expect(asset.status).toBe(201);

    const halfHeaders = await acceptedConnection(baseUrl);
    await written(halfHeaders, `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\napike`);

    const upload = await acceptedConnection(baseUrl);
    const boundary = 'stall-boundary';
    await written(
      upload,
      `POST /api/v2/demo/va/slow/versions?targetPlatformId=ios HTTP/1.1\r\nHost: emulator\r\napikey: ${DEMO_API_KEY}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="versionName"\r\n\r\nv1\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="assetFile"; filename="slow.zip"\r\n\r\n`,
    );
    // The upload goes on trickling until the server cuts it.
    const trickle = setInterval(() => upload.write('x'), 50);
    const closedByServer = Promise.all([halfHeaders, upload].map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()))));

    try {
      child.kill('SIGTERM');
      const exit = await exitWithin(child, 5_000);
      expect(exit).toEqual({ code: 0, signal: null });
      await closedByServer;
      expect(stderr()).toContain('emulator stopped');
    } finally {
      clearInterval(trickle);
    }
  }, 20_000);
});
