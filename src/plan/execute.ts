// The one executor of Plans (./plan.ts). With --dry-run it predicts each
// step, prints the cli.md document and exits with the code the real request
// would produce. Otherwise it refuses what the rules already reject, asks
// the plan's confirmation, then sends the steps in order (a batch's steps
// together, bounded, each with its own outcome) and hands the typed answers
// to the plan's `done`. Every policy lives here, once for every kind of
// step: refusals, confirmation, batches, progress of uploads, settling a
// lost answer with a read, waiting out a deployment (a 500) within the
// retry budget, and confirming a missing collection behind a 400.
import { AhsError, ApiError, CancelledError, ExitCode, NetworkError, OutcomeUnknownError, PartialFailureError } from '../errors.js';
import { errorBody, type Rejection } from '../rules/index.js';
import type { ApiClient } from '../http/client.js';
import { AnswerLostError, GatewayAnswerError } from '../http/errors.js';
import type { MultiProgress, PlanContext, PlanOutput } from './context.js';
import { readCollection } from '../service/collections.js';
import { journaled } from './journal-record.js';
import { PredictedRejection, dryRunDocument, type DryRunDocument } from './dryrun.js';
import { isRef, type Plan, type Prediction, type Results, type Settlement, type Step, type StepFailure } from './plan.js';
import type { RetryPolicy } from '../http/retry.js';
import { runBatch } from './batch.js';
import { KINDS, type Kind, type KindIO } from './kinds/index.js';
import { stepBudget } from './retry.js';

/** What the executor needs of a command's context (tests give a fake one). */
export type ExecutorContext = Pick<PlanContext, 'api' | 'output' | 'signal' | 'globals' | 'confirm' | 'progress' | 'multiProgress' | 'io'> &
  Partial<Pick<PlanContext, 'settings' | 'deliveryClient' | 'run' | 'redactor'>>;

/**
 * Runs `plan`: prints its prediction with --dry-run, or refuses, confirms,
 * sends and settles it, and records it in the journal. Answers the result
 * of the plan's `done`; undefined when it printed a no-op or a prediction.
 */
export async function executePlan<R>(plan: Plan<R>, ctx: ExecutorContext): Promise<R | undefined> {
  // Change control, once for every write (src/plan/change-control.ts): a lock, a freeze, a blocked version stop it here.
  // Loaded when a plan runs, not at start-up (the check's schemas are not on the --help path).
  const { gate } = await import('./change-control.js');
  const gated = await gate(plan, ctx);
  try {
    return await executeGated(gated.plan, gated.ctx, gated.before);
  } finally {
    await gated.end();
  }
}

async function executeGated<R>(plan: Plan<R>, ctx: ExecutorContext, before?: (steps: Step[]) => Promise<void>): Promise<R | undefined> {
  const out = await ctx.output();
  if (plan.noop) {
    const { state, message } = plan.noop;
    out.print({ changed: false, state, message }, () => {
      out.success(message);
      return undefined;
    });
    return undefined;
  }
  if (ctx.globals.dryRun) return printPredictions(plan, ctx);
  const api = await ctx.api();
  const run = new Run(plan, ctx, api, out, before);
  await run.refuseUpfront();
  if (plan.confirm && plan.steps.length > 0) await ctx.confirm(plan.confirm.message, plan.confirm.action);
  // The journal's one entry, once the run's outcome is known (src/plan/journal-record.ts).
  let result: R | undefined;
  await journaled(ctx, plan, () => run.results(), async () => {
    try {
      await run.sendAll();
    } catch (error) {
      if (!(plan.finishWhenStopped && error instanceof StoppedError)) throw error instanceof StoppedError ? error.cause : error;
      await plan.done(run.results());
      throw error.cause;
    }
    result = await plan.done(run.results());
  });
  return result;
}

/** A step on its own failed and the run stopped there (its error is the cause). */
class StoppedError extends Error {
  constructor(override readonly cause: unknown) {
    super('stopped');
  }
}

/** A step's parameters with each Ref replaced by the value it names in `answers`. */
export function resolveParams(params: Record<string, unknown>, answers: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const resolve = (value: unknown): unknown => {
    if (isRef(value)) {
      if (!answers.has(value.$ref)) {
        if (value.optional) return undefined;
        throw new Error(`a step refers to ${value.$ref}, which has no answer`);
      }
      return (answers.get(value.$ref) as Record<string, unknown> | undefined)?.[value.field];
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)]));
    return value;
  };
  return resolve(params) as Record<string, unknown>;
}

function hasRefs(value: unknown): boolean {
  if (isRef(value)) return true;
  if (Array.isArray(value)) return value.some(hasRefs);
  if (value && typeof value === 'object') return Object.values(value).some(hasRefs);
  return false;
}

function kindOf(step: Step): Kind {
  const kind = KINDS[step.kind];
  if (!kind) throw new Error(`unknown kind of step: ${step.kind}`);
  return kind;
}

function resultsOf(answers: ReadonlyMap<string, unknown>, failures: ReadonlyMap<string, StepFailure>): Results {
  return {
    of: <R>(step: Step<R>) => answers.get(step.id) as R | undefined,
    failureOf: (step) => failures.get(step.id),
    has: (step) => answers.has(step.id),
  };
}

/** One real run of a plan. */
class Run {
  private readonly answers = new Map<string, unknown>();
  private readonly failures = new Map<string, StepFailure>();
  /** The steps an interrupt cut while their request may have left: settled by one short read. */
  private readonly cut: Array<{ step: Step; kind: Kind; params: Record<string, unknown>; sentAt: number }> = [];
  private sent = 0;

  constructor(
    private readonly plan: Plan,
    private readonly ctx: ExecutorContext,
    private readonly api: ApiClient,
    private readonly out: PlanOutput,
    /** Change control's wait before a step or batch is sent (the run's lock, taken beside the steps that write no scope). */
    private readonly before?: (steps: Step[]) => Promise<void>,
  ) {}

  results(): Results {
    return resultsOf(this.answers, this.failures);
  }

  /** Steps that refuse on a predicted rejection and need no earlier answer: checked before anything is sent or asked. */
  async refuseUpfront(): Promise<void> {
    for (const step of this.plan.steps) {
      if (step.refuse && !hasRefs(step.params)) await this.refuseIfRejected(step, step.params);
    }
  }

  private async refuseIfRejected(step: Step, params: Record<string, unknown>): Promise<void> {
    const prediction = step.prediction ?? (await kindOf(step).predict(params, this.api));
    step.prediction = prediction;
    const { decision } = prediction;
    if (decision.ok || !step.refuse) return;
    throw refused(decision, step.refuse.byKind?.[decision.kind] ?? step.refuse.hint, this.sent > 0);
  }

  async sendAll(): Promise<void> {
    const steps = this.plan.steps;
    try {
      for (let index = 0; index < steps.length; ) {
        const group = steps[index]!.batch?.group;
        let end = index + 1;
        while (group !== undefined && end < steps.length && steps[end]!.batch?.group === group) end++;
        await this.before?.(steps.slice(index, end));
        if (group === undefined) {
          await this.plan.beforeSend?.(steps[index]!, this.results());
          await this.sendOne(steps[index]!);
        }
        else await this.sendBatch(steps.slice(index, end));
        if (this.ctx.signal.aborted) throw new CancelledError();
        index = end;
      }
    } catch (error) {
      if (this.ctx.signal.aborted) throw await this.interrupted();
      throw error;
    }
  }

  /**
   * The run ended by an interrupt: what was sent, said. A step it cut while
   * its request may have left is settled by one short read (the person asked
   * to stop: not waited out within --timeout): applied when the read shows
   * it, else it may have been. An abort whose reason is another of ahs's
   * errors (a lock lost) is that error.
   */
  private async interrupted(): Promise<AhsError> {
    const reason: unknown = this.ctx.signal.reason;
    if (reason instanceof AhsError && !(reason instanceof CancelledError)) return reason;
    const unknown = await this.settleCut();
    const steps = this.plan.steps;
    const done = steps.filter((step) => this.answers.has(step.id));
    const untouched = steps.length - done.length - unknown.length - this.failures.size;
    const said = done.length > 3 ? [`${done.length} of ${steps.length} writes were done`] : done.map((step) => appliedPhrase(kindOf(step), resolveParams(step.params, this.answers), this.answers.get(step.id)));
    for (const { step, kind, params } of unknown) {
      const what = steps.length === 1 ? 'the write' : kind.describe(params);
      const text = `${what} may have been applied: check with \`${kind.check(params)}\``;
      said.push(text);
      // The step's outcome is unknown: the journal's entry names it (src/plan/journal-record.ts's changesOf).
      this.failures.set(step.id, { error: new OutcomeUnknownError(`interrupted: ${text}`) });
    }
    if (said.length === 0) said.push('nothing was sent');
    else if (untouched > 0) said.push('the rest was not sent');
    const outcome = unknown.length > 0 ? 'unknown' : done.length > 0 ? 'applied' : 'not-applied';
    return new CancelledError(`interrupted: ${said.join('; ')}`, { cause: reason, outcome });
  }

  /** One short read for each step the interrupt cut (all within INTERRUPT_READ_MS); those it shows applied are recorded, the others returned. */
  private async settleCut(): Promise<Run['cut']> {
    if (this.cut.length === 0) return [];
    const reader = this.api.detached(INTERRUPT_READ_MS);
    try {
      const shown = await Promise.all(
        this.cut.map(async ({ step, kind, params, sentAt }) => {
          const io: KindIO = { api: reader, out: this.out, signal: AbortSignal.timeout(INTERRUPT_READ_MS), retry: stepBudget(reader.policy), sentAt, progress: () => undefined };
          const settled = kind.settle ? await kind.settle(params, io).catch(() => undefined) : undefined;
          if (settled?.applied === true) this.record(step, settled.result);
          return settled?.applied === true;
        }),
      );
      return this.cut.filter((_, index) => !shown[index]);
    } finally {
      await reader.destroy();
    }
  }

  /** A step on its own: a failure ends the run. */
  private async sendOne(step: Step): Promise<void> {
    const kind = kindOf(step);
    const params = resolveParams(step.params, this.answers);
    if (step.refuse && hasRefs(step.params)) await this.refuseIfRejected(step, params);
    const file = kind.file?.(params);
    const progress = file ? await this.ctx.progress(`Uploading ${file.label ?? file.name}`) : undefined;
    try {
      const answer = await this.send(step, kind, params, (sent, total) => progress?.update(sent, total));
      progress?.done(kind.uploaded?.(params, answer));
      this.record(step, answer);
    } catch (error) {
      progress?.stop();
      // Ctrl-C: the run's interrupt says what became of this step (interrupted()).
      if (this.ctx.signal.aborted) throw error;
      this.failures.set(step.id, { error: asAhsError(error) });
      throw new StoppedError(error);
    }
  }

  /** A batch (./batch.ts): each step with its own outcome; only an interrupt stops it. */
  private async sendBatch(steps: Step[]): Promise<void> {
    // The files' sizes are known before any answer (a ref of the batch is not read here).
    const files = steps.flatMap((step) => {
      const kind = kindOf(step);
      return kind.file ? [{ step, file: kind.file(resolveParams(step.params, this.answers)) }] : [];
    });
    const progress = await this.ctx.multiProgress({
      label: files.length === 1 ? `uploading ${files[0]!.file!.name}` : `uploading ${files.length} files`,
      total: files.reduce((sum, entry) => sum + entry.file!.size, 0),
      files: files.length,
      quiet: this.ctx.globals.quiet || files.length === 0,
      // --verbose traces requests on stderr between redraws: plain lines then.
      live: this.ctx.globals.verbose ? false : undefined,
    });
    try {
      await runBatch(steps, this.ctx.signal, {
        send: (step) => this.sendInBatch(step, progress),
        skip: (step, blocker) => this.fail(step, { error: new PartialFailureError(`not sent: ${blocker} did not succeed`), skipped: true }, progress),
        succeededBefore: (id) => this.answers.has(id),
      });
    } finally {
      progress.stop();
    }
  }

  /** One step of a batch; false when it failed. */
  private async sendInBatch(step: Step, progress: MultiProgress): Promise<boolean> {
    const kind = kindOf(step);
    const params = resolveParams(step.params, this.answers);
    const file = kind.file?.(params);
    if (file) progress.start(step.id, file.label ?? file.name, file.size);
    try {
      const answer = await this.send(step, kind, params, (sent) => progress.update(step.id, sent));
      progress.log(() => this.record(step, answer));
      return true;
    } catch (error) {
      if (this.ctx.signal.aborted) return false;
      this.fail(step, { error: asAhsError(error) }, progress);
      return false;
    } finally {
      if (file) progress.finish(step.id);
    }
  }

  private record(step: Step, answer: unknown): void {
    this.answers.set(step.id, answer);
    this.sent++;
    this.plan.onAnswer?.(step, this.results());
  }

  private fail(step: Step, failure: StepFailure, progress: MultiProgress): void {
    this.failures.set(step.id, failure);
    progress.log(() => this.plan.onFailure?.(step, failure));
  }

  /** Sends one step; a step an interrupt cuts once begun is noted, to be settled (interrupted()). */
  private async send(step: Step, kind: Kind, params: Record<string, unknown>, progress: (sent: number, total: number) => void): Promise<unknown> {
    if (this.ctx.signal.aborted) throw new CancelledError();
    const io: KindIO = { api: this.api, out: this.out, signal: this.ctx.signal, retry: stepBudget(this.api.policy), sentAt: Date.now(), progress };
    try {
      return await this.sendSettling(kind, params, io);
    } catch (error) {
      if (this.ctx.signal.aborted) this.cut.push({ step, kind, params, sentAt: io.sentAt });
      throw error;
    }
  }

  /** Sends one step; settles a lost answer and a deployment's 500 with reads. */
  private async sendSettling(kind: Kind, params: Record<string, unknown>, io: KindIO): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await (kind.send ? kind.send(params, io) : this.api.json({ ...kind.request(params, this.api) }));
      } catch (error) {
        const collectionId = kind.collection?.(params);
        if (error instanceof ApiError && error.status === 400 && collectionId && !error.notFound) {
          throw (await collectionIsMissing(this.api, collectionId)) ? error.asNotFound() : error;
        }
        const midDeployment = error instanceof ApiError && error.status === 500 && kind.waitsOutDeployment === true;
        const lost = error instanceof NetworkError && error.mayHaveApplied;
        if (!(midDeployment || lost)) throw error;
        // Lost: the service may still be applying it, whatever the kind; a read proves "applied" or nothing.
        const settled = !kind.settle ? noRead(kind, params) : lost ? await settleWhenSeen(kind, params, io, error as Error, this.api.policy) : await settleOrUnknown(kind, params, io, error as Error);
        if (settled.applied === true) {
          this.out.info(`${lost ? 'the answer was lost' : 'the service answered 500'}, but a read confirms the write was applied (${settled.how})`);
          return settled.result;
        }
        if (settled.applied === 'unknown') throw new OutcomeUnknownError(`${lostAnswer(error as Error)}${settled.why ? `; ${settled.why}` : ', and no read tells'}: the write may have been applied: check with \`${settled.check}\` before running it again`);
        // Still mid-deployment when the budget is spent: other deployments hold the
        // channel, a conflict (exit 5) like a 409 still standing, not a failure.
        this.out.info(`the service answered 500 (the channel may be mid-deployment) and ${settled.how}; retrying`);
        if (!(await io.retry.next(attempt, 'busy', (error as ApiError).retryAfter))) {
          // Ctrl-C during the wait is an interrupt (exit 130), not a channel still busy.
          if (this.ctx.signal.aborted) throw new CancelledError();
          throw (error as ApiError).asConflict();
        }
      }
    }
  }
}

/** How long the one read that settles a write cut by an interrupt may take, in all: the person asked to stop. */
export const INTERRUPT_READ_MS = 2000;

/** What a step did, in the user's terms ("version IOS4 was created"). */
function appliedPhrase(kind: Kind, params: Record<string, unknown>, answer: unknown): string {
  return kind.applied?.(params, answer) ?? `done: ${kind.describe(params)}`;
}

/**
 * A lost answer to a write, of any kind: the service may still be applying
 * it when the answer is lost (a deployment in progress, an upload being
 * committed, a request still queued behind others): a read that shows the
 * change proves it applied; one that does not proves nothing, since the
 * request may still be running. The read is taken again
 * with backoff within --timeout (from now), then the outcome is unknown
 * (never "not applied", never "safe to retry").
 */
export async function settleWhenSeen(kind: Kind, params: Record<string, unknown>, io: KindIO, cause: Error, policy: RetryPolicy): Promise<Settlement<unknown>> {
  const waitOut = policy.untilDeadline();
  for (let made = 1; ; made++) {
    const settled = await settleOrUnknown(kind, params, io, cause);
    if (settled.applied !== false) return settled;
    // An upload whose body was not all sent: the service never had the whole of it, so no later read can
    // show it where this one did not; waiting out --timeout would change nothing (issue 45).
    const unsent = cause instanceof AnswerLostError ? cause.bodyUnsent : undefined;
    if (unsent) {
      return { applied: 'unknown', check: kind.check(params), why: `its body was not all sent (${unsent.sent} of ${unsent.total} bytes) and a read shows nothing applied (${settled.how})` };
    }
    if (!waitOut.canRetry(made)) {
      return { applied: 'unknown', check: kind.check(params), why: `the service may still be applying it, and no read shows it done (${settled.how}; read ${made} ${made === 1 ? 'time' : 'times'} within --timeout)` };
    }
    // The backoff, up to the deadline: the last read is taken at --timeout, not in ever shorter waits before it.
    const left = waitOut.left();
    await policy.sleep(left > 0 ? Math.min(policy.backoff(made), left) : policy.backoff(made));
  }
}

/** A kind that no read settles (nothing it changes can be read back): unknown, with what checks it. */
function noRead(kind: Kind, params: Record<string, unknown>): Settlement<unknown> {
  return { applied: 'unknown', check: kind.check(params) };
}

/** The settling read; when it fails too, the outcome is unknown (never "not applied"). */
async function settleOrUnknown(kind: Kind, params: Record<string, unknown>, io: KindIO, cause: Error) {
  try {
    return await kind.settle!(params, io);
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    const how = `check with \`${kind.check(params)}\``;
    // The read's own advice ("try again") is wrong here: running the write again may duplicate it.
    const reason = (error as Error).message.replace(/[;:] try again.*$/s, '');
    throw new OutcomeUnknownError(`${lostAnswer(cause)}: the write may have been applied, and the read that would tell failed (${reason}): ${how} before running it again`);
  }
}

/**
 * What happened to the write's answer, without the advice its own message
 * ends with ("it may have been applied; check before running it again"):
 * the sentence that settles it gives that advice once, with the command.
 */
function lostAnswer(cause: Error): string {
  if (cause instanceof GatewayAnswerError) return `the answer to ${cause.request} was lost: ${cause.reason}`;
  if (cause instanceof AnswerLostError) return `the answer to ${cause.request} was lost (${cause.reason})`;
  return cause.message;
}

function refused(rejection: Rejection, hint: string, sentBefore: boolean): PredictedRejection {
  const prefix = sentBefore ? 'stopped before the next request: the service would answer' : 'nothing was sent: the service would answer';
  return new PredictedRejection(errorBody(rejection), settlesAsMissing(rejection), prefix, hint);
}

/**
 * A predicted rejection exits like the real answer would: a 404 is exit 4 by
 * its status, and a missing collection's 400 by the read that settles it;
 * another resource's 400 has no such read, so it stays exit 1.
 */
function settlesAsMissing(rejection: Rejection): boolean {
  return rejection.kind === 'not-found' && rejection.resource === 'collection';
}

/** Predicts every step (a later one from the records predicted before it), prints, and throws the predicted rejection. */
async function printPredictions<R>(plan: Plan<R>, ctx: ExecutorContext): Promise<R | undefined> {
  const api = await ctx.api();
  const documents: DryRunDocument[] = [];
  const notes: string[] = [];
  const predicted = new Map<string, unknown>();
  let rejected: Rejection | undefined;
  for (const step of plan.steps) {
    if (kindOf(step).runTimeOnly) continue;
    const params = resolveParams(step.params, predicted);
    const prediction: Prediction = step.prediction ?? (await kindOf(step).predict(params, api));
    documents.push(dryRunDocument(kindOf(step).request(params, api), prediction));
    notes.push(...(prediction.notes ?? []));
    if (!prediction.decision.ok) {
      rejected = prediction.decision;
      break;
    }
    predicted.set(step.id, prediction.decision.next);
  }
  const last = documents.pop();
  // Nothing to send (a finished release, an unchanged sync): the outcome is the same as a real run's.
  if (!last) return plan.done(resultsOf(new Map(), new Map()));
  const doc: DryRunDocument = documents.length > 0 ? { ...last, before: documents.map(({ dryRun: _, ...rest }) => rest) } : last;
  const out = await ctx.output();
  out.dryRun(doc, [...new Set(notes)]);
  if (rejected) throw new PredictedRejection(errorBody(rejected), settlesAsMissing(rejected));
  return undefined;
}

async function collectionIsMissing(api: ApiClient, collectionId: string): Promise<boolean> {
  return (await readCollection(api, collectionId)) === undefined;
}

/** Any failure as an AhsError (a batch step's outcome). */
export function asAhsError(error: unknown): AhsError {
  if (error instanceof AhsError) return error;
  const message = String((error as Error)?.message ?? error);
  // Not one of ahs's own errors (those name what happened): a local failure
  // (a file gone, unreadable), not a network one; exit 1 names it (urn:ahs:rejected).
  return new PartialFailureError(message, ExitCode.rejected);
}
