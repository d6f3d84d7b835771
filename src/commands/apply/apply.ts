// ahs apply [-f FILE | PLAN] [--target SELECTOR...]
// The plan to send (src/desired/apply.ts planToApply), shown, then run by
// the executor; what it did is printed, and a failed step is exit 1.
import type { Run } from '../define.js';
import type { applySpec } from './index.js';
import { UsageError } from '../../errors.js';
import { applyPlan, planToApply, readPlanFile } from '../../desired/apply.js';
import { renderApplied, renderPlan } from '../../desired/render.js';
import { thenDo } from '../../plan/plan.js';

export const run: Run<typeof applySpec> = async (options, ctx) => {
  if (options.plan !== undefined && (options.file !== undefined || options.target !== undefined)) {
    throw new UsageError(`PLAN is applied as it was saved: leave out ${options.file !== undefined ? '-f/--file' : '--target'} (or plan again with them: ahs plan --out PLAN)`);
  }
  // A file that is not a plan is said before --yes is asked for: the fix is another file, not a flag.
  const saved = options.plan !== undefined ? await readPlanFile(options.plan) : undefined;
  ctx.confirmable('apply');
  const user = () => ctx.setting('user', { message: 'Acting user e-mail' });
  const doc = await planToApply(ctx, { plan: options.plan, saved, file: options.file, targets: options.target, checksum: options.checksum, user });
  const out = await ctx.output();
  // JSON (cli.md "Output"): stdout holds the one document, stderr nothing but an error object: no preview.
  if (!out.json) out.info(renderPlan(doc, out.kit));
  const api = await ctx.api();
  return thenDo(applyPlan(doc, api, out), ({ result, known, failure }) => {
    // Each step went by on stderr as it was done; stdout says what the apply did (cli.md: data on stdout).
    out.print(result, (r, kit) => renderApplied(doc, r, known, kit));
    if (failure) throw failure;
  });
};
