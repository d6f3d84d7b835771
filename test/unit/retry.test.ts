// The retry policy on a fake clock: no test sleeps, every wait is recorded.
import { describe, expect, it } from 'vitest';
import { RetryPolicy, WaitTooLongError, parseRetryAfter, type Clock } from '../../src/http/retry.js';
import { CancelledError } from '../../src/errors.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS } from '../../src/config/settings.js';

/** A clock that advances only when the policy sleeps; `random` fixed (0: the shortest jitter, 0.999: the longest). */
function fakeClock(random = 0.5): Clock & { t: number; slept: number[] } {
  const clock = {
    t: 1_000_000,
    slept: [] as number[],
    now: () => clock.t,
    async sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      clock.slept.push(ms);
      clock.t += ms;
    },
    random: () => random,
  };
  return clock;
}

function policy(extra: Partial<ConstructorParameters<typeof RetryPolicy>[0]> = {}, clock = fakeClock()) {
  return { clock, policy: new RetryPolicy({ retries: 2, timeoutMs: 30_000, clock, ...extra }) };
}

describe('backoff: exponential, capped, with jitter', () => {
  it('doubles from the base up to the cap; the jitter keeps between half and all of it', () => {
    const low = policy({}, fakeClock(0)).policy;
    const high = policy({}, fakeClock(0.999999)).policy;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => low.backoff(n))).toEqual([150, 300, 600, 1200, 2400, 4000, 4000]);
    expect([1, 2, 3, 6, 20].map((n) => Math.round(high.backoff(n)))).toEqual([300, 600, 1200, 8000, 8000]);
  });

  it('takes its base and cap from the options', () => {
    const { policy: p } = policy({ baseMs: 10, capMs: 40 }, fakeClock(0));
    expect([1, 2, 3, 4].map((n) => p.backoff(n))).toEqual([5, 10, 20, 20]);
  });
});

describe('a request budget: 1 + --retries attempts within --timeout', () => {
  it('allows exactly --retries retries', () => {
    const budget = policy({ retries: 2 }).policy.forRequest();
    expect([1, 2, 3].map((n) => budget.canRetry(n))).toEqual([true, true, false]);
    expect(policy({ retries: 0 }).policy.forRequest().canRetry(1)).toBe(false);
  });

  it('allows none once the deadline passed', () => {
    const { policy: p, clock } = policy({ retries: 5, timeoutMs: 1000 });
    const budget = p.forRequest();
    clock.t += 1000;
    expect(budget.left()).toBe(0);
    expect(budget.canRetry(1)).toBe(false);
  });

  it('a backoff takes at most half of what is left, so the next attempt gets the other half', async () => {
    const { policy: p, clock } = policy({ retries: 5, timeoutMs: 1000, baseMs: 4000 });
    const budget = p.forRequest();
    clock.t += 600;
    expect(await budget.wait(1)).toBe(200);
    expect(budget.left()).toBe(200);
  });
});

describe('waiting out (a deployment): at least --retries tries, then until --timeout is spent', () => {
  it('keeps trying past --retries while time is left', () => {
    const { policy: p, clock } = policy({ retries: 2, timeoutMs: 30_000 });
    const budget = p.untilDeadline();
    expect(budget.canRetry(10)).toBe(true);
    clock.t += 30_000;
    expect(budget.canRetry(10)).toBe(false);
  });

  it('makes --retries tries even when the deadline passed', () => {
    const { policy: p, clock } = policy({ retries: 3, timeoutMs: 10 });
    const budget = p.untilDeadline();
    clock.t += 50;
    expect([1, 2, 3, 4].map((n) => budget.canRetry(n))).toEqual([true, true, true, false]);
  });

  it('with the default settings a deployment of 10 s is waited out', async () => {
    const clock = fakeClock(0.999999);
    const p = RetryPolicy.fromSettings({ retries: DEFAULT_RETRIES, timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000 }, { clock });
    const start = clock.t;
    const budget = p.untilDeadline();
    let tries = 0;
    for await (const attempt of budget.attempts()) {
      tries = attempt;
      if (clock.t - start >= 10_000) break; // the deployment ended: this attempt succeeds
    }
    expect(clock.t - start).toBeGreaterThanOrEqual(10_000);
    expect(tries).toBeGreaterThan(1 + DEFAULT_RETRIES);
    expect(clock.t - start).toBeLessThan(DEFAULT_TIMEOUT_SECONDS * 1000);
  });

  it('attempts() ends when the budget does', async () => {
    const { policy: p } = policy({ retries: 2, timeoutMs: 0 });
    const seen: number[] = [];
    for await (const attempt of p.untilDeadline().attempts()) seen.push(attempt);
    expect(seen).toEqual([1, 2, 3]);
  });
});

describe('Retry-After', () => {
  it('is waited when it fits in what is left', async () => {
    const { policy: p, clock } = policy();
    const budget = p.forRequest();
    expect(await budget.wait(1, { retryAfter: '2' })).toBe(2000);
    expect(clock.slept).toEqual([2000]);
  });

  it('as an HTTP date, read against the service\'s clock', () => {
    const { policy: p, clock } = policy();
    const serviceNow = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(p.forRequest().delay(1, { retryAfter: 'Wed, 21 Oct 2026 07:28:05 GMT', serviceNow })).toBe(5000);
    expect(clock.slept).toEqual([]);
  });

  it('longer than what is left fails at once, saying so, without sleeping', async () => {
    const { policy: p, clock } = policy({ timeoutMs: 30_000 });
    const budget = p.forRequest();
    clock.t += 2000;
    const error = await budget.wait(1, { retryAfter: '3600' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTooLongError);
    expect((error as Error).message).toBe('the service asked to retry after 3600 s, more than the 28 s left of --timeout (30 s)');
    expect(clock.slept).toEqual([]);
  });

  it('replaces the backoff even when shorter', () => {
    const { policy: p } = policy({ baseMs: 5000 });
    expect(p.forRequest().delay(3, { retryAfter: '0' })).toBe(0);
  });

  it.each([
    ['120', 120_000],
    [' 5 ', 5000],
    [['7', '9'], 7000],
    ['Thu, 01 Jan 1970 00:00:10 GMT', 10_000],
    ['Thu, 01 Jan 1970 00:00:00 GMT', 0],
    ['-1', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ] as const)('parses %j', (value, ms) => {
    expect(parseRetryAfter(value as string | string[] | undefined, 0)).toBe(ms);
  });
});

describe('the abort signal', () => {
  it('ends a wait as interrupted, and allows no retry after', async () => {
    const controller = new AbortController();
    const { policy: p } = policy({ signal: controller.signal });
    const budget = p.untilDeadline();
    controller.abort();
    await expect(budget.wait(1)).rejects.toBeInstanceOf(CancelledError);
    expect(budget.canRetry(1)).toBe(false);
  });

  it('aborts a real sleep in progress', async () => {
    const controller = new AbortController();
    const p = new RetryPolicy({ retries: 1, timeoutMs: 60_000, signal: controller.signal });
    const waiting = p.forRequest().wait(1, { retryAfter: '30' });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
  });
});
