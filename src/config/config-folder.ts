// The config folder (AHS_CONFIG_DIR, or the user's config folder for ahs)
// and the lock that makes a profile write one read-modify-write at a time.
//
// The folder holds the API key: it is made 0700 whatever the umask (under
// umask 000 a default mkdir is 0777, and another user could replace the
// profiles file to redirect the key), one level at a time (a recursive mkdir
// under /proc never returns on Node 20, at 100% CPU). Every failure is one
// line naming the folder, what failed and how to fix it (exit 2).
//
// node:fs/promises is loaded by the functions that write: with the readline
// and fs watcher modules it brings, it was 0.8 ms of every run's start, and
// a read that finds its settings in the environment or the profiles file
// (read synchronously, profiles.ts) never needs it (issue 21).
import { dirname } from 'node:path';
import { ConflictError, UsageError } from '../errors.js';
import { escapeControls } from '../util/escape.js';

const FIX = 'set AHS_CONFIG_DIR to a writable folder';

/** What an errno means for the config folder, in words. */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOTDIR: 'a file is in the way, not a folder',
  ENOENT: 'the system does not allow a folder there',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links',
};

/** "cannot create the config folder D (at P: read-only file system); set AHS_CONFIG_DIR to a writable folder". */
export function configFolderError(what: string, dir: string, error: unknown, at?: string): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const reason = REASONS[code] ?? (error as Error).message;
  return new UsageError(`${what} the config folder ${dir} (${at && at !== dir ? `at ${at}: ` : ''}${reason}); ${FIX}`);
}

/**
 * Makes the folder (and its missing parents) 0700. An existing folder open to
 * other users is made 0700 when it is ours, before a key is written into it,
 * and named in a warning either way.
 */
export async function ensureConfigFolder(dir: string, warn: (text: string) => void | Promise<void>): Promise<void> {
  const { mkdir, stat } = await import('node:fs/promises');
  const missing: string[] = [];
  for (let path = dir; ; path = dirname(path)) {
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      // ENOTDIR: a file further up, found and named on the way there.
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw configFolderError('cannot use', dir, error, path);
    });
    if (info && !info.isDirectory()) throw configFolderError('cannot create', dir, Object.assign(new Error(), { code: 'ENOTDIR' }), path);
    if (info || dirname(path) === path) break;
    missing.unshift(path);
  }
  for (const path of missing) {
    await mkdir(path, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw configFolderError('cannot create', dir, error, path);
    });
  }
  if (missing.length === 0) await tighten(dir, warn);
}

/**
 * The folder holds the API key: yours alone (0700), as a folder ahs makes
 * is. One that existed before, open to others (0755: they list it; 0777:
 * they could replace the profiles file), is made 0700 when it is ours. One
 * of another user, or shared on purpose (sticky, as /tmp is), is left as it
 * is and named, with the fix.
 */
async function tighten(dir: string, warn: (text: string) => void | Promise<void>): Promise<void> {
  const { chmod, stat } = await import('node:fs/promises');
  const info = await stat(dir);
  const mode = info.mode & 0o7777;
  if ((mode & 0o077) === 0) return;
  const shown = (m: number) => m.toString(8).padStart(4, '0');
  // Messages keep their newlines: a folder's name must not add one.
  const name = escapeControls(dir);
  const tightened = mode & ~0o077;
  if (info.uid === process.getuid?.() && (mode & 0o1000) === 0) {
    const done = await chmod(dir, tightened).then(
      () => true,
      () => false,
    );
    if (done) {
      await warn(`the config folder ${name} was open to other users (mode ${shown(mode)}): made it ${shown(tightened)}, as it holds the API key`);
      return;
    }
  }
  const whose = info.uid === process.getuid?.() ? 'shared (sticky)' : 'not yours to change';
  await warn(`the config folder ${name} is open to other users (mode ${shown(mode)}) and ${whose}: run chmod 700 ${name}, or ${FIX} of your own`);
}

/** Longest wait for another run's lock; a write holds it for milliseconds. */
export const LOCK_WAIT_MS = 10_000;
/** A lock older than this is left from a run that died (its pid is checked first). */
const LOCK_STALE_MS = 30_000;

/**
 * Runs `change` holding `FILE.lock` (made with O_EXCL, holding our pid), so
 * that concurrent runs read, change and write the profiles one after the
 * other and none loses another's profile. A lock whose process is gone, or
 * older than LOCK_STALE_MS, is taken over; a live one is waited for, up to
 * LOCK_WAIT_MS, then exit 5 naming it.
 */
export async function withLock<T>(file: string, dir: string, change: () => Promise<T>, waitMs = LOCK_WAIT_MS): Promise<T> {
  const { open, rm } = await import('node:fs/promises');
  const lock = `${file}.lock`;
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close());
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw configFolderError('cannot write to', dir, error);
    }
    if (await removeIfStale(lock)) continue;
    if (Date.now() >= deadline) {
      throw new ConflictError(`another ahs run has held the profiles lock ${lock} for over ${Math.ceil(waitMs / 1000)} s; try again, or remove that file if no ahs is running`);
    }
    // Waiters spread out so they do not take turns in lockstep.
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, 5 * 2 ** attempt) * (0.5 + Math.random())));
  }
  try {
    return await change();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Removes a lock left by a run that died; whether it did. */
async function removeIfStale(lock: string): Promise<boolean> {
  const { readFile, rm, stat } = await import('node:fs/promises');
  const [info, text] = await Promise.all([stat(lock).catch(() => undefined), readFile(lock, 'utf8').catch(() => undefined)]);
  // Gone already: the holder finished; try again at once.
  if (!info || text === undefined) return true;
  const pid = Number.parseInt(text, 10);
  const old = Date.now() - info.mtimeMs > LOCK_STALE_MS;
  if (!old && !(pid > 0 && !alive(pid))) return false;
  // Only the lock judged stale: one taken meanwhile by another run has another inode or time.
  const again = await stat(lock).catch(() => undefined);
  if (again && again.ino === info.ino && again.mtimeMs === info.mtimeMs) await rm(lock, { force: true });
  return true;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
