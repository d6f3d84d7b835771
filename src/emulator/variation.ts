// Variations (emulator.md, "Variations"): other choices, all within the
// spec, where the spec is silent. The CLI's tests run against the default
// emulator and against one with every variation on, so that ahs works with
// any service that obeys the spec, not only with this one.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { formatSize, PAGING, type Rejection } from '../rules/index.js';

export const variationSchema = z.strictObject({
  /** The largest page a list answers; a larger pageSize is clamped silently, the envelope says the size used. */
  maxPageSize: z.number().int().min(1).optional(),
  /** The first number of each per-platform version sequence (IOS1001 with 1001). */
  versionSequenceStart: z.number().int().min(0).optional(),
  /** `decimal`: "1.1 MB"; `binary`: "1.05 MiB". */
  sizeStyle: z.enum(['decimal', 'binary']).optional(),
  /** `alternate`: every error title is worded otherwise (see ALTERNATE_TITLES). */
  errorWording: z.enum(['default', 'alternate']).optional(),
  /** false: version objects carry no `fileName` (the spec: older versions lack it). */
  versionFileName: z.boolean().optional(),
  /** true: unknown extra fields on every object and envelope of a successful answer. */
  extraFields: z.boolean().optional(),
  /** true: an undeploy that meets a channel mid-deployment answers 500 with a plain-text body. */
  undeployPlainText500: z.boolean().optional(),
  /** true: a version's own asset-urls leave its OFFLINE records out, as the asset-wide listing does without `state`. */
  versionUrlsWithoutOffline: z.boolean().optional(),
  /** true: the download URLs the API gives (asset-urls, collection deployments) are relative to the delivery URL ("/api/vi/..."). */
  relativeDownloadUrls: z.boolean().optional(),
  /** Set: the delivery network is served on its own port under this path prefix (e.g. "/cdn"). */
  /** The service's clock ahead of (or, negative, behind) the machine's, in ms: every createdAt, updatedAt and Date header (test-only: soaks, leases, freeze windows). */
  clockOffsetMs: z.number().int().optional(),
  deliveryPrefix: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'deliveryPrefix must be a path such as /cdn')
    .optional(),
});

export type VariationConfig = z.input<typeof variationSchema>;

export interface Variation {
  maxPageSize: number;
  versionSequenceStart: number;
  sizeStyle: 'decimal' | 'binary';
  errorWording: 'default' | 'alternate';
  versionFileName: boolean;
  extraFields: boolean;
  undeployPlainText500: boolean;
  versionUrlsWithoutOffline: boolean;
  relativeDownloadUrls: boolean;
  deliveryPrefix: string | undefined;
  clockOffsetMs: number;
}

export const DEFAULT_VARIATION: Variation = {
  maxPageSize: PAGING.maxPageSize,
  versionSequenceStart: 1,
  sizeStyle: 'decimal',
  errorWording: 'default',
  versionFileName: true,
  extraFields: false,
  undeployPlainText500: false,
  versionUrlsWithoutOffline: false,
  relativeDownloadUrls: false,
  deliveryPrefix: undefined,
  clockOffsetMs: 0,
};

/** Every variation on: `startEmulator({ variation: ALL_VARIATIONS })`. */
export const ALL_VARIATIONS = {
  maxPageSize: 20,
  versionSequenceStart: 1001,
  sizeStyle: 'binary',
  errorWording: 'alternate',
  versionFileName: false,
  extraFields: true,
  undeployPlainText500: true,
  versionUrlsWithoutOffline: true,
  deliveryPrefix: '/cdn',
} as const satisfies VariationConfig;

/**
 * The choices that exclude some of ALL_VARIATIONS (download URLs relative,
 * not absolute, on a delivery network under a path prefix), with the ones
 * that concern the same reads: `startEmulator({ variation: OTHER_VARIATIONS })`.
 */
export const OTHER_VARIATIONS = {
  relativeDownloadUrls: true,
  deliveryPrefix: '/assets',
  versionUrlsWithoutOffline: true,
  maxPageSize: 7,
} as const satisfies VariationConfig;

/** The fixture's variation, then the caller's (startEmulator's option) over it. */
export function resolveVariation(...layers: (VariationConfig | undefined)[]): Variation {
  const merged: Variation = { ...DEFAULT_VARIATION };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/** A version's `size` string in the variation's style. */
export function sizeString(variation: Variation, bytes: number): string {
  if (variation.sizeStyle === 'decimal') return formatSize(bytes);
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1023.995 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2)} ${units[unit]}`;
}

/**
 * Another service's wording of every rejection, keyed by constructor name.
 * None shares the emulator's key phrases ("not found", "already", "in use",
 * "mid-deployment", "moved", ...), so a client that reads titles breaks.
 */
export const ALTERNATE_TITLES: Record<string, string> = {
  assetNotFound: 'E1001 no virtual asset carries that id',
  assetInactive: 'E1002 the virtual asset is switched off',
  versionNotFound: 'E1003 unknown version for this virtual asset',
  versionNotFoundForPlatform: 'E1004 no such version for that target',
  currentDefaultNotFound: 'E1005 the version given as current has no record here',
  collectionNotFound: 'E2001 unknown collection id',
  collectionNotFoundOrNeverDeployed: 'E2002 no deployments to show for this collection id',
  itemNotInCollection: 'E2003 unknown item for this collection',
  anchorNotInCollection: 'E2004 the anchor must be a member item',
  unknownAssetType: 'E3001 unrecognised asset type code',
  unknownAllowedAssetTypes: 'E3002 unrecognised code among the allowed types',
  platformRequired: 'E3003 a target platform must be given',
  unknownPlatform: 'E3004 unrecognised target platform code',
  unknownCollectionPlatform: 'E3005 unrecognised target platform code',
  environmentRequired: 'E3006 an environment must be given',
  unknownEnvironment: 'E3007 unrecognised environment code',
  undeployPlatformsMissing: 'E3008 give one or more target platform codes',
  assetIdInUse: 'E4001 that virtual asset id is taken',
  collectionIdInUse: 'E4002 that collection id is taken',
  defaultPointerMoved: 'E4003 the current version changed since it was read',
  midDeployment: 'E5001 deployment in progress on this channel',
  collectionMidDeployment: 'E5002 deployment in progress for this collection',
  firstDeployIntentInvalid: 'E5003 that intent cannot start a deployment',
  alreadyInTargetState: 'E5004 nothing to change: the version is in that state',
  versionIsDefault: 'E5005 the version is the channel default; promote another one',
  offlineToDefault: 'E5006 an offline version cannot become the default',
  defaultExistsWithoutDemotion: 'E5007 the channel has a default; name it to replace it',
  notTheDefault: 'E5008 the version given as current is not the default',
  versionStillDeployed: 'E5009 take the version offline everywhere before removing it',
  assetHasVersions: 'E5010 remove every version before removing the virtual asset',
  collectionDeleted: 'E5011 the collection is in the bin; restore it',
  collectionAlreadyDeleted: 'E5012 the collection is in the bin',
  collectionLive: 'E5013 take the collection offline before removing it',
  collectionNotDeleted: 'E5014 only a collection in the bin can do that',
  maxAssetsBelowItemCount: 'E5015 the maximum is lower than the number of items',
  collectionNotEditable: 'E5016 the collection is locked for changes',
  itemLimitReached: 'E5017 the collection is full',
  collectionNotDeployable: 'E5018 the collection is locked for deployment',
  collectionHasNoItems: 'E5019 the collection is empty',
  collectionAlreadyInState: 'E5020 nothing to change: the collection is in that state',
  collectionNotDeployedForOffline: 'E5021 the collection has no deployment to take offline',
  collectionNotLiveAnywhere: 'E5022 the collection is live nowhere',
  collectionNotLiveToUndeploy: 'E5023 only a live deployment can be removed',
  noDeployedUrl: 'E5024 no URL: the collection is not live in that environment',
  apiKeyMissing: 'E6001 authentication header absent',
  apiKeyOfAnotherDomain: 'E6002 the key is for a different tenant',
  apiKeyInvalid: 'E6003 authentication refused',
  keyScopedElsewhere: 'E6004 the key may not act in that environment',
  keyScopedDeploy: 'E6005 the key may not act in that environment',
  securedContentNeedsKey: 'E6006 authentication header absent',
  deliveryKeyInvalid: 'E6007 authentication refused',
  uploadTooLarge: 'E7001 the file exceeds the plan',
  storageLimitReached: 'E7002 the plan has no room left',
  invalidFields: 'E8001 the request body has invalid values',
  actingUserRequired: 'E8002 the acting user must be given',
  actingUserNotAllowed: 'E8003 the acting user may not make changes',
  noActingUserInDomain: 'E8004 no user may make changes in this tenant',
  republishIntentInvalid: 'E8005 unrecognised intent',
  currentAssetIntentInvalid: 'E8006 unrecognised current intent',
  collectionStateInvalid: 'E8007 unrecognised state',
  envIdRequiredWithDomainKey: 'E8008 an environment must be given with this key',
  fieldsNotUpdatable: 'E8009 some fields are fixed at creation',
  assetTypeRequired: 'E8010 an asset type must be given',
  assetTypeNotAllowedInCollection: 'E8011 that asset type is outside the collection allowance',
  noFileUploaded: 'E8012 the file part is absent',
  fileTypeNotAllowed: 'E8013 that kind of file is refused for the asset type',
  queryParamInvalid: 'E8014 a query parameter has an invalid value',
  jsonBodyTooLarge: 'E8015 the body is too big',
  jsonBodyInvalid: 'E8016 the body could not be parsed',
  jsonBodyNotObject: 'E8017 the body must be an object',
  jsonBodyTooDeep: 'E8020 the body nests too many levels',
  percentEncodingInvalid: 'E8021 the address holds a bad escape',
  requestMalformed: 'E8022 the request could not be parsed',
  requestHeadersTooLarge: 'E8023 the header block is too big',
  requestTimedOut: 'E8024 the request took too long to arrive',
  multipartMalformed: 'E8018 the form could not be parsed',
  uploadAborted: 'E8019 the upload broke off',
  noEndpoint: 'E9001 unknown route',
  methodNotAllowed: 'E9002 method refused on this route',
  deliveryDomainNotFound: 'E9003 nothing at this address',
  collectionNotLiveAt: 'E9004 nothing at this address',
  versionNotDeployedAt: 'E9005 nothing at this address',
  noDefaultVersion: 'E9006 nothing at this address',
  storedFileMissing: 'E9007 the stored file is gone',
  unexpected: 'E9999 internal failure',
  undeployFailed: 'E9998 internal failure',
};

/** The title the service sends for a rejection, in the variation's wording. */
export function titleOf(variation: Variation, rejection: Rejection): string {
  if (variation.errorWording === 'default') return rejection.title;
  return ALTERNATE_TITLES[rejection.code] ?? `E0000 request refused (${rejection.status})`;
}

/** Adds fields the spec does not list to every object of a successful answer (unknown to a client). */
export function withExtraFields(variation: Variation, body: unknown): unknown {
  if (!variation.extraFields) return body;
  const decorated = decorate(body);
  if (decorated && typeof decorated === 'object' && !Array.isArray(decorated)) (decorated as Record<string, unknown>).requestId = randomUUID();
  return decorated;
}

function decorate(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decorate);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) copy[key] = decorate(inner);
  copy._links = { self: null };
  copy.revision = 1;
  return copy;
}
