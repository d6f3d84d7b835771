// The version `size` string read as a number and a unit, within its rounding,
// whatever units the service uses (cli.md, release).
import { describe, expect, it } from 'vitest';
import { readSize, sizeAgrees } from '../../src/service/size.js';

describe('sizeAgrees', () => {
  it.each([
    ['512 B', 512, true],
    ['512 B', 513, false],
    ['1.5 KB', 1500, true],
    ['1.5 KB', 1549, true],
    ['1.5 KB', 1700, false],
    ['12.3 MB', 12_345_678, true],
    ['12.3 MB', 12_500_000, false],
    ['1.05 MiB', 1_100_000, true],
    ['1.05 MiB', 1_150_000, false],
    ['2 GiB', 2 * 2 ** 30, true],
    ['7B', 7, true],
    ['1,5 kB', 1500, true],
  ])('%s vs %i bytes: %s', (text, bytes, expected) => {
    expect(sizeAgrees(text, bytes)).toBe(expected);
  });

  it('a string that is not a number and a known unit agrees with nothing', () => {
    expect(readSize('large')).toBeUndefined();
    expect(readSize('12 parsecs')).toBeUndefined();
    expect(sizeAgrees('', 0)).toBe(false);
  });
});
