// Rejections carry a kind a caller decides from, never the title's wording.
import { describe, expect, it } from 'vitest';
import * as made from '../../src/rules/rejections.js';
import { decideCollectionDeploy, decideVersionDeploy, emptyChannel, type MissingResource, type Rejection, type RejectionKind } from '../../src/rules/index.js';

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
    expect(made.versionNotFoundForPlatform('IOS1', 'android', 'a', 'ios')).toMatchObject({ kind: 'not-found', resource: 'version', status: 404, title: 'Version IOS1 not found for platform android under Virtual Asset a (it is an ios version)' });
    expect(made.collectionNotFound('c', 400)).toMatchObject({ kind: 'not-found', resource: 'collection', status: 400 });
    expect(made.itemNotInCollection('i', 'c')).toMatchObject({ kind: 'not-found', resource: 'item', status: 404 });
  });

  it('the rules answer with them', () => {
    const busy = decideVersionDeploy({ ...emptyChannel(), midDeployment: true }, { versionId: 'IOS1', intent: 'LIVE', createdBy: 'a@b' });
    expect(busy).toMatchObject({ ok: false, status: 500, kind: 'state', code: 'midDeployment' });
    expect(decideCollectionDeploy('c', undefined, { envId: 'dev', state: 'LIVE' })).toMatchObject({ kind: 'not-found', resource: 'collection', status: 400 });
  });
});

// Every rejection the service gives, one row each (two where an argument
// changes the wording): the status of the spec's error tables, the kind a
// caller decides from, and the title a user reads (the emulator's wording,
// which must say what is wrong and how to fix it).
type Row = [code: string, args: unknown[], status: number, kind: RejectionKind, resource: MissingResource | undefined, title: string];
const catalogue: Row[] = [
  ['assetNotFound', ['app', 'demo'], 404, 'not-found', 'asset', 'Virtual Asset app not found in domain demo'],
  ['assetInactive', ['app'], 404, 'not-found', 'asset', 'Virtual Asset app not found: it is inactive; make it active to use its versions: ahs asset update app --active'],
  ['versionNotFound', ['IOS1', 'app'], 404, 'not-found', 'version', 'Version IOS1 not found under Virtual Asset app'],
  ['versionNotFoundForPlatform', ['IOS1', 'android', 'app'], 404, 'not-found', 'version', 'Version IOS1 not found for platform android under Virtual Asset app'],
  ['versionNotFoundForPlatform', ['IOS1', 'android', 'app', 'ios'], 404, 'not-found', 'version', 'Version IOS1 not found for platform android under Virtual Asset app (it is an ios version)'],
  ['versionNotFoundForPlatform', ['IOS1', 'ios', 'app', 'ios'], 404, 'not-found', 'version', 'Version IOS1 not found for platform ios under Virtual Asset app'],
  ['currentDefaultNotFound', ['IOS9'], 404, 'not-found', 'version', 'Current Default version IOS9 not found on this channel'],
  ['collectionNotFound', ['bundle', 400], 400, 'not-found', 'collection', 'Collection bundle not found'],
  ['collectionNotFound', ['bundle', 404], 404, 'not-found', 'collection', 'Collection bundle not found'],
  ['collectionNotFoundOrNeverDeployed', ['bundle'], 404, 'not-found', 'collection', 'Collection bundle not found or never deployed'],
  ['itemNotInCollection', ['item-1', 'bundle'], 404, 'not-found', 'item', 'Item item-1 not found in collection bundle'],
  ['anchorNotInCollection', ['item-1', 'bundle'], 400, 'not-found', 'item', 'anchorAsset: item item-1 not found in collection bundle; name one of its items'],
  ['unknownAssetType', ['4242', 'demo'], 404, 'unknown-reference', undefined, 'Asset type 4242 not found or not active in domain demo'],
  ['unknownAllowedAssetTypes', [['4242', '4243'], 'demo', ['1001', '1002']], 400, 'unknown-reference', undefined, 'allowedAssetTypes: asset type 4242, 4243 not found in domain demo; use 1001, 1002'],
  ['platformRequired', ['targetPlatformId', ['ios', 'android']], 404, 'unknown-reference', undefined, 'Target platform not found: targetPlatformId is required (one of ios, android)'],
  ['unknownPlatform', ['tv', 'demo', ['ios', 'android']], 404, 'unknown-reference', undefined, 'Target platform tv not found in domain demo; use one of ios, android'],
  ['unknownCollectionPlatform', ['tv', 'demo', ['generic', 'web']], 400, 'unknown-reference', undefined, 'targetPlatform tv not found in domain demo; use one of generic, web'],
  ['environmentRequired', [['dev', 'prod']], 404, 'unknown-reference', undefined, 'Environment not found: envId is required (one of dev, prod)'],
  ['environmentRequired', [['dev', 'prod'], 400], 400, 'unknown-reference', undefined, 'Environment not found: envId is required (one of dev, prod)'],
  ['unknownEnvironment', ['qa', 'demo', ['dev', 'prod']], 404, 'unknown-reference', undefined, 'Environment qa not found in domain demo; use one of dev, prod'],
  ['unknownEnvironment', ['qa', 'demo', ['dev', 'prod'], 400], 400, 'unknown-reference', undefined, 'Environment qa not found in domain demo; use one of dev, prod'],
  ['undeployPlatformsMissing', [], 404, 'unknown-reference', undefined, 'targetPlatforms must name at least one target platform'],
  ['undeployPlatformsMissing', [['ios', 'web']], 404, 'unknown-reference', undefined, 'targetPlatforms must name at least one target platform (one of ios, web)'],
  ['assetIdInUse', ['app'], 409, 'conflict', undefined, 'Virtual Asset id app is already in use; choose another assetId'],
  ['collectionIdInUse', ['bundle', false], 409, 'conflict', undefined, 'Collection id bundle is already in use'],
  ['collectionIdInUse', ['bundle', true], 409, 'conflict', undefined, 'Collection id bundle is already in use (by a deleted collection; restore or purge it)'],
  ['defaultPointerMoved', ['IOS1'], 409, 'conflict', undefined, 'The Default pointer moved: IOS1 is no longer DEFAULT; retry with a fresh currentVersionId'],
  ['defaultPointerMoved', ['IOS1', 'IOS2'], 409, 'conflict', undefined, 'The Default pointer moved: IOS1 is no longer DEFAULT (now IOS2); retry with a fresh currentVersionId'],
  ['midDeployment', [], 500, 'state', undefined, 'The channel is already mid-deployment; wait for the running deployment to finish and try again'],
  ['collectionMidDeployment', ['bundle', 'prod'], 500, 'state', undefined, 'Collection bundle is already mid-deployment in prod; wait for it to finish and try again'],
  ['firstDeployIntentInvalid', ['DEFAULT'], 404, 'state', undefined, 'Intent DEFAULT is not valid for a first deploy; only LIVE or OFFLINE can be used until the version is deployed'],
  ['firstDeployIntentInvalid', [undefined], 404, 'state', undefined, 'Intent (missing) is not valid for a first deploy; only LIVE or OFFLINE can be used until the version is deployed'],
  ['alreadyInTargetState', ['IOS1', 'LIVE'], 400, 'state', undefined, 'Version IOS1 is already in the target state LIVE'],
  ['versionIsDefault', ['IOS1'], 400, 'state', undefined, 'Version IOS1 is the current DEFAULT; promote another version to DEFAULT first, which demotes this one'],
  ['offlineToDefault', ['IOS1'], 400, 'state', undefined, 'Version IOS1 is OFFLINE; deploy it LIVE before promoting it to DEFAULT'],
  ['defaultExistsWithoutDemotion', ['IOS1'], 400, 'state', undefined, 'Version IOS1 is already DEFAULT on this channel; send currentVersionId=IOS1 and currentAssetIntent=LIVE to demote it'],
  ['notTheDefault', ['IOS3'], 400, 'state', undefined, 'Version IOS3 is not the DEFAULT on this channel; it cannot be demoted'],
  ['versionStillDeployed', ['IOS1', 'LIVE in prod'], 400, 'state', undefined, 'Version IOS1 is LIVE in prod; set it OFFLINE in all environments before deleting it'],
  ['assetHasVersions', ['app', 2], 400, 'state', undefined, 'Virtual Asset app has 2 version(s); make sure the Virtual Asset contains no versions before deleting it'],
  ['collectionDeleted', ['bundle'], 400, 'state', undefined, 'Collection bundle is deleted; restore it first'],
  ['collectionAlreadyDeleted', ['bundle'], 400, 'state', undefined, 'Collection bundle is already deleted'],
  ['collectionLive', ['bundle', ['dev', 'prod']], 400, 'state', undefined, 'Collection bundle is LIVE in dev, prod and must be made OFFLINE first'],
  ['collectionNotDeleted', ['bundle', 'restore'], 400, 'state', undefined, 'Collection bundle is not deleted; only a deleted collection can be restored'],
  ['collectionNotDeleted', ['bundle', 'purge'], 400, 'state', undefined, 'Collection bundle is not deleted; delete it before purging it'],
  ['maxAssetsBelowItemCount', [2, 3], 400, 'state', undefined, 'maxAssets 2 is below the collection\'s current item count 3; remove items first or choose at least 3'],
  ['collectionNotEditable', ['bundle', 'add'], 400, 'state', undefined, 'Collection bundle is not editable; set editable to true to add items'],
  ['collectionNotEditable', ['bundle', 'remove'], 400, 'state', undefined, 'Collection bundle is not editable; set editable to true to remove items'],
  ['itemLimitReached', ['bundle', 10], 400, 'state', undefined, 'Collection bundle has reached its item limit (maxAssets 10); raise maxAssets or remove items first'],
  ['collectionNotDeployable', ['bundle'], 400, 'state', undefined, 'Collection bundle is not deployable; set deployable to true first'],
  ['collectionHasNoItems', ['bundle'], 400, 'state', undefined, 'Collection bundle has no items; upload at least one item before deploying'],
  ['collectionAlreadyInState', ['bundle', 'LIVE', 'prod'], 400, 'state', undefined, 'Collection bundle is already LIVE in prod'],
  ['collectionNotDeployedForOffline', ['bundle', 'prod'], 400, 'state', undefined, 'Collection bundle is not deployed in prod; deploy it LIVE before taking it OFFLINE'],
  ['collectionNotLiveAnywhere', ['bundle'], 400, 'state', undefined, 'Collection bundle is not LIVE in any environment; reconcile never creates a deployment, deploy it first'],
  ['collectionNotLiveToUndeploy', ['bundle', 'prod', 'OFFLINE'], 400, 'state', undefined, 'Collection bundle is not LIVE in prod (OFFLINE); only a LIVE deployment can be undeployed'],
  ['noDeployedUrl', ['bundle', 'prod', 'not deployed'], 400, 'state', undefined, 'No deployed URL for collection bundle in prod; it is not deployed there'],
  ['apiKeyMissing', [], 403, 'access', undefined, 'Missing apikey header; send the API key of the domain in the apikey header'],
  ['apiKeyOfAnotherDomain', ['demo'], 403, 'access', undefined, 'Invalid apikey for domain demo; the key belongs to another domain'],
  ['apiKeyInvalid', [], 403, 'access', undefined, 'Invalid apikey; check the API key of the domain'],
  ['keyScopedElsewhere', ['dev', 'prod'], 403, 'access', undefined, 'This API key is scoped to environment dev; it cannot act in prod'],
  ['keyScopedDeploy', ['dev', 'prod'], 403, 'access', undefined, 'This API key is scoped to environment dev; it cannot deploy to prod'],
  ['securedContentNeedsKey', [], 403, 'access', undefined, 'This content is secured; send an API key of its domain in the apikey header'],
  ['deliveryKeyInvalid', ['demo'], 403, 'access', undefined, 'Invalid apikey for domain demo'],
  ['uploadTooLarge', [100], 403, 'plan-limit', undefined, 'The file is larger than the plan\'s upload limit of 100 bytes; upload a smaller file or raise the plan'],
  ['storageLimitReached', [1000, 900], 403, 'plan-limit', undefined, 'The plan\'s storage limit of 1000 bytes is reached (900 bytes stored); remove versions or items first'],
  ['invalidFields', [['--asset-id is required', '--asset-name must not be empty']], 400, 'validation', undefined, '--asset-id is required; --asset-name must not be empty'],
  ['invalidFields', [['envId is required'], 404], 404, 'validation', undefined, 'envId is required'],
  ['actingUserRequired', ['createdBy', 'for the first deploy of a version'], 500, 'validation', undefined, 'createdBy is required for the first deploy of a version'],
  ['actingUserNotAllowed', ['createdBy', 'viewer@demo.test', 'demo'], 400, 'validation', undefined, 'createdBy viewer@demo.test is not an active admin or owner of domain demo; use the e-mail of an active admin or owner'],
  ['noActingUserInDomain', ['demo'], 400, 'validation', undefined, 'Domain demo has no active admin or owner to act as; send updatedBy'],
  ['republishIntentInvalid', ['GONE'], 400, 'validation', undefined, 'Intent GONE is not recognized; use LIVE, OFFLINE or DEFAULT'],
  ['republishIntentInvalid', [undefined], 400, 'validation', undefined, 'Intent (missing) is not recognized; use LIVE, OFFLINE or DEFAULT'],
  ['currentAssetIntentInvalid', ['OFFLINE'], 400, 'validation', undefined, 'currentAssetIntent must be LIVE when demoting the current Default (got OFFLINE)'],
  ['currentAssetIntentInvalid', [undefined], 400, 'validation', undefined, 'currentAssetIntent must be LIVE when demoting the current Default (got (missing))'],
  ['collectionStateInvalid', ['DEFAULT'], 400, 'validation', undefined, 'state must be LIVE or OFFLINE (got DEFAULT)'],
  ['collectionStateInvalid', [undefined], 400, 'validation', undefined, 'state must be LIVE or OFFLINE (got (missing))'],
  ['envIdRequiredWithDomainKey', [], 400, 'validation', undefined, 'envId is required with a domain-wide API key'],
  ['fieldsNotUpdatable', [['collectionId', 'secured']], 400, 'validation', undefined, 'collectionId, secured cannot be updated (permanent after create)'],
  ['fieldsNotUpdatable', [['deleted']], 400, 'validation', undefined, 'deleted cannot be updated; use delete or restore'],
  ['fieldsNotUpdatable', [['assetItems']], 400, 'validation', undefined, 'assetItems cannot be updated; add or remove items through the items endpoints'],
  ['assetTypeRequired', [], 400, 'validation', undefined, 'assetType is required'],
  ['assetTypeNotAllowedInCollection', ['1002', 'bundle', ['1001', '9999']], 400, 'validation', undefined, 'Asset type 1002 is not allowed in collection bundle; use one of 1001, 9999'],
  ['noFileUploaded', [], 400, 'validation', undefined, 'No file uploaded: send the file in the multipart field assetFile'],
  ['fileTypeNotAllowed', ['.exe', 'app.exe', '1001', ['.zip', '.js']], 400, 'validation', undefined, 'File type .exe of app.exe is not allowed for asset type 1001; allowed: .zip, .js'],
  ['fileTypeNotAllowed', ['', 'Makefile', '1001', ['.zip']], 400, 'validation', undefined, 'File type (none) of Makefile is not allowed for asset type 1001; allowed: .zip'],
  ['queryParamInvalid', ['pageSize', 'ten', 'an integer from 1 to 500'], 400, 'validation', undefined, 'pageSize must be an integer from 1 to 500 (got ten)'],
  ['jsonBodyTooLarge', [1024], 400, 'validation', undefined, 'The JSON body is larger than 1024 bytes'],
  ['jsonBodyTooDeep', [64], 400, 'validation', undefined, 'The JSON body is nested deeper than 64 levels'],
  ['percentEncodingInvalid', ['path segment', '%E0%A4%A'], 400, 'validation', undefined, 'The path segment %E0%A4%A is not valid percent-encoding; encode each id and value with encodeURIComponent'],
  ['requestMalformed', ['Parse Error: Invalid method'], 400, 'validation', undefined, 'Malformed HTTP request: Parse Error: Invalid method'],
  ['requestHeadersTooLarge', [], 431, 'validation', undefined, 'The request headers are too large'],
  ['requestTimedOut', [], 408, 'validation', undefined, 'The request was not received in time; send the whole request without pausing'],
  ['jsonBodyInvalid', [], 400, 'validation', undefined, 'The request body is not valid JSON; send a JSON object with Content-Type: application/json'],
  ['jsonBodyNotObject', [], 400, 'validation', undefined, 'The request body must be a JSON object'],
  ['multipartMalformed', ['Unexpected end of form'], 400, 'validation', undefined, 'Malformed multipart/form-data request: Unexpected end of form'],
  ['uploadAborted', [], 400, 'validation', undefined, 'The upload was aborted by the client'],
  ['noEndpoint', ['GET', '/api/v2/demo/nothing'], 404, 'unknown-reference', undefined, 'No endpoint GET /api/v2/demo/nothing: not found'],
  ['methodNotAllowed', ['PUT', '/api/v2/demo/va'], 405, 'validation', undefined, 'Method PUT is not allowed on /api/v2/demo/va'],
  ['deliveryDomainNotFound', ['nowhere'], 404, 'unknown-reference', undefined, 'Nothing deployed at this path: domain nowhere not found'],
  ['collectionNotLiveAt', ['bundle', 'prod'], 404, 'not-found', 'collection', 'Collection bundle not found LIVE in prod; deploy it LIVE there first'],
  ['versionNotDeployedAt', ['IOS1', 'app', 'ios', 'prod'], 404, 'not-found', 'version', 'Version IOS1 of app not found deployed (LIVE or DEFAULT) for ios in prod'],
  ['noDefaultVersion', ['app', 'ios', 'prod'], 404, 'not-found', 'version', 'No DEFAULT version of app for ios in prod: not found'],
  ['storedFileMissing', ['bundle.zip'], 404, 'internal', undefined, 'The file bundle.zip not found in the store'],
  ['unexpected', ['boom'], 500, 'internal', undefined, 'Unexpected error: boom'],
  ['undeployFailed', ['boom'], 500, 'internal', undefined, 'Internal Server Error: boom'],
];

describe('the catalogue of rejections', () => {
  it.each(catalogue)('%s(%j) -> %i %s', (code, args, status, kind, resource, title) => {
    const make = (made as unknown as Record<string, (...args: unknown[]) => Rejection>)[code]!;
    const expected: Rejection = resource === undefined ? { ok: false, status, title, kind, code } : { ok: false, status, title, kind, code, resource };
    expect(make(...args)).toStrictEqual(expected);
  });

  it('has a row for every constructor', () => {
    const listed = new Set(catalogue.map(([code]) => code));
    expect(all.map(([name]) => name).filter((name) => !listed.has(name))).toEqual([]);
  });
});
