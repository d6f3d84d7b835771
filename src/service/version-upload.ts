// The version upload as a plan step, shared by `version upload` and
// `release`: one POST of the file as a streamed multipart body (assetFile),
// progress on stderr. A lost answer is settled by listing the asset's
// versions for the one this upload made.
import type { ApiClient } from '../http/client.js';
import { allow } from '../rules/index.js';
import { nextVersionId } from '../rules/assets.js';
import type { Version } from '../rules/schemas.js';
import type { PreparedUpload } from '../transfer/upload.js';
import { formatBytes, type Progress } from '../io/progress.js';
import type { Step } from '../plan/plan.js';
import { getAsset, listAllVersions } from './assets.js';

export interface VersionUpload {
  assetId: string;
  platform: string;
  fields: { versionName: string; createdBy: string };
  body: PreparedUpload;
}

export function versionUploadStep(api: ApiClient, upload: VersionUpload, progress: Progress): Step<Version> {
  const { assetId, platform, fields, body } = upload;
  const request = {
    method: 'POST' as const,
    path: api.path('va', assetId, 'versions'),
    query: { targetPlatformId: platform },
    body: { ...fields, assetFile: { fileName: body.fileName, size: body.fileSize, contentType: body.contentType.split(';')[0] } },
  };
  /** When the upload began: a version created before it is not this upload's. */
  let started = 0;
  return {
    request,
    predict: () => predictUpload(api, upload),
    async send(client) {
      started = Date.now();
      let created: Version;
      try {
        created = await client.json<Version>({ method: 'POST', path: request.path, query: request.query, stream: body });
      } catch (error) {
        progress.stop();
        throw error;
      }
      progress.done(`Uploaded ${body.fileName} as ${created.versionId}`);
      return created;
    },
    // Exactly one version of this name and platform created since the upload started is this upload's.
    async settle(client) {
      const versions = await listAllVersions(client, assetId);
      const made = versions.filter((v) => v.versionName === fields.versionName && v.targetPlatform === platform && client.madeSince(v.createdAt, started));
      const what = `${platform} version named ${fields.versionName} created since the upload started`;
      if (made.length === 1) return { applied: true, how: `the asset's versions show one ${what} (${made[0]!.versionId})`, result: made[0]! };
      if (made.length === 0) return { applied: false, how: `the asset's versions show no ${what}` };
      return { applied: 'unknown', check: `ahs version list ${assetId} --all` };
    },
  };
}

async function predictUpload(api: ApiClient, { assetId, platform, fields, body }: VersionUpload) {
  const asset = await getAsset(api, assetId);
  const onPlatform = (await listAllVersions(api, assetId)).filter((v) => v.targetPlatform === platform);
  const { versionId, version } = nextVersionId(platform, Math.max(0, ...onPlatform.map((v) => v.version)));
  const now = new Date().toISOString();
  const predicted: Version = {
    versionId,
    version,
    versionName: fields.versionName,
    targetPlatform: platform,
    assetType: asset.assetType,
    secured: asset.secured,
    size: formatBytes(body.fileSize),
    fileName: body.fileName,
    uploadStatus: 'Committed',
    createdBy: fields.createdBy,
    updatedBy: fields.createdBy,
    active: true,
    createdAt: now,
    updatedAt: now,
  };
  return {
    current: { asset: asset.assetId, versionsOnPlatform: onPlatform.map((v) => v.versionId) },
    decision: allow(201, predicted),
    notes: [
      'the version id assumes no deleted version used a higher number on this platform',
      'the platform code, the file type and the plan limits are checked by the service',
    ],
  };
}
