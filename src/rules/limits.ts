// The spec's limits ("Limits" table) and the e-mail pattern, without zod:
// schemas.ts builds its schemas from them, and a command that reads before
// it loads zod (item sync: its first reads leave while zod and the plan's
// modules load, issue 21) checks its arguments with the same numbers first.
export const LIMITS = {
  assetId: 64,
  assetName: 64,
  versionName: 64,
  assetItemName: 64,
  assetType: 64,
  collectionId: 50,
  collectionName: 50,
  description: 400,
  localCacheMaxAge: { min: 1, max: 525600, default: 30 },
  maxAssetsCeiling: 5000,
  pageSizeMax: 500,
} as const;

/** What the spec's "e-mail strings" are held to (the service checks them against its users). */
export const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Whether schemas.ts's itemUploadFields surely accepts these fields (the
 * same limits, no zod: test/unit/limits.test.ts holds the two together).
 * A false is not yet an error: the schema then says what is wrong, or
 * takes them (it counts characters; this, UTF-16 units, never fewer).
 */
export function itemUploadFieldsFit(fields: { assetItemName: string; assetType: string; createdBy: string }): boolean {
  return fitsText(fields.assetItemName, LIMITS.assetItemName) && fitsText(fields.assetType, LIMITS.assetType) && EMAIL.test(fields.createdBy);
}

function fitsText(value: string, max: number): boolean {
  return value.length >= 1 && value.length <= max;
}
