// Storage behind the emulator (after Azurite's metadata store): one method
// per operation. Handlers read the state and never change it; each method
// applies its operation, makes it durable, and only then removes the files
// it released, while an upload's file is made durable before the metadata
// that names it. Two implementations: in memory (files in a temporary folder
// removed on close) and on disk (--data-dir), where metadata and files
// survive a restart and a kill -9 loses no acknowledged write. A kill -9
// alone would need no fsync (the kernel still writes what the process
// wrote); the fsyncs keep that promise through a power loss or a kernel crash
// too, as far as the disk honours them.
//
// On disk, metadata is a snapshot (`state.json`) plus an append-only journal
// (`journal.ndjson`) of the operations since: a write appends one line and
// fsyncs, so its cost does not grow with the state. Concurrent writes share
// one fsync. The journal is folded into the snapshot at start, at close,
// every COMPACT_EVERY operations and once small uploads hold HELD_BYTES.
//
// A streamed upload costs two fsyncs one after the other, not three: its
// file is renamed into `blobs/` first (until a journal line names it, a file
// there is an orphan that the next start removes), then the file's fsync and
// the folder's run together, the folder's shared by every upload renamed
// since the last one began; only once both have ended is the journal line
// that names the file written (the kernel may write a line out at any moment
// after that, so it must never name a file a crash can still lose).
//
// A small upload (held in memory, multipart.ts) is journalled whole: its
// bytes ride in its journal line (base64), made durable by the journal's one
// shared fsync, and stay in memory, where reads find them; no file is made
// for it then. A file per small upload cost an open that creates an inode, a
// write, a second open and an fdatasync for the file, and a share of the
// folder's fsync: a third of the emulator's CPU per upload and the main
// thread blocked in ext4's create (bench/README.md, "A small upload
// journalled whole"). Their files are written when the journal is folded into the
// snapshot (every COMPACT_EVERY operations, or once HELD_BYTES are held, at
// start, at close): each file written and fdatasynced, then the folder's
// fsync, and only then the snapshot replaces the journal. So a line may carry
// a file's bytes or name a file that a crash cannot lose, never a file that
// is neither; recovery writes the files of the lines it replays (a file left
// by an earlier try is overwritten with the same bytes).
import { randomUUID } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, fdatasync, fsync, openSync, writeFileSync, writeSync, type WriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { applyOperation, blobsReleasedBy, type AssetChanges, type ChannelWrite, type CollectionChanges, type Operation } from './operations.js';
import {
  emptyDomainState,
  emptyState,
  parseRecords,
  referencedBlobs,
  type AssetRecord,
  type CollectionDeploymentRecord,
  type CollectionRecord,
  type DomainState,
  type EmulatorState,
  type Frozen,
  type ItemRecord,
  type VersionRecord,
} from './state.js';

/**
 * An upload's file before the store adopts it: streamed to a temporary file,
 * or, for a small request, held in memory (src/emulator/multipart.ts).
 */
export type PendingBlob = StreamedBlob | { bytes: Buffer };

export interface StreamedBlob {
  /** Where the upload is being written. */
  path: string;
  stream: WriteStream;
}

export interface Store {
  /** Read only: change it through the methods below. */
  readonly state: Frozen<EmulatorState>;
  /** A domain's data (empty when nothing was stored in it yet). */
  domain(domainId: string): Frozen<DomainState>;

  createAsset(domainId: string, asset: AssetRecord): Promise<void>;
  updateAsset(domainId: string, assetId: string, changes: AssetChanges): Promise<void>;
  deleteAsset(domainId: string, assetId: string): Promise<void>;
  /** Stores the upload's file, then the version `make` builds with its blob id (synchronously, so it sees the latest state). */
  addVersion(domainId: string, assetId: string, upload: PendingBlob, make: (blobId: string) => VersionRecord): Promise<VersionRecord>;
  /** Removes the version and its deployment records, then its file. */
  deleteVersion(domainId: string, assetId: string, versionId: string): Promise<void>;
  /** Replaces channels of an asset (a deploy, an undeploy) in one write. */
  putChannels(domainId: string, assetId: string, channels: ChannelWrite[]): Promise<void>;

  createCollection(domainId: string, collection: CollectionRecord): Promise<void>;
  updateCollection(domainId: string, collectionId: string, changes: CollectionChanges): Promise<void>;
  deleteCollection(domainId: string, collectionId: string, deletedBy: string, at: string): Promise<void>;
  restoreCollection(domainId: string, collectionId: string, by: string, at: string): Promise<void>;
  /** Removes the collection, its deployments and `removeItems` (then their files); detaches `detachItems`. */
  purgeCollection(domainId: string, collectionId: string, removeItems: string[], detachItems: string[]): Promise<void>;
  /** Stores the upload's file, then the item `make` builds from its blob id and the domain's next item number. */
  addItem(domainId: string, collectionId: string, upload: PendingBlob, make: (blobId: string, sequence: number) => ItemRecord): Promise<ItemRecord>;
  /** Detaches an item from a collection; `forGood` also removes it (then its file). */
  removeItem(domainId: string, collectionId: string, itemId: string, forGood: boolean, at: string): Promise<void>;
  putCollectionDeployment(domainId: string, collectionId: string, envId: string, record: CollectionDeploymentRecord): Promise<void>;
  reconcileCollection(domainId: string, collectionId: string, envIds: string[], by: string, at: string): Promise<void>;
  removeCollectionDeployment(domainId: string, collectionId: string, envId: string): Promise<void>;

  /** A fresh temporary file for an upload in progress. */
  createPending(): StreamedBlob;
  /** Drops an upload that was rejected or broke off. */
  discard(pending: PendingBlob): Promise<void>;
  openBlob(blobId: string): Readable;
  blobSize(blobId: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The calls by which the store changes files and makes them durable, in one
 * place: the order of these calls is the crash safety of the store, and a
 * test records it (test/emulator/durability-order.test.ts).
 */
export interface Disk {
  rename(from: string, to: string): Promise<void>;
  /** Creates a file that does not exist yet with these (few) bytes (in memory only: not made durable). */
  createFile(path: string, bytes: Buffer): Promise<void>;
  /** Writes a file, replacing any left by an earlier try, and fdatasyncs it: its contents survive a crash. */
  writeSynced(path: string, bytes: Buffer): Promise<void>;
  unlink(path: string): Promise<void>;
  /** fdatasync of a finished file: its contents and size survive a crash. */
  syncFile(path: string): Promise<void>;
  /** fsync of a folder: the names created or renamed in it survive a crash. */
  syncFolder(path: string): Promise<void>;
  appendJournal(journal: FileHandle, text: string): Promise<void>;
  syncJournal(journal: FileHandle): Promise<void>;
  /** Replaces the snapshot atomically: temporary file, fsync, rename, folder fsync. */
  replaceSnapshot(dataDir: string, text: string): Promise<void>;
  /** Cuts the journal back to `length` bytes (0: a snapshot now holds its lines) and fsyncs it. */
  truncateJournal(journal: FileHandle, length?: number): Promise<void>;
}

export const realDisk: Disk = {
  rename,
  // At once, on the event loop: only small uploads come here (multipart.ts,
  // IN_MEMORY_BODY_BYTES), and through the thread pool its open, write and
  // close were three hand-offs that cost the one thread more than the write.
  createFile: async (path, bytes) => writeFileSync(path, bytes, { flag: 'wx' }),
  writeSynced: (path, bytes) => writeAndSync(path, bytes),
  unlink,
  syncFile: (path) => syncOpened(path, fdatasyncAsync),
  syncFolder: fsyncDir,
  // At once, as createFile: a write into the page cache is shorter than the
  // hand-off to the thread pool and back that an async write costs; only
  // the fsync after it waits for the disk.
  appendJournal: async (journal, text) => writeWhole(journal.fd, Buffer.from(text)),
  syncJournal: (journal) => journal.datasync(),
  replaceSnapshot: writeSnapshot,
  truncateJournal: async (journal, length = 0) => {
    await journal.truncate(length);
    await journal.sync();
  },
};

/** The operations, over files in `blobDir`; subclasses say how an operation is made durable. */
abstract class RecordStore implements Store {
  /** Small uploads' bytes that so far only the journal holds (DiskStore); reads find them here. */
  protected readonly held = new HeldBlobs();

  protected constructor(
    protected readonly data: EmulatorState,
    protected readonly blobDir: string,
    protected readonly tmpDir: string,
    protected readonly disk: Disk,
  ) {}

  get state(): Frozen<EmulatorState> {
    return this.data;
  }

  domain(domainId: string): Frozen<DomainState> {
    // An empty domain is the same as an absent one: creating it stores nothing.
    return (this.data.domains[domainId] ??= emptyDomainState());
  }

  /** Resolves once `operation` (already applied in memory) is durable; if it fails, the operation is taken back out of memory first. */
  protected abstract persist(operation: Operation): Promise<void>;
  /** Resolves once a file just renamed into `blobDir` survives a crash. */
  protected abstract blobDurable(path: string): Promise<void>;
  /** Takes a small upload's bytes under `blobId`, before the operation that names it is persisted. */
  protected abstract keepSmall(blobId: string, bytes: Buffer): Promise<void>;
  abstract close(): Promise<void>;

  private async commit(operation: Operation): Promise<void> {
    const released = blobsReleasedBy(this.data, operation);
    applyOperation(this.data, operation);
    await this.persist(operation);
    for (const blobId of released) await this.removeBlob(blobId);
  }

  private async commitUpload<T>(upload: PendingBlob, build: (blobId: string) => { record: T; operation: Operation }): Promise<T> {
    const blobId = await this.adopt(upload);
    let built: { record: T; operation: Operation };
    try {
      built = build(blobId);
    } catch (error) {
      await this.removeBlob(blobId);
      throw error;
    }
    applyOperation(this.data, built.operation);
    await this.persist(built.operation);
    return built.record;
  }

  createAsset(domainId: string, asset: AssetRecord) {
    return this.commit({ domainId, op: 'createAsset', asset });
  }
  updateAsset(domainId: string, assetId: string, changes: AssetChanges) {
    return this.commit({ domainId, op: 'updateAsset', assetId, changes });
  }
  deleteAsset(domainId: string, assetId: string) {
    return this.commit({ domainId, op: 'deleteAsset', assetId });
  }
  addVersion(domainId: string, assetId: string, upload: PendingBlob, make: (blobId: string) => VersionRecord) {
    return this.commitUpload(upload, (blobId) => {
      const version = make(blobId);
      return { record: version, operation: { domainId, op: 'addVersion', assetId, version } };
    });
  }
  deleteVersion(domainId: string, assetId: string, versionId: string) {
    return this.commit({ domainId, op: 'deleteVersion', assetId, versionId });
  }
  putChannels(domainId: string, assetId: string, channels: ChannelWrite[]) {
    return this.commit({ domainId, op: 'putChannels', assetId, channels });
  }
  createCollection(domainId: string, collection: CollectionRecord) {
    return this.commit({ domainId, op: 'createCollection', collection });
  }
  updateCollection(domainId: string, collectionId: string, changes: CollectionChanges) {
    return this.commit({ domainId, op: 'updateCollection', collectionId, changes });
  }
  deleteCollection(domainId: string, collectionId: string, deletedBy: string, at: string) {
    return this.commit({ domainId, op: 'deleteCollection', collectionId, deletedBy, at });
  }
  restoreCollection(domainId: string, collectionId: string, by: string, at: string) {
    return this.commit({ domainId, op: 'restoreCollection', collectionId, by, at });
  }
  purgeCollection(domainId: string, collectionId: string, removeItems: string[], detachItems: string[]) {
    return this.commit({ domainId, op: 'purgeCollection', collectionId, removeItems, detachItems });
  }
  addItem(domainId: string, collectionId: string, upload: PendingBlob, make: (blobId: string, sequence: number) => ItemRecord) {
    return this.commitUpload(upload, (blobId) => {
      const sequence = this.domain(domainId).itemSequence + 1;
      const item = make(blobId, sequence);
      return { record: item, operation: { domainId, op: 'addItem', collectionId, item, sequence } };
    });
  }
  removeItem(domainId: string, collectionId: string, itemId: string, forGood: boolean, at: string) {
    return this.commit({ domainId, op: 'removeItem', collectionId, itemId, forGood, at });
  }
  putCollectionDeployment(domainId: string, collectionId: string, envId: string, record: CollectionDeploymentRecord) {
    return this.commit({ domainId, op: 'putCollectionDeployment', collectionId, envId, record });
  }
  reconcileCollection(domainId: string, collectionId: string, envIds: string[], by: string, at: string) {
    return this.commit({ domainId, op: 'reconcileCollection', collectionId, envIds, by, at });
  }
  removeCollectionDeployment(domainId: string, collectionId: string, envId: string) {
    return this.commit({ domainId, op: 'removeCollectionDeployment', collectionId, envId });
  }

  // --- files -------------------------------------------------------------------

  createPending(): StreamedBlob {
    const path = join(this.tmpDir, `${randomUUID()}.part`);
    return { path, stream: createWriteStream(path, { flags: 'wx' }) };
  }

  /**
   * Moves a finished upload into the store (a small one is kept as
   * keepSmall says); returns its blob id once the file is durable. In place
   * before it is durable: no metadata names it yet, so a crash meanwhile
   * leaves an orphan that the next start removes.
   */
  private async adopt(pending: PendingBlob): Promise<string> {
    const blobId = randomUUID();
    const path = join(this.blobDir, blobId);
    try {
      if ('bytes' in pending) {
        await this.keepSmall(blobId, pending.bytes);
      } else {
        await this.disk.rename(pending.path, path);
        await this.blobDurable(path);
      }
    } catch (error) {
      await this.removeBlob(blobId);
      throw error;
    }
    return blobId;
  }

  async discard(pending: PendingBlob): Promise<void> {
    if ('bytes' in pending) return;
    // The file is opened asynchronously: remove it only once the stream is
    // closed, or a late open would leave it behind.
    if (!pending.stream.closed) {
      await new Promise<void>((resolve) => {
        pending.stream.once('close', () => resolve());
        pending.stream.destroy();
      });
    }
    await rm(pending.path, { force: true });
  }

  /**
   * The blob, read 1 MiB at a time: with the default 64 KiB pieces the
   * emulator spent 0.63 s of CPU serving 1 GiB against 0.46 s, and a client
   * beside it on the same two cores took twice as long (bench/README.md).
   */
  openBlob(blobId: string): Readable {
    const held = this.held.get(blobId);
    if (held) return Readable.from([held], { objectMode: false });
    return createReadStream(join(this.blobDir, blobId), { highWaterMark: BLOB_READ_BYTES });
  }

  async blobSize(blobId: string): Promise<number> {
    return this.held.get(blobId)?.length ?? (await stat(join(this.blobDir, blobId))).size;
  }

  protected async removeBlob(blobId: string): Promise<void> {
    this.held.delete(blobId);
    // Also for a held blob: a fold into the snapshot may have written its file.
    await this.disk.unlink(join(this.blobDir, blobId)).catch(() => undefined);
  }
}

/** State in memory; files in a temporary folder that close() removes. */
export class MemoryStore extends RecordStore {
  private constructor(private readonly root: string) {
    super(emptyState(), join(root, 'blobs'), join(root, 'tmp'), realDisk);
  }

  static async create(): Promise<MemoryStore> {
    const root = await mkdtemp(join(tmpdir(), 'ahs-emulator-'));
    await mkdir(join(root, 'blobs'));
    await mkdir(join(root, 'tmp'));
    return new MemoryStore(root);
  }

  protected async persist(): Promise<void> {}
  protected async blobDurable(): Promise<void> {}
  /** A file in the temporary folder, as a streamed upload's: nothing is held in memory for long. */
  protected async keepSmall(blobId: string, bytes: Buffer): Promise<void> {
    await this.disk.createFile(join(this.blobDir, blobId), bytes);
  }

  async close(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

/** How much of a blob the delivery reads at a time (see openBlob). */
const BLOB_READ_BYTES = 1024 * 1024;
/** Operations between two snapshots; a compaction costs a full write of the state. */
const COMPACT_EVERY = 20_000;
/**
 * Bytes of small uploads held in memory (and in the journal) beyond which
 * the journal is folded into the snapshot and their files written: 2,048
 * uploads of 4 KiB, whose files then cost a pause of about a second.
 */
const HELD_BYTES = 8 * 1024 * 1024;
const SNAPSHOT = 'state.json';
const JOURNAL = 'journal.ndjson';

interface Snapshot extends EmulatorState {
  /** The sequence number of the last journal operation the snapshot includes. */
  journalSeq?: number;
}

export interface DiskStoreOptions {
  /** Operations between two snapshots (COMPACT_EVERY). */
  compactEvery?: number;
  /** Bytes of small uploads held before a snapshot (HELD_BYTES). */
  heldBytes?: number;
  disk?: Disk;
}

interface QueuedWrite {
  seq: number;
  operation: Operation;
  line: string;
  done: () => void;
  failed: (error: unknown) => void;
}

/** State and files under a data directory; survives a restart. */
export class DiskStore extends RecordStore {
  private seq: number;
  private sinceSnapshot = 0;
  /** The journal's length: whole lines only (flush cuts back what a failed append left). */
  private journalBytes = 0;
  /** A failed append that could not be cut back: the journal may end in a torn line, and takes no more. */
  private broken: unknown;
  /** Lines since the snapshot when the last fold failed (a full disk): the next try waits for compactEvery more. */
  private foldFailedAt: number | undefined;
  private queue: QueuedWrite[] = [];
  private flushing: Promise<void> | undefined;
  private readonly blobFolder: SharedSync;

  private constructor(
    private readonly dataDir: string,
    data: EmulatorState,
    seq: number,
    private journal: FileHandle,
    private readonly compactEvery: number,
    private readonly heldLimit: number,
    disk: Disk,
  ) {
    super(data, join(dataDir, 'blobs'), join(dataDir, 'tmp'), disk);
    this.seq = seq;
    this.blobFolder = new SharedSync(() => this.disk.syncFolder(this.blobDir));
  }

  static async open(dataDir: string, { compactEvery = COMPACT_EVERY, heldBytes = HELD_BYTES, disk = realDisk }: DiskStoreOptions = {}): Promise<DiskStore> {
    await ensureDirectory(dataDir);
    await mkdir(join(dataDir, 'blobs'), { recursive: true });
    await removeCommitLeftovers(dataDir);
    // Uploads that never finished before a stop are dropped.
    await rm(join(dataDir, 'tmp'), { recursive: true, force: true });
    await mkdir(join(dataDir, 'tmp'), { recursive: true });
    const { state, seq, held } = await recover(dataDir);
    // Fold the journal into a fresh snapshot, and start an empty journal: the
    // files whose bytes only the journal held first.
    const referenced = referencedBlobs(state);
    await writeBlobs(disk, join(dataDir, 'blobs'), [...held].filter(([blobId]) => referenced.has(blobId)));
    await disk.replaceSnapshot(dataDir, snapshotText(state, seq));
    // Append mode: after a compaction truncates it, writes start again at the beginning.
    const journal = await open(join(dataDir, JOURNAL), 'a');
    await journal.truncate(0);
    await journal.sync();
    await fsyncDir(dataDir);
    const store = new DiskStore(dataDir, state, seq, journal, compactEvery, heldBytes, disk);
    await store.sweepOrphans();
    return store;
  }

  /** The file's fsync and its folder's, together: neither needs the other first. */
  protected async blobDurable(path: string): Promise<void> {
    await Promise.all([this.disk.syncFile(path), this.blobFolder.sync()]);
  }

  /** Durable with the journal line that names it (persist). */
  protected async keepSmall(blobId: string, bytes: Buffer): Promise<void> {
    this.held.set(blobId, bytes);
  }

  protected persist(operation: Operation): Promise<void> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    this.seq += 1;
    const seq = this.seq;
    // Still held: its file is not written, so its line carries the bytes.
    const bytes = this.held.get(uploadedBlob(operation) ?? '');
    const line = `${JSON.stringify(bytes ? { seq, operation, bytes: bytes.toString('base64') } : { seq, operation })}\n`;
    return new Promise<void>((done, failed) => {
      this.queue.push({ seq, operation, line, done, failed });
      this.flushing ??= this.flush();
    });
  }

  /**
   * Writes every queued line, one fsync per batch, until the queue is empty.
   * `flushing` is cleared in the same step that finds the queue empty, so a
   * write queued after that starts a new flush.
   */
  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const text = batch.map((write) => write.line).join('');
      try {
        await this.disk.appendJournal(this.journal, text);
        await this.disk.syncJournal(this.journal);
        this.journalBytes += Buffer.byteLength(text);
        this.sinceSnapshot += batch.length;
        for (const write of batch) write.done();
      } catch (error) {
        await this.cutBack(error);
        await this.rollBack(batch);
        for (const write of batch) write.failed(error);
      }
      if (this.foldDue()) {
        // A failed compaction leaves the journal whole: it is tried again after compactEvery more lines.
        await this.compact().then(
          () => (this.foldFailedAt = undefined),
          () => (this.foldFailedAt = this.sinceSnapshot),
        );
      }
    }
    this.flushing = undefined;
  }

  /**
   * After a failed append (a full disk, an I/O error part-way), the journal is
   * cut back to its last whole line: bytes of a torn line left in the middle
   * would make the next start refuse the journal, and the lines written after
   * it with it. If even that fails, the store takes no more writes.
   */
  private async cutBack(error: unknown): Promise<void> {
    try {
      await this.disk.truncateJournal(this.journal, this.journalBytes);
    } catch {
      this.broken = error;
    }
  }

  /**
   * Takes failed writes back out of memory, exactly (a write is applied only
   * once it is stored, emulator.md): the state becomes the durable one (the
   * snapshot and the journal, whole again after cutBack) with the writes
   * still queued applied over it. In place, domain by domain: handlers in
   * flight hold their domain's object.
   */
  private async rollBack(failed: QueuedWrite[]): Promise<void> {
    for (const write of failed) this.held.delete(uploadedBlob(write.operation) ?? '');
    let durable: EmulatorState;
    try {
      durable = (await recover(this.dataDir)).state;
    } catch (error) {
      // The journal cannot be read back: the store takes no more writes rather than serve a state it cannot prove.
      this.broken ??= error;
      return;
    }
    for (const write of this.queue) applyOperation(durable, write.operation);
    for (const domainId of new Set([...Object.keys(this.data.domains), ...Object.keys(durable.domains)])) {
      const current = this.data.domains[domainId] as unknown as Record<string, unknown> | undefined;
      const stored = durable.domains[domainId] ?? emptyDomainState();
      if (!current) this.data.domains[domainId] = stored;
      else {
        for (const key of Object.keys(current)) delete current[key];
        Object.assign(current, stored);
      }
    }
  }

  private foldDue(): boolean {
    const due = this.sinceSnapshot >= this.compactEvery || this.held.bytes >= this.heldLimit;
    return due && (this.foldFailedAt === undefined || this.sinceSnapshot >= this.foldFailedAt + this.compactEvery);
  }

  /**
   * Folds the journal into a new snapshot. The snapshot holds every operation
   * applied in memory so far, so queued ones are durable with it too; the
   * journal is emptied only once the snapshot is, and the files of the small
   * uploads it held are.
   */
  private async compact(): Promise<void> {
    // Taken now, in one step: operations applied while it is written belong to the journal.
    const seq = this.seq;
    const text = snapshotText(this.data, seq);
    const spilled = [...this.held];
    await writeBlobs(this.disk, this.blobDir, spilled);
    await this.disk.replaceSnapshot(this.dataDir, text);
    await this.disk.truncateJournal(this.journal);
    this.journalBytes = 0;
    // Their files are durable: a line written from now on need not carry their bytes.
    for (const [blobId, bytes] of spilled) this.held.release(blobId, bytes);
    this.sinceSnapshot = 0;
    const covered = this.queue.filter((write) => write.seq <= seq);
    this.queue = this.queue.filter((write) => write.seq > seq);
    for (const write of covered) write.done();
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.compact();
    await this.journal.close();
  }

  // Files whose metadata never got committed (a stop between the two).
  private async sweepOrphans(): Promise<void> {
    const referenced = referencedBlobs(this.data);
    for (const name of await readdir(this.blobDir)) {
      if (!referenced.has(name)) await this.removeBlob(name);
    }
  }
}

/** The last snapshot with the journal's later operations applied, and the bytes of the small uploads among them. */
async function recover(dataDir: string): Promise<{ state: EmulatorState; seq: number; held: Map<string, Buffer> }> {
  let state: Snapshot = emptyState();
  try {
    const parsed = parseRecords<Snapshot>(await readFile(join(dataDir, SNAPSHOT), 'utf8'));
    if (parsed.formatVersion !== 1 || typeof parsed.domains !== 'object') throw new Error(`unknown format in ${join(dataDir, SNAPSHOT)}`);
    state = parsed;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let seq = state.journalSeq ?? 0;
  delete state.journalSeq;
  let text = '';
  try {
    text = await readFile(join(dataDir, JOURNAL), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const held = new Map<string, Buffer>();
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line === '') continue;
    let entry: JournalEntry;
    try {
      entry = parseRecords<JournalEntry>(line);
    } catch (error) {
      // The last line may be cut short by a crash mid-write: it was never acknowledged.
      if (index === lines.length - 1) break;
      throw new Error(`${join(dataDir, JOURNAL)}: line ${index + 1} is not valid JSON (${(error as Error).message})`);
    }
    if (entry.seq <= seq) continue;
    applyOperation(state, entry.operation);
    const blobId = uploadedBlob(entry.operation);
    if (blobId !== undefined && entry.bytes !== undefined) held.set(blobId, Buffer.from(entry.bytes, 'base64'));
    seq = entry.seq;
  }
  return { state, seq, held };
}

interface JournalEntry {
  seq: number;
  operation: Operation;
  /** A small upload's file (base64), when its file was not written yet. */
  bytes?: string;
}

/** The blob an upload's operation names. */
function uploadedBlob(operation: Operation): string | undefined {
  if (operation.op === 'addItem') return operation.item.blobId;
  if (operation.op === 'addVersion') return operation.version.blobId;
  return undefined;
}

/** Writes and fdatasyncs each file, then fsyncs the folder: the files survive a crash once it resolves. */
async function writeBlobs(disk: Disk, blobDir: string, blobs: [string, Buffer][]): Promise<void> {
  if (blobs.length === 0) return;
  await Promise.all(blobs.map(([blobId, bytes]) => disk.writeSynced(join(blobDir, blobId), bytes)));
  await disk.syncFolder(blobDir);
}

/** Small uploads' bytes by blob id, and the memory they keep. */
class HeldBlobs {
  private readonly blobs = new Map<string, Buffer>();
  bytes = 0;

  /**
   * A file's bytes are a slice of the request's own buffer (multipart.ts
   * collect), which it keeps whole: counted as that, so the limit bounds
   * the memory held, not just the files' sizes.
   */
  private static kept(bytes: Buffer): number {
    return Math.max(bytes.length, bytes.buffer.byteLength);
  }

  get(blobId: string): Buffer | undefined {
    return this.blobs.get(blobId);
  }

  set(blobId: string, bytes: Buffer): void {
    this.delete(blobId);
    this.blobs.set(blobId, bytes);
    this.bytes += HeldBlobs.kept(bytes);
  }

  delete(blobId: string): void {
    const bytes = this.blobs.get(blobId);
    if (!bytes) return;
    this.blobs.delete(blobId);
    this.bytes -= HeldBlobs.kept(bytes);
  }

  /** Forgets a blob whose file is now durable (unless it was removed and taken again meanwhile). */
  release(blobId: string, bytes: Buffer): void {
    if (this.blobs.get(blobId) === bytes) this.delete(blobId);
  }

  [Symbol.iterator](): IterableIterator<[string, Buffer]> {
    return this.blobs.entries();
  }
}

function snapshotText(state: EmulatorState, journalSeq: number): string {
  return JSON.stringify({ ...state, journalSeq } satisfies Snapshot);
}

/** Replaces the snapshot atomically: temp file, fsync, rename, directory fsync. */
async function writeSnapshot(dataDir: string, text: string): Promise<void> {
  const target = join(dataDir, SNAPSHOT);
  const temp = `${target}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, target);
  await fsyncDir(dataDir);
}

/**
 * One fsync shared by its callers, as the journal's: sync() resolves once an
 * fsync that began after the call has ended, so it covers every name renamed
 * into the folder before the call. Callers that come while one runs share
 * the next, which begins when it ends.
 */
class SharedSync {
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(private readonly fsync: () => Promise<void>) {}

  sync(): Promise<void> {
    if (this.next) return this.next;
    if (!this.running) return this.begin();
    // Not the running one: it may have begun before the caller's rename.
    const next = this.running.catch(() => undefined).then(() => {
      this.next = undefined;
      return this.begin();
    });
    this.next = next;
    return next;
  }

  private begin(): Promise<void> {
    const running = this.fsync().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}

/**
 * Opens `path`, syncs it, closes it. The open and the close are made at once
 * (neither waits for the disk); only the sync goes to the thread pool: each
 * hand-off to it cost the event loop more than the call it carried, three per
 * upload where one is needed.
 */
async function syncOpened(path: string, sync: (fd: number) => Promise<void>): Promise<void> {
  const fd = openSync(path, 'r');
  try {
    await sync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Opens (replacing), writes at once, fdatasyncs through the thread pool (syncOpened). */
async function writeAndSync(path: string, bytes: Buffer): Promise<void> {
  const fd = openSync(path, 'w');
  try {
    writeWhole(fd, bytes);
    await fdatasyncAsync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A write may take fewer bytes than given (a full disk): the rest is written, or its error thrown. */
function writeWhole(fd: number, bytes: Buffer): void {
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
}

async function fsyncDir(path: string): Promise<void> {
  try {
    await syncOpened(path, fsyncAsync);
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  }
}

const fdatasyncAsync = promisify(fdatasync);
const fsyncAsync = promisify(fsync);

/** The data directory cannot be used (it names a file, or cannot be created). */
export class DataDirError extends Error {}

/**
 * Creates a folder and its missing parents one step at a time: Node's
 * recursive mkdir spins forever on some paths under /proc.
 */
async function ensureDirectory(path: string): Promise<void> {
  const missing: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      if ((await stat(current)).isDirectory()) break;
      throw new DataDirError(`${current} is not a directory`);
    } catch (error) {
      if (error instanceof DataDirError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw new DataDirError(`${current} is not a directory`);
      if (code !== 'ENOENT') throw new DataDirError(`cannot use ${current} (${code ?? (error as Error).message})`);
      missing.unshift(current);
      if (dirname(current) === current) break;
    }
  }
  for (const folder of missing) {
    try {
      await mkdir(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new DataDirError(`cannot create ${folder} (${code ?? (error as Error).message})`);
    }
  }
}

/** `state.json.<pid>.tmp` files of a snapshot cut short by a crash. */
async function removeCommitLeftovers(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir)) {
    if (/^state\.json\..+\.tmp$/.test(name)) await rm(join(dataDir, name), { force: true });
  }
}
