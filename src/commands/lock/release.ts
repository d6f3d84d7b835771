// lock release SCOPE: the holder's own release (compare-and-set against its version).
import type { Run } from '../define.js';
import type { releaseSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { scopeText } from '../../rules/change-control.js';
import { releaseLock } from '../../service/change-control.js';
import { givenLockId, parseScopeOrThrow, recordControl } from '../../plan/change-control.js';

export const run: Run<typeof releaseSpec> = async (options, ctx) => {
  const scope = parseScopeOrThrow(options.scope);
  const lockId = givenLockId(ctx);
  if (!lockId) throw new UsageError('lock release needs the lock id: --lock-id ID or AHS_LOCK_ID (ahs lock acquire printed it; ahs lock break ends another run\'s lock)');
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const out = await ctx.output();
  const ended = await releaseLock(ctx, api, scope, lockId, user);
  const doc = { scope: scopeText(scope), released: ended !== undefined, lockId };
  if (ended) await recordControl(ctx, { address: `lock.${doc.scope}`, before: { lockId, holder: ended.holder }, after: null }, { action: 'unlock', target: doc.scope, lockId });
  out.outcome(doc, ended ? `released ${doc.scope} (lock id ${lockId})` : `${doc.scope} was not held by ${lockId}: nothing to release`);
};
