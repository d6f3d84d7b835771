// The delivery network (served on the same port under /api/vi): a deployed
// collection's document, its items' bytes, and deployed versions' bytes.
// `apikey` is needed only for secured collections and assets (any valid key
// of the domain); errors use the service's four-field body (emulator.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Emulator } from '../context.js';
import type { DomainFixture } from '../fixture.js';
import type { Router } from '../http.js';
import { reply } from './common.js';
import { fail } from '../problem.js';
import { defaultOf, effectiveAnchor, emptyChannel } from '../../rules/index.js';
import { collectionNotLiveAt, deliveryDomainNotFound, deliveryKeyInvalid, itemNotInCollection, noDefaultVersion, securedContentNeedsKey, storedFileMissing, versionNotDeployedAt } from '../../rules/rejections.js';
import type { CollectionRecord, DomainState, Frozen, ItemRecord, VersionRecord } from '../state.js';
import { collectionDeliveryPath } from './collections.js';

export interface DeliveryContext {
  emu: Emulator;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  query: URLSearchParams;
}

function domainOf(ctx: DeliveryContext, domainId: string): { domain: DomainFixture; data: Frozen<DomainState> } {
  const domain = ctx.emu.fixture.domains.find((candidate) => candidate.domainId === domainId);
  if (!domain) fail(deliveryDomainNotFound(domainId));
  return { domain, data: ctx.emu.store.domain(domainId) };
}

function requireKeyIfSecured(ctx: DeliveryContext, domain: DomainFixture, secured: boolean): void {
  if (!secured) return;
  const header = ctx.req.headers.apikey;
  const presented = Array.isArray(header) ? header[0] : header;
  if (!presented) fail(securedContentNeedsKey());
  if (!domain.apiKeys.some((key) => key.key === presented)) fail(deliveryKeyInvalid(domain.domainId));
}

function liveCollection(ctx: DeliveryContext, domainId: string, collectionId: string, envId: string) {
  const { domain, data } = domainOf(ctx, domainId);
  const collection = data.collections[collectionId];
  if (!collection || collection.deleted || data.collectionDeployments[collectionId]?.[envId]?.state !== 'LIVE') {
    fail(collectionNotLiveAt(collectionId, envId));
  }
  requireKeyIfSecured(ctx, domain, collection.secured);
  return { domain, data, collection };
}

function itemPath(domainId: string, collection: Frozen<CollectionRecord>, envId: string, item: Frozen<ItemRecord>): string {
  return `${collectionDeliveryPath(domainId, collection.collectionId, envId)}/items/${encodeURIComponent(item.assetItemId)}/${encodeURIComponent(item.fileName || 'file')}`;
}

async function streamBlob(ctx: DeliveryContext, blobId: string, mimetype: string, fileName: string): Promise<void> {
  const size = await ctx.emu.store.blobSize(blobId).catch(() => {
    fail(storedFileMissing(fileName));
  });
  ctx.res.writeHead(200, {
    'content-type': mimetype,
    'content-length': size,
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  });
  if (ctx.req.method === 'HEAD') {
    ctx.res.end();
    return;
  }
  await pipeline(ctx.emu.store.openBlob(blobId), ctx.res).catch(() => ctx.res.destroy());
}

export function registerDelivery(router: Router<DeliveryContext>): void {
  // The collection's downloadUrl: the delivery document, not a file.
  router.add('GET', '/:domainId/vc/:collectionId/:envId', async (ctx, { domainId, collectionId, envId }) => {
    const { data, collection } = liveCollection(ctx, domainId!, collectionId!, envId!);
    const entries = collection.assetItems.flatMap((itemId) => {
      const item = data.items[itemId];
      if (!item) return [];
      return [
        {
          assetItemId: item.assetItemId,
          assetItemName: item.assetItemName,
          downloadUrl: itemPath(domainId!, collection, envId!, item),
          targetPlatform: collection.targetPlatform,
          mimetype: item.mimetype,
        },
      ];
    });
    const anchorId = effectiveAnchor(collection.anchorAsset, entries.map((entry) => entry.assetItemId));
    const anchor = entries.find((entry) => entry.assetItemId === anchorId) ?? null;
    reply(ctx, 200, {
      downloadUrl: collectionDeliveryPath(domainId!, collection.collectionId, envId!),
      anchorAsset: anchor,
      assetItemUrls: entries,
      collectionId: collection.collectionId,
      domainId: domainId!,
      envId: envId!,
      secured: collection.secured,
      localCacheControl: collection.localCacheControl,
      localCacheMaxAge: collection.localCacheMaxAge,
      targetPlatform: collection.targetPlatform,
    });
  });

  router.add('GET', '/:domainId/vc/:collectionId/:envId/items/:itemId/:fileName', async (ctx, { domainId, collectionId, envId, itemId }) => {
    const { data, collection } = liveCollection(ctx, domainId!, collectionId!, envId!);
    const item = data.items[itemId!];
    if (!item || !collection.assetItems.includes(item.assetItemId)) fail(itemNotInCollection(itemId!, collectionId!));
    await streamBlob(ctx, item.blobId, item.mimetype, item.fileName);
  });

  // A deployed version's bytes (asset-urls downloadUrl): LIVE or DEFAULT only.
  router.add('GET', '/:domainId/va/:assetId/:platform/:envId/:versionId/:fileName', async (ctx, { domainId, assetId, platform, envId, versionId }) => {
    const { domain, data } = domainOf(ctx, domainId!);
    const asset = data.assets[assetId!];
    const version = data.versions[assetId!]?.[versionId!];
    const state = data.channels[assetId!]?.[platform!]?.[envId!]?.records[versionId!]?.state;
    if (!asset || !version || version.targetPlatform !== platform || (state !== 'LIVE' && state !== 'DEFAULT')) {
      fail(versionNotDeployedAt(versionId!, assetId!, platform!, envId!));
    }
    requireKeyIfSecured(ctx, domain, asset.secured);
    await streamBlob(ctx, version.blobId, version.mimetype, version.fileName);
  });

  // The channel's current Default version (a convenience of the emulator).
  router.add('GET', '/:domainId/va/:assetId/:platform/:envId/default', async (ctx, { domainId, assetId, platform, envId }) => {
    const { domain, data } = domainOf(ctx, domainId!);
    const asset = data.assets[assetId!];
    const records = data.channels[assetId!]?.[platform!]?.[envId!]?.records ?? {};
    const versionId = defaultOf({ ...emptyChannel(), records: Object.fromEntries(Object.entries(records).map(([id, record]) => [id, record.state])) });
    const version: Frozen<VersionRecord> | undefined = versionId ? data.versions[assetId!]?.[versionId] : undefined;
    if (!asset || !version) fail(noDefaultVersion(assetId!, platform!, envId!));
    requireKeyIfSecured(ctx, domain, asset.secured);
    await streamBlob(ctx, version.blobId, version.mimetype, version.fileName);
  });
}
