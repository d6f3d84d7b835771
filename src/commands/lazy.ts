// Commands are declared eagerly (flags only: commander is cheap) and their
// logic is loaded only when they run, so `ahs --help` never pays for undici,
// zod, conf, ora or inquirer.
import type { Command } from 'commander';
import type { Context } from '../context.js';

/** What a command's module receives: its positional arguments, its options merged with the globals, and the command itself. */
export interface Invocation<O = Record<string, unknown>> {
  args: string[];
  opts: O;
  command: Command;
}

export interface CommandModule {
  run(invocation: Invocation<any>, ctx: Context): Promise<void>;
}

/** Turns "how to load a command's module" into a commander action handler. */
export type ActionFactory = (load: () => Promise<CommandModule>) => (...actionArgs: unknown[]) => Promise<void>;

/** Each command group exports one of these; src/commands/index.ts lists them. */
export type RegisterGroup = (program: Command, action: ActionFactory) => void;

export function makeActionFactory(createContext: (command: Command) => Promise<Context>): ActionFactory {
  return (load) =>
    async (...actionArgs: unknown[]): Promise<void> => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      const [mod, ctx] = await Promise.all([load(), createContext(command)]);
      try {
        await mod.run({ args: positionalArgs(actionArgs), opts: command.optsWithGlobals(), command }, ctx);
      } finally {
        await ctx.dispose();
      }
    };
}

// commander passes (...arguments, options, command); variadic arguments come as arrays.
function positionalArgs(actionArgs: unknown[]): string[] {
  return actionArgs
    .slice(0, -2)
    .flatMap((value) => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]));
}
