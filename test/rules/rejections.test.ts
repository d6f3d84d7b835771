// Rejections carry a kind a caller decides from, never the title's wording.
import { describe, expect, it } from 'vitest';
import * as made from '../../src/rules/rejections.js';
import { decideCollectionDeploy, decideVersionDeploy, emptyChannel, type Rejection } from '../../src/rules/index.js';

const all = Object.entries(made).filter((entry): entry is [string, (...args: never[]) => Rejection] => typeof entry[1] === 'function');

describe('rejection constructors', () => {
  it('each names itself in `code`', () => {
    // Arguments do not change the code; a one-element array reads as a string and as a list.
    const sample = (fn: (...args: never[]) => Rejection) => (fn as (...args: unknown[]) => Rejection)(['x'], ['y'], ['z'], ['w']);
    for (const [name, fn] of all) expect(sample(fn).code, name).toBe(name);
  });

  it('an unknown asset type, platform or environment is an unknown reference, not a missing resource', () => {
    for (const rejection of [
      made.unknownAssetType('4242', 'demo'),
      made.unknownAllowedAssetTypes(['4242'], 'demo', ['1001']),
      made.unknownEnvironment('nosuch', 'demo', ['dev'], 400),
      made.unknownPlatform('tv', 'demo', ['ios']),
      made.platformRequired('targetPlatformId', ['ios']),
    ]) {
      expect(rejection.kind).toBe('unknown-reference');
      expect(rejection).not.toHaveProperty('resource');
    }
  });

  it('not-found names the missing resource and keeps the status the spec gives', () => {
    expect(made.assetNotFound('a', 'demo')).toMatchObject({ kind: 'not-found', resource: 'asset', status: 404 });
    expect(made.versionNotFoundForPlatform('IOS1', 'android', 'a', 'ios')).toMatchObject({ kind: 'not-found', resource: 'version', status: 404, title: 'Version IOS1 not found for platform android under Virtual Asset a (it is a ios version)' });
    expect(made.collectionNotFound('c', 400)).toMatchObject({ kind: 'not-found', resource: 'collection', status: 400 });
    expect(made.itemNotInCollection('i', 'c')).toMatchObject({ kind: 'not-found', resource: 'item', status: 404 });
  });

  it('the rules answer with them', () => {
    const busy = decideVersionDeploy({ ...emptyChannel(), midDeployment: true }, { versionId: 'IOS1', intent: 'LIVE', createdBy: 'a@b' });
    expect(busy).toMatchObject({ ok: false, status: 500, kind: 'state', code: 'midDeployment' });
    expect(decideCollectionDeploy('c', undefined, { envId: 'dev', state: 'LIVE' })).toMatchObject({ kind: 'not-found', resource: 'collection', status: 400 });
  });
});
