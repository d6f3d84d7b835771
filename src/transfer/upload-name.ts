// The name an upload carries in its multipart header (upload.ts), checked
// alone: item sync checks every name before its first reads, before
// node:crypto and the rest of the upload are loaded (operations/item-sync.ts).
import { basename } from 'node:path';
import { UsageError } from '../errors.js';
import { escapeControls } from '../util/escape.js';

/**
 * The control characters (C0, DEL, C1) a multipart part header cannot carry
 * in its filename: a quoted-string of RFC 9110 holds none but a tab, and a
 * newline or an ESC breaks the header (the service answers "Malformed part
 * header"). Bidirectional overrides it can carry: they are only escaped
 * wherever ahs prints the name.
 */
const UNSENDABLE = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The name sent for `path` (its base name unless given), or a usage error
 * naming the file when the multipart header cannot carry it. Every upload
 * builds its body through prepareMultipart, which checks; commands that send
 * several files check them all first, so that nothing is sent.
 */
export function uploadName(path: string, fileName = basename(path)): string {
  const bad = UNSENDABLE.exec(fileName)?.[0];
  if (bad !== undefined) {
    throw new UsageError(`cannot upload ${escapeControls(path)}: its name holds a control character (${escapeControls(bad)}), which an upload cannot carry; rename the file; nothing was sent`);
  }
  return fileName;
}

/** Whether an upload can carry `fileName` (uploadName's check, without its error). */
export function sendableName(fileName: string): boolean {
  return !UNSENDABLE.test(fileName);
}
