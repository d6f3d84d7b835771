// The desired-state file (cli.md "Desired state"): what assets, channels
// and collections should be. One zod schema types the file, checks it (each
// issue placed at its line by src/desired/file.ts) and gives `ahs schema` its JSON Schema.
import { z } from 'zod';
import { LIMITS, collectionId, localCacheMaxAge } from './schemas.js';

const text = (max: number) => z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(max, { error: `must be at most ${max} characters` });
const code = z.string({ error: 'must be a string (quote a number: "1001")' }).min(1, { error: 'must not be empty' });
const bool = z.boolean({ error: 'must be true or false' });

/** A version by its name on the channel's platform, or pinned by id. */
export const versionRef = z.union([text(LIMITS.versionName), z.strictObject({ versionId: text(64) })], {
  error: 'must be a version name, or { versionId: ID }',
});

export const channelSchema = z
  .strictObject({
    default: versionRef.optional().describe('the Default version (promoted over the current one as a compare-and-set)'),
    live: z.array(versionRef, { error: 'must be a list of versions' }).optional().describe('versions to be LIVE'),
    offline: z.array(versionRef, { error: 'must be a list of versions' }).optional().describe('versions to be OFFLINE'),
    exclusive: bool.optional().describe('the file is the whole truth of the channel: a version Live there that it does not list is drift, planned OFFLINE (default: shown as not managed by the file)'),
  })
  .describe('one channel: the state of the versions it names; the others are left alone unless exclusive: true');

export const assetSchema = z
  .strictObject({
    name: text(LIMITS.assetName),
    type: code.describe('asset type code; cannot change once created'),
    description: z.string().max(LIMITS.description, { error: `must be at most ${LIMITS.description} characters` }).optional().describe('sent on create; the service never returns it, so it is not compared'),
    secured: bool.optional().describe('on create only (default true)'),
    localCacheControl: bool.optional(),
    localCacheMaxAge: localCacheMaxAge.optional(),
    active: bool.optional(),
    versions: z
      .record(code, z.record(text(LIMITS.versionName), text(4096), { error: 'must map version names to files' }), { error: 'must map platforms to { VERSION_NAME: FILE }' })
      .optional()
      .describe('platform -> version name -> file (relative to this file): uploaded when no version of that name exists on the platform'),
    channels: z
      .record(code, z.record(text(64), channelSchema, { error: 'must map environments to channels' }), { error: 'must map platforms to { ENV: channel }' })
      .optional()
      .describe('platform -> environment -> channel'),
    rollout: z
      .strictObject({
        waves: z.array(text(64), { error: 'must be a list of environments' }).min(1, { error: 'must name at least one environment' }).describe('the environments, in order'),
        soak: z.record(text(64), text(32), { error: 'must map environments to durations (30m, 2h)' }).optional().describe('environment -> soak after its promotion'),
        check: text(4096).optional().describe('the shell command run before and after each promotion'),
        approve: z.array(text(64), { error: 'must be a list of environments' }).optional().describe('waves promoted only by a run given --approved ENV'),
      })
      .optional()
      .describe('the defaults of ahs rollout for this asset (its command line then names only the asset and the version); plan says where each version the file names stands in it, apply does not move it'),
  })
  .describe('a virtual asset');

export const itemsFromDir = z.strictObject({
  dir: text(4096).describe('folder (relative to this file) whose top-level files the collection holds'),
  type: code.describe('asset type code of the uploaded items'),
  prune: bool.optional().describe('remove the items that have no file'),
  pattern: z.union([z.string().min(1), z.array(z.string().min(1))]).optional().describe('only files whose name matches a glob'),
  compare: z.enum(['size', 'checksum'], { error: 'must be size or checksum' }).optional().describe('how a file is compared with its item: size (default), or checksum (SHA-256 of what a Live item serves, as item sync --checksum)'),
  followLinks: bool.optional().describe('follow symbolic links in the folder (default: skipped and named, as item sync without --follow-links)'),
});

export const itemsListed = z.strictObject({
  names: z.array(text(LIMITS.assetItemName), { error: 'must be a list of item names' }).describe('the items the collection holds (written by ahs export); checked, never uploaded'),
});

export const collectionFileSchema = z
  .strictObject({
    name: text(LIMITS.collectionName),
    allowedTypes: z.array(code, { error: 'must be a list of asset type codes' }).min(1, { error: 'must name at least one asset type' }).describe('cannot change once created'),
    description: z.string().max(LIMITS.description, { error: `must be at most ${LIMITS.description} characters` }).optional(),
    maxAssets: z.number({ error: 'must be an integer from 1 to 5000' }).int({ error: 'must be an integer from 1 to 5000' }).min(1).max(LIMITS.maxAssetsCeiling).optional(),
    editable: bool.optional(),
    deployable: bool.optional(),
    platform: code.optional().describe('target platform (default generic); cannot change once created'),
    localCacheControl: bool.optional(),
    localCacheMaxAge: localCacheMaxAge.optional(),
    anchor: text(LIMITS.assetItemName).optional().describe('the anchor item, by name'),
    items: z.union([itemsFromDir, itemsListed], { error: 'must be { dir, type, prune?, pattern? } or { names: [...] }' }).optional(),
    deployments: z.record(text(64), z.enum(['LIVE', 'OFFLINE'], { error: 'must be LIVE or OFFLINE' }), { error: 'must map environments to LIVE or OFFLINE' }).optional(),
  })
  .describe('a virtual collection');

export const desiredFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    apiVersion: z.literal('ahs/v1', { error: 'must be ahs/v1' }),
    assets: z.record(text(LIMITS.assetId), assetSchema, { error: 'must map asset ids to assets' }).optional(),
    collections: z.record(collectionId, collectionFileSchema, { error: 'must map collection ids to collections' }).optional(),
  })
  .describe(
    'ahs desired state (ahs plan, ahs apply). Read as written: beyond this schema, ahs refuses a key given twice in one mapping (in JSON as in YAML, where a JSON parser keeps the last), and a plain YAML key, or a value where text is expected, that YAML reads as a number, a boolean or null (1.10 read as 1.1, 0755, on, yes): quote it ("1.10").',
  );

/** A desired-state document (`ahs export --json`; the file plan() and apply() read, as YAML). */
export type DesiredState = z.output<typeof desiredFileSchema>;
/** One asset of a desired-state file. */
export type DesiredAsset = z.output<typeof assetSchema>;
/** One channel of a desired-state file: the versions it names and their state. */
export type DesiredChannel = z.output<typeof channelSchema>;
/** One collection of a desired-state file. */
export type DesiredCollection = z.output<typeof collectionFileSchema>;
export type VersionRef = z.output<typeof versionRef>;

/**
 * The JSON Schema of the file, for editors (`# yaml-language-server: $schema=...`).
 * No field has a default or a transform, so what a person writes and what is
 * parsed are one schema; one that gets a default needs `{ io: 'input' }` here.
 */
export function desiredJsonSchema(): unknown {
  return z.toJSONSchema(desiredFileSchema);
}
