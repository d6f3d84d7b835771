import { describe, expect, it } from 'vitest';
import { homedir } from 'node:os';

// Guards test/support/hermetic.ts: run the suite with a release engineer's
// settings exported (AHS_BASE_URL=... npm test) and nothing may reach a test.
describe('the suite is hermetic', () => {
  it('no ahs setting, CI marker or proxy of the shell reaches a test', () => {
    const leaked = Object.keys(process.env).filter((key) => /^(AHS_(?!(E2E|FUZZ|TEST)_)|CI$|GITHUB_|NO_COLOR$|HTTPS?_PROXY$)/.test(key));
    expect(leaked).toEqual([]);
  });
  it('the default config folder is an empty temporary one, not the shell user\'s', () => {
    expect(process.env.XDG_CONFIG_HOME).toMatch(/ahs-test-config-/);
    expect(process.env.XDG_CONFIG_HOME!.startsWith(homedir())).toBe(false);
  });
});
