// `ahs emulator start`: flags only; the server loads when the command runs.
import { InvalidArgumentError } from 'commander';
import type { RegisterGroup } from '../legacy.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError(`--port must be a whole number from 0 to 65535 (got ${value})`);
  return port;
}

export const registerEmulator: RegisterGroup = (program, action) => {
  const emulator = program
    .command('emulator')
    .description('run a local, spec-faithful Asset Hosting Service for trying and testing ahs');
  emulator
    .command('start')
    .description('serve the API (/api/v2) and the delivery network (/api/vi) on one port until Ctrl-C')
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', parsePort, 0)
    .option('--config <file>', 'fixture JSON (domains, users, keys, environments, platforms, asset types); default: the built-in demo')
    .option('--data-dir <dir>', 'keep metadata and uploaded files in DIR across restarts; default: memory')
    .addHelpText(
      'after',
      '\nWith --json the first stdout line is {"baseUrl":"...","deliveryUrl":"..."}, written once the server accepts connections.\nRequest logs go to stderr. Built-in demo: domain demo, API key demo-key, user owner@demo.test.',
    )
    .action(action(() => import('./start.js')));
};

export const emulator = { kind: 'legacy', register: registerEmulator } as const;
