// version unblock ASSET_ID VERSION_ID: removes the block's record (allowed during a freeze).
import type { Run } from '../define.js';
import type { unblockSpec } from './index.js';
import { actingUser } from '../../pickers/acting-user.js';
import { unblockVersion } from '../../operations/change-control.js';

export const run: Run<typeof unblockSpec> = async (options, ctx) => {
  const user = await actingUser(ctx);
  const doc = await unblockVersion(ctx, { assetId: options.assetId, versionId: options.versionId, user, ...(ctx.globals.reason ? { reason: ctx.globals.reason } : {}) });
  (await ctx.output()).outcome(doc, doc.unblocked ? `unblocked version ${options.versionId} of ${options.assetId}` : `version ${options.versionId} of ${options.assetId} was not blocked`);
};
