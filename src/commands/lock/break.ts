// lock break SCOPE --reason R: ends whoever holds it (recorded with the reason).
import type { Run } from '../define.js';
import type { breakSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { scopeText } from '../../rules/change-control.js';
import { releaseLock } from '../../service/change-control.js';
import { parseScopeOrThrow, recordControl } from '../../plan/change-control.js';

export const run: Run<typeof breakSpec> = async (options, ctx) => {
  const scope = parseScopeOrThrow(options.scope);
  const reason = ctx.globals.reason;
  if (!reason) throw new UsageError('lock break needs --reason R: a break is recorded in the journal with its reason');
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const out = await ctx.output();
  const ended = await releaseLock(ctx, api, scope, undefined, user);
  const doc = { scope: scopeText(scope), broken: ended !== undefined, lockId: ended?.lockId ?? null, holder: ended?.holder ?? null };
  if (ended) await recordControl(ctx, { address: `lock.${doc.scope}`, before: { lockId: ended.lockId, holder: ended.holder }, after: null }, { action: 'unlock', broken: true, target: doc.scope, ...(ended.lockId ? { lockId: ended.lockId } : {}), reason });
  out.outcome(doc, ended ? `broke the lock on ${doc.scope} (lock id ${ended.lockId}, held by ${ended.holder ?? 'an unknown holder'})` : `${doc.scope} is not locked: nothing to break`);
};
