// Deployments in progress. A version channel or a collection environment is
// "mid-deployment" while its deploy waits: for the fixture's deployDelayMs,
// or, deterministically, until a test releases a hold. Another deploy to it
// meanwhile gets the rules' 500.

/** Returned by `holdDeployments()`: call it (or `.release()`) to let the held deployments finish. */
export interface DeploymentHold {
  (): void;
  release(): void;
  /** Resolves once `count` deployments (default 1) have reached the hold and wait there. */
  held(count?: number): Promise<void>;
}

interface ActiveHold {
  matches?: (key: string) => boolean;
  released: Promise<void>;
  release(): void;
  arrivals: number;
  waiters: { count: number; resolve: () => void }[];
}

export class Deployments {
  private readonly running = new Set<string>();
  private hold: ActiveHold | undefined;

  constructor(private readonly delayMs: number) {}

  isRunning(key: string): boolean {
    return this.running.has(key);
  }

  /** From now on every deployment (that `matches`) stays in progress until the returned function is called. */
  holdDeployments(matches?: (key: string) => boolean): DeploymentHold {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold: ActiveHold = { ...(matches ? { matches } : {}), released, release, arrivals: 0, waiters: [] };
    this.hold = hold;
    const releaseHold = () => {
      if (this.hold === hold) this.hold = undefined;
      hold.release();
    };
    const held = (count = 1) =>
      new Promise<void>((resolve) => {
        if (hold.arrivals >= count) resolve();
        else hold.waiters.push({ count, resolve });
      });
    return Object.assign(releaseHold, { release: releaseHold, held });
  }

  /**
   * Keeps `key` in progress for the delay and while a hold is on; true when
   * it waited (the caller then decides again on the fresh state), false when
   * it went straight through.
   */
  async pass(key: string): Promise<boolean> {
    const hold = this.hold && (!this.hold.matches || this.hold.matches(key)) ? this.hold : undefined;
    if (this.delayMs <= 0 && !hold) return false;
    this.running.add(key);
    try {
      if (hold) {
        hold.arrivals += 1;
        for (const waiter of hold.waiters.filter((candidate) => candidate.count <= hold.arrivals)) {
          hold.waiters.splice(hold.waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      await Promise.all([hold?.released, this.delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, this.delayMs)) : undefined]);
    } finally {
      this.running.delete(key);
    }
    return true;
  }
}
