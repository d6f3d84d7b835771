// The one exporter (house style, after gh's Exporter): every command hands its
// data here. json = the API body unchanged (or the documented envelope), one
// document on stdout; table = a rendering for people, with colour only when
// io.color. Messages (not data) go to stderr; --quiet silences the
// informational ones, never warnings or errors.
import type { ChalkInstance } from 'chalk';
import type { DryRunDocument } from '../plan/dryrun.js';
import { renderDryRun } from './views/dryrun.js';
import { rawStream, type IO } from './streams.js';
import { formatSize } from '../rules/assets.js';
import type { Redactor } from '../http/redact.js';
import { escapeControls } from '../util/escape.js';
import type { Envelope } from '../rules/schemas.js';

export type Format = 'table' | 'wide' | 'json' | 'yaml';

export interface Column<T> {
  header: string;
  get: (row: T, kit: Kit) => unknown;
  /** The column a person looks for (a file name): cut only once every other column is at its least. */
  keep?: boolean;
}

export interface Field<T> {
  label: string;
  get: (value: T) => unknown;
}

/** What a render function gets to draw with. */
export interface Kit {
  /** A table of rows (bordered in a terminal, tab-separated elsewhere). */
  table<T>(columns: Column<T>[], rows: T[]): string;
  /**
   * A bordered grid whose cells may hold several lines (asset status's
   * platform x environment matrix), when it fits the terminal's width;
   * undefined when it does not (the caller draws a layout that fits).
   */
  grid(head: string[], rows: string[][]): string | undefined;
  /** A vertical key/value table. */
  record<T>(value: T, fields: Field<T>[]): string;
  /** key/value of every scalar field of an object, in its order. */
  object(value: Record<string, unknown>): string;
  /** Cell text for any value (dates relative in a terminal, ISO in a pipe). */
  cell(value: unknown): string;
  /** Colour a deployment state. */
  state(state: string | undefined | null): string;
  /** A byte count: "1.5 MB" for people, the exact number in a pipe. */
  bytes(count: number | undefined | null): string;
  style: ChalkInstance;
  terminal: boolean;
}


/** The envelope of cli.md for --all and merged reads. */
export function listEnvelope<T>(results: T[]): Envelope<T> {
  return { totalResults: results.length, pageNumber: 1, pageSize: results.length, results };
}

export interface OutputOptions {
  format: Format;
  quiet?: boolean;
  redactor?: Redactor;
  query?: (doc: unknown) => unknown;
  /** Hears each document print() is given, in either format (GitHub outputs and AHS_OUTPUT_FILE read it). */
  onDocument?: (doc: unknown) => void;
}

/**
 * chalk and cli-table3, loaded only when this run colours a stream or draws
 * a table for a terminal: `ahs asset list --json` does neither, and loading
 * them was 1 ms of its 85 (issue 14).
 */
let chalk: typeof import('chalk') | undefined;
let Table: typeof import('cli-table3') | undefined;
let YAML: typeof import('yaml') | undefined;

/** chalk's interface without colour (what chalk does at level 0), so that chalk is loaded only to colour. */
const PLAIN: ChalkInstance = new Proxy(((...text: unknown[]) => text.join(' ')) as unknown as ChalkInstance, {
  get: (_target, key) => (key === 'level' ? 0 : PLAIN),
});

export class Output {
  readonly format: Format;
  readonly kit: Kit;
  private readonly errStyle: ChalkInstance;

  /** An Output for `io`, with what it draws with loaded. */
  static async create(io: IO, options: OutputOptions): Promise<Output> {
    if ((io.color || io.errColor) && !chalk) chalk = await import('chalk');
    if (io.outIsTTY && !Table) Table = (await import('cli-table3')).default;
    if (options.format === 'yaml' && !YAML) YAML = await import('yaml');
    return new Output(io, options);
  }

  private constructor(
    private readonly io: IO,
    options: OutputOptions,
  ) {
    this.format = options.format;
    this.query = options.query;
    this.onDocument = options.onDocument;
    this.quiet = Boolean(options.quiet);
    this.redactor = options.redactor;
    // -o wide: the terminal's table, never fitted to its width (nothing is cut or wrapped).
    this.kit = makeKit(io.color, io.outIsTTY, () => (options.format === 'wide' ? Number.POSITIVE_INFINITY : terminalWidth(io)));
    this.colours = io.color || io.errColor;
    this.errStyle = styleFor(io.errColor);
  }
  private readonly quiet: boolean;
  private readonly redactor: Redactor | undefined;
  /** --query: a JMESPath expression applied to every JSON document printed. */
  private readonly query: ((doc: unknown) => unknown) | undefined;
  private readonly colours: boolean;
  private readonly onDocument: ((doc: unknown) => void) | undefined;

  /** A document for a program (json, or yaml: the same document), not a table for a person. */
  get json(): boolean {
    return this.format === 'json' || this.format === 'yaml';
  }

  /**
   * Prints a command's result: `doc` as JSON in json mode (unchanged), or
   * what `render` draws from it in table mode (default: a key/value view).
   */
  print<T>(doc: T, render?: (doc: T, kit: Kit) => string | undefined): void {
    // The document a script would get with --json, before --query, even when a table is drawn from it.
    this.onDocument?.(doc);
    if (this.json) {
      const value = this.query ? this.query(doc) : doc;
      // As the aws CLI: a string result prints raw, for `id=$(ahs … --query versionId)`.
      if (typeof value === 'string' && this.query) this.write(`${value}\n`);
      // -o yaml: the JSON document as YAML (no aliases: a value seen twice is written twice, as JSON has it).
      else if (this.format === 'yaml') this.write(value === undefined ? '' : YAML!.stringify(value, { aliasDuplicateObjects: false }));
      else this.write(`${JSON.stringify(value, null, 2)}\n`);
      return;
    }
    const text = render ? render(doc, this.kit) : defaultRender(doc, this.kit);
    // Cells were escaped by the kit; this catches what a renderer wrote itself.
    if (text) this.write(escapeControls(text.endsWith('\n') ? text : `${text}\n`, { newlines: true, tabs: true, colours: this.io.color }));
  }

  /** A dry run's document (src/plan/dryrun.ts): as JSON, or for a person. */
  dryRun(doc: DryRunDocument, notes: string[]): void {
    this.print(doc, (d, kit) => renderDryRun(d, kit, notes));
  }

  /** A list: json prints `doc` (an API envelope or listEnvelope), table prints rows + a footer, or `empty` for none. */
  list<T>(doc: unknown, rows: T[], columns: Column<T>[], footer?: string, empty = 'no results'): void {
    this.print(doc, (_doc, kit) => {
      if (rows.length === 0) {
        this.info(empty);
        return undefined;
      }
      const table = kit.table(columns, rows);
      if (footer) this.info(footer);
      return table;
    });
  }

  /**
   * The result of a write that answers with a message, not a resource
   * (delete, restore, undeploy, ...): in json mode the answer on stdout, as
   * every result; otherwise a ✓ line on stderr and nothing on stdout (cli.md
   * "Output": data on stdout, messages on stderr).
   */
  outcome(doc: unknown, message: string): void {
    if (this.json) this.print(doc);
    else this.success(message);
  }

  /** Informational message on stderr (not with --quiet). */
  info(text: string): void {
    if (!this.quiet) this.io.err.write(`${this.clean(text)}\n`);
  }
  /** A success line on stderr in table mode (the data, if any, went to stdout). */
  success(text: string): void {
    if (!this.quiet) this.io.err.write(`${this.errStyle.green('✓')} ${this.clean(text)}\n`);
  }
  /** Warnings always show. */
  warn(text: string): void {
    this.io.err.write(`${this.errStyle.yellow('warning:')} ${this.clean(text)}\n`);
  }

  private write(text: string): void {
    this.io.out.write(this.redactor ? this.redactor.redact(text) : text);
  }
  /** A message for a person: secrets out, control characters escaped (newlines kept). */
  private clean(text: string): string {
    const escaped = escapeControls(text, { newlines: true, colours: this.colours });
    return this.redactor ? this.redactor.redact(escaped) : escaped;
  }
}

/** No rule between body rows: easier to read, half the height. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

function styleFor(color: boolean): ChalkInstance {
  return color ? new chalk!.Chalk({ level: 1 }) : PLAIN;
}

/** cli-table3, loaded by Output.create when stdout is a terminal (the only place tables are drawn). */
function table(options: ConstructorParameters<typeof import('cli-table3')>[0]): InstanceType<typeof import('cli-table3')> {
  return new Table!(options);
}

/** The width of the terminal stdout is; a terminal that does not say (a pty of no size) is not fitted. */
function terminalWidth(io: IO): number {
  const columns = (rawStream(io.out) as { columns?: number }).columns;
  return typeof columns === 'number' && columns > 0 ? columns : Number.POSITIVE_INFINITY;
}

function makeKit(color: boolean, terminal: boolean, width: () => number): Kit {
  const style = styleFor(color);
  // Server strings end up in cells: no control character gets through, not even a tab or a newline.
  const cell = (value: unknown): string => escapeControls(formatCell(value, terminal), { colours: color });
  const kit: Kit = {
    style,
    terminal,
    cell,
    state: (state) => {
      if (!state) return terminal ? style.dim('-') : '-';
      if (state === 'DEFAULT') return style.bold.green(state);
      if (state === 'LIVE') return style.green(state);
      if (state === 'OFFLINE') return style.yellow(state);
      return state;
    },
    table<T>(columns: Column<T>[], rows: T[]): string {
      const header = columns.map((c) => c.header);
      const body = rows.map((row) => columns.map((c) => cell(c.get(row, kit))));
      if (!terminal) return [header, ...body].map((r) => r.join('\t')).join('\n');
      const columnsWidth = width();
      // Boxed, whatever the width, so a table looks the same from run to run. A table wider than the
      // terminal wraps its widest cells inside their column rather than cutting them (cli.md "Output":
      // a version id, a wave's state stays whole); -o wide never fits at all.
      const widths = header.map((h, i) => Math.max(visibleWidth(h), ...body.map((r) => visibleWidth(r[i]!))));
      const fits = widths.reduce((sum, w) => sum + w + 3, 1) <= columnsWidth;
      // Each column adds a space either side and a border; one more border closes the row.
      const room = columnsWidth - 3 * columns.length - 1;
      const fitted = fits ? undefined : fitWidths(widths, room, columns.map((c) => c.keep === true), wordFloor(widths, [header, ...body], room));
      const drawn = table({
        head: header.map((h, i) => style.bold(fitted ? wrapTo(h, fitted[i]!) : h)),
        style: { head: [], border: [] },
        chars: COMPACT,
        ...(fitted ? { colWidths: fitted.map((w) => w + 2) } : {}),
      });
      drawn.push(...(fitted ? body.map((r) => r.map((text, i) => wrapTo(text, fitted[i]!))) : body));
      return drawn.toString();
    },
    grid(head, rows) {
      const drawn = table({ head: head.map((h) => style.bold(h)), style: { head: [], border: [] } });
      drawn.push(...rows);
      const text = drawn.toString();
      return Math.max(...text.split('\n').map(visibleWidth)) <= width() ? text : undefined;
    },
    record<T>(value: T, fields: Field<T>[]): string {
      const rows = fields.map((f) => [f.label, cell(f.get(value))] as const);
      if (!terminal) return rows.map((r) => r.join('\t')).join('\n');
      const drawn = table({ style: { head: [], border: [] }, chars: COMPACT });
      for (const [label, text] of rows) drawn.push({ [style.bold(label)]: text });
      return drawn.toString();
    },
    bytes: (count) => (count === undefined || count === null ? cell(count) : terminal ? formatSize(count) : String(count)),
    object(value: Record<string, unknown>): string {
      return kit.record(
        value,
        Object.keys(value).map((key) => ({ label: key, get: (v: Record<string, unknown>) => v[key] })),
      );
    },
  };
  return kit;
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** Where a line may break: between words, and after a `-`, `=`, `/`, `.`, `:` or `,` inside one (`waiting-` `approval`). */
function pieces(text: string): Array<{ text: string; space: boolean }> {
  return text
    .replace(ANSI, '')
    .split(/\s+/)
    .filter((word) => word !== '')
    .flatMap((word) => word.split(/(?<=[-=/.:,])(?=.)/).map((part, index) => ({ text: part, space: index === 0 })));
}

/**
 * The least width of each column when a table must wrap: its longest piece
 * of a cell or of its header (a version id, a state, `(none)`, PREVIOUS of
 * PREVIOUS DEFAULT: headers wrap between their words too), up to 24
 * columns, so that wrapping breaks between words and not inside the value a
 * person came for; the widest give way first when those do not all fit in
 * `room`, so that the short columns stay whole.
 */
function wordFloor(widths: number[], rows: string[][], room: number): number[] {
  const floor = widths.map((width, i) => Math.min(width, 24, Math.max(4, ...rows.map((r) => Math.max(0, ...pieces(r[i]!).map((p) => [...p.text].length))))));
  for (let total = floor.reduce((sum, w) => sum + w, 0); total > room; total--) {
    let widest = -1;
    for (let i = 0; i < floor.length; i++) if (floor[i]! > 4 && (widest < 0 || floor[i]! > floor[widest]!)) widest = i;
    if (widest < 0) break;
    floor[widest]! -= 1;
  }
  return floor;
}

/**
 * A cell in lines of at most `width` columns: broken where pieces() allows,
 * a piece longer than the line in parts (never cut: the whole value stays).
 * A cell that fits keeps its colours; one that wraps is drawn plain.
 */
function wrapTo(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces(text)) {
    let rest = [...piece.text];
    const joined = line === '' ? rest.length : [...line].length + (piece.space ? 1 : 0) + rest.length;
    if (line !== '' && joined <= width) {
      line += `${piece.space ? ' ' : ''}${piece.text}`;
      continue;
    }
    if (line !== '') lines.push(line);
    while (rest.length > width) {
      lines.push(rest.slice(0, width).join(''));
      rest = rest.slice(width);
    }
    line = rest.join('');
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** Columns a cell takes on screen: its colours take none. */
function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/**
 * Column widths that fit `room`: the widest column gives up columns first,
 * one at a time, down to a few characters (gh's table printer does the same).
 * A kept column (the one a person looks for) gives up nothing until every
 * other column is at its least.
 */
export function fitWidths(widths: number[], room: number, keep: boolean[] = [], floor: number[] = []): number[] {
  const fitted = [...widths];
  const shrink = (least: (i: number) => number) => {
    while (fitted.reduce((sum, w) => sum + w, 0) > room) {
      let widest = -1;
      for (let i = 0; i < fitted.length; i++) if (fitted[i]! > least(i) && (widest < 0 || fitted[i]! > fitted[widest]!)) widest = i;
      if (widest < 0) return;
      fitted[widest]! -= 1;
    }
  };
  const least = (i: number) => Math.min(widths[i]!, floor[i] ?? 6);
  if (keep.some(Boolean)) shrink((i) => (keep[i] ? widths[i]! : least(i)));
  shrink(least);
  return fitted;
}

function defaultRender(doc: unknown, kit: Kit): string | undefined {
  if (doc === undefined || doc === null) return undefined;
  if (typeof doc !== 'object') return String(doc);
  if (Array.isArray(doc)) {
    if (doc.length === 0) return undefined;
    const keys = [...new Set(doc.flatMap((row) => (row && typeof row === 'object' ? Object.keys(row) : [])))];
    return kit.table(
      keys.map((key) => ({ header: key, get: (row: Record<string, unknown>) => row[key] })),
      doc as Record<string, unknown>[],
    );
  }
  return kit.object(doc as Record<string, unknown>);
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function formatCell(value: unknown, terminal: boolean): string {
  if (value === undefined || value === null || value === '') return terminal ? '' : '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && terminal && ISO.test(value)) return relativeTime(value);
  if (Array.isArray(value)) return value.map((v) => formatCell(v, terminal)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function relativeTime(iso: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return iso;
  const seconds = Math.round((now - then) / 1000);
  const abs = Math.abs(seconds);
  const suffix = seconds >= 0 ? 'ago' : 'from now';
  if (abs < 45) return seconds >= 0 ? 'just now' : 'in a moment';
  const units: Array<[number, string]> = [
    [60, 'minute'],
    [3600, 'hour'],
    [86400, 'day'],
    [2592000, 'month'],
    [31536000, 'year'],
  ];
  let chosen: [number, string] = units[0]!;
  for (const unit of units) if (abs >= unit[0]) chosen = unit;
  const n = Math.max(1, Math.round(abs / chosen[0]));
  return `${n} ${chosen[1]}${n === 1 ? '' : 's'} ${suffix}`;
}
