// An upload's body reaches the store two ways (src/emulator/multipart.ts): a
// request declaring at most IN_MEMORY_BODY_BYTES keeps its file in memory and
// the store writes it straight into blobs/; a larger or chunked one streams
// it to a temporary file first. Each way must store, refuse and drop alike:
// the same rows run over both, with --data-dir, and check the answer and the
// files left on disk.
import { afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest, createServer, type IncomingMessage } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { IN_MEMORY_BODY_BYTES, parseMultipart, type MultipartBody } from '../../src/emulator/multipart.js';
import { MemoryStore } from '../../src/emulator/store.js';
import { ACME, ACME_USER, DEMO_API_KEY, DEMO_USER, ERROR_TYPE } from './helpers.js';

const running: RunningEmulator[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const emu of running.splice(0)) await emu.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const BOUNDARY = 'ahs-upload-test';

/** An item upload's multipart body, by hand: `file` as the assetFile part, `closed` false to leave out the closing boundary. */
function itemBody(file: Buffer, user: string, closed = true): Buffer {
  const part = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = `${part('assetItemName', 'data')}${part('assetType', '1001')}${part('createdBy', user)}--${BOUNDARY}\r\nContent-Disposition: form-data; name="assetFile"; filename="data.json"\r\nContent-Type: application/json\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), file, Buffer.from(closed ? `\r\n--${BOUNDARY}--\r\n` : '\r\n')]);
}

interface Sent {
  status: number;
  body: any;
}

/** POSTs `body` with its Content-Length, or chunked; `cutAfter` bytes then drops the connection (resolves undefined). */
function send(url: string, apiKey: string, body: Buffer, { chunked = false, cutAfter }: { chunked?: boolean; cutAfter?: number } = {}): Promise<Sent | undefined> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { apikey: apiKey, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    // Node would declare the length of a body given whole to end(): chunked has to be asked for.
    headers[chunked ? 'transfer-encoding' : 'content-length'] = chunked ? 'chunked' : String(body.length);
    const req = httpRequest(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    if (cutAfter === undefined) {
      req.on('error', reject);
      req.end(body);
      return;
    }
    req.on('error', () => resolve(undefined));
    req.write(body.subarray(0, cutAfter), () => {
      req.destroy();
      resolve(undefined);
    });
  });
}

/** An emulator over a fresh data directory; `acme` for ACME's plan (uploads of at most 1,000 bytes). */
async function emulatorWithData(acme = false) {
  const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-uploads-'));
  dirs.push(dataDir);
  const emu = await startEmulator({ dataDir, ...(acme ? { config: ACME } : {}) });
  running.push(emu);
  const domain = acme ? 'acme' : 'demo';
  const apiKey = acme ? 'acme-all-key' : DEMO_API_KEY;
  const user = acme ? ACME_USER : DEMO_USER;
  const created = await fetch(`${emu.baseUrl}/api/v2/${domain}/vc`, {
    method: 'POST',
    headers: { apikey: apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ collectionId: 'bag', collectionName: 'bag', allowedAssetTypes: ['1001'], createdBy: user }),
  });
  expect(created.status).toBe(201);
  const items = `${emu.baseUrl}/api/v2/${domain}/vc/bag/items`;
  return {
    emu,
    dataDir,
    user,
    upload: (body: Buffer, options?: { chunked?: boolean; cutAfter?: number }) => send(items, apiKey, body, options),
    itemCount: async () => ((await (await fetch(items, { headers: { apikey: apiKey } })).json()) as { totalResults: number }).totalResults,
  };
}

/** The files of the data directory's blobs/ and tmp/, once every handler has finished. */
async function filesLeft(emu: RunningEmulator, dataDir: string): Promise<{ blobs: Buffer[]; tmp: string[] }> {
  await emu.close();
  const blobNames = await readdir(join(dataDir, 'blobs'));
  return { blobs: await Promise.all(blobNames.map((name) => readFile(join(dataDir, 'blobs', name)))), tmp: await readdir(join(dataDir, 'tmp')) };
}

const file = (bytes: number) => Buffer.alloc(bytes, 'data-');

/** The ways a body arrives, each with a file over ACME's plan (1,000 bytes). */
const WAYS = [
  { way: 'a small body with its Content-Length (held in memory)', bytes: 2_000, chunked: false },
  { way: 'a body over IN_MEMORY_BODY_BYTES (streamed)', bytes: IN_MEMORY_BODY_BYTES + 1, chunked: false },
  { way: 'a small chunked body (streamed: no length declared)', bytes: 2_000, chunked: true },
];

describe('an item upload, whichever way its body arrives', () => {
  it.each(WAYS)('$way: stored whole, in blobs/ only', async ({ bytes, chunked }) => {
    const { emu, dataDir, user, upload } = await emulatorWithData();
    const answer = await upload(itemBody(file(bytes), user), { chunked });
    expect(answer?.status, JSON.stringify(answer?.body)).toBe(201);
    expect(answer?.body).toMatchObject({ assetItemName: 'data', fileName: 'data.json', mimetype: 'application/json', size: bytes });
    const left = await filesLeft(emu, dataDir);
    expect(left.blobs).toHaveLength(1);
    expect(left.blobs[0]!.equals(file(bytes))).toBe(true);
    expect(left.tmp).toEqual([]);
  });

  it.each(WAYS)("$way: over the plan's upload limit, 403 and nothing stored", async ({ bytes, chunked }) => {
    const { emu, dataDir, user, upload, itemCount } = await emulatorWithData(true);
    const refused = await upload(itemBody(file(bytes), user), { chunked });
    expect(refused).toEqual({ status: 403, body: { type: ERROR_TYPE, status: 403, title: expect.stringContaining('upload limit of 1000 bytes'), detail: expect.any(String) } });
    expect(await itemCount()).toBe(0);
    expect(await filesLeft(emu, dataDir)).toEqual({ blobs: [], tmp: [] });
  });

  it.each(WAYS)('$way: without its closing boundary, 400 and nothing stored', async ({ bytes, chunked }) => {
    const { emu, dataDir, user, upload, itemCount } = await emulatorWithData();
    const refused = await upload(itemBody(file(bytes), user, false), { chunked });
    expect(refused?.status).toBe(400);
    expect(refused?.body.title).toMatch(/Unexpected end of form/);
    expect(await itemCount()).toBe(0);
    expect(await filesLeft(emu, dataDir)).toEqual({ blobs: [], tmp: [] });
  });

  it.each(WAYS)('$way: the client gone mid-body, nothing stored', async ({ bytes, chunked }) => {
    const { emu, dataDir, user, upload, itemCount } = await emulatorWithData();
    const body = itemBody(file(bytes), user);
    expect(await upload(body, { chunked, cutAfter: body.length - 100 })).toBeUndefined();
    expect(await itemCount()).toBe(0);
    expect(await filesLeft(emu, dataDir)).toEqual({ blobs: [], tmp: [] });
  });
});

describe('parseMultipart', () => {
  /** What parseMultipart made of each request a plain server received. */
  async function parsed(body: Buffer, chunked: boolean): Promise<MultipartBody> {
    const store = await MemoryStore.create();
    const seen: Promise<MultipartBody>[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const result = parseMultipart(req, store);
      seen.push(result);
      void result.finally(() => res.end());
    });
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
        headers[chunked ? 'transfer-encoding' : 'content-length'] = chunked ? 'chunked' : String(body.length);
        const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', headers, agent: false }, (res) => res.resume().on('end', resolve));
        req.on('error', reject);
        req.end(body);
      });
      return await seen[0]!;
    } finally {
      server.close();
      await store.close();
    }
  }

  it.each([
    { way: 'a small body with its Content-Length', bytes: 4096, chunked: false, inMemory: true },
    { way: 'a body of IN_MEMORY_BODY_BYTES in all', bytes: IN_MEMORY_BODY_BYTES - itemBody(Buffer.alloc(0), DEMO_USER).length, chunked: false, inMemory: true },
    { way: 'one byte more', bytes: IN_MEMORY_BODY_BYTES + 1 - itemBody(Buffer.alloc(0), DEMO_USER).length, chunked: false, inMemory: false },
    { way: 'a small chunked body', bytes: 4096, chunked: true, inMemory: false },
  ])('$way: the file held in memory is $inMemory, the fields and file the same', async ({ bytes, chunked, inMemory }) => {
    const result = await parsed(itemBody(file(bytes), DEMO_USER), chunked);
    expect(result.fields).toEqual({ assetItemName: 'data', assetType: '1001', createdBy: DEMO_USER });
    expect(result.file).toMatchObject({ fileName: 'data.json', mimeType: 'application/json', size: bytes, truncated: false });
    expect('bytes' in result.file!.pending).toBe(inMemory);
    const content = 'bytes' in result.file!.pending ? result.file!.pending.bytes : undefined;
    if (content) expect(content.equals(file(bytes))).toBe(true);
  });
});
