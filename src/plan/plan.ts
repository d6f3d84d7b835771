// A write is a plan, and a plan is data (house style; Terraform's
// plans.Plan). A command reads and asks what it needs, then returns a Plan:
// typed steps, each naming its kind, its parameters (plain JSON: ids, bodies,
// the file to upload with its size) and, where the command already read
// what the decision rests on, the rules' prediction. What a kind of step
// does (send, settle a lost answer, wait out a deployment, predict) is
// written once in the executor's registry (./kinds/), never as closures of a
// command. A plan can therefore be printed (--dry-run), saved and read back
// (./saved.ts), checked for staleness, and run by one executor (./execute.ts).
import type { Decision, Rejection, RejectionKind } from '../rules/index.js';

export interface PlannedRequest {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
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

export type { Settlement } from '../service/settlement.js';

/**
 * A value taken from the answer of an earlier step of the same plan (the id
 * of the version an upload made, for its deploy): in a real run the answer,
 * in a dry run the predicted record. Plain data, so a saved plan keeps it.
 */
export interface Ref<T = unknown> {
  $ref: string;
  field: string;
  /** The earlier step may have failed (a batch): then the value is undefined instead of an error. */
  optional?: boolean;
  /** Phantom: the type of the value. */
  readonly __type?: T;
}

/** A parameter that is known now or taken from an earlier step's answer. */
export type Val<T> = T | Ref<T>;

/** How a predicted rejection stops a run before anything is sent: a hint per kind of rejection, else `hint`. */
export interface Refusal {
  hint: string;
  byKind?: Partial<Record<RejectionKind, string>>;
}

/**
 * Steps of one batch run together, at most `concurrency` at once; each has
 * its own outcome. A step starts once what it waits for is done: the steps it
 * is `after`, and the steps of the batch its parameters refer to (a join: the
 * read that settles copies starts once every upload of the batch is done).
 */
export interface Batch {
  group: string;
  concurrency: number;
  /**
   * What `concurrency` bounds. 'chains' (the default): a step and the steps
   * `after` it hold one place from the first's start to the last's end, the
   * follower in its leader's slot (an upload-first replacement into a
   * collection with little room holds its place until its old item is
   * gone). 'requests': the requests in flight only; a freed slot goes to the
   * ready step with the longest line of steps waiting on it (the uploads
   * before the removals that follow them).
   */
  bounds?: 'chains' | 'requests';
}

/** The kinds of step the executor knows (./kinds/index.ts). */
export type StepKind =
  | 'asset.create'
  | 'asset.update'
  | 'asset.delete'
  | 'asset.undeploy'
  | 'version.upload'
  | 'version.delete'
  | 'version.deploy'
  | 'version.promote'
  | 'collection.create'
  | 'collection.update'
  | 'collection.delete'
  | 'collection.restore'
  | 'collection.purge'
  | 'collection.undeploy'
  | 'collection.deploy'
  | 'collection.reconcile'
  | 'item.upload'
  | 'item.remove'
  | 'item.converge'
  | 'api.request';

/** One step: plain data. `R` is the type of its answer (phantom: typing `Results.of`). */
export interface Step<R = unknown> {
  /** Unique within the plan; refs name it. */
  id: string;
  kind: StepKind;
  /** The kind's parameters, plain JSON; a parameter may be a Ref to an earlier step's answer. */
  params: Record<string, unknown>;
  /** The rules' prediction, when the command planned from what it read; else the kind predicts it when needed. */
  prediction?: Prediction;
  /** A predicted rejection refuses the run before anything is sent. */
  refuse?: Refusal;
  /** Run with the other steps of the same group, bounded; a failure is this step's outcome, not the run's end. */
  batch?: Batch;
  /** Ids of steps that must succeed first (a replaced item's removal after its upload); when one failed, this step is skipped. */
  after?: string[];
  /** Phantom: the answer's type. */
  readonly __answer?: R;
}

export interface NoOp {
  /** The state the target is already in. */
  state: unknown;
  message: string;
}

/** A failure that is one batch step's outcome. */
export interface StepFailure {
  error: import('../errors.js').AhsError;
  /** The step never ran: one it depended on failed. */
  skipped?: boolean;
}

/** The answers of a run (or, in a dry run, the predicted records), typed by the step that gave them. */
export interface Results {
  of<R>(step: Step<R>): R | undefined;
  failureOf(step: Step): StepFailure | undefined;
  /** Whether the step was sent and answered (or settled as applied). */
  has(step: Step): boolean;
}

/**
 * A write: its steps and what its outcome is. `R` is the result `done` makes
 * of the answers (an operation's typed result, src/operations/): the command
 * prints it, the library returns it.
 */
export interface Plan<R = unknown> {
  steps: Step[];
  /** Set when there is nothing to send: printed as `{changed: false, state, message}`, exit 0. */
  noop?: NoOp;
  /** Asked (or --yes) once the refusals are checked and before the first send. */
  confirm?: { message: string; action: string };
  /** Told each step once its answer is in (sent or settled; `results.of(step)`): a stage line as a multi-step plan goes. */
  onAnswer?(step: Step, results: Results): void;
  /** Told each batch step's failure as it happens. */
  onFailure?(step: Step, failure: StepFailure): void;
  /**
   * Awaited before a step on its own is sent (a rollout's check between its
   * LIVE deploy and its promotion): what it throws ends the run there, as
   * thrown; the steps answered before it are the run's outcome (and its
   * journal entry).
   */
  beforeSend?(step: Step, results: Results): Promise<void>;
  /** The outcome of a real run, made from its answers. */
  done(results: Results): R | Promise<R>;
  /**
   * A step on its own that fails stops the run. With this set, `done` still
   * gets the results so far (that step in `failureOf`, the rest not sent), so
   * a plan that reports every step (apply) reports a stopped run too; the
   * step's error is thrown after it unless `done` throws its own.
   */
  finishWhenStopped?: boolean;
  /**
   * What the journal's entry of this run names (default: the command line);
   * `rollout` is kept as given, or made from the run's results (what the run
   * came to do: a rollout's wave stopped by its check before the promotion).
   */
  journal?: { command?: string; arguments?: string[]; rollout?: Record<string, unknown> | ((results: Results) => Record<string, unknown>); record?: false; control?: import('../service/journal.js').ControlField };
  /**
   * How change control treats this plan (src/plan/change-control.ts); by
   * default from the command: `hold` for apply, rollout, release, item sync
   * and collection-deploy, `freezeExempt` for rollback, rollout abort and
   * version unblock.
   */
  control?: { skip?: boolean; freezeExempt?: boolean; hold?: boolean; ttlMs?: number; command?: string };
}

let counter = 0;

/** A step of `kind` with its parameters; `id` defaults to a fresh one. */
export function step<R = unknown>(kind: StepKind, params: Record<string, unknown>, extra: Partial<Omit<Step<R>, 'kind' | 'params'>> = {}): Step<R> {
  return { id: extra.id ?? `${kind}#${++counter}`, kind, params, ...extra };
}

/** A value of an earlier step's answer. */
export function ref<R, K extends keyof R & string>(from: Step<R>, field: K): Ref<R[K]> {
  return { $ref: from.id, field };
}

/** A value of an earlier batch step's answer, undefined when that step failed. */
export function optionalRef<R, K extends keyof R & string>(from: Step<R>, field: K): Ref<R[K] | undefined> {
  return { $ref: from.id, field, optional: true };
}

export function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && typeof (value as Ref).$ref === 'string' && typeof (value as Ref).field === 'string';
}

/** A plan of one or more steps. */
export function plan<R>(steps: Step[], done: (results: Results) => R | Promise<R>, extra: Partial<Omit<Plan<R>, 'steps' | 'done'>> = {}): Plan<R> {
  return { steps, done, ...extra };
}

/** Nothing to send: the target is already in the requested state (--idempotent). */
export function noop(state: unknown, message: string): Plan<never> {
  return { steps: [], done: () => undefined as never, noop: { state, message } };
}

/** Nothing to send: the target is already as asked (`{changed: false, state, message}` as the CLI prints it). */
export interface Unchanged {
  changed: false;
  state: unknown;
  message: string;
}

/** The plan with its outcome handed to `then` (a command printing an operation's result). */
export function thenDo<R, S>(planned: Plan<R>, then: (result: R) => S | Promise<S>): Plan<S> {
  return { ...planned, done: async (results) => then(await planned.done(results)) };
}

export type { Rejection };
