// Faults the emulator must survive: clients that disconnect mid-upload,
// leftovers of a crash, data directories that cannot be used.
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirError, startEmulator } from '../../src/emulator/index.js';
import { DEMO_API_KEY, DEMO_USER, withEmulator } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ahs-emu-faults-'));
  dirs.push(dir);
  return dir;
}

/** Sends the headers and half of a multipart upload on a raw socket, then drops the connection. */
function abortedUpload(baseUrl: string, path: string, fields: Record<string, string>): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  const boundary = 'ahs-fault-boundary';
  const head = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="assetFile"; filename="big.zip"\r\nContent-Type: application/zip\r\n\r\n`;
  const half = Buffer.alloc(256 * 1024, 'x');
  const declared = Buffer.byteLength(head) + Buffer.byteLength(fileHead) + half.length * 2 + 64;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\napikey: ${DEMO_API_KEY}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n`,
      );
      socket.write(head);
      socket.write(fileHead);
      socket.write(half, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

describe('an upload client disconnecting mid-body', () => {
  it('20 aborted version and item uploads: the emulator still answers, nothing is stored, no .part file is left', async () => {
    const dir = await dataDir();
    const { emu, client } = await withEmulator({ dataDir: dir });
    await client.createAsset('big');
    await client.createCollection('bag');
    for (let i = 0; i < 10; i++) {
      await abortedUpload(emu.baseUrl, '/api/v2/demo/va/big/versions?targetPlatformId=ios', { versionName: `v${i}`, createdBy: DEMO_USER });
      await abortedUpload(emu.baseUrl, '/api/v2/demo/vc/bag/items', { assetItemName: `i${i}`, assetType: '1001', createdBy: DEMO_USER });
    }
    expect((await client.get('/va/big/versions')).body.totalResults).toBe(0);
    expect((await client.get('/vc/bag/items')).body.totalResults).toBe(0);
    expect((await client.uploadVersion('big', 'ios', 'after')).body.versionId).toBe('IOS1');
    // close() waits for every request's handler, the aborted ones included.
    await emu.close();
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
    expect(await readdir(join(dir, 'blobs'))).toHaveLength(1);
  });

  it('in memory mode too', async () => {
    const { emu, client } = await withEmulator();
    try {
      await client.createAsset('big');
      for (let i = 0; i < 20; i++) {
        await abortedUpload(emu.baseUrl, '/api/v2/demo/va/big/versions?targetPlatformId=ios', { versionName: `v${i}`, createdBy: DEMO_USER });
      }
      expect((await client.get('/va/big/versions')).body.totalResults).toBe(0);
    } finally {
      await emu.close();
    }
  });
});

describe('the data directory', () => {
  it('removes the temporary files of a commit cut short by a crash', async () => {
    const dir = await dataDir();
    const first = await withEmulator({ dataDir: dir });
    await first.client.createAsset('kept');
    await first.emu.close();
    await writeFile(join(dir, 'state.json.4242.tmp'), '{"half');
    const second = await withEmulator({ dataDir: dir });
    try {
      expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      expect((await second.client.get('/va/kept')).status).toBe(200);
    } finally {
      await second.emu.close();
    }
  });

  it('a folder that cannot be created fails at once, naming it', async () => {
    for (const path of ['/proc/self/nope', '/proc/nope/x']) {
      const started = Date.now();
      await expect(startEmulator({ dataDir: path })).rejects.toThrow(DataDirError);
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it('a regular file is refused', async () => {
    const dir = await dataDir();
    const file = join(dir, 'plain');
    await writeFile(file, 'x');
    await expect(startEmulator({ dataDir: file })).rejects.toThrow(/not a directory/);
    await expect(startEmulator({ dataDir: join(file, 'below') })).rejects.toThrow(DataDirError);
  });
});
