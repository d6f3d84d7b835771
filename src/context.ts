// Everything a command needs, built lazily (house style, after gh's Factory):
// nothing heavy is constructed until a command asks for it. Heavy modules
// (conf, undici, cli-table3, inquirer) are imported on first use, so the
// --help/--version path never loads them.
import type { GlobalOptions } from './options.js';
import type { IO } from './io/streams.js';
import type { Settings, SettingName } from './config/settings.js';
import type { ApiClient, BudgetWords, RequestFeedback } from './http/client.js';
import type { Format } from './io/output.js';
import type { Progress } from './io/progress.js';
import type { RunInfo } from './plan/context.js';
import type { Context, NeedOptions } from './io/context.js';
import type { z } from 'zod';
import { Redactor } from './http/redact.js';
import { UsageError } from './errors.js';

export type { Context, NeedOptions, RunInfo };

export interface ContextInputs {
  run?: RunInfo;
  /** The settings the command declares it uses (its spec's `uses`): those missing are reported together. */
  uses?: readonly string[];
  io: IO;
  signal: AbortSignal;
  /** The redactor of main()'s IO: the keys the context resolves are added to it. */
  redactor?: Redactor;
  /** Hears every JSON document the command prints, whatever the format (main()'s record of the run, for CI). */
  onDocument?: (doc: unknown) => void;
  /** Hears an API key read from a profile file (under GitHub Actions it is masked). */
  onProfileKey?: (key: string) => void;
  /**
   * Where the settings come from instead of flag > env > profile (the
   * library: only what its caller gave, src/library/context.ts).
   */
  settings?: () => Promise<Settings>;
  /** What a person would see of a request (spinner, retry lines) goes here instead (the library's events). */
  feedback?: RequestFeedback;
  /** How messages name the request budget (the library's timeoutMs; default the CLI's --timeout). */
  budgetWords?: BudgetWords;
  /** Transfers report their bytes here instead of a bar on stderr (the library's events). */
  progress?: (label: string, total?: number) => Progress;
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= make());
}

/**
 * A context for one command run with `globals` (the CLI's parsed global
 * flags; the library's options as if they were flags). Commander-free: the
 * library builds one without loading the CLI's parser.
 */

/**
 * Connections the API client opens to the service, at most, per transport
 * (JSON exchanges and uploads each have their own, src/http/client.ts): the
 * most requests a command sends at once (issue 21: 8 uploads of a batch, 8
 * pages of a list). Without a limit, a request sent in the turn its slot's
 * answer came in found no idle connection yet and opened one: item sync of
 * 200 files opened 15 for its 8 uploads at a time (each a TCP and TLS
 * handshake, a round trip or more, on a real network).
 */
const API_CONNECTIONS = 8;
export async function createContext(globals: GlobalOptions, inputs: ContextInputs): Promise<Context> {
  // The settings the command declares it uses (its declaration's `uses`).
  const uses = new Set<string>(inputs.uses ?? []);
  const { io, signal } = inputs;
  const format: Format = globals.json || globals.query !== undefined ? 'json' : (globals.output ?? 'table');
  const query = globals.query === undefined ? undefined : await compileQuery(globals.query);
  const redactor = inputs.redactor ?? new Redactor();

  // Every key is redacted from what ahs prints; one from a profile file is also announced.
  const learnKey = (s: Settings) => {
    const { value, source } = s.resolve('apiKey');
    redactor.add(value);
    if (value && source === 'profile') inputs.onProfileKey?.(value);
  };
  const profiles = once(async () => (await import('./config/profiles.js')).openProfileStore(io.env, { warn: async (text) => (await output()).warn(text) }));
  const settings = once(async () => {
    const resolved = inputs.settings ? await inputs.settings() : (await import('./config/settings.js')).resolveSettings(globals, io.env, await profiles());
    learnKey(resolved);
    return resolved;
  });
  const output = once(async () => {
    const { Output } = await import('./io/output.js');
    return Output.create(io, { format, quiet: globals.quiet, redactor, query, onDocument: inputs.onDocument });
  });
  const prompter = once(async () => {
    const { Prompter } = await import('./io/prompt.js');
    return new Prompter(io, signal);
  });
  const clients: ApiClient[] = [];
  const given = inputs.feedback;
  const feedback = once(async () => given ?? (await import('./io/feedback.js')).createRequestFeedback(io, { quiet: globals.quiet, notices: format !== 'json', redact: (text) => redactor.redact(text) }));
  /** Every client of the run is made here: the same trace, feedback and redaction, disposed at the end. */
  const makeClient = async (s: Settings, where: { baseUrl: string; domainId?: string; apiKey?: string; connections?: number }) => {
    const { ApiClient } = await import('./http/client.js');
    learnKey(s);
    const client = new ApiClient({
      ...where,
      timeoutMs: s.timeoutMs,
      retries: s.retries,
      signal,
      trace: globals.verbose ? io.err : undefined,
      redactor,
      env: io.env,
      feedback: await feedback(),
      ...(inputs.budgetWords ? { budgetWords: inputs.budgetWords } : {}),
    });
    clients.push(client);
    return client;
  };
  /**
   * The settings a run cannot do without (`asked`, the service's, and the
   * acting user where no prompt can ask for it) that nobody gave: one error
   * names them all.
   */
  const refuseMissing = async (s: Settings, asked: SettingName[]) => {
    const needed = new Set<SettingName>(['baseUrl', 'domainId', ...asked]);
    if (uses.has('user') && !io.canPrompt) needed.add('user');
    const missing = [...needed].filter((name) => s.get(name) === undefined);
    if (missing.length === 0) return;
    const { missingSettings } = await import('./config/settings.js');
    throw missingSettings(missing, s.profileName);
  };
  const clientFor = async (s: Settings) => {
    // Where to send comes first: a missing base URL or domain is the error to show, with the other settings missing.
    await refuseMissing(s, []);
    const baseUrl = s.require('baseUrl');
    const domainId = s.require('domainId');
    const apiKey = s.get('apiKey');
    if (!apiKey) {
      (await output()).warn('no API key: set AHS_API_KEY or add one to the profile (ahs profile add NAME --api-key-stdin); the service will refuse the request');
    }
    return makeClient(s, { baseUrl, domainId, apiKey, connections: API_CONNECTIONS });
  };
  const deliveryClient = async (base: string, connections?: number) => {
    const s = await settings();
    const trusted = new Set([s.get('baseUrl'), s.get('deliveryUrl')].filter((v): v is string => Boolean(v)).map(originOf));
    return makeClient(s, { baseUrl: base, apiKey: trusted.has(originOf(base)) ? s.get('apiKey') : undefined, connections });
  };
  const api = once(async () => {
    // A command that writes (it uses the acting user) runs change control's check before its first write:
    // its module loads while the command's first reads are in flight, not between them and the writes.
    if (uses.has('user') && !globals.dryRun) void import('./plan/change-control.js').catch(() => undefined);
    return clientFor(await settings());
  });

  const ctx: Context = {
    io,
    globals,
    signal,
    format,
    redactor,
    ...(inputs.run ? { run: inputs.run } : {}),
    profiles,
    settings,
    api,
    clientFor,
    deliveryClient,
    async dispose() {
      await Promise.all(clients.splice(0).map((client) => client.destroy().catch(() => undefined)));
    },
    output,
    prompter,
    async progress(label, total) {
      if (inputs.progress) return inputs.progress(label, total);
      const { createProgress } = await import('./io/progress.js');
      return createProgress(io, { label, total, quiet: globals.quiet });
    },
    async multiProgress(options) {
      const { createMultiProgress } = await import('./io/progress.js');
      return createMultiProgress(io, options);
    },
    async need<T>(value: T | undefined, options: NeedOptions<T>): Promise<T> {
      const check = options.schema ? await schemaCheck(options.schema, options.flag) : undefined;
      if (value !== undefined && value !== null && value !== '') {
        const verdict = typeof value === 'string' ? check?.(value) : true;
        if (typeof verdict === 'string') throw new UsageError(verdict);
        return value;
      }
      if (!io.canPrompt) throw new UsageError(`${options.flag} is required${why(io)}`);
      const p = await prompter();
      if (options.choices) {
        const choices = await options.choices();
        if (choices.length === 0) throw new UsageError(`${options.flag} is required (nothing to choose from)`);
        return p.select<T>(options.message, choices);
      }
      // Checked as typed, trimmed: a pasted id or path often carries a trailing space.
      const validate = (raw: string): true | string => {
        const answer = raw.trim();
        if (answer === '') return 'a value is required';
        const verdict = check?.(answer) ?? true;
        return verdict === true ? (options.validate?.(answer) ?? true) : verdict;
      };
      const answer = await p.input(options.message, { validate });
      return answer.trim() as T;
    },
    async setting(name, ask) {
      const s = await settings();
      const value = s.get(name);
      if (value !== undefined) return value;
      if (!io.canPrompt || !ask) {
        // The service's settings too, when the command talks to it: all of what is missing in one error.
        if (uses.has('baseUrl')) await refuseMissing(s, [name]);
        const { missingSetting } = await import('./config/settings.js');
        throw missingSetting(name, s.profileName);
      }
      // No question worth asking when the run cannot reach the service anyway.
      if (uses.has('baseUrl')) await refuseMissing(s, []);
      const { SETTINGS } = await import('./config/settings.js');
      return ctx.need<string>(undefined, { flag: SETTINGS[name].flag ?? SETTINGS[name].env, ...ask });
    },
    confirmable(action) {
      if (!globals.yes && !globals.dryRun && !io.canPrompt) throw new UsageError(`${action} needs confirmation: pass --yes${why(io)}`);
    },
    async confirm(message, action) {
      // A dry run sends nothing, so there is nothing to confirm.
      if (globals.yes || globals.dryRun) return;
      if (!io.canPrompt) throw new UsageError(`${action ?? 'this destructive command'} needs confirmation: pass --yes${why(io)}`);
      const ok = await (await prompter()).confirm(message, false);
      // cli.md: declining is exit 2 (nothing was sent), not an interruption.
      if (!ok) throw new UsageError('not confirmed; nothing was changed');
    },
  };
  return ctx;
}

/** --query EXPR: checked before anything is sent (a bad expression is exit 2), applied when printing. */
async function compileQuery(expression: string): Promise<(doc: unknown) => unknown> {
  // compile() is in the package (0.16) but not in its types.
  const { compile, search } = (await import('jmespath')).default as typeof import('jmespath') & { compile(expression: string): unknown };
  try {
    compile(expression); // the syntax only: functions are typed against the real answer
  } catch (error) {
    throw new UsageError(`--query is not a valid JMESPath expression: ${(error as Error).message} (in ${JSON.stringify(expression)})`);
  }
  return (doc) => {
    try {
      return search(doc as Parameters<typeof search>[0], expression);
    } catch (error) {
      // The command itself is done (a write was applied): only the printing failed.
      throw new UsageError(`--query ${JSON.stringify(expression)} failed on the answer: ${(error as Error).message}; the command itself completed (run it again without --query to see the answer)`);
    }
  };
}

/** The schema's verdict on a value, worded as for the flag or argument that gives it. */
async function schemaCheck(schema: z.ZodType, flag: string): Promise<(value: string) => true | string> {
  const { validate } = await import('./rules/schemas.js');
  return (value) => {
    const result = validate(schema, value, () => flag);
    return result.ok ? true : result.messages.join('; ');
  };
}

function why(io: IO): string {
  if (io.ci) return ' (CI is set: no prompts)';
  if (!io.inIsTTY || !io.outIsTTY) return ' (no terminal to prompt in)';
  return ' (--no-input: no prompts)';
}

/** The origin of a URL (the value itself when it is not one). */
function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}
