// Ctrl-C in the middle of an upload: the CLI stops sending, says so on
// stderr and exits 130; the service stores no version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN, assertFreshBuild, harness, type Harness } from './helpers.js';

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
    // Settled by a read, and said, as fetch says its partial files were removed.
    expect(String(result.stderr)).toMatch(/^error: interrupted; nothing was created \(the asset's versions show no ios version named 1\.0\.0 created since the upload started\)$/m);
    expect(String(result.stdout)).toBe('');
    const versions = await h.call('GET', '/va/app/versions');
    expect(versions.body.totalResults).toBe(0);
  });

  it('an upload that reached the service before Ctrl-C: says which version it created and how to remove it', async () => {
    let stored!: () => void;
    const applied = new Promise<void>((resolve) => (stored = resolve));
    // Forwards everything; the upload's answer is held back once the emulator has stored it.
    const holder = createServer((req, res) => {
      const upstream = new URL(req.url ?? '/', h.emu.baseUrl);
      const upload = req.method === 'POST' && req.url?.includes('/versions');
      const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        if (upload) {
          answer.resume();
          answer.on('end', () => stored());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const file = await h.file('held.zip', Buffer.alloc(64 * 1024, 3));
      const child = execa('node', [BIN, 'version', 'upload', 'app', file, '--platform', 'web', '--name', '3.0.0'], {
        reject: false,
        env: { ...h.env, AHS_BASE_URL: `http://127.0.0.1:${(holder.address() as AddressInfo).port}` },
        stdin: 'ignore',
      });
      await applied;
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode).toBe(130);
      expect(String(result.stderr)).toMatch(/^error: interrupted, but the upload had reached the service: the asset's versions show one web version named 3\.0\.0 created since the upload started \(WEB1\); remove it with: ahs version delete app WEB1$/m);
    } finally {
      holder.closeAllConnections();
      await new Promise((resolve) => holder.close(resolve));
    }
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
