// How long the executor keeps trying a write the service says to try again,
// on the one RetryPolicy of ahs (src/http/retry.ts, built from --retries and
// --timeout): a deployment in progress (a 500) is waited out until
// --timeout; a write whose basis another writer moved (a 409) is tried
// again a bounded number of times.
import type { RetryPolicy } from '../http/retry.js';

/**
 * Why a write is tried again: the service is busy (a deployment in
 * progress), or another writer moved what the write was based on (a 409).
 */
export type RetryReason = 'busy' | 'contention';

/** Attempts in all after a 409, at least (--retries raises it). */
export const CONTENTION_ATTEMPTS = 5;

export interface RetryBudget {
  /**
   * Called after failed attempt number `attempt` (0 for the first): waits
   * before the next one and says true, or says false when the budget is spent.
   */
  next(attempt: number, reason?: RetryReason): Promise<boolean>;
}

/** One step's budget: its own --timeout deadline from now. */
export function stepBudget(policy: RetryPolicy): RetryBudget {
  const waitOut = policy.untilDeadline();
  return {
    async next(attempt, reason = 'busy') {
      const made = attempt + 1;
      if (reason === 'contention') {
        if (made >= Math.max(CONTENTION_ATTEMPTS, policy.retries + 1) || policy.aborted) return false;
        await policy.sleep(Math.min(policy.backoff(made), Math.max(0, waitOut.left() / 2)));
        return true;
      }
      if (!waitOut.canRetry(made)) return false;
      await waitOut.wait(made);
      return true;
    },
  };
}
