// deploy ASSET VERSION --platform P --env E [--state LIVE|OFFLINE] [--idempotent]:
// asks for what is missing, then the operation (src/operations/channel.ts)
// plans the one deploy (or, --idempotent, nothing when it is done).
import type { Run } from '../define.js';
import type { deploySpec } from './index.js';
import { deployVersion } from '../../operations/channel.js';
import { channelName } from '../../service/promote.js';
import { renderDeployment } from '../../io/views/deploy.js';
import { askAssetId, askEnv, askVersionId, platformChoices } from '../../pickers/pick-asset.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof deploySpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const platform =
    options.versionId !== undefined
      ? await ctx.setting('platform', { message: 'Target platform code' })
      : await ctx.setting('platform', { message: 'Target platform', choices: () => platformChoices(ctx, assetId) });
  const envId = await askEnv(ctx, assetId, platform);
  const versionId = await askVersionId(ctx, assetId, options.versionId, { platform, envId, message: `Version to deploy ${options.state}` });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const planned = await deployVersion(ctx, { assetId, platform, envId, versionId, state: options.state, idempotent: options.idempotent, user });
  const out = await ctx.output();
  return thenDo(planned, (answer) =>
    out.print(answer, (doc, kit) => {
      out.success(`${versionId} is now ${doc.assetVersion?.state ?? options.state} on ${channelName({ assetId, platform, envId })}`);
      return renderDeployment(doc, kit);
    }),
  );
};
