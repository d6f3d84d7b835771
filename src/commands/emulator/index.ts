// `ahs emulator start|env`: flags only; the server loads when a command runs.
import { command, defineCommand, flag, group, wholeNumber, type Flag } from '../define.js';

/** A value flag with a default that --help shows (define.ts has defaults for fixed sets only). */
function withDefault<T>(declared: Flag<T | undefined>, defaultValue: T): Flag<T> {
  return { ...declared, defaultValue } as Flag<T>;
}

const host = withDefault(flag.text('host', 'interface to bind'), '127.0.0.1');
const config = flag.text('file', 'fixture JSON (domains, users, keys, environments, platforms, asset types); default: the built-in demo');

export const startSpec = defineCommand({
  name: 'start',
  uses: [],
  summary: 'serve the API (/api/v2) and the delivery network (/api/vi) on one port until Ctrl-C',
  description:
    'Prints where it listens and an `export AHS_...` line to paste in another terminal. With --port 0 (the default) the port changes at every start; a fixed --port keeps those lines and a saved profile valid across restarts.',
  flags: {
    host,
    port: withDefault(flag.parsed('port', 'port to listen on; 0 picks a free one (a new one at every start)', wholeNumber('--port', 0, 65535)), 0),
    config,
    dataDir: flag.text('dir', 'keep metadata and uploaded files in DIR across restarts; default: memory'),
  },
  examples: [
    'ahs emulator start',
    '# a fixed port keeps a saved profile valid across restarts; data survives too',
    'ahs emulator start --port 4010 --data-dir ./.ahs-data',
    '# in a test script: the first stdout line is the JSON ready line',
    'ahs emulator start --json --config fixture.json',
  ],
  notes:
    'With --json the first stdout line is {"baseUrl":"...","deliveryUrl":"..."}, written once the server accepts connections.\nRequest logs go to stderr. Built-in demo: domain demo, API key demo-key, user owner@demo.test.',
});

export const envSpec = defineCommand({
  name: 'env',
  uses: [],
  summary: 'print the export line of AHS_* variables for an emulator on --host:--port (starts nothing)',
  description:
    'The line `emulator start` prints: AHS_BASE_URL, AHS_DELIVERY_URL, AHS_DOMAIN, AHS_API_KEY and AHS_USER for the first domain of the fixture, its domain-wide key and an owner or admin. Run the emulator with the same fixed --port.',
  flags: {
    host: withDefault(flag.text('host', 'interface the emulator binds'), '127.0.0.1'),
    port: flag.parsed('port', 'port the emulator listens on (required: as given to `emulator start --port`)', wholeNumber('--port', 1, 65535)),
    config,
  },
  examples: [
    'ahs emulator start --port 4010 &',
    '# point this shell at it',
    'eval "$(ahs emulator env --port 4010)"',
    'ahs emulator env --port 4010 --json',
  ],
  notes: 'With --json: {"AHS_BASE_URL":"...","AHS_DELIVERY_URL":"...","AHS_DOMAIN":"...","AHS_API_KEY":"...","AHS_USER":"..."}.',
});

export const emulator = group('emulator', 'run a local, spec-faithful Asset Hosting Service for trying and testing ahs', [
  command(startSpec, () => import('./start.js')),
  command(envSpec, () => import('./env.js')),
]);
