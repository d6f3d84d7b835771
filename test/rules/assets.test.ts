// The version id rule, the delete guards and undeploy
// (asset-hosting-api-v2.md: "Version" fields, "Other rules", undeploy row).
import { describe, expect, it } from 'vitest';
import { decideAssetCreate, decideAssetDelete, decideAssetUndeploy, decideVersionDelete, formatSize, nextVersionId } from '../../src/rules/index.js';
import { recordList } from '../../src/rules/assets.js';
import type { AssetUrl } from '../../src/rules/schemas.js';

describe('version id: first three letters of the platform, uppercased, plus the per-platform sequence', () => {
  it.each([
    ['ios', 0, 'IOS1', 1],
    ['ios', 1, 'IOS2', 2],
    ['android', 0, 'AND1', 1],
    ['generic', 41, 'GEN42', 42],
    ['web', 0, 'WEB1', 1],
  ])('%s after %i -> %s', (platform, last, versionId, version) => {
    expect(nextVersionId(platform, last)).toEqual({ versionId, version });
  });
});

// emulator.md: "decimal units, one decimal place". The emulator answers this
// string and the dry run predicts it with the same function, so only a table
// of expected strings notices a wrong unit or boundary.
describe('version size: decimal units, one decimal place', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [999, '999 B'],
    [1000, '1.0 KB'],
    [1500, '1.5 KB'],
    [999_949, '999.9 KB'],
    // 999.95 KB would round to "1000.0 KB": it moves up a unit first.
    [999_950, '1.0 MB'],
    [12_345_678, '12.3 MB'],
    [999_950_000, '1.0 GB'],
    [2_500_000_000, '2.5 GB'],
    [1.5e12, '1.5 TB'],
    [3e15, '3.0 PB'],
    // Past the last unit the number grows instead.
    [5e18, '5000.0 PB'],
  ])('%d bytes -> %s', (bytes, expected) => {
    expect(formatSize(bytes)).toBe(expected);
  });
});

describe('asset create: the assetId is unique in its domain', () => {
  it('a new id -> 201 created', () => {
    expect(decideAssetCreate('app', false)).toStrictEqual({ ok: true, status: 201, next: 'created', effects: [] });
  });
  it('an id in use -> 409', () => {
    expect(decideAssetCreate('app', true)).toMatchObject({ ok: false, status: 409, code: 'assetIdInUse' });
  });
});

describe('delete guards', () => {
  it.each([
    ['LIVE in one environment', [{ envId: 'prod', state: 'LIVE' as const }], 400],
    ['DEFAULT in one environment', [{ envId: 'staging', state: 'DEFAULT' as const }], 400],
    ['OFFLINE everywhere', [{ envId: 'prod', state: 'OFFLINE' as const }, { envId: 'dev', state: 'OFFLINE' as const }], 204],
    ['never deployed', [], 204],
  ])('a version %s -> %i', (_case, records, status) => {
    const decision = decideVersionDelete('IOS1', records);
    expect(decision.status).toBe(status);
    if (!decision.ok) expect(decision.title).toMatch(/set it OFFLINE in all environments/);
    else expect(decision.next).toBe('deleted');
  });

  it('names every environment that blocks the delete', () => {
    const decision = decideVersionDelete('IOS1', [
      { envId: 'prod', state: 'DEFAULT' },
      { envId: 'dev', state: 'OFFLINE' },
      { envId: 'staging', state: 'LIVE' },
    ]);
    expect(decision.ok ? '' : decision.title).toBe('Version IOS1 is DEFAULT in prod, LIVE in staging; set it OFFLINE in all environments before deleting it');
  });

  it('an asset with versions -> 400, asking to remove them', () => {
    const decision = decideAssetDelete('app', 2);
    expect(decision.status).toBe(400);
    if (!decision.ok) expect(decision.title).toMatch(/contains no versions/);
  });

  it('an asset without versions -> 204', () => {
    expect(decideAssetDelete('app', 0)).toMatchObject({ status: 204, next: 'deleted' });
  });
});

describe('undeploy (asset): every record of the named platforms in the environment is removed', () => {
  const records = [
    { versionId: 'IOS1', targetPlatform: 'ios' },
    { versionId: 'IOS2', targetPlatform: 'ios' },
    { versionId: 'AND1', targetPlatform: 'android' },
  ];

  it('counts records across versions and platforms', () => {
    const decision = decideAssetUndeploy('prod', ['ios'], records);
    expect(decision.ok && decision.next).toEqual({ totalUndeployedVersions: 2 });
    expect(decision.ok && decision.message).toBe('Asset Container undeployed successfully.');
  });

  // The effect's description is what --dry-run prints.
  it.each([
    [['ios'], 'removeRecords 2: 2 deployment record(s) removed in prod for ios (IOS1, IOS2)'],
    [['ios', 'android'], 'removeRecords 3: 3 deployment record(s) removed in prod for ios, android (IOS1, IOS2, AND1)'],
    [['web'], 'removeRecords 0: 0 deployment record(s) removed in prod for web'],
  ])('%j -> %s', (platforms, expected) => {
    const decision = decideAssetUndeploy('prod', platforms, records);
    if (!decision.ok) throw new Error(decision.title);
    expect(decision.effects.map((effect) => `${effect.kind} ${'count' in effect ? effect.count : ''}: ${effect.description}`)).toEqual([expected]);
  });

  it('no platform named -> 404', () => {
    expect(decideAssetUndeploy('prod', [], records).status).toBe(404);
  });
});

describe('recordList: deployment records in one line, newest version first', () => {
  const record = (targetPlatform: string, version: number, state: 'LIVE' | 'OFFLINE') => ({ targetPlatform, version, versionId: `${targetPlatform.slice(0, 3).toUpperCase()}${version}`, state }) as unknown as AssetUrl;

  it('one platform: no platform named', () => {
    expect(recordList([record('ios', 2, 'OFFLINE'), record('ios', 3, 'LIVE')])).toBe('IOS3 LIVE, IOS2 OFFLINE');
  });
  it('several platforms: each named, platforms in order', () => {
    expect(recordList([record('web', 1, 'LIVE'), record('ios', 1, 'OFFLINE'), record('ios', 4, 'LIVE')])).toBe('ios IOS4 LIVE, ios IOS1 OFFLINE, web WEB1 LIVE');
  });
  it('none: empty', () => {
    expect(recordList([])).toBe('');
  });
});
