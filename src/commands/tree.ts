// Turns the declarations into commander's tree, and commander's parse back
// into the typed options a command's `run` receives. Each command's module is
// loaded only when it runs, so `ahs --help` never pays for undici, zod, conf,
// ora or inquirer.
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { Arg, CommandSpec, Flag, Flags, Leaf, Node } from './define.js';
import { flagName, SETTING_FLAGS, type SettingFlag } from './define.js';
import { UsageError } from '../errors.js';

/** What runs a parsed command: main() sends it to the module; tests of parsing capture it. */
export type Runner = (leaf: Leaf, options: Record<string, unknown>, command: Command) => Promise<void>;

const specs = new WeakMap<Command, CommandSpec>();

/** The declaration a commander command was built from (for the docs generators). */
export function specOf(command: Command): CommandSpec | undefined {
  return specs.get(command);
}

export function attachNode(parent: Command, node: Node, runner: Runner, isDefault = false): void {
  if (node.kind === 'group') {
    const group = parent.command(node.name).description(node.summary);
    for (const leaf of node.commands) attachNode(group, leaf, runner, leaf.spec.name === node.defaultCommand);
    return;
  }
  const command = buildCommand(parent.command(node.spec.name, isDefault ? { isDefault: true } : {}), node.spec);
  command.action(async (...actionArgs: unknown[]) => {
    const invoked = actionArgs[actionArgs.length - 1] as Command;
    refuseUnusedSettings(node.spec, invoked);
    refuseRepeatedSettings(node.spec, invoked);
    await runner(node, optionsOf(node.spec, actionArgs.slice(0, -2), invoked), invoked);
  });
}

/** Declares `spec`'s arguments, flags, help and examples on `command`. */
export function buildCommand(command: Command, spec: CommandSpec): Command {
  specs.set(command, spec);
  command.description([spec.summary, spec.description, settingsText(spec)].filter(Boolean).join('\n\n')).summary(spec.summary);
  for (const declared of Object.values(spec.args ?? {})) command.addArgument(toArgument(declared));
  // The root keeps every value of a setting flag: a command may take several (export --platform ios --platform android).
  const atRoot = command.parent === null;
  for (const [key, declared] of Object.entries(spec.flags ?? {})) {
    for (const option of toOptions(key, declared, declared.repeatable === true || (atRoot && isSettingFlag(key)))) command.addOption(option);
  }
  const after = [spec.notes, examplesText(spec.examples)].filter(Boolean).join('\n\n');
  if (after) command.addHelpText('after', `\n${after}`);
  return command;
}

/** Which setting flags the command takes (the others are refused: refuseUnusedSettings). */
function settingsText(spec: CommandSpec): string {
  if (!spec.uses) return '';
  if (spec.uses.length === 0) return 'Setting flags: none (--profile, --env, --platform and the other setting flags are refused).';
  return `Setting flags: ${spec.uses.map(flagName).join(', ')} (any other setting flag is refused).`;
}

/** The "Examples:" block of --help (gh's Example: blocks). */
export function examplesText(examples: readonly string[] | undefined): string {
  if (!examples?.length) return '';
  return ['Examples:', ...examples.map((line) => (line.startsWith('#') ? `  ${line}` : `  $ ${line}`))].join('\n');
}

function toArgument(declared: Arg<unknown>): Argument {
  const inner = `${declared.name}${declared.variadic ? '...' : ''}`;
  const argument = new Argument(declared.required ? `<${inner}>` : `[${inner}]`, declared.description);
  if (declared.choices) return argument.choices(declared.choices);
  return argument.argParser((value: string, previous: unknown) => {
    if (value.trim() === '') throw new InvalidArgumentError(`${declared.name} must not be empty`);
    return declared.variadic ? [...((previous as string[] | undefined) ?? []), value] : value;
  });
}

function isSettingFlag(key: string): key is SettingFlag {
  return (SETTING_FLAGS as readonly string[]).includes(key);
}

/** `keepEvery`: a value flag given more than once keeps every value, in order (else the last one given wins). */
function toOptions(key: string, declared: Flag<unknown>, keepEvery = false): Option[] {
  const long = flagName(key);
  const short = declared.short ? `${declared.short}, ` : '';
  switch (declared.kind) {
    case 'boolean':
      return [finish(new Option(`${short}${long}`, declared.description), declared)];
    case 'negated':
      return [finish(new Option(`${short}--no-${long.slice(2)}`, declared.description), declared)];
    case 'toggle':
      return [finish(new Option(long, declared.description), declared), finish(new Option(`--no-${long.slice(2)}`, declared.offDescription ?? ''), declared)];
    case 'value': {
      const option = new Option(`${short}${long} <${declared.valueName ?? 'value'}${declared.variadic ? '...' : ''}>`, declared.description);
      const choices = declared.choices;
      if (choices) {
        option.choices(choices);
        // `--state live` means LIVE: the case of a fixed value carries no meaning a person would intend.
        option.argParser((raw: string) => {
          const match = choices.find((choice) => choice.toLowerCase() === raw.toLowerCase());
          if (match === undefined) throw new InvalidArgumentError(badChoice(long, choices, raw, declared.hints));
          return match;
        });
      }
      const parse = declared.parse;
      if (parse) {
        option.argParser((raw: string, previous: unknown) => {
          let value: unknown;
          try {
            value = parse(raw);
          } catch (error) {
            throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
          }
          return keepEvery ? [...(Array.isArray(previous) ? previous : []), value] : value;
        });
      }
      if (declared.defaultValue !== undefined) option.default(declared.defaultValue);
      // A value flag that can be turned off for a run (--journal ID / --no-journal).
      if (declared.offDescription !== undefined) return [finish(option, declared), finish(new Option(`--no-${long.slice(2)}`, declared.offDescription), declared)];
      return [finish(option, declared)];
    }
  }
}

/** `--state must be LIVE or OFFLINE (got SIDEWAYS)`, and what to do instead when the value is a known mistake. */
function badChoice(long: string, choices: readonly string[], raw: string, hints: Flag<unknown>['hints']): string {
  const hint = Object.entries(hints ?? {}).find(([value]) => value.toLowerCase() === raw.toLowerCase())?.[1];
  const listed = choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`;
  return `${long} must be ${listed} (got ${raw})${hint ? `: ${hint}` : ''}`;
}

function finish(option: Option, declared: Flag<unknown>): Option {
  if (declared.conflicts?.length) option.conflicts([...declared.conflicts]);
  if (declared.hidden) option.hideHelp();
  return option;
}

/**
 * The typed options of a run: positional arguments by their keys, then
 * flags. A boolean flag is undefined unless it was given (commander would
 * report `--no-x`'s default true as if the user had said so).
 */
export function optionsOf(spec: CommandSpec, positional: unknown[], command: Command): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  Object.keys(spec.args ?? {}).forEach((key, index) => {
    const value = positional[index];
    options[key] = (spec.args ?? {})[key]?.variadic ? ((value as string[] | undefined) ?? []) : value;
  });
  const given = command.opts();
  const root = rootOf(command);
  for (const [key, declared] of Object.entries(spec.flags ?? ({} as Flags))) {
    // A command's own setting flag (export's --platform): the root parsed its values, wherever they were on the line.
    if (command !== root && isSettingFlag(key)) {
      options[key] = settingValues(root, key);
      continue;
    }
    const source = command.getOptionValueSource(key);
    const fromUser = source === 'cli' || source === 'env';
    options[key] = declared.kind === 'value' ? given[key] : fromUser ? given[key] : undefined;
  }
  return options;
}

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/** Every value given to a setting flag, in order; undefined when it was not given. */
function settingValues(root: Command, key: SettingFlag): string[] | undefined {
  const value: unknown = root.getOptionValue(key);
  if (value === undefined) return undefined;
  return Array.isArray(value) ? (value as string[]) : [String(value)];
}

/**
 * A setting flag given twice to a command that takes one is refused: the
 * last one winning would silently drop the other (`asset undeploy
 * --platform ios --platform android` undeploying android only). A command
 * that takes several declares the flag as its own, repeatable (export).
 */
export function refuseRepeatedSettings(spec: CommandSpec, command: Command): void {
  const root = rootOf(command);
  for (const key of SETTING_FLAGS) {
    const values = [...new Set(settingValues(root, key))];
    if (values.length < 2 || spec.flags?.[key]?.repeatable) continue;
    throw new UsageError(`${flagName(key)} given ${values.length} different values (${values.join(', ')}): \`${commandPath(command)}\` takes one; give it once`);
  }
}

/**
 * A setting given as a flag that the command has no use for is refused
 * before anything runs (cli.md "Output"): accepted and ignored, `--platform`
 * would leave the reader believing the answer was narrowed by it. The same
 * setting from the environment or a profile is simply not read.
 */
export function refuseUnusedSettings(spec: CommandSpec, command: Command): void {
  const root = rootOf(command);
  const used = new Set<string>(spec.uses ?? []);
  const unused = SETTING_FLAGS.filter((key) => root.getOptionValueSource(key) === 'cli' && !used.has(key)).map(flagName);
  if (unused.length === 0) return;
  const path = commandPath(command);
  const takes = (spec.uses ?? []).map(flagName);
  throw new UsageError(
    `${unused.join(', ')}: not used by \`${path}\`; remove ${unused.length > 1 ? 'them' : 'it'} (${takes.length > 0 ? `it takes ${takes.join(', ')}` : 'it takes no setting'})`,
  );
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** The global options, typed and with the same "given or undefined" rule, read off the root. */
export function globalsOf(command: Command): Record<string, unknown> {
  const root = rootOf(command);
  const spec = specOf(root);
  const globals = spec ? optionsOf(spec, [], root) : root.opts();
  // A setting is one value (the last given); a command that takes several reads them as its own flag.
  for (const key of SETTING_FLAGS) globals[key] = settingValues(root, key)?.at(-1);
  return globals;
}
