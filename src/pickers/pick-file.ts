// A missing FILE argument: in a terminal, asked for and checked at the prompt
// (trimmed, and it must be a readable file), so a typo is fixed there rather
// than after the other questions; elsewhere a usage error naming FILE.
import { statSync } from 'node:fs';
import type { Context } from '../io/context.js';

/** FILE: as given, or (in a terminal) a path typed at the prompt that names a file. */
export function fileArg(ctx: Context, given: string | undefined, message = 'File to upload'): Promise<string> {
  return ctx.need(given, { flag: 'FILE', message, validate: (path) => (isFile(path) ? true : `${path} is not a file`) });
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
