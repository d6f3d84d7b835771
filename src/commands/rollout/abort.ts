// ahs rollout abort ASSET_ID (VERSION_ID | --name NAME) --platform P --waves ...:
// each wave's previous Default back (src/operations/rollout.ts), newest first;
// exit 5 naming a channel someone else moved since.
import type { Run } from '../define.js';
import type { rolloutAbortSpec } from './index.js';
import { abortRollout } from '../../operations/rollout.js';
import { renderAbortDryRun, renderRollout } from '../../io/views/rollout.js';
import { rolloutOptions } from './options.js';

export const run: Run<typeof rolloutAbortSpec> = async (flags, ctx) => {
  const result = await abortRollout(ctx, await rolloutOptions(ctx, flags));
  const out = await ctx.output();
  out.print(result.document, result.document.dryRun ? renderAbortDryRun : renderRollout);
  if (result.stop) throw result.stop;
  if (result.summary) out.success(result.summary);
};
