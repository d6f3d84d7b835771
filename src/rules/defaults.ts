// Defaults, limits and small rules the spec states once and both the CLI
// (predictions, pickers, prompts) and the emulator (answers) rely on.
import { LIMITS, type Asset, type AssetCreateBody, type Collection, type CollectionCreateBody, type Version } from './schemas.js';
import { formatSize, nextVersionId } from './assets.js';
import { anchorNotInCollection } from './rejections.js';
import type { Rejection } from './decision.js';

/** Fields a new virtual asset gets when the request leaves them out (spec, Virtual asset). */
export const ASSET_DEFAULTS = {
  secured: true,
  localCacheControl: false,
  localCacheMaxAge: LIMITS.localCacheMaxAge.default,
} as const;

/** `generic` is the default platform of collections (spec, Resources). */
export const DEFAULT_COLLECTION_PLATFORM = 'generic';

/** Fields a new collection gets when the request leaves them out; `maxAssets` defaults to the service's ceiling. */
export const COLLECTION_DEFAULTS = {
  editable: true,
  deployable: true,
  secured: true,
  targetPlatform: DEFAULT_COLLECTION_PLATFORM,
  localCacheControl: false,
  localCacheMaxAge: LIMITS.localCacheMaxAge.default,
} as const;

/** Paging of list endpoints: the spec's default size, and the emulator's ceiling (a larger size is clamped). */
export const PAGING = {
  defaultPageNumber: 1,
  defaultPageSize: 50,
  maxPageSize: LIMITS.pageSizeMax,
} as const;

/** Roles that may act in a domain (spec, Authentication 4). */
export const ACTING_ROLES: readonly string[] = ['owner', 'admin'];

/** Only an active owner or admin may be named as createdBy, updatedBy or deletedBy. */
export function canAct(user: { role: string; active: boolean }): boolean {
  return user.active && ACTING_ROLES.includes(user.role);
}

/** A collection's anchor is set only to one of its items; `''` clears it. */
export function decideAnchor(collectionId: string, anchor: string | undefined, itemIds: readonly string[]): Rejection | undefined {
  if (anchor === undefined || anchor === '' || itemIds.includes(anchor)) return undefined;
  return anchorNotInCollection(anchor, collectionId);
}

/**
 * The anchor a delivery document shows: the collection's anchorAsset while it
 * is a member, else the first item, else none.
 */
export function effectiveAnchor(anchor: string | null | undefined, itemIds: readonly string[]): string | undefined {
  if (anchor && itemIds.includes(anchor)) return anchor;
  return itemIds[0];
}

/** The asset the service creates from a valid create body, with the spec's defaults (what a read shows). */
export function createdAsset(body: AssetCreateBody, at: string): Asset {
  return {
    assetId: body.assetId,
    assetName: body.assetName,
    assetType: body.assetType,
    secured: body.secured ?? ASSET_DEFAULTS.secured,
    localCacheControl: body.localCacheControl ?? ASSET_DEFAULTS.localCacheControl,
    localCacheMaxAge: body.localCacheMaxAge ?? ASSET_DEFAULTS.localCacheMaxAge,
    createdBy: body.createdBy,
    updatedBy: body.updatedBy ?? body.createdBy,
    active: true,
    createdAt: at,
    updatedAt: at,
  };
}

/** What a new version is once uploaded (spec, Version): the emulator's record and the prediction of an upload. */
export function createdVersion(
  asset: Pick<Asset, 'assetType' | 'secured'>,
  upload: { platform: string; latest: number; versionName: string; createdBy: string; fileName: string; bytes: number; size?: string },
  at: string,
): Version {
  const { versionId, version } = nextVersionId(upload.platform, upload.latest);
  return {
    versionId,
    version,
    versionName: upload.versionName,
    targetPlatform: upload.platform,
    assetType: asset.assetType,
    secured: asset.secured,
    // The service words sizes its own way (the emulator's variations too): `size` says how.
    size: upload.size ?? formatSize(upload.bytes),
    fileName: upload.fileName,
    uploadStatus: 'Committed',
    createdBy: upload.createdBy,
    updatedBy: upload.createdBy,
    active: true,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * What a new collection is once created (spec, Asset collection): the
 * emulator's record and the prediction of a create. `maxAssets` defaults to
 * the service's ceiling.
 */
export type NewCollection = Omit<Collection, 'description' | 'anchorAsset' | 'deletedAt'> & { secured: boolean; description?: string; anchorAsset?: string; deletedAt: string | null };

export function createdCollection(body: CollectionCreateBody, where: { domainId: string; maxAssetsCeiling?: number }, at: string): NewCollection {
  const collection: NewCollection = {
    collectionId: body.collectionId,
    domainId: where.domainId,
    collectionName: body.collectionName,
    allowedAssetTypes: [...new Set(body.allowedAssetTypes)],
    maxAssets: body.maxAssets ?? where.maxAssetsCeiling ?? LIMITS.maxAssetsCeiling,
    editable: body.editable ?? COLLECTION_DEFAULTS.editable,
    deployable: body.deployable ?? COLLECTION_DEFAULTS.deployable,
    assetItems: [],
    targetPlatform: body.targetPlatform ?? COLLECTION_DEFAULTS.targetPlatform,
    secured: body.secured ?? COLLECTION_DEFAULTS.secured,
    createdBy: body.createdBy,
    updatedBy: body.updatedBy ?? body.createdBy,
    deleted: false,
    deletedAt: null,
    localCacheControl: body.localCacheControl ?? COLLECTION_DEFAULTS.localCacheControl,
    localCacheMaxAge: body.localCacheMaxAge ?? COLLECTION_DEFAULTS.localCacheMaxAge,
    createdAt: at,
    updatedAt: at,
  };
  if (body.description !== undefined) collection.description = body.description;
  if (body.anchorAsset !== undefined) collection.anchorAsset = body.anchorAsset;
  return collection;
}
