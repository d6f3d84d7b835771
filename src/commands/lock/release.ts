// lock release SCOPE: the holder's own release (compare-and-set against its version).
import type { Run } from '../define.js';
import type { releaseSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { releaseScopeLock, scopeOf } from '../../operations/change-control.js';
import { givenLockId } from '../../plan/change-control.js';

export const run: Run<typeof releaseSpec> = async (options, ctx) => {
  scopeOf(options.scope);
  const lockId = givenLockId(ctx);
  if (!lockId) throw new UsageError('lock release needs the lock id: --lock-id ID or AHS_LOCK_ID (ahs lock acquire printed it; ahs lock break ends another run\'s lock)');
  const user = await actingUser(ctx);
  const doc = await releaseScopeLock(ctx, { scope: options.scope, lockId, user });
  (await ctx.output()).outcome(doc, doc.released ? `released ${doc.scope} (lock id ${lockId})` : `${doc.scope} was not held by ${lockId}: nothing to release`);
};
