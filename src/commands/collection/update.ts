// ahs collection update COLLECTION_ID [updatable fields] [--from-json FILE]
// Refuses, before sending, what the service will not take: the permanent
// fields, assetItems, deleted, and a maxAssets below the current item count.
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { nameOf, type Run } from '../define.js';
import { updateSpec } from './index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { COLLECTION_REFUSED_UPDATE_FIELDS, decideCollectionUpdate } from '../../rules/index.js';
import { collectionUpdateBody } from '../../rules/schemas.js';
import { validateInput } from '../../operations/validate.js';
import { readSnapshot } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../pickers/pick-collection.js';
import { renderCollection } from '../../io/views/collections.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

const FLAGS = { collectionName: nameOf(updateSpec, 'name'), anchorAsset: nameOf(updateSpec, 'anchor') };

export const run: Run<typeof updateSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const patch: Record<string, unknown> = options.fromJson ? await readJsonObject(ctx, options.fromJson) : {};
  const jsonFields = new Set(Object.keys(patch));
  const flagged: Record<string, unknown> = {
    collectionName: options.name,
    description: options.description,
    maxAssets: options.maxAssets,
    editable: options.editable,
    deployable: options.deployable,
    anchorAsset: options.anchor,
    localCacheControl: options.localCacheControl,
    localCacheMaxAge: options.localCacheMaxAge,
  };
  for (const [key, value] of Object.entries(flagged)) {
    if (value === undefined) continue;
    patch[key] = value;
    jsonFields.delete(key); // the flag wins: messages name the flag
  }

  // Permanent fields asked for by flag: say which flag, not which field.
  const refusedFlags: string[] = [];
  if (options.allowedTypes !== undefined) refusedFlags.push('--allowed-types (allowedAssetTypes)');
  if (options.secured !== undefined) refusedFlags.push(options.secured ? '--secured' : '--no-secured');
  if (ctx.globals.platform !== undefined) refusedFlags.push('--platform (targetPlatform)');
  if (refusedFlags.length > 0) {
    throw new UsageError(`${refusedFlags.join(', ')}: permanent after create, the service does not update ${refusedFlags.length > 1 ? 'them' : 'it'}; nothing was sent`);
  }
  const refused = Object.keys(patch).filter((field) => (COLLECTION_REFUSED_UPDATE_FIELDS as readonly string[]).includes(field));
  if (refused.length > 0) {
    throw new UsageError(`${refusedMessage(refused)}; nothing was sent`);
  }
  // A field of the --from-json file that is no field of the update: name it as written there, not as a flag.
  const updatable = Object.keys(collectionUpdateBody().shape).filter((key) => key !== 'updatedBy');
  const unknown = [...jsonFields].filter((key) => !updatable.includes(key) && key !== 'updatedBy' && !(COLLECTION_REFUSED_UPDATE_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new UsageError(
      `--from-json ${options.fromJson}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => JSON.stringify(key)).join(', ')}; the fields an update takes are ${updatable.join(', ')}; nothing was sent`,
    );
  }
  const changes = Object.keys(patch).filter((key) => key !== 'updatedBy');
  if (changes.length === 0) throw new UsageError('nothing to update: give at least one of --name, --description, --max-assets, --[no-]editable, --[no-]deployable, --anchor, --[no-]local-cache-control, --local-cache-max-age');
  patch.updatedBy = await actingUser(ctx);
  // Fields from the file are named as written there (e.g. `maxAssets (--from-json)`), flags as flags.
  const names: Record<string, string> = { ...FLAGS };
  for (const key of jsonFields) if (key !== 'updatedBy') names[key] = `${key} (--from-json)`;
  const body = validateInput(collectionUpdateBody().strict(), patch, names);

  const api = await ctx.api();
  // maxAssets is checked against the current item count before sending, in a dry run too (exit 2).
  const view = body.maxAssets !== undefined ? await readSnapshot(api, collectionId) : undefined;
  if (view?.snapshot) {
    const decision = decideCollectionUpdate(collectionId, view.snapshot, body);
    if (!decision.ok) throw new UsageError(`${decision.title}; nothing was sent`);
  }
  const out = await ctx.output();
  const update = steps.collectionUpdate({ collectionId, body });
  return plan([update], (results) => {
    out.print(results.of(update)!, (c, kit) => renderCollection(c, kit));
    out.success(`updated collection ${collectionId} (${changes.join(', ')})`);
  });
};

/** The rules' answer, and the service's 400 for an anchor that is none of the collection's items. */

function refusedMessage(fields: string[]): string {
  const parts: string[] = [];
  const items: string[] = fields.filter((f) => f === 'assetItems');
  const deleted: string[] = fields.filter((f) => f === 'deleted' || f === 'deletedAt');
  const permanent = fields.filter((f) => !items.includes(f) && !deleted.includes(f));
  if (permanent.length) parts.push(`${permanent.join(', ')} cannot be updated (permanent after create, or set by the service)`);
  if (items.length) parts.push('assetItems cannot be updated: add or remove items with `ahs item upload|remove`');
  if (deleted.length) parts.push(`${deleted.join(', ')} cannot be updated: use \`ahs collection delete|restore\``);
  return parts.join('; ');
}

async function readJsonObject(ctx: Context, file: string): Promise<Record<string, unknown>> {
  let raw: string;
  try {
    raw = file === '-' ? await text(ctx.io.in) : await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--from-json: cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`--from-json: ${file} is not JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('--from-json: expected one JSON object of fields');
  return { ...(value as Record<string, unknown>) };
}
