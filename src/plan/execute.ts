// The one executor of Plans (./plan.ts). With --dry-run it asks each step for
// its prediction, prints the cli.md document and exits with the code the
// real request would produce; otherwise it sends the steps in order and
// hands their answers to the plan's `done`. A lost answer or a 500 of a
// deployment is settled here with a read, for every command alike.
import { ApiError, NetworkError } from '../errors.js';
import { errorBody, type Rejection } from '../rules/index.js';
import type { ApiClient } from '../http/client.js';
import type { Context } from '../context.js';
import { readCollection } from '../service/collections.js';
import { PredictedRejection, dryRunDocument, renderDryRun, type DryRunDocument } from './dryrun.js';
import type { LaterStep, Plan, Step } from './plan.js';

export async function executePlan(plan: Plan, ctx: Context): Promise<void> {
  const out = await ctx.output();
  if (plan.noop) {
    const { state, message } = plan.noop;
    out.print({ changed: false, state, message }, () => {
      out.success(message);
      return undefined;
    });
    return;
  }
  if (ctx.globals.dryRun) return printPredictions(plan, ctx);
  const api = await ctx.api();
  const results: unknown[] = [];
  for (const entry of plan.steps) {
    const step = await resolve(entry, results);
    if (!step) continue;
    if (step.refusal) throw refused(step.refusal.rejection, step.refusal.hint, results.length > 0);
    const answer = await sendStep(step, api, ctx);
    step.onAnswer?.(answer);
    results.push(answer);
  }
  await plan.done(results);
}

function refused(rejection: Rejection, hint: string, sentBefore: boolean): PredictedRejection {
  const prefix = sentBefore ? 'stopped before the next request: the service would answer' : 'nothing was sent: the service would answer';
  return new PredictedRejection(errorBody(rejection), settlesAsMissing(rejection), prefix, hint);
}

/**
 * A predicted rejection exits like the real answer would: a 404 is exit 4 by
 * its status, and a missing collection's 400 by the read that settles it
 * (sendStep); another resource's 400 has no such read, so it stays exit 1.
 */
function settlesAsMissing(rejection: Rejection): boolean {
  return rejection.kind === 'not-found' && rejection.resource === 'collection';
}

async function resolve(entry: Step | LaterStep, previous: unknown[]): Promise<Step | undefined> {
  return typeof entry === 'function' ? entry(previous) : entry;
}

/** Predicts every step (a later one from the states predicted before it), prints, and throws the predicted rejection. */
async function printPredictions(plan: Plan, ctx: Context): Promise<void> {
  const documents: DryRunDocument[] = [];
  const notes: string[] = [];
  const predicted: unknown[] = [];
  let rejected: Rejection | undefined;
  for (const entry of plan.steps) {
    const step = await resolve(entry, predicted);
    if (!step) continue;
    const prediction = await step.predict();
    documents.push(dryRunDocument(step.request, prediction));
    notes.push(...(prediction.notes ?? []));
    if (!prediction.decision.ok) {
      rejected = prediction.decision;
      break;
    }
    predicted.push(prediction.decision.next);
  }
  const last = documents.pop();
  // Nothing to send (a finished release, an unchanged sync): the outcome is the same as a real run's.
  if (!last) return plan.done([]);
  const doc: DryRunDocument = documents.length > 0 ? { ...last, before: documents.map(({ dryRun: _, ...rest }) => rest) } : last;
  const out = await ctx.output();
  out.print(doc, (d, kit) => renderDryRun(d, kit, [...new Set(notes)]));
  if (rejected) throw new PredictedRejection(errorBody(rejected), settlesAsMissing(rejected));
}

/** Sends one step; settles a lost answer and a deployment's 500 with reads. */
async function sendStep(step: Step, api: ApiClient, ctx: Context): Promise<unknown> {
  const send = () => (step.send ? step.send(api) : api.json({ ...step.request }));
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && step.collectionId && !error.notFound) {
        throw (await collectionIsMissing(api, step.collectionId)) ? error.asNotFound() : error;
      }
      const midDeployment = error instanceof ApiError && error.status === 500 && step.retryOn500;
      const lost = error instanceof NetworkError && error.mayHaveApplied;
      if (!(midDeployment || lost) || !step.settle) throw error;
      const settled = await step.settle(api);
      if (settled.applied === true) {
        (await ctx.output()).info(`the answer was lost, but a read confirms the write was applied (${settled.how})`);
        return settled.result;
      }
      if (settled.applied === 'unknown') throw new NetworkError(`${(error as Error).message}; whether the write was applied is unknown: check with \`${settled.check}\``);
      if (lost) throw new NetworkError(`${(error as Error).message}; a read shows the write was not applied (${settled.how}): it is safe to retry`);
      const retries = (await ctx.settings()).retries;
      // Still mid-deployment after every retry: other deployments hold the
      // channel, a conflict (exit 5) like a 409 still standing, not a failure.
      if (attempt >= retries) throw (error as ApiError).asConflict();
      (await ctx.output()).info(`the service answered 500 (the channel may be mid-deployment) and ${settled.how}; retrying (${attempt + 1} of ${retries})`);
      await backoff(attempt, ctx.signal);
    }
  }
}

async function collectionIsMissing(api: ApiClient, collectionId: string): Promise<boolean> {
  return (await readCollection(api, collectionId)) === undefined;
}

async function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  const { setTimeout: sleep } = await import('node:timers/promises');
  const base = Math.min(250 * 2 ** attempt, 4000);
  await sleep(base / 2 + Math.random() * (base / 2), undefined, { signal });
}
