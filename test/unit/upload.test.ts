import { describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
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
});
