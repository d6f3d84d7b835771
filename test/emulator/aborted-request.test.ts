// A client that goes away in the middle of an upload (Ctrl-C) is logged by
// `ahs emulator start` as one line saying so: never as a 200, never with a
// Node stack trace or a "client error" line after it.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { assertFreshBuild, BIN } from '../e2e/helpers.js';
import { DEMO_API_KEY, DEMO_USER } from './helpers.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('a request its client aborts', () => {
  it('is one line on the emulator stderr: "aborted by the client after Nms", no 200, no stack', async () => {
    assertFreshBuild();
    const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--json'], { env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.once('close', resolve));
    const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    const { baseUrl } = JSON.parse(first) as { baseUrl: string };
    const created = await fetch(`${baseUrl}/api/v2/demo/va`, {
      method: 'POST',
      headers: { apikey: DEMO_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ assetId: 'A1', assetName: 'A', assetType: '1001', createdBy: DEMO_USER }),
    });
    expect(created.status).toBe(201);

    // Half of a 2 MB upload, then the socket destroyed.
    const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    const part = `--B\r\nContent-Disposition: form-data; name="versionName"\r\n\r\nv1\r\n--B\r\nContent-Disposition: form-data; name="createdBy"\r\n\r\n${DEMO_USER}\r\n--B\r\nContent-Disposition: form-data; name="assetFile"; filename="a.zip"\r\n\r\n`;
    socket.write(`POST /api/v2/demo/va/A1/versions?targetPlatformId=ios HTTP/1.1\r\nHost: x\r\napikey: ${DEMO_API_KEY}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n${part}`);
    await new Promise((resolve) => socket.write(Buffer.alloc(1024 * 1024, 1), resolve));
    const logged = new Promise<void>((resolve) => child.stderr!.on('data', () => stderr.includes('/versions') && resolve()));
    socket.destroy();
    await logged;
    // Nothing is left to come from that request once the stop is done: every handler ended.
    child.kill('SIGTERM');
    await exited;

    const lines = stderr.split('\n').filter((line) => line.trim() !== '');
    const about = lines.filter((line) => line.includes('/versions') || /client error|aborted|Error|    at /.test(line));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatch(/^POST \/api\/v2\/demo\/va\/A1\/versions\?targetPlatformId=ios aborted by the client after \d+ms$/);
    expect(stderr).not.toMatch(/versions\S* 200 /);
    expect(child.exitCode).toBe(0);
  });
});
