// `ahs schema`: the JSON Schema of the desired-state file.
import { command, defineCommand } from '../define.js';

export const schemaSpec = defineCommand({
  name: 'schema',
  summary: 'print the JSON Schema of the desired-state file (ahs.yaml), for editors',
  uses: [],
  examples: ['ahs schema > ahs.schema.json', '# then, at the top of ahs.yaml:', '# yaml-language-server: $schema=./ahs.schema.json'],
});

export const schema = command(schemaSpec, () => import('./schema.js'));
