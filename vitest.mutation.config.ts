import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant (`npm run mutation`): the ones
// that load src/ into the test process, the in-process end-to-end files
// included (test/e2e/: main() and the library's client over the emulator on
// port 0, the only tests that reach the journal, the history, the rollouts
// and change control whole). A mutant lives in Stryker's sandbox copy of
// src/ (.stryker-tmp/sandbox-*/), which has no dist/: the runs of those files
// that start the built binary (a signal, a race of processes, the launcher)
// start the checkout's own build instead (AHS_E2E_BIN below), unmutated,
// so they pass and kill nothing; `npm run build` first. Left out: the files
// that read dist/ itself (the library's bundle, the package, the launcher's
// caches), which cannot see a mutant either.
// The main config's `isolate: false` is left out: Stryker reloads modules
// between mutants and counts coverage per test, which needs each test file
// to load src/ afresh.
//
// MUTATION_TESTS=test/e2e/rollout.test.ts,test/rules/rollout.test.ts narrows
// the tests (comma-separated files or globs), for a run over one file with the
// tests known to reach it: Stryker's first run, which runs every test once
// to see which mutants each reaches, is most of a narrow run's time.
const here = import.meta.dirname;
// In the sandbox, the checkout is two folders up (.stryker-tmp/sandbox-XXXX).
const checkout = basename(dirname(here)) === '.stryker-tmp' ? dirname(dirname(here)) : here;
const binary = join(checkout, 'bin', 'ahs.js');
if (checkout !== here && !existsSync(join(checkout, 'dist', 'main.js'))) throw new Error('the mutation run starts the checkout\'s built binary for the tests that need one: run `npm run build` first');

const narrowed = process.env.MUTATION_TESTS?.split(',').map((part) => part.trim()).filter(Boolean);

export default defineConfig({
  test: {
    include: narrowed ?? ['test/rules/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/emulator/**/*.test.ts', 'test/plan/**/*.test.ts', 'test/faults/client.test.ts', 'test/e2e/**/*.test.ts'],
    exclude: [
      // These spawn the built binary (the emulator as a child process) and nothing else.
      'test/emulator/persistence.test.ts',
      'test/emulator/shutdown.test.ts',
      'test/emulator/aborted-request.test.ts',
      // These read dist/ (the library's bundle and declarations, the package, the code caches) or the generated docs.
      'test/e2e/packaging.test.ts',
      'test/e2e/package-checks.test.ts',
      'test/e2e/library-package.test.ts',
      'test/e2e/launcher.test.ts',
      'test/e2e/library-history.test.ts',
      'test/e2e/library-rollout.test.ts',
      'test/e2e/library-writes.test.ts',
      'test/e2e/settle-slow.test.ts',
      'test/e2e/completion.test.ts',
    ],
    setupFiles: ['test/support/hermetic.ts'],
    // The tests that share the local release and a temporary folder of the run.
    globalSetup: ['test/support/shared-tmp.ts'],
    env: checkout === here ? {} : { AHS_E2E_BIN: binary },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
