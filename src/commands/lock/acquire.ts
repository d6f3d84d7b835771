// lock acquire SCOPE [--ttl D] [--reason R]: a lease taken by compare-and-set (src/operations/change-control.ts).
import type { Run } from '../define.js';
import type { acquireSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { parseDuration } from '../../rules/rollout.js';
import { acquireScopeLock, scopeOf } from '../../operations/change-control.js';
import { DEFAULT_TTL_MS, givenLockId, lockTimeoutMs } from '../../plan/change-control.js';

export const run: Run<typeof acquireSpec> = async (options, ctx) => {
  scopeOf(options.scope);
  const ttlMs = options.ttl === undefined ? DEFAULT_TTL_MS : parseDuration(options.ttl);
  if (ttlMs === undefined || ttlMs < 1000) throw new UsageError(`--ttl ${JSON.stringify(options.ttl)} is not a lease: give a duration of 1s or more, such as 15m`);
  const lockId = givenLockId(ctx);
  const waitMs = lockTimeoutMs(ctx);
  const user = await actingUser(ctx);
  const out = await ctx.output();
  const doc = await acquireScopeLock(ctx, {
    scope: options.scope,
    user,
    ttlMs,
    ...(ctx.globals.reason ? { reason: ctx.globals.reason } : {}),
    ...(lockId ? { lockId } : {}),
    waitMs,
    onWait: () => out.info(`${options.scope.trim()} is locked by another run: waiting up to ${ctx.globals.lockTimeout} (--lock-timeout)`),
  });
  out.print(doc, () => {
    out.success(`${doc.renewed ? 'renewed' : 'locked'} ${doc.scope}: lock id ${doc.lockId}, lease ends ${doc.leaseEnd}`);
    return `${doc.lockId}\n`;
  });
};
