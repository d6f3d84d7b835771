// release ASSET FILE --platform P --env E --name N [--state LIVE|DEFAULT] [--expect-current V|none]
// Asks for what is missing, then the operation (src/operations/release.ts)
// plans up to three steps (upload, deploy LIVE, promote), each skipped when a
// read shows it done, and prints each stage as it completes.
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { releaseSpec } from './index.js';
import { versionUploadFields } from '../../rules/schemas.js';
import { validateGiven } from '../../operations/validate.js';
import { release } from '../../operations/release.js';
import { channelName } from '../../service/promote.js';
import { askAssetId, askEnv } from '../../pickers/pick-asset.js';
import { fileArg } from '../../pickers/pick-file.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof releaseSpec> = async (options, ctx) => {
  const names = { versionName: nameOf(releaseSpec, 'name') };
  if (options.name !== undefined) validateGiven(versionUploadFields, { versionName: options.name }, names);
  const assetId = await askAssetId(ctx, options.assetId);
  const file = await fileArg(ctx, options.file);
  const platform = await ctx.setting('platform', { message: 'Target platform code' });
  const envId = await askEnv(ctx, assetId, platform);
  const versionName = await ctx.need(options.name, { flag: names.versionName, message: 'Version name' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const planned = await release(ctx, { assetId, file, platform, envId, versionName, state: options.state, expectCurrent: options.expectCurrent, user }, names);
  const out = await ctx.output();
  const name = channelName({ assetId, platform, envId });
  return thenDo(planned, (result) =>
    out.print(result, (r) => `${r.version.versionId} (${r.version.versionName}) is ${r.assetVersion.state} on ${name}${r.stages.some((s) => s.changed) ? '' : '; nothing was sent: the release was already done'}`),
  );
};
