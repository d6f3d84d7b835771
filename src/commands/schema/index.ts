// `ahs schema`: the JSON Schema of the desired-state file.
import { command, defineCommand, flag } from '../define.js';

export const schemaSpec = defineCommand({
  name: 'schema',
  summary: 'print the JSON Schema of the desired-state file (ahs.yaml), for editors; with --plan, of the plan document',
  flags: {
    plan: flag.bool('print the JSON Schema of the plan document instead (ahs plan --json, ahs plan --out, ahs show --json): changes as {address, action, before, after, request, prediction}'),
  },
  uses: [],
  examples: ['ahs schema > ahs.schema.json', 'ahs schema --plan > plan.schema.json', '# then, at the top of ahs.yaml:', '# yaml-language-server: $schema=./ahs.schema.json'],
});

export const schema = command(schemaSpec, () => import('./schema.js'));
