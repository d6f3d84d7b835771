import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant (`npm run mutation`). Only the
// tests that import src/ into the test process: a mutant lives in Stryker's
// sandbox copy of src/, so tests that spawn the built binary (e2e) cannot see
// it and would only cost minutes per run. The main config's `isolate: false`
// is left out: Stryker reloads modules between mutants and counts coverage
// per test, which needs each test file to load src/ afresh.
export default defineConfig({
  test: {
    include: ['test/rules/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/emulator/**/*.test.ts', 'test/plan/**/*.test.ts', 'test/faults/client.test.ts'],
    // These spawn the built binary (the emulator as a child process), bundled
    // from src/ outside Stryker's reach; dist/ is not copied into its sandbox.
    exclude: ['test/emulator/persistence.test.ts', 'test/emulator/shutdown.test.ts', 'test/emulator/aborted-request.test.ts'],
    setupFiles: ['test/support/hermetic.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
