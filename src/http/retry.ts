// The one retry policy of ahs, built from --retries and --timeout: how long
// to wait between attempts (exponential backoff with jitter, capped), how
// many attempts a budget allows, the deadline, the service's Retry-After
// (honoured within what is left of the budget, refused at once when it asks
// for more), and the abort signal (Ctrl-C). The HTTP client uses it for one
// request and its retries; the executor uses it to wait out a deployment.
//
//   const budget = policy.forRequest();            // or policy.untilDeadline()
//   for (let attempt = 1; ; attempt++) {
//     try { return await send(); } catch (error) {
//       if (!retryable(error) || !budget.canRetry(attempt)) throw error;
//       await budget.wait(attempt, { retryAfter });  // throws WaitTooLongError
//     }
//   }
import { CancelledError } from '../errors.js';

/** Time as the policy sees it: a fake in unit tests. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1): the jitter. */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  async sleep(ms, signal) {
    const { setTimeout: sleep } = await import('node:timers/promises');
    await sleep(ms, undefined, { signal });
  },
  random: () => Math.random(),
};

export interface RetrySettings {
  /** --retries: retries after the first attempt (0: one attempt). */
  retries: number;
  /** --timeout in ms: the budget of one operation, its retries and waits included. */
  timeoutMs: number;
}

export interface RetryPolicyOptions extends RetrySettings {
  /** The first backoff (default 300 ms); tests make it small. */
  baseMs?: number;
  /** The longest backoff (default 8 s). */
  capMs?: number;
  signal?: AbortSignal;
  clock?: Clock;
}

export const DEFAULT_BACKOFF_MS = 300;
export const MAX_BACKOFF_MS = 8000;

export class RetryPolicy {
  readonly retries: number;
  readonly timeoutMs: number;
  private readonly baseMs: number;
  private readonly capMs: number;
  private readonly signal?: AbortSignal;
  readonly clock: Clock;

  constructor(options: RetryPolicyOptions) {
    this.retries = Math.max(0, Math.floor(options.retries));
    this.timeoutMs = Math.max(0, options.timeoutMs);
    this.baseMs = Math.max(0, options.baseMs ?? DEFAULT_BACKOFF_MS);
    this.capMs = Math.max(this.baseMs, options.capMs ?? MAX_BACKOFF_MS);
    this.signal = options.signal;
    this.clock = options.clock ?? systemClock;
  }

  /** The policy of the settings (--retries, --timeout), with the command's abort signal. */
  static fromSettings(settings: RetrySettings, extra: Omit<RetryPolicyOptions, keyof RetrySettings> = {}): RetryPolicy {
    return new RetryPolicy({ ...settings, ...extra });
  }

  /**
   * The backoff after the `attempt`-th attempt failed (1-based): base x
   * 2^(attempt-1), capped, then "equal jitter" (half fixed, half random), so
   * that runs retrying together spread out and a wait is never near zero.
   */
  backoff(attempt: number): number {
    const full = Math.min(this.baseMs * 2 ** Math.max(0, attempt - 1), this.capMs);
    return full / 2 + this.clock.random() * (full / 2);
  }

  /**
   * One request and its retries: at most 1 + --retries attempts, all
   * within --timeout from now.
   */
  forRequest(): RetryBudget {
    return new RetryBudget(this, this.clock.now() + this.timeoutMs, 'request');
  }

  /**
   * Waiting something out (a deployment in progress): at least 1 + --retries
   * attempts, and more for as long as --timeout from now lasts, so that with
   * the defaults (30 s) a deployment of 10 s is waited out.
   */
  untilDeadline(): RetryBudget {
    return new RetryBudget(this, this.clock.now() + this.timeoutMs, 'until-deadline');
  }

  get aborted(): boolean {
    return this.signal?.aborted ?? false;
  }

  /** Sleeps `ms`; Ctrl-C ends the sleep with a CancelledError. */
  async sleep(ms: number): Promise<void> {
    if (this.aborted) throw new CancelledError('interrupted', { cause: this.signal?.reason });
    if (ms <= 0) return;
    try {
      await this.clock.sleep(ms, this.signal);
    } catch (error) {
      if (this.aborted || (error as Error).name === 'AbortError') throw new CancelledError('interrupted', { cause: this.signal?.reason });
      throw error;
    }
  }
}

export interface WaitOptions {
  /** The Retry-After header of the answer that failed, if any. */
  retryAfter?: string | string[];
  /** The service's clock now (its Date header read against ours), for a Retry-After given as a date. */
  serviceNow?: number;
}

/** One operation's share of the policy: its deadline and the attempts it may make. */
export class RetryBudget {
  constructor(
    readonly policy: RetryPolicy,
    /** On the policy's clock. */
    readonly deadline: number,
    readonly mode: 'request' | 'until-deadline',
  ) {}

  /** The fewest attempts this budget allows (1 + --retries); a request makes no more. */
  get minAttempts(): number {
    return 1 + this.policy.retries;
  }

  /** Milliseconds left before the deadline (0 once it passed). */
  left(): number {
    return Math.max(0, this.deadline - this.policy.clock.now());
  }

  /** Whether another attempt may follow the `attempt`-th (1-based) that failed. */
  canRetry(attempt: number): boolean {
    if (this.policy.aborted) return false;
    if (this.mode === 'request') return attempt < this.minAttempts && this.left() > 0;
    return attempt < this.minAttempts || this.left() > 0;
  }

  /**
   * How long to wait after the `attempt`-th attempt failed: what the
   * service asked for (Retry-After) when it did, else the backoff. A
   * Retry-After of more than what is left throws WaitTooLongError at once
   * (sleeping to the deadline would only end in a timeout); a backoff takes
   * at most half of what is left, so the next attempt gets the other half.
   */
  delay(attempt: number, options: WaitOptions = {}): number {
    const clock = this.policy.clock;
    const asked = parseRetryAfter(options.retryAfter, options.serviceNow ?? clock.now());
    const left = this.left();
    if (asked !== undefined) {
      if (asked > 0 && asked >= left) {
        throw new WaitTooLongError(asked, left, this.policy.timeoutMs);
      }
      return asked;
    }
    const backoff = this.policy.backoff(attempt);
    return left > 0 ? Math.min(backoff, left / 2) : backoff;
  }

  /** Waits before the next attempt (see delay()); returns the milliseconds waited. */
  async wait(attempt: number, options: WaitOptions = {}): Promise<number> {
    const ms = this.delay(attempt, options);
    await this.policy.sleep(ms);
    return ms;
  }

  /**
   * The attempts as numbers (1, 2, ...), waiting the backoff between them,
   * for loops that need no Retry-After: `for await (const n of budget.attempts())`
   * with a `break` (or return) on success; ends when canRetry() says no.
   */
  async *attempts(): AsyncGenerator<number> {
    for (let attempt = 1; ; attempt++) {
      yield attempt;
      if (!this.canRetry(attempt)) return;
      await this.wait(attempt);
    }
  }
}

/**
 * The service asked for a wait (Retry-After) longer than what is left of
 * --timeout. Not an AhsError: the caller knows the request and the answer,
 * and words the error the user sees with this message in it.
 */
export class WaitTooLongError extends Error {
  constructor(
    readonly askedMs: number,
    readonly leftMs: number,
    readonly timeoutMs: number,
  ) {
    super(`the service asked to retry after ${seconds(askedMs)}, more than the ${seconds(leftMs)} left of --timeout (${seconds(timeoutMs)})`);
  }
}

/**
 * Retry-After (RFC 9110): a number of seconds, or an HTTP date (read
 * against `now`, the service's clock when known). Milliseconds, never
 * negative; undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (!Number.isFinite(at) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, at - now);
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : Number(s.toFixed(1))} s`;
}
