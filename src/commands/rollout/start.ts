// ahs rollout start ASSET_ID (VERSION_ID | --name NAME) --platform P --waves ... (src/service/rollout.ts does the work).
import type { Run } from '../define.js';
import type { rolloutSpec } from './index.js';
import { runRollout } from '../../service/rollout.js';

export const run: Run<typeof rolloutSpec> = async (options, ctx) => runRollout(ctx, 'start', options);
