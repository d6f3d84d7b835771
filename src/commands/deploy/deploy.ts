// deploy ASSET VERSION --platform P --env E [--state LIVE|OFFLINE] [--idempotent]
import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';
import { decideVersionDeploy, type Decision, type DeploymentState } from '../../rules/index.js';
import { deployBody } from '../../rules/schemas.js';
import { printDryRun, validateInput } from '../../dryrun/index.js';
import { readChannel } from '../../http/resources.js';
import { renderDeployment, type DeployResponse } from './view.js';
import { deployableVersion } from './version-check.js';
import { askAssetId, askEnv, askVersionId, platformChoices } from '../asset/pick.js';

interface Options {
  state: 'LIVE' | 'OFFLINE';
  idempotent?: boolean;
}

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const assetId = await askAssetId(ctx, args[0]);
  const platform = args[1] !== undefined ? await ctx.setting('platform', { message: 'Target platform code' }) : await ctx.setting('platform', { message: 'Target platform', choices: () => platformChoices(ctx, assetId) });
  const envId = await askEnv(ctx, assetId, platform);
  const versionId = await askVersionId(ctx, assetId, args[1], { platform, envId, message: `Version to deploy ${opts.state}` });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  // createdBy for a first deploy, updatedBy for a change: send both (spec).
  const body = validateInput(deployBody, { envId, intent: opts.state, createdBy: user, updatedBy: user });
  const api = await ctx.api();
  const out = await ctx.output();
  const path = api.path('va', assetId, 'versions', versionId, 'deploy');
  const query = { targetPlatformId: platform };

  if (opts.idempotent || ctx.globals.dryRun) {
    const { channel } = await readChannel(api, assetId, platform, envId);
    const current = channel.records[versionId];
    if (opts.idempotent && current === opts.state) {
      const message = `${versionId} is already ${current} on ${assetId}/${platform}/${envId}; nothing sent`;
      out.print({ changed: false, state: current, message }, () => {
        out.success(message);
        return undefined;
      });
      return;
    }
    if (ctx.globals.dryRun) {
      const decision: Decision<DeploymentState> = (await deployableVersion(api, assetId, versionId, platform)) ?? decideVersionDeploy(channel, { versionId, ...body });
      await printDryRun(ctx, {
        request: { method: 'POST', path, query, body },
        current: current ?? null,
        decision,
        notes: ['the environment and platform codes are checked by the service (404 when unknown)'],
      });
      return;
    }
  }
  const answer = await api.post<DeployResponse>(path, body, query);
  out.print(answer, (doc, kit) => {
    out.success(`${versionId} is now ${doc.assetVersion?.state ?? opts.state} on ${assetId}/${platform}/${envId}`);
    return renderDeployment(doc, kit);
  });
}
