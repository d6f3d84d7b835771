// version upload ASSET_ID FILE --platform P --name N: one POST of the file as
// a streamed multipart body, progress on stderr (src/service/version-upload.ts).
import { nameOf, type Run } from '../define.js';
import { uploadSpec } from './index.js';
import { versionUploadFields } from '../../rules/schemas.js';
import { validateGiven, validateInput } from '../../operations/validate.js';
import { localFile } from '../../transfer/upload.js';
import { renderVersion } from '../../io/views/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';
import { fileArg } from '../../pickers/pick-file.js';

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
  const upload = steps.versionUpload({ assetId, platform, fields, file: await localFile(file) });
  return plan([upload], (results) => out.print(results.of(upload)!, renderVersion));
};
