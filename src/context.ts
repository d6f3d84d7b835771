// Everything a command needs, built lazily (house style, after gh's Factory):
// nothing heavy is constructed until a command asks for it.
import type { Command } from 'commander';
import type { GlobalOptions } from './program.js';
import type { IO } from './io/streams.js';

export interface Context {
  io: IO;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C / SIGTERM; long operations listen to it and clean up. */
  signal: AbortSignal;
}

export interface ContextInputs {
  io: IO;
  signal: AbortSignal;
}

export async function createContext(command: Command, inputs: ContextInputs): Promise<Context> {
  const globals = command.optsWithGlobals() as GlobalOptions;
  return { io: inputs.io, globals, signal: inputs.signal };
}
