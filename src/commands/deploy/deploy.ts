// deploy ASSET VERSION --platform P --env E [--state LIVE|OFFLINE] [--idempotent]
import type { Run } from '../define.js';
import type { deploySpec } from './index.js';
import { deployBody } from '../../rules/schemas.js';
import { validateInput } from '../../operations/validate.js';
import { readVersionOnChannel } from '../../service/assets.js';
import { renderDeployment } from '../../io/views/deploy.js';
import { askAssetId, askEnv, askVersionId, platformChoices } from '../../pickers/pick-asset.js';
import { noop, plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof deploySpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const platform =
    options.versionId !== undefined
      ? await ctx.setting('platform', { message: 'Target platform code' })
      : await ctx.setting('platform', { message: 'Target platform', choices: () => platformChoices(ctx, assetId) });
  const envId = await askEnv(ctx, assetId, platform);
  const versionId = await askVersionId(ctx, assetId, options.versionId, { platform, envId, message: `Version to deploy ${options.state}` });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  // createdBy for a first deploy, updatedBy for a change: send both (spec).
  const body = validateInput(deployBody, { envId, intent: options.state, createdBy: user, updatedBy: user });
  const api = await ctx.api();
  const channelName = `${assetId}/${platform}/${envId}`;

  // --idempotent rests on the version's record on the channel (the Default does not decide a LIVE or OFFLINE deploy): its own asset-urls,
  // else the channel's state=OFFLINE records (a service may leave OFFLINE out of the former); a dry run's prediction on the version too: read at once.
  const dryRun = ctx.globals.dryRun === true;
  const read = options.idempotent ? await readVersionOnChannel(api, { assetId, platform, envId }, versionId, { version: dryRun, withDefault: false }) : undefined;
  const current = read?.channel.records[versionId];
  if (current === options.state) return noop(current, `${versionId} is already ${current} on ${channelName}; nothing sent`);
  const out = await ctx.output();
  const predicted = read && dryRun ? { channel: read.channel, version: read.version } : {};
  const deploy = steps.versionDeploy({ assetId, versionId, platform, body, ...predicted, notes: ['the environment and platform codes are checked by the service (404 when unknown)'] });
  return plan([deploy], (results) => {
    out.print(results.of(deploy)!, (doc, kit) => {
      out.success(`${versionId} is now ${doc.assetVersion?.state ?? options.state} on ${channelName}`);
      return renderDeployment(doc, kit);
    });
  });
};
