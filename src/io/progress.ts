// Transfer progress on stderr: a live bar (percent, rate) in a terminal, a
// plain line every few seconds under CI or without a terminal, nothing with
// --quiet. Labels and messages name files (a local name, a server's): their
// control characters are escaped here, so no name can forge a line.
import { rawStream, type IO } from './streams.js';
import { escapeControls } from '../util/escape.js';
import { formatSize } from '../rules/assets.js';
import type { MultiProgress, MultiProgressOptions, Progress } from '../plan/context.js';

export type { MultiProgress, MultiProgressOptions, Progress };


export interface ProgressOptions {
  label: string;
  total?: number;
  quiet?: boolean;
  /** Plain-line interval (default 5 s). */
  intervalMs?: number;
  now?: () => number;
}

const BAR_WIDTH = 24;

/**
 * The live bar each stderr holds now, drawn without its newline: whoever
 * writes a line of its own there (a retry notice) ends it first, or the
 * line would be glued to the bar ("ETA 0:19retrying GET ...").
 */
const openLines = new WeakMap<object, () => void>();

/** Ends the live bar on stderr, if one is drawn (a newline; the bar goes on below what is written next). */
export function endLiveLine(io: IO): void {
  openLines.get(rawStream(io.err))?.();
}

export function createProgress(io: IO, given: ProgressOptions): Progress {
  if (given.quiet) return { update() {}, done() {}, stop() {} };
  const options = { ...given, label: escapeControls(given.label) };
  const now = options.now ?? Date.now;
  const started = now();
  const live = io.errIsTTY && !io.ci;
  const interval = options.intervalMs ?? (live ? 100 : plainInterval(io));
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
    // One terminal line, whatever the width: a wrapped line would leave a stale copy at every redraw.
    const left = eta(done, total, rate);
    if (live) return fitted(middleCut(options.label, 40), percent, BAR_WIDTH, `${percent ?? '?'}%  ${amount}  ${formatBytes(rate)}/s${left ? `  ${left}` : ''}`, terminalColumns(io) - 1);
    return `${options.label}: ${percent === undefined ? '' : `${percent}% `}(${amount}, ${formatBytes(rate)}/s${left ? `, ${left}` : ''})`;
  };
  const stream = rawStream(io.err);
  const endLine = () => {
    openLines.delete(stream);
    io.err.write('\n');
  };
  const draw = () => {
    if (live) {
      io.err.write(`\r\x1b[2K${line()}`);
      openLines.set(stream, endLine);
    } else io.err.write(`${line()}\n`);
    drawn = true;
    lastDraw = now();
  };
  const close = () => {
    if (openLines.get(stream) === endLine) openLines.delete(stream);
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
      close();
      if (live && drawn) io.err.write('\r\x1b[2K');
      const seconds = Math.max((now() - started) / 1000, 0.001);
      io.err.write(`${message === undefined ? `${options.label}: done` : escapeControls(message)} (${formatBytes(done)} in ${seconds.toFixed(1)} s, ${formatBytes(done / seconds)}/s)\n`);
    },
    stop() {
      if (finished) return;
      finished = true;
      close();
      if (live && drawn) io.err.write('\r\x1b[2K');
    },
  };
}

/** Byte counts for people, in the same units as the service's version sizes. */
export const formatBytes = formatSize;

// --- several files at once ---------------------------------------------------



interface Entry {
  label: string;
  done: number;
  total?: number;
  finished: boolean;
  order: number;
}

const FILE_BAR_WIDTH = 16;
const NAME_WIDTH = 28;
const LIVE_REDRAW_MS = 100;
const LIVE_TICK_MS = 250;

export function createMultiProgress(io: IO, given: MultiProgressOptions): MultiProgress {
  if (given.quiet) {
    return { start() {}, update() {}, finish() {}, setTotal() {}, log: (write) => write(), done() {}, stop() {} };
  }
  const options = { ...given, label: escapeControls(given.label) };
  const now = options.now ?? Date.now;
  const started = now();
  const live = options.live ?? (io.errIsTTY && !io.ci);
  const interval = options.intervalMs ?? plainInterval(io);
  const entries = new Map<string, Entry>();
  let fixedTotal = options.total;
  let transferred = 0; // bytes actually moved, for the rate
  let order = 0;
  let height = 0; // lines of the live block on screen
  let lastDraw = live ? 0 : started;
  let dirty = false;
  let finished = false;

  const columns = (): number => terminalColumns(io);
  const rows = (): number => {
    const value = (io.err as { rows?: number }).rows;
    return typeof value === 'number' && value > 3 ? value : 24;
  };
  const totals = () => {
    let done = 0;
    let sum = 0;
    let unknown = false;
    let count = 0;
    for (const entry of entries.values()) {
      if (entry.finished) {
        count += 1;
        done += entry.total ?? entry.done;
      } else done += entry.done;
      if (entry.total === undefined && !entry.finished) unknown = true;
      sum += entry.total ?? entry.done;
    }
    const total = fixedTotal ?? (unknown ? undefined : sum);
    return { done: total !== undefined ? Math.min(done, total) : done, total, count };
  };
  const rate = (): number => transferred / Math.max((now() - started) / 1000, 0.001);
  const percentOf = (done: number, total: number | undefined): number | undefined =>
    total === undefined ? undefined : total === 0 ? 100 : Math.min(100, Math.floor((done / total) * 100));
  const inFlight = (): Entry[] => [...entries.values()].filter((e) => !e.finished).sort((a, b) => a.order - b.order);
  const filesPart = (count: number): string => (options.files !== undefined ? `${count}/${options.files} files` : `${count} files`);

  const liveBlock = (): string[] => {
    const width = columns() - 1;
    // One file: the total line names it already.
    const flying = options.files === 1 ? [] : inFlight();
    const room = Math.max(1, Math.min(options.maxLines ?? 8, rows() - 3));
    const shown = flying.length > room ? flying.slice(0, room - 1) : flying;
    const nameWidth = Math.min(NAME_WIDTH, Math.max(8, ...shown.map((e) => e.label.length)));
    const lines = shown.map((e) => {
      const percent = percentOf(e.done, e.total);
      const amount = e.total !== undefined ? `${formatBytes(e.done)} / ${formatBytes(e.total)}` : formatBytes(e.done);
      return fitted(`  ${pad(e.label, nameWidth)}`, percent, FILE_BAR_WIDTH, `${percent === undefined ? '  ?' : String(percent).padStart(3)}%  ${amount}`, width);
    });
    if (flying.length > shown.length) lines.push(fit(`  … ${flying.length - shown.length} more in flight`, width));
    const { done, total, count } = totals();
    const percent = percentOf(done, total);
    const amount = total !== undefined ? `${formatBytes(done)} / ${formatBytes(total)}` : formatBytes(done);
    const left = eta(done, total, rate());
    lines.push(fitted(options.label, percent, BAR_WIDTH, `${percent ?? '?'}%  ${amount}  ${formatBytes(rate())}/s${left ? `  ${left}` : ''}  ${filesPart(count)} done`, width));
    return lines;
  };
  const plainLine = (): string => {
    const { done, total, count } = totals();
    const percent = percentOf(done, total);
    const amount = total !== undefined ? `${formatBytes(done)} / ${formatBytes(total)}` : formatBytes(done);
    const flying = inFlight();
    const names = flying.slice(0, 4).map((e) => {
      const p = percentOf(e.done, e.total);
      return `${e.label} ${p === undefined ? formatBytes(e.done) : `${p}%`}`;
    });
    if (flying.length > 4) names.push(`+${flying.length - 4} more`);
    const left = eta(done, total, rate());
    return `${options.label}: ${percent === undefined ? '' : `${percent}% `}(${amount}, ${formatBytes(rate())}/s${left ? `, ${left}` : ''}), ${filesPart(count)} done${names.length ? `; in flight: ${names.join(', ')}` : ''}`;
  };

  const erase = (): string => (height > 0 ? `\x1b[${height}A\r\x1b[0J` : '');
  const draw = (): void => {
    if (finished) return;
    if (live) {
      const lines = liveBlock();
      io.err.write(`${erase()}${lines.join('\n')}\n`);
      height = lines.length;
    } else {
      io.err.write(`${plainLine()}\n`);
    }
    lastDraw = now();
    dirty = false;
  };
  const maybeDraw = (): void => {
    if (finished) return;
    const elapsed = now() - lastDraw;
    if (live ? elapsed >= LIVE_REDRAW_MS : elapsed >= interval) draw();
  };
  const clear = (): void => {
    if (live && height > 0) io.err.write(erase());
    height = 0;
  };

  const timer =
    options.timer === false
      ? undefined
      : setInterval(() => {
          if (finished) return;
          if (live) {
            if (dirty || now() - lastDraw >= 1000) draw();
          } else maybeDraw();
        }, live ? LIVE_TICK_MS : Math.min(interval, 1000));
  timer?.unref?.();

  const end = (): void => {
    if (finished) return;
    clear();
    finished = true;
    if (timer) clearInterval(timer);
  };

  return {
    start(id, label, total) {
      const entry = entries.get(id);
      if (entry) {
        entry.label = escapeControls(label);
        if (total !== undefined) entry.total = total;
      } else entries.set(id, { label: escapeControls(label), done: 0, total, finished: false, order: order++ });
      dirty = true;
      maybeDraw();
    },
    update(id, done, total) {
      let entry = entries.get(id);
      if (!entry) {
        entry = { label: escapeControls(id), done: 0, total, finished: false, order: order++ };
        entries.set(id, entry);
      }
      if (done > entry.done) transferred += done - entry.done;
      entry.done = done;
      if (total !== undefined) entry.total = total;
      dirty = true;
      maybeDraw();
    },
    finish(id) {
      const entry = entries.get(id);
      if (entry) entry.finished = true;
      else entries.set(id, { label: escapeControls(id), done: 0, total: 0, finished: true, order: order++ });
      dirty = true;
      maybeDraw();
    },
    setTotal(total) {
      fixedTotal = total;
      dirty = true;
    },
    log(write) {
      if (!live || finished || height === 0) {
        write();
        return;
      }
      clear();
      write();
      draw();
    },
    done(message) {
      if (finished) return;
      end();
      const seconds = Math.max((now() - started) / 1000, 0.001);
      io.err.write(`${escapeControls(message)} (${formatBytes(transferred)} in ${seconds.toFixed(1)} s, ${formatBytes(transferred / seconds)}/s)\n`);
    },
    stop() {
      end();
    },
  };
}

/**
 * "ETA 0:42": the time left at the rate so far, when the total is known and
 * something has moved; undefined otherwise (a guess from nothing is noise).
 */
export function eta(done: number, total: number | undefined, rate: number): string | undefined {
  if (!total || done <= 0 || done >= total || !(rate > 0)) return undefined;
  const seconds = Math.ceil((total - done) / rate);
  if (!Number.isFinite(seconds)) return undefined;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return `ETA ${hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}` : minutes}:${rest}`;
}

function bar(percent: number | undefined, width: number): string {
  const filled = percent === undefined ? 0 : Math.round((percent / 100) * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
}

/** `head [bar] tail` in `width` columns: the bar gives way first (down to nothing), then the line is cut. */
function fitted(head: string, percent: number | undefined, barWidth: number, tail: string, width: number): string {
  const room = width - [...head].length - [...tail].length - 4;
  const size = Math.min(barWidth, room);
  return fit(size >= 6 ? `${head} ${bar(percent, size)} ${tail}` : `${head} ${tail}`, width);
}

function pad(text: string, width: number): string {
  return middleCut(text, width).padEnd(width);
}

function terminalColumns(io: IO): number {
  const value = (io.err as { columns?: number }).columns;
  return typeof value === 'number' && value > 20 ? value : 80;
}

/** A long name with its middle left out (`very-long-…-name.zip`): both ends say more than the start alone. */
export function middleCut(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  const head = Math.ceil((width - 1) / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (width - 1 - head)).join('')}`;
}

/** Cuts a line to the terminal's width, so that it never wraps (a wrapped line would break the cursor arithmetic). */
function fit(text: string, width: number): string {
  const chars = [...text];
  return chars.length > width ? `${chars.slice(0, Math.max(1, width - 1)).join('')}…` : text;
}

/**
 * Seconds between plain progress lines under CI or without a terminal:
 * AHS_PROGRESS_INTERVAL (a CI log may want fewer, a test more), default 5.
 */
function plainInterval(io: IO): number {
  const seconds = Number(io.env.AHS_PROGRESS_INTERVAL);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 5000;
}
