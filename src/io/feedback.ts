// What a person sees while ahs waits on the service (issue 13): a spinner on
// stderr, saying what is being done in the user's terms (./activity.ts), once a request has waited DELAY_MS (only in a terminal, not under
// CI, not with --quiet), and one line per retry ("retrying GET /va (attempt
// 2 of 3) after connection reset"), in a terminal and in CI, not with --quiet.
import type { Ora } from 'ora';
import type { RequestFeedback } from '../http/client.js';
import { activityOf } from './activity.js';
import { endLiveLine } from './progress.js';
import { escapeControls } from '../util/escape.js';
import { rawStream, type IO } from './streams.js';

/** Below this a wait goes unnoticed; above it a still screen looks hung. */
export const SPINNER_DELAY_MS = 100;

export interface FeedbackOptions {
  /** --quiet: neither spinner nor notices. */
  quiet?: boolean;
  /** No retry notices (json mode keeps stderr for its one JSON error). */
  notices?: boolean;
  delayMs?: number;
  /** The redactor's: ora draws on the raw stream, around the redaction of io.err. */
  redact?: (text: string) => string;
}

export function createRequestFeedback(io: IO, options: FeedbackOptions = {}): RequestFeedback {
  const live = io.errIsTTY && !io.ci && !options.quiet;
  const notices = !options.quiet && options.notices !== false;
  /** What each waiting request is doing, in the order they started: reads sent together are all named. */
  const labels: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let spinner: Ora | undefined;
  const text = () => [...new Set(labels)].join(', ');

  const show = async () => {
    const { default: ora } = await import('ora');
    const stream = rawStream(io.err);
    // A pseudo-terminal without a size (columns 0) would make ora clear lines without end.
    if (labels.length === 0 || spinner || ((stream as { columns?: number }).columns ?? 80) < 1) return;
    spinner = ora({ stream, text: text(), color: io.errColor ? 'cyan' : false, discardStdin: false, isEnabled: true }).start();
  };
  const hide = () => {
    clearTimeout(timer);
    timer = undefined;
    spinner?.stop();
    spinner = undefined;
  };

  return {
    waiting(request, shape) {
      if (!live) return () => {};
      // In the user's terms ("reading channel game-1/ios/prod"), not the HTTP request.
      const label = (options.redact ?? String)(escapeControls(shape ? activityOf(shape) : request));
      labels.push(label);
      if (spinner) spinner.text = text();
      else timer ??= setTimeout(() => void show(), options.delayMs ?? SPINNER_DELAY_MS).unref();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        labels.splice(labels.indexOf(label), 1);
        if (labels.length === 0) hide();
        else if (spinner) spinner.text = text();
      };
    },
    retrying(notice) {
      // ora, while spinning, clears its line around this write and redraws below it.
      // A live progress bar is ended first: the notice gets a line of its own.
      if (!notices) return;
      endLiveLine(io);
      io.err.write(`${escapeControls(notice)}\n`);
    },
  };
}
