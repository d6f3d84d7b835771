// How long the executor keeps trying a write the service says to try again
// (a deployment's 500, a promotion's 409): at least --retries more tries,
// and more while --timeout allows, so that a deployment in progress is
// waited out (cli.md, "Reading the service"). The wait grows exponentially
// with jitter up to a cap.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Why a write is tried again: the service is busy (a deployment in
 * progress): waited out up to --timeout; or another writer moved what the
 * write was based on (a 409): tried again a bounded number of times.
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

export interface RetryBudgetOptions {
  retries: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** The first wait (tests make it small). */
  baseMs?: number;
  capMs?: number;
  now?: () => number;
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function backoffMs(attempt: number, baseMs = 250, capMs = 4000, random = Math.random): number {
  const ceiling = Math.min(baseMs * 2 ** attempt, capMs);
  return ceiling / 2 + random() * (ceiling / 2);
}

export function retryBudget(options: RetryBudgetOptions): RetryBudget {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? ((ms, signal) => sleep(ms, undefined, { signal }));
  const deadline = now() + options.timeoutMs;
  return {
    async next(attempt, reason = 'busy') {
      const delay = backoffMs(attempt, options.baseMs, options.capMs);
      if (reason === 'contention') {
        if (attempt + 1 >= Math.max(CONTENTION_ATTEMPTS, options.retries + 1)) return false;
      } else if (attempt >= options.retries && now() + delay >= deadline) {
        return false;
      }
      await wait(delay, options.signal);
      return true;
    },
  };
}
