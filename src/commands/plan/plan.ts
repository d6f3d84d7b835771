// ahs plan [-f FILE] [--out PLAN] [--detailed-exitcode] [--target SELECTOR...]
// The file planned (src/desired/plan.ts planFile), saved with --out, printed.
import { writeFile } from 'node:fs/promises';
import type { Run } from '../define.js';
import type { planSpec } from './index.js';
import { ChangesPending, UsageError } from '../../errors.js';
import { planFile } from '../../desired/plan.js';
import { renderPlan, summaryLine } from '../../desired/render.js';

export const run: Run<typeof planSpec> = async (options, ctx) => {
  const user = () => ctx.setting('user', { message: 'Acting user e-mail' });
  const doc = await planFile(ctx, { file: options.file, targets: options.target, checksum: options.checksum, user });
  const out = await ctx.output();
  if (options.out) {
    await writeFile(options.out, `${JSON.stringify(doc, null, 2)}\n`).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot write the plan to ${options.out}: ${error.code ?? error.message}`);
    });
  }
  out.print(doc, (d, kit) => renderPlan(d, kit));
  if (options.out) out.info(`saved the plan to ${options.out}: ahs show ${options.out} prints it; ahs apply ${options.out} sends it once nothing it read has moved`);
  if (options.detailedExitcode && doc.steps.length > 0) throw new ChangesPending(summaryLine(doc));
};
