// IO as an object (house style, after gh's IOStreams): commands never touch
// process.stdout/stderr directly, so tests can build an IO over buffers.
import type { Readable, Writable } from 'node:stream';

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
  const inIsTTY = Boolean(process.stdin.isTTY);
  const ci = isCI(env);
  const colorAllowed = !options.noColor && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  return {
    out: process.stdout,
    err: process.stderr,
    in: process.stdin,
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
