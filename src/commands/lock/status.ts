// lock status [SCOPE]: the holder, since when, why, and when the lease ends.
import type { Run } from '../define.js';
import type { statusSpec } from './index.js';
import { describeHolder } from '../../service/change-control.js';
import { scopeLockStatus } from '../../operations/change-control.js';

export const run: Run<typeof statusSpec> = async (options, ctx) => {
  const scope = options.scope ?? (await ctx.setting('envId', { message: 'Environment' }));
  const status = await scopeLockStatus(ctx, { scope });
  const out = await ctx.output();
  out.print(status, () => {
    if (status.held) return `${status.scope}: ${describeHolder(status)}\n`;
    if (status.expired) return `${status.scope}: free (the lease of ${status.lockId}, ${status.holder ?? 'unknown holder'}, ended ${status.leaseEnd})\n`;
    return `${status.scope}: free\n`;
  });
};
