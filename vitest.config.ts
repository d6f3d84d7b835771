import { configDefaults, defineConfig } from 'vitest/config';

// Tests run on a slow, busy 2-core machine: generous timeouts, no timing asserts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The single executable's smoke test needs its own build: `npm run test:sea` (vitest.sea.config.ts).
    exclude: [...configDefaults.exclude, 'test/sea/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Measured on this 2-core machine, quiet: 2 workers 93 s of vitest, 4
    // workers 70 to 85 s, 6 workers 74 s. Kept at 2: more workers than cores
    // gain little and starve the tests that watch a terminal or a timer.
    maxWorkers: 2,
    isolate: false,
    // A release engineer's AHS_* settings and profile never reach a test (issue 34).
    setupFiles: ['test/support/hermetic.ts'],
    // One temporary folder per run, for what the test files share (the local release).
    globalSetup: ['test/support/shared-tmp.ts'],
  },
});
