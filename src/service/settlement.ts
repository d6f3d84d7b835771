// What a read found of a write whose answer was lost (the service layer's
// settling reads return it; the plan's executor decides from it).

/** Whether a write whose answer was lost took effect, found by a read. */
export type Settlement<R> = { applied: true; result: R; how: string } | { applied: false; how: string } | { applied: 'unknown'; check: string; why?: string };
