// The edges of every limit of the spec's "Limits" table, and the messages
// that name the flag and the limit.
import { describe, expect, it } from 'vitest';
import { assetCreateBody, collectionCreateBody, collectionId, deployBody, fieldLabel, flagFor, flagLabel, formatIssue, itemUploadFields, validate, versionUploadFields } from '../../src/rules/schemas.js';

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

// One line per problem, naming the field (a flag for the CLI, a body field
// for the emulator), what the field must be and what was given.
describe('messages', () => {
  it.each([
    ['a missing field', { assetName: 'App', assetType: '1001', createdBy: user }, ['--asset-id is required'], ['assetId is required']],
    ['fields not accepted', { ...asset, colour: 'red', sizeHint: 1 }, ['--colour, --size-hint not accepted here'], ['colour, sizeHint not accepted here']],
    ['a wrong type, with the value given', { ...asset, assetName: 42 }, ['--asset-name must be a string (got 42)'], ['assetName must be a string (got 42)']],
    ['a string of 40 characters is quoted', { ...asset, createdBy: 'x'.repeat(40) }, [`--created-by must be an e-mail address (got "${'x'.repeat(40)}")`], [`createdBy must be an e-mail address (got "${'x'.repeat(40)}")`]],
    ['a longer one is counted', { ...asset, createdBy: 'x'.repeat(41) }, ['--created-by must be an e-mail address (got 41 characters)'], ['createdBy must be an e-mail address (got 41 characters)']],
    ['a value that is not JSON is shown as text', { ...asset, assetName: Symbol.for('x') }, ['--asset-name must be a string (got Symbol(x))'], ['assetName must be a string (got Symbol(x))']],
    ['two problems, in order', { ...asset, assetId: '', localCacheMaxAge: 0 }, ['--asset-id must not be empty (got "")', '--local-cache-max-age must be an integer from 1 to 525600 (got 0)'], ['assetId must not be empty (got "")', 'localCacheMaxAge must be an integer from 1 to 525600 (got 0)']],
  ])('%s', (_case, body, asFlags, asFields) => {
    expect(messages(validate(assetCreateBody, body))).toEqual(asFlags);
    expect(messages(validate(assetCreateBody, body, fieldLabel))).toEqual(asFields);
  });

  it.each([
    ['a name that is not a string', { collectionName: 42 }, '--collection-name must be a string (got 42)'],
    ['a name too long', { collectionName: 'n'.repeat(51) }, '--collection-name must be at most 50 characters (got 51 characters)'],
    ['a description too long', { description: 'd'.repeat(401) }, '--description must be at most 400 characters (got 401 characters)'],
    ['a description that is not a string', { description: 7 }, '--description must be a string (got 7)'],
    ['maxAssets not a number', { maxAssets: 'ten' }, '--max-assets must be an integer from 1 to 5000 (got "ten")'],
    ['maxAssets not an integer', { maxAssets: 2.5 }, '--max-assets must be an integer from 1 to 5000 (got 2.5)'],
    ['maxAssets too small', { maxAssets: 0 }, '--max-assets must be an integer from 1 to 5000 (got 0)'],
    ['maxAssets too large', { maxAssets: 5001 }, '--max-assets must be an integer from 1 to 5000 (got 5001)'],
    ['allowedAssetTypes not a list', { allowedAssetTypes: '1001' }, '--allowed-asset-types must be a list of asset type codes (got "1001")'],
    ['allowedAssetTypes empty', { allowedAssetTypes: [] }, '--allowed-asset-types must name at least one asset type (got [])'],
  ])('collection create: %s', (_case, fields, message) => {
    expect(messages(validate(collectionCreateBody(), { ...collection, ...fields }))).toEqual([message]);
  });

  it('a list element is named by its list', () => {
    const body = { ...collection, allowedAssetTypes: ['1001', ''] };
    expect(messages(validate(collectionCreateBody(), body))).toEqual(['--allowed-asset-types must not be empty (got "")']);
    expect(messages(validate(collectionCreateBody(), body, fieldLabel))).toEqual(['allowedAssetTypes.1 must not be empty (got "")']);
  });

  it('a value without a field is "value" to the CLI and "body" to the emulator', () => {
    expect(messages(validate(collectionId, 'a b'))).toEqual(['value may contain only letters, digits, _ and - (got "a b")']);
    expect(fieldLabel([])).toBe('body');
    expect(flagLabel([0])).toBe('value');
    expect(flagLabel([0, 'assetId'])).toBe('--asset-id');
  });

  it.each([
    ['localCacheMaxAge', '--local-cache-max-age'],
    ['assetId', '--asset-id'],
    ['envId', '--env-id'],
    ['name', '--name'],
  ])('the flag of %s is %s', (field, flag) => {
    expect(flagFor(field)).toBe(flag);
  });

  it('a valid value comes back parsed', () => {
    expect(validate(assetCreateBody, asset)).toStrictEqual({ ok: true, data: asset });
  });
});

describe('an issue says what it got only when there was a value', () => {
  const rows: Array<[string, Record<string, unknown>, string]> = [
    ['a value', { code: 'custom', path: ['assetName'], message: 'is wrong', input: 'x' }, '--asset-name is wrong (got "x")'],
    ['no value given', { code: 'custom', path: ['assetName'], message: 'is wrong', input: undefined }, '--asset-name is wrong'],
    ['an issue that carries none', { code: 'custom', path: ['assetName'], message: 'is wrong' }, '--asset-name is wrong'],
    ['a falsy value', { code: 'custom', path: ['maxAssets'], message: 'is wrong', input: 0 }, '--max-assets is wrong (got 0)'],
  ];
  it.each(rows)('%s', (_, issue, expected) => expect(formatIssue(issue as never)).toBe(expected));
});
