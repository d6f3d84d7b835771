// version block ASSET_ID VERSION_ID --reason R: a record of ahs-control that every promotion path checks.
import type { Run } from '../define.js';
import type { blockSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { addBlock } from '../../service/change-control.js';
import { recordControl } from '../../plan/change-control.js';

export const run: Run<typeof blockSpec> = async (options, ctx) => {
  const reason = ctx.globals.reason;
  if (!reason) throw new UsageError('version block needs --reason R: it is shown to every write the block refuses');
  const user = await actingUser(ctx);
  const settings = await ctx.settings();
  const api = await ctx.api();
  const { version, existed } = await addBlock(api, options.assetId, options.versionId, reason, user, settings.get('envId'), ctx.io.env);
  if (!existed) await recordControl(ctx, { address: `block.${options.assetId}.${options.versionId}`, before: null, after: { blocked: true } }, { action: 'block', target: `version.${options.assetId}.${options.versionId}`, reason });
  (await ctx.output()).outcome(
    { assetId: options.assetId, versionId: options.versionId, blocked: true, existed, blockVersionId: version.versionId },
    existed ? `version ${options.versionId} of ${options.assetId} was blocked already` : `blocked version ${options.versionId} of ${options.assetId}: it is refused by every promotion until ahs version unblock`,
  );
};
