// Builds the whole command tree without running anything: main() parses with
// it, and the man page and completion generators walk it.
// commander reports InvalidArgumentError as a usage error (exit 2).
import { Command, InvalidArgumentError as InvalidArgument, Option } from 'commander';
import { commandGroups } from './commands/index.js';
import type { ActionFactory } from './commands/lazy.js';

declare const AHS_VERSION: string;

export const OUTPUT_FORMATS = ['table', 'json'] as const;

/** Options every command accepts, anywhere on the line (commander's default, non-positional parsing). */
export interface GlobalOptions {
  output?: (typeof OUTPUT_FORMATS)[number];
  json?: boolean;
  dryRun?: boolean;
  yes?: boolean;
  input: boolean;
  quiet?: boolean;
  verbose?: boolean;
  color: boolean;
  timeout?: number;
  retries?: number;
  profile?: string;
  baseUrl?: string;
  deliveryUrl?: string;
  domain?: string;
  env?: string;
  platform?: string;
  user?: string;
}

export function buildProgram(action: ActionFactory): Command {
  const program = new Command('ahs')
    .description('Release engineer\'s tool for the Asset Hosting Service: upload, deploy, promote and fetch assets and collections')
    .version(typeof AHS_VERSION === 'string' ? AHS_VERSION : '0.0.0-dev', '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS))
    .option('--json', 'short for --output json')
    .option('--dry-run', 'predict the outcome of a write with the service\'s rules; send nothing')
    .option('-y, --yes', 'answer yes to confirmations (needed for destructive commands outside a terminal)')
    .option('--no-input', 'never prompt; a missing value is a usage error')
    .option('-q, --quiet', 'no progress or informational messages')
    .option('-v, --verbose', 'trace HTTP requests and responses on stderr (API key redacted)')
    .option('--no-color', 'no colour (NO_COLOR is honoured too)')
    .option('--timeout <seconds>', 'time budget of one request in seconds, retries included (default 30)', parsePositiveNumber('--timeout'))
    .option('--retries <n>', 'retries of idempotent reads on network errors and 502/503/504', parseCount('--retries'))
    .option('--profile <name>', 'profile to use (env AHS_PROFILE)')
    .option('--base-url <url>', 'API base URL (env AHS_BASE_URL)')
    .option('--delivery-url <url>', 'delivery network URL (env AHS_DELIVERY_URL)')
    .option('--domain <id>', 'domain id (env AHS_DOMAIN)')
    .option('--env <id>', 'environment id (env AHS_ENV)')
    .option('--platform <code>', 'target platform code (env AHS_PLATFORM)')
    .option('--user <email>', 'acting user e-mail for createdBy/updatedBy/deletedBy (env AHS_USER)')
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError()
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  for (const register of commandGroups) register(program, action);
  return program;
}

/** --page and --page-size, and --all where every page can be read and merged (cli.md). */
export function pagingOptions(command: Command, { all = true }: { all?: boolean } = {}): Command {
  command.option('--page <n>', 'page number', parsePositiveInt('--page')).option('--page-size <n>', 'results per page', parsePositiveInt('--page-size'));
  return all ? command.option('--all', 'read every page') : command;
}

export function parsePositiveNumber(flag: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isFinite(number) || number <= 0) throw new InvalidArgument(`${flag} must be a positive number (got ${value})`);
    return number;
  };
}

export function parseCount(flag: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0) throw new InvalidArgument(`${flag} must be a whole number, 0 or more (got ${value})`);
    return number;
  };
}

export function parsePositiveInt(flag: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) throw new InvalidArgument(`${flag} must be a whole number, 1 or more (got ${value})`);
    return number;
  };
}
