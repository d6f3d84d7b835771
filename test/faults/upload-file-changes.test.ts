// A file that changes or disappears once its upload is prepared: the request
// is cut before its closing boundary (nothing stored), and the user reads
// what happened to the file (exit 2), not that the answer was lost. Changes
// in the middle of the body: test/unit/upload.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFile, mkdtemp, rm, truncate, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, DEMO_API_KEY, DEMO_DOMAIN, DEMO_USER, type RunningEmulator } from '../../src/emulator/index.js';
import { ApiClient } from '../../src/http/client.js';
import { UsageError } from '../../src/errors.js';
import { UPLOAD_PIECE, prepareMultipart } from '../../src/transfer/upload.js';

let emulator: RunningEmulator;
let api: ApiClient;
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator();
  dir = await mkdtemp(join(tmpdir(), 'ahs-changes-'));
  api = new ApiClient({ baseUrl: emulator.baseUrl, domainId: DEMO_DOMAIN, apiKey: DEMO_API_KEY, timeoutMs: 10_000, retries: 0, env: {} });
  await api.post(api.path('va'), { assetId: 'A1', assetName: 'a', assetType: '1001', createdBy: DEMO_USER });
});
afterAll(async () => {
  await api.destroy();
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a file that changes during its upload', () => {
  // Two pieces are read one by one as they are sent; 10 KiB at once, with the head and the tail.
  it.each([
    ['grows', UPLOAD_PIECE + 1, (file: string) => appendFile(file, 'more'), /changed during the upload; nothing was stored/],
    ['shrinks', UPLOAD_PIECE + 1, (file: string) => truncate(file, 1000), /changed during the upload; nothing was stored/],
    ['is rewritten in place', UPLOAD_PIECE + 1, (file: string) => writeFile(file, Buffer.alloc(UPLOAD_PIECE + 1, 4)), /changed during the upload; nothing was stored/],
    ['is removed', UPLOAD_PIECE + 1, (file: string) => unlink(file), /cannot read .*: no such file; nothing was stored/],
    ['grows', 10_240, (file: string) => appendFile(file, 'more'), /changed during the upload; nothing was stored/],
    ['is rewritten in place', 10_240, (file: string) => writeFile(file, Buffer.alloc(10_240, 4)), /changed during the upload; nothing was stored/],
    ['is removed', 10_240, (file: string) => unlink(file), /cannot read .*: no such file; nothing was stored/],
  ])('%s (%i bytes): a usage error naming it, and no version stored', async (how, size, change, message) => {
    const file = join(dir, `${how.replace(' ', '-')}-${size}.bin`);
    await writeFile(file, Buffer.alloc(size, 3));
    // An hour old: a rewrite gets another modification time, whatever the clock's grain.
    await utimes(file, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const body = await prepareMultipart({ fields: { versionName: `${how} ${size}`, createdBy: DEMO_USER }, file: { field: 'assetFile', path: file } });
    await change(file);
    const sent = api.json({ method: 'POST', path: api.path('va', 'A1', 'versions'), query: { targetPlatformId: 'ios' }, stream: body });
    await expect(sent).rejects.toBeInstanceOf(UsageError);
    await expect(sent).rejects.toThrow(message);
    const versions = await api.get<{ totalResults: number }>(api.path('va', 'A1', 'versions'));
    expect(versions.totalResults).toBe(0);
  });
});
