// Ctrl-C in the middle of an upload: the CLI stops sending, says so on
// stderr and exits 130; the service stores no version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN, assertFreshBuild, harness, uid, type Harness } from './helpers.js';

assertFreshBuild();

let h: Harness;
let stall: Server;
let stallUrl: string;
let uploadStarted: () => void;
const uploadSeen = new Promise<void>((resolve) => (uploadStarted = resolve));

beforeAll(async () => {
  h = await harness();
  await h.createAsset('app');
  // In front of the emulator: reads pass through, the upload is never read or answered.
  stall = createServer((req, res) => {
    if (req.method === 'POST' && req.url?.includes('/versions')) {
      req.pause();
      uploadStarted();
      return;
    }
    const upstream = new URL(req.url ?? '/', h.emu.baseUrl);
    const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
  stallUrl = `http://127.0.0.1:${(stall.address() as AddressInfo).port}`;
});

afterAll(async () => {
  stall.closeAllConnections();
  await new Promise((resolve) => stall.close(resolve));
  await h.close();
});

describe('Ctrl-C during an upload', () => {
  it('aborts the request, exits 130 and leaves no version behind', async () => {
    const file = await h.file('big.zip', Buffer.alloc(8 * 1024 * 1024, 7));
    const child = execa('node', [BIN, 'version', 'upload', 'app', file, '--platform', 'ios', '--name', '1.0.0'], {
      reject: false,
      env: { ...h.env, AHS_BASE_URL: stallUrl },
      stdin: 'ignore',
    });
    await uploadSeen;
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    // One short read (not waited out within --timeout): no version yet, and the service may still be committing the upload.
    expect(String(result.stderr)).toMatch(/^error: interrupted: the write may have been applied: check with `ahs version list app --all`$/m);
    expect(String(result.stdout)).toBe('');
    const versions = await h.call('GET', '/va/app/versions');
    expect(versions.body.totalResults).toBe(0);
  });

  it('the upload stored, its answer not yet back: one short read finds it, "version IOS1 was created" (json: urn:ahs:interrupted, the outcome in detail), and the emulator has it', async () => {
    const id = uid('int');
    await h.createAsset(id);
    let answered!: () => void;
    const held = new Promise<void>((resolve) => (answered = resolve));
    // Forwards everything; the upload's answer is held (never sent on), so ahs is still waiting for it when Ctrl-C comes.
    const relay = createServer((req, res) => {
      const upstream = new URL(req.url ?? '/', h.emu.baseUrl);
      const upload = req.method === 'POST' && req.url?.includes('/versions');
      const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        if (upload) {
          answer.resume();
          return answered();
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const file = await h.file('kept.zip', Buffer.alloc(4 * 1024 * 1024, 5));
      const child = execa('node', [BIN, 'version', 'upload', id, file, '--platform', 'ios', '--name', '3.0.0', '--json'], {
        reject: false,
        env: { ...h.env, AHS_BASE_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}` },
        stdin: 'ignore',
      });
      await held;
      const started = Date.now();
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode).toBe(130);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(JSON.parse(String(result.stderr).trim().split('\n').at(-1)!)).toEqual({
        type: 'urn:ahs:interrupted',
        title: `interrupted: version IOS1 of ${id} was created`,
        status: null,
        detail: `interrupted: version IOS1 of ${id} was created`,
      });
      expect(String(result.stdout)).toBe('');
    } finally {
      relay.closeAllConnections();
      await new Promise((resolve) => relay.close(resolve));
    }
    const versions = await h.call('GET', `/va/${id}/versions`);
    expect(versions.body.results.map((v: { versionId: string; versionName: string }) => `${v.versionId}:${v.versionName}`)).toEqual(['IOS1:3.0.0']);
  });

  it('passed through to the emulator: the body breaks off there, and the emulator stays up with nothing stored', async () => {
    let halfway!: () => void;
    const midBody = new Promise<void>((resolve) => (halfway = resolve));
    // Forwards everything; the upload only up to 1 MiB, then holds the rest, so the emulator has a body cut in the middle.
    const relay = createServer((req, res) => {
      const upstream = new URL(req.url ?? '/', h.emu.baseUrl);
      const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      if (!(req.method === 'POST' && req.url?.includes('/versions'))) return void req.pipe(forward);
      let sent = 0;
      req.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        forward.write(chunk);
        if (sent >= 1024 * 1024) {
          req.pause();
          halfway();
        }
      });
      req.on('close', () => forward.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const file = await h.file('cut.zip', Buffer.alloc(8 * 1024 * 1024, 9));
      const child = execa('node', [BIN, 'version', 'upload', 'app', file, '--platform', 'android', '--name', '2.0.0'], {
        reject: false,
        env: { ...h.env, AHS_BASE_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}` },
        stdin: 'ignore',
      });
      await midBody;
      child.kill('SIGINT');
      expect((await child).exitCode).toBe(130);
    } finally {
      relay.closeAllConnections();
      await new Promise((resolve) => relay.close(resolve));
    }
    // The emulator still answers, and stored nothing of the cut upload.
    const versions = await h.call('GET', '/va/app/versions');
    expect(versions.status).toBe(200);
    expect(versions.body.results.filter((v: { targetPlatform: string }) => v.targetPlatform === 'android')).toEqual([]);
  });
});
