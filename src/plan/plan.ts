// A write is a plan, not a branch (house style). A write command reads and
// asks what it needs, then returns a Plan: the requests it will send, in
// order, each able to predict the service's answer with src/rules. One
// executor (./execute.ts) either prints the plan (--dry-run) or sends it,
// step by step, stopping at the first rejection. Multi-step writes
// (promote-default --make-live, release, rollback, item sync) are longer
// plans, never a second code path.
import type { ApiClient, Query } from '../http/client.js';
import type { Decision, Rejection } from '../rules/index.js';

export interface PlannedRequest {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  /** The JSON body, or for an upload the form fields with the file described. */
  body?: unknown;
}

export interface Prediction {
  /** What the command read (the channel's records, the asset, ...), shown as "current". */
  current: unknown;
  decision: Decision<unknown>;
  /** The state shown as predicted when the request would be rejected (default: current). */
  unchanged?: unknown;
  /** Extra lines for a person (what the rules cannot know). */
  notes?: string[];
}

/** Whether a write whose answer was lost took effect, found by a read. */
export type Settlement<R> = { applied: true; result: R; how: string } | { applied: false; how: string } | { applied: 'unknown'; check: string };

export interface Step<R = unknown> {
  /** What is sent (and shown by --dry-run). */
  request: PlannedRequest;
  /** Reads what the rules need and predicts the answer. Called only for --dry-run. */
  predict(): Promise<Prediction>;
  /** Sends the request; by default the JSON request as planned. */
  send?(api: ApiClient): Promise<R>;
  /** Told the step's answer once it is in (sent, or settled as applied): a stage line as a multi-step plan goes. */
  onAnswer?(answer: R): void;
  /** After a lost answer (or a 500 where retryOn500): was it applied? */
  settle?(api: ApiClient): Promise<Settlement<R>>;
  /** The channel may be mid-deployment: a 500 is settled with a read and retried while the requested state does not hold. */
  retryOn500?: boolean;
  /**
   * The rules already say the service will refuse this request (what the
   * command read settles it): a real run refuses before sending anything,
   * with the exit code of that answer and how to get past it.
   */
  refusal?: { rejection: Rejection; hint: string };
  /** The collection the command line named: a 400 is checked with GET /vc/{id} and, when it is missing, is exit 4 (cli.md). */
  collectionId?: string;
}

/** A step that depends on the answers (or predicted states) of the steps before it; undefined: nothing to send. */
export type LaterStep = (previous: unknown[]) => Promise<Step | undefined> | Step | undefined;

export interface NoOp {
  /** The state the target is already in. */
  state: unknown;
  message: string;
}

export interface Plan {
  steps: Array<Step | LaterStep>;
  /** Set when there is nothing to send: printed as `{changed: false, state, message}`, exit 0. */
  noop?: NoOp;
  /** Prints the outcome of a real run from each sent step's answer. */
  done(results: unknown[]): void | Promise<void>;
}

/** A plan of one or more steps. */
export function plan(steps: Array<Step | LaterStep>, done: Plan['done']): Plan {
  return { steps, done };
}

/** Nothing to send: the target is already in the requested state (--idempotent). */
export function noop(state: unknown, message: string): Plan {
  return { steps: [], done: () => undefined, noop: { state, message } };
}
