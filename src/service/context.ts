// What the service layer needs of a command's context (issue 34: it never
// imports src/context.ts or src/io): src/context.ts implements it, with
// src/io/output.ts printing and src/io/progress.ts drawing progress. The plan
// layer's context (src/plan/context.ts) adds what only a plan prints: a dry run.
import type { GlobalOptions } from '../options.js';
import type { Settings } from '../config/settings.js';
import type { ApiClient } from '../http/client.js';
import type { Redactor } from '../http/redact.js';

export interface RunInfo {
  /** `release`, `item sync`, ... */
  command: string;
  /** The command line's words after `ahs` (the key never among them: redacted when recorded). */
  arguments: string[];
}

/** What the service layer prints with (src/io/output.ts's Output). */
export interface ServiceOutput {
  /** --json / -o json. */
  readonly json: boolean;
  /** A result: `doc` as JSON in json mode, or what `render` draws in table mode. */
  print<T>(doc: T, render?: (doc: T) => string | undefined): void;
  /** Informational message on stderr (not with --quiet). */
  info(text: string): void;
  /** A success line on stderr in table mode. */
  success(text: string): void;
  /** Warnings always show. */
  warn(text: string): void;
}

export interface Progress {
  /** Bytes done so far (and the total, when it is known or changed). */
  update(done: number, total?: number): void;
  /** Ends the bar with a final line (nothing with --quiet). */
  done(message?: string): void;
  /** Clears a live bar without a final line (on failure). */
  stop(): void;
}

/**
 * Progress of a multi-file transfer: one entry per file plus the total.
 *
 * - terminal (stderr a TTY, not CI): a live block redrawn in place with ANSI
 *   cursor movement: one line per file in flight (name, bar, percent) and a
 *   total line (percent, bytes, rate, files done). Lines printed through
 *   `log` appear above the block (one per finished file), and the block is
 *   cleared at the end, so only those lines remain.
 * - CI or no terminal: a plain line every few seconds naming the files in
 *   flight and the total.
 * - --quiet: nothing (`log` still runs its writer: warnings always show).
 */
export interface MultiProgress {
  /** A file starts (or its size becomes known). */
  start(id: string, label: string, total?: number): void;
  /** Bytes of that file done so far. */
  update(id: string, done: number, total?: number): void;
  /** The file is over (done or failed; `ok` says which when the caller knows): its line leaves the live block; it counts as complete in the total. */
  finish(id: string, ok?: boolean): void;
  /** Changes the total size (e.g. a file skipped after all); undefined: the sum of the files' sizes. */
  setTotal(total: number | undefined): void;
  /** Prints above the live block: clears it, runs `write` (which writes whole lines to stderr), redraws. */
  log(write: () => void): void;
  /** Clears the live block and prints a final line with the amount, time and rate. */
  done(message: string): void;
  /** Clears the live block, no final line (failure, Ctrl-C). */
  stop(): void;
}

export interface MultiProgressOptions {
  /** Names the total line, e.g. `downloading 20 files`. */
  label: string;
  /** Total bytes, when known up front. */
  total?: number;
  /** Number of files, for the `n/m done` count. */
  files?: number;
  quiet?: boolean;
  /** Force the live block on or off (default: stderr is a terminal and not CI). */
  live?: boolean;
  /** Plain-line interval (default 5 s). */
  intervalMs?: number;
  now?: () => number;
  /** Redraw from a timer as well as on updates (default true; tests turn it off). */
  timer?: boolean;
  /** Most file lines in the live block (default 8, and never more than the terminal's rows allow). */
  maxLines?: number;
}

/** The streams and environment of the run (src/io/streams.ts's IO). */
export interface ServiceIO {
  err: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

/** A command's context as the service layer uses it (src/context.ts's Context). */
export interface ServiceContext {
  io: ServiceIO;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  redactor: Redactor;
  run?: RunInfo;
  settings(): Promise<Settings>;
  api(): Promise<ApiClient>;
  deliveryClient(base: string, connections?: number): Promise<ApiClient>;
  output(): Promise<ServiceOutput>;
  /** A transfer progress bar on stderr (silent with --quiet). */
  progress(label: string, total?: number): Promise<Progress>;
  /** Progress of several transfers at once on stderr. */
  multiProgress(options: MultiProgressOptions): Promise<MultiProgress>;
  confirm(message: string, action?: string): Promise<void>;
}
