// The suite is hermetic: a release engineer's shell exports AHS_BASE_URL,
// AHS_API_KEY, AHS_ENV... and keeps a profile in ~/.config/ahs-cli; none of
// them may change what a test sees (issue 34). Run before every test file
// (vitest setupFiles): settings and CI markers are removed from this
// process's environment, which every in-process run and every spawned
// `ahs` inherits, and the config folder's default location is moved to an
// empty temporary folder, removed after the file. Test knobs (AHS_E2E_*,
// AHS_FUZZ_*, AHS_TEST_*) stay: they steer the suite, not ahs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, inject } from 'vitest';

// NODE_EXTRA_CA_CERTS too: the CAs a shell trusts are a setting of ahs as
// much as its proxy, and the tests talk to local servers only (those over
// TLS set their own). On this machine it points at the whole system bundle,
// which every Node process then parses at start: ~45 ms of CPU each, a
// quarter of a spawned `ahs` (issue 34).
const SETTING = /^(AHS_|CI$|GITHUB_|RUNNER_|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|NO_PROXY$|https?_proxy$|no_proxy$|all_proxy$|ALL_PROXY$|NODE_EXTRA_CA_CERTS$)/;
const KNOB = /^AHS_(E2E|FUZZ|TEST)_/;

for (const key of Object.keys(process.env)) {
  if (SETTING.test(key) && !KNOB.test(key)) delete process.env[key];
}
// Made in the run's shared folder (shared-tmp.ts, removed after the run)
// when there is one: vitest runs no afterAll in a file whose tests are all
// skipped, nor in a worker cut short, and each such file left its folder in
// the temporary folder for good.
const configHome = mkdtempSync(join(inject('sharedTmp') ?? tmpdir(), 'ahs-test-config-'));
process.env.XDG_CONFIG_HOME = configHome;
afterAll(() => rmSync(configHome, { recursive: true, force: true }));
