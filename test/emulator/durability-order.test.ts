// The order of the disk calls of a --data-dir store is its crash safety: a
// journal line may be written only once the file it names survives a crash
// (the file's fsync ended, and a fsync of blobs/ that began after the file was
// renamed or written there ended), unless the line carries the file's bytes
// (a small upload held in memory); the journal is emptied only once the
// files of the bytes its lines carried survive a crash; a write is answered
// only once its line is fsynced; a file is removed only once the line that
// stops naming it is fsynced. Each row runs a store over a recording Disk
// that can hold a call until another has ended, then checks those rules over
// the calls it saw.
import { afterEach, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Operation } from '../../src/emulator/operations.js';
import { referencedBlobs, type CollectionRecord, type EmulatorState, type ItemRecord, type VersionRecord } from '../../src/emulator/state.js';
import { DiskStore, realDisk, type Disk, type DiskStoreOptions, type PendingBlob } from '../../src/emulator/store.js';

type Call = keyof Disk;
interface Entry {
  call: Call | 'answered';
  phase: 'begin' | 'end';
  id: number;
  /** The path of a file call (a rename's target, a created file), the text of a journal append, the label of an answer. */
  arg: string;
  /** A rename's source. */
  from?: string;
}

/** Disk calls, each logged when the store issues it and when it ends; `hold` may delay one. */
class RecordingDisk {
  readonly log: Entry[] = [];
  private nextId = 0;
  private waiters: (() => void)[] = [];
  hold: (call: Call, arg: string) => Promise<void> | undefined = () => undefined;

  readonly disk: Disk = {
    rename: (from, to) => this.record('rename', to, () => realDisk.rename(from, to), from),
    createFile: (path, bytes) => this.record('createFile', path, () => realDisk.createFile(path, bytes)),
    writeSynced: (path, bytes) => this.record('writeSynced', path, () => realDisk.writeSynced(path, bytes)),
    unlink: (path) => this.record('unlink', path, () => realDisk.unlink(path)),
    syncFile: (path) => this.record('syncFile', path, () => realDisk.syncFile(path)),
    syncFolder: (path) => this.record('syncFolder', path, () => realDisk.syncFolder(path)),
    appendJournal: (journal, text) => this.record('appendJournal', text, () => realDisk.appendJournal(journal, text)),
    syncJournal: (journal) => this.record('syncJournal', '', () => realDisk.syncJournal(journal)),
    replaceSnapshot: (dataDir, text) => this.record('replaceSnapshot', text, () => realDisk.replaceSnapshot(dataDir, text)),
    truncateJournal: (journal, length) => this.record('truncateJournal', String(length ?? 0), () => realDisk.truncateJournal(journal, length)),
  };

  push(entry: Omit<Entry, 'id'> & { id?: number }): void {
    this.log.push({ id: this.nextId++, ...entry });
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once `test` holds for the log (checked after every entry). */
  async until(test: (log: Entry[]) => boolean): Promise<void> {
    while (!test(this.log)) await new Promise<void>((wake) => this.waiters.push(wake));
  }

  private async record(call: Call, arg: string, run: () => Promise<void>, from?: string): Promise<void> {
    const id = this.nextId++;
    this.log.push({ call, phase: 'begin', id, arg, from });
    for (const wake of this.waiters.splice(0)) wake();
    await this.hold(call, arg);
    try {
      await run();
    } finally {
      this.push({ call, phase: 'end', id, arg });
    }
  }
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const AT = '2024-01-01T00:00:00.000Z';
const USER = 'owner@demo.test';

async function openStore(recorder: RecordingDisk, options: DiskStoreOptions = {}): Promise<DiskStore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-order-'));
  dirs.push(dataDir);
  const store = await DiskStore.open(dataDir, { ...options, disk: recorder.disk });
  await store.createAsset('demo', { assetId: 'a', assetName: 'a', assetType: '1001', secured: true, localCacheControl: false, localCacheMaxAge: 30, createdBy: USER, updatedBy: USER, active: true, createdAt: AT, updatedAt: AT, sequences: {} });
  await store.createCollection('demo', collection('c'));
  return store;
}

async function pendingFile(store: DiskStore, text: string) {
  const pending = store.createPending();
  pending.stream.end(text);
  await once(pending.stream, 'close');
  return pending;
}

/** A small upload's file, held in memory as multipart.ts keeps it. */
function pendingBytes(text: string): PendingBlob {
  return { bytes: Buffer.from(text) };
}

/**
 * Writes to make at once; each resolves to what the answer acknowledged (its
 * journal line, or a snapshot that holds it: a fold takes in the writes
 * still queued) and which file it released.
 */
type Write = (store: DiskStore) => Promise<{ label: string; line: (operation: Operation) => boolean; inSnapshot?: (text: string) => boolean; releases?: string }>;

function uploadItem(n: number): Write {
  return async (store) => {
    const item = await store.addItem('demo', 'c', await pendingFile(store, `item ${n}`), (blobId, sequence) => itemRecord(`i${sequence}`, blobId));
    return { label: `item ${n}`, line: (op) => op.op === 'addItem' && op.item.blobId === item.blobId, inSnapshot: (text) => text.includes(item.blobId) };
  };
}

function uploadSmallItem(n: number): Write {
  return async (store) => {
    const item = await store.addItem('demo', 'c', pendingBytes(`small item ${n}`), (blobId, sequence) => itemRecord(`i${sequence}`, blobId));
    return { label: `small item ${n}`, line: (op) => op.op === 'addItem' && op.item.blobId === item.blobId, inSnapshot: (text) => text.includes(item.blobId) };
  };
}

function uploadThenDeleteSmallItem(n: number): Write {
  return async (store) => {
    const item = await store.addItem('demo', 'c', pendingBytes(`small item ${n}`), (blobId, sequence) => itemRecord(`i${sequence}`, blobId));
    await store.removeItem('demo', 'c', item.assetItemId, true, AT);
    return { label: `delete of small item ${n}`, line: (op) => op.op === 'removeItem' && op.itemId === item.assetItemId, releases: item.blobId };
  };
}

function uploadVersion(n: number): Write {
  return async (store) => {
    const version = await store.addVersion('demo', 'a', await pendingFile(store, `version ${n}`), (blobId) => versionRecord(`GEN${n}`, n, blobId));
    return { label: `version ${n}`, line: (op) => op.op === 'addVersion' && op.version.blobId === version.blobId, inSnapshot: (text) => text.includes(version.blobId) };
  };
}

function createAsset(assetId: string): Write {
  return async (store) => {
    await store.createAsset('demo', { assetId, assetName: assetId, assetType: '1001', secured: true, localCacheControl: false, localCacheMaxAge: 30, createdBy: USER, updatedBy: USER, active: true, createdAt: AT, updatedAt: AT, sequences: {} });
    return { label: `asset ${assetId}`, line: (op) => op.op === 'createAsset' && op.asset.assetId === assetId, inSnapshot: (text) => text.includes(`"assetId":"${assetId}"`) };
  };
}

function uploadThenDeleteVersion(n: number): Write {
  return async (store) => {
    const version = await store.addVersion('demo', 'a', await pendingFile(store, `version ${n}`), (blobId) => versionRecord(`GEN${n}`, n, blobId));
    await store.deleteVersion('demo', 'a', version.versionId);
    return { label: `delete of version ${n}`, line: (op) => op.op === 'deleteVersion' && op.versionId === version.versionId, releases: version.blobId };
  };
}

const ended = (log: Entry[], call: Call, test: (arg: string) => boolean = () => true) => log.some((e) => e.call === call && e.phase === 'end' && test(e.arg));
const count = (log: Entry[], call: Call, phase: Entry['phase'] = 'begin') => log.filter((e) => e.call === call && e.phase === phase).length;

interface Row {
  name: string;
  writes: Write[];
  /** Holds a call until the log shows something (never on a call that cannot come). */
  hold?: (recorder: RecordingDisk) => (call: Call, arg: string) => Promise<void> | undefined;
  maxFolderSyncs?: number;
  /** How many times each of these calls begins. */
  calls?: Partial<Record<Call, number>>;
  /** Of the store (openStore writes 2 operations before the row's). */
  options?: DiskStoreOptions;
  /** No call on a file or on blobs/ until the store closes (the uploads are all small). */
  noFileBeforeClose?: boolean;
}

const FILE_CALLS: Call[] = ['rename', 'createFile', 'writeSynced', 'syncFile', 'syncFolder', 'unlink'];

/** One turn of the event loop: calls the store issues together have all begun after it. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const rows: Row[] = [
  { name: 'one version upload', writes: [uploadVersion(1)] },
  {
    name: "an upload whose file's fsync ends after the folder's",
    writes: [uploadItem(1)],
    // Held until a folder fsync has ended, when one has begun beside it.
    hold: (r) => async (call) => {
      if (call !== 'syncFile') return;
      await turn();
      if (count(r.log, 'syncFolder') > 0) await r.until((log) => ended(log, 'syncFolder'));
    },
  },
  {
    name: "an upload whose folder's fsync ends after the file's",
    writes: [uploadItem(1)],
    hold: (r) => async (call) => {
      if (call !== 'syncFolder') return;
      await turn();
      await r.until((log) => count(log, 'syncFile', 'end') === count(log, 'syncFile'));
    },
  },
  {
    name: '8 uploads at once, renamed while the first folder fsync runs: they share the next one',
    writes: Array.from({ length: 8 }, (_, i) => uploadItem(i + 1)),
    hold: (r) => (call) => (call === 'syncFolder' && count(r.log, 'syncFolder') === 1 ? r.until((log) => count(log, 'rename', 'end') === 8) : undefined),
    maxFolderSyncs: 2,
  },
  {
    name: 'uploads beside metadata writes, the first journal fsync held until every file is renamed',
    writes: [uploadVersion(1), createAsset('m1'), uploadItem(1), createAsset('m2'), uploadVersion(2), uploadItem(2)],
    hold: (r) => (call) => (call === 'syncJournal' && count(r.log, 'syncJournal') === 1 ? r.until((log) => count(log, 'rename', 'end') === 4) : undefined),
  },
  { name: "a deleted version's file, removed only once the delete is durable", writes: [uploadThenDeleteVersion(1), uploadThenDeleteVersion(2)] },
  {
    name: 'one small upload: journalled whole, its file made only at the fold (at close)',
    writes: [uploadSmallItem(1)],
    noFileBeforeClose: true,
    calls: { createFile: 0, rename: 0, syncFile: 0, appendJournal: 1, writeSynced: 1, syncFolder: 1, truncateJournal: 1 },
  },
  {
    name: '8 small uploads at once, then folded into the snapshot: their files written and synced before the journal is emptied',
    writes: Array.from({ length: 8 }, (_, i) => uploadSmallItem(i + 1)),
    options: { compactEvery: 10 },
    calls: { writeSynced: 8, syncFolder: 1, truncateJournal: 2, createFile: 0, rename: 0 },
  },
  {
    name: 'small uploads folded at every batch (held-bytes limit), the first file write held while more uploads come',
    writes: [uploadSmallItem(1), uploadSmallItem(2), uploadItem(1), createAsset('m1'), uploadSmallItem(3), uploadVersion(1), uploadSmallItem(4)],
    options: { heldBytes: 1 },
    hold: (r) => (call) => (call === 'writeSynced' && count(r.log, 'writeSynced') === 1 ? r.until((log) => count(log, 'rename', 'end') === 2) : undefined),
  },
  {
    name: 'small and streamed uploads beside metadata writes, the first journal fsync held until every streamed file is in blobs/',
    writes: [uploadSmallItem(1), createAsset('m1'), uploadItem(1), uploadSmallItem(2), uploadVersion(1)],
    hold: (r) => (call) => (call === 'syncJournal' && count(r.log, 'syncJournal') === 1 ? r.until((log) => count(log, 'rename', 'end') === 2) : undefined),
  },
  {
    name: 'small uploads deleted before the fold (at close): their files are never written',
    writes: [uploadThenDeleteSmallItem(1), uploadSmallItem(2), uploadThenDeleteSmallItem(3)],
    calls: { writeSynced: 1 },
  },
];

describe('the order of disk calls of a --data-dir store', () => {
  it.each(rows)('$name', async (row) => {
    const recorder = new RecordingDisk();
    const store = await openStore(recorder, row.options);
    let closed = false;
    try {
      recorder.log.splice(0);
      if (row.hold) recorder.hold = row.hold(recorder);
      const answers = await Promise.all(
        row.writes.map(async (write) => {
          const answer = await write(store);
          recorder.push({ call: 'answered', phase: 'end', arg: answer.label });
          return answer;
        }),
      );
      const beforeClose = recorder.log.length;
      // The fold at close (it writes the files of the small uploads still held) obeys the rules too.
      closed = true;
      await store.close();
      expect(violations(recorder.log, answers)).toEqual([]);
      if (row.maxFolderSyncs !== undefined) expect(count(recorder.log, 'syncFolder')).toBeLessThanOrEqual(row.maxFolderSyncs);
      for (const [call, times] of Object.entries(row.calls ?? {})) expect(count(recorder.log, call as Call), call).toBe(times);
      if (row.noFileBeforeClose) expect(recorder.log.slice(0, beforeClose).filter((e) => FILE_CALLS.includes(e.call as Call))).toEqual([]);
    } finally {
      if (!closed) await store.close();
    }
  });
});

describe('an upload whose file cannot be made durable', () => {
  const eio = () => Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
  it.each([
    { name: 'a streamed upload whose fsync fails', fail: { syncFile: true }, error: /EIO/ },
  ])('$name: fails, leaves no file in blobs/ and no line in the journal', async ({ fail, error }) => {
    const recorder = new RecordingDisk();
    if (fail.syncFile) {
      recorder.disk.syncFile = async () => {
        throw eio();
      };
    }
    const store = await openStore(recorder);
    try {
      const pending = await pendingFile(store, 'lost');
      await expect(store.addItem('demo', 'c', pending, (blobId, sequence) => itemRecord(`i${sequence}`, blobId))).rejects.toThrow(error);
      expect(store.domain('demo').items).toEqual({});
      expect(recorder.log.some((e) => e.call === 'appendJournal' && e.arg.includes('addItem'))).toBe(false);
      const placed = recorder.log.find((e) => e.call === 'rename' && e.phase === 'end');
      await expect(stat(placed!.arg)).rejects.toThrow(/ENOENT/);
    } finally {
      await store.close();
    }
  });
});

describe('a small upload whose file cannot be written when the journal is folded (disk full)', () => {
  it('is kept: the journal keeps its line, the store serves it, and a restart after a crash writes its file', async () => {
    const recorder = new RecordingDisk();
    const write = recorder.disk.writeSynced;
    // Half the bytes land, then the disk is full.
    recorder.disk.writeSynced = async (path, bytes) => {
      await write(path, bytes.subarray(0, bytes.length >> 1));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    const store = await openStore(recorder, { heldBytes: 1 });
    const dataDir = storeDir(store);
    const item = await store.addItem('demo', 'c', pendingBytes('kept through a full disk'), (blobId, sequence) => itemRecord(`i${sequence}`, blobId));
    // The fold after its batch was tried (and failed) before the next write is taken.
    await store.createAsset('demo', { assetId: 'after', assetName: 'after', assetType: '1001', secured: true, localCacheControl: false, localCacheMaxAge: 30, createdBy: USER, updatedBy: USER, active: true, createdAt: AT, updatedAt: AT, sequences: {} });
    expect(count(recorder.log, 'writeSynced')).toBeGreaterThan(0);
    expect(count(recorder.log, 'truncateJournal')).toBe(0);
    expect(await readFile(join(dataDir, 'journal.ndjson'), 'utf8')).toContain(Buffer.from('kept through a full disk').toString('base64'));
    expect(await text(store.openBlob(item.blobId))).toBe('kept through a full disk');
    // No close: as after a kill -9. The next start writes the file whole.
    const reopened = await DiskStore.open(dataDir);
    try {
      expect(reopened.domain('demo').items[item.assetItemId]?.blobId).toBe(item.blobId);
      expect(await readFile(join(dataDir, 'blobs', item.blobId), 'utf8')).toBe('kept through a full disk');
    } finally {
      await reopened.close();
      await (store as unknown as { journal: { close(): Promise<void> } }).journal.close();
    }
  });
});

describe('a journal append that fails part-way (disk full, I/O error)', () => {
  const asset = (assetId: string) => ({ assetId, assetName: assetId, assetType: '1001', secured: true, localCacheControl: false, localCacheMaxAge: 30, createdBy: USER, updatedBy: USER, active: true, createdAt: AT, updatedAt: AT, sequences: {} });

  it('is cut back to its last whole line: the writes after it survive a crash, and the failed one is not in the journal', async () => {
    const recorder = new RecordingDisk();
    const append = recorder.disk.appendJournal;
    let failNext = false;
    recorder.disk.appendJournal = async (journal, text) => {
      if (!failNext) return append(journal, text);
      failNext = false;
      // Half the line lands, then the disk is full.
      await append(journal, text.slice(0, text.length >> 1));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    const store = await openStore(recorder);
    const dataDir = storeDir(store);
    failNext = true;
    await expect(store.createAsset('demo', asset('torn'))).rejects.toThrow(/ENOSPC/);
    await store.createAsset('demo', asset('after'));
    const journal = await readFile(join(dataDir, 'journal.ndjson'), 'utf8');
    expect(journal).not.toContain('"torn"');
    expect(journal.split('\n').filter(Boolean).every((line) => JSON.parse(line))).toBe(true);
    // No close: as after a kill -9. The next start reads the journal whole.
    const reopened = await DiskStore.open(dataDir);
    try {
      expect(reopened.domain('demo').assets.after?.assetName).toBe('after');
    } finally {
      await reopened.close();
      await (store as unknown as { journal: { close(): Promise<void> } }).journal.close();
    }
  });

  it('takes a write whose append failed back out of memory exactly: the client gets the error, no read or later snapshot shows it, a write queued behind it stays', async () => {
    const recorder = new RecordingDisk();
    const append = recorder.disk.appendJournal;
    let failNext: Promise<void> | undefined;
    recorder.disk.appendJournal = async (journal, text) => {
      const gate = failNext;
      if (!gate) return append(journal, text);
      failNext = undefined;
      // Another write arrives while this append is under way, then the disk is full.
      await gate;
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    const store = await openStore(recorder);
    const dataDir = storeDir(store);
    await store.createAsset('demo', asset('before'));
    let queue!: () => void;
    failNext = new Promise<void>((resolve) => (queue = resolve));
    const failed = store.createAsset('demo', asset('failed'));
    const changed = store.updateAsset('demo', 'before', { assetName: 'changed while it failed' });
    queue();
    await expect(failed).rejects.toThrow(/ENOSPC/);
    expect(store.domain('demo').assets.failed).toBeUndefined();
    expect(store.domain('demo').assets.before?.assetName).toBe('changed while it failed');
    await changed;
    await store.createAsset('demo', asset('after'));
    // A fold writes the state in memory into the snapshot: the failed write is not in it.
    await store.close();
    expect(await readFile(join(dataDir, 'state.json'), 'utf8')).not.toContain('"failed"');
    const reopened = await DiskStore.open(dataDir);
    try {
      expect(reopened.domain('demo').assets.failed).toBeUndefined();
      expect(reopened.domain('demo').assets.after).toBeDefined();
      expect(reopened.domain('demo').assets.before?.assetName).toBe('changed while it failed');
    } finally {
      await reopened.close();
    }
  });

  it('takes no more writes when even the cut back fails, rather than append after a torn line', async () => {
    const recorder = new RecordingDisk();
    const store = await openStore(recorder);
    const full = () => Promise.reject(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }));
    const append = recorder.disk.appendJournal;
    recorder.disk.appendJournal = async (journal, text) => {
      await append(journal, text.slice(0, 3));
      return full();
    };
    recorder.disk.truncateJournal = full;
    await expect(store.createAsset('demo', asset('torn'))).rejects.toThrow(/EIO/);
    recorder.disk.appendJournal = append;
    await expect(store.createAsset('demo', asset('later'))).rejects.toThrow(/EIO/);
    expect(await readFile(join(storeDir(store), 'journal.ndjson'), 'utf8')).not.toContain('"later"');
    await (store as unknown as { journal: { close(): Promise<void> } }).journal.close();
  });
});

describe('a fold that fails (disk full)', () => {
  it('is tried again after compactEvery more lines, not after every batch', async () => {
    const recorder = new RecordingDisk();
    const store = await openStore(recorder, { compactEvery: 4 });
    const before = count(recorder.log, 'replaceSnapshot');
    recorder.hold = (call) => (call === 'replaceSnapshot' ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })) : undefined);
    for (let i = 0; i < 12; i++) {
      await store.createAsset('demo', { assetId: `f${i}`, assetName: 'f', assetType: '1001', secured: true, localCacheControl: false, localCacheMaxAge: 30, createdBy: USER, updatedBy: USER, active: true, createdAt: AT, updatedAt: AT, sequences: {} });
    }
    // 14 lines, one a batch: due at 4, failed; tried again at 8 and 12 (before, after every batch from the 4th on: 11).
    expect(count(recorder.log, 'replaceSnapshot') - before).toBe(3);
    await (store as unknown as { journal: { close(): Promise<void> } }).journal.close();
  });
});

/** The data directory of a store opened by openStore. */
function storeDir(store: DiskStore): string {
  return (store as unknown as { dataDir: string }).dataDir;
}

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Every break of the three rules in `log`, in words (none: the order is safe). */
function violations(log: Entry[], answers: Awaited<ReturnType<Write>>[]): string[] {
  const found: string[] = [];
  const at = (test: (e: Entry) => boolean) => log.findIndex(test);
  const endOf = (entry: Entry) => at((e) => e.id === entry.id && e.phase === 'end');
  const appends = log.filter((e) => e.call === 'appendJournal' && e.phase === 'begin');
  const entriesOf = (append: Entry) => append.arg.trim().split('\n').map((line) => JSON.parse(line) as { operation: Operation; bytes?: string });
  const linesOf = (append: Entry) => entriesOf(append).map((entry) => entry.operation);
  /** The index at which the line `test` picks is fsynced in the journal (-1: never). */
  const durableAt = (test: (operation: Operation) => boolean) => {
    const append = appends.find((a) => linesOf(a).some(test));
    if (!append) return -1;
    const written = endOf(append);
    const sync = log.find((e, i) => e.call === 'syncJournal' && e.phase === 'begin' && i > written && endOf(e) >= 0);
    return sync ? endOf(sync) : -1;
  };

  /** Breaks of "the file of `blobId` survives a crash by index `before`", each beginning with `what`. */
  const fileDurableBy = (blobId: string, before: number, what: string) => {
    const written = at((e) => e.call === 'writeSynced' && e.phase === 'end' && basename(e.arg) === blobId);
    const renamed = written >= 0 ? written : at((e) => e.call === 'rename' && e.phase === 'end' && basename(e.arg) === blobId);
    if (renamed < 0 || renamed > before) return [`${what} before its file was renamed into (or written in) blobs/`];
    const broken: string[] = [];
    // The file's fsync, under its name in blobs/ or the temporary one it had before (writeSynced syncs it).
    const names = [log[renamed]?.arg, log.find((e) => e.id === log[renamed]?.id)?.from];
    const fileSynced = written >= 0 ? written : at((e) => e.call === 'syncFile' && e.phase === 'end' && names.includes(e.arg));
    if (fileSynced < 0 || fileSynced > before) broken.push(`${what} before its file's fsync ended`);
    const folderSynced = log.some((e, i) => e.call === 'syncFolder' && e.phase === 'begin' && i > renamed && endOf(e) >= 0 && endOf(e) < before);
    if (!folderSynced) broken.push(`${what} before a blobs/ fsync begun after its rename (or write) ended`);
    return broken;
  };
  const blobOf = (operation: Operation) => (operation.op === 'addVersion' ? operation.version.blobId : operation.op === 'addItem' ? operation.item.blobId : undefined);
  const released = new Set(answers.flatMap((answer) => (answer.releases ? [answer.releases] : [])));

  for (const append of appends) {
    const begin = log.indexOf(append);
    for (const { operation, bytes } of entriesOf(append)) {
      const blobId = blobOf(operation);
      // A line that carries the file's bytes is enough to recover it.
      if (!blobId || bytes !== undefined) continue;
      found.push(...fileDurableBy(blobId, begin, `the journal line of ${operation.op} was written`));
    }
  }
  // Emptying the journal drops the bytes its lines carried: their files (but those removed since) must survive first.
  for (const truncate of log.filter((e) => e.call === 'truncateJournal' && e.phase === 'begin')) {
    const begin = log.indexOf(truncate);
    for (const append of appends.filter((a) => log.indexOf(a) < begin)) {
      for (const { operation, bytes } of entriesOf(append)) {
        const blobId = blobOf(operation);
        if (!blobId || bytes === undefined || released.has(blobId)) continue;
        found.push(...fileDurableBy(blobId, begin, `the journal holding the bytes of ${operation.op} was emptied`));
      }
    }
  }
  // A snapshot names files too: each must survive a crash before it is written.
  for (const snapshot of log.filter((e) => e.call === 'replaceSnapshot' && e.phase === 'begin')) {
    for (const blobId of referencedBlobs(JSON.parse(snapshot.arg) as EmulatorState)) {
      found.push(...fileDurableBy(blobId, log.indexOf(snapshot), `a snapshot naming the file of ${blobId} was written`));
    }
  }
  /** The index at which a snapshot holding the write ended (-1: none). */
  const snapshotAt = (test: ((text: string) => boolean) | undefined) => {
    const snapshot = test && log.find((e) => e.call === 'replaceSnapshot' && e.phase === 'begin' && endOf(e) >= 0 && test(e.arg));
    return snapshot ? endOf(snapshot) : -1;
  };
  for (const answer of answers) {
    const inJournal = durableAt(answer.line);
    const inSnapshot = snapshotAt(answer.inSnapshot);
    const durable = inJournal < 0 ? inSnapshot : inSnapshot < 0 ? inJournal : Math.min(inJournal, inSnapshot);
    const answered = at((e) => e.call === 'answered' && e.arg === answer.label);
    if (durable < 0 || durable > answered) found.push(`${answer.label} was answered before its journal line was fsynced`);
    if (answer.releases) {
      const removed = at((e) => e.call === 'unlink' && e.phase === 'begin' && basename(e.arg) === answer.releases);
      if (removed < 0) found.push(`${answer.label}: its file was never removed`);
      else if (durable < 0 || removed < durable) found.push(`${answer.label}: its file was removed before the journal line that releases it was fsynced`);
    }
  }
  return found;
}

function collection(collectionId: string): CollectionRecord {
  return {
    collectionId,
    domainId: 'demo',
    collectionName: collectionId,
    allowedAssetTypes: ['1001'],
    maxAssets: 100,
    editable: true,
    deployable: true,
    assetItems: [],
    targetPlatform: 'generic',
    secured: true,
    createdBy: USER,
    updatedBy: USER,
    deleted: false,
    deletedAt: null,
    everDeployed: false,
    localCacheControl: false,
    localCacheMaxAge: 30,
    createdAt: AT,
    updatedAt: AT,
  };
}

function itemRecord(assetItemId: string, blobId: string): ItemRecord {
  return { assetItemId, assetItemName: assetItemId, assetType: '1001', mimetype: 'text/plain', size: 6, fileName: `${assetItemId}.txt`, parentCollections: ['c'], domain: 'demo', createdBy: USER, updatedBy: USER, createdAt: AT, updatedAt: AT, blobId };
}

function versionRecord(versionId: string, version: number, blobId: string): VersionRecord {
  return { versionId, version, versionName: versionId, targetPlatform: 'generic', size: '9 B', sizeBytes: 9, fileName: 'v.txt', mimetype: 'text/plain', blobId, createdBy: USER, updatedBy: USER, active: true, createdAt: AT, updatedAt: AT };
}
