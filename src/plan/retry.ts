// How long the executor keeps trying a write the service says to try again,
// on the one RetryPolicy of ahs (src/http/retry.ts, built from --retries and
// --timeout): a deployment in progress (a 500) is waited out until
// --timeout; a write whose basis another writer moved (a 409) is tried
// again a bounded number of times.
import { WaitTooLongError, type RetryPolicy } from '../http/retry.js';

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
   * `retryAfter` (the answer's header) is the wait when the service gave one;
   * a wait longer than what is left of --timeout is not begun: false.
   */
  next(attempt: number, reason?: RetryReason, retryAfter?: string | string[]): Promise<boolean>;
}

/** One step's budget: its own --timeout deadline from now. */
export function stepBudget(policy: RetryPolicy): RetryBudget {
  const waitOut = policy.untilDeadline();
  /** The wait the service asked for, when it did and it fits in what is left; null when it does not fit. */
  const asked = (attempt: number, retryAfter: string | string[] | undefined): number | null | undefined => {
    if (retryAfter === undefined) return undefined;
    try {
      const ms = waitOut.delay(attempt, { retryAfter });
      return ms;
    } catch (error) {
      if (error instanceof WaitTooLongError) return null;
      throw error;
    }
  };
  return {
    async next(attempt, reason = 'busy', retryAfter) {
      const made = attempt + 1;
      if (reason === 'contention') {
        if (made >= Math.max(CONTENTION_ATTEMPTS, policy.retries + 1) || policy.aborted) return false;
        const wait = asked(made, retryAfter);
        if (wait === null) return false;
        await policy.sleep(wait ?? Math.min(policy.backoff(made), Math.max(0, waitOut.left() / 2)));
        return true;
      }
      if (!waitOut.canRetry(made)) return false;
      const wait = asked(made, retryAfter);
      if (wait === null) return false;
      if (wait === undefined) await waitOut.wait(made);
      else await policy.sleep(wait);
      return true;
    },
  };
}
