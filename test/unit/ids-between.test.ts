// The version ids a release reads after its upload to find another run's
// copy (src/plan/kinds/versions.ts idsBetween): those numbered between the
// highest it read and its own, in the service's format, never guessed.
import { describe, expect, it } from 'vitest';
import { idsBetween } from '../../src/plan/kinds/versions.js';
import type { Version } from '../../src/rules/schemas.js';

const made = (versionId: string, version: number) => ({ versionId, version }) as Version;

describe('idsBetween', () => {
  it('none when the upload took the next number', () => {
    expect(idsBetween(made('IOS5', 5), 4)).toEqual([]);
  });
  it('the numbers in between, in the id format of the upload (padded or not)', () => {
    expect(idsBetween(made('IOS7', 7), 4)).toEqual(['IOS5', 'IOS6']);
    expect(idsBetween(made('GEN0012', 12), 9)).toEqual(['GEN0010', 'GEN0011']);
  });
  it('undefined (read the whole list) when the format cannot be told or the ids are many', () => {
    expect(idsBetween(made('IOS100', 100), 98)).toBeUndefined();
    expect(idsBetween(made('v-x', 5), 3)).toBeUndefined();
    expect(idsBetween(made('IOS50', 50), 10)).toBeUndefined();
    expect(idsBetween(made('IOS5', 5), 9)).toBeUndefined();
  });
});
