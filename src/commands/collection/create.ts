import { given } from '../legacy.js';
// ahs collection create COLLECTION_ID --name N --allowed-types CODE[,CODE...] [...]
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { decideCollectionCreate } from '../../rules/index.js';
import { collectionCreateBody, type Collection } from '../../rules/schemas.js';
import { printDryRun } from '../legacy.js';
import { validateGiven, validateInput } from '../validate.js';
import { currentOf, readSnapshot } from '../../service/collections.js';
import { actingUser } from '../../service/pick-collection.js';
import { renderCollection } from '../../io/views/collections.js';

interface Opts {
  name?: string;
  allowedTypes?: string;
  description?: string;
  maxAssets?: number;
  editable: boolean;
  deployable: boolean;
  anchor?: string;
  secured: boolean;
  localCacheControl?: boolean;
  localCacheMaxAge?: number;
  platform?: string;
}

const FLAGS = { collectionName: '--name', allowedAssetTypes: '--allowed-types', anchorAsset: '--anchor', collectionId: 'COLLECTION_ID' };

export async function run({ args, opts, command }: Invocation<Opts>, ctx: Context): Promise<void> {
  const fromFlags = {
    collectionId: args[0],
    collectionName: opts.name,
    allowedAssetTypes: opts.allowedTypes === undefined ? undefined : splitCodes(opts.allowedTypes),
    description: opts.description,
    maxAssets: opts.maxAssets,
    editable: given(command, 'editable') ? opts.editable : undefined,
    deployable: given(command, 'deployable') ? opts.deployable : undefined,
    anchorAsset: opts.anchor,
    secured: given(command, 'secured') ? opts.secured : undefined,
    localCacheControl: opts.localCacheControl,
    localCacheMaxAge: opts.localCacheMaxAge,
  };
  // A bad flag is refused before any question is asked.
  validateGiven(collectionCreateBody(), fromFlags, FLAGS);
  const collectionId = await ctx.need(fromFlags.collectionId, { flag: 'COLLECTION_ID', message: 'New collection id' });
  const collectionName = await ctx.need(fromFlags.collectionName, { flag: '--name', message: 'Collection name' });
  const allowedAssetTypes =
    fromFlags.allowedAssetTypes ?? splitCodes(await ctx.need<string>(undefined, { flag: '--allowed-types', message: 'Allowed asset type codes (comma-separated)' }));
  const settings = await ctx.settings();
  const user = await actingUser(ctx);
  const body = validateInput(
    collectionCreateBody(),
    { ...fromFlags, collectionId, collectionName, allowedAssetTypes, createdBy: user, updatedBy: user, targetPlatform: settings.get('platform') },
    FLAGS,
  );
  const api = await ctx.api();
  const path = api.path('vc');
  if (ctx.globals.dryRun) {
    const view = await readSnapshot(api, collectionId);
    await printDryRun(ctx, {
      request: { method: 'POST', path, body },
      current: currentOf(view),
      decision: decideCollectionCreate(collectionId, view.snapshot),
    });
    return;
  }
  const created = await api.post<Collection>(path, body);
  const out = await ctx.output();
  out.print(created, (c, kit) => renderCollection(c, kit));
  out.success(`created collection ${collectionId}; add files with: ahs item upload ${collectionId} FILE... --type CODE`);
}

function splitCodes(codes: string): string[] {
  return codes
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean);
}
