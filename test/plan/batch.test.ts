// The batch scheduler (src/plan/batch.ts) on its own: when each step of a
// batch starts, with a sender whose answers the test releases one by one.
// The executor's own batch tables (test/unit/execute.test.ts) run it through
// real kinds of step; these rows pin what those cannot reach: joins on two
// steps, a step both after and joined on one, refs outside the batch, the
// order of the ready steps, and steps that wait on each other.
import { describe, expect, it } from 'vitest';
import { runBatch, type BatchSender } from '../../src/plan/batch.js';
import type { Batch, Step } from '../../src/plan/plan.js';

/** A step of the batch; `refs` become parameters referring to those steps (optional ones with a `?`). */
function s(id: string, extra: { after?: string[]; refs?: string[] } = {}, batch: Batch = { group: 'g', concurrency: 1, bounds: 'requests' }): Step {
  const params = Object.fromEntries((extra.refs ?? []).map((ref, index) => [`p${index}`, ref.endsWith('?') ? { $ref: ref.slice(0, -1), field: 'x', optional: true } : { $ref: ref, field: 'x' }]));
  return { id, kind: 'item.remove', params, batch, ...(extra.after ? { after: extra.after } : {}) };
}

/** A sender whose steps end when the test says: `end(id, ok)`; what started and was skipped, in order. */
function scripted(before: Record<string, boolean> = {}) {
  const started: string[] = [];
  const skipped: string[] = [];
  const pending = new Map<string, (ok: boolean) => void>();
  const sender: BatchSender = {
    send: (step) =>
      new Promise<boolean>((resolve) => {
        started.push(step.id);
        pending.set(step.id, resolve);
      }),
    skip: (step, blocker) => skipped.push(`${step.id} (${blocker})`),
    succeededBefore: (id) => before[id] === true,
  };
  /** Ends a running step and lets the scheduler take its turn. */
  const end = async (id: string, ok = true) => {
    const resolve = pending.get(id);
    if (!resolve) throw new Error(`${id} is not running (started: ${started.join(', ')})`);
    pending.delete(id);
    resolve(ok);
    await new Promise((next) => setImmediate(next));
  };
  return { sender, started, skipped, end };
}

const NEVER = new AbortController().signal;

describe('the batch scheduler', () => {
  it('a step that joins two steps starts once both have ended, not when the first does', async () => {
    const batch = { group: 'g', concurrency: 3, bounds: 'requests' } as const;
    const { sender, started, end } = scripted();
    const run = runBatch([s('a', {}, batch), s('b', {}, batch), s('c', { refs: ['a?', 'b?'] }, batch)], NEVER, sender);
    expect(started).toEqual(['a', 'b']);
    await end('a', false);
    expect(started).toEqual(['a', 'b']);
    await end('b');
    expect(started).toEqual(['a', 'b', 'c']);
    await end('c');
    await run;
  });

  it('a step both after a step and joined on it is sent once', async () => {
    const { sender, started, end } = scripted();
    const run = runBatch([s('a'), s('b', { after: ['a'], refs: ['a?'] })], NEVER, sender);
    await end('a');
    await end('b');
    await run;
    expect(started).toEqual(['a', 'b']);
  });

  it('a ref to a step outside the batch does not hold a step of the batch back, even when that step failed', async () => {
    const { sender, started, skipped, end } = scripted({ outside: false });
    const run = runBatch([s('a', { refs: ['outside'] })], NEVER, sender);
    expect(started).toEqual(['a']);
    await end('a');
    await run;
    expect(skipped).toEqual([]);
  });

  it('the step with the longest line of steps waiting on it starts first, before plan order', async () => {
    const { sender, started, end } = scripted();
    const run = runBatch([s('t'), s('s'), s('u', { after: ['s'] })], NEVER, sender);
    expect(started).toEqual(['s']);
    await end('s');
    await end(started.at(-1)!);
    await end(started.at(-1)!);
    await run;
    expect(started).toEqual(['s', 't', 'u']);
  });

  it('a step that becomes ready goes before the ready steps of a later rank', async () => {
    const { sender, started, end } = scripted();
    // Ranks: s (a line of 2), then u and t in plan order. When s ends, u is ready and goes before t.
    const run = runBatch([s('s'), s('u', { after: ['s'] }), s('t')], NEVER, sender);
    expect(started).toEqual(['s']);
    await end('s');
    expect(started).toEqual(['s', 'u']);
    await end('u');
    await end('t');
    await run;
  });

  it('steps that wait on each other are named, and nothing of them is sent', async () => {
    const { sender, started } = scripted();
    await expect(runBatch([s('a', { after: ['b'] }), s('b', { after: ['a'] })], NEVER, sender)).rejects.toThrow('steps that wait on each other: a, b');
    expect(started).toEqual([]);
  });

  it('interrupted, a run with steps left ends without calling them stuck', async () => {
    const controller = new AbortController();
    const { sender, started, end } = scripted();
    const run = runBatch([s('a'), s('b', { after: ['a'] })], controller.signal, sender);
    controller.abort();
    await end('a');
    await expect(run).resolves.toBeUndefined();
    expect(started).toEqual(['a']);
  });
});
