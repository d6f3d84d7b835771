// AHS_OUTPUT_FILE=PATH (cli.md, "In CI, and from code"): one JSON line per
// finished command, `{command, argv, exitCode, result}`, so no pipeline has
// to parse stdout. `result` is the JSON document the command printed (the
// one --json prints, before --query), else its JSON error (as json mode
// prints it on stderr), else null; a command that printed its document and
// then failed (a sync with a failed file) has `error` as well.
//
// Several runs may append to one file at once (parallel CI steps): each line
// is one write() on a descriptor opened with O_APPEND. On Linux's local file
// systems a write to a regular file moves to the end and writes under the
// file's lock, so lines never interleave, whatever their size (PIPE_BUF
// bounds what is atomic on a pipe, not on a file). On a network file system
// (NFS) appends from several machines are not atomic: give each its own file.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Redactor } from '../http/redact.js';
import type { IO } from './streams.js';
import type { RunRecord } from './record.js';

export interface ResultLine {
  /** "item sync"; null when no command was recognised. */
  command: string | null;
  argv: string[];
  exitCode: number;
  result: unknown;
  error?: unknown;
}

export function resultLine(run: RunRecord): ResultLine {
  return {
    command: run.command || null,
    argv: [...run.argv],
    exitCode: run.exitCode,
    result: run.printed ? run.document : (run.error ?? null),
    // A command that printed its document and then failed (item sync with a failed file): its error too.
    ...(run.printed && run.exitCode !== 0 && run.error ? { error: run.error } : {}),
  };
}

/** Appends the run's line to AHS_OUTPUT_FILE, when set; a failure to write is a warning, not the command's outcome. */
export function appendResult(io: IO, run: RunRecord, redactor: Redactor): void {
  const path = io.env.AHS_OUTPUT_FILE;
  if (!path) return;
  // Secrets out of every string before serialising (JSON would escape a key it could no longer be found in).
  const line = Buffer.from(`${redactor.redact(JSON.stringify(redactor.redactDeep(resultLine(run))))}\n`, 'utf8');
  let fd: number | undefined;
  try {
    fd = openSync(path, 'a');
    // One write of the whole line; a short write only happens on a full disk or the like.
    for (let written = 0; written < line.length; ) written += writeSync(fd, line, written);
  } catch (error) {
    io.err.write(`warning: cannot append to AHS_OUTPUT_FILE (${path}): ${(error as Error).message}\n`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
