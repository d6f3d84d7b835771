// zod schemas of every resource, request body, envelope and error body of the
// spec, with the limits of its "Limits" table. Each constraint carries its own
// message ("must be an integer from 1 to 525600"); formatIssue() puts the
// field's name (a flag for the CLI, a field for the emulator) and the value
// around it.
import { z } from 'zod';
import { EMAIL, LIMITS } from './limits.js';

export { LIMITS };

const text = (max: number) =>
  z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(max, { error: `must be at most ${max} characters` });
const optionalText = (max: number) => z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });
// The number's error is every one of its issues' (zod 4): a fraction, too small and too large alike.
const intBetween = (min: number, max: number) => z.number({ error: `must be an integer from ${min} to ${max}` }).int().min(min).max(max);
const bool = z.boolean({ error: 'must be true or false' });
// The spec says "e-mail strings"; the service checks them against its users.
const email = z.string({ error: 'must be an e-mail address' }).regex(EMAIL, { error: 'must be an e-mail address' });
const timestamp = z.string();

export const assetId = text(LIMITS.assetId);
export const collectionId = text(LIMITS.collectionId).regex(/^[A-Za-z0-9_-]+$/, {
  error: 'may contain only letters, digits, _ and -',
});
export const localCacheMaxAge = intBetween(LIMITS.localCacheMaxAge.min, LIMITS.localCacheMaxAge.max);
export const maxAssets = (ceiling: number = LIMITS.maxAssetsCeiling) => intBetween(1, ceiling);
export const deploymentState = z.enum(['LIVE', 'OFFLINE', 'DEFAULT'], { error: 'must be LIVE, OFFLINE or DEFAULT' });
export const collectionState = z.enum(['LIVE', 'OFFLINE'], { error: 'must be LIVE or OFFLINE' });
export const pageNumber = intBetween(1, Number.MAX_SAFE_INTEGER).describe('page number');
export const pageSize = intBetween(1, LIMITS.pageSizeMax);

// --- error body and envelopes ------------------------------------------------

export const errorBodySchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
});

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ totalResults: z.number().int(), pageNumber: z.number().int(), pageSize: z.number().int(), results: z.array(item) });

/** The pagination envelope of every list endpoint (spec, "Endpoints"), and of cli.md's merged lists. */
export interface Envelope<T> {
  totalResults: number;
  pageNumber: number;
  pageSize: number;
  results: T[];
}

// --- virtual assets ----------------------------------------------------------

export const assetSchema = z.object({
  assetId: z.string(),
  assetName: z.string(),
  assetType: z.string(),
  secured: z.boolean(),
  localCacheControl: z.boolean(),
  localCacheMaxAge: z.number().int(),
  createdBy: z.string(),
  updatedBy: z.string(),
  active: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** An asset (spec: GET /va/{assetId}). */
export type Asset = z.infer<typeof assetSchema>;

export const assetCreateBody = z.strictObject({
  assetId,
  assetName: text(LIMITS.assetName),
  assetType: text(64),
  createdBy: email,
  description: optionalText(LIMITS.description).optional(),
  secured: bool.optional(),
  localCacheControl: bool.optional(),
  localCacheMaxAge: localCacheMaxAge.optional(),
  updatedBy: email.optional(),
});
export type AssetCreateBody = z.infer<typeof assetCreateBody>;

export const assetUpdateBody = z.strictObject({
  updatedBy: email,
  assetType: text(64),
  assetName: text(LIMITS.assetName).optional(),
  description: optionalText(LIMITS.description).optional(),
  localCacheControl: bool.optional(),
  localCacheMaxAge: localCacheMaxAge.optional(),
  active: bool.optional(),
});
export type AssetUpdateBody = z.infer<typeof assetUpdateBody>;

export const deleteBody = z.strictObject({ deletedBy: email });

export const searchHitSchema = z.object({
  _id: z.string(),
  _score: z.number().nullable(),
  _source: z.object({
    assetId: z.string(),
    assetName: z.string(),
    assetType: z.string(),
    description: z.string().optional(),
    secured: z.boolean(),
    active: z.boolean(),
    domain: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
});
export const searchEnvelope = z.object({
  results: z.object({ pageSize: z.number().int(), total: z.number().int(), hits: z.array(searchHitSchema) }),
});

export const versionCountSchema = z.object({ counts: z.number().int() });

// --- versions and deployment -------------------------------------------------

export const versionSchema = z.object({
  versionId: z.string(),
  version: z.number().int(),
  versionName: z.string(),
  targetPlatform: z.string(),
  assetType: z.string(),
  secured: z.boolean(),
  /** As the service formats it ("1.2 MB"). */
  size: z.string(),
  fileName: z.string().optional(),
  uploadStatus: z.literal('Committed'),
  createdBy: z.string(),
  updatedBy: z.string(),
  active: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** A version of an asset: one uploaded file for one platform (spec: GET /va/{assetId}/versions/{versionId}). */
export type Version = z.infer<typeof versionSchema>;

/** The form fields of a version upload (the file goes in `assetFile`). */
export const versionUploadFields = z.strictObject({
  versionName: text(LIMITS.versionName),
  createdBy: email,
});

export const deploymentRecordSchema = z.object({
  version: z.number().int(),
  assetType: z.string(),
  versionId: z.string(),
  versionName: z.string(),
  envId: z.string(),
  fallback: z.boolean(),
  lock: z.boolean(),
  state: deploymentState,
  createdBy: z.string(),
  updatedBy: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  active: z.boolean(),
  secured: z.boolean(),
  /** As the service formats it ("1.2 MB"). */
  size: z.string(),
  targetPlatform: z.string(),
  uploadStatus: z.string(),
});
/** The deploy endpoint's record of a version on a channel (spec: PUT /va/{id}/versions/{versionId}/deploy). */
export type DeploymentRecord = z.infer<typeof deploymentRecordSchema>;

export const deployBody = z.strictObject({
  envId: text(64),
  intent: deploymentState,
  createdBy: email.optional(),
  updatedBy: email.optional(),
  currentVersionId: z.string().optional(),
  currentAssetIntent: z.literal('LIVE', { error: 'must be exactly LIVE' }).optional(),
});
export type DeployBody = z.infer<typeof deployBody>;

/**
 * The deploy body as the service takes it: `intent` and `currentAssetIntent`
 * are left to the rules, because their status depends on the channel (404 on
 * a first deploy, 400 on a re-publish).
 */
export const deployRequestBody = deployBody.extend({
  intent: z.string({ error: 'must be a string' }).optional(),
  currentAssetIntent: z.string({ error: 'must be a string' }).optional(),
});

export const deployResponse = z.object({ assetVersion: deploymentRecordSchema, message: z.string() });

export const undeployBody = z.strictObject({
  envId: text(64),
  targetPlatforms: z.array(text(64), { error: 'must be a list of platform codes' }).min(1, { error: 'must name at least one platform' }),
});
export const undeployResponse = z.object({ message: z.string(), totalUndeployedVersions: z.number().int() });

export const assetUrlSchema = z.object({
  assetId: z.string(),
  version: z.number().int(),
  versionId: z.string(),
  versionName: z.string(),
  targetPlatform: z.string(),
  assetType: z.string(),
  secured: z.boolean(),
  state: deploymentState,
  envId: z.string(),
  downloadUrl: z.string().optional(),
});
/** A version's state on one channel (asset, platform, environment): GET /va/{id}/asset-urls. */
export type AssetUrl = z.infer<typeof assetUrlSchema>;

// --- collections and items ---------------------------------------------------

export const collectionSchema = z.object({
  collectionId: z.string(),
  domainId: z.string(),
  collectionName: z.string(),
  description: z.string().nullable().optional(),
  allowedAssetTypes: z.array(z.string()),
  maxAssets: z.number().int(),
  editable: z.boolean(),
  deployable: z.boolean(),
  anchorAsset: z.string().optional().nullable(),
  assetItems: z.array(z.string()),
  targetPlatform: z.string(),
  createdBy: z.string(),
  updatedBy: z.string(),
  deleted: z.boolean(),
  deletedAt: z.string().optional().nullable(),
  localCacheControl: z.boolean(),
  localCacheMaxAge: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** A collection (spec: GET /vc/{collectionId}). */
export type Collection = z.infer<typeof collectionSchema>;

export const collectionCreateBody = (ceiling: number = LIMITS.maxAssetsCeiling) =>
  z.strictObject({
    collectionId,
    collectionName: text(LIMITS.collectionName),
    allowedAssetTypes: z
      .array(text(64), { error: 'must be a list of asset type codes' })
      .min(1, { error: 'must name at least one asset type' }),
    createdBy: email,
    description: optionalText(LIMITS.description).optional(),
    maxAssets: maxAssets(ceiling).optional(),
    editable: bool.optional(),
    deployable: bool.optional(),
    anchorAsset: z.string().optional(),
    targetPlatform: text(64).optional(),
    secured: bool.optional(),
    updatedBy: email.optional(),
    localCacheControl: bool.optional(),
    localCacheMaxAge: localCacheMaxAge.optional(),
  });
export type CollectionCreateBody = z.infer<ReturnType<typeof collectionCreateBody>>;

/** Updatable fields only; the refused ones are named by rules/collections.ts. */
export const collectionUpdateBody = (ceiling: number = LIMITS.maxAssetsCeiling) =>
  z.object({
    collectionName: text(LIMITS.collectionName).optional(),
    description: optionalText(LIMITS.description).optional(),
    maxAssets: maxAssets(ceiling).optional(),
    editable: bool.optional(),
    deployable: bool.optional(),
    anchorAsset: z.string().optional(),
    localCacheControl: bool.optional(),
    localCacheMaxAge: localCacheMaxAge.optional(),
    updatedBy: email.optional(),
  });
export type CollectionUpdateBody = z.infer<ReturnType<typeof collectionUpdateBody>>;

export const restoreBody = z.strictObject({ createdBy: email });
export const messageResponse = z.object({ message: z.string() });

export const itemSchema = z.object({
  assetItemId: z.string(),
  assetItemName: z.string(),
  assetType: z.string(),
  mimetype: z.string(),
  size: z.number().int(),
  fileName: z.string(),
  parentCollections: z.array(z.string()),
  domain: z.string(),
  createdBy: z.string(),
  updatedBy: z.string(),
  uploadStatus: z.literal('Committed'),
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** An item of a collection: one uploaded file (spec: GET /vc/{collectionId}/items/{itemId}). */
export type Item = z.infer<typeof itemSchema>;

// limits.ts's itemUploadFieldsFit checks the same without zod.
export const itemUploadFields = z.strictObject({
  assetItemName: text(LIMITS.assetItemName),
  assetType: text(LIMITS.assetType),
  createdBy: email,
});

export const collectionDeployBody = z.strictObject({
  state: collectionState,
  createdBy: email.optional(),
  updatedBy: email.optional(),
  envId: text(64).optional(),
});
export const collectionUndeployBody = z.strictObject({ updatedBy: email });
/** As the service takes them: a missing acting user is the rules' 500, not a 400. */
export const collectionUndeployRequestBody = z.object({ updatedBy: email.optional() });
/** Reconcile: `state` is ignored; createdBy names the acting user. */
export const reconcileBody = z.object({ createdBy: email.optional(), updatedBy: email.optional() });

export const downloadUrlResponse = z.object({ downloadUrl: z.string() });

export const collectionDeploymentStatus = z.object({
  collectionId: z.string(),
  collectionName: z.string(),
  items: z.array(
    z.object({ envId: z.string(), live: z.array(z.string()), offline: z.array(z.string()), undeployed: z.array(z.string()) }),
  ),
});
export type CollectionDeploymentStatus = z.infer<typeof collectionDeploymentStatus>;

export const deliveryEntry = z.object({
  assetItemId: z.string(),
  assetItemName: z.string(),
  downloadUrl: z.string(),
  targetPlatform: z.string(),
  mimetype: z.string(),
});
export type DeliveryEntry = z.infer<typeof deliveryEntry>;

export const deliveryDocument = z.object({
  downloadUrl: z.string(),
  anchorAsset: deliveryEntry.nullable().optional(),
  assetItemUrls: z.array(deliveryEntry),
  collectionId: z.string(),
  domainId: z.string(),
  envId: z.string(),
  secured: z.boolean(),
  localCacheControl: z.boolean(),
  localCacheMaxAge: z.number().int(),
  targetPlatform: z.string(),
});
export type DeliveryDocument = z.infer<typeof deliveryDocument>;

// --- turning issues into one-line messages -----------------------------------

/** camelCase field -> its CLI flag, e.g. localCacheMaxAge -> --local-cache-max-age. */
export function flagFor(field: string): string {
  return `--${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

export type FieldLabel = (path: PropertyKey[]) => string;

export const flagLabel: FieldLabel = (path) => {
  const field = path.find((part) => typeof part === 'string');
  return typeof field === 'string' ? flagFor(field) : 'value';
};
export const fieldLabel: FieldLabel = (path) => path.map(String).join('.') || 'body';

export function formatIssue(issue: z.core.$ZodIssue, label: FieldLabel = flagLabel): string {
  const name = label(issue.path as PropertyKey[]);
  if (issue.code === 'unrecognized_keys') return `${issue.keys.map((key) => label([...issue.path, key] as PropertyKey[])).join(', ')} not accepted here`;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${name} is required`;
  const got = 'input' in issue && issue.input !== undefined ? ` (got ${describeValue(issue.input)})` : '';
  return `${name} ${issue.message}${got}`;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `${value.length} characters` : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

export type Validated<T> = { ok: true; data: T } | { ok: false; messages: string[] };

/** Parses with input reporting on, so messages can say what was given. */
export function validate<T extends z.ZodType>(schema: T, value: unknown, label: FieldLabel = flagLabel): Validated<z.infer<T>> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, messages: result.error.issues.map((issue) => formatIssue(issue, label)) };
}
