// version upload ASSET_ID FILE --platform P --name N: asks for what is missing,
// then the operation (src/operations/versions.ts) plans one streamed POST.
import { nameOf, type Run } from '../define.js';
import { uploadSpec } from './index.js';
import { versionUploadFields } from '../../rules/schemas.js';
import { validateGiven } from '../../operations/validate.js';
import { uploadVersion } from '../../operations/versions.js';
import { renderVersion } from '../../io/views/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { thenDo } from '../../plan/plan.js';
import { fileArg } from '../../pickers/pick-file.js';

export const run: Run<typeof uploadSpec> = async (options, ctx) => {
  const flags = { versionName: nameOf(uploadSpec, 'name') };
  if (options.name !== undefined) validateGiven(versionUploadFields, { versionName: options.name }, flags);
  const assetId = await askAssetId(ctx, options.assetId);
  const file = await fileArg(ctx, options.file);
  const platform = await ctx.setting('platform', { message: 'Target platform code' });
  const versionName = await ctx.need(options.name, { flag: flags.versionName, message: 'Version name' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const out = await ctx.output();
  return thenDo(await uploadVersion(ctx, { assetId, file, platform, versionName, user }, flags), (version) => out.print(version, renderVersion));
};
