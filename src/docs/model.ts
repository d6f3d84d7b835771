// A plain description of the commander tree, for the generators of shell
// completions, the man page and the README's command reference. It reads
// whatever tree buildProgram() returns, so generated files follow the tree as
// commands are added. Only commander is needed here (no heavy imports): the
// `ahs completion` command uses it at run time.
import type { Argument, Command, Option } from 'commander';
import { specOf } from '../commands/tree.js';

export interface OptionModel {
  /** As declared, e.g. `-o, --output <format>`. */
  flags: string;
  short?: string;
  long?: string;
  /** The option takes a value (`<x>` required or `[x]` optional). */
  takesValue: boolean;
  /** `format` for `--output <format>`. */
  valueName?: string;
  description: string;
  /** The description with commander's `(choices: ..., default: ...)` suffix, as --help shows it. */
  helpDescription: string;
  /** Values of a fixed set (commander `.choices()`). */
  choices?: string[];
}

export interface ArgumentModel {
  name: string;
  required: boolean;
  variadic: boolean;
  description: string;
  choices?: string[];
}

export interface CommandModel {
  name: string;
  /** Names from the root's first subcommand down: `['asset', 'create']`; `[]` for the root. */
  path: string[];
  aliases: string[];
  /** One line (commander's summary, else the first line of the description). */
  summary: string;
  description: string;
  /** Usage after the command's path, as --help shows it: `[options] <assetId>`. */
  usage: string;
  arguments: ArgumentModel[];
  /** The command's own options (not its ancestors'), help option included. */
  options: OptionModel[];
  commands: CommandModel[];
  /** commander's implicit `help [command]`. */
  implicitHelp: boolean;
  /** Example command lines of the declaration (a `#` line is a comment). */
  examples: string[];
  /** The subcommand a group runs when the next word is none of its subcommands (`ahs rollout ASSET` is `ahs rollout start ASSET`). */
  defaultCommand?: string;
}

/** Describes `command` and everything under it, in --help order. */
export function describeCommand(command: Command, parentPath: string[] = [], implicitHelp = false): CommandModel {
  const help = command.createHelp();
  const isRoot = command.parent === null && parentPath.length === 0 && !implicitHelp;
  const path = isRoot ? [] : [...parentPath, command.name()];
  const description = command.description() ?? '';
  const ownCommands = new Set(command.commands);
  return {
    name: command.name(),
    path,
    aliases: command.aliases(),
    summary: command.summary() || firstLine(description),
    description,
    usage: command.usage(),
    arguments: command.registeredArguments.map(describeArgument),
    options: help.visibleOptions(command).map((option) => describeOption(option, help.optionDescription(option))),
    commands: help
      .visibleCommands(command)
      .map((sub) => describeCommand(sub, path, !ownCommands.has(sub))),
    implicitHelp,
    examples: [...(specOf(command)?.examples ?? [])],
    ...defaultOf(command),
  };
}

/** commander keeps a group's default subcommand (`isDefault: true`) by name. */
function defaultOf(command: Command): { defaultCommand?: string } {
  const name = (command as unknown as { _defaultCommandName?: string | null })._defaultCommandName;
  return typeof name === 'string' ? { defaultCommand: name } : {};
}

function describeOption(option: Option, helpDescription: string): OptionModel {
  const valueMatch = /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(option.flags);
  return {
    flags: option.flags,
    ...(option.short ? { short: option.short } : {}),
    ...(option.long ? { long: option.long } : {}),
    takesValue: option.required || option.optional,
    ...(valueMatch?.[1] ? { valueName: valueMatch[1] } : {}),
    description: option.description ?? '',
    helpDescription: helpDescription ?? '',
    ...(option.argChoices ? { choices: [...option.argChoices] } : {}),
  };
}

function describeArgument(argument: Argument): ArgumentModel {
  return {
    name: argument.name(),
    required: argument.required,
    variadic: argument.variadic,
    description: argument.description ?? '',
    ...(argument.argChoices ? { choices: [...argument.argChoices] } : {}),
  };
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

/** Every command in the tree, root first, depth first, in --help order. */
export function allCommands(root: CommandModel): CommandModel[] {
  const list: CommandModel[] = [];
  const visit = (command: CommandModel) => {
    list.push(command);
    command.commands.forEach(visit);
  };
  visit(root);
  return list;
}

/** Options in effect at a command: its own and every ancestor's (global options are accepted anywhere). */
export function optionsInScope(root: CommandModel, path: string[]): OptionModel[] {
  const seen = new Set<string>();
  const result: OptionModel[] = [];
  let node: CommandModel | undefined = root;
  const chain: CommandModel[] = [root];
  for (const name of path) {
    node = node?.commands.find((sub) => sub.name === name);
    if (node) chain.push(node);
  }
  for (const command of chain.reverse()) {
    for (const option of command.options) {
      const key = option.flags;
      if (seen.has(key)) continue;
      seen.add(key);
      result.push(option);
    }
  }
  return result;
}

/** `-o` and `--output` for `-o, --output <format>`. */
export function optionNames(option: OptionModel): string[] {
  return [option.short, option.long].filter((name): name is string => Boolean(name));
}
