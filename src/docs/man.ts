// The man page (roff, man(7) macros) generated from the command tree and the
// facts of cli.md. Deterministic: no dates, so a drift test can compare it.
import { EXAMPLES, ENVIRONMENT, EXIT_STATUS, FILES, PRECEDENCE, type Fact } from './facts.js';
import { allCommands, type ArgumentModel, type CommandModel, type OptionModel } from './model.js';

export interface ManOptions {
  version: string;
  /** The .TH date (YYYY-MM-DD): the version's, from RELEASE_DATES (mandoc -T lint warns of an empty one). */
  date: string;
}

/**
 * The day each version was released, the man page's date: a fixed fact of
 * the version, so the page stays the same from build to build (a drift test
 * compares it). Raising package.json's version without adding its date here
 * is an error of `npm run gen`.
 */
export const RELEASE_DATES: Record<string, string> = { '0.1.0': '2026-12-01' };

export function releaseDate(version: string): string {
  const date = RELEASE_DATES[version];
  if (!date) throw new Error(`the man page has no date for version ${version}: add '${version}': 'YYYY-MM-DD' to RELEASE_DATES in src/docs/man.ts`);
  return date;
}

/** Escapes text for roff: backslashes, and a leading . or ' that would start a request. */
export function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/^([.'])/gm, '\\&$1');
}

/** Flags and command words: hyphens as \- so they copy and search as ASCII minus. */
function literal(text: string): string {
  return roff(text).replace(/-/g, '\\-');
}

function bold(text: string): string {
  return `\\fB${literal(text)}\\fR`;
}

function italic(text: string): string {
  return `\\fI${roff(text)}\\fR`;
}

function optionTerm(option: OptionModel): string {
  const names = [option.short, option.long].filter((name): name is string => Boolean(name)).map(bold).join(', ');
  if (!option.takesValue || !option.valueName) return names;
  const value = italic(option.valueName);
  return /\[/.test(option.flags) ? `${names} [${value}]` : `${names} ${value}`;
}

function argumentTerm(argument: ArgumentModel): string {
  const name = italic(argument.name) + (argument.variadic ? '...' : '');
  return argument.required ? name : `[${name}]`;
}

// Descriptions read as in --help (lower case, no full stop).
function sentence(text: string): string {
  return text.trim();
}

function optionText(option: OptionModel): string {
  return roff(sentence(option.helpDescription || option.description));
}

function argumentText(argument: ArgumentModel): string {
  const choices = argument.choices ? ` (one of: ${argument.choices.join(', ')})` : '';
  return roff(sentence(argument.description) + choices).trim();
}

function factList(facts: Fact[], style: (term: string) => string): string[] {
  return facts.flatMap((fact) => ['.TP', style(fact.term), roff(fact.text)]);
}

function commandSynopsis(root: CommandModel, command: CommandModel): string {
  const words = [root.name, ...command.path].map(bold).join(' ');
  const args = command.arguments.map(argumentTerm).join(' ');
  const hasOptions = command.options.some((option) => option.long !== '--help');
  return [words, hasOptions ? '[\\fIoptions\\fR]' : '', args].filter(Boolean).join(' ');
}

export function generateMan(root: CommandModel, options: ManOptions): string {
  const name = root.name;
  const upper = name.toUpperCase();
  const lines: string[] = [];
  lines.push(
    `.\\" Generated from the command tree by \`npm run gen\`; do not edit.`,
    `.TH ${upper} 1 ${options.date} "${name} ${roff(options.version)}" "Asset Hosting Service"`,
    '.SH NAME',
    `${name} \\- ${roff(root.description.split('\n')[0] ?? '')}`,
    '.SH SYNOPSIS',
    `${bold(name)} [\\fIglobal options\\fR] \\fIcommand\\fR [\\fIsubcommand\\fR] [\\fIarguments\\fR] [\\fIoptions\\fR]`,
    '.SH DESCRIPTION',
    `${bold(name)} drives the Asset Hosting Service API v2 from a terminal or a CI job: it creates assets, uploads versions, deploys them to environments, promotes a version to the Default of a channel, builds and deploys collections, and fetches their files.`,
    'It is meant for release engineers, and for scripts: with',
    `${bold('--json')} every command prints the service's response body as one JSON document, errors go to stderr, and the exit status says what happened (see`,
    '.BR "EXIT STATUS" ).',
    '.PP',
    `Data goes to standard output; progress, prompts, warnings and errors go to standard error. Without a terminal (or with ${bold('--no-input')}, or with CI set) ${bold(name)} never prompts: a missing value is a usage error naming the flag. Destructive commands ask for confirmation in a terminal and need ${bold('--yes')} elsewhere.`,
    '.PP',
    `${bold('--dry-run')} sends no write: it reads what it needs, applies the service's state rules locally and prints the request it would send with the predicted outcome, then exits with the status the real request would produce.`,
    '.PP',
    roff(PRECEDENCE),
    '.PP',
    `A local emulator of the service, started by ${bold(`${name} emulator start`)}, serves the whole API for trials, demos and tests.`,
    '.SH GLOBAL OPTIONS',
    'Accepted anywhere on the command line, before or after the command.',
  );
  for (const option of root.options) lines.push('.TP', optionTerm(option), optionText(option));

  lines.push('.SH COMMANDS');
  for (const command of allCommands(root)) {
    if (command === root || command.implicitHelp) continue;
    lines.push(`.SS "${literal([name, ...command.path].join(' '))}"`);
    if (command.commands.length > 0) {
      lines.push(roff(sentence(command.description)));
      const subs = command.commands.filter((sub) => !sub.implicitHelp).map((sub) => bold(sub.name));
      if (subs.length) lines.push('.PP', `Subcommands: ${subs.join(', ')}.`);
      continue;
    }
    lines.push(commandSynopsis(root, command), '.PP', roff(sentence(command.description)));
    const args = command.arguments;
    if (args.length) {
      lines.push('.PP', 'Arguments:', '.RS 4');
      for (const argument of args) lines.push('.TP', argumentTerm(argument), argumentText(argument) || '\\&');
      lines.push('.RE');
    }
    const own = command.options.filter((option) => option.long !== '--help');
    if (own.length) {
      lines.push('.PP', 'Options:', '.RS 4');
      for (const option of own) lines.push('.TP', optionTerm(option), optionText(option) || '\\&');
      lines.push('.RE');
    }
    if (command.examples.length) {
      lines.push('.PP', 'Examples:', '.RS 4', '.nf', ...command.examples.map((line) => literal(line.startsWith('#') ? line : `$ ${line}`)), '.fi', '.RE');
    }
  }

  lines.push('.SH ENVIRONMENT', ...factList(ENVIRONMENT, (term) => `\\fB${roff(term)}\\fR`));
  lines.push('.SH EXIT STATUS', ...factList(EXIT_STATUS, (term) => `\\fB${roff(term)}\\fR`));
  lines.push('.SH FILES', ...factList(FILES, (term) => `\\fI${roff(term)}\\fR`));
  lines.push('.SH EXAMPLES');
  for (const [index, example] of EXAMPLES.entries()) {
    // No paragraph break right after a section heading (mandoc: "PP after SH").
    if (index > 0) lines.push('.PP');
    lines.push(roff(example.text), '.PP', '.RS 4', '.nf', ...example.command.split('\n').map((line) => (/^\s/.test(line) ? literal(line) : `$ ${literal(line)}`)), '.fi', '.RE');
  }
  lines.push('.SH SEE ALSO', '.BR curl (1),', '.BR jq (1)');
  return `${lines.join('\n')}\n`;
}
