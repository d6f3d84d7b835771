// The Context a command runs with when the library calls it: no terminal
// (never a prompt; a destructive write was consented to by calling apply()),
// JSON as the format, and the settings its caller gave, nothing else unless
// asked (`profile`, `fromEnvironment`). What the command prints is kept: the
// JSON document is the call's answer, the messages of stderr go to
// `onMessage`. The commands themselves are the CLI's (src/commands/**).
import { Readable, Writable } from 'node:stream';
import { createContext, type Context } from '../context.js';
import type { GivenSettings, SettingName } from '../config/settings.js';
import type { GlobalOptions } from '../program.js';
import { Redactor } from '../http/redact.js';
import { redactedIO, type IO } from '../io/streams.js';
import { UsageError } from '../errors.js';
import type { ClientOptions } from './types.js';

/** Settings of one call (the channel of a release, the acting user), above the client's. */
export interface CallSettings {
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

const NEVER = new AbortController().signal;

export async function libraryContext(options: ClientOptions, call: CallSettings = {}): Promise<LibraryContext> {
  const documents: unknown[] = [];
  const redactor = new Redactor();
  redactor.add(options.apiKey?.trim());
  const io = redactedIO(libraryIO(options), redactor);
  const globals: GlobalOptions = {
    json: true,
    yes: true,
    input: false,
    quiet: options.onMessage ? undefined : true,
    timeout: options.timeoutMs === undefined ? undefined : options.timeoutMs / 1000,
    retries: options.retries,
    profile: options.profile,
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
    ...(call.command ? { run: { command: call.command, arguments: [] } } : {}),
    onDocument: (doc) => documents.push(doc),
    settings: async () => {
      const { resolveSettings } = await import('../config/settings.js');
      // A profile only when asked for: a library must not pick up whoever's current profile.
      const readsMore = options.fromEnvironment === true || options.profile !== undefined;
      const env = options.fromEnvironment ? io.env : {};
      const store = readsMore ? await ctx.profiles() : undefined;
      return resolveSettings(globals, env, store, given);
    },
  });
  return { ctx: withLibraryWording(ctx), documents };
}

/** Buffers for stdout (the documents are taken from the output layer) and stderr lines to onMessage. */
function libraryIO(options: ClientOptions): IO {
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  let pending = '';
  const messages = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) options.onMessage?.(line);
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
