// freeze ENV (--until T | --for D | --weekly W [--zone Z]) --reason R (src/operations/change-control.ts).
import type { Run } from '../define.js';
import type { setSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { parseDuration } from '../../rules/rollout.js';
import { setFreeze } from '../../operations/change-control.js';

export const run: Run<typeof setSpec> = async (options, ctx) => {
  const reason = ctx.globals.reason;
  if (!reason) throw new UsageError('freeze needs --reason R: it is shown to every write the freeze refuses');
  if (options.zone !== undefined && options.weekly === undefined) throw new UsageError('--zone goes with --weekly: --until takes a time with its offset (2026-12-27T08:00:00+01:00)');
  if (options.weekly === undefined && options.until === undefined && options.for === undefined) throw new UsageError('freeze needs --until TIME, --for DURATION or --weekly WINDOW');
  let forMs: number | undefined;
  if (options.weekly === undefined && options.until === undefined && options.for !== undefined) {
    forMs = parseDuration(options.for);
    if (forMs === undefined) throw new UsageError(`--for ${JSON.stringify(options.for)} is not a duration: give it as 2h or 3d`);
  }
  const user = await actingUser(ctx);
  const window = options.weekly !== undefined ? { weekly: options.weekly, ...(options.zone !== undefined ? { zone: options.zone } : {}) } : options.until !== undefined ? { until: options.until } : { forMs: forMs! };
  const doc = await setFreeze(ctx, { env: options.env, reason, user, ...window }, { until: '--until', for: '--for', weekly: '--weekly', zone: '--zone' });
  (await ctx.output()).outcome(doc, `froze ${options.env} (${doc.window})${doc.until ? (doc.window.includes(doc.until) ? '' : `: in force until ${doc.until}`) : ': not in force right now'}`);
};
