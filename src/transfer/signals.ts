// conf -> atomically -> when-exit hooks SIGINT/SIGTERM/SIGHUP at import time
// and, on the signal, re-sends it to the process. The re-sent SIGINT reaches
// main's handler as a *second* Ctrl-C, which exits at once: no cleanup of
// partial downloads, no message. Before a long transfer we take when-exit's
// signal hooks off (its 'exit' hook stays, so its temp-file cleanup still runs
// on a normal exit); main's handler then aborts ctx.signal and the transfer
// cleans up and ends with 130.
//
// The proper home of this is src/main.ts (after loading conf); until then the
// transfer commands call it.
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function detachExitInterceptors(): number {
  let removed = 0;
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (/this\.exit\(signal\)/.test(String(listener))) {
        process.off(signal, listener as (...args: unknown[]) => void);
        removed++;
      }
    }
  }
  return removed;
}
