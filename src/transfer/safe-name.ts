// File names in a delivery document (and in item records) come from the
// server and are untrusted. They become ONE path segment inside the target
// folder, never a path: separators, `..`, absolute paths, control characters,
// characters Windows refuses and its device names are neutralised, the length
// is capped (leaving room for the temporary `.NAME.ahs-partial-XXXX` name),
// and collisions get a ` (2)` suffix. assertInside() is the last guard before
// anything is written.
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Longest name we produce, in UTF-8 bytes; the partial-file name adds ~30 bytes and must stay under 255. */
export const MAX_NAME_BYTES = 200;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// Reserved on Windows (and awkward everywhere); `/` and `\` never get here.
const RESERVED = /[<>:"|?*]/g;
// Bidi overrides and zero-width characters that make a name display as something else.
const DECEPTIVE = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;

/**
 * Turns an untrusted name into a safe single path segment, or returns the
 * sanitised fallback (the item id) when nothing usable is left.
 */
export function safeFileName(raw: string | null | undefined, fallback: string): string {
  return sanitize(raw ?? '') || sanitize(fallback) || 'item';
}

function sanitize(raw: string): string {
  let name = String(raw).normalize('NFC');
  // Only the last real segment of anything path-like: `../x`, `/etc/x`, `..\x`, `C:\x`, `x/..`.
  const segments = name.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  name = segments.length > 0 ? segments[segments.length - 1]! : '';
  name = name.replace(CONTROL, '').replace(DECEPTIVE, '').replace(RESERVED, '_');
  // No hidden files (and no clash with our own `.NAME.ahs-partial-*`), no
  // leading spaces; Windows drops trailing dots and spaces.
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (name === '') return '';
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  return truncateBytes(name, MAX_NAME_BYTES);
}

/** Caps a name's UTF-8 length, keeping a short extension and never cutting a character in half. */
function truncateBytes(name: string, max: number): string {
  if (Buffer.byteLength(name) <= max) return name;
  const [stem, ext] = splitExtension(name);
  const room = max - Buffer.byteLength(ext);
  let out = '';
  for (const char of stem) {
    if (Buffer.byteLength(out + char) > room) break;
    out += char;
  }
  return out.replace(/[.\s]+$/, '') + ext;
}

/**
 * A name's stem and its extension. Only a short tail (15 characters after the
 * dot) counts as an extension: a longer one, kept whole, could leave no room
 * for the stem or a ` (2)` suffix under the cap, so it is part of the stem.
 */
function splitExtension(name: string): [stem: string, ext: string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 && name.length - dot <= 16 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/**
 * Hands out unique names in one folder: the second `a.txt` becomes
 * `a (2).txt`. Comparison ignores case, since macOS and Windows folders do.
 */
export class NameAllocator {
  private readonly taken = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.taken.add(name.toLowerCase());
  }

  allocate(raw: string | null | undefined, fallback: string): string {
    const base = safeFileName(raw, fallback);
    let candidate = base;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = withSuffix(base, ` (${n})`);
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

function withSuffix(name: string, suffix: string): string {
  const [stem, ext] = splitExtension(name);
  return truncateBytes(stem, MAX_NAME_BYTES - Buffer.byteLength(suffix + ext)) + suffix + ext;
}

export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
}

/**
 * The absolute path of `name` directly inside `dir`, or an UnsafePathError
 * when it would land anywhere else. Call it with names from safeFileName();
 * it is the guard that holds even if sanitising ever missed a case.
 */
export function assertInside(dir: string, name: string): string {
  const root = resolve(dir);
  const target = resolve(root, name);
  const rel = relative(root, target);
  if (rel === '' || isAbsolute(rel) || rel.startsWith('..') || rel.includes(sep) || rel.includes('/') || rel !== name) {
    throw new UnsafePathError(`refusing to write ${JSON.stringify(name)}: it would land outside ${root}`);
  }
  return target;
}
