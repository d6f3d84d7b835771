// Builds the whole command tree from the declarations without running
// anything: main() parses with it, and the man page and completion
// generators walk it.
import { Command, Help, type Option } from 'commander';
import { commandTree } from './commands/index.js';
import { flag, flagName, positiveNumber, SETTING_FLAGS, wholeNumber, type Flag, type Node } from './commands/define.js';
import { attachNode, buildCommand, type Runner } from './commands/tree.js';
import { nearest } from './commands/suggest.js';

declare const AHS_VERSION: string;

import { OUTPUT_FORMATS, type GlobalOptions } from './options.js';

export { OUTPUT_FORMATS, type GlobalOptions };

/** Options every command accepts, anywhere on the line (commander's default, non-positional parsing). */
export const globalFlags = {
  // `-out FILE` (Terraform's spelling) reads as `-o ut`: say what was meant.
  output: flag.choice('format', OUTPUT_FORMATS, 'output format', { short: '-o', hints: { ut: 'did you mean --out? (-out is read as -o ut; ahs plan --out PLAN saves the plan)' } }),
  json: flag.bool('short for --output json'),
  query: flag.text('expr', 'a JMESPath expression applied to the JSON output (implies json); a string result prints raw, e.g. --query versionId'),
  dryRun: flag.bool('predict the outcome of a write with the service\'s rules; send nothing'),
  yes: flag.bool('answer yes to confirmations (needed for destructive commands outside a terminal)', { short: '-y' }),
  input: flag.no('never prompt; a missing value is a usage error'),
  quiet: flag.bool('no progress or informational messages', { short: '-q' }),
  verbose: flag.bool('trace HTTP requests and responses on stderr (API key redacted)', { short: '-v' }),
  color: flag.no('no colour (NO_COLOR is honoured too)'),
  timeout: flag.parsed('seconds', 'time budget of one request in seconds, retries included (default 30)', positiveNumber('--timeout')),
  retries: flag.parsed('n', 'retries of a request that surely did not apply (a read, a 429, a network error before sending; default 2); a deployment in progress is waited out for as long as --timeout lasts', wholeNumber('--retries', 0)),
  profile: flag.text('name', 'profile to use (env AHS_PROFILE)'),
  baseUrl: flag.text('url', 'API base URL (env AHS_BASE_URL)'),
  deliveryUrl: flag.text('url', 'delivery network URL (env AHS_DELIVERY_URL)'),
  domain: flag.text('id', 'domain id (env AHS_DOMAIN)'),
  env: flag.text('id', 'environment id (env AHS_ENV)'),
  platform: flag.text('code', 'target platform code (env AHS_PLATFORM)'),
  user: flag.text('email', 'acting user e-mail for createdBy/updatedBy/deletedBy (env AHS_USER)'),
  journal: flag.textOrOff('id', 'the journal collection writes are recorded in and history reads (env AHS_JOURNAL; default: the domain\'s ahs-journal when it is one; start one with ahs journal init)', 'record nothing in the journal for this run (AHS_JOURNAL= too)'),
  // Change control (cli.md): every write's options, declared once.
  lockTimeout: flag.text('duration', 'a write waits this long for a lock another run holds (30s, 5m), within --timeout'),
  lockTtl: flag.text('duration', 'apply, rollout, release, item sync and collection-deploy take their scope\'s lock for their run with this lease (15s when held with --lock-timeout alone), renewed every third of it while they run'),
  lockId: flag.text('id', 'the lock this run already holds (printed by ahs lock acquire; env AHS_LOCK_ID)'),
  breakGlass: flag.bool('let this one write through a freeze (needs --reason; recorded in the journal)'),
  reason: flag.text('text', 'why: recorded with a lock, a freeze, a block, a lock break or a --break-glass write'),
};

/** The options the flags above give: exactly options.ts's GlobalOptions (a flag added here is added there). */
type DeclaredOptions = { [K in keyof typeof globalFlags]?: (typeof globalFlags)[K] extends Flag<infer T> ? Exclude<T, undefined> : never };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const declaredAsGlobalOptions: Same<DeclaredOptions, GlobalOptions> = true;
void declaredAsGlobalOptions;

/**
 * `words`: the words of this run's command line, when there is one. A
 * top-level command or group is then built whole only when its name is
 * among them: any other is an outline (outline()), which it never needs to
 * be, its name being absent. Building all 52 commands and their options was
 * 2.5 ms of `ahs asset list --json` (issue 21). The docs and completions
 * get the whole tree (no words).
 */
export function buildProgram(runner: Runner, words?: readonly string[]): Command {
  const program = buildCommand(new Command('ahs'), {
    name: 'ahs',
    summary: 'Release engineer\'s tool for the Asset Hosting Service: upload, deploy, promote and fetch assets and collections',
    flags: globalFlags,
  })
    .version(typeof AHS_VERSION === 'string' ? AHS_VERSION : '0.0.0-dev', '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .configureHelp({ sortSubcommands: false, formatHelp: commandsFirst, subcommandTerm: termOfOutline });
  const named = words && new Set(words);
  for (const node of commandTree) {
    if (named && !named.has(nameOf(node))) outline(program, node);
    else attachNode(program, node, runner);
  }
  for (const command of program.commands) finishHelp(command);
  suggestCommands(program);
  explainKeyFlags(program);
  explainExcessArguments(program);
  return program;
}

function nameOf(node: Node): string {
  return node.kind === 'group' ? node.name : node.spec.name;
}

/** An outlined command's line in its parent's list of commands, as commander writes a whole one's. */
const outlineTerms = new WeakMap<Command, string>();

/**
 * What a parent reads of a child it does not run: its name (the "did you
 * mean" of an unknown command), its summary and its term (the parent's
 * help: `release [options] <ASSET_ID> <FILE>`). Neither its options nor a
 * group's commands are built.
 */
function outline(parent: Command, node: Node): void {
  const command = parent.command(nameOf(node));
  if (node.kind === 'group') {
    command.description(node.summary);
    return;
  }
  const { spec } = node;
  command.summary(spec.summary);
  const args = Object.values(spec.args ?? {}).map((arg) => {
    const inner = `${arg.name}${arg.variadic ? '...' : ''}`;
    return arg.required ? `<${inner}>` : `[${inner}]`;
  });
  outlineTerms.set(command, [spec.name, ...(Object.keys(spec.flags ?? {}).length > 0 ? ['[options]'] : []), ...args].join(' '));
}

function termOfOutline(this: Help, command: Command): string {
  return outlineTerms.get(command) ?? Help.prototype.subcommandTerm.call(this, command);
}

/**
 * `-V, --version` prints ahs's version only before any command: commander
 * reads the program's options anywhere on the line, so `ahs release ...
 * --version 1.0` (meant as --name) printed the version and exited 0 having
 * done nothing, and `ahs verify ... --version ID` never reached verify.
 * After a command word it is that command's own flag (verify), or an
 * unknown option (exit 2).
 */
export function versionOnlyBeforeCommands(program: Command, argv: readonly string[]): void {
  const at = argv.findIndex((arg) => arg === '--version' || arg === '-V' || arg.startsWith('--version='));
  if (at < 0) return;
  const commands = new Set(program.commands.flatMap((command) => [command.name(), ...command.aliases()]));
  if (!argv.slice(0, at).some((arg) => commands.has(arg))) return;
  const options = program.options as Option[];
  const index = options.findIndex((option) => option.long === '--version');
  if (index >= 0) options.splice(index, 1);
}

/** Help with the subcommands before the options (gh): what to run next is what a reader looks for first. */
function commandsFirst(command: Command, helper: Help): string {
  const text = Help.prototype.formatHelp.call(helper, command, helper);
  const sections = text.trimEnd().split(/\n\n(?=\S)/);
  const options = sections.findIndex((section) => section.startsWith('Options:'));
  const commands = sections.findIndex((section) => section.startsWith('Commands:'));
  if (options < 0 || commands < 0 || commands < options) return text;
  const [moved] = sections.splice(commands, 1);
  sections.splice(options, 0, moved!);
  return `${sections.join('\n\n')}\n`;
}

export const GLOBALS_POINTER = 'Global options (--json, --dry-run, --profile, --env, --platform, --user, ...): run `ahs help globals`.';

/** Subcommands and a command's own options first; the global options behind one line (gh, kubectl). */
function finishHelp(command: Command): void {
  command.addHelpText('after', `\n${GLOBALS_POINTER}`);
  for (const sub of command.commands) finishHelp(sub);
}

/** An unknown command suggests the real one it begins, else the nearest (./commands/suggest.ts). */
function suggestCommands(command: Command): void {
  if (command.commands.length === 0) return;
  (command as unknown as { unknownCommand: () => void }).unknownCommand = function unknownCommand(this: Command) {
    const word = this.args[0] ?? '';
    const names = this.commands.map((sub) => sub.name());
    const suggestion = nearest(word, this.parent ? names : [...names, 'help']);
    this.error(`error: unknown command '${word}'${suggestion ? `\n(Did you mean ${suggestion}?)` : ''}`, { code: 'commander.unknownCommand' });
  };
  for (const sub of command.commands) suggestCommands(sub);
}

/**
 * Too many arguments names the command's arguments and the words left over
 * (`ahs item remove C I1 I2`: "ahs item remove takes COLLECTION_ID ITEM_ID:
 * 'I2' is one too many"), rather than commander's count of them.
 */
function explainExcessArguments(command: Command): void {
  const internals = command as unknown as { _excessArguments: (received: string[]) => void; _allowExcessArguments: boolean };
  internals._excessArguments = function (this: Command, received: string[]) {
    if (internals._allowExcessArguments) return;
    const names = this.registeredArguments.map((argument) => `${argument.name()}${argument.variadic ? '...' : ''}`);
    const path: string[] = [];
    for (let at: Command | null = this; at; at = at.parent) path.unshift(at.name());
    const extra = received.slice(names.length).map((word) => `'${word}'`);
    const takes = names.length > 0 ? `takes ${names.join(' ')}` : 'takes no arguments';
    const tooMany = extra.length === 1 ? 'is one argument too many' : `are ${extra.length} arguments too many`;
    this.error(`error: ${path.join(' ')} ${takes}: ${extra.join(' ')} ${tooMany}`, { code: 'commander.excessArguments' });
  };
  for (const sub of command.commands) explainExcessArguments(sub);
}

/** `--api-key`, `--apikey`, `--key` (with or without `=VALUE`): flags a person tries for the key, which ahs never takes. */
const KEY_FLAG = /^--(api-?key|key)(=|$)/i;

/**
 * The key has no flag (cli.md: it would sit in shell history and the
 * process list): an attempt at one is told where the key goes instead. The
 * value given is never echoed.
 */
function explainKeyFlags(command: Command): void {
  const unknownOption = (command as unknown as { unknownOption: (flag: string) => void }).unknownOption;
  (command as unknown as { unknownOption: (flag: string) => void }).unknownOption = function (this: Command, flag: string) {
    if (!KEY_FLAG.test(flag)) return unknownOption.call(this, flag);
    this.error(
      `error: unknown option '${flag.split('=')[0]}': the API key is never given on the command line (shell history, process list); set AHS_API_KEY, or keep it in a profile: ahs profile add NAME --api-key-stdin`,
      { code: 'commander.unknownOption' },
    );
  };
  for (const sub of command.commands) explainKeyFlags(sub);
}

/** `ahs help globals`: the options every command accepts. */
export function globalsHelp(program: Command): string {
  const help = program.createHelp();
  const options = help.visibleOptions(program).filter((option) => option.long !== '--help' && option.long !== '--version');
  const width = Math.max(...options.map((option) => help.optionTerm(option).length));
  const lines = options.map((option) => `  ${help.optionTerm(option).padEnd(width)}  ${help.optionDescription(option)}`);
  const settings = SETTING_FLAGS.map(flagName).join(', ');
  return [
    'Global options: given anywhere on the line. The output and behaviour options are taken by every command;',
    `a setting flag (${settings}) is taken only by the commands whose requests use it:`,
    'one that a command has no use for is refused (exit 2, naming it), while the same setting from the',
    'environment (AHS_ENV, ...) or a profile is simply not used (cli.md "Output").',
    '',
    lines.join('\n'),
    '',
    'Setting flags each command uses (from its declaration):',
    '',
    ...settingsByCommand(),
    '',
  ].join('\n');
}

/** `  asset list        --profile, --base-url, --domain`: each command and the setting flags it declares it uses. */
function settingsByCommand(): string[] {
  const rows: Array<[string, string]> = [];
  for (const node of commandTree) {
    const leaves = node.kind === 'group' ? node.commands.map((leaf) => [`${node.name} ${leaf.spec.name}`, leaf] as const) : [[node.spec.name, node] as const];
    for (const [name, leaf] of leaves) rows.push([name, (leaf.spec.uses ?? []).map(flagName).join(', ') || 'none']);
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, uses]) => `  ${name.padEnd(width)}  ${uses}`);
}
