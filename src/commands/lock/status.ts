// lock status [SCOPE]: the holder, since when, why, and when the lease ends;
// without SCOPE, every lock held now (in the --env environment when given).
import type { Run } from '../define.js';
import type { statusSpec } from './index.js';
import { describeHolder } from '../../service/change-control.js';
import { heldLocks, scopeLockStatus } from '../../operations/change-control.js';
import { listEnvelope } from '../../io/output.js';

export const run: Run<typeof statusSpec> = async (options, ctx) => {
  const out = await ctx.output();
  if (options.scope === undefined) {
    const env = (await ctx.settings()).get('envId');
    const locks = await heldLocks(ctx, { env });
    out.list(listEnvelope(locks), locks, [
      { header: 'SCOPE', get: (l) => l.scope, keep: true },
      { header: 'HOLDER', get: (l) => l.holder },
      { header: 'COMMAND', get: (l) => l.command },
      { header: 'LOCK ID', get: (l) => l.lockId },
      { header: 'SINCE', get: (l) => l.since },
      { header: 'LEASE ENDS', get: (l) => l.leaseEnd },
      { header: 'REASON', get: (l) => l.reason },
    ], undefined, `no lock is held${env ? ` in ${env}` : ''}`);
    return;
  }
  const status = await scopeLockStatus(ctx, { scope: options.scope });
  out.print(status, () => {
    if (status.held) return `${status.scope}: ${describeHolder(status)}\n`;
    if (status.expired) return `${status.scope}: free (the lease of ${status.lockId}, ${status.holder ?? 'unknown holder'}, ended ${status.leaseEnd})\n`;
    return `${status.scope}: free\n`;
  });
};
