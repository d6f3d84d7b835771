// lock break SCOPE --reason R: ends whoever holds it (recorded with the reason).
import type { Run } from '../define.js';
import type { breakSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { breakScopeLock, scopeOf } from '../../operations/change-control.js';

export const run: Run<typeof breakSpec> = async (options, ctx) => {
  scopeOf(options.scope);
  const reason = ctx.globals.reason;
  if (!reason) throw new UsageError('lock break needs --reason R: a break is recorded in the journal with its reason');
  const user = await actingUser(ctx);
  const doc = await breakScopeLock(ctx, { scope: options.scope, reason, user });
  (await ctx.output()).outcome(doc, doc.broken ? `broke the lock on ${doc.scope} (lock id ${doc.lockId}, held by ${doc.holder ?? 'an unknown holder'})` : `${doc.scope} is not locked: nothing to break`);
};
