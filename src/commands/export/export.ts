// ahs export [--asset ID...] [--collection ID...] [--platform P...] [--env E...]
import type { Run } from '../define.js';
import type { exportSpec } from './index.js';
import { exportState } from '../../operations/export.js';

export const run: Run<typeof exportSpec> = async (options, ctx) => {
  const api = await ctx.api();
  const out = await ctx.output();
  const state = await exportState(ctx, { asset: options.asset, collection: options.collection, platform: options.platform, envId: options.env });
  const { stringify } = await import('yaml');
  const header = `# ahs desired state, exported from ${api.baseUrl} (domain ${api.domainId}) at ${new Date().toISOString()}\n# yaml-language-server: $schema=ahs.schema.json (write it with: ahs schema > ahs.schema.json)\n`;
  out.print(state, (doc) => `${header}${stringify(doc)}`);
};
