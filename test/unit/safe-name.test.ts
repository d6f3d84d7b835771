import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { MAX_NAME_BYTES, NameAllocator, UnsafePathError, assertInside, safeFileName } from '../../src/transfer/safe-name.js';

describe('safeFileName', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../x', 'x'],
    ['../../../../etc/passwd', 'passwd'],
    ['/etc/x', 'x'],
    ['..\\x', 'x'],
    ['..\\..\\windows\\system32\\evil.dll', 'evil.dll'],
    ['C:\\x.txt', 'x.txt'],
    ['a/b/c.txt', 'c.txt'],
    ['x/..', 'x'],
    ['./.', 'ITEM-1'],
    ['..', 'ITEM-1'],
    ['', 'ITEM-1'],
    ['   ', 'ITEM-1'],
    ['a\u0000b.txt', 'ab.txt'],
    ['line\nbreak\r.txt', 'linebreak.txt'],
    ['esc\u001b[31mred.txt', 'esc[31mred.txt'],
    ['what?<>:"|*.txt', 'what_______.txt'],
    ['.bashrc', 'bashrc'],
    ['..hidden', 'hidden'],
    ['trailing. . ', 'trailing'],
    ['CON', '_CON'],
    ['nul.txt', '_nul.txt'],
    ['LPT1.log', '_LPT1.log'],
    ['console.txt', 'console.txt'],
    ['evil\u202etxt.exe', 'eviltxt.exe'],
  ])('%j -> %j', (raw, expected) => {
    expect(safeFileName(raw, 'ITEM-1')).toBe(expected);
  });

  it('falls back to the item id, itself sanitised, then to "item"', () => {
    expect(safeFileName(undefined, 'ITM-7')).toBe('ITM-7');
    expect(safeFileName(null, '../ITM-8')).toBe('ITM-8');
    expect(safeFileName('/', '..')).toBe('item');
  });

  it('caps very long names in bytes, keeping the extension and whole characters', () => {
    const long = `${'a'.repeat(5000)}.tar.gz`;
    const name = safeFileName(long, 'x');
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(name.endsWith('.gz')).toBe(true);
    const wide = `${'é'.repeat(300)}${'😀'.repeat(100)}.bin`;
    const capped = safeFileName(wide, 'x');
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(capped).not.toContain('\ufffd');
    expect(capped.endsWith('.bin')).toBe(true);
    // A long "extension" is not kept as one.
    expect(Buffer.byteLength(safeFileName(`a.${'b'.repeat(400)}`, 'x'))).toBeLessThanOrEqual(MAX_NAME_BYTES);
  });

  it('never yields a separator, a dot-dot or a control character', () => {
    const nasty = ['../', '..\\..\\', '/..', '\u0000', '.', '/a/../../b', 'a\\..\\..', '\\\\server\\share\\x', 'x\u0000/../y'];
    for (const raw of nasty) {
      const name = safeFileName(raw, 'fallback');
      expect(name).not.toMatch(/[\\/\u0000-\u001f]/);
      expect(name).not.toBe('..');
      expect(name.length).toBeGreaterThan(0);
    }
  });
});

describe('NameAllocator', () => {
  it('dedupes collisions, ignoring case, before the extension', () => {
    const names = new NameAllocator();
    expect(names.allocate('a.txt', 'i1')).toBe('a.txt');
    expect(names.allocate('../a.txt', 'i2')).toBe('a (2).txt');
    expect(names.allocate('A.TXT', 'i3')).toBe('A (3).TXT');
    expect(names.allocate('noext', 'i4')).toBe('noext');
    expect(names.allocate('noext', 'i5')).toBe('noext (2)');
    expect(names.allocate('', 'i6')).toBe('i6');
  });

  it('keeps deduped long names under the cap', () => {
    const names = new NameAllocator();
    const long = `${'z'.repeat(400)}.dat`;
    const first = names.allocate(long, 'a');
    const second = names.allocate(long, 'b');
    expect(second).not.toBe(first);
    expect(Buffer.byteLength(second)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(second.endsWith(' (2).dat')).toBe(true);
  });
});

describe('assertInside', () => {
  const dir = resolve('/tmp/ahs-out');
  it('resolves a plain name inside the folder', () => {
    expect(assertInside(dir, 'a.txt')).toBe(join(dir, 'a.txt'));
    expect(assertInside('relative/dir', 'a.txt')).toBe(resolve('relative/dir', 'a.txt'));
  });
  it.each(['../x', '/etc/x', '..', '.', '', 'a/b', 'a/../../x'])('refuses %j', (name) => {
    expect(() => assertInside(dir, name)).toThrow(UnsafePathError);
  });
});
