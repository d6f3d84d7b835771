// version block ASSET_ID VERSION_ID --reason R: a record of ahs-control that every promotion path checks.
import type { Run } from '../define.js';
import type { blockSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { blockVersion } from '../../operations/change-control.js';

export const run: Run<typeof blockSpec> = async (options, ctx) => {
  const reason = ctx.globals.reason;
  if (!reason) throw new UsageError('version block needs --reason R: it is shown to every write the block refuses');
  const user = await actingUser(ctx);
  const envId = (await ctx.settings()).get('envId');
  const doc = await blockVersion(ctx, { assetId: options.assetId, versionId: options.versionId, reason, user, ...(envId ? { envId } : {}) });
  (await ctx.output()).outcome(doc, doc.existed ? `version ${options.versionId} of ${options.assetId} was blocked already` : `blocked version ${options.versionId} of ${options.assetId}: it is refused by every promotion until ahs version unblock`);
};
