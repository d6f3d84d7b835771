// The version id rule, the delete guards and undeploy
// (asset-hosting-api-v2.md: "Version" fields, "Other rules", undeploy row).
import { describe, expect, it } from 'vitest';
import { decideAssetDelete, decideAssetUndeploy, decideVersionDelete, nextVersionId } from '../../src/rules/index.js';

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
  });

  it('an asset with versions -> 400, asking to remove them', () => {
    const decision = decideAssetDelete('app', 2);
    expect(decision.status).toBe(400);
    if (!decision.ok) expect(decision.title).toMatch(/contains no versions/);
  });

  it('an asset without versions -> 204', () => {
    expect(decideAssetDelete('app', 0).status).toBe(204);
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

  it('no platform named -> 404', () => {
    expect(decideAssetUndeploy('prod', [], records).status).toBe(404);
  });
});
