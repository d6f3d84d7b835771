// ahs collection create COLLECTION_ID --name N --allowed-types CODE[,CODE...] [...]:
// asks for what is missing, then the operation (src/operations/collections.ts)
// plans one POST /vc.
import { z } from 'zod';
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { createSpec } from './index.js';
import { collectionCreateBody } from '../../rules/schemas.js';
import { validateGiven } from '../../operations/validate.js';
import { collectionCreatedLine, createCollection } from '../../operations/collections.js';
import { actingUser } from '../../pickers/pick-collection.js';
import { renderCollection } from '../../io/views/collections.js';
import { thenDo } from '../../plan/plan.js';
import { sourceOf } from '../../config/settings.js';

export const run: Run<typeof createSpec> = async (options, ctx) => {
  const flags = {
    collectionId: nameOf(createSpec, 'collectionId'),
    collectionName: nameOf(createSpec, 'name'),
    allowedAssetTypes: nameOf(createSpec, 'allowedTypes'),
    anchorAsset: nameOf(createSpec, 'anchor'),
  };
  const fromFlags = {
    collectionId: options.collectionId,
    collectionName: options.name,
    allowedAssetTypes: options.allowedTypes === undefined ? undefined : splitCodes(options.allowedTypes),
    description: options.description,
    maxAssets: options.maxAssets,
    editable: options.editable,
    deployable: options.deployable,
    anchorAsset: options.anchor,
    secured: options.secured,
    localCacheControl: options.localCacheControl,
    localCacheMaxAge: options.localCacheMaxAge,
  };
  // A bad flag is refused before any question is asked.
  validateGiven(collectionCreateBody(), fromFlags, flags);
  // Each answer is checked at its prompt with the message its flag would get.
  const fields = collectionCreateBody().shape;
  const collectionId = await ctx.need(fromFlags.collectionId, { flag: flags.collectionId, message: 'New collection id', schema: fields.collectionId });
  const collectionName = await ctx.need(fromFlags.collectionName, { flag: nameOf(createSpec, 'name'), message: 'Collection name', schema: fields.collectionName });
  const allowedAssetTypes =
    fromFlags.allowedAssetTypes ??
    splitCodes(
      await ctx.need<string>(undefined, {
        flag: nameOf(createSpec, 'allowedTypes'),
        message: 'Allowed asset type codes (comma-separated)',
        schema: z.string().transform(splitCodes).pipe(fields.allowedAssetTypes),
      }),
    );
  const settings = await ctx.settings();
  const user = await actingUser(ctx);
  // A collection's platform can never change: one taken from the environment or a profile, not typed here, is named (cli.md).
  const platform = settings.resolve('platform');
  const platformFrom = platform.source === 'env' || platform.source === 'profile' ? sourceOf('platform', platform.source, settings.profileName) : undefined;
  const out = await ctx.output();
  const planned = await createCollection(ctx, { ...fromFlags, collectionId, collectionName, allowedAssetTypes, platform: settings.get('platform'), platformFrom, user }, flags);
  return thenDo(planned, (collection) => {
    out.print(collection, (c, kit) => renderCollection(c, kit));
    out.success(collectionCreatedLine(collectionId));
  });
};

function splitCodes(codes: string): string[] {
  return codes
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean);
}
