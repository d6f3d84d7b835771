// TEMPORARY (removed when every group is declared with ./define.ts): the old
// registration style, adapted to the new runner so groups convert one by one.
import { Command, InvalidArgumentError as InvalidArgument } from 'commander';
import type { Context } from '../context.js';
import type { Leaf } from './define.js';
import type { Runner } from './tree.js';
import type { Query } from '../http/client.js';
import { errorBody, type Decision } from '../rules/index.js';
import type { PlannedRequest } from '../plan/plan.js';
import { DryRunRejection, dryRunDocument, renderDryRun, type DryRunDocument } from '../plan/dryrun.js';

export interface Invocation<O = Record<string, unknown>> {
  args: string[];
  opts: O;
  command: Command;
}
export interface LegacyModule {
  run(invocation: Invocation<any>, ctx: Context): Promise<void>;
}
export type ActionFactory = (load: () => Promise<LegacyModule>) => (...actionArgs: unknown[]) => Promise<void>;
export type RegisterGroup = (program: Command, action: ActionFactory) => void;

export function legacyActions(runner: Runner): ActionFactory {
  return (load) =>
    async (...actionArgs: unknown[]): Promise<void> => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      const args = actionArgs.slice(0, -2).flatMap((value) => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]));
      const leaf: Leaf = {
        kind: 'command',
        spec: { name: command.name(), summary: '' },
        load: async () => {
          const mod = await load();
          return { run: (_options: unknown, ctx: Context) => mod.run({ args, opts: command.optsWithGlobals(), command }, ctx) };
        },
      };
      await runner(leaf, {}, command);
    };
}

export function pagingOptions(command: Command, { all = true }: { all?: boolean } = {}): Command {
  command.option('--page <n>', 'page number', parsePositiveInt('--page')).option('--page-size <n>', 'results per page', parsePositiveInt('--page-size'));
  return all ? command.option('--all', 'read every page') : command;
}
export function parseCount(flag: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0) throw new InvalidArgument(`${flag} must be a whole number, 0 or more (got ${value})`);
    return number;
  };
}
export function parsePositiveInt(flag: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) throw new InvalidArgument(`${flag} must be a whole number, 1 or more (got ${value})`);
    return number;
  };
}

/** The old dry-run printer over the new document and renderer. */
export async function printDryRun(
  ctx: Context,
  input: { request: PlannedRequest | { method: string; path: string; query?: Query; body?: unknown }; current: unknown; decision: Decision<unknown>; unchanged?: unknown; notFound?: boolean; notes?: string[]; before?: DryRunDocument[] },
): Promise<void> {
  const doc: DryRunDocument = dryRunDocument(input.request as PlannedRequest, { current: input.current, decision: input.decision, unchanged: input.unchanged });
  if (input.before?.length) doc.before = input.before.map(({ dryRun: _, ...rest }) => rest);
  const out = await ctx.output();
  out.print(doc, (d, kit) => renderDryRun(d, kit, input.notes ?? []));
  if (!input.decision.ok) throw new DryRunRejection(errorBody(input.decision), input.notFound || input.decision.status === 404);
}

/** True when the option was given on the command line (not a commander default). */
export function given(command: Command, name: string): boolean {
  const source = command.getOptionValueSource(name);
  return source === 'cli' || source === 'env';
}

export function oldDryRunDocument(input: { request: { method: string; path: string; query?: Query; body?: unknown }; current: unknown; decision: Decision<unknown>; unchanged?: unknown }): DryRunDocument {
  return dryRunDocument(input.request as PlannedRequest, { current: input.current, decision: input.decision, unchanged: input.unchanged });
}
