// Mutation testing (`npm run mutation`; not part of `npm test`). Narrow a run
// to one file: `npm run mutation -- --mutate src/rules/assets.ts`.
// test/README.md records the scores and the mutants left alive on purpose.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  // Each mutant runs only the tests that reached it: minutes, not hours, on 2 cores.
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // A static mutant (a module-level constant: LIMITS, the zod schemas) is
  // reached at import, so it runs every test: ~20 s each, an hour for the
  // ~360 of them. Left out by default; MUTATION_STATIC=1 puts them back
  // (narrow the run with --mutate when you do).
  ignoreStatic: process.env.MUTATION_STATIC !== '1',
  // The decision files: the rules (change control's locks*, freeze* and
  // block* files among them, as they come), the plan and its executor (the
  // journal's record, src/plan/journal-record.ts, among them), the journal's
  // storage, format and setting, the history, a rollout's entries and the
  // rollout, change control's reads and writes, and three more.
  mutate: [
    'src/rules/**/*.ts',
    'src/rules/**/locks*.ts',
    'src/rules/**/freeze*.ts',
    'src/rules/**/block*.ts',
    'src/plan/**/*.ts',
    'src/service/journal*.ts',
    'src/service/history.ts',
    'src/service/rollout-journal.ts',
    'src/service/change-control.ts',
    'src/operations/rollout.ts',
    'src/http/paging.ts',
    'src/service/promote.ts',
    'src/transfer/safe-name.ts',
  ],
  // Only what the tests load is copied into the sandbox: no dist/, whose
  // binary the e2e tests start from the checkout (vitest.mutation.config.ts).
  ignorePatterns: ['dist', 'bench', 'man', 'completions', 'reports', 'coverage', '.tmp', '*.tgz'],
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: process.env.MUTATION_JSON ?? 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  // A mutant that turns a retry loop endless is cut off, not waited out.
  timeoutMS: 10_000,
};
