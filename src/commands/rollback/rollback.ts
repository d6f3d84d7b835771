// rollback ASSET --platform P --env E [--to VERSION_ID]: asks for what is
// missing, then the operation (src/operations/rollback.ts) plans a promotion
// of the previous Default, as a compare-and-set on the Default read (cli.md,
// "Release workflows"). In a terminal, a target nothing proves is picked.
import type { Run } from '../define.js';
import type { rollbackSpec } from './index.js';
import { askAssetId, askEnv, platformChoices } from '../../pickers/pick-asset.js';
import { rollback } from '../../operations/rollback.js';
import { channelName } from '../../service/promote.js';
import { renderPromotion } from '../../io/views/deploy.js';
import { thenDo } from '../../plan/plan.js';
import { addBlock } from '../../service/change-control.js';
import { recordControl } from '../../plan/change-control.js';

export const run: Run<typeof rollbackSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const platform = await ctx.setting('platform', { message: 'Target platform', choices: () => platformChoices(ctx, assetId) });
  const envId = await askEnv(ctx, assetId, platform);
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const pick = ctx.io.canPrompt ? async (question: string, choices: Array<{ name: string; value: string }>) => (await ctx.prompter()).select(question, choices) : undefined;
  const planned = await rollback(ctx, { assetId, platform, envId, to: options.to, user, pick });
  const out = await ctx.output();
  const name = channelName({ assetId, platform, envId });
  return thenDo(planned, async (promoted) => {
    // --block: the version it moved away from is blocked once the rollback is done (a rollback is never held up by it).
    if (options.block && promoted.previousDefault) {
      const reason = ctx.globals.reason ?? `rolled back on ${name}`;
      const api = await ctx.api();
      const { existed } = await addBlock(api, assetId, promoted.previousDefault, reason, user, envId, ctx.io.env);
      if (!existed) await recordControl(ctx, { address: `block.${assetId}.${promoted.previousDefault}`, before: null, after: { blocked: true } }, { action: 'block', target: `version.${assetId}.${promoted.previousDefault}`, reason });
      out.info(`blocked ${promoted.previousDefault}: deploy, promote-default, release, rollout and apply refuse it until ahs version unblock ${assetId} ${promoted.previousDefault}`);
    }
    out.print(promoted, (d, kit) => {
      // A compare-and-set on the Default read: the Default it replaced is the one read (never none: a channel without one is refused).
      out.success(`${d.assetVersion.versionId} is now the Default of ${name}; ${d.previousDefault} is now LIVE`);
      return renderPromotion(d, kit);
    });
  });
};
