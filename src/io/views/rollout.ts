// A rollout for a person (cli.md "Rollouts across environments"): its waves
// as a table, a dry run's requests, and --wait's countdown in a terminal.
// The document itself is src/operations/rollout.ts's.
import type { Kit } from '../output.js';
import type { IO } from '../streams.js';
import type { RolloutDocument, RolloutWaveDocument } from '../../operations/rollout.js';
import { delay } from '../../util/delay.js';

/** The waves: each one's state, gate, soak and the Default it had before. */
export function renderRollout(doc: RolloutDocument, kit: Kit): string {
  return kit.table(
    [
      { header: 'WAVE', get: (w: RolloutWaveDocument) => w.env },
      { header: 'STATE', get: (w) => w.state },
      { header: 'GATE', get: (w) => w.gate ?? '' },
      { header: 'SINCE', get: (w) => w.since ?? '' },
      { header: 'UNTIL', get: (w) => w.until ?? '' },
      { header: 'PREVIOUS DEFAULT', get: (w) => w.previousDefault ?? '' },
    ],
    doc.waves,
  );
}

/** A dry run's requests, each with the service's predicted answer. */
function requestLines(doc: RolloutDocument): string[] {
  return (doc.requests ?? []).map((q) => `  ${q.request.method} ${q.request.path} ${JSON.stringify(q.request.body)} → ${q.predicted.status}${q.predicted.error ? ` ${q.predicted.error.title}` : ''}`);
}

/** `ahs rollout --dry-run`: what comes next, the next wave's requests, the check a real run would run, the waves. */
export function renderRolloutDryRun(doc: RolloutDocument, kit: Kit, said: { next: string; check?: string | undefined }): string {
  const lines = [kit.style.bold('Dry run: nothing was sent.'), `next: ${said.next}`, ...requestLines(doc)];
  if (doc.next.action === 'promote' && said.check) lines.push(`  check: ${said.check} (run before and after the promotion; not run by a dry run)`);
  lines.push(
    '',
    kit.table(
      [
        { header: 'WAVE', get: (w: RolloutWaveDocument) => w.env },
        { header: 'STATE', get: (w) => w.state },
        { header: 'GATE', get: (w) => w.gate ?? '' },
        { header: 'UNTIL', get: (w) => w.until ?? '' },
      ],
      doc.waves,
    ),
  );
  return lines.join('\n');
}

/** `ahs rollout abort --dry-run`: the promotions an abort would send, newest wave first. */
export function renderAbortDryRun(doc: RolloutDocument, kit: Kit): string {
  return [kit.style.bold('Dry run: nothing was sent.'), ...requestLines(doc)].join('\n');
}

/**
 * --wait: sleeps `ms`; in a terminal a countdown line redrawn in place each
 * second, elsewhere (CI) a line at once and then one a minute through `info`.
 */
export async function countdown(io: Pick<IO, 'err' | 'errIsTTY'>, quiet: boolean, info: (text: string) => void, ms: number, line: (leftMs: number) => string, signal: AbortSignal): Promise<void> {
  const end = Date.now() + ms;
  const live = io.errIsTTY && !quiet;
  let lastLine = 0;
  try {
    for (;;) {
      const left = end - Date.now();
      if (left <= 0) break;
      if (live) io.err.write(`\r\x1b[2K${line(left)}`);
      else if (Date.now() - lastLine >= 60_000 || lastLine === 0) {
        info(line(left));
        lastLine = Date.now();
      }
      await delay(Math.min(left, live ? 1000 : 5000), signal);
    }
  } finally {
    if (live) io.err.write('\r\x1b[2K');
  }
}
