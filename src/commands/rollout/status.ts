// ahs rollout status ASSET_ID (VERSION_ID | --name NAME) --platform P --waves ... (src/service/rollout.ts does the work).
import type { Run } from '../define.js';
import type { rolloutStatusSpec } from './index.js';
import { runRollout } from '../../service/rollout.js';

export const run: Run<typeof rolloutStatusSpec> = async (options, ctx) => runRollout(ctx, 'status', options);
