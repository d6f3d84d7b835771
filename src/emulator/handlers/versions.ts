// Versions (upload, get, list, delete, asset-urls), version deploy and asset
// undeploy. Every state change is decided by src/rules; this file holds the
// data and applies the decision.
import {
  applyAssetUndeploy,
  ASSET_UNDEPLOYED,
  DEPLOY_COMPLETED,
  applyVersionDeploy,
  decideAssetUndeploy,
  decideVersionDelete,
  decideVersionDeploy,
  createdVersion,
  type Allowed,
  type ChannelSnapshot,
  type DeploymentState,
} from '../../rules/index.js';
import { deployRequestBody, undeployBody, versionUploadFields } from '../../rules/schemas.js';
import type { RequestContext } from '../context.js';
import { sizeString } from '../variation.js';
import { drain, paginate, readJson, sendEmpty, type Router } from '../http.js';
import { fail, Problem } from '../problem.js';
import { undeployFailed, undeployPlatformsMissing, versionNotFound, versionNotFoundForPlatform } from '../../rules/rejections.js';
import { dict, type AssetRecord, type ChannelRecord, type DeploymentRecord, type Frozen, type VersionRecord } from '../state.js';
import {
  check,
  checkFile,
  checkPlan,
  findActiveAsset,
  findAsset,
  mimeTypeOf,
  now,
  receiveUpload,
  requireActingUser,
  requireEnvironment,
  requireKeyScope,
  requirePlatform,
  withUpload,
  deploymentDelay,
  downloadUrlOf,
  reply,
} from './common.js';

export function versionView(ctx: RequestContext, asset: AssetRecord, version: VersionRecord) {
  const view = {
    versionId: version.versionId,
    version: version.version,
    versionName: version.versionName,
    targetPlatform: version.targetPlatform,
    assetType: asset.assetType,
    secured: asset.secured,
    size: version.size,
    fileName: version.fileName as string | undefined,
    uploadStatus: 'Committed' as const,
    createdBy: version.createdBy,
    updatedBy: version.updatedBy,
    active: version.active,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
  };
  // The spec: older versions lack fileName; a variation answers like that.
  if (!ctx.emu.variation.versionFileName) delete view.fileName;
  return view;
}

function deploymentView(asset: AssetRecord, version: VersionRecord, envId: string, record: DeploymentRecord) {
  return {
    version: version.version,
    assetType: asset.assetType,
    versionId: version.versionId,
    versionName: version.versionName,
    envId,
    fallback: false,
    lock: false,
    state: record.state,
    createdBy: record.createdBy,
    updatedBy: record.updatedBy,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    active: version.active,
    secured: asset.secured,
    size: version.size,
    targetPlatform: version.targetPlatform,
    uploadStatus: 'Committed',
  };
}

/** Delivery path of a deployed version, relative to {deliveryUrl}/api/vi. */
export function versionDeliveryPath(domainId: string, assetId: string, platform: string, envId: string, version: VersionRecord): string {
  return `/${[domainId, 'va', assetId, platform, envId, version.versionId, version.fileName || 'file'].map(encodeURIComponent).join('/')}`;
}

export function channelKey(domainId: string, assetId: string, platform: string, envId: string): string {
  return JSON.stringify(['channel', domainId, assetId, platform, envId]);
}

function channelOf(ctx: RequestContext, assetId: string, platform: string, envId: string): Frozen<ChannelRecord> | undefined {
  return ctx.data.channels[assetId]?.[platform]?.[envId];
}

function snapshotOf(channel: Frozen<ChannelRecord> | undefined, midDeployment: boolean): ChannelSnapshot {
  const records = dict<DeploymentState>();
  for (const [versionId, record] of Object.entries(channel?.records ?? {})) records[versionId] = record.state;
  return { records, formerDefaults: [...(channel?.formerDefaults ?? [])], midDeployment };
}

export interface UrlFilter {
  platform?: string;
  envId?: string;
  versionId?: string;
  accept: (state: DeploymentState) => boolean;
}

/** Deployed URL entries of an asset (asset-urls), in platform, environment and version order. */
export function assetUrlEntries(ctx: RequestContext, asset: AssetRecord, filter: UrlFilter) {
  const versions = ctx.data.versions[asset.assetId] ?? {};
  const entries = [];
  const channels = ctx.data.channels[asset.assetId] ?? {};
  const platforms = ctx.domain.targetPlatforms.filter((platform) => channels[platform] && (!filter.platform || filter.platform === platform));
  for (const platform of platforms) {
    for (const envId of ctx.domain.environments) {
      if (filter.envId && filter.envId !== envId) continue;
      const channel = channels[platform]?.[envId];
      if (!channel) continue;
      const rows = Object.entries(channel.records)
        .filter(([versionId, record]) => (!filter.versionId || filter.versionId === versionId) && filter.accept(record.state) && versions[versionId])
        .sort(([a], [b]) => versions[a]!.version - versions[b]!.version);
      for (const [versionId, record] of rows) {
        const version = versions[versionId]!;
        const entry: Record<string, unknown> = {
          assetId: asset.assetId,
          version: version.version,
          versionId,
          versionName: version.versionName,
          targetPlatform: platform,
          assetType: asset.assetType,
          secured: asset.secured,
          state: record.state,
          envId,
        };
        if (record.state !== 'OFFLINE') {
          entry.downloadUrl = downloadUrlOf(ctx, versionDeliveryPath(ctx.domainId, asset.assetId, platform, envId, version));
        }
        entries.push(entry);
      }
    }
  }
  return entries;
}

function findVersion(ctx: RequestContext, asset: AssetRecord, versionId: string): VersionRecord {
  const version = ctx.data.versions[asset.assetId]?.[versionId];
  if (!version) fail(versionNotFound(versionId, asset.assetId));
  return version;
}

export function registerVersions(router: Router<RequestContext>): void {
  router.add('POST', '/va/:assetId/versions', async (ctx, { assetId }) => {
    findActiveAsset(ctx, assetId!);
    const platform = requirePlatform(ctx, ctx.query.get('targetPlatformId'));
    const upload = await receiveUpload(ctx);
    const created = await withUpload(ctx, upload, async (file) => {
      const fields = check(versionUploadFields, upload.fields);
      requireActingUser(ctx, fields.createdBy, 'createdBy');
      const asset = findActiveAsset(ctx, assetId!);
      const uploaded = checkFile(ctx, file, asset.assetType);
      checkPlan(ctx, uploaded);
      const record = await ctx.emu.store.addVersion(ctx.domainId, asset.assetId, uploaded.pending, (blobId) => {
        // Called synchronously once the file is stored: the sequence and the storage total cannot race.
        const current = findActiveAsset(ctx, assetId!);
        checkPlan(ctx, uploaded);
        const created = createdVersion(
          current,
          {
            platform,
            latest: current.sequences[platform] ?? ctx.emu.variation.versionSequenceStart - 1,
            versionName: fields.versionName,
            createdBy: fields.createdBy,
            fileName: uploaded.fileName,
            bytes: uploaded.size,
            size: sizeString(ctx.emu.variation, uploaded.size),
          },
          now(ctx),
        );
        // The asset's fields (type, secured) are read from the asset when the version is shown.
        const { assetType: _type, secured: _secured, uploadStatus: _status, ...record } = created;
        return { ...record, fileName: uploaded.fileName, sizeBytes: uploaded.size, mimetype: mimeTypeOf(uploaded), blobId };
      });
      return { asset: findAsset(ctx, asset.assetId), record };
    });
    reply(ctx, 201, versionView(ctx, created.asset, created.record));
  });

  router.add('GET', '/va/:assetId/versions', async (ctx, { assetId }) => {
    const asset = findActiveAsset(ctx, assetId!);
    const all = Object.values(ctx.data.versions[asset.assetId] ?? {}).map((version) => versionView(ctx, asset, version));
    reply(ctx, 200, paginate(all, ctx));
  });

  router.add('GET', '/va/:assetId/versions/:versionId', async (ctx, { assetId, versionId }) => {
    const asset = findActiveAsset(ctx, assetId!);
    reply(ctx, 200, versionView(ctx, asset, findVersion(ctx, asset, versionId!)));
  });

  router.add('DELETE', '/va/:assetId/versions/:versionId', async (ctx, { assetId, versionId }) => {
    await drain(ctx.req);
    const asset = findActiveAsset(ctx, assetId!);
    const version = findVersion(ctx, asset, versionId!);
    const channels = ctx.data.channels[asset.assetId]?.[version.targetPlatform] ?? {};
    const refs = Object.entries(channels).flatMap(([envId, channel]) => {
      const record = channel.records[version.versionId];
      return record ? [{ envId, state: record.state }] : [];
    });
    const decision = decideVersionDelete(version.versionId, refs);
    if (!decision.ok) fail(decision);
    await ctx.emu.store.deleteVersion(ctx.domainId, asset.assetId, version.versionId);
    sendEmpty(ctx.res, 204);
  });

  // This version's records: every state, OFFLINE included (without downloadUrl), unless the variation leaves OFFLINE out.
  router.add('GET', '/va/:assetId/versions/:versionId/asset-urls', async (ctx, { assetId, versionId }) => {
    const asset = findActiveAsset(ctx, assetId!);
    const version = findVersion(ctx, asset, versionId!);
    const envId = ctx.query.get('envId') || undefined;
    if (envId !== undefined) requireEnvironment(ctx, envId);
    // A variation: another service leaves OFFLINE out here too, as the asset-wide listing does without `state`.
    const accept = (state: DeploymentState) => !(ctx.emu.variation.versionUrlsWithoutOffline && state === 'OFFLINE');
    const entries = assetUrlEntries(ctx, asset, { versionId: version.versionId, platform: version.targetPlatform, ...(envId ? { envId } : {}), accept });
    reply(ctx, 200, paginate(entries, ctx));
  });

  router.add('POST', '/va/:assetId/versions/:versionId/deploy', async (ctx, { assetId, versionId }) => {
    const asset = findActiveAsset(ctx, assetId!);
    const platform = requirePlatform(ctx, ctx.query.get('targetPlatformId'));
    const raw = await readJson(ctx.req);
    const envId = requireEnvironment(ctx, raw.envId);
    requireKeyScope(ctx, envId);
    const version = ctx.data.versions[asset.assetId]?.[versionId!];
    if (!version || !version.active || version.targetPlatform !== platform) {
      fail(versionNotFoundForPlatform(versionId!, platform, asset.assetId, version?.targetPlatform));
    }
    const body = check(deployRequestBody, raw);
    const request = {
      versionId: version.versionId,
      ...(body.intent !== undefined ? { intent: body.intent } : {}),
      ...(body.createdBy !== undefined ? { createdBy: body.createdBy } : {}),
      ...(body.updatedBy !== undefined ? { updatedBy: body.updatedBy } : {}),
      ...(body.currentVersionId !== undefined ? { currentVersionId: body.currentVersionId } : {}),
      ...(body.currentAssetIntent !== undefined ? { currentAssetIntent: body.currentAssetIntent } : {}),
    };
    const key = channelKey(ctx.domainId, asset.assetId, platform, envId);
    const decide = () => decideVersionDeploy(snapshotOf(channelOf(ctx, asset.assetId, platform, envId), ctx.emu.deployments.isRunning(key)), request);
    let decision = decide();
    if (!decision.ok) fail(decision);
    requireActingUser(ctx, body.createdBy, 'createdBy');
    requireActingUser(ctx, body.updatedBy, 'updatedBy');
    if (await deploymentDelay(ctx, key)) {
      // Things may have changed meanwhile: decide again on the fresh state.
      findActiveAsset(ctx, asset.assetId);
      if (!ctx.data.versions[asset.assetId]?.[version.versionId]) fail(versionNotFound(version.versionId, asset.assetId));
      decision = decide();
      if (!decision.ok) fail(decision);
    }
    const channel = deployedChannel(channelOf(ctx, asset.assetId, platform, envId), version.versionId, decision, body.createdBy, body.updatedBy, now(ctx));
    await ctx.emu.store.putChannels(ctx.domainId, asset.assetId, [{ platform, envId, channel }]);
    reply(ctx, decision.status, { assetVersion: deploymentView(asset, version, envId, channel.records[version.versionId]!), message: decision.message ?? DEPLOY_COMPLETED });
  });

  router.add('POST', '/va/:assetId/undeploy', async (ctx, { assetId }) => {
    try {
      const asset = findAsset(ctx, assetId!);
      const raw = await readJson(ctx.req);
      const envId = requireEnvironment(ctx, raw.envId);
      const platforms = raw.targetPlatforms;
      if (!Array.isArray(platforms) || platforms.length === 0) {
        fail(undeployPlatformsMissing(ctx.domain.targetPlatforms));
      }
      for (const platform of platforms) requirePlatform(ctx, typeof platform === 'string' ? platform : String(platform), 'targetPlatforms');
      const body = check(undeployBody, raw);
      requireKeyScope(ctx, envId);
      const busy = body.targetPlatforms.some((platform) => ctx.emu.deployments.isRunning(channelKey(ctx.domainId, asset.assetId, platform, envId)));
      // A variation: another service may fail an undeploy that meets a running deployment, in plain text.
      if (busy && ctx.emu.variation.undeployPlainText500) throw new Problem(undeployFailed('a deployment of this channel is still running'), true);
      const channels = ctx.data.channels[asset.assetId] ?? {};
      const records = body.targetPlatforms.flatMap((platform) =>
        Object.keys(channels[platform]?.[envId]?.records ?? {}).map((versionId) => ({ versionId, targetPlatform: platform })),
      );
      const decision = decideAssetUndeploy(envId, [...new Set(body.targetPlatforms)], records);
      if (!decision.ok) fail(decision);
      const emptied = decision.effects.flatMap((effect) =>
        effect.kind !== 'removeRecords'
          ? []
          : effect.platforms.flatMap((platform) => {
              const channel = channels[platform]?.[effect.envId];
              return channel ? [{ platform, envId: effect.envId, channel: { records: dict<DeploymentRecord>(), formerDefaults: applyAssetUndeploy(snapshotOf(channel, false)).formerDefaults } }] : [];
            }),
      );
      await ctx.emu.store.putChannels(ctx.domainId, asset.assetId, emptied);
      reply(ctx, decision.status, { message: decision.message ?? ASSET_UNDEPLOYED, totalUndeployedVersions: decision.next.totalUndeployedVersions });
    } catch (error) {
      if (error instanceof Problem) throw error;
      // The spec: undeploy's 500 may not be an error body of the usual shape.
      throw new Problem(undeployFailed((error as Error).message), true);
    }
  });
}

/** The channel after an allowed deploy: the records the rules' next state names, stamped with who and when. */
function deployedChannel(
  channel: Frozen<ChannelRecord> | undefined,
  versionId: string,
  decision: Allowed<DeploymentState>,
  createdBy: string | undefined,
  updatedBy: string | undefined,
  at: string,
): ChannelRecord {
  const next = applyVersionDeploy(snapshotOf(channel, false), versionId, decision);
  const actor = updatedBy ?? createdBy ?? '';
  const records: ChannelRecord['records'] = dict();
  for (const [id, state] of Object.entries(next.records)) {
    const existing = channel?.records[id];
    if (!existing) records[id] = { state, createdBy: createdBy ?? actor, updatedBy: actor, createdAt: at, updatedAt: at };
    else if (existing.state !== state || id === versionId) records[id] = { ...existing, state, updatedBy: actor, updatedAt: at };
    else records[id] = { ...existing };
  }
  return { records, formerDefaults: next.formerDefaults };
}
