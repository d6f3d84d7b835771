// Storage behind the emulator (after Azurite): one interface, an in-memory
// implementation (files in a temporary folder removed on close) and an
// on-disk one (--data-dir) where metadata and files survive a restart.
//
// Metadata is one JSON document, rewritten atomically (temp file, fsync,
// rename) before a write is acknowledged; concurrent commits are grouped
// into one write. Files are streamed to a temp file, fsynced and renamed
// into place before the metadata that names them is committed.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { emptyState, referencedBlobs, type EmulatorState } from './state.js';

export interface PendingBlob {
  /** Where the upload is being written. */
  path: string;
  stream: WriteStream;
}

export interface Store {
  readonly state: EmulatorState;
  /** Makes every mutation of `state` so far durable; resolves once stored. */
  commit(): Promise<void>;
  /** A fresh temporary file for an upload in progress. */
  createPending(): PendingBlob;
  /** Moves a finished upload into the store (durably); returns its blob id. */
  adopt(pending: PendingBlob): Promise<string>;
  /** Drops an upload that was rejected. */
  discard(pending: PendingBlob): Promise<void>;
  openBlob(blobId: string): ReadStream;
  blobSize(blobId: string): Promise<number>;
  removeBlob(blobId: string): Promise<void>;
  close(): Promise<void>;
}

abstract class FileBlobs {
  constructor(
    protected readonly blobDir: string,
    protected readonly tmpDir: string,
    private readonly durable: boolean,
  ) {}

  createPending(): PendingBlob {
    const path = join(this.tmpDir, `${randomUUID()}.part`);
    return { path, stream: createWriteStream(path, { flags: 'wx' }) };
  }

  async adopt(pending: PendingBlob): Promise<string> {
    const blobId = randomUUID();
    if (this.durable) await fsyncFile(pending.path);
    await rename(pending.path, join(this.blobDir, blobId));
    if (this.durable) await fsyncDir(this.blobDir);
    return blobId;
  }

  async discard(pending: PendingBlob): Promise<void> {
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

  openBlob(blobId: string): ReadStream {
    return createReadStream(join(this.blobDir, blobId));
  }

  async blobSize(blobId: string): Promise<number> {
    return (await stat(join(this.blobDir, blobId))).size;
  }

  async removeBlob(blobId: string): Promise<void> {
    await unlink(join(this.blobDir, blobId)).catch(() => undefined);
  }
}

/** State in memory; files in a temporary folder that close() removes. */
export class MemoryStore extends FileBlobs implements Store {
  readonly state: EmulatorState = emptyState();

  private constructor(private readonly root: string) {
    super(join(root, 'blobs'), join(root, 'tmp'), false);
  }

  static async create(): Promise<MemoryStore> {
    const root = await mkdtemp(join(tmpdir(), 'ahs-emulator-'));
    await mkdir(join(root, 'blobs'));
    await mkdir(join(root, 'tmp'));
    return new MemoryStore(root);
  }

  async commit(): Promise<void> {}

  async close(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

/** State and files under a data directory; survives a restart. */
export class DiskStore extends FileBlobs implements Store {
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  private constructor(
    private readonly dataDir: string,
    readonly state: EmulatorState,
  ) {
    super(join(dataDir, 'blobs'), join(dataDir, 'tmp'), true);
  }

  static async open(dataDir: string): Promise<DiskStore> {
    await ensureDirectory(dataDir);
    await mkdir(join(dataDir, 'blobs'), { recursive: true });
    await removeCommitLeftovers(dataDir);
    // Uploads that never finished before a stop are dropped.
    await rm(join(dataDir, 'tmp'), { recursive: true, force: true });
    await mkdir(join(dataDir, 'tmp'), { recursive: true });
    let state = emptyState();
    try {
      const parsed = JSON.parse(await readFile(join(dataDir, 'state.json'), 'utf8')) as EmulatorState;
      if (parsed.formatVersion !== 1 || typeof parsed.domains !== 'object') throw new Error(`unknown format in ${join(dataDir, 'state.json')}`);
      state = parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const store = new DiskStore(dataDir, state);
    await store.sweepOrphans();
    return store;
  }

  commit(): Promise<void> {
    if (this.queued) return this.queued;
    const write = this.running.then(() => {
      this.queued = null;
      return this.writeState();
    });
    this.queued = write;
    this.running = write.catch(() => undefined);
    return write;
  }

  async close(): Promise<void> {
    await this.running;
  }

  private async writeState(): Promise<void> {
    const target = join(this.dataDir, 'state.json');
    const temp = `${target}.${process.pid}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(JSON.stringify(this.state));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
    await fsyncDir(this.dataDir);
  }

  // Files whose metadata never got committed (a stop between the two).
  private async sweepOrphans(): Promise<void> {
    const referenced = referencedBlobs(this.state);
    for (const name of await readdir(this.blobDir)) {
      if (!referenced.has(name)) await this.removeBlob(name);
    }
  }
}

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function fsyncDir(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  }
}

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

/** `state.json.<pid>.tmp` files of a commit cut short by a crash. */
async function removeCommitLeftovers(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir)) {
    if (/^state\.json\..+\.tmp$/.test(name)) await rm(join(dataDir, name), { force: true });
  }
}
