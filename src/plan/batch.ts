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
  const waiting = byLongestLine(steps, waits);
  /** Each ended step of the batch: whether it succeeded. */
  const ended = new Map<string, boolean>();
  let running = 0;

  const succeeded = (id: string) => (inBatch.has(id) ? ended.get(id) === true : sender.succeededBefore(id));
  const isReady = (step: Step) => {
    const { needs, joins } = waits.get(step.id)!;
    return [...needs, ...joins].every((id) => !inBatch.has(id) || ended.has(id));
  };

  return new Promise<void>((resolve, reject) => {
    const start = (step: Step) => {
      waiting.splice(waiting.indexOf(step), 1);
      running++;
      sender
        .send(step)
        .then((ok) => {
        ended.set(step.id, ok);
        running--;
        // 'chains': the step's follower takes its slot before any other step can.
        const follower = bounds === 'chains' && !signal.aborted ? nextReady((s) => waits.get(s.id)!.needs.includes(step.id)) : undefined;
        if (follower) start(follower);
        fill();
      })
        .catch(reject);
    };
    /** The first step of `waiting` that is ready and not blocked (blocked ones are skipped, each said, on the way). */
    const nextReady = (among: (step: Step) => boolean = () => true): Step | undefined => {
      for (let skipped = true; skipped; ) {
        skipped = false;
        for (const step of waiting.filter(isReady)) {
          const blocker = waits.get(step.id)!.needs.find((id) => !succeeded(id));
          if (blocker === undefined) continue;
          waiting.splice(waiting.indexOf(step), 1);
          ended.set(step.id, false);
          sender.skip(step, blocker);
          skipped = true;
        }
      }
      return waiting.find((step) => among(step) && isReady(step));
    };
    const fill = () => {
      if (!signal.aborted) {
        for (let next = running < concurrency ? nextReady() : undefined; next; next = running < concurrency ? nextReady() : undefined) start(next);
      }
      if (running > 0) return;
      if (waiting.length > 0 && !signal.aborted) reject(new Error(`steps that wait on each other: ${waiting.map((step) => step.id).join(', ')}`));
      else resolve();
    };
    fill();
  });
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
function byLongestLine(steps: Step[], waits: ReadonlyMap<string, Waits>): Step[] {
  const waitedOnBy = new Map<string, string[]>();
  for (const [id, { needs, joins }] of waits) for (const on of [...needs, ...joins]) waitedOnBy.set(on, [...(waitedOnBy.get(on) ?? []), id]);
  const line = new Map<string, number>();
  const lineOf = (id: string, seen: ReadonlySet<string>): number => {
    if (line.has(id)) return line.get(id)!;
    // A cycle is not followed round (its steps never get ready: runBatch says so).
    const after = (waitedOnBy.get(id) ?? []).filter((next) => !seen.has(next));
    const length = 1 + Math.max(0, ...after.map((next) => lineOf(next, new Set([...seen, id]))));
    line.set(id, length);
    return length;
  };
  // Array.prototype.sort is stable: ties keep plan order.
  return [...steps].sort((a, b) => lineOf(b.id, new Set()) - lineOf(a.id, new Set()));
}
