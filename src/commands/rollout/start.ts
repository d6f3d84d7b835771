// ahs rollout start ASSET_ID (VERSION_ID | --name NAME) --platform P --waves ...:
// the operation (src/operations/rollout.ts) moves the rollout on; this prints
// where it stands and exits as the run ended (0 complete, 11 waiting, 1 or 5 halted).
import type { Run } from '../define.js';
import type { rolloutSpec } from './index.js';
import { startRollout } from '../../operations/rollout.js';
import { countdown, renderRollout, renderRolloutDryRun } from '../../io/views/rollout.js';
import { rolloutOptions } from './options.js';

export const run: Run<typeof rolloutSpec> = async (flags, ctx) => {
  const options = await rolloutOptions(ctx, flags);
  const out = await ctx.output();
  const result = await startRollout(ctx, options, {
    sleep: (ms, line, signal) => countdown(ctx.io, ctx.globals.quiet === true, (text) => out.info(text), ms, line, signal),
  });
  const { document } = result;
  if (document.dryRun) out.print(document, (d, kit) => renderRolloutDryRun(d, kit, { next: result.next, check: options.check }));
  else out.print(document, renderRollout);
  if (result.stop) throw result.stop;
  if (result.summary) out.success(result.summary);
};
