// version unblock ASSET_ID VERSION_ID: removes the block's record (allowed during a freeze).
import type { Run } from '../define.js';
import type { unblockSpec } from './index.js';
import { actingUser } from '../../pickers/acting-user.js';
import { removeBlock } from '../../service/change-control.js';
import { recordControl } from '../../plan/change-control.js';
import { fetchAll } from '../../http/paging.js';

export const run: Run<typeof unblockSpec> = async (options, ctx) => {
  const user = await actingUser(ctx);
  const api = await ctx.api();
  // The block's record may be deployed in some environment (its reason is read there): OFFLINE there before it is deleted.
  const envs = await fetchAll<{ envId: string; versionName: string }>(api, api.path('va', 'ahs-control', 'asset-urls'), {}).catch(() => []);
  const removed = await removeBlock(api, options.assetId, options.versionId, user, [...new Set(envs.map((e) => e.envId))]);
  if (removed) await recordControl(ctx, { address: `block.${options.assetId}.${options.versionId}`, before: { blocked: true }, after: null }, { action: 'unblock', target: `version.${options.assetId}.${options.versionId}`, ...(ctx.globals.reason ? { reason: ctx.globals.reason } : {}) });
  (await ctx.output()).outcome({ assetId: options.assetId, versionId: options.versionId, unblocked: removed !== undefined }, removed ? `unblocked version ${options.versionId} of ${options.assetId}` : `version ${options.versionId} of ${options.assetId} was not blocked`);
};
