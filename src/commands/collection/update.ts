// ahs collection update COLLECTION_ID [updatable fields] [--from-json FILE]
// Refuses, before sending, what the service will not take: the permanent
// flags here, the permanent fields, assetItems, deleted, and a maxAssets below
// the current item count in the operation (src/operations/collections.ts).
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { nameOf, type Run } from '../define.js';
import { updateSpec } from './index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collectionChanges, collectionUpdatedLine, updateCollection } from '../../operations/collections.js';
import { actingUser, collectionArg } from '../../pickers/pick-collection.js';
import { renderCollection } from '../../io/views/collections.js';
import { thenDo } from '../../plan/plan.js';

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
  // Fields from the file are named as written there (e.g. `maxAssets (--from-json)`), flags as flags.
  const names: Record<string, string> = { ...FLAGS };
  for (const key of jsonFields) if (key !== 'updatedBy') names[key] = `${key} (--from-json)`;
  const messages = {
    // A field of the --from-json file that is no field of the update: named as written there, not as a flag.
    unknown: (unknown: string[], updatable: string[]) =>
      `--from-json ${options.fromJson}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => JSON.stringify(key)).join(', ')}; the fields an update takes are ${updatable.join(', ')}; nothing was sent`,
    nothing: 'nothing to update: give at least one of --name, --description, --max-assets, --[no-]editable, --[no-]deployable, --anchor, --[no-]local-cache-control, --local-cache-max-age',
  };
  const changes = collectionChanges(patch, messages);
  const user = await actingUser(ctx);
  const planned = await updateCollection(ctx, { collectionId, patch, user }, names, messages);
  const out = await ctx.output();
  return thenDo(planned, (collection) => {
    out.print(collection, (c, kit) => renderCollection(c, kit));
    out.success(collectionUpdatedLine(collectionId, changes));
  });
};

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
