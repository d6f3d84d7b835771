// ahs schema: printed as JSON whatever the output format (it is a document for tools).
import type { Run } from '../define.js';
import type { schemaSpec } from './index.js';
import { desiredJsonSchema } from '../../desired/schema.js';
import { savedPlanJsonSchema } from '../../plan/saved.js';

export const run: Run<typeof schemaSpec> = async (options, ctx) => {
  const out = await ctx.output();
  out.print(options.plan ? savedPlanJsonSchema() : desiredJsonSchema(), (doc) => JSON.stringify(doc, null, 2));
};
