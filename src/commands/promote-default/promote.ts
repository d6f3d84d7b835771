// promote-default ASSET VERSION --platform P --env E [--make-live] [--expect-current V|none] [--idempotent]
// promote-default ASSET --from-env SOURCE --platform P --env E ...
// A plan of one or two steps: the LIVE deploy of --make-live, then the
// promotion (src/service/promote.ts holds the 409 dance and the
// compare-and-set). --idempotent is checked before --expect-current.
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { promoteDefaultSpec } from './index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { DeploymentState } from '../../rules/index.js';
import { deployBody, type DeployBody } from '../../rules/schemas.js';
import { validateInput } from '../../operations/validate.js';
import { readDefault, readVersionOnChannel } from '../../service/assets.js';
import { askAssetId, askEnv, askVersionId, platformChoices } from '../../pickers/pick-asset.js';
import { channelName, checkExpected, parseExpected, type Channel } from '../../service/promote.js';
import { renderPromotion } from '../../io/views/deploy.js';
import { noop, plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof promoteDefaultSpec> = async (options, ctx) => {
  if (options.fromEnv !== undefined && options.versionId !== undefined) {
    throw new UsageError(`give VERSION_ID or ${nameOf(promoteDefaultSpec, 'fromEnv')}, not both`);
  }
  const assetId = await askAssetId(ctx, options.assetId);
  const platform = await ctx.setting('platform', { message: 'Target platform', choices: () => platformChoices(ctx, assetId) });
  const envId = await askEnv(ctx, assetId, platform);
  const where: Channel = { assetId, platform, envId };
  if (options.fromEnv !== undefined && options.fromEnv === envId) {
    throw new UsageError(
      `${nameOf(promoteDefaultSpec, 'fromEnv')} ${options.fromEnv} is the environment being promoted in (--env ${envId}): its Default is already its Default; name another source environment. Nothing was sent`,
    );
  }
  const expected = parseExpected(options.expectCurrent);
  const api = await ctx.api();
  const versionId =
    options.fromEnv !== undefined
      ? await defaultIn(ctx, { ...where, envId: options.fromEnv })
      : await askVersionId(ctx, assetId, options.versionId, { platform, envId, message: 'Version to promote to Default' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  validateInput(deployBody, { envId, intent: 'DEFAULT', createdBy: user, updatedBy: user });

  // The Default, the version's record on the channel (OFFLINE included, by the state filter) and the version, at once.
  const { channel, version } = await readVersionOnChannel(api, where, versionId);
  const state = channel.records[versionId];
  const name = channelName(where);
  const out = await ctx.output();
  // Which version --from-env resolved, always (a script reads it in the JSON's assetVersion).
  if (options.fromEnv !== undefined) {
    out.info(`${versionId}${version?.versionName ? ` (${version.versionName})` : ''} is the Default of ${channelName({ ...where, envId: options.fromEnv })} (${nameOf(promoteDefaultSpec, 'fromEnv')} ${options.fromEnv})`);
  }
  if (options.idempotent && state === 'DEFAULT') return noop('DEFAULT', `${versionId} is already the Default of ${name}; nothing sent`);
  checkExpected(channel, expected, name);

  const undeployed = state === undefined || state === 'OFFLINE';
  const makeLive = undeployed && (options.makeLive === true || (await offerMakeLive(ctx, versionId, state, name)));
  const liveBody: DeployBody = { envId, intent: 'LIVE', createdBy: user, updatedBy: user };
  const live = makeLive ? steps.versionDeploy({ assetId, versionId, platform, body: liveBody, channel, version, notes: ['--make-live: the version is deployed LIVE first'] }) : undefined;
  // Without --make-live, a version that is not LIVE is refused before sending: the channel was read.
  const refuse = undeployed && !makeLive ? { hint: `${versionId} is ${state ?? 'not deployed'} on ${name}: add --make-live to deploy it LIVE first` } : undefined;
  const promotion = steps.versionPromote({ assetId, platform, envId, versionId, user, channel, expected, afterLive: makeLive ? liveBody : undefined, version }, { refuse });
  return plan(
    live ? [live, promotion] : [promotion],
    (results) => {
      out.print(results.of(promotion)!, (d, kit) => {
        out.success(`${versionId} is now the Default of ${name}` + (d.previousDefault ? `; previous Default ${d.previousDefault} is now LIVE` : '; there was no Default before'));
        return renderPromotion(d, kit);
      });
    },
    { onAnswer: (step) => step === live && out.info(`${versionId} deployed LIVE on ${name} (--make-live)`) },
  );
};

/** --from-env: the Default of the same asset and platform in the source environment. */
async function defaultIn(ctx: Context, source: Channel): Promise<string> {
  const found = (await readDefault(await ctx.api(), source))?.versionId;
  if (!found) throw new UsageError(`${source.envId} has no Default for ${source.assetId} on ${source.platform}: nothing to promote from --from-env ${source.envId}`);
  return found;
}

/** In a terminal, a version that cannot be promoted as it is: offer --make-live. No sends nothing. */
async function offerMakeLive(ctx: Context, versionId: string, state: DeploymentState | undefined, name: string): Promise<boolean> {
  if (!ctx.io.canPrompt || ctx.globals.yes) return false;
  const ok = await (await ctx.prompter()).confirm(`${versionId} is ${state ?? 'not deployed'} on ${name}; deploy it LIVE first (--make-live)?`, true);
  if (!ok) throw new UsageError(`not confirmed: ${versionId} must be LIVE on ${name} before it can be the Default (--make-live); nothing was sent`);
  return true;
}
