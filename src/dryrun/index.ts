// The shared dry-run printer and local validation. A write command with
// --dry-run reads the state it needs, asks src/rules for a Decision and hands
// both here: we print {dryRun, request, current, predicted} (json) or a
// readable rendering (table) on stdout, send nothing, and throw a
// DryRunRejection carrying the exit code the real request would produce
// when the rules say it would be rejected.
import type { z } from 'zod';
import { AhsError, UsageError, exitCodeForAnswer, type ErrorBody, type ExitCode } from '../errors.js';
import { errorBody, type Decision, type Effect } from '../rules/index.js';
import { validate, flagFor } from '../rules/schemas.js';
import type { Context } from '../context.js';
import type { Query } from '../http/client.js';

export interface PlannedRequest {
  method: string;
  path: string;
  query?: Query;
  body?: unknown;
}

export interface DryRunDocument {
  dryRun: true;
  request: { method: string; path: string; query: Record<string, string>; body: unknown };
  current: unknown;
  predicted: { status: number; state: unknown; effects: Effect[]; error: ErrorBody | null };
  /** Writes the command would send first, in order (promote-default --make-live): each with its own prediction. */
  before?: Array<Omit<DryRunDocument, 'dryRun' | 'before'>>;
}

export class DryRunRejection extends AhsError {
  readonly exitCode: ExitCode;
  constructor(
    readonly body: ErrorBody,
    notFound = false,
  ) {
    super(`dry run: the service would answer ${body.status}: ${body.title}`);
    this.exitCode = exitCodeForAnswer(body.status ?? 400, body.title, notFound);
  }
  toBody(): ErrorBody {
    return { ...this.body, title: this.message, detail: this.message };
  }
}

export interface DryRunInput<S> {
  request: PlannedRequest;
  /** What the command read (the channel's records, the asset, ...). */
  current: unknown;
  decision: Decision<S>;
  /** The state shown as predicted when the request would be rejected (unchanged). */
  unchanged?: unknown;
  /** Rejection means "the named thing does not exist" (exit 4 on a 400). */
  notFound?: boolean;
  /** Extra lines for the table rendering. */
  notes?: string[];
  /** Writes sent before this one (their dry-run documents), shown in json as `before`. */
  before?: DryRunDocument[];
}

export function dryRunDocument<S>(input: DryRunInput<S>): DryRunDocument {
  const { request, decision } = input;
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined && value !== null) query[key] = String(value);
  const before = (input.before ?? []).map(({ request: r, current, predicted }) => ({ request: r, current, predicted }));
  return {
    dryRun: true,
    request: { method: request.method, path: request.path, query, body: request.body ?? null },
    current: input.current ?? null,
    predicted: decision.ok
      ? { status: decision.status, state: decision.next, effects: decision.effects, error: null }
      : { status: decision.status, state: input.unchanged ?? input.current ?? null, effects: [], error: errorBody(decision) },
    ...(before.length > 0 ? { before } : {}),
  };
}

/** Prints the dry-run document; throws DryRunRejection when the request would be rejected. */
export async function printDryRun<S>(ctx: Context, input: DryRunInput<S>): Promise<void> {
  const doc = dryRunDocument(input);
  const out = await ctx.output();
  out.print(doc, (d, kit) => {
    const s = kit.style;
    const q = new URLSearchParams(d.request.query).toString();
    const lines = [
      s.bold('Dry run: nothing was sent.'),
    ];
    for (const step of d.before ?? []) {
      const sq = new URLSearchParams(step.request.query).toString();
      lines.push(`first:     ${step.request.method} ${step.request.path}${sq ? `?${sq}` : ''} ${JSON.stringify(step.request.body)} → ${step.predicted.status} ${describe(step.predicted.state)}`);
    }
    lines.push(`request:   ${d.request.method} ${d.request.path}${q ? `?${q}` : ''}`);
    if (d.request.body !== null) lines.push(`body:      ${JSON.stringify(d.request.body)}`);
    lines.push(`current:   ${describe(d.current)}`);
    if (d.predicted.error) {
      lines.push(`predicted: ${s.red(`${d.predicted.status} rejected`)}: ${d.predicted.error.title}`);
    } else {
      lines.push(`predicted: ${s.green(String(d.predicted.status))} → ${describe(d.predicted.state)}`);
      for (const effect of d.predicted.effects) lines.push(`effect:    ${effect.description}`);
    }
    for (const note of input.notes ?? []) lines.push(`note:      ${note}`);
    return lines.join('\n');
  });
  if (!input.decision.ok) throw new DryRunRejection(errorBody(input.decision), input.notFound);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** How API fields are given on the command line, for validation messages. */
export type FlagNames = Record<string, string>;

export const COMMON_FLAGS: FlagNames = {
  createdBy: '--user',
  updatedBy: '--user',
  deletedBy: '--user',
  envId: '--env',
  targetPlatforms: '--platform',
  targetPlatform: '--platform',
};

/**
 * Local validation with the rules' zod schemas, before any request: a
 * UsageError (exit 2, nothing sent) whose message names the flags.
 */
/**
 * Checks only the values given on the command line (the others are asked for
 * later), so a bad flag is refused before any question is asked.
 */
export function validateGiven(schema: z.ZodObject, value: Record<string, unknown>, flags: FlagNames = {}): void {
  const given = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  validateInput(schema.partial(), given, flags);
}

export function validateInput<T extends z.ZodType>(schema: T, value: unknown, flags: FlagNames = {}): z.infer<T> {
  const names = { ...COMMON_FLAGS, ...flags };
  const result = validate(schema, value, (path) => {
    const field = path.find((part) => typeof part === 'string');
    if (typeof field !== 'string') return 'value';
    return names[field] ?? flagFor(field);
  });
  if (result.ok) return result.data;
  throw new UsageError(result.messages.join('; '));
}
