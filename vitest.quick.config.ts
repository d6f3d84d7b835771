import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:quick`: the inner loop (issue 34), under 15 s on a quiet
// 2-core machine. The tests that load src/ in-process: state rules, plans and
// the executor, units, the emulator's handlers; no build, no spawned binary.
// `npm test` runs these and the rest (end to end, docs); `npm run test:system` the machine's tools.
// Left to `npm test` too: the scenario files below, which run whole operations over the emulator
// (a rollout's waves with its journal, a lease that runs out, the journal's store under faults) and
// the TypeScript compiler over the library's declarations: 20 of the loop's 42 s of CPU (issue 46).
export const SCENARIOS = [
  'test/plan/rollout-run.test.ts',
  'test/plan/rollout-faults.test.ts',
  'test/plan/change-control.test.ts',
  'test/unit/change-control-service.test.ts',
  'test/unit/journal-store.test.ts',
  'test/unit/library-docs.test.ts',
  // The emulator's lingering close against real clients (python3's http.client, 40 uploads of 2 MB each): 3.4 s.
  'test/emulator/lingering-close.test.ts',
];
export default defineConfig({
  test: {
    ...base.test,
    // The parser's fuzz against llhttp with a fifth of its cases (npm test runs all 2,000): 5.9 -> ~1.3 s of the loop.
    env: { AHS_FUZZ_CASES: '400' },
    include: ['test/rules/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/plan/**/*.test.ts', 'test/emulator/**/*.test.ts', 'test/faults/client.test.ts'],
    // These spawn the built binary.
    exclude: ['test/emulator/persistence.test.ts', 'test/emulator/shutdown.test.ts', 'test/emulator/aborted-request.test.ts', ...SCENARIOS],
  },
});
