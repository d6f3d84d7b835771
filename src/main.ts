// The one exit site: builds the tree, runs it, and maps every error to the
// exit codes of cli.md.
import { setMaxListeners } from 'node:events';
import { CommanderError, type Command } from 'commander';
import { buildProgram, globalsHelp, versionOnlyBeforeCommands } from './program.js';
import type { GlobalOptions } from './options.js';
import { globalsOf, specOf, type Runner } from './commands/tree.js';
import { createContext, type ContextInputs } from './context.js';
import { AhsError, CancelledError, ChangesPending, ExitCode, UsageError, WaitingError, type ErrorBody } from './errors.js';
import { redactedIO, systemIO, type IO } from './io/streams.js';
import { escapeControls } from './util/escape.js';
import { Redactor } from './http/redact.js';
import { RunRecord } from './io/record.js';
import { gitHubActions } from './io/github.js';
import { appendResult } from './io/results-file.js';

export interface MainOptions {
  io?: IO;
  /** Runs the parsed command instead of its module (tests of parsing, as gh's runF). */
  runner?: Runner;
}

export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  // Every line printed passes through one redactor; the context adds the key it resolves.
  const redactor = new Redactor();
  const given = options.io ?? systemIO(ioOptionsFrom(argv));
  redactor.add(given.env.AHS_API_KEY?.trim());
  redactor.addFromArgv(argv);
  const io = redactedIO(given, redactor);
  // What the run leaves for a pipeline: filled as it runs, written at the end (finishRun).
  const record = new RunRecord(argv);
  const github = gitHubActions(io, redactor);
  const interrupt = new AbortController();
  // One signal for everything the command runs: each request in flight listens
  // to it (bounded by --concurrency), which is not the leak Node warns about.
  setMaxListeners(0, interrupt.signal);
  const stopSignals = trapSignals(interrupt);
  const program = buildProgram(
    options.runner ??
      runCommand({
        io,
        signal: interrupt.signal,
        redactor,
        onDocument: (doc) => (record.document = doc),
        ...(github ? { onProfileKey: (key: string) => github.mask(key) } : {}),
      }, argv),
    argv,
  );
  versionOnlyBeforeCommands(program, argv);
  // Subcommands copy these settings only when created, so apply them to the
  // whole tree: every commander error (unknown option, missing argument) must
  // come back here as a usage error (exit 2), never as commander's exit(1).
  // In json mode stderr carries one JSON object: commander's own text is
  // held back and reportError() prints the error as JSON instead.
  const json = wantsJson(argv);
  const route = (command: Command): void => {
    command.exitOverride().configureOutput({
      writeOut: (text) => io.out.write(text),
      writeErr: (text) => (json ? undefined : io.err.write(text.startsWith('error: ') ? `${oneLine(text.replace(INVALID_OPTION_VALUE, 'error: '))}; run with --help for usage\n` : text)),
    });
    // The command's path, known even when its own options then fail to parse.
    command.hook('preSubcommand', (_command, sub) => {
      record.path.push(sub.name());
    });
    for (const sub of command.commands) route(sub);
  };
  route(program);
  try {
    if (argv[0] === 'help' && argv[1] === 'globals') {
      io.out.write(globalsHelp(program));
      record.exitCode = ExitCode.ok;
    } else {
      // `ahs help COMMAND...` is `ahs COMMAND... --help` (cli.md), at any depth; an unknown
      // COMMAND gets the same "did you mean" as when it is run.
      const helpOf = argv[0] === 'help' && argv.length > 1 ? argv.slice(1) : undefined;
      await program.parseAsync(helpOf ? (knownCommand(program, helpOf) ? [...helpOf, '--help'] : helpOf) : argv, { from: 'user' });
      record.exitCode = interrupt.signal.aborted && !isLongRunningServer(argv) ? ExitCode.interrupted : ExitCode.ok;
    }
  } catch (error) {
    const reported = reportError(io, error, json);
    record.exitCode = reported.exitCode;
    record.error = reported.body;
  } finally {
    stopSignals();
  }
  finishRun(io, record, redactor, github);
  return record.exitCode;
}

/**
 * For a pipeline, once the outcome is known, success or failure alike:
 * GitHub Actions' outputs, step summary and ::error line, and the line of
 * AHS_OUTPUT_FILE.
 */
function finishRun(io: IO, record: RunRecord, redactor: Redactor, github: ReturnType<typeof gitHubActions>): void {
  github?.finish(record);
  appendResult(io, record, redactor);
}

/**
 * Loads the command's module, runs it with a fresh context, and executes the
 * Plan it returns (printing it with --dry-run, sending it otherwise).
 */
function runCommand(inputs: ContextInputs, argv: string[]): Runner {
  return async (leaf, options, command) => {
    const run = { command: commandPath(command), arguments: argv };
    const [module, ctx] = await Promise.all([leaf.load(), createContext(globalsOf(command) as GlobalOptions, { ...inputs, run, uses: specOf(command)?.uses })]);
    // Under GitHub Actions a key from a profile file is masked before anything
    // is printed: the settings are read first. An error there (a profile that
    // does not exist) is the command's to report, when it needs the settings.
    if (inputs.onProfileKey) await ctx.settings().catch(() => undefined);
    try {
      const plan = await module.run(options, ctx);
      if (plan) await (await import('./plan/execute.js')).executePlan(plan, ctx);
    } finally {
      await ctx.dispose();
    }
  };
}

/** `item sync`: the names from the top command down to this one. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Every word names a command under the one before it. */
function knownCommand(program: Command, words: string[]): boolean {
  let command: Command | undefined = program;
  for (const word of words) {
    if (word.startsWith('-')) break;
    command = command?.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (!command) return false;
  }
  return true;
}

/**
 * Prints an error once, in the chosen format; returns its exit code and its
 * JSON body (the one json mode prints, for the records of a CI run).
 */
export function reportError(io: IO, error: unknown, json: boolean): { exitCode: number; body?: ErrorBody } {
  if (error instanceof CommanderError) {
    // commander already printed its message (or the help/version text).
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return { exitCode: ExitCode.ok };
    // A group run without a subcommand prints its help as an error.
    if (error.code === 'commander.help' && error.exitCode === 0) return { exitCode: ExitCode.ok };
    const body = new UsageError(commanderMessage(error)).toBody();
    if (json) writeError(io, body, true);
    return { exitCode: ExitCode.usage, body };
  }
  const known = asAhsError(error);
  if (known) {
    const body = known.toBody();
    // Pending changes are the plan's outcome, already printed: an exit code, not an error.
    // A rollout that waits (exit 11) is not an error either: one line saying what for and until when.
    if (known instanceof WaitingError && !json) io.err.write(`waiting: ${escapeControls(body.title)}\n`);
    else if (!(known instanceof ChangesPending)) writeError(io, body, json);
    return { exitCode: known.exitCode, body };
  }
  const message = error instanceof Error ? error.message : String(error);
  const body: ErrorBody = { type: 'urn:ahs:internal', title: `unexpected error: ${message}`, status: null, detail: `unexpected error: ${message}` };
  writeError(io, body, json);
  if (io.env.AHS_DEBUG && error instanceof Error) io.err.write(`${error.stack}\n`);
  return { exitCode: ExitCode.rejected, body };
}

// "option '--page <n>' argument '0' is invalid. --page must be ..." -> our own message, which names the flag and the value.
const INVALID_OPTION_VALUE = /^error: option '.*?' argument '.*?' is invalid\. /;

function commanderMessage(error: CommanderError): string {
  if (error.code === 'commander.help') return 'a subcommand is required (see --help)';
  return oneLine(error.message.replace(INVALID_OPTION_VALUE, 'error: ').replace(/^error: /, ''));
}

/** commander's error on one line: its "(Did you mean x?)" goes on a line of its own. */
function oneLine(text: string): string {
  return (
    text
      .trimEnd()
      .replace(/\n\(Did you mean (.+?)\?\)/g, ' (did you mean $1?)')
      .replace(/\s*\n\s*/g, ' ')
      // commander ends some of its messages with a full stop ("Allowed choices are bash, zsh, fish."): the hint follows.
      .replace(/\.$/, '')
  );
}

function writeError(io: IO, body: ErrorBody, json: boolean): void {
  if (json) io.err.write(`${JSON.stringify(body)}\n`);
  // The status once: not after a title that already says "answered 404".
  else io.err.write(`error: ${escapeControls(body.title)}${body.status && !body.title.includes(`answered ${body.status}`) ? ` (HTTP ${body.status})` : ''}\n`);
}

function asAhsError(error: unknown): AhsError | undefined {
  if (error instanceof AhsError) return error;
  // @inquirer/prompts throws ExitPromptError on Ctrl-C at a prompt.
  if (error instanceof Error && error.name === 'ExitPromptError') return new CancelledError('cancelled at a prompt');
  if (error instanceof Error && error.name === 'AbortError') return new CancelledError();
  return undefined;
}

// Ctrl-C aborts the running operation, which cleans up and ends with 130;
// a second Ctrl-C exits at once.
function trapSignals(interrupt: AbortController): () => void {
  const onSignal = () => {
    if (interrupt.signal.aborted) process.exit(ExitCode.interrupted);
    interrupt.abort(new CancelledError());
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

// The emulator's clean stop on a signal is a success (emulator.md).
function isLongRunningServer(argv: string[]): boolean {
  return argv.includes('emulator');
}

// Flags needed before commander has parsed anything (to build the IO).
function ioOptionsFrom(argv: string[]) {
  return { noInput: argv.includes('--no-input'), noColor: argv.includes('--no-color') };
}

function wantsJson(argv: string[]): boolean {
  if (argv.includes('--json') || argv.some((arg) => arg === '--query' || arg.startsWith('--query='))) return true;
  const index = argv.findIndex((arg) => arg === '-o' || arg === '--output');
  // -o yaml is the same document: its errors are the same one JSON object (JSON is YAML too).
  if (index >= 0) return argv[index + 1] === 'json' || argv[index + 1] === 'yaml';
  return argv.some((arg) => arg === '--output=json' || arg === '-ojson' || arg === '--output=yaml' || arg === '-oyaml');
}
