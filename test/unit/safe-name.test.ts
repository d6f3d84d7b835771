import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { MAX_NAME_BYTES, NameAllocator, UnsafePathError, assertInside, fileNameFor, nameRulesFor, safeFileName } from '../../src/transfer/safe-name.js';

const LINUX = nameRulesFor('linux');
const WINDOWS = nameRulesFor('win32');
const MAC = nameRulesFor('darwin');

describe('safeFileName', () => {
  // cli.md "Release workflows": a name is kept exactly unless it cannot be a file name on the machine.
  it.each([
    ['report.pdf', 'report.pdf'],
    ['.hidden', '.hidden'],
    ['we"ird$name&.txt', 'we"ird$name&.txt'],
    ['with space.txt', 'with space.txt'],
    ['ünïcödé-名前.txt', 'ünïcödé-名前.txt'],
    ['ün.txt', 'ün.txt'],
    ['../x', 'x'],
    ['../../../../etc/passwd', 'passwd'],
    ['/etc/x', 'x'],
    ['..\\x', '..\\x'],
    ['a/b/c.txt', 'c.txt'],
    ['x/..', 'x'],
    ['./.', 'ITEM-1'],
    ['..', 'ITEM-1'],
    ['.', 'ITEM-1'],
    ['reports/q3/', 'q3'],
    ['a/.', 'a'],
    ['', 'ITEM-1'],
    ['   ', '   '],
    ['a\u0000b.txt', 'ab.txt'],
    ['line\nbreak\r.txt', 'linebreak.txt'],
    ['esc\u001b[31mred.txt', 'esc[31mred.txt'],
    ['what?<>:"|*.txt', 'what?<>:"|*.txt'],
    ['.bashrc', '.bashrc'],
    ['..hidden', '..hidden'],
    ['trailing. . ', 'trailing. . '],
    ['console.txt', 'console.txt'],
    ['CON', 'CON'],
    ['evil\u202etxt.exe', 'eviltxt.exe'],
    ['.a.txt.ahs-partial-123-0badf00d', '_a.txt.ahs-partial-123-0badf00d'],
    ['.a.txt.ahs-partial-0badf00d', '_a.txt.ahs-partial-0badf00d'],
    ['a.txt.ahs-partial-0badf00d', 'a.txt.ahs-partial-0badf00d'],
  ])('%j -> %j (Linux)', (raw, expected) => {
    expect(safeFileName(raw, 'ITEM-1', LINUX)).toBe(expected);
  });

  it.each([
    ['..\\x', 'x'],
    ['..\\..\\windows\\system32\\evil.dll', 'evil.dll'],
    ['C:\\x.txt', 'x.txt'],
    ['what?<>:"|*.txt', 'what_______.txt'],
    ['.bashrc', '.bashrc'],
    ['trailing. . ', 'trailing'],
    ['   ', 'ITEM-1'],
    ['we"ird$name&.txt', 'we_ird$name&.txt'],
  ])('%j -> %j (Windows)', (raw, expected) => {
    expect(safeFileName(raw, 'ITEM-1', WINDOWS)).toBe(expected);
  });

  it.each([
    ['.hidden', LINUX, undefined],
    ['a/b.txt', LINUX, 'a / cannot be in a file name'],
    ['..', LINUX, '.. cannot be a file name: named after its id'],
    ['', LINUX, 'the item has no name: named after its id'],
    ['a\nb', LINUX, 'a control character cannot be in a file name'],
    ['a\u202eb', LINUX, 'an invisible control character (bidi, zero width) would make the name read as another'],
    ['a:b', WINDOWS, 'Windows reserves < > : " | ? * in file names'],
    ['nul.txt', WINDOWS, 'Windows reserves the device names CON, PRN, AUX, NUL, COM1-9, LPT1-9'],
    ['a. ', WINDOWS, 'Windows drops trailing dots and spaces'],
    ['a\\b', WINDOWS, 'a / or \\ cannot be in a file name'],
    [`${'a'.repeat(300)}.txt`, LINUX, `longer than ${MAX_NAME_BYTES} bytes`],
    ['.x.ahs-partial-1-0badf00d', LINUX, "ahs's temporary files are named so (a later fetch would remove it)"],
  ])('the reason of a rename of %j', (raw, rules, reason) => {
    expect(fileNameFor(raw, 'ITEM-1', rules).reason).toBe(reason);
  });

  // Windows device names open the device, whatever the extension or case.
  it.each([
    ['CON', '_CON'],
    ['con', '_con'],
    ['PRN', '_PRN'],
    ['AUX', '_AUX'],
    ['NUL', '_NUL'],
    ['nul.txt', '_nul.txt'],
    ['CON.tar.gz', '_CON.tar.gz'],
    ['aux.', '_aux'],
    ['COM0', '_COM0'],
    ['COM1', '_COM1'],
    ['com9.log', '_com9.log'],
    ['COM\u00b9', '_COM\u00b9'],
    ['LPT1.log', '_LPT1.log'],
    ['lpt9', '_lpt9'],
    ['LPT\u00b3.txt', '_LPT\u00b3.txt'],
  ])('the device name %j -> %j (Windows)', (raw, expected) => {
    expect(safeFileName(raw, 'ITEM-1', WINDOWS)).toBe(expected);
  });

  it.each(['COM10', 'COMX', 'LPT', 'LPTa.txt', 'falcon', 'xnul.txt', 'icon.png', 'CONsole', 'NUL_.txt', 'prn-2'])('%j is not a device name: kept', (raw) => {
    expect(safeFileName(raw, 'ITEM-1', WINDOWS)).toBe(raw);
  });

  it('falls back to the item id, itself sanitised, then to "item"', () => {
    expect(safeFileName(undefined, 'ITM-7')).toBe('ITM-7');
    expect(safeFileName(null, '../ITM-8')).toBe('ITM-8');
    expect(safeFileName('/', '..')).toBe('item');
    expect(safeFileName('\u0000', '..', WINDOWS)).toBe('item');
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

  // MAX_NAME_BYTES is the cap: a name of exactly that many bytes is kept as
  // it is (even with a space before its extension, which a cut would strip).
  it.each([
    ['200 bytes, kept whole', `${'a'.repeat(195)} .txt`, `${'a'.repeat(195)} .txt`],
    ['201 bytes, cut to 200 keeping the extension', `${'a'.repeat(197)}.txt`, `${'a'.repeat(196)}.txt`],
    ['an extension of 16 characters with its dot is kept', `${'a'.repeat(300)}.${'e'.repeat(15)}`, `${'a'.repeat(184)}.${'e'.repeat(15)}`],
    ['a longer one is cut like the rest of the name', `${'a'.repeat(300)}.${'e'.repeat(16)}`, 'a'.repeat(200)],
    ['a cut that ends on a dot drops it', `${'a'.repeat(195)}.${'b'.repeat(20)}.txt`, `${'a'.repeat(195)}.txt`],
    ['a cut that ends on spaces drops them', `${'a'.repeat(194)}  ${'b'.repeat(20)}.txt`, `${'a'.repeat(194)}.txt`],
    ['a dot inside the kept part stays', `${'a'.repeat(10)}.${'b'.repeat(300)}.txt`, `${'a'.repeat(10)}.${'b'.repeat(185)}.txt`],
    ['a two-byte character is never cut in half', `a${'é'.repeat(150)}.txt`, `a${'é'.repeat(97)}.txt`],
  ])('%s', (_case, raw, expected) => {
    const name = safeFileName(raw, 'x');
    expect(name).toBe(expected);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
  });

  it('never yields a separator, a dot-dot or a control character', () => {
    const nasty = ['../', '..\\..\\', '/..', '\u0000', '.', '/a/../../b', 'a\\..\\..', '\\\\server\\share\\x', 'x\u0000/../y'];
    for (const raw of nasty) {
      for (const rules of [LINUX, WINDOWS]) {
        const name = safeFileName(raw, 'fallback', rules);
        expect(name).not.toMatch(rules.windows ? /[\\/\u0000-\u001f]/ : /[/\u0000-\u001f]/);
        expect(name).not.toBe('..');
        expect(name.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('NameAllocator', () => {
  it('dedupes collisions, ignoring case where the folders do (macOS, Windows), before the extension', () => {
    const names = new NameAllocator([], MAC);
    expect(names.allocate('a.txt', 'i1')).toBe('a.txt');
    expect(names.allocate('../a.txt', 'i2')).toBe('a (2).txt');
    expect(names.allocate('A.TXT', 'i3')).toBe('A (3).TXT');
    expect(names.allocate('noext', 'i4')).toBe('noext');
    expect(names.allocate('noext', 'i5')).toBe('noext (2)');
    expect(names.allocate('', 'i6')).toBe('i6');
  });

  it('on Linux, names that differ in case are two files; a rename says why', () => {
    const names = new NameAllocator([], LINUX);
    expect(names.allocateNamed('a.txt', 'i1')).toEqual({ name: 'a.txt' });
    expect(names.allocateNamed('A.txt', 'i2')).toEqual({ name: 'A.txt' });
    expect(names.allocateNamed('a.txt', 'i3')).toEqual({ name: 'a (2).txt', reason: 'another item has that name' });
    expect(names.allocateNamed('x/a.txt', 'i4')).toEqual({ name: 'a (3).txt', reason: 'a / cannot be in a file name; another item has that name' });
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

  it('a long "extension" is no extension: the suffix still fits under the cap', () => {
    const names = new NameAllocator();
    const long = `a.${'b'.repeat(198)}`;
    expect(names.allocate(long, 'i1')).toBe(long);
    expect(names.allocate(long, 'i2')).toBe(`a.${'b'.repeat(194)} (2)`);
  });

  it('names reserved up front are never handed out, ignoring case', () => {
    const names = new NameAllocator(['Manifest.json'], MAC);
    expect(names.allocate('manifest.json', 'i1')).toBe('manifest (2).json');
    expect(names.allocate('other.json', 'i2')).toBe('other.json');
  });
});

describe('assertInside', () => {
  const dir = resolve('/tmp/ahs-out');
  it('resolves a plain name inside the folder', () => {
    expect(assertInside(dir, 'a.txt')).toBe(join(dir, 'a.txt'));
    expect(assertInside(dir, '..hidden')).toBe(join(dir, '..hidden'));
    expect(assertInside(dir, '.hidden')).toBe(join(dir, '.hidden'));
    expect(assertInside('relative/dir', 'a.txt')).toBe(resolve('relative/dir', 'a.txt'));
  });
  it.each(['../x', '/etc/x', '..', '.', '', 'a/b', 'a/../../x', 'a/../b', './a'])('refuses %j', (name) => {
    expect(() => assertInside(dir, name)).toThrow(UnsafePathError);
  });
  it('names the error and the folder', () => {
    const error = (() => {
      try {
        assertInside(dir, '../x');
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('not refused');
    })();
    expect(error.name).toBe('UnsafePathError');
    expect(error.message).toBe(`refusing to write "../x": it would land outside ${dir}`);
  });
});
