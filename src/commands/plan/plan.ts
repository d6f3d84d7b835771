// ahs plan [-f FILE] [--out PLAN] [--detailed-exitcode] [--target SELECTOR...]
import { writeFile } from 'node:fs/promises';
import type { Run } from '../define.js';
import type { planSpec } from './index.js';
import { ChangesPending, UsageError } from '../../errors.js';
import { DEFAULT_FILE, loadDesiredFile } from '../../desired/file.js';
import { planDocument } from '../../desired/plan.js';
import { renderPlan, summaryLine } from '../../desired/render.js';

export const run: Run<typeof planSpec> = async (options, ctx) => {
  const file = await loadDesiredFile(options.file ?? DEFAULT_FILE);
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const api = await ctx.api();
  const out = await ctx.output();
  const doc = await planDocument({ ctx, api, checksum: options.checksum, file, user, targets: options.target, signal: ctx.signal });
  if (options.out) {
    await writeFile(options.out, `${JSON.stringify(doc, null, 2)}\n`).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot write the plan to ${options.out}: ${error.code ?? error.message}`);
    });
  }
  out.print(doc, (d, kit) => renderPlan(d, kit));
  if (options.out) out.info(`saved the plan to ${options.out}: ahs show ${options.out} prints it; ahs apply ${options.out} sends it once nothing it read has moved`);
  if (options.detailedExitcode && doc.steps.length > 0) throw new ChangesPending(summaryLine(doc));
};
