// promote-default ASSET VERSION --platform P --env E [--make-live] [--expect-current V|none] [--idempotent]
// promote-default ASSET --from-env SOURCE --platform P --env E ...
// Asks for what is missing, then the operation (src/operations/channel.ts)
// plans one or two steps: the LIVE deploy of --make-live, then the promotion.
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { promoteDefaultSpec } from './index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { DeploymentState } from '../../rules/index.js';
import { askAssetId, askEnv, askVersionId, platformChoices } from '../../pickers/pick-asset.js';
import { checkPromoteSource, promoteDefault } from '../../operations/channel.js';
import { channelName } from '../../service/promote.js';
import { renderPromotion } from '../../io/views/deploy.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof promoteDefaultSpec> = async (options, ctx) => {
  const names = { versionId: nameOf(promoteDefaultSpec, 'versionId') };
  // Refused before any question (the operation checks it again, for the library).
  if (options.fromEnv !== undefined && options.versionId !== undefined) checkPromoteSource({ ...options, envId: '' }, names);
  const assetId = await askAssetId(ctx, options.assetId);
  const platform = await ctx.setting('platform', { message: 'Target platform', choices: () => platformChoices(ctx, assetId) });
  const envId = await askEnv(ctx, assetId, platform);
  checkPromoteSource({ ...options, envId }, names);
  const versionId = options.fromEnv !== undefined ? undefined : await askVersionId(ctx, assetId, options.versionId, { platform, envId, message: 'Version to promote to Default' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const { fromEnv, makeLive, expectCurrent, idempotent } = options;
  const planned = await promoteDefault(ctx, { assetId, platform, envId, versionId, fromEnv, makeLive, expectCurrent, idempotent, user, offerMakeLive: (v, state, name) => offerMakeLive(ctx, v, state, name) }, names);
  const out = await ctx.output();
  const name = channelName({ assetId, platform, envId });
  return thenDo(planned, (promoted) =>
    out.print(promoted, (d, kit) => {
      // The version promoted is the answer's (with --from-env, the command did not know it).
      out.success(`${d.assetVersion.versionId} is now the Default of ${name}` + (d.previousDefault ? `; previous Default ${d.previousDefault} is now LIVE` : '; there was no Default before'));
      return renderPromotion(d, kit);
    }),
  );
};

/** In a terminal, a version that cannot be promoted as it is: offer --make-live. No sends nothing. */
async function offerMakeLive(ctx: Context, versionId: string, state: DeploymentState | undefined, name: string): Promise<boolean> {
  if (!ctx.io.canPrompt || ctx.globals.yes) return false;
  const ok = await (await ctx.prompter()).confirm(`${versionId} is ${state ?? 'not deployed'} on ${name}; deploy it LIVE first (--make-live)?`, true);
  if (!ok) throw new UsageError(`not confirmed: ${versionId} must be LIVE on ${name} before it can be the Default (--make-live); nothing was sent`);
  return true;
}
