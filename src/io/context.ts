// What a command is given (src/context.ts builds it): declared here, among the
// io it wraps, so that the layers between io and context.ts (desired, pickers)
// can name it without importing upward (issue 34).
import type { IO } from './streams.js';
import type { Settings, SettingName } from '../config/settings.js';
import type { ProfileStore } from '../config/profiles.js';
import type { ApiClient } from '../http/client.js';
import type { Output, Format } from './output.js';
import type { Prompter, Choice } from './prompt.js';
import type { Progress } from './progress.js';
import type { MultiProgress, MultiProgressOptions, PlanContext } from '../plan/context.js';
import type { z } from 'zod';

export interface NeedOptions<T = string> {
  /** The flag that gives the value (named in the usage error). */
  flag: string;
  /** Prompt message. */
  message: string;
  /** Offer a list to pick from instead of free text (loaded only when prompting). */
  choices?: () => Promise<Choice<T>[]>;
  /** Checks a typed answer (trimmed) at the prompt: a message keeps the prompt open until it is fixed. */
  validate?: (value: string) => true | string;
  /**
   * The schema (src/rules/schemas.ts) the value must satisfy, checked at the
   * prompt and on a given value, with the message the flag gets (`COLLECTION_ID may contain only ...`).
   */
  schema?: z.ZodType;
}

/** A command's context: the plan layer's (globals, signal, redactor, run, settings, api...) and what only commands use. */
export interface Context extends PlanContext {
  io: IO;
  /** table or json (from -o / --json). */
  format: Format;
  /** The profile store (conf), opened on first use. */
  profiles(): Promise<ProfileStore>;
  /** An API client for other settings (profile check NAME). */
  clientFor(settings: Settings): Promise<ApiClient>;
  /**
   * A client for the delivery network at `base` (fetch, verify): the same
   * wiring as api() (trace, feedback, disposal), at most `connections` to
   * the host; the API key goes with it only to the hosts of the configured
   * service (base URL or delivery URL), never to another one.
   */
  deliveryClient(base: string, connections?: number): Promise<ApiClient>;
  /** Releases what the command used (idle keep-alive connections would hold the process open). */
  dispose(): Promise<void>;
  /** The exporter: json / table, messages on stderr. */
  output(): Promise<Output>;
  prompter(): Promise<Prompter>;
  /** A transfer progress bar on stderr (silent with --quiet). */
  progress(label: string, total?: number): Promise<Progress>;
  /** Progress of several transfers at once on stderr (src/io/progress.ts). */
  multiProgress(options: MultiProgressOptions): Promise<MultiProgress>;
  /**
   * A setting (platform, envId, user, ...) from flag/env/profile; in a
   * terminal, asked for (from `choices` when given); otherwise a UsageError
   * naming the flag.
   */
  setting(name: SettingName, ask?: Omit<NeedOptions, 'flag'>): Promise<string>;
  /** A required value: `value` when given, else prompted, else a UsageError naming the flag. */
  need<T = string>(value: T | undefined, options: NeedOptions<T>): Promise<T>;
  /**
   * Confirmation of a destructive action: --yes passes; in a terminal it
   * asks; elsewhere a UsageError (exit 2). Declining is a UsageError too (exit 2).
   */
  confirm(message: string, action?: string): Promise<void>;
  /**
   * A destructive command calls this first: outside a terminal without
   * --yes it is refused (exit 2) before any request, even the reads that
   * would word the question.
   */
  confirmable(action: string): void;
}
