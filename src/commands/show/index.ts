// `ahs show PLAN`: a saved plan, rendered offline.
import { arg, command, defineCommand } from '../define.js';

export const showSpec = defineCommand({
  name: 'show',
  summary: 'print a plan saved by ahs plan --out, offline (also when it is stale)',
  args: { plan: arg.required('PLAN', 'a plan saved by ahs plan --out') },
  uses: [],
  notes: 'JSON: the plan document itself.',
  examples: ['ahs show release.plan', "ahs show release.plan --query 'changes[].resource'"],
});

export const show = command(showSpec, () => import('./show.js'));
