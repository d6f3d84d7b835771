// The dry-run document of cli.md ({dryRun, request, current, predicted})
// (src/io/views/dryrun.ts draws it for a person), and the PredictedRejection (a dry run's, or a real
// run refused before sending) that carries the exit
// code the real request would produce.
import { AhsError, exitCodeForStatus, ExitCode, type ErrorBody } from '../errors.js';
import { errorBody, type Effect } from '../rules/index.js';
import type { PlannedRequest, Prediction } from './plan.js';

/** The dry-run document of cli.md: the last request, with the ones before it in `before`; `predicted.error` is set when the service would refuse. */
export interface DryRunDocument {
  dryRun: true;
  request: { method: string; path: string; query: Record<string, string>; body: unknown };
  current: unknown;
  predicted: { status: number; state: unknown; effects: Effect[]; error: ErrorBody | null };
  /** Writes the command would send first, in order (promote-default --make-live): each with its own prediction. */
  before?: Array<Omit<DryRunDocument, 'dryRun' | 'before'>>;
}

/** The answer the rules predict, as an error: exits as the real answer would. */
export class PredictedRejection extends AhsError {
  readonly exitCode: ExitCode;
  constructor(
    readonly body: ErrorBody,
    /** The rules' kind says the thing named on the command line does not exist (exit 4 whatever the status). */
    notFound = false,
    /** Said before the answer: a dry run, or a real run refused before sending. */
    prefix = 'dry run: the service would answer',
    /** How to get past it, for a person. */
    hint?: string,
  ) {
    super(`${prefix} ${body.status}: ${body.title}${hint ? `; ${hint}` : ''}`);
    this.exitCode = notFound ? ExitCode.notFound : exitCodeForStatus(body.status ?? 400);
  }
  /**
   * cli.md: nothing was sent, so no answer is passed off as the service's:
   * `urn:ahs:predicted`, `status` null (how a script tells it from a real
   * answer), the error body the service would send under `predicted`.
   */
  toBody(): ErrorBody & { predicted: ErrorBody } {
    return { type: 'urn:ahs:predicted', title: this.message, status: null, detail: this.message, predicted: this.body };
  }
}

export function dryRunDocument(request: PlannedRequest, prediction: Prediction): DryRunDocument {
  const { decision } = prediction;
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined && value !== null) query[key] = String(value);
  return {
    dryRun: true,
    request: { method: request.method, path: request.path, query, body: request.body ?? null },
    current: prediction.current ?? null,
    predicted: decision.ok
      ? { status: decision.status, state: decision.next, effects: decision.effects, error: null }
      : { status: decision.status, state: prediction.unchanged ?? prediction.current ?? null, effects: [], error: errorBody(decision) },
  };
}
