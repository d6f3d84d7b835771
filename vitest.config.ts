import { configDefaults, defineConfig } from 'vitest/config';
import { SYSTEM_TIER } from './test/system-tier.js';

// Tests run on a slow, busy 2-core machine: generous timeouts, no timing asserts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The single executable's smoke test needs its own build: `npm run test:sea` (vitest.sea.config.ts).
    // The system tier (the machine's tools: npm, git, real shells, nginx, squid): `npm run test:system` (test/system-tier.ts).
    exclude: [...configDefaults.exclude, 'test/sea/**', ...SYSTEM_TIER],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Measured on this 2-core machine, quiet (test/README.md, issue 34): 2
    // workers 71 s of vitest, 3 workers 54-60 s, 4 workers 61 s. A third
    // worker runs while the other two wait on a timer (a soak, a settle, a
    // backoff), which left a core idle a quarter of the run; a fourth costs
    // more in imports than it fills.
    maxWorkers: 3,
    isolate: false,
    // Each module's transform kept on disk between runs, keyed by its content (node_modules/.experimental-vitest-cache):
    // a rerun skips esbuild and vite's plugins for what did not change (issue 46).
    experimental: { fsModuleCache: true },
    // A release engineer's AHS_* settings and profile never reach a test (issue 34).
    // AHS_TEST_CPU_LOG=FILE: each file's CPU and the processes it started, a JSON line each (test/README.md, issue 46).
    setupFiles: ['test/support/hermetic.ts', ...(process.env.AHS_TEST_CPU_LOG ? ['test/support/cpu-probe.ts'] : [])],
    // One temporary folder per run, for what the test files share (the local release).
    globalSetup: ['test/support/shared-tmp.ts'],
  },
});
