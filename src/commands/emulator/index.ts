// `ahs emulator start`: flags only; the server loads when the command runs.
import { command, defineCommand, flag, group, wholeNumber, type Flag } from '../define.js';

/** A value flag with a default that --help shows (define.ts has defaults for fixed sets only). */
function withDefault<T>(declared: Flag<T | undefined>, defaultValue: T): Flag<T> {
  return { ...declared, defaultValue } as Flag<T>;
}

export const startSpec = defineCommand({
  name: 'start',
  summary: 'serve the API (/api/v2) and the delivery network (/api/vi) on one port until Ctrl-C',
  flags: {
    host: withDefault(flag.text('host', 'interface to bind'), '127.0.0.1'),
    port: withDefault(flag.parsed('port', 'port to listen on; 0 picks a free one', wholeNumber('--port', 0, 65535)), 0),
    config: flag.text('file', 'fixture JSON (domains, users, keys, environments, platforms, asset types); default: the built-in demo'),
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

export const emulator = group('emulator', 'run a local, spec-faithful Asset Hosting Service for trying and testing ahs', [
  command(startSpec, () => import('./start.js')),
]);
