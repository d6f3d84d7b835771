// IO as an object (house style, after gh's IOStreams): commands never touch
// process.stdout/stderr directly, so tests can build an IO over buffers.
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type { Redactor } from '../http/redact.js';

export interface IO {
  out: Writable;
  err: Writable;
  in: Readable;
  /** stdout is a terminal: tables, colour, relative times. */
  outIsTTY: boolean;
  /** stderr is a terminal: live progress bars, spinners. */
  errIsTTY: boolean;
  /** stdin is a terminal. */
  inIsTTY: boolean;
  /** colour on stdout (terminal, NO_COLOR unset, no --no-color). */
  color: boolean;
  /** colour on stderr. */
  errColor: boolean;
  /** prompting is allowed: stdin and stdout terminals, no CI, no --no-input. */
  canPrompt: boolean;
  /** running under CI (CI env set): periodic plain progress lines. */
  ci: boolean;
  env: NodeJS.ProcessEnv;
}

export interface IOOptions {
  noInput?: boolean;
  noColor?: boolean;
}

export function systemIO(options: IOOptions = {}, env: NodeJS.ProcessEnv = process.env): IO {
  const outIsTTY = Boolean(process.stdout.isTTY);
  const errIsTTY = Boolean(process.stderr.isTTY);
  // Not process.stdin.isTTY: the first touch of process.stdin builds its
  // stream (2 ms of a 100 ms read, issue 14), and most commands never read it.
  const inIsTTY = isatty(0);
  const ci = isCI(env);
  endQuietlyOnClosedPipe();
  const colorAllowed = !options.noColor && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  return {
    out: process.stdout,
    err: process.stderr,
    get in() {
      return process.stdin;
    },
    outIsTTY,
    errIsTTY,
    inIsTTY,
    color: colorAllowed && outIsTTY,
    errColor: colorAllowed && errIsTTY,
    canPrompt: inIsTTY && outIsTTY && !ci && !options.noInput,
    ci,
    env,
  };
}

export function isCI(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * The IO with every text written to out and err passed through the redactor:
 * the one place the API key is kept out of what ahs prints (errors in table
 * and json mode, traces, commander's own lines). Binary writes (a file on
 * stdout) pass unchanged.
 */
export function redactedIO(io: IO, redactor: Redactor): IO {
  // Not a spread: it would read `in`, and with it build process.stdin.
  const redacted = Object.create(io) as IO;
  return Object.assign(redacted, { out: redacting(io.out, redactor), err: redacting(io.err, redactor) });
}

const RAW = Symbol('raw stream');

/**
 * The stream under a redacting wrapper: for ora, which replaces the write
 * method of the streams it draws on (through a wrapper it would wrap itself).
 */
export function rawStream(stream: Writable): Writable {
  return ((stream as unknown as Record<symbol, Writable | undefined>)[RAW]) ?? stream;
}

function redacting(stream: Writable, redactor: Redactor): Writable {
  const clean = (chunk: unknown) => (typeof chunk === 'string' ? redactor.redact(chunk) : chunk);
  // A proxy, not a new stream: isTTY, columns and the stream's events stay
  // the terminal's own (progress bars and spinners read them).
  return new Proxy(stream, {
    get(target, property) {
      if (property === RAW) return target;
      if (property === 'write') return (chunk: unknown, ...rest: unknown[]) => (target.write as (...a: unknown[]) => boolean).call(target, clean(chunk), ...rest);
      if (property === 'end') return (chunk: unknown, ...rest: unknown[]) => (target.end as (...a: unknown[]) => Writable).call(target, clean(chunk), ...rest);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

let pipeGuarded = false;

/**
 * Output to a closed pipe (`ahs ... | head -1`) ends the command quietly,
 * exit 0, as git and gh do: an EPIPE on stdout exits, one on stderr is
 * dropped (there is nowhere left to say anything). Any other failed write
 * of stdout (a full disk) is one line on stderr and exit 1.
 */
function endQuietlyOnClosedPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    // A full disk or another failed write (`ahs ... > /dev/full`): one line, not a stack trace.
    process.stderr.write(`error: cannot write the output: ${error.message}\n`);
    process.exit(1);
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') process.exit(1);
  });
}
