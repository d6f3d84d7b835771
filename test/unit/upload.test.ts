import { describe, expect, it } from 'vitest';
import { appendFile, mkdtemp, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareMultipart } from '../../src/transfer/upload.js';
import { UsageError } from '../../src/errors.js';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('prepareMultipart', () => {
  it('builds a multipart body whose length is the announced content-length, with progress', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ahs-up-'));
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
    expect(text).toContain('name="assetFile"; filename="a %22b%22.zip"\r\nContent-Type: application/zip');
    expect(text).not.toContain('name="skip"');
    expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
    expect(seen.at(-1)).toBe(700_000);
    // replayable
    expect((await collect(body.open())).length).toBe(body.length);
  });

  it('refuses a missing file or a directory (usage error)', async () => {
    await expect(prepareMultipart({ fields: {}, file: { field: 'f', path: '/nonexistent/file' } })).rejects.toBeInstanceOf(UsageError);
    await expect(prepareMultipart({ fields: {}, file: { field: 'f', path: tmpdir() } })).rejects.toThrow(/not a regular file/);
  });

  it('writes the same body into a request from a few reused buffers, progress counting what the socket took', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ahs-up-'));
    const file = join(dir, 'big.bin');
    const content = Buffer.alloc(3 * 1024 * 1024 + 5);
    for (let i = 0; i < content.length; i++) content[i] = i % 251;
    await writeFile(file, content);
    const seen: number[] = [];
    const body = await prepareMultipart({ fields: { versionName: 'v1' }, file: { field: 'assetFile', path: file }, onProgress: (sent) => seen.push(sent) });
    const request = new Sink();
    await body.writeInto!(request);
    await finished(request);
    expect(Buffer.concat(request.pieces).equals(await collect(body.open()))).toBe(true);
    expect(seen.at(-1)).toBe(content.length);
    // 3 MiB went through at most 8 buffers of 256 KiB (the head and the tail are two more).
    expect(new Set(request.buffers).size).toBeLessThanOrEqual(10);
  });

  it('rejects, and leaves the request unended, when the file changes size during the upload', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ahs-up-'));
    const file = join(dir, 'grows.bin');
    await writeFile(file, Buffer.alloc(600_000, 1));
    const body = await prepareMultipart({ fields: {}, file: { field: 'f', path: file } });
    await appendFile(file, 'more');
    const request = new Sink();
    await expect(body.writeInto!(request)).rejects.toThrow(/changed size during the upload/);
    expect(request.writableEnded).toBe(false);
  });

  it('rejects when the request is destroyed before the file is sent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ahs-up-'));
    const file = join(dir, 'cut.bin');
    await writeFile(file, Buffer.alloc(4 * 1024 * 1024, 1));
    const body = await prepareMultipart({ fields: {}, file: { field: 'f', path: file } });
    const request = new Sink({ failAfter: 3 });
    await expect(body.writeInto!(request)).rejects.toThrow();
  });
});

/** A request that takes each piece a turn later, as a socket does, copying it (the writer reuses its buffers). */
class Sink extends Writable {
  readonly pieces: Buffer[] = [];
  readonly buffers: ArrayBufferLike[] = [];
  private writes = 0;
  constructor(private readonly options: { failAfter?: number } = {}) {
    super({ highWaterMark: 512 * 1024 });
    // As the transport does (exchange() rejects on it): without a listener, the error would throw before 'close'.
    this.on('error', () => {});
  }
  override _write(chunk: Buffer, _encoding: string, done: (error?: Error | null) => void): void {
    this.pieces.push(Buffer.from(chunk));
    this.buffers.push(chunk.buffer);
    if (++this.writes === this.options.failAfter) {
      setImmediate(() => this.destroy(new Error('connection reset')));
      return;
    }
    setImmediate(done);
  }
}
