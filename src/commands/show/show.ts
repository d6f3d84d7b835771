// ahs show PLAN: reads nothing from the service.
import type { Run } from '../define.js';
import type { showSpec } from './index.js';
import { readPlanFile } from '../../desired/apply.js';
import { renderPlan } from '../../desired/render.js';

export const run: Run<typeof showSpec> = async (options, ctx) => {
  const doc = await readPlanFile(options.plan);
  const out = await ctx.output();
  out.print(doc, (d, kit) => `${kit.style.dim(`Plan for ${d.baseUrl} (domain ${d.domainId})${d.file ? ` from ${d.file.path}` : ''}`)}\n${renderPlan(d, kit)}`);
};
