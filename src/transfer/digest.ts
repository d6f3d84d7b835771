// Content identity (issue 22). The service gives no checksum, so ahs takes
// SHA-256 itself: of a local file (streamed, never held whole; once per file
// per run, as sync, release and verify may ask for the same file twice), of
// a download as it streams (to disk, src/transfer/download.ts, or nowhere:
// verify and sync --checksum only need the digest), and of the lines of a
// sums file as `sha256sum -c` reads them.
import { createHash, type Hash } from 'node:crypto';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { escapeControls } from '../util/escape.js';

/** A running SHA-256: fed each piece as it passes, read once at the end. */
export interface Digest {
  update(chunk: Buffer): void;
  /** Lowercase hex. */
  hex(): string;
}

export function sha256(): Digest {
  const hash: Hash = createHash('sha256');
  return {
    update: (chunk) => void hash.update(chunk),
    hex: () => hash.digest('hex'),
  };
}

/** Pieces read from disk at a time: 1 MiB, as the upload reads (transfer/upload.ts). */
const PIECE = 1024 * 1024;

/**
 * Digests of local files taken in this run, by path, size and modification
 * time: a file rewritten meanwhile (another size or mtime) is read again.
 */
const taken = new Map<string, Promise<string>>();

/** SHA-256 of a local file, streamed; taken once per file per run. A file that cannot be read is a usage error naming it (exit 2), never a raw system error. */
export async function fileSha256(path: string): Promise<string> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw unreadable(path, error);
  });
  const key = `${path}\u0000${info.size}\u0000${info.mtimeMs}`;
  let digest = taken.get(key);
  if (!digest) {
    digest = hashFile(path);
    taken.set(key, digest);
    // A failed read is not remembered: the next ask reads again.
    digest.catch(() => taken.delete(key));
  }
  return digest;
}

/**
 * Read into one buffer, reused for every piece: a new 1 MiB buffer per piece
 * (a read stream) kept `ahs verify` of a 1 GiB file at 100 to 130 MB of
 * memory, twice a download's (bench/README.md).
 */
async function hashFile(path: string): Promise<string> {
  const digest = sha256();
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'r');
    const buffer = Buffer.allocUnsafeSlow(PIECE);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, PIECE, null);
      if (bytesRead === 0) break;
      digest.update(buffer.subarray(0, bytesRead));
    }
  } catch (error) {
    throw unreadable(path, error as NodeJS.ErrnoException);
  } finally {
    await file?.close();
  }
  return digest.hex();
}

function unreadable(path: string, error: NodeJS.ErrnoException): UsageError {
  return new UsageError(`cannot read ${escapeControls(path)}: ${readFailure(error)}`);
}

function readFailure(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'EIO':
      return 'input/output error (EIO)';
    default:
      return error.message;
  }
}

/** Digests by file name, from a sums file. */
export type Sums = Map<string, string>;

/**
 * The lines of a sums file as `sha256sum -c` (GNU coreutils) reads them:
 * `<hex>  <name>` (text mode), `<hex> *<name>` (binary mode; the same bytes
 * on Linux), `<hex> <name>` (one space or a tab, as BSD's `-r` writes) and
 * `SHA256 (<name>) = <hex>` (`--tag`), after any leading white space; a
 * line that starts with `\` has an escaped name (`\\`, `\n`, `\r`, as
 * sha256sum writes a name holding a backslash or a line break). A name is
 * the file's name: a leading `./` is dropped. Blank lines and `#` comments
 * are skipped, a CR before the line break is dropped (a file written on
 * Windows); any other line is a usage error naming its number, as is a name
 * given twice with two digests.
 */
export function parseSums(text: string, source: string): Sums {
  const sums: Sums = new Map();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const entry = sumsLine(line);
    const where = `${escapeControls(source)}:${index + 1}`;
    if (!entry) throw new UsageError(`${where}: not a SHA-256 line (expected "<64 hex digits>  <file name>" or "SHA256 (<file name>) = <64 hex digits>", as sha256sum writes them): ${JSON.stringify(escapeControls(line.slice(0, 80)))}`);
    const before = sums.get(entry.name);
    if (before !== undefined && before !== entry.hex) throw new UsageError(`${where}: ${escapeControls(entry.name)} is listed twice with two different digests`);
    sums.set(entry.name, entry.hex);
  });
  if (sums.size === 0) throw new UsageError(`${escapeControls(source)}: no SHA-256 line in it (expected "<64 hex digits>  <file name>" lines, as sha256sum writes them)`);
  return sums;
}

const TAGGED = /^SHA256 \((.+)\) = ([0-9a-fA-F]{64})$/;
const PLAIN = /^([0-9a-fA-F]{64})[ \t][ *]?(.+)$/;

/** One line's digest (lowercase) and name, or undefined when it is not a SHA-256 line. */
function sumsLine(line: string): { hex: string; name: string } | undefined {
  let rest = line.replace(/^[ \t]+/, '');
  const escaped = rest.startsWith('\\');
  if (escaped) rest = rest.slice(1);
  const tagged = TAGGED.exec(rest);
  const plain = tagged ? undefined : PLAIN.exec(rest);
  const [hex, raw] = tagged ? [tagged[2]!, tagged[1]!] : plain ? [plain[1]!, plain[2]!] : [];
  if (hex === undefined || raw === undefined) return undefined;
  const name = escaped ? unescapeName(raw) : raw;
  if (name === undefined) return undefined;
  return { hex: hex.toLowerCase(), name: name.replace(/^(\.\/)+/, '') };
}

/** sha256sum's escapes: `\\` a backslash, `\n` a line feed, `\r` a carriage return; any other is not its output. */
function unescapeName(raw: string): string | undefined {
  let name = '';
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== '\\') {
      name += raw[i];
      continue;
    }
    const next = raw[++i];
    if (next === '\\') name += '\\';
    else if (next === 'n') name += '\n';
    else if (next === 'r') name += '\r';
    else return undefined;
  }
  return name;
}

/** A sums line found for a file name: its digest and the name it lists (with a folder when found by base name). */
export type SumsMatch = { hex: string; listedAs: string } | { ambiguous: string[] } | undefined;

/**
 * Finds a file's line in a sums file: the line of its name, else the one
 * line whose base name it is. `sha256sum dist/*` lists `dist/a.txt`, and
 * `sha256sum -c` run beside dist/ checks dist/a.txt: the items and files
 * ahs compares have no folder, so that line is a.txt's. Two lines of that
 * base name in two folders are ambiguous: neither is taken.
 */
export function sumsFinder(sums: Sums): (name: string) => SumsMatch {
  const byBase = new Map<string, string[]>();
  for (const listed of sums.keys()) {
    const slash = listed.lastIndexOf('/');
    if (slash < 0) continue;
    const base = listed.slice(slash + 1);
    byBase.set(base, [...(byBase.get(base) ?? []), listed]);
  }
  return (name) => {
    const exact = sums.get(name);
    if (exact !== undefined) return { hex: exact, listedAs: name };
    const candidates = byBase.get(name) ?? [];
    if (candidates.length === 1) return { hex: sums.get(candidates[0]!)!, listedAs: candidates[0]! };
    return candidates.length > 1 ? { ambiguous: candidates } : undefined;
  };
}

/** How to write a sums file whose names are the files' own: from inside their folder. */
export function sumsFromInside(listed: string): string {
  const folder = listed.slice(0, listed.lastIndexOf('/')) || '.';
  return `list one folder's files from inside it (cd ${folder} && sha256sum * > SHA256SUMS)`;
}

/** A sums file read and parsed; an unreadable one is a usage error naming the flag that gave it. */
export async function readSums(path: string, flag: string): Promise<Sums> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag} ${escapeControls(path)}: cannot read it: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}`);
  }
  return parseSums(text, path);
}

/** A digest as people read it in a line: the first 12 hex digits (JSON carries the whole). */
export function shortDigest(hex: string): string {
  return hex.slice(0, 12);
}
