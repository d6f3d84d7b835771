// freeze list: every freeze, whether it holds now (the service's clock), who set it and why.
import type { Run } from '../define.js';
import type { listSpec } from './index.js';
import { listEnvFreezes, type FreezeListed } from '../../operations/change-control.js';

export const run: Run<typeof listSpec> = async (_options, ctx) => {
  const results = await listEnvFreezes(ctx);
  const out = await ctx.output();
  out.print({ totalResults: results.length, pageNumber: 1, pageSize: results.length, results }, (_doc, kit) => {
    if (results.length === 0) return 'no freezes\n';
    return kit.table(
      [
        { header: 'ENV', get: (r: FreezeListed) => r.env },
        { header: 'WINDOW', get: (r: FreezeListed) => r.window },
        { header: 'NOW', get: nowCell },
        { header: 'BY', get: (r: FreezeListed) => r.actor ?? '' },
        { header: 'REASON', get: (r: FreezeListed) => r.reason ?? '(unreadable)' },
      ],
      results,
    );
  });
};

/**
 * Whether the freeze holds now, saying only what its window does not:
 * a weekly window's end this week; a window until a time is "frozen" (its
 * end is the window) or, past it, "ended".
 */
export function nowCell(r: Pick<FreezeListed, 'active' | 'until' | 'window'>): string {
  const once = r.window.startsWith('until ');
  if (r.active) return once ? 'frozen' : `frozen until ${r.until}`;
  return once ? 'ended' : 'not in force';
}
