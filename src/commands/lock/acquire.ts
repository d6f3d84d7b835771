// lock acquire SCOPE [--ttl D] [--reason R]: a lease taken by compare-and-set (src/service/change-control.ts).
import type { Run } from '../define.js';
import type { acquireSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { parseDuration } from '../../rules/rollout.js';
import { scopeText } from '../../rules/change-control.js';
import { acquireLock } from '../../service/change-control.js';
import { DEFAULT_TTL_MS, givenLockId, lockTimeoutMs, newLockId, parseScopeOrThrow, recordControl } from '../../plan/change-control.js';

export const run: Run<typeof acquireSpec> = async (options, ctx) => {
  const scope = parseScopeOrThrow(options.scope);
  const ttlMs = options.ttl === undefined ? DEFAULT_TTL_MS : parseDuration(options.ttl);
  if (ttlMs === undefined || ttlMs < 1000) throw new UsageError(`--ttl ${JSON.stringify(options.ttl)} is not a lease: give a duration of 1s or more, such as 15m`);
  const given = givenLockId(ctx);
  const lockId = given ?? newLockId();
  const waitMs = lockTimeoutMs(ctx);
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const out = await ctx.output();
  const held = await acquireLock(ctx, api, {
    scope,
    lockId,
    ttlMs,
    user,
    command: ctx.globals.reason ? `lock acquire (${ctx.globals.reason})` : 'lock acquire',
    env: ctx.io.env,
    ...(ctx.globals.reason ? { reason: ctx.globals.reason } : {}),
    waitMs,
    signal: ctx.signal,
    onWait: () => out.info(`${scopeText(scope)} is locked by another run: waiting up to ${ctx.globals.lockTimeout} (--lock-timeout)`),
  });
  const doc = { scope: scopeText(scope), lockId, holder: user, since: new Date(held.since).toISOString(), leaseEnd: new Date(held.leaseEnd).toISOString(), renewed: given !== undefined && held.since < held.leaseEnd - ttlMs };
  await recordControl(ctx, { address: `lock.${doc.scope}`, before: null, after: { lockId, holder: user, leaseEnd: doc.leaseEnd } }, { action: 'lock', target: doc.scope, until: doc.leaseEnd, lockId, ...(ctx.globals.reason ? { reason: ctx.globals.reason } : {}) });
  out.print(doc, () => {
    out.success(`${doc.renewed ? 'renewed' : 'locked'} ${doc.scope}: lock id ${lockId}, lease ends ${doc.leaseEnd}`);
    return `${lockId}\n`;
  });
};
