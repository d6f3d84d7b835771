// The edges of every limit of the spec's "Limits" table, and the messages
// that name the flag and the limit.
import { describe, expect, it } from 'vitest';
import { assetCreateBody, collectionCreateBody, collectionId, deployBody, itemUploadFields, validate, versionUploadFields } from '../../src/rules/schemas.js';

const user = 'owner@demo.test';
const asset = { assetId: 'app', assetName: 'App', assetType: '1001', createdBy: user };
const collection = { collectionId: 'bundle', collectionName: 'Bundle', allowedAssetTypes: ['1001'], createdBy: user };

function messages(result: ReturnType<typeof validate>): string[] {
  return result.ok ? [] : result.messages;
}

describe.each([
  ['assetId', 64],
  ['assetName', 64],
  ['description', 400],
])('asset %s length', (field, max) => {
  it(`${max} accepted`, () => expect(validate(assetCreateBody, { ...asset, [field]: 'a'.repeat(max) }).ok).toBe(true));
  it(`${max + 1} rejected`, () => expect(validate(assetCreateBody, { ...asset, [field]: 'a'.repeat(max + 1) }).ok).toBe(false));
});

describe.each([
  ['collectionId', 50],
  ['collectionName', 50],
  ['description', 400],
])('collection %s length', (field, max) => {
  it(`${max} accepted`, () => expect(validate(collectionCreateBody(), { ...collection, [field]: 'a'.repeat(max) }).ok).toBe(true));
  it(`${max + 1} rejected`, () => expect(validate(collectionCreateBody(), { ...collection, [field]: 'a'.repeat(max + 1) }).ok).toBe(false));
});

describe.each([
  ['versionName', versionUploadFields, { createdBy: user }],
  ['assetItemName', itemUploadFields, { createdBy: user, assetType: '1001' }],
])('%s length', (field, schema, rest) => {
  it('64 accepted', () => expect(validate(schema, { ...rest, [field]: 'v'.repeat(64) }).ok).toBe(true));
  it('65 rejected', () => expect(validate(schema, { ...rest, [field]: 'v'.repeat(65) }).ok).toBe(false));
});

describe('localCacheMaxAge: integer 1 to 525600', () => {
  it.each([
    [0, false],
    [1, true],
    [525600, true],
    [525601, false],
    [1.5, false],
  ])('%s -> accepted %s', (value, ok) => {
    expect(validate(assetCreateBody, { ...asset, localCacheMaxAge: value }).ok).toBe(ok);
    expect(validate(collectionCreateBody(), { ...collection, localCacheMaxAge: value }).ok).toBe(ok);
  });
  it('names the flag, the limit and the value', () => {
    expect(messages(validate(assetCreateBody, { ...asset, localCacheMaxAge: 0 }))).toEqual(['--local-cache-max-age must be an integer from 1 to 525600 (got 0)']);
  });
});

describe('maxAssets: 1 to the service ceiling', () => {
  it.each([
    [0, false],
    [1, true],
    [5000, true],
    [5001, false],
  ])('%s -> accepted %s', (value, ok) => {
    expect(validate(collectionCreateBody(), { ...collection, maxAssets: value }).ok).toBe(ok);
  });
  it('a configured lower ceiling applies', () => {
    expect(validate(collectionCreateBody(100), { ...collection, maxAssets: 101 }).ok).toBe(false);
  });
});

describe('collectionId charset: letters, digits, _ and -', () => {
  it.each([
    ['release_2026-11', true],
    ['a/b', false],
    ['a b', false],
    ['ümlaut', false],
  ])('%s -> accepted %s', (value, ok) => {
    expect(validate(collectionId, value).ok).toBe(ok);
  });
});

describe('required fields and bodies', () => {
  it('a missing required field is named', () => {
    expect(messages(validate(assetCreateBody, { assetName: 'x', assetType: '1001', createdBy: user }))).toEqual(['--asset-id is required']);
  });
  it('allowedAssetTypes must not be empty', () => {
    expect(validate(collectionCreateBody(), { ...collection, allowedAssetTypes: [] }).ok).toBe(false);
  });
  it('deploy intent must be LIVE, OFFLINE or DEFAULT; currentAssetIntent exactly LIVE', () => {
    expect(validate(deployBody, { envId: 'dev', intent: 'PAUSED' }).ok).toBe(false);
    expect(validate(deployBody, { envId: 'dev', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'OFFLINE' }).ok).toBe(false);
    expect(validate(deployBody, { envId: 'dev', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' }).ok).toBe(true);
  });
});
