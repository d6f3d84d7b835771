// unfreeze ENV: lifts every freeze of ENV (deletes their records).
import type { Run } from '../define.js';
import type { unfreezeSpec } from './index.js';
import { actingUser } from '../../pickers/acting-user.js';
import { removeFreeze } from '../../operations/change-control.js';

export const run: Run<typeof unfreezeSpec> = async (options, ctx) => {
  const user = await actingUser(ctx);
  const doc = await removeFreeze(ctx, { env: options.env, user, ...(ctx.globals.reason ? { reason: ctx.globals.reason } : {}) });
  (await ctx.output()).outcome({ env: doc.env, removed: doc.removed }, doc.removed.length > 0 ? `unfroze ${options.env} (${doc.windows.join(', ')})` : `${options.env} was not frozen`);
};
