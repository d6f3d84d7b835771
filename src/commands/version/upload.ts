// version upload ASSET_ID FILE --platform P --name N: one POST of the file as
// a streamed multipart body, progress on stderr (the version.upload step of
// src/plan/kinds/versions.ts). The service takes a second version of a name
// already there: said before sending (release reuses it instead).
import { nameOf, type Run } from '../define.js';
import { uploadSpec } from './index.js';
import { versionUploadFields } from '../../rules/schemas.js';
import { validateGiven, validateInput } from '../validate.js';
import { localFile } from '../../transfer/upload.js';
import { renderVersion } from '../../io/views/assets.js';
import { askAssetId } from '../../service/pick-asset.js';
import { listAllVersions } from '../../service/assets.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';
import { fileArg } from '../../service/pick-file.js';

export const run: Run<typeof uploadSpec> = async (options, ctx) => {
  const flags = { versionName: nameOf(uploadSpec, 'name') };
  if (options.name !== undefined) validateGiven(versionUploadFields, { versionName: options.name }, flags);
  const assetId = await askAssetId(ctx, options.assetId);
  const file = await fileArg(ctx, options.file);
  const platform = await ctx.setting('platform', { message: 'Target platform code' });
  const versionName = await ctx.need(options.name, { flag: flags.versionName, message: 'Version name' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const fields = validateInput(versionUploadFields, { versionName, createdBy: user }, flags);
  const out = await ctx.output();
  const local = await localFile(file);
  if (!ctx.globals.dryRun) await warnOfNameTaken(ctx, assetId, platform, versionName);
  const upload = steps.versionUpload({ assetId, platform, fields, file: local });
  return plan([upload], (results) => out.print(results.of(upload)!, renderVersion));
};

/** A version of that name already on the platform: this upload adds another (a name then names two versions). */
async function warnOfNameTaken(ctx: Parameters<Run<typeof uploadSpec>>[1], assetId: string, platform: string, versionName: string): Promise<void> {
  const api = await ctx.api();
  // A list that cannot be read is left to the upload to report.
  const named = (await listAllVersions(api, assetId).catch(() => [])).filter((v) => v.targetPlatform === platform && v.versionName === versionName);
  if (named.length === 0) return;
  (await ctx.output()).warn(
    `${assetId} already has ${platform} version ${named.map((v) => v.versionId).join(', ')} named ${versionName}: this upload adds another of the same name (ahs release reuses a version of that name instead)`,
  );
}
