import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { SYSTEM_TIER } from './test/system-tier.js';

// `npm run test:system` (.ci/run runs it after `npm test`): the files whose
// processes are the machine's tools (test/system-tier.ts), ~66 s of CPU
// and the longest walls of the suite (test/README.md, issue 46).
// (Not mergeConfig: it would add the include list to the base's.)
export default defineConfig({ test: { ...base.test, include: SYSTEM_TIER, exclude: configDefaults.exclude } });
