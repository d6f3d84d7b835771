// The executor's batch scheduler (./execute.ts): when each step of a batch
// starts. A step waits for the steps it is `after` (each must succeed, else
// it is skipped) and for the steps of the batch its parameters refer to: a
// join, which waits for them to end (an optional ref to one that failed
// reads undefined; a plain ref needs it to succeed, like `after`). At most
// `concurrency` run at once, counted as Batch.bounds says; of the steps
// ready, the one with the longest line of steps waiting on it starts first,
// then plan order. Once the run is interrupted nothing more starts.
import { isRef, type Step } from './plan.js';

export interface BatchSender {
  /** Sends the step; true when it succeeded (a failure is recorded by the sender). */
  send(step: Step): Promise<boolean>;
  /** The step is not sent: `blocker`, a step it needs, did not succeed. */
  skip(step: Step, blocker: string): void;
  /** Whether a step outside the batch (an earlier one) succeeded. */
  succeededBefore(id: string): boolean;
}

/** What a step waits for. */
interface Waits {
  /** Must succeed first. */
  needs: string[];
  /** Must have ended first, succeeded or not. */
  joins: string[];
}

export function runBatch(steps: Step[], signal: AbortSignal, sender: BatchSender): Promise<void> {
  const { concurrency, bounds = 'chains' } = steps[0]!.batch!;
  const inBatch = new Set(steps.map((step) => step.id));
  const waits = new Map(steps.map((step) => [step.id, waitsOf(step, inBatch)]));
  const waitedOnBy = dependents(steps, waits);
  const order = byLongestLine(steps, waitedOnBy);
  const rank = new Map(order.map((step, index) => [step.id, index]));
  /** Per step, the steps of the batch it waits for that have not ended yet. */
  const unmet = new Map(steps.map((step) => [step.id, new Set([...waits.get(step.id)!.needs, ...waits.get(step.id)!.joins].filter((id) => inBatch.has(id)))]));
  /** Steps whose waits are over, in order of start (rank). */
  const ready: Step[] = [];
  /** Each ended step of the batch: whether it succeeded. */
  const ended = new Map<string, boolean>();
  let running = 0;

  const succeeded = (id: string) => (inBatch.has(id) ? ended.get(id) === true : sender.succeededBefore(id));
  /** A step whose waits are over: ready, or skipped when a step it needs did not succeed (its own followers then in turn). */
  const waitsOver = (step: Step) => {
    const blocker = waits.get(step.id)!.needs.find((id) => !succeeded(id));
    if (blocker === undefined) {
      ready.splice(insertionPoint(ready, rank.get(step.id)!, rank), 0, step);
      return;
    }
    sender.skip(step, blocker);
    end(step, false);
  };
  const end = (step: Step, ok: boolean) => {
    ended.set(step.id, ok);
    for (const next of waitedOnBy.get(step.id) ?? []) {
      const left = unmet.get(next.id)!;
      left.delete(step.id);
      if (left.size === 0) waitsOver(next);
    }
  };

  return new Promise<void>((resolve, reject) => {
    const start = (step: Step) => {
      ready.splice(ready.indexOf(step), 1);
      running++;
      sender
        .send(step)
        .then((ok) => {
          running--;
          // Interrupted: the step's followers are neither sent nor said skipped.
          if (signal.aborted) ended.set(step.id, ok);
          else end(step, ok);
          // 'chains': the step's follower takes its slot before any other step can.
          const follower = bounds === 'chains' ? ready.find((next) => waits.get(next.id)!.needs.includes(step.id)) : undefined;
          if (follower && !signal.aborted) start(follower);
          fill();
        })
        .catch(reject);
    };
    const fill = () => {
      while (!signal.aborted && running < concurrency && ready.length > 0) start(ready[0]!);
      if (running > 0) return;
      const stuck = steps.filter((step) => !ended.has(step.id));
      if (stuck.length > 0 && !signal.aborted) reject(new Error(`steps that wait on each other: ${stuck.map((step) => step.id).join(', ')}`));
      else resolve();
    };
    // Taken before any is skipped: a skip ends the steps after it, which must not be told twice.
    const waitingOnNone = order.filter((step) => unmet.get(step.id)!.size === 0);
    for (const step of waitingOnNone) waitsOver(step);
    fill();
  });
}

/** Where a step of `rank` goes in `ready`, kept in order of rank. */
function insertionPoint(ready: Step[], of: number, rank: ReadonlyMap<string, number>): number {
  let low = 0;
  let high = ready.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rank.get(ready[middle]!.id)! < of) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The steps of the batch that wait on each step. */
function dependents(steps: Step[], waits: ReadonlyMap<string, Waits>): Map<string, Step[]> {
  const by = new Map<string, Step[]>();
  for (const step of steps) {
    const { needs, joins } = waits.get(step.id)!;
    for (const on of [...needs, ...joins]) {
      const list = by.get(on);
      if (list) list.push(step);
      else by.set(on, [step]);
    }
  }
  return by;
}

/** The steps it is `after`, and those of the batch its parameters refer to. */
function waitsOf(step: Step, inBatch: ReadonlySet<string>): Waits {
  const needs = new Set(step.after ?? []);
  const joins = new Set<string>();
  const visit = (value: unknown): void => {
    if (isRef(value)) {
      if (inBatch.has(value.$ref)) (value.optional ? joins : needs).add(value.$ref);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(step.params);
  return { needs: [...needs], joins: [...joins].filter((id) => !needs.has(id)) };
}

/** The steps, those with the longest line of steps waiting on them first, else in plan order. */
function byLongestLine(steps: Step[], waitedOnBy: ReadonlyMap<string, Step[]>): Step[] {
  const line = new Map<string, number>();
  const lineOf = (id: string, seen: ReadonlySet<string>): number => {
    const known = line.get(id);
    if (known !== undefined) return known;
    // A cycle is not followed round (its steps never get ready: runBatch says so).
    const next = (waitedOnBy.get(id) ?? []).filter((step) => !seen.has(step.id));
    const length = 1 + Math.max(0, ...next.map((step) => lineOf(step.id, new Set([...seen, id]))));
    line.set(id, length);
    return length;
  };
  // Array.prototype.sort is stable: ties keep plan order.
  return [...steps].sort((a, b) => lineOf(b.id, new Set()) - lineOf(a.id, new Set()));
}
