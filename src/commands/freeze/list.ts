// freeze list: every freeze, whether it holds now (the service's clock), who set it and why.
import type { Run } from '../define.js';
import type { listSpec } from './index.js';
import { describeWindow, freezeEnd } from '../../rules/change-control.js';
import { listFreezes } from '../../service/change-control.js';

export const run: Run<typeof listSpec> = async (_options, ctx) => {
  const api = await ctx.api();
  const freezes = await listFreezes(ctx, api);
  const now = api.serviceNow();
  const results = freezes.map((f) => {
    const until = freezeEnd(f, now);
    return { env: f.env, window: describeWindow(f.window), active: until !== undefined, until: until === undefined ? null : new Date(until).toISOString(), actor: f.actor, createdAt: f.createdAt, reason: f.reason, versionId: f.versionId ?? null };
  });
  const out = await ctx.output();
  out.print({ totalResults: results.length, pageNumber: 1, pageSize: results.length, results }, (_doc, kit) => {
    if (results.length === 0) return 'no freezes\n';
    return kit.table(
      [
        { header: 'ENV', get: (r: (typeof results)[number]) => r.env },
        { header: 'WINDOW', get: (r: (typeof results)[number]) => r.window },
        { header: 'NOW', get: (r: (typeof results)[number]) => (r.active ? `frozen until ${r.until}` : 'not in force') },
        { header: 'BY', get: (r: (typeof results)[number]) => r.actor ?? '' },
        { header: 'REASON', get: (r: (typeof results)[number]) => r.reason ?? '(unreadable)' },
      ],
      results,
    );
  });
};
