// The system tier (issue 46): the test files whose processes are
// the machine's own tools, run by `npm run test:system` (.ci/run, after
// `npm test`) and left out of `npm test`: npm and git installs and packs,
// attw, publint and TypeScript over the packed package, npm audit, real
// bash, zsh and fish, shellcheck and mandoc, nginx and squid. Since the
// fourteenth session also the scripts real bash runs as a user pastes them:
// the documented GitHub workflows (docs/rollouts.md, docs/change-control.md,
// each job's `run` lines) and `eval "$(ahs emulator env)"`.
export const SYSTEM_TIER = [
  'test/e2e/packaging.test.ts',
  'test/docs/ci-example.test.ts',
  'test/e2e/package-checks.test.ts',
  'test/e2e/library-package.test.ts',
  'test/e2e/shipped-audit.test.ts',
  'test/e2e/completion.test.ts',
  'test/docs/completion.test.ts',
  'test/docs/tools.test.ts',
  'test/proxies/**/*.test.ts',
  'test/docs/rollout-example.test.ts',
  'test/docs/change-control-example.test.ts',
  'test/e2e/emulator-env.test.ts',
];
