import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { appendFile, mkdtemp, rm, truncate, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UPLOAD_PIECE, prepareMultipart } from '../../src/transfer/upload.js';
import { ConflictError, UsageError } from '../../src/errors.js';
import { createHash } from 'node:crypto';

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const made: string[] = [];
/** A temporary folder, removed after the file's tests. */
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ahs-up-'));
  made.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('prepareMultipart', () => {
  it('builds a multipart body whose length is the announced content-length, with progress', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a "b".zip');
    await writeFile(file, Buffer.alloc(700_000, 1));
    const seen: number[] = [];
    const body = await prepareMultipart({ fields: { versionName: 'v1', createdBy: 'x@y', skip: undefined }, file: { field: 'assetFile', path: file }, onProgress: (sent) => seen.push(sent) });
    const bytes = await collect(body.open());
    expect(bytes.length).toBe(body.length);
    expect(body.fileSize).toBe(700_000);
    const text = bytes.toString('latin1');
    const boundary = body.contentType.split('boundary=')[1]!;
    expect(text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="versionName"\r\n\r\nv1\r\n`)).toBe(true);
    expect(text).toContain('name="assetFile"; filename="a \\"b\\".zip"\r\nContent-Type: application/zip');
    expect(text).not.toContain('name="skip"');
    expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
    expect(seen.at(-1)).toBe(700_000);
    // replayable
    expect((await collect(body.open())).length).toBe(body.length);
  });

  // A planned upload (apply, item sync --checksum) is hashed as it is read, never read for that alone.
  const sizes = [['small (one piece)', 1_000], ['large (pieces)', 2 * UPLOAD_PIECE + 5]] as const;
  for (const [label, size] of sizes) {
    it(`${label}: the planned digest is checked as the file is read; another one cuts the body before its closing boundary (exit 5)`, async () => {
      const dir = await tempDir();
      const file = join(dir, 'planned.bin');
      const content = Buffer.alloc(size, 7);
      await writeFile(file, content);
      const sha256 = createHash('sha256').update(content).digest('hex');
      const same = await prepareMultipart({ fields: {}, file: { field: 'assetFile', path: file, sha256 } });
      expect((await collect(same.open())).length).toBe(same.length);

      const other = await prepareMultipart({ fields: {}, file: { field: 'assetFile', path: file, sha256: 'b'.repeat(64) } });
      const boundary = other.contentType.split('boundary=')[1]!;
      const taken: Buffer[] = [];
      const error = await (async () => {
        for await (const piece of other.open()) taken.push(Buffer.from(piece as Buffer));
      })().catch((e: unknown) => e as ConflictError);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error!.exitCode).toBe(5);
      expect(error!.message).toBe(`${file} changed since it was planned (SHA-256 ${sha256.slice(0, 12)}…, planned bbbbbbbbbbbb…): its upload was cut before its end, so nothing was stored; run ahs plan again`);
      expect(Buffer.concat(taken).toString('latin1')).not.toContain(`--${boundary}--`);
    });
  }

  it('refuses a missing file or a directory (usage error)', async () => {
    await expect(prepareMultipart({ fields: {}, file: { field: 'f', path: '/nonexistent/file' } })).rejects.toBeInstanceOf(UsageError);
    await expect(prepareMultipart({ fields: {}, file: { field: 'f', path: tmpdir() } })).rejects.toThrow(/not a regular file/);
  });

  it('sends a file up to one piece with the head and the tail in one piece, read before it is handed over', async () => {
    const dir = await tempDir();
    for (const size of [0, 4096, UPLOAD_PIECE]) {
      const file = join(dir, `small-${size}.bin`);
      const content = Buffer.alloc(size, 'small');
      await writeFile(file, content);
      const seen: number[] = [];
      const body = await prepareMultipart({ fields: { versionName: 'v1' }, file: { field: 'assetFile', path: file }, onProgress: (sent) => seen.push(sent) });
      const pieces: Buffer[] = [];
      for await (const piece of body.open()) pieces.push(Buffer.from(piece));
      expect(pieces).toHaveLength(1);
      expect(pieces[0]!.length).toBe(body.length);
      expect(pieces[0]!.includes(Buffer.concat([Buffer.from('\r\n\r\n'), content, Buffer.from('\r\n--')]))).toBe(true);
      expect(seen).toEqual([0, size]);
    }
  });

  it('reads the file into two buffers that take turns, the head sent with the first piece and the tail with the last', async () => {
    const dir = await tempDir();
    const file = join(dir, 'big.bin');
    const content = Buffer.alloc(2 * UPLOAD_PIECE + 5);
    for (let i = 0; i + 4 <= content.length; i += 4) content.writeUInt32LE((i * 2654435761) >>> 0, i);
    await writeFile(file, content);
    const seen: number[] = [];
    const body = await prepareMultipart({ fields: { versionName: 'v1' }, file: { field: 'assetFile', path: file }, onProgress: (sent) => seen.push(sent) });
    const boundary = body.contentType.split('boundary=')[1]!;
    const copies: Buffer[] = [];
    const buffers = new Set<ArrayBufferLike>();
    for await (const piece of body.open()) {
      copies.push(Buffer.from(piece)); // the next pieces reuse the buffers
      buffers.add(piece.buffer);
    }
    const whole = Buffer.concat(copies);
    expect(whole.length).toBe(body.length);
    expect(whole.includes(content)).toBe(true);
    expect(seen).toEqual([0, UPLOAD_PIECE, 2 * UPLOAD_PIECE, content.length]);
    // Three pieces of the file, no piece of its own for the head or the tail.
    expect(copies).toHaveLength(3);
    expect(copies[0]!.toString('latin1').startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="versionName"`)).toBe(true);
    expect(copies[2]!.toString('latin1').endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
    expect(copies[2]!.length).toBe(5 + `\r\n--${boundary}--\r\n`.length);
    expect(buffers.size).toBe(2);
  });

  it.each([
    ['grows', (file: string) => appendFile(file, 'more')],
    ['shrinks', (file: string) => truncate(file, 300_000)],
    ['is rewritten in place', (file: string) => writeFile(file, Buffer.alloc(UPLOAD_PIECE + 1_000, 2))],
  ])('fails when the file %s in the middle of the body, before the closing boundary', async (_how, change) => {
    const file = join(await tempDir(), 'changes.bin');
    await writeFile(file, Buffer.alloc(UPLOAD_PIECE + 1_000, 1));
    await utimes(file, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const body = await prepareMultipart({ fields: {}, file: { field: 'f', path: file } });
    const pieces: Buffer[] = [];
    await expect(
      (async () => {
        for await (const piece of body.open()) {
          pieces.push(Buffer.from(piece));
          if (pieces.length === 1) await change(file);
        }
      })(),
    ).rejects.toThrow(/changed during the upload; nothing was stored/);
    expect(Buffer.concat(pieces).toString('latin1')).not.toContain(`${body.contentType.split('boundary=')[1]}--`);
  });

  it('sends the file it opened, whole, when the name is removed or replaced in the middle of the body', async () => {
    const dir = await tempDir();
    const file = join(dir, 'moved.bin');
    const content = Buffer.alloc(UPLOAD_PIECE + 1_000);
    for (let i = 0; i + 4 <= content.length; i += 4) content.writeUInt32LE((i * 2654435761) >>> 0, i);
    await writeFile(file, content);
    const body = await prepareMultipart({ fields: {}, file: { field: 'f', path: file } });
    const pieces: Buffer[] = [];
    for await (const piece of body.open()) {
      pieces.push(Buffer.from(piece));
      if (pieces.length === 1) {
        await unlink(file);
        await writeFile(file, Buffer.alloc(10, 9));
      }
    }
    expect(Buffer.concat(pieces).includes(content)).toBe(true);
  });

  it('closes the file when the sender stops early', async () => {
    const dir = await tempDir();
    const file = join(dir, 'stop.bin');
    await writeFile(file, Buffer.alloc(2 * UPLOAD_PIECE + 1, 1));
    const body = await prepareMultipart({ fields: {}, file: { field: 'f', path: file } });
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    let pieces = 0;
    for await (const _piece of body.open()) if (++pieces === 2) break;
    expect(open()).toBe(before);
  });
});
