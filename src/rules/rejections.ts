// Every rejection the service gives, one named constructor each (after
// Azurite's StorageErrorFactory). A rejection carries its `kind`, so that a
// caller decides from the kind, the status and its own request, never from
// the wording of the title. The titles are the emulator's wording; another
// service may word them differently.
import type { MissingResource, Rejection, RejectionKind } from './decision.js';

function rejection(code: string, kind: RejectionKind, status: number, title: string, resource?: MissingResource): Rejection {
  return resource === undefined ? { ok: false, status, title, kind, code } : { ok: false, status, title, kind, code, resource };
}

// Each code once: a list can hold one twice (a collection's allowed types and the always-allowed 9999).
const oneOf = (known: readonly string[]) => [...new Set(known)].join(', ');
/** `an ios version`, `a generic version`. */
const aOrAn = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

// --- not found: the asset, version, collection or item named ----------------

export function assetNotFound(assetId: string, domainId: string): Rejection {
  return rejection('assetNotFound', 'not-found', 404, `Virtual Asset ${assetId} not found in domain ${domainId}`, 'asset');
}

/** Version paths need an active asset (spec, Versions). */
export function assetInactive(assetId: string): Rejection {
  return rejection('assetInactive', 'not-found', 404, `Virtual Asset ${assetId} not found: it is inactive; make it active to use its versions: ahs asset update ${assetId} --active`, 'asset');
}

export function versionNotFound(versionId: string, assetId: string): Rejection {
  return rejection('versionNotFound', 'not-found', 404, `Version ${versionId} not found under Virtual Asset ${assetId}`, 'version');
}

/** The deploy endpoint's 404 for a version missing, inactive, or of another platform. */
export function versionNotFoundForPlatform(versionId: string, platform: string, assetId: string, otherPlatform?: string): Rejection {
  const other = otherPlatform !== undefined && otherPlatform !== platform ? ` (it is ${aOrAn(otherPlatform)} version)` : '';
  return rejection('versionNotFoundForPlatform', 'not-found', 404, `Version ${versionId} not found for platform ${platform} under Virtual Asset ${assetId}${other}`, 'version');
}

/** `currentVersionId` names a version with no record on the channel. */
export function currentDefaultNotFound(versionId: string): Rejection {
  return rejection('currentDefaultNotFound', 'not-found', 404, `Current Default version ${versionId} not found on this channel`, 'version');
}

/** 400 on GET and on the items and deployment endpoints, 404 on update, delete, restore and purge. */
export function collectionNotFound(collectionId: string, status: 400 | 404): Rejection {
  return rejection('collectionNotFound', 'not-found', status, `Collection ${collectionId} not found`, 'collection');
}

/** GET /deployments cannot tell a missing collection from one never deployed. */
export function collectionNotFoundOrNeverDeployed(collectionId: string): Rejection {
  return rejection('collectionNotFoundOrNeverDeployed', 'not-found', 404, `Collection ${collectionId} not found or never deployed`, 'collection');
}

export function itemNotInCollection(itemId: string, collectionId: string): Rejection {
  return rejection('itemNotInCollection', 'not-found', 404, `Item ${itemId} not found in collection ${collectionId}`, 'item');
}

/** A collection's anchor must be one of its items. */
export function anchorNotInCollection(itemId: string, collectionId: string): Rejection {
  return rejection('anchorNotInCollection', 'not-found', 400, `anchorAsset: item ${itemId} not found in collection ${collectionId}; name one of its items`, 'item');
}

// --- unknown references: asset types, platforms, environments ----------------

export function unknownAssetType(code: string, domainId: string): Rejection {
  return rejection('unknownAssetType', 'unknown-reference', 404, `Asset type ${code} not found or not active in domain ${domainId}`);
}

export function unknownAllowedAssetTypes(codes: readonly string[], domainId: string, known: readonly string[]): Rejection {
  return rejection('unknownAllowedAssetTypes', 'unknown-reference', 400, `allowedAssetTypes: asset type ${codes.join(', ')} not found in domain ${domainId}; use ${oneOf(known)}`);
}

export function platformRequired(field: string, known: readonly string[]): Rejection {
  return rejection('platformRequired', 'unknown-reference', 404, `Target platform not found: ${field} is required (one of ${oneOf(known)})`);
}

export function unknownPlatform(platform: string, domainId: string, known: readonly string[]): Rejection {
  return rejection('unknownPlatform', 'unknown-reference', 404, `Target platform ${platform} not found in domain ${domainId}; use one of ${oneOf(known)}`);
}

/** A collection's `targetPlatform` on create (400, the collection table). */
export function unknownCollectionPlatform(platform: string, domainId: string, known: readonly string[]): Rejection {
  return rejection('unknownCollectionPlatform', 'unknown-reference', 400, `targetPlatform ${platform} not found in domain ${domainId}; use one of ${oneOf(known)}`);
}

export function environmentRequired(known: readonly string[], status: number = 404): Rejection {
  return rejection('environmentRequired', 'unknown-reference', status, `Environment not found: envId is required (one of ${oneOf(known)})`);
}

export function unknownEnvironment(envId: string, domainId: string, known: readonly string[], status: number = 404): Rejection {
  return rejection('unknownEnvironment', 'unknown-reference', status, `Environment ${envId} not found in domain ${domainId}; use one of ${oneOf(known)}`);
}

/** Undeploy needs at least one platform code (404, the undeploy errors). */
export function undeployPlatformsMissing(known?: readonly string[]): Rejection {
  const list = known ? ` (one of ${oneOf(known)})` : '';
  return rejection('undeployPlatformsMissing', 'unknown-reference', 404, `targetPlatforms must name at least one target platform${list}`);
}

// --- conflicts ---------------------------------------------------------------

export function assetIdInUse(assetId: string): Rejection {
  return rejection('assetIdInUse', 'conflict', 409, `Virtual Asset id ${assetId} is already in use; choose another assetId`);
}

export function collectionIdInUse(collectionId: string, byDeleted: boolean): Rejection {
  return rejection('collectionIdInUse', 'conflict', 409, `Collection id ${collectionId} is already in use${byDeleted ? ' (by a deleted collection; restore or purge it)' : ''}`);
}

/** The Default moved between the client's read and its write. */
export function defaultPointerMoved(versionId: string, nowDefault?: string): Rejection {
  return rejection('defaultPointerMoved', 'conflict', 409, `The Default pointer moved: ${versionId} is no longer DEFAULT${nowDefault ? ` (now ${nowDefault})` : ''}; retry with a fresh currentVersionId`);
}

// --- state: the request does not fit the current state -----------------------

export function midDeployment(): Rejection {
  return rejection('midDeployment', 'state', 500, 'The channel is already mid-deployment; wait for the running deployment to finish and try again');
}

export function collectionMidDeployment(collectionId: string, envId: string): Rejection {
  return rejection('collectionMidDeployment', 'state', 500, `Collection ${collectionId} is already mid-deployment in ${envId}; wait for it to finish and try again`);
}

export function firstDeployIntentInvalid(intent: string | undefined): Rejection {
  return rejection('firstDeployIntentInvalid', 'state', 404, `Intent ${intent ?? '(missing)'} is not valid for a first deploy; only LIVE or OFFLINE can be used until the version is deployed`);
}

export function alreadyInTargetState(versionId: string, state: string): Rejection {
  return rejection('alreadyInTargetState', 'state', 400, `Version ${versionId} is already in the target state ${state}`);
}

export function versionIsDefault(versionId: string): Rejection {
  return rejection('versionIsDefault', 'state', 400, `Version ${versionId} is the current DEFAULT; promote another version to DEFAULT first, which demotes this one`);
}

export function offlineToDefault(versionId: string): Rejection {
  return rejection('offlineToDefault', 'state', 400, `Version ${versionId} is OFFLINE; deploy it LIVE before promoting it to DEFAULT`);
}

export function defaultExistsWithoutDemotion(currentDefault: string): Rejection {
  return rejection(
    'defaultExistsWithoutDemotion',
    'state',
    400,
    `Version ${currentDefault} is already DEFAULT on this channel; send currentVersionId=${currentDefault} and currentAssetIntent=LIVE to demote it`,
  );
}

export function notTheDefault(versionId: string): Rejection {
  return rejection('notTheDefault', 'state', 400, `Version ${versionId} is not the DEFAULT on this channel; it cannot be demoted`);
}

export function versionStillDeployed(versionId: string, where: string): Rejection {
  return rejection('versionStillDeployed', 'state', 400, `Version ${versionId} is ${where}; set it OFFLINE in all environments before deleting it`);
}

export function assetHasVersions(assetId: string, count: number): Rejection {
  return rejection('assetHasVersions', 'state', 400, `Virtual Asset ${assetId} has ${count} version(s); make sure the Virtual Asset contains no versions before deleting it`);
}

/** Writes on a soft-deleted collection. */
export function collectionDeleted(collectionId: string): Rejection {
  return rejection('collectionDeleted', 'state', 400, `Collection ${collectionId} is deleted; restore it first`);
}

export function collectionAlreadyDeleted(collectionId: string): Rejection {
  return rejection('collectionAlreadyDeleted', 'state', 400, `Collection ${collectionId} is already deleted`);
}

export function collectionLive(collectionId: string, envIds: readonly string[]): Rejection {
  return rejection('collectionLive', 'state', 400, `Collection ${collectionId} is LIVE in ${envIds.join(', ')} and must be made OFFLINE first`);
}

export function collectionNotDeleted(collectionId: string, operation: 'restore' | 'purge'): Rejection {
  const what = operation === 'restore' ? 'only a deleted collection can be restored' : 'delete it before purging it';
  return rejection('collectionNotDeleted', 'state', 400, `Collection ${collectionId} is not deleted; ${what}`);
}

export function maxAssetsBelowItemCount(maxAssets: number, itemCount: number): Rejection {
  return rejection(
    'maxAssetsBelowItemCount',
    'state',
    400,
    `maxAssets ${maxAssets} is below the collection's current item count ${itemCount}; remove items first or choose at least ${itemCount}`,
  );
}

export function collectionNotEditable(collectionId: string, operation: 'add' | 'remove'): Rejection {
  return rejection('collectionNotEditable', 'state', 400, `Collection ${collectionId} is not editable; set editable to true to ${operation} items`);
}

export function itemLimitReached(collectionId: string, maxAssets: number): Rejection {
  return rejection('itemLimitReached', 'state', 400, `Collection ${collectionId} has reached its item limit (maxAssets ${maxAssets}); raise maxAssets or remove items first`);
}

export function collectionNotDeployable(collectionId: string): Rejection {
  return rejection('collectionNotDeployable', 'state', 400, `Collection ${collectionId} is not deployable; set deployable to true first`);
}

export function collectionHasNoItems(collectionId: string): Rejection {
  return rejection('collectionHasNoItems', 'state', 400, `Collection ${collectionId} has no items; upload at least one item before deploying`);
}

export function collectionAlreadyInState(collectionId: string, state: string, envId: string): Rejection {
  return rejection('collectionAlreadyInState', 'state', 400, `Collection ${collectionId} is already ${state} in ${envId}`);
}

export function collectionNotDeployedForOffline(collectionId: string, envId: string): Rejection {
  return rejection('collectionNotDeployedForOffline', 'state', 400, `Collection ${collectionId} is not deployed in ${envId}; deploy it LIVE before taking it OFFLINE`);
}

export function collectionNotLiveAnywhere(collectionId: string): Rejection {
  return rejection('collectionNotLiveAnywhere', 'state', 400, `Collection ${collectionId} is not LIVE in any environment; reconcile never creates a deployment, deploy it first`);
}

export function collectionNotLiveToUndeploy(collectionId: string, envId: string, now: string): Rejection {
  return rejection('collectionNotLiveToUndeploy', 'state', 400, `Collection ${collectionId} is not LIVE in ${envId} (${now}); only a LIVE deployment can be undeployed`);
}

export function noDeployedUrl(collectionId: string, envId: string, now: string): Rejection {
  return rejection('noDeployedUrl', 'state', 400, `No deployed URL for collection ${collectionId} in ${envId}; it is ${now} there`);
}

// --- access: keys --------------------------------------------------------------

export function apiKeyMissing(): Rejection {
  return rejection('apiKeyMissing', 'access', 403, 'Missing apikey header; send the API key of the domain in the apikey header');
}

export function apiKeyOfAnotherDomain(domainId: string): Rejection {
  return rejection('apiKeyOfAnotherDomain', 'access', 403, `Invalid apikey for domain ${domainId}; the key belongs to another domain`);
}

export function apiKeyInvalid(): Rejection {
  return rejection('apiKeyInvalid', 'access', 403, 'Invalid apikey; check the API key of the domain');
}

export function keyScopedElsewhere(keyEnvId: string, envId: string): Rejection {
  return rejection('keyScopedElsewhere', 'access', 403, `This API key is scoped to environment ${keyEnvId}; it cannot act in ${envId}`);
}

export function keyScopedDeploy(keyEnvId: string, envId: string): Rejection {
  return rejection('keyScopedDeploy', 'access', 403, `This API key is scoped to environment ${keyEnvId}; it cannot deploy to ${envId}`);
}

export function securedContentNeedsKey(): Rejection {
  return rejection('securedContentNeedsKey', 'access', 403, 'This content is secured; send an API key of its domain in the apikey header');
}

export function deliveryKeyInvalid(domainId: string): Rejection {
  return rejection('deliveryKeyInvalid', 'access', 403, `Invalid apikey for domain ${domainId}`);
}

// --- plan limits -----------------------------------------------------------------

export function uploadTooLarge(maxUploadBytes: number): Rejection {
  return rejection('uploadTooLarge', 'plan-limit', 403, `The file is larger than the plan's upload limit of ${maxUploadBytes} bytes; upload a smaller file or raise the plan`);
}

export function storageLimitReached(maxStorageBytes: number, storedBytes: number): Rejection {
  return rejection('storageLimitReached', 'plan-limit', 403, `The plan's storage limit of ${maxStorageBytes} bytes is reached (${storedBytes} bytes stored); remove versions or items first`);
}

// --- validation: the request itself is malformed -----------------------------------

/** One or more fields fail the spec's schema; each message names its field. */
export function invalidFields(messages: readonly string[], status: number = 400): Rejection {
  return rejection('invalidFields', 'validation', status, messages.join('; '));
}

/** createdBy/updatedBy missing where the spec answers 500, not 400. */
export function actingUserRequired(field: 'createdBy' | 'updatedBy', purpose: string): Rejection {
  return rejection('actingUserRequired', 'validation', 500, `${field} is required ${purpose}`);
}

export function actingUserNotAllowed(field: string, email: string, domainId: string): Rejection {
  return rejection('actingUserNotAllowed', 'validation', 400, `${field} ${email} is not an active admin or owner of domain ${domainId}; use the e-mail of an active admin or owner`);
}

export function noActingUserInDomain(domainId: string): Rejection {
  return rejection('noActingUserInDomain', 'validation', 400, `Domain ${domainId} has no active admin or owner to act as; send updatedBy`);
}

export function republishIntentInvalid(intent: string | undefined): Rejection {
  return rejection('republishIntentInvalid', 'validation', 400, `Intent ${intent ?? '(missing)'} is not recognized; use LIVE, OFFLINE or DEFAULT`);
}

export function currentAssetIntentInvalid(got: string | undefined): Rejection {
  return rejection('currentAssetIntentInvalid', 'validation', 400, `currentAssetIntent must be LIVE when demoting the current Default (got ${got ?? '(missing)'})`);
}

export function collectionStateInvalid(state: string | undefined): Rejection {
  return rejection('collectionStateInvalid', 'validation', 400, `state must be LIVE or OFFLINE (got ${state ?? '(missing)'})`);
}

export function envIdRequiredWithDomainKey(): Rejection {
  return rejection('envIdRequiredWithDomainKey', 'validation', 400, 'envId is required with a domain-wide API key');
}

export function fieldsNotUpdatable(fields: readonly string[]): Rejection {
  const hint = fields.includes('deleted') ? '; use delete or restore' : fields.includes('assetItems') ? '; add or remove items through the items endpoints' : ' (permanent after create)';
  return rejection('fieldsNotUpdatable', 'validation', 400, `${fields.join(', ')} cannot be updated${hint}`);
}

export function assetTypeRequired(): Rejection {
  return rejection('assetTypeRequired', 'validation', 400, 'assetType is required');
}

export function assetTypeNotAllowedInCollection(assetType: string, collectionId: string, allowed: readonly string[]): Rejection {
  return rejection('assetTypeNotAllowedInCollection', 'validation', 400, `Asset type ${assetType} is not allowed in collection ${collectionId}; use one of ${oneOf(allowed)}`);
}

export function noFileUploaded(): Rejection {
  return rejection('noFileUploaded', 'validation', 400, 'No file uploaded: send the file in the multipart field assetFile');
}

export function fileTypeNotAllowed(extension: string, fileName: string, assetType: string, allowed: readonly string[]): Rejection {
  return rejection('fileTypeNotAllowed', 'validation', 400, `File type ${extension || '(none)'} of ${fileName} is not allowed for asset type ${assetType}; allowed: ${oneOf(allowed)}`);
}

export function queryParamInvalid(name: string, raw: string, expected: string): Rejection {
  return rejection('queryParamInvalid', 'validation', 400, `${name} must be ${expected} (got ${raw})`);
}

export function jsonBodyTooLarge(maxBytes: number): Rejection {
  return rejection('jsonBodyTooLarge', 'validation', 400, `The JSON body is larger than ${maxBytes} bytes`);
}

export function jsonBodyInvalid(): Rejection {
  return rejection('jsonBodyInvalid', 'validation', 400, 'The request body is not valid JSON; send a JSON object with Content-Type: application/json');
}

export function jsonBodyNotObject(): Rejection {
  return rejection('jsonBodyNotObject', 'validation', 400, 'The request body must be a JSON object');
}

export function jsonBodyTooDeep(maxDepth: number): Rejection {
  return rejection('jsonBodyTooDeep', 'validation', 400, `The JSON body is nested deeper than ${maxDepth} levels`);
}

export function percentEncodingInvalid(where: 'path segment' | 'query parameter', text: string): Rejection {
  return rejection('percentEncodingInvalid', 'validation', 400, `The ${where} ${text} is not valid percent-encoding; encode each id and value with encodeURIComponent`);
}

/** The request line or headers could not be parsed (bytes HTTP does not allow, a bad length). */
export function requestMalformed(reason: string): Rejection {
  return rejection('requestMalformed', 'validation', 400, `Malformed HTTP request: ${reason}`);
}

export function requestHeadersTooLarge(): Rejection {
  return rejection('requestHeadersTooLarge', 'validation', 431, 'The request headers are too large');
}

/** The client did not send the whole request within the server's time limit. */
export function requestTimedOut(): Rejection {
  return rejection('requestTimedOut', 'validation', 408, 'The request was not received in time; send the whole request without pausing');
}

export function multipartMalformed(reason: string): Rejection {
  return rejection('multipartMalformed', 'validation', 400, `Malformed multipart/form-data request: ${reason}`);
}

export function uploadAborted(): Rejection {
  return rejection('uploadAborted', 'validation', 400, 'The upload was aborted by the client');
}

export function noEndpoint(method: string, path: string): Rejection {
  return rejection('noEndpoint', 'unknown-reference', 404, `No endpoint ${method} ${path}: not found`);
}

export function methodNotAllowed(method: string, path: string): Rejection {
  return rejection('methodNotAllowed', 'validation', 405, `Method ${method} is not allowed on ${path}`);
}

// --- delivery (its errors are "not shown" by the spec; emulator.md fixes them) ---

export function deliveryDomainNotFound(domainId: string): Rejection {
  return rejection('deliveryDomainNotFound', 'unknown-reference', 404, `Nothing deployed at this path: domain ${domainId} not found`);
}

export function collectionNotLiveAt(collectionId: string, envId: string): Rejection {
  return rejection('collectionNotLiveAt', 'not-found', 404, `Collection ${collectionId} not found LIVE in ${envId}; deploy it LIVE there first`, 'collection');
}

export function versionNotDeployedAt(versionId: string, assetId: string, platform: string, envId: string): Rejection {
  return rejection('versionNotDeployedAt', 'not-found', 404, `Version ${versionId} of ${assetId} not found deployed (LIVE or DEFAULT) for ${platform} in ${envId}`, 'version');
}

export function noDefaultVersion(assetId: string, platform: string, envId: string): Rejection {
  return rejection('noDefaultVersion', 'not-found', 404, `No DEFAULT version of ${assetId} for ${platform} in ${envId}: not found`, 'version');
}

export function storedFileMissing(fileName: string): Rejection {
  return rejection('storedFileMissing', 'internal', 404, `The file ${fileName} not found in the store`);
}

// --- internal ----------------------------------------------------------------------

export function unexpected(message: string): Rejection {
  return rejection('unexpected', 'internal', 500, `Unexpected error: ${message}`);
}

/** Undeploy's unexpected failure, whose body the spec says may be plain text. */
export function undeployFailed(message: string): Rejection {
  return rejection('undeployFailed', 'internal', 500, `Internal Server Error: ${message}`);
}
