import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { CancelledError } from '../../src/errors.js';
import { downloadAll, type DownloadEvent, type DownloadTask } from '../../src/transfer/download.js';

// Deterministic bodies: byte i of file `name` is a function of both.
function body(name: string, size: number): Buffer {
  const seed = createHash('sha256').update(name).digest();
  const buffer = Buffer.alloc(size);
  for (let i = 0; i < size; i++) buffer[i] = (seed[i % seed.length]! + i) & 0xff;
  return buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let base: string;
let handler: Handler;
let requests: string[];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ahs-dl-'));
  requests = [];
  handler = serveFiles;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SIZES: Record<string, number> = { a: 1000, b: 300_000, c: 0, d: 70_000 };
function serveFiles(req: IncomingMessage, res: ServerResponse): void {
  const name = (req.url ?? '').slice(1);
  const size = SIZES[name];
  if (size === undefined) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ title: `no file ${name}` }));
    return;
  }
  res.writeHead(200, { 'content-length': String(size), 'content-type': 'application/octet-stream' });
  res.end(body(name, size));
}

const task = (name: string, extra: Partial<DownloadTask> = {}): DownloadTask => ({ id: `ID-${name}`, url: `${base}/${name}`, name: `${name}.bin`, ...extra });

describe('downloadAll', () => {
  it('lists what it downloaded, skipped and failed in the order of the tasks, not the order the transfers ended', async () => {
    // The first file answers last: its answer waits until every other request has come in.
    let release!: () => void;
    const others = new Promise<void>((resolve) => (release = resolve));
    handler = (req, res) => {
      if (req.url === '/a') void others.then(() => serveFiles(req, res));
      else {
        serveFiles(req, res);
        if (requests.length === 5) release();
      }
    };
    await writeFile(join(dir, 'd.bin'), 'already here');
    const tasks = [task('a'), task('missing'), task('b'), task('d'), task('c'), task('gone')];
    const summary = await downloadAll(tasks, { dir, concurrency: 6, skipExisting: true });
    expect(summary.downloaded.map((f) => f.id)).toEqual(['ID-a', 'ID-b', 'ID-c']);
    expect(summary.skipped.map((f) => f.id)).toEqual(['ID-d']);
    expect(summary.failed.map((f) => f.id)).toEqual(['ID-missing', 'ID-gone']);
  });

  it('downloads several files in parallel, byte for byte, with events and a summary', async () => {
    const events: DownloadEvent[] = [];
    const summary = await downloadAll([task('a'), task('b'), task('c'), task('d')], { dir, concurrency: 2, onEvent: (e) => events.push(e) });
    expect(summary.failed).toEqual([]);
    expect(summary.skipped).toEqual([]);
    expect(summary.downloaded.map((f) => f.id).sort()).toEqual(['ID-a', 'ID-b', 'ID-c', 'ID-d']);
    for (const name of Object.keys(SIZES)) {
      expect((await readFile(join(dir, `${name}.bin`))).equals(body(name, SIZES[name]!))).toBe(true);
    }
    expect((await readdir(dir)).sort()).toEqual(['a.bin', 'b.bin', 'c.bin', 'd.bin']);
    const last = events.filter((e) => e.type === 'progress').at(-1);
    expect(last && last.type === 'progress' && last.transferred).toBe(1000 + 300_000 + 70_000);
    expect(events.filter((e) => e.type === 'done')).toHaveLength(4);
  });

  it('creates the folder when missing', async () => {
    const nested = join(dir, 'x', 'y');
    await downloadAll([task('a')], { dir: nested });
    expect((await stat(join(nested, 'a.bin'))).size).toBe(1000);
  });

  it('reports a failed file and carries on with the others', async () => {
    const summary = await downloadAll([task('a'), task('missing'), task('d')], { dir });
    expect(summary.downloaded.map((f) => f.id).sort()).toEqual(['ID-a', 'ID-d']);
    expect(summary.failed).toEqual([{ id: 'ID-missing', name: 'missing.bin', error: 'HTTP 404: no file missing' }]);
    expect((await readdir(dir)).sort()).toEqual(['a.bin', 'd.bin']);
  });

  it('replaces an existing file whole, whatever its size; skipExisting keeps it without a request', async () => {
    await writeFile(join(dir, 'a.bin'), Buffer.alloc(1000, 7)); // same size, other bytes: still replaced
    await writeFile(join(dir, 'b.bin'), Buffer.alloc(10, 7));
    const summary = await downloadAll([task('a', { expectedSize: 1000 }), task('b')], { dir });
    expect(summary.skipped).toEqual([]);
    expect(summary.downloaded.map((f) => f.id).sort()).toEqual(['ID-a', 'ID-b']);
    expect((await readFile(join(dir, 'a.bin'))).equals(body('a', 1000))).toBe(true);
    expect((await readFile(join(dir, 'b.bin'))).equals(body('b', 300_000))).toBe(true);

    await writeFile(join(dir, 'a.bin'), 'mine');
    requests = [];
    const kept = await downloadAll([task('a', { expectedSize: 1000 }), task('d')], { dir, skipExisting: true });
    expect(kept.skipped.map((f) => f.id)).toEqual(['ID-a']);
    expect(kept.downloaded.map((f) => f.id)).toEqual(['ID-d']);
    expect(requests).toEqual(['/d']);
    expect(await readFile(join(dir, 'a.bin'), 'utf8')).toBe('mine');
  });

  it('a redirect is a failure of that file, never saved as the file', async () => {
    handler = (req, res) => {
      if (req.url === '/moved') res.writeHead(302, { location: 'http://elsewhere.test/login' }).end('<html>sign in</html>');
      else serveFiles(req, res);
    };
    const summary = await downloadAll([task('moved'), task('a')], { dir });
    expect(summary.failed).toEqual([{ id: 'ID-moved', name: 'moved.bin', error: 'HTTP 302: a redirect to http://elsewhere.test/login, not followed; nothing saved' }]);
    expect(await readdir(dir)).toEqual(['a.bin']);
  });

  it('removes the partial files an earlier killed run left in the folder, and nothing else', async () => {
    await writeFile(join(dir, '.a.bin.ahs-partial-0123abcd'), 'half');
    await writeFile(join(dir, '.old.zip.ahs-partial-deadbeef'), 'half');
    await writeFile(join(dir, '.hidden'), 'keep');
    await writeFile(join(dir, 'notes.ahs-partial-0123abcd'), 'keep: not hidden, not ours');
    await downloadAll([task('c')], { dir });
    expect((await readdir(dir)).sort()).toEqual(['.hidden', 'c.bin', 'notes.ahs-partial-0123abcd']);
  });

  it("keeps another live run's partial files; removes those of a process that is gone, and those abandoned for an hour", async () => {
    const live = `.a.bin.ahs-partial-${process.pid}-0123abcd`;
    const gone = '.b.bin.ahs-partial-2147483646-0123abcd'; // above any pid_max: no such process
    const abandoned = `.d.bin.ahs-partial-${process.pid}-deadbeef`;
    for (const name of [live, gone, abandoned]) await writeFile(join(dir, name), 'half');
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(join(dir, abandoned), hoursAgo, hoursAgo);
    await downloadAll([task('c')], { dir });
    expect((await readdir(dir)).sort()).toEqual([live, 'c.bin']);
  });

  it('a partial file removed by another program before its rename: a clear error for that file, no raw ENOENT', async () => {
    const events: DownloadEvent[] = [];
    const summary = await downloadAll([task('a')], {
      dir,
      onEvent: (event) => {
        events.push(event);
        // The body is on disk, the rename is next: another program empties the folder.
        if (event.type === 'progress' && event.bytes === SIZES.a) for (const name of readdirSync(dir)) rmSync(join(dir, name));
      },
    });
    expect(summary.downloaded).toEqual([]);
    expect(summary.failed).toEqual([{ id: 'ID-a', name: 'a.bin', error: expect.stringMatching(/^its temporary file \.a\.bin\.ahs-partial-\d+-[0-9a-f]{8} was removed before it could be saved .*; nothing saved: run again$/) }]);
    expect(summary.failed[0]!.error).not.toMatch(/ENOENT|rename/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('fails a file whose size does not match the expected one, leaving nothing behind', async () => {
    const summary = await downloadAll([task('a', { expectedSize: 999 })], { dir });
    expect(summary.failed[0]?.error).toMatch(/size mismatch/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('stops a body with no length at its expected size: a server that sends without end never fills the disk', async () => {
    const cap = 32 * 1024 * 1024;
    let sent = 0;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const piece = Buffer.alloc(64 * 1024, 7);
      // Chunked, on and on while the client reads (up to a cap, so that a client that reads it all still ends).
      const pump = (): void => {
        while (!res.destroyed && sent < cap) {
          sent += piece.length;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    };
    const summary = await downloadAll([task('a', { expectedSize: 1000 })], { dir });
    expect(summary.failed[0]?.error).toBe('size mismatch: more than the 1000 bytes expected');
    expect(sent).toBeLessThan(cap);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a server that compresses though asked not to: the bytes are kept as sent (a .tar.gz labelled gzip is the file), and a size that does not match says why', async () => {
    const file = body('a', 20_000);
    const coded = gzipSync(file);
    let asked: string | undefined;
    handler = (req, res) => {
      asked = req.headers['accept-encoding'];
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(coded.length) }).end(coded);
    };
    const summary = await downloadAll([task('a', { expectedSize: file.length }), task('gz', { expectedSize: coded.length })], { dir, concurrency: 1 });
    expect(asked).toBe('identity');
    expect(summary.failed).toEqual([{ id: 'ID-a', name: 'a.bin', error: expect.stringMatching(/^size mismatch: the server sends \d+ bytes, expected 20000 \(the server sent it gzip-coded \(content-encoding: gzip\) though ahs asks for files as stored/) }]);
    expect((await readFile(join(dir, 'gz.bin'))).equals(coded)).toBe(true);
    expect(await readdir(dir)).toEqual(['gz.bin']);
  });

  it('refuses a name that would leave the folder', async () => {
    const summary = await downloadAll([task('a', { name: '../escape.bin' })], { dir });
    expect(summary.failed[0]?.error).toMatch(/outside/);
    expect(requests).toEqual([]);
  });

  it('leaves no partial file when the server dies mid-body', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write(Buffer.alloc(30_000, 1), () => setImmediate(() => res.socket?.destroy()));
    };
    const summary = await downloadAll([task('a')], { dir });
    expect(summary.downloaded).toEqual([]);
    expect(summary.failed).toHaveLength(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves no partial file when a chunked body ends early', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(30_000, 1), () => setImmediate(() => res.socket?.destroy()));
    };
    const summary = await downloadAll([task('a')], { dir });
    expect(summary.failed).toHaveLength(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('fails, without waiting forever, a body destroyed without an error before its end', async () => {
    const open = async () => {
      const stream = new PassThrough();
      stream.write(Buffer.alloc(1000, 1));
      setImmediate(() => stream.destroy());
      return { status: 200, headers: { 'content-length': '5000' }, body: stream };
    };
    const summary = await downloadAll([task('a')], { dir, open });
    expect(summary.failed).toEqual([{ id: 'ID-a', name: 'a.bin', error: 'connection closed before the file was complete' }]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('on abort mid-download destroys the streams, removes partial files and throws CancelledError', async () => {
    const controller = new AbortController();
    let started = 0;
    handler = (req, res) => {
      if (req.url === '/a') return serveFiles(req, res);
      // Half a body, then silence: the download stays in flight until aborted.
      res.writeHead(200, { 'content-length': '100000' });
      res.write(Buffer.alloc(40_000, 2));
    };
    const promise = downloadAll([task('a'), task('slow1'), task('slow2'), task('slow3')], {
      dir,
      concurrency: 3,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'progress' && event.task.id !== 'ID-a' && event.bytes >= 40_000) {
          started++;
          if (started === 2) {
            // Both slow files now have partial files on disk.
            void readdir(dir).then((names) => {
              expect(names.filter((n) => n.includes('.ahs-partial-')).length).toBeGreaterThanOrEqual(1);
              controller.abort(new CancelledError());
            });
          }
        }
      },
    });
    await expect(promise).rejects.toBeInstanceOf(CancelledError);
    const left = await readdir(dir);
    expect(left.filter((n) => n.includes('ahs-partial'))).toEqual([]);
    expect(left.filter((n) => n.startsWith('slow'))).toEqual([]);
  });

  it('on abort while waiting for headers, gives up at once', async () => {
    const controller = new AbortController();
    handler = () => {
      controller.abort();
    }; // never answers
    await expect(downloadAll([task('a')], { dir, signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('throws CancelledError without a request when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(downloadAll([task('a')], { dir, signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(requests).toEqual([]);
  });

  it('never holds more than `concurrency` requests at once', async () => {
    let inFlight = 0;
    let peak = 0;
    handler = (req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      res.on('close', () => inFlight--);
      setImmediate(() => serveFiles({ ...req, url: '/a' } as IncomingMessage, res));
    };
    const tasks = Array.from({ length: 12 }, (_, i) => task('a', { id: `i${i}`, name: `f${i}.bin` }));
    const summary = await downloadAll(tasks, { dir, concurrency: 3 });
    expect(summary.downloaded).toHaveLength(12);
    expect(peak).toBeLessThanOrEqual(3);
  });

  it('holds one abort listener on the caller\'s signal for the whole batch, none after: no MaxListenersExceededWarning at 20 at once', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      let peak = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let waiting = 0;
      handler = (req, res) => {
        peak = Math.max(peak, getEventListeners(controller.signal, 'abort').length);
        // Hold every answer until all 20 are in flight.
        if (++waiting === 20) release();
        void gate.then(() => serveFiles({ ...req, url: '/a' } as IncomingMessage, res));
      };
      const tasks = Array.from({ length: 20 }, (_, i) => task('a', { id: `i${i}`, name: `f${i}.bin` }));
      const summary = await downloadAll(tasks, { dir, concurrency: 20, signal: controller.signal });
      expect(summary.downloaded).toHaveLength(20);
      expect(peak).toBe(1);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
