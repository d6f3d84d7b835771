// ahs collection update COLLECTION_ID [updatable fields] [--from-json FILE]
// Refuses, before sending, what the service will not take: the permanent
// fields, assetItems, deleted, and a maxAssets below the current item count.
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { anchorNotInCollection, COLLECTION_REFUSED_UPDATE_FIELDS, decideCollectionUpdate, type Decision } from '../../rules/index.js';
import { collectionUpdateBody, type Collection } from '../../rules/schemas.js';
import { DryRunRejection, printDryRun, validateInput } from '../../dryrun/index.js';
import { actingUser, collectionArg, currentOf, given, NotFoundError, readSnapshot, renderCollection, vcPath } from './shared.js';

interface Opts {
  name?: string;
  description?: string;
  maxAssets?: number;
  editable?: boolean;
  deployable?: boolean;
  anchor?: string;
  localCacheControl?: boolean;
  localCacheMaxAge?: number;
  fromJson?: string;
  allowedTypes?: string;
  secured?: boolean;
}

const FLAGS = { collectionName: '--name', anchorAsset: '--anchor' };

export async function run({ args, opts, command }: Invocation<Opts>, ctx: Context): Promise<void> {
  const collectionId = await collectionArg(ctx, args[0]);
  const patch: Record<string, unknown> = opts.fromJson ? await readJsonObject(ctx, opts.fromJson) : {};
  const jsonFields = new Set(Object.keys(patch));
  const flagged: Record<string, unknown> = {
    collectionName: opts.name,
    description: opts.description,
    maxAssets: opts.maxAssets,
    editable: given(command, 'editable') ? opts.editable : undefined,
    deployable: given(command, 'deployable') ? opts.deployable : undefined,
    anchorAsset: opts.anchor,
    localCacheControl: given(command, 'localCacheControl') ? opts.localCacheControl : undefined,
    localCacheMaxAge: opts.localCacheMaxAge,
  };
  for (const [key, value] of Object.entries(flagged)) {
    if (value === undefined) continue;
    patch[key] = value;
    jsonFields.delete(key); // the flag wins: messages name the flag
  }

  // Permanent fields asked for by flag: say which flag, not which field.
  const refusedFlags: string[] = [];
  if (opts.allowedTypes !== undefined) refusedFlags.push('--allowed-types (allowedAssetTypes)');
  if (given(command, 'secured')) refusedFlags.push(opts.secured ? '--secured' : '--no-secured');
  if (command.parent?.parent?.getOptionValueSource('platform') === 'cli') refusedFlags.push('--platform (targetPlatform)');
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
      `--from-json ${opts.fromJson}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => JSON.stringify(key)).join(', ')}; the fields an update takes are ${updatable.join(', ')}; nothing was sent`,
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
  const path = vcPath(api, collectionId);
  // maxAssets is checked against the current item count before sending.
  const view = ctx.globals.dryRun || body.maxAssets !== undefined ? await readSnapshot(api, collectionId) : undefined;
  const decision = view ? decideCollectionUpdate(collectionId, view.snapshot, body) : undefined;
  if (ctx.globals.dryRun && view && decision) {
    // The service takes an anchor only among the collection's items (400, "not found": exit 4).
    const anchor = body.anchorAsset;
    const strayAnchor = decision.ok && typeof anchor === 'string' && anchor !== '' && !(view.collection?.assetItems ?? []).includes(anchor);
    const predicted: Decision<unknown> = strayAnchor
      ? anchorNotInCollection(anchor, collectionId)
      : decision;
    try {
      await printDryRun(ctx, { request: { method: 'PATCH', path, body }, current: currentOf(view), decision: predicted, notFound: !view.snapshot || strayAnchor });
    } catch (error) {
      // The real run refuses this one itself, before sending (exit 2): so does the dry run.
      if (error instanceof DryRunRejection && view.snapshot && !decision.ok) throw new UsageError(`${decision.title}; nothing was sent`);
      throw error;
    }
    return;
  }
  if (view && !view.snapshot) throw new NotFoundError(`collection ${collectionId} not found`);
  if (decision && !decision.ok) throw new UsageError(`${decision.title}; nothing was sent`);

  const updated = await api.patch<Collection>(path, body);
  const out = await ctx.output();
  out.print(updated, (c, kit) => renderCollection(c, kit));
  out.success(`updated collection ${collectionId} (${changes.join(', ')})`);
}

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
