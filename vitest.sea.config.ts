import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:sea`: the smoke test of the single executable, after
// `npm run build:sea`. Not part of `npm test`: the build copies Node's
// ~100 MB binary and injects the bundle into it, 4 s of CPU and 10 to 20 s
// on a busy 2-core machine, for one file of tests. CI runs it after `npm test`.
// (Not mergeConfig: it would add the include list to the base's.)
export default defineConfig({ test: { ...base.test, include: ['test/sea/**/*.test.ts'], exclude: configDefaults.exclude } });
