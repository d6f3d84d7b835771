// ahs apply [-f FILE | PLAN] [--target SELECTOR...]
import type { Run } from '../define.js';
import type { applySpec } from './index.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_FILE, loadDesiredFile } from '../../desired/file.js';
import { planDocument } from '../../desired/plan.js';
import { applyPlan, checkSavedPlan, readPlanFile } from '../../desired/apply.js';

export const run: Run<typeof applySpec> = async (options, ctx) => {
  if (options.plan !== undefined && (options.file !== undefined || options.target !== undefined)) {
    throw new UsageError(`PLAN is applied as it was saved: leave out ${options.file !== undefined ? '-f/--file' : '--target'} (or plan again with them: ahs plan --out PLAN)`);
  }
  ctx.confirmable('apply');
  const saved = options.plan === undefined ? undefined : await readPlanFile(options.plan);
  const file = saved ? undefined : await loadDesiredFile(options.file ?? DEFAULT_FILE);
  const user = saved ? undefined : await ctx.setting('user', { message: 'Acting user e-mail' });
  const api = await ctx.api();
  const out = await ctx.output();
  if (saved) await checkSavedPlan(saved, options.plan!, api, ctx.signal);
  const doc = saved ?? (await planDocument({ ctx, api, checksum: options.checksum, file: file!, user: user!, targets: options.target, signal: ctx.signal }));
  return applyPlan(doc, api, out);
};
