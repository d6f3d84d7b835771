// unfreeze ENV: lifts every freeze of ENV (deletes their records).
import type { Run } from '../define.js';
import type { unfreezeSpec } from './index.js';
import { actingUser } from '../../pickers/acting-user.js';
import { describeWindow } from '../../rules/change-control.js';
import { removeFreezes } from '../../service/change-control.js';
import { recordControl } from '../../plan/change-control.js';

export const run: Run<typeof unfreezeSpec> = async (options, ctx) => {
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const removed = await removeFreezes(api, options.env, user);
  if (removed.length > 0) {
    await recordControl(ctx, { address: `freeze.${options.env}`, before: { windows: removed.map((f) => describeWindow(f.window)) }, after: null }, { action: 'unfreeze', target: options.env, ...(ctx.globals.reason ? { reason: ctx.globals.reason } : {}) });
  }
  (await ctx.output()).outcome({ env: options.env, removed: removed.map((f) => f.versionId) }, removed.length > 0 ? `unfroze ${options.env} (${removed.map((f) => describeWindow(f.window)).join(', ')})` : `${options.env} was not frozen`);
};
