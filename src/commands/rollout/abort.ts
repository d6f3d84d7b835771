// ahs rollout abort ASSET_ID (VERSION_ID | --name NAME) --platform P --waves ... (src/service/rollout.ts does the work).
import type { Run } from '../define.js';
import type { rolloutAbortSpec } from './index.js';
import { runRollout } from '../../service/rollout.js';

export const run: Run<typeof rolloutAbortSpec> = async (options, ctx) => runRollout(ctx, 'abort', options);
