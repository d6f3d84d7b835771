// rollback ASSET --platform P --env E [--to VERSION_ID]: a promotion of the
// previous Default, as a compare-and-set on the Default read (cli.md,
// "Release workflows").
import type { Run } from '../define.js';
import type { rollbackSpec } from './index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { defaultOf } from '../../rules/index.js';
import type { AssetUrl } from '../../rules/schemas.js';
import { readChannel } from '../../service/assets.js';
import { askAssetId, askEnv, platformChoices } from '../../service/pick-asset.js';
import { channelName, type Channel } from '../../service/promote.js';
import { renderPromotion } from '../../io/views/deploy.js';
import { noop, plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof rollbackSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const platform = await ctx.setting('platform', { message: 'Target platform', choices: () => platformChoices(ctx, assetId) });
  const envId = await askEnv(ctx, assetId, platform);
  const where: Channel = { assetId, platform, envId };
  const name = channelName(where);
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const api = await ctx.api();
  const { channel, records } = await readChannel(api, assetId, platform, envId);
  const current = defaultOf(channel);
  if (!current) throw new UsageError(`${name} has no Default: nothing to roll back (promote one with ahs promote-default)`);
  // A re-run of a rollback that is done: nothing to send (a CI step re-run must not fail).
  if (options.to === current) return noop('DEFAULT', `${current} is already the Default of ${name}; nothing sent`);
  const { versionId, reason } = await pickTarget(ctx, records, current, options.to, name);
  const out = await ctx.output();
  out.info(`rolling back ${name} to ${versionId}: ${reason}`);
  const refuse = {
    hint: `${versionId} is ${channel.records[versionId] ?? 'not deployed'} on ${name}: deploy it LIVE first (ahs deploy ${assetId} ${versionId})`,
    byKind: { 'not-found': `${assetId} has no ${platform} version ${versionId}` },
  };
  const promotion = steps.versionPromote({ ...where, versionId, user, channel, expected: current }, { refuse });
  return plan([promotion], (results) => {
    out.print(results.of(promotion)!, (d, kit) => {
      out.success(`${versionId} is now the Default of ${name}; ${current} is now LIVE`);
      return renderPromotion(d, kit);
    });
  });
};

interface Target {
  versionId: string;
  reason: string;
}

/** --to, else in a terminal a pick among the channel's LIVE versions, else the rule of cli.md. */
async function pickTarget(ctx: Context, records: AssetUrl[], current: string, to: string | undefined, name: string): Promise<Target> {
  if (to !== undefined) return { versionId: to, reason: 'named with --to' };
  const byNumber = new Map(records.map((r) => [r.versionId, r]));
  const defaultNumber = byNumber.get(current)?.version ?? Number.POSITIVE_INFINITY;
  const live = records.filter((r) => r.state === 'LIVE').sort((a, b) => b.version - a.version);
  const previous = live.find((r) => r.version < defaultNumber);
  const rule = previous && { versionId: previous.versionId, reason: `the LIVE version with the highest number below the Default ${current}` };
  if (ctx.io.canPrompt && live.length > 0) {
    const choices = live.map((r) => ({ name: `${r.versionId}  ${r.versionName}  LIVE${r.versionId === rule?.versionId ? `  (the rule's pick: the highest LIVE number below ${current})` : ''}`, value: r.versionId }));
    const picked = await (await ctx.prompter()).select(`Roll ${name} back from ${current} (Default) to`, choices, { default: rule?.versionId });
    return { versionId: picked, reason: picked === rule?.versionId ? rule.reason : 'picked' };
  }
  if (!rule) {
    throw new UsageError(`${name} has no LIVE version numbered below its Default ${current}: nothing to roll back to; name one with --to VERSION_ID`);
  }
  return rule;
}
