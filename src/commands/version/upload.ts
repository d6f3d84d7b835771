// Streams the file as multipart (assetFile), progress on stderr.
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { allow } from '../../rules/index.js';
import { nextVersionId } from '../../rules/assets.js';
import { versionUploadFields, type Version } from '../../rules/schemas.js';
import { printDryRun } from '../legacy.js';
import { validateGiven, validateInput } from '../validate.js';
import { getAsset, listAllVersions } from '../../service/assets.js';
import { prepareMultipart } from '../../transfer/upload.js';
import { formatBytes } from '../../io/progress.js';
import { renderVersion } from '../../io/views/assets.js';
import { askAssetId } from '../../service/pick-asset.js';
import { fileArg } from '../../service/pick-file.js';

interface Options {
  name?: string;
}

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  if (opts.name !== undefined) validateGiven(versionUploadFields, { versionName: opts.name }, { versionName: '--name' });
  const assetId = await askAssetId(ctx, args[0]);
  const file = await fileArg(ctx, args[1]);
  const platform = await ctx.setting('platform', { message: 'Target platform code' });
  const versionName = await ctx.need(opts.name, { flag: '--name', message: 'Version name' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const fields = validateInput(versionUploadFields, { versionName, createdBy: user }, { versionName: '--name' });
  const progress = await ctx.progress(`Uploading ${file.split('/').pop()}`);
  const body = await prepareMultipart({
    fields,
    file: { field: 'assetFile', path: file },
    onProgress: (sent, total) => progress.update(sent, total),
  });
  const api = await ctx.api();
  const out = await ctx.output();
  const path = api.path('va', assetId, 'versions');
  const query = { targetPlatformId: platform };
  if (ctx.globals.dryRun) {
    progress.stop();
    const asset = await getAsset(api, assetId);
    const versions = await listAllVersions(api, assetId);
    const last = Math.max(0, ...versions.filter((v) => v.targetPlatform === platform).map((v) => v.version));
    const { versionId, version } = nextVersionId(platform, last);
    const now = new Date().toISOString();
    const predicted: Version = {
      versionId,
      version,
      versionName,
      targetPlatform: platform,
      assetType: asset.assetType,
      secured: asset.secured,
      size: formatBytes(body.fileSize),
      fileName: body.fileName,
      uploadStatus: 'Committed',
      createdBy: user,
      updatedBy: user,
      active: true,
      createdAt: now,
      updatedAt: now,
    };
    await printDryRun(ctx, {
      request: { method: 'POST', path, query, body: { ...fields, assetFile: { fileName: body.fileName, size: body.fileSize, contentType: body.contentType.split(';')[0] } } },
      current: { asset: asset.assetId, versionsOnPlatform: versions.filter((v) => v.targetPlatform === platform).map((v) => v.versionId) },
      decision: allow(201, predicted),
      notes: [
        'the version id assumes no deleted version used a higher number on this platform',
        'the platform code, the file type and the plan limits are checked by the service',
      ],
    });
    return;
  }
  let created: Version;
  try {
    created = await api.json<Version>({ method: 'POST', path, query, stream: body });
  } catch (error) {
    progress.stop();
    throw error;
  }
  progress.done(`Uploaded ${body.fileName} as ${created.versionId}`);
  out.print(created, renderVersion);
}
