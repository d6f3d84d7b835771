// Reads the desired-state file (YAML or JSON: JSON is YAML too) with the
// positions of every node, so that every error, the schema's and the plan's
// alike, names `file:line:col: field: message`. Read as written (issue 47):
// a key, or a value where a string is expected, that YAML would turn into a
// number, a boolean or null (`1.10:` read as 1.1, `0755` as 755, `on` as true
// under YAML 1.1) is refused naming the quoted form to write, never
// converted; a key given twice is refused, in JSON as in YAML.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { LineCounter, isMap, isPair, isScalar, parseDocument, visit, type Document, type Scalar } from 'yaml';
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
    // JSON.parse (and so a JSON Schema validator) would keep the last of the two: ahs refuses the file instead.
    const twice = syntax.code === 'DUPLICATE_KEY' ? ': a key given twice is refused (in JSON as in YAML), where a JSON parser would keep the last; keep one' : '';
    throw new UsageError(`${path}:${line}:${col}: ${firstLine(syntax.message)}${twice}`);
  }
  const written = (node: Scalar) => text.slice(node.range![0], node.range![1]);
  const position = (node: Scalar) => {
    const { line, col } = lines.linePos(node.range![0]);
    return `${path}:${line}:${col}`;
  };
  // Keys are ids, platforms, environments and version names: text, always.
  visit(doc, {
    Pair(_, pair, parents) {
      const key = pair.key;
      if (!isScalar(key) || !key.range) return;
      const reading = key.type === 'PLAIN' ? readingOf(written(key), key.value) : undefined;
      if (!reading) return;
      const field = fieldOf(parents);
      throw new UsageError(`${position(key)}: ${field ? `${field}: ` : ''}the key ${written(key)} ${reading}; quote it to keep it as written: ${JSON.stringify(written(key))}:`);
    },
  });
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
    // A string expected where YAML read a number or a boolean (type: 1001): the quoted form to write.
    const node = doc.getIn(field, true);
    if (expectsText(issue) && isScalar(node) && node.type === 'PLAIN' && node.range) {
      const reading = readingOf(written(node), node.value);
      if (reading) throw error(field, `${written(node)} ${reading}, where text is expected; quote it: ${JSON.stringify(written(node))}`);
    }
    throw error(field, issue.message);
  }
  // Text that YAML 1.1 (and the tools that follow it) reads as a boolean or a number, where ahs reads text (on, 0755).
  visit(doc, {
    Scalar(_, node, parents) {
      if (node.type !== 'PLAIN' || typeof node.value !== 'string' || !node.range) return;
      const last = parents.at(-1);
      if (isPair(last) && last.key === node) return;
      const reading = yaml11Reading(node.value);
      if (!reading) return;
      const field = fieldOf(parents);
      throw new UsageError(`${position(node)}: ${field ? `${field}: ` : ''}${node.value} is read by YAML 1.1 as ${reading} (and by the tools that follow it); quote it to mean the text: ${JSON.stringify(node.value)}`);
    },
  });
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

/**
 * What YAML made of a plain scalar that is not text as written: "is read by
 * YAML as the number 1.1" (YAML 1.2, this parser), or as YAML 1.1 reads it;
 * undefined for text.
 */
function readingOf(source: string, value: unknown): string | undefined {
  if (typeof value === 'number') return `is read by YAML as the number ${String(value)}${String(value) === source ? '' : `, not the text ${source}`}`;
  if (typeof value === 'boolean') return `is read by YAML as the boolean ${String(value)}`;
  if (value === null) return 'is read by YAML as null';
  const older = typeof value === 'string' ? yaml11Reading(value) : undefined;
  return older ? `is read by YAML 1.1 as ${older}` : undefined;
}

/** How YAML 1.1 (PyYAML, yaml-language-server's 1.1 mode, older CI tools) reads a plain scalar that YAML 1.2 keeps as text. */
function yaml11Reading(text: string): string | undefined {
  if (/^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/.test(text)) return 'a boolean';
  // Its integers (binary, octal, hexadecimal, base 60, with _ between digits) and floats with _ (YAML 1.2 reads the others alike).
  if (/^[-+]?(0b[01_]+|0[0-7_]+|0x[0-9a-fA-F_]+|[1-9][0-9_]*(:[0-5]?[0-9])+|[0-9][0-9_]*_[0-9_]*(\.[0-9_]*)?)$/.test(text)) return 'a number';
  return undefined;
}

/** The issue is of a value that is not text where text would do: a string, or a union with a string among its forms. */
function expectsText(issue: { code: string; expected?: string; errors?: ReadonlyArray<ReadonlyArray<{ code: string; expected?: string; path: PropertyKey[] }>> }): boolean {
  if (issue.code === 'invalid_type') return issue.expected === 'string';
  if (issue.code === 'invalid_union') return (issue.errors ?? []).some((form) => form.some((inner) => inner.path.length === 0 && inner.code === 'invalid_type' && inner.expected === 'string'));
  return false;
}

/** `assets.my-bundle.versions.ios` for the pairs above a node. */
function fieldOf(parents: readonly unknown[]): string {
  return parents
    .filter(isPair)
    .map((pair) => (isScalar(pair.key) ? String(pair.key.value) : '?'))
    .join('.');
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
