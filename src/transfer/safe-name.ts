// File names in a delivery document (and in item records) come from the
// server and are untrusted. They become ONE path segment inside the target
// folder, never a path. cli.md ("Release workflows"): a file is written
// under its item's name exactly (a leading dot, quotes, `$`, `&`, spaces and
// non-ASCII included) unless that name cannot be a file name on this
// machine: a `/` (and `\` on Windows), `.` or `..`, a control character
// (C0, DEL, C1, and the invisible bidi and zero-width controls that make a
// name display as another), what the OS reserves (Windows: `<>:"|?*`, device
// names, trailing dots and spaces), a name longer than the cap (leaving
// room for the temporary `.NAME.ahs-partial-XXXX` name), or a name of ahs's
// own temporary files. Only then is it renamed, and fileNameFor() says why
// (fetch prints it and puts it in its JSON; item sync warns at upload;
// verify maps names the same way). Collisions get a ` (2)` suffix, ignoring
// case where this machine's folders do. assertInside() is the last guard
// before anything is written.
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Longest name we produce, in UTF-8 bytes; the partial-file name adds ~30 bytes and must stay under 255. */
export const MAX_NAME_BYTES = 200;

/** What the machine's file names allow: Windows reserves more, and macOS's and Windows' folders ignore case. */
export interface NameRules {
  windows: boolean;
  foldsCase: boolean;
}

export function nameRulesFor(platform: NodeJS.Platform): NameRules {
  return { windows: platform === 'win32', foldsCase: platform === 'win32' || platform === 'darwin' };
}

/** This machine's. */
export const HERE: NameRules = nameRulesFor(process.platform);

/** A file name for an item's name, and why it is not the item's name when it is not. */
export interface FileName {
  name: string;
  /** Set when `name` is not the item's own: why (e.g. "a / cannot be in a file name"). */
  reason?: string;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// Reserved on Windows; `/` and `\` never get here.
const RESERVED = /[<>:"|?*]/g;
// Bidi overrides and zero-width characters that make a name display as something else.
const DECEPTIVE = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;
// ahs's own temporary files (src/transfer/download.ts): a file of that name would be taken for one and removed.
const PARTIAL = /^\..*\.ahs-partial-(\d+-)?[0-9a-f]{8}$/;

/**
 * Turns an untrusted name into a safe single path segment, or returns the
 * sanitised fallback (the item id) when nothing usable is left.
 */
export function safeFileName(raw: string | null | undefined, fallback: string, rules: NameRules = HERE): string {
  return fileNameFor(raw, fallback, rules).name;
}

/** safeFileName with the reason of a rename (none when the name is kept exactly). */
export function fileNameFor(raw: string | null | undefined, fallback: string, rules: NameRules = HERE): FileName {
  const given = String(raw ?? '');
  const own = sanitize(given, rules);
  if (own.name !== '') return own.name === given ? { name: given } : { name: own.name, reason: own.reason ?? 'not a file name here' };
  const name = sanitize(fallback, rules).name || 'item';
  return { name, reason: given === '' ? 'the item has no name: named after its id' : `${own.reason ?? 'not a file name'}: named after its id` };
}

function sanitize(raw: string, rules: NameRules): { name: string; reason?: string } {
  const reasons: string[] = [];
  const because = (changed: boolean, reason: string) => {
    if (changed && !reasons.includes(reason)) reasons.push(reason);
  };
  let name = String(raw);
  // Only the last real segment of anything path-like: `../x`, `/etc/x`, `x/..` (and `..\x`, `C:\x` on Windows).
  const separators = rules.windows ? /[\\/]+/ : /\/+/;
  const all = name.split(separators);
  const segments = all.filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  because(all.length > 1, rules.windows ? 'a / or \\ cannot be in a file name' : 'a / cannot be in a file name');
  because(all.length === 1 && segments.length === 0 && name !== '', `${name} cannot be a file name`);
  name = segments.length > 0 ? segments[segments.length - 1]! : '';
  const before = name;
  name = name.replace(CONTROL, '');
  because(name !== before, 'a control character cannot be in a file name');
  const visible = name;
  name = name.replace(DECEPTIVE, '');
  because(name !== visible, 'an invisible control character (bidi, zero width) would make the name read as another');
  if (rules.windows) {
    const plain = name;
    name = name.replace(RESERVED, '_');
    because(name !== plain, 'Windows reserves < > : " | ? * in file names');
    const trimmed = name.replace(/[.\s]+$/, '');
    because(trimmed !== name, 'Windows drops trailing dots and spaces');
    name = trimmed;
  }
  if (name === '' || name === '.' || name === '..') return { name: '', ...(reasons[0] ? { reason: reasons.join('; ') } : {}) };
  if (rules.windows && WINDOWS_DEVICE.test(name)) {
    name = `_${name}`;
    because(true, 'Windows reserves the device names CON, PRN, AUX, NUL, COM1-9, LPT1-9');
  }
  if (PARTIAL.test(name)) {
    name = `_${name.slice(1)}`;
    because(true, "ahs's temporary files are named so (a later fetch would remove it)");
  }
  const capped = truncateBytes(name, MAX_NAME_BYTES);
  because(capped !== name, `longer than ${MAX_NAME_BYTES} bytes`);
  return { name: capped, ...(reasons[0] ? { reason: reasons.join('; ') } : {}) };
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
 * `a (2).txt`. Comparison ignores case where this machine's folders do
 * (macOS, Windows); elsewhere `A.txt` and `a.txt` are two files.
 */
export class NameAllocator {
  private readonly taken = new Set<string>();

  constructor(
    reserved: Iterable<string> = [],
    private readonly rules: NameRules = HERE,
  ) {
    for (const name of reserved) this.taken.add(this.key(name));
  }

  allocate(raw: string | null | undefined, fallback: string): string {
    return this.allocateNamed(raw, fallback).name;
  }

  /** The name, and why it is not the item's own when it is not (fetch prints it). */
  allocateNamed(raw: string | null | undefined, fallback: string): FileName {
    const base = fileNameFor(raw, fallback, this.rules);
    let candidate = base.name;
    for (let n = 2; this.taken.has(this.key(candidate)); n++) candidate = withSuffix(base.name, ` (${n})`);
    this.taken.add(this.key(candidate));
    if (candidate === base.name) return base;
    const clash = this.rules.foldsCase ? 'another item has that name (letter case aside: this machine\'s folders ignore it)' : 'another item has that name';
    return { name: candidate, reason: base.reason ? `${base.reason}; ${clash}` : clash };
  }

  private key(name: string): string {
    return this.rules.foldsCase ? name.normalize('NFC').toLowerCase() : name;
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
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`) || rel.includes(sep) || rel.includes('/') || rel !== name) {
    throw new UnsafePathError(`refusing to write ${JSON.stringify(name)}: it would land outside ${root}`);
  }
  return target;
}
