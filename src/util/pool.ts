// The one worker pool: `work` runs over `items`, at most `concurrency` at a
// time, each item once, in order of start; no new item starts once `signal`
// is aborted or `work` answers false (stop). Downloads and item uploads share it.
export async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal,
  work: (item: T, index: number) => Promise<boolean | void>,
): Promise<void> {
  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal.aborted && !stopped) {
      const index = next++;
      if ((await work(items[index]!, index)) === false) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
