import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:quick`: the inner loop (issue 34), under 15 s on a quiet
// 2-core machine. The tests that load src/ in-process: state rules, plans and
// the executor, units, the emulator's handlers; no build, no spawned binary.
// `npm test` runs these and the rest (end to end, docs); `npm run test:system` the machine's tools.
export default defineConfig({
  test: {
    ...base.test,
    // The parser's fuzz against llhttp with a fifth of its cases (npm test runs all 2,000): 5.9 -> ~1.3 s of the loop.
    env: { AHS_FUZZ_CASES: '400' },
    include: ['test/rules/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/plan/**/*.test.ts', 'test/emulator/**/*.test.ts', 'test/faults/client.test.ts'],
    // These spawn the built binary.
    exclude: ['test/emulator/persistence.test.ts', 'test/emulator/shutdown.test.ts', 'test/emulator/aborted-request.test.ts'],
  },
});
