// ahs collection create COLLECTION_ID --name N --allowed-types CODE[,CODE...] [...]
import { z } from 'zod';
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { createSpec } from './index.js';
import { decideCollectionCreate } from '../../rules/index.js';
import { collectionCreateBody, type Collection } from '../../rules/schemas.js';
import { validateGiven, validateInput } from '../validate.js';
import { readCollection, readSnapshot, currentOf } from '../../service/collections.js';
import { actingUser } from '../../service/pick-collection.js';
import { renderCollection } from '../../io/views/collections.js';
import { plan, type Settlement } from '../../plan/plan.js';
import type { ApiClient } from '../../http/client.js';

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
  const api = await ctx.api();
  const out = await ctx.output();
  const startedAt = Date.now();
  // No collectionId on this step: a 400 of a create is never "the collection named does not exist".
  return plan(
    [
      {
        request: { method: 'POST', path: api.path('vc'), body },
        async predict() {
          const view = await readSnapshot(api, collectionId);
          return {
            current: currentOf(view),
            decision: decideCollectionCreate(collectionId, view.snapshot),
            notes: ['the asset type codes and the platform are checked by the service (400 when unknown)'],
          };
        },
        settle: (client) => settleCreate(client, collectionId, user, startedAt),
      },
    ],
    ([created]) => {
      out.print(created as Collection, (c, kit) => renderCollection(c, kit));
      out.success(`created collection ${collectionId}; add files with: ahs item upload ${collectionId} FILE... --type CODE`);
    },
  );
};

/** A lost answer: applied when the collection now exists, created by us since we started. */
async function settleCreate(api: ApiClient, collectionId: string, user: string, startedAt: number): Promise<Settlement<Collection>> {
  const found = await readCollection(api, collectionId);
  if (!found) return { applied: false, how: `GET /vc/${collectionId} says it does not exist` };
  const ours = found.createdBy === user && api.madeSince(found.createdAt, startedAt);
  if (ours) return { applied: true, result: found, how: `collection ${collectionId} exists, created by ${user}` };
  return { applied: false, how: `collection ${collectionId} exists, created by ${found.createdBy} at ${found.createdAt}: not by this command` };
}

function splitCodes(codes: string): string[] {
  return codes
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean);
}
