// ahs collection create COLLECTION_ID --name N --allowed-types CODE[,CODE...] [...]
import { z } from 'zod';
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { createSpec } from './index.js';
import { collectionCreateBody } from '../../rules/schemas.js';
import { validateGiven, validateInput } from '../../operations/validate.js';
import { actingUser } from '../../pickers/pick-collection.js';
import { renderCollection } from '../../io/views/collections.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';
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
  const body = validateInput(
    collectionCreateBody(),
    { ...fromFlags, collectionId, collectionName, allowedAssetTypes, createdBy: user, updatedBy: user, targetPlatform: settings.get('platform') },
    flags,
  );
  const out = await ctx.output();
  // A collection's platform can never change: one taken from the environment or a profile, not typed here, is named (cli.md).
  const platform = settings.resolve('platform');
  if (platform.value !== undefined && (platform.source === 'env' || platform.source === 'profile')) {
    out.info(`platform ${platform.value}, from ${sourceOf('platform', platform.source, settings.profileName)}: a collection's platform can never change (--platform chooses another)`);
  }
  const create = steps.collectionCreate({ collectionId, body });
  return plan([create], (results) => {
    out.print(results.of(create)!, (c, kit) => renderCollection(c, kit));
    out.success(`created collection ${collectionId}; add files with: ahs item upload ${collectionId} FILE... --type CODE`);
  });
};

function splitCodes(codes: string): string[] {
  return codes
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean);
}
