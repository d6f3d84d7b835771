// Transfer progress on stderr: a live bar (percent, rate) in a terminal, a
// plain line every few seconds under CI or without a terminal, nothing with
// --quiet.
import type { IO } from './streams.js';
import { formatSize } from '../rules/assets.js';

export interface Progress {
  /** Bytes done so far (and the total, when it is known or changed). */
  update(done: number, total?: number): void;
  /** Ends the bar with a final line (nothing with --quiet). */
  done(message?: string): void;
  /** Clears a live bar without a final line (on failure). */
  stop(): void;
}

export interface ProgressOptions {
  label: string;
  total?: number;
  quiet?: boolean;
  /** Plain-line interval (default 5 s). */
  intervalMs?: number;
  now?: () => number;
}

const BAR_WIDTH = 24;

export function createProgress(io: IO, options: ProgressOptions): Progress {
  if (options.quiet) return { update() {}, done() {}, stop() {} };
  const now = options.now ?? Date.now;
  const started = now();
  const live = io.errIsTTY && !io.ci;
  const interval = options.intervalMs ?? (live ? 100 : 5000);
  let total = options.total ?? 0;
  let done = 0;
  let lastDraw = live ? 0 : started;
  let drawn = false;
  let finished = false;

  const line = (): string => {
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const rate = done / seconds;
    const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : undefined;
    const amount = total > 0 ? `${formatBytes(done)} / ${formatBytes(total)}` : formatBytes(done);
    if (live) {
      const filled = percent === undefined ? 0 : Math.round((percent / 100) * BAR_WIDTH);
      const bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`;
      return `${options.label} ${bar} ${percent ?? '?'}%  ${amount}  ${formatBytes(rate)}/s`;
    }
    return `${options.label}: ${percent === undefined ? '' : `${percent}% `}(${amount}, ${formatBytes(rate)}/s)`;
  };
  const draw = () => {
    if (live) io.err.write(`\r\x1b[2K${line()}`);
    else io.err.write(`${line()}\n`);
    drawn = true;
    lastDraw = now();
  };

  return {
    update(value, newTotal) {
      if (finished) return;
      done = value;
      if (newTotal !== undefined) total = newTotal;
      const t = now();
      if (t - lastDraw >= interval || (live && !drawn)) draw();
    },
    done(message) {
      if (finished) return;
      finished = true;
      if (live && drawn) io.err.write('\r\x1b[2K');
      const seconds = Math.max((now() - started) / 1000, 0.001);
      io.err.write(`${message ?? `${options.label}: done`} (${formatBytes(done)} in ${seconds.toFixed(1)} s, ${formatBytes(done / seconds)}/s)\n`);
    },
    stop() {
      if (finished) return;
      finished = true;
      if (live && drawn) io.err.write('\r\x1b[2K');
    },
  };
}

/** Byte counts for people, in the same units as the service's version sizes. */
export const formatBytes = formatSize;
