// freeze ENV (--until T | --for D | --weekly W [--zone Z]) --reason R.
import type { Run } from '../define.js';
import type { setSpec } from './index.js';
import { UsageError } from '../../errors.js';
import { actingUser } from '../../pickers/acting-user.js';
import { parseDuration } from '../../rules/rollout.js';
import { describeWindow, freezeEnd, parseWeekly, type FreezeWindow } from '../../rules/change-control.js';
import { addFreeze } from '../../service/change-control.js';
import { recordControl } from '../../plan/change-control.js';

export const run: Run<typeof setSpec> = async (options, ctx) => {
  const reason = ctx.globals.reason;
  if (!reason) throw new UsageError('freeze needs --reason R: it is shown to every write the freeze refuses');
  if (options.zone !== undefined && options.weekly === undefined) throw new UsageError('--zone goes with --weekly: --until takes a time with its offset (2026-12-27T08:00:00+01:00)');
  const api = await ctx.api();
  let window: FreezeWindow;
  if (options.weekly !== undefined) {
    const weekly = parseWeekly(options.weekly, options.zone ?? 'UTC');
    if ('error' in weekly) throw new UsageError(weekly.error);
    window = { kind: 'weekly', window: weekly };
  } else if (options.until !== undefined) {
    // To the second, as the freeze's record keeps it.
    const until = Math.floor(Date.parse(options.until) / 1000) * 1000;
    if (!Number.isFinite(until)) throw new UsageError(`--until ${JSON.stringify(options.until)} is not a time: give it as 2026-12-27T08:00:00Z`);
    window = { kind: 'until', until };
  } else if (options.for !== undefined) {
    const ms = parseDuration(options.for);
    if (ms === undefined) throw new UsageError(`--for ${JSON.stringify(options.for)} is not a duration: give it as 2h or 3d`);
    // "Now" is the service's clock: one read tells it (its Date header).
    await api.get(api.path('va'), { pageSize: '1' }).catch(() => undefined);
    window = { kind: 'until', until: Math.floor((api.serviceNow() + ms) / 1000) * 1000 };
  } else {
    throw new UsageError('freeze needs --until TIME, --for DURATION or --weekly WINDOW');
  }
  const user = await actingUser(ctx);
  const version = await addFreeze(api, options.env, window, reason, user, ctx.io.env);
  const until = freezeEnd({ env: options.env, window }, api.serviceNow());
  const doc = { env: options.env, window: describeWindow(window), until: until === undefined ? null : new Date(until).toISOString(), versionId: version.versionId };
  await recordControl(ctx, { address: `freeze.${options.env}`, before: null, after: { window: doc.window } }, { action: 'freeze', target: options.env, until: doc.until, reason, window: doc.window });
  (await ctx.output()).outcome(doc, `froze ${options.env} (${doc.window})${doc.until ? `: in force until ${doc.until}` : ': not in force right now'}`);
};
