// The digest module: sums files as sha256sum -c reads them, a local file's
// SHA-256 taken once per run (and again once it changed), and hashAll:
// downloads hashed as they stream, nothing written, failures per file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileSha256, parseSums } from '../../src/transfer/digest.js';
import { hashAll, type Opener } from '../../src/transfer/download.js';
import { UsageError } from '../../src/errors.js';

const sha = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ahs-digest-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('parseSums', () => {
  it('reads text and binary lines, drops ./, skips blank lines and comments; digests in lowercase', () => {
    const a = sha('a');
    const b = sha('b');
    const sums = parseSums(`# made by CI\n${a}  a.zip\n\n${b.toUpperCase()} *./dir name/b.bin\r\n`, 'SUMS');
    expect([...sums]).toEqual([
      ['a.zip', a],
      ['dir name/b.bin', b],
    ]);
  });

  it('reads every line sha256sum -c reads: one space or a tab (BSD -r), leading white space, --tag lines, escaped names', () => {
    const sums = parseSums([`${sha('a')} a`, `${sha('b')}\tb`, `  ${sha('c')}  c`, `SHA256 (d d) = ${sha('d')}`, `\\${sha('e')}  we\\\\ird\\nname`, `\\SHA256 (f\\\\) = ${sha('f')}`].join('\n'), 'S');
    expect([...sums]).toEqual([
      ['a', sha('a')],
      ['b', sha('b')],
      ['c', sha('c')],
      ['d d', sha('d')],
      ['we\\ird\nname', sha('e')],
      ['f\\', sha('f')],
    ]);
  });

  it('a line that is not a SHA-256 line, a name given two digests, or no line at all: a usage error naming the file and line', () => {
    expect(() => parseSums(`${sha('a')}  a\nmd5 1234  b\n`, 'S')).toThrow(/^S:2: not a SHA-256 line/);
    expect(() => parseSums(`${sha('a')}\n`, 'S')).toThrow(UsageError); // no name
    expect(() => parseSums(`\\${sha('a')}  we\\ird\n`, 'S')).toThrow(/^S:1: not a SHA-256 line/); // \i is no escape of sha256sum's
    expect(() => parseSums(`SHA1 (a) = ${sha('a').slice(0, 40)}\n`, 'S')).toThrow(/^S:1: not a SHA-256 line/);
    expect(() => parseSums(`${sha('a')}  a\n${sha('b')}  a\n`, 'S')).toThrow(/^S:2: a is listed twice with two different digests/);
    expect(() => parseSums('\n# nothing\n', 'S')).toThrow(/^S: no SHA-256 line in it/);
  });
});

describe('fileSha256', () => {
  it('is taken once per file per run: the same path, size and mtime are not read again; a rewritten file is', async () => {
    const path = join(dir, 'f.bin');
    await writeFile(path, 'one two');
    const fixed = new Date('2026-01-01T00:00:00Z');
    await utimes(path, fixed, fixed);
    expect(await fileSha256(path)).toBe(sha('one two'));
    // Same size and mtime: the digest taken before (the file is not read again).
    await writeFile(path, 'ONE TWO');
    await utimes(path, fixed, fixed);
    expect(await fileSha256(path)).toBe(sha('one two'));
    // Modified: read again.
    await utimes(path, new Date('2026-01-02T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
    expect(await fileSha256(path)).toBe(sha('ONE TWO'));
  });

  it('a missing file is a usage error naming it', async () => {
    await expect(fileSha256(join(dir, 'nope'))).rejects.toThrow(/cannot read .*nope: no such file/);
  });
});

describe('hashAll', () => {
  const answer = (status: number, content: Buffer, headers: Record<string, string> = {}) => ({
    status,
    headers: { 'content-length': String(content.length), ...headers },
    body: Readable.from([content.subarray(0, 3), content.subarray(3)]),
  });

  it('hashes each body as it streams, writes nothing, and fails a file on a bad status, a short body or another size without stopping the others', async () => {
    const big = Buffer.alloc(300_000, 7);
    const cut = new PassThrough();
    const open: Opener = async (task) => {
      if (task.id === 'gone') return { status: 302, headers: { location: 'http://elsewhere/' }, body: Readable.from([]) };
      if (task.id === 'short') {
        setImmediate(() => {
          cut.write(Buffer.from('abc'));
          cut.destroy();
        });
        return { status: 200, headers: { 'content-length': '10' }, body: cut };
      }
      return answer(200, task.id === 'big' ? big : Buffer.from(`bytes of ${task.id}`));
    };
    const tasks = ['a', 'big', 'gone', 'short', 'sized'].map((id) => ({ id, name: `${id}.bin`, url: `http://x/${id}`, expectedSize: id === 'sized' ? 1 : undefined }));
    const before = await readdir(dir);
    const summary = await hashAll(tasks, { open, concurrency: 2 });
    expect(summary.hashed.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      { id: 'a', name: 'a.bin', sha256: sha('bytes of a'), bytes: 10 },
      { id: 'big', name: 'big.bin', sha256: sha(big), bytes: 300_000 },
    ]);
    const failed = Object.fromEntries(summary.failed.map((f) => [f.id, f]));
    expect(failed.gone).toMatchObject({ error: 'HTTP 302: a redirect to http://elsewhere/, not followed; not read', network: false });
    expect(failed.short).toMatchObject({ network: true });
    // Refused on its content-length, before it is read.
    expect(failed.sized?.error).toBe('size mismatch: the server sends 14 bytes, expected 1');
    expect(await readdir(dir)).toEqual(before);
  });
});
