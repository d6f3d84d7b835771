// The Context an operation runs with when the library calls it: no terminal
// (never a prompt; a destructive write was consented to by calling apply()),
// JSON as the format, and the settings its caller gave, nothing else unless
// asked (`profile`, `fromEnvironment`). The stage lines an operation prints
// (an upload's, a release's stages) go to `onMessage` and the events; a dry
// run's JSON document is kept as predict()'s answer.
import { setMaxListeners } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { createContext, type Context } from '../context.js';
import type { GivenSettings, SettingName } from '../config/settings.js';
import type { GlobalOptions } from '../options.js';
import { Redactor } from '../http/redact.js';
import { redactedIO, type IO } from '../io/streams.js';
import { UsageError } from '../errors.js';
import type { CallOptions, ClientEvent, ClientOptions } from './types.js';
import type { RequestFeedback } from '../http/client.js';
import type { Progress } from '../io/progress.js';
import type { MultiProgress } from '../plan/context.js';

/** Settings of one call (the channel of a release, the acting user, change control's CallOptions), above the client's. */
export interface CallSettings extends Pick<CallOptions, 'lockId' | 'breakGlass'> {
  platform?: string;
  envId?: string;
  user?: string;
  /** The library call, as a journal entry names it (`release`). */
  command?: string;
}

export interface LibraryContext {
  ctx: Context;
  /** Every JSON document the command printed, in order. */
  documents: unknown[];
}

// Every request of a call listens to its signal (src/http/client.ts): a call
// reading or sending more than 10 at once (a journal's entries, a folder of
// items) is no leak, and must not print Node's MaxListenersExceededWarning on
// the caller's stderr (main() lifts the limit for the CLI's signal alike).
const NEVER = new AbortController().signal;
setMaxListeners(0, NEVER);

export async function libraryContext(options: ClientOptions, call: CallSettings = {}): Promise<LibraryContext> {
  const documents: unknown[] = [];
  const redactor = new Redactor();
  redactor.add(options.apiKey?.trim());
  const emit = eventsOf(options);
  const io = redactedIO(libraryIO(options, emit), redactor);
  const listening = options.onMessage !== undefined || options.onEvent !== undefined || options.logger !== undefined;
  const globals: GlobalOptions = {
    json: true,
    yes: true,
    input: false,
    quiet: listening ? undefined : true,
    timeout: options.timeoutMs === undefined ? undefined : options.timeoutMs / 1000,
    retries: options.retries,
    profile: options.profile,
    ...(call.lockId !== undefined ? { lockId: call.lockId } : {}),
    ...(call.breakGlass !== undefined ? { breakGlass: true as const, reason: call.breakGlass.reason } : {}),
  };
  const given: GivenSettings = {
    baseUrl: options.baseUrl,
    domainId: options.domainId,
    apiKey: options.apiKey,
    deliveryUrl: options.deliveryUrl,
    user: call.user ?? options.user,
    platform: call.platform,
    envId: call.envId,
    journal: options.journal,
  };
  const ctx = await createContext(globals, {
    io,
    signal: options.signal ?? NEVER,
    redactor,
    ...(call.command ? { run: { command: cliCommandOf(call.command), arguments: [] } } : {}),
    onDocument: (doc) => documents.push(doc),
    feedback: feedbackOf(emit),
    budgetWords: { name: 'timeoutMs', amount: (ms) => `${ms} ms`, more: 'a larger timeoutMs', address: "the client's baseUrl, deliveryUrl for downloads" },
    progress: (label, total) => progressOf(emit, label, total),
    settings: async () => {
      const { resolveSettings } = await import('../config/settings.js');
      // A profile only when asked for: a library must not pick up whoever's current profile.
      const readsMore = options.fromEnvironment === true || options.profile !== undefined;
      const env = options.fromEnvironment ? io.env : {};
      const store = readsMore ? await ctx.profiles() : undefined;
      return resolveSettings(globals, env, store, given);
    },
  });
  return { ctx: withTransferEvents(withLibraryWording(ctx), emit), documents };
}

/** The caller's onEvent and logger as one function (a no-op when neither is given). */
export function eventsOf(options: ClientOptions): (event: ClientEvent) => void {
  const { onEvent, logger } = options;
  if (!onEvent && !logger) return () => {};
  return (event) => {
    onEvent?.(event);
    if (!logger) return;
    if (event.type === 'request') logger.debug?.(`> ${event.method} ${event.path}`);
    else if (event.type === 'answer') logger.debug?.(`< ${event.status ?? 'failed'} ${event.method} ${event.path} (${event.ms} ms)`);
    else if (event.type === 'retry' || event.type === 'warning') logger.warn?.(event.message);
    else if (event.type === 'message') logger.info?.(event.message);
  };
}

/** Requests as events: each attempt when sent, and when answered (its status, its time); each retry. */
function feedbackOf(emit: (event: ClientEvent) => void): RequestFeedback {
  const split = (label: string) => label.slice(label.indexOf(' ') + 1);
  return {
    waiting: () => () => {},
    sent(method, label) {
      emit({ type: 'request', method, path: split(label) });
    },
    answered(method, label, status, ms) {
      emit({ type: 'answer', method, path: split(label), status, ms });
    },
    retrying(notice) {
      emit({ type: 'retry', message: notice });
    },
  };
}

/** A transfer's bytes as events, where the CLI draws a bar. */
function progressOf(emit: (event: ClientEvent) => void, label: string, total?: number): Progress {
  let known = total;
  let ended = false;
  const end = (ok: boolean) => {
    if (ended) return;
    ended = true;
    emit({ type: 'transfer-end', label, ok });
  };
  return {
    update(done, newTotal) {
      if (newTotal !== undefined) known = newTotal;
      emit(known === undefined ? { type: 'bytes', label, done } : { type: 'bytes', label, done, total: known });
    },
    done: () => end(true),
    stop: () => end(false),
  };
}

/** Buffers for stdout (the documents are taken from the output layer) and stderr lines to onMessage and the events. */
function libraryIO(options: ClientOptions, emit: (event: ClientEvent) => void): IO {
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  let pending = '';
  const messages = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        options.onMessage?.(line);
        const warning = /^warning: (.*)$/s.exec(line);
        emit(warning ? { type: 'warning', message: warning[1]! } : { type: 'message', message: line });
      }
      done();
    },
  });
  return {
    out: discard,
    err: messages,
    in: Readable.from([]),
    outIsTTY: false,
    errIsTTY: false,
    inIsTTY: false,
    color: false,
    errColor: false,
    canPrompt: false,
    ci: false,
    // Proxies (HTTPS_PROXY, NO_PROXY) as for any Node program; AHS_* only with fromEnvironment (resolveSettings above).
    env: process.env,
  };
}

/** A setting nobody gave is named as the library's option, not as a CLI flag. */
function withLibraryWording(ctx: Context): Context {
  return {
    ...ctx,
    async setting(name: SettingName) {
      const value = (await ctx.settings()).get(name);
      if (value !== undefined) return value;
      throw new UsageError(`${name} is required: give it to createClient({ ${name} }) or to this call`);
    },
  };
}

/** The files of a multi-file transfer (a fetch, a batch of uploads) as events, each labelled with its file's name, where the CLI draws a block of bars. */
function withTransferEvents(ctx: Context, emit: (event: ClientEvent) => void): Context {
  return { ...ctx, multiProgress: async () => multiProgressOf(emit) };
}

function multiProgressOf(emit: (event: ClientEvent) => void): MultiProgress {
  const files = new Map<string, { label: string; done: number; total?: number }>();
  const end = (id: string, ok?: boolean) => {
    const file = files.get(id);
    if (!file) return;
    files.delete(id);
    emit({ type: 'transfer-end', label: file.label, ok: ok ?? (file.total !== undefined && file.done >= file.total) });
  };
  return {
    start(id, label, total) {
      const known = files.get(id);
      files.set(id, { label, done: known?.done ?? 0, ...(total !== undefined ? { total } : {}) });
    },
    update(id, done, total) {
      const file = files.get(id);
      if (!file) return;
      file.done = done;
      if (total !== undefined) file.total = total;
      emit(file.total === undefined ? { type: 'bytes', label: file.label, done } : { type: 'bytes', label: file.label, done, total: file.total });
    },
    finish: end,
    setTotal() {},
    log: (write) => write(),
    done() {
      for (const id of [...files.keys()]) end(id);
    },
    stop() {
      for (const id of [...files.keys()]) end(id);
    },
  };
}

/** Calls whose command is not their group's singular and verb. */
const CLI_NAMES: Readonly<Record<string, string>> = {
  'collections.deploy': 'collection-deploy',
  promoteDefault: 'promote-default',
  rollout: 'rollout start',
  rolloutStatus: 'rollout status',
  rolloutAbort: 'rollout abort',
};

/**
 * The CLI's command of a library call (`assets.create` is `asset create`,
 * `promoteDefault` is `promote-default`): the journal records a write under
 * the command that makes it, whoever made it, so history reads one name.
 */
export function cliCommandOf(call: string): string {
  const named = CLI_NAMES[call];
  if (named !== undefined) return named;
  const kebab = (word: string) => word.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  const [group, verb] = call.split('.');
  return verb === undefined ? kebab(group!) : `${group!.replace(/s$/, '')} ${kebab(verb)}`;
}
