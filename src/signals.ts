// main() alone answers SIGINT/SIGTERM: it aborts ctx.signal, the running
// command cleans up (partial downloads removed) and ends with 130.
//
// conf -> atomically -> when-exit hooks the signals at import time and, on
// one, re-sends it to the process; main would take the re-sent SIGINT for a
// second Ctrl-C and exit at once, without cleanup. So modules that hook
// signals are loaded through this, which takes off the signal listeners they
// add (their 'exit' hook stays, so their temp-file cleanup still runs).
const TRAPPED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export async function loadWithoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(TRAPPED.map((signal) => [signal, new Set(process.listeners(signal))]));
  try {
    return await load();
  } finally {
    for (const signal of TRAPPED) {
      for (const listener of process.listeners(signal)) {
        if (!before.get(signal)!.has(listener)) process.off(signal, listener as (...args: unknown[]) => void);
      }
    }
  }
}
