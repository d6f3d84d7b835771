// ahs rollout status ASSET_ID (VERSION_ID | --name NAME) --platform P --waves ...:
// where the rollout stands (src/operations/rollout.ts), read only.
import type { Run } from '../define.js';
import type { rolloutStatusSpec } from './index.js';
import { rolloutStatus } from '../../operations/rollout.js';
import { renderRollout } from '../../io/views/rollout.js';
import { rolloutOptions } from './options.js';

export const run: Run<typeof rolloutStatusSpec> = async (flags, ctx) => {
  const result = await rolloutStatus(ctx, await rolloutOptions(ctx, flags));
  const out = await ctx.output();
  out.print(result.document, renderRollout);
  // A rollout that needs a person (halted, blocked, superseded) ends as a run of it would.
  if (result.stop) throw result.stop;
  out.info(result.summary ?? `${result.name}: ${result.next}`);
};
