// One declaration per command (after wrangler's createCommand): its name,
// arguments, flags with their parsers, help and examples. From it come
// commander's tree, the typed options its `run` receives, the man page and
// the completions. A flag's key is its name: `localCacheMaxAge` is
// `--local-cache-max-age`, and `options.localCacheMaxAge` in `run`, so a
// renamed flag whose use was not updated fails `tsc`.
//
// Only commander-free types and tiny builders live here: declarations are
// loaded on every start, the commands' logic only when one runs.
import type { Context } from '../context.js';
import type { Plan } from '../plan/plan.js';

/** A value parser: returns the value or throws an Error whose message names the flag and the limit. */
export type Parser<T> = (raw: string) => T;

export interface Flag<T> {
  readonly kind: 'boolean' | 'negated' | 'toggle' | 'value';
  readonly description: string;
  /** `<code>` in `--type <code>`: the flag takes a value. */
  readonly valueName?: string;
  readonly parse?: Parser<unknown>;
  readonly choices?: readonly string[];
  readonly defaultValue?: unknown;
  /** A one-letter alias, e.g. `-o`. */
  readonly short?: string;
  readonly hidden?: boolean;
  /** Keys of flags that cannot be given together with this one. */
  readonly conflicts?: readonly string[];
  /** Repeatable / several values (`--item A B`). */
  readonly variadic?: boolean;
  /** Given more than once, every value is kept in order (`--platform ios --platform android`); one value per use. */
  readonly repeatable?: boolean;
  /** The description of `--no-KEY` for a toggle. */
  readonly offDescription?: string;
  /** For a value outside `choices` that a person may well try (`--state DEFAULT` on deploy): what to do instead. */
  readonly hints?: Readonly<Record<string, string>>;
  /** The type the option has in `run` (never set: it only carries T). */
  readonly valueType?: T;
}

export interface Arg<T> {
  /** As shown in usage: ASSET_ID. */
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly variadic: boolean;
  readonly choices?: readonly string[];
  readonly valueType?: T;
}

interface FlagExtra {
  short?: string;
  hidden?: boolean;
  conflicts?: readonly string[];
  hints?: Readonly<Record<string, string>>;
}

/** Flag builders. Booleans are `undefined` unless given, so "not given" and "given" never blur. */
export const flag = {
  /** `--key`: true when given. */
  bool(description: string, extra: FlagExtra = {}): Flag<true | undefined> {
    return { kind: 'boolean', description, ...extra };
  },
  /** `--no-key`: false when given. */
  no(description: string, extra: FlagExtra = {}): Flag<false | undefined> {
    return { kind: 'negated', description, ...extra };
  },
  /** `--key` and `--no-key`: true or false when one is given. */
  toggle(description: string, offDescription: string, extra: FlagExtra = {}): Flag<boolean | undefined> {
    return { kind: 'toggle', description, offDescription, ...extra };
  },
  /** `--key <value>`, a string. */
  text(valueName: string, description: string, extra: FlagExtra = {}): Flag<string | undefined> {
    return { kind: 'value', valueName, description, parse: nonEmpty(valueName), ...extra };
  },
  /** `--key <value>`, a string, and `--no-key`: false. */
  textOrOff(valueName: string, description: string, offDescription: string, extra: FlagExtra = {}): Flag<string | false | undefined> {
    return { kind: 'value', valueName, description, offDescription, parse: nonEmpty(valueName), ...extra };
  },
  /** `--key <value>` parsed (and checked) by `parse`. */
  parsed<T>(valueName: string, description: string, parse: Parser<T>, extra: FlagExtra = {}): Flag<T | undefined> {
    return { kind: 'value', valueName, description, parse, ...extra };
  },
  /** `--key <value>` from a fixed set. */
  choice<const C extends readonly string[]>(valueName: string, choices: C, description: string, extra: FlagExtra = {}): Flag<C[number] | undefined> {
    return { kind: 'value', valueName, description, choices, ...extra };
  },
  /** `--key <value>` from a fixed set, with a default. */
  choiceOr<const C extends readonly string[]>(valueName: string, choices: C, defaultValue: C[number], description: string, extra: FlagExtra = {}): Flag<C[number]> {
    return { kind: 'value', valueName, description, choices, defaultValue, ...extra };
  },
  /**
   * `--key <value>`, repeatable: each use adds one value. For a setting flag
   * (`--platform`, `--env`) that a command takes several of: one value per
   * use, so `--platform ios release ...` never swallows the next word.
   */
  repeatable(valueName: string, description: string, extra: FlagExtra = {}): Flag<string[] | undefined> {
    return { kind: 'value', valueName, description, parse: nonEmpty(valueName), repeatable: true, ...extra };
  },
  /** `--key <value...>`: one or more values, repeatable. */
  list(valueName: string, description: string, extra: FlagExtra = {}): Flag<string[] | undefined> {
    return { kind: 'value', valueName, description, variadic: true, ...extra };
  },
};

/** Positional argument builders. An empty value ('') is a usage error: `$(…)` that printed nothing must not pass. */
export const arg = {
  optional(name: string, description: string): Arg<string | undefined> {
    return { name, description, required: false, variadic: false };
  },
  required(name: string, description: string): Arg<string> {
    return { name, description, required: true, variadic: false };
  },
  /** Zero or more values (asked for in a terminal when none is given). */
  variadic(name: string, description: string): Arg<string[]> {
    return { name, description, required: false, variadic: true };
  },
  choice<const C extends readonly string[]>(name: string, choices: C, description: string): Arg<C[number]> {
    return { name, description, required: true, variadic: false, choices };
  },
};

export type Args = Record<string, Arg<unknown>>;
export type Flags = Record<string, Flag<unknown>>;

export interface CommandSpec<A extends Args = Args, F extends Flags = Flags> {
  name: string;
  /** One line, shown in lists of commands. */
  summary: string;
  /** More paragraphs for --help and the man page. */
  description?: string;
  /** Positional arguments, in order. */
  args?: A;
  flags?: F;
  /** Command lines (with a `# comment` line before each, optional), shown under "Examples:". */
  examples?: readonly string[];
  /** Any other help text, shown after the options. */
  notes?: string;
  /**
   * The settings this command's requests use (cli.md "Output": a setting
   * given as a flag shapes the command's requests or is refused). Any other
   * setting given as a flag is a usage error naming it; from the
   * environment or a profile it is simply not used. Omitted: none.
   */
  uses?: readonly SettingFlag[];
}

/** The global flags that give a setting (cli.md "Where settings come from"), by their GlobalOptions keys. */
export const SETTING_FLAGS = ['profile', 'baseUrl', 'deliveryUrl', 'domain', 'env', 'platform', 'user'] as const;
export type SettingFlag = (typeof SETTING_FLAGS)[number];

/** Which service to ask: every command that sends a request uses these. */
export const SERVICE = ['profile', 'baseUrl', 'domain'] as const satisfies readonly SettingFlag[];

/** What `run` receives: each argument and flag by its key, typed from the declaration. */
export type Options<S> =
  S extends CommandSpec<infer A, infer F>
    ? { [K in keyof A]: A[K] extends Arg<infer T> ? T : never } & { [K in keyof F]: F[K] extends Flag<infer T> ? T : never }
    : never;

/**
 * A command's behaviour: reads and prompts, then either prints (a read) or
 * returns the Plan of its writes, which the executor prints (--dry-run) or
 * sends: no command has a dry-run branch of its own.
 */
export type Run<S> = (options: Options<S>, ctx: Context) => Promise<void | Plan>;

export interface CommandModule<S = CommandSpec> {
  run: Run<S>;
}

export function defineCommand<const A extends Args = {}, const F extends Flags = {}>(spec: CommandSpec<A, F>): CommandSpec<A, F> {
  return spec;
}

/** A command with the module that runs it (loaded only when it runs). */
export interface Leaf {
  kind: 'command';
  spec: CommandSpec;
  load: () => Promise<CommandModule<any>>;
}

/** A group of commands (`ahs asset ...`). */
export interface Group {
  kind: 'group';
  name: string;
  summary: string;
  commands: Leaf[];
  /** The command run when the word after the group names none of its commands (`ahs rollout ASSET ...` is `ahs rollout start ASSET ...`). */
  defaultCommand?: string;
}

export type Node = Leaf | Group;

export function command<S extends CommandSpec<any, any>>(spec: S, load: () => Promise<CommandModule<S>>): Leaf {
  return { kind: 'command', spec, load: load as Leaf['load'] };
}

export function group(name: string, summary: string, commands: Leaf[], extra: { defaultCommand?: string } = {}): Group {
  return { kind: 'group', name, summary, commands, ...extra };
}

/** `--local-cache-max-age` for `localCacheMaxAge`. */
export function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** The command-line name of a declared flag or argument, for messages: `--name`, `ASSET_ID`. Type-checked against the declaration. */
export function nameOf<S extends CommandSpec<any, any>>(spec: S, key: (keyof NonNullable<S['flags']> | keyof NonNullable<S['args']>) & string): string {
  const argument = (spec.args as Args | undefined)?.[key];
  return argument ? argument.name : flagName(key);
}

/** --page and --page-size, and --all where every page can be read and merged (cli.md). */
export const pagingFlags = {
  page: flag.parsed('n', 'page number', wholeNumber('--page', 1)),
  pageSize: flag.parsed('n', 'results per page', wholeNumber('--page-size', 1)),
  all: flag.bool('read every page'),
};

// --- parsers ----------------------------------------------------------------------

function nonEmpty(valueName: string): Parser<string> {
  return (raw) => {
    if (raw === '') throw new Error(`<${valueName}> must not be empty`);
    return raw;
  };
}

/** A whole number in [min, max]; `flag` names it in the message. */
export function wholeNumber(flagText: string, min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  return (raw) => {
    const value = /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `, ${min} or more` : ` from ${min} to ${max}`;
      throw new Error(`${flagText} must be a whole number${range} (got ${raw})`);
    }
    return value;
  };
}

export function positiveNumber(flagText: string): Parser<number> {
  return (raw) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) throw new Error(`${flagText} must be a positive number (got ${raw})`);
    return value;
  };
}

/** Numbers stay numbers; anything else is kept so the schema's validation can say what was given and what the limit is. */
export function numberish(raw: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
}
