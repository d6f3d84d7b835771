// Reads the desired-state file (YAML or JSON: JSON is YAML too) with the
// positions of every node, so that every error, the schema's and the plan's
// alike, names `file:line:col: field: message`.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { LineCounter, isMap, isPair, isScalar, parseDocument, type Document } from 'yaml';
import { UsageError } from '../errors.js';
import { desiredFileSchema, type DesiredState } from './schema.js';

export const DEFAULT_FILE = 'ahs.yaml';

export type FieldPath = ReadonlyArray<string | number>;

export interface DesiredFile {
  /** As given (-f), for messages. */
  path: string;
  sha256: string;
  state: DesiredState;
  /** A path of the file (relative to its folder) as the CLI opens it. */
  resolve(relative: string): string;
  /** "ahs.yaml:12:7" for a field of the file. */
  at(path: FieldPath): string;
  /** An error at a field: `file:line:col: field: message` (exit 2). */
  error(path: FieldPath, message: string): UsageError;
}

/** `fileAs`: how the caller names the file, for the message of one that cannot be read (the CLI's `-f FILE`, the library's `the file parameter`). */
export async function loadDesiredFile(path: string, fileAs = '-f FILE'): Promise<DesiredFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : (error as Error).message;
    throw new UsageError(`cannot read ${path}: ${why}; write the desired state there (ahs export > ${path} starts one), or name another file with ${fileAs}`);
  }
  return parseDesiredFile(text, path);
}

export function parseDesiredFile(text: string, path: string): DesiredFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const syntax = doc.errors[0];
  if (syntax) {
    const { line, col } = lines.linePos(syntax.pos[0]);
    throw new UsageError(`${path}:${line}:${col}: ${firstLine(syntax.message)}`);
  }
  const at = (field: FieldPath, key = false) => {
    const { line, col } = lines.linePos(offsetOf(doc, field, key));
    return `${path}:${line}:${col}`;
  };
  const error = (field: FieldPath, message: string, key = false) => new UsageError(`${at(field, key)}: ${field.length ? `${field.join('.')}: ` : ''}${message}`);
  const parsed = desiredFileSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path as Array<string | number>;
    // Not a mapping at all (another file given by mistake): say what one looks like.
    if (field.length === 0 && issue.code === 'invalid_type') throw error(field, 'not a desired-state file: expected a YAML mapping that starts with apiVersion: ahs/v1 (see ahs schema, or write one with ahs export)');
    // An unknown key is placed at the key itself.
    if (issue.code === 'unrecognized_keys') {
      const key = issue.keys[0]!;
      throw error([...field, key], `unknown field (${known(issue.path)})`, true);
    }
    throw error(field, issue.message);
  }
  const folder = dirname(path);
  return {
    path,
    sha256: createHash('sha256').update(text).digest('hex'),
    state: parsed.data,
    resolve: (relative) => (isAbsolute(relative) ? relative : resolve(folder, relative)),
    at,
    error,
  };
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** The offset of a field's value (or of its key: an unknown field, a value left empty), else of the nearest enclosing field. */
function offsetOf(doc: Document, field: FieldPath, key = false): number {
  for (let depth = field.length; depth > 0; depth--) {
    const node = key && depth === field.length ? undefined : (doc.getIn(field.slice(0, depth), true) as { range?: number[] } | undefined);
    if (node?.range) return node.range[0]!;
    const parent = depth === 1 ? doc.contents : doc.getIn(field.slice(0, depth - 1), true);
    const pair = isMap(parent) ? parent.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(field[depth - 1])) : undefined;
    const range = (pair?.key as { range?: number[] } | undefined)?.range;
    if (range) return range[0]!;
  }
  return (doc.contents as { range?: number[] } | null)?.range?.[0] ?? 0;
}

function known(path: PropertyKey[]): string {
  const where = path.length ? path.map(String).join('.') : 'the file';
  return `see ahs schema for the fields of ${where}`;
}
