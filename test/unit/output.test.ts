import { describe, expect, it } from 'vitest';
import { Output, listEnvelope, relativeTime } from '../../src/io/output.js';
import { Redactor } from '../../src/http/redact.js';
import { createProgress, formatBytes } from '../../src/io/progress.js';
import { bufferIO } from './helpers.js';

describe('Output', () => {
  it('json prints the document unchanged on stdout', async () => {
    const io = bufferIO();
    (await Output.create(io, { format: 'json' })).print({ a: 1, b: [2] }, () => 'never');
    expect(JSON.parse(io.out.text)).toEqual({ a: 1, b: [2] });
    expect(io.err.text).toBe('');
  });

  it('table: tab-separated in a pipe, bordered in a terminal, colour only when allowed', async () => {
    const pipe = bufferIO();
    const out = await Output.create(pipe, { format: 'table' });
    out.list(listEnvelope([{ id: 'x', n: 1 }]), [{ id: 'x', n: 1 }], [
      { header: 'ID', get: (r) => r.id },
      { header: 'N', get: (r) => r.n },
    ]);
    expect(pipe.out.text).toBe('ID\tN\nx\t1\n');
    const tty = bufferIO({ outIsTTY: true, color: false });
    (await Output.create(tty, { format: 'table' })).print({ id: 'x' });
    expect(tty.out.text).toContain('│');
    expect(tty.out.text).not.toMatch(/\x1b\[/);
    const colour = bufferIO({ outIsTTY: true, color: true });
    (await Output.create(colour, { format: 'table' })).print({ id: 'x' });
    expect(colour.out.text).toMatch(/\x1b\[/);
  });

  it('a table wider than the terminal wraps a header between its words, never inside one', async () => {
    const tty = bufferIO({ outIsTTY: true, color: false });
    Object.assign(tty.out, { columns: 60 });
    const out = await Output.create(tty, { format: 'table' });
    const rows = [{ wave: 'staging', state: 'pending', gate: 'after dev soaks 3s', since: 'just now', until: 'in a moment', previous: '' }];
    const columns = (['WAVE', 'STATE', 'GATE', 'SINCE', 'UNTIL', 'PREVIOUS DEFAULT'] as const).map((header, i) => ({ header, get: (r: (typeof rows)[0]) => Object.values(r)[i]! }));
    tty.out.write(`${out.kit.table(columns, rows)}\n`);
    const lines = tty.out.text.trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => [...line].length))).toBeLessThanOrEqual(60);
    const words = lines.flatMap((line) => line.split('│').map((cell) => cell.trim())).join(' ').split(/\s+/);
    for (const word of ['PREVIOUS', 'DEFAULT', 'staging', 'pending', 'moment']) expect(words, tty.out.text).toContain(word);
  });

  it('styles without colour as chalk does at level 0 (chalk is loaded only to colour)', async () => {
    const plain = (await Output.create(bufferIO({ outIsTTY: true, color: false }), { format: 'table' })).kit.style;
    expect(plain.bold.green('a', 'b')).toBe('a b');
    expect(plain.dim('-')).toBe('-');
    expect(plain.level).toBe(0);
    const coloured = (await Output.create(bufferIO({ outIsTTY: true, color: true }), { format: 'table' })).kit.style;
    expect(coloured.bold.green('a')).toBe('\x1b[1m\x1b[32ma\x1b[39m\x1b[22m');
  });

  it('messages go to stderr, -q silences info but not warnings, secrets are redacted', async () => {
    const io = bufferIO();
    const redactor = new Redactor();
    redactor.add('topsecret');
    const out = await Output.create(io, { format: 'table', quiet: true, redactor });
    out.info('hello');
    out.success('done');
    out.warn('careful topsecret');
    expect(io.err.text).toBe('warning: careful ***\n');
    expect(io.out.text).toBe('');
  });

  it('envelopes and times', () => {
    expect(listEnvelope([1, 2])).toEqual({ totalResults: 2, pageNumber: 1, pageSize: 2, results: [1, 2] });
    expect(relativeTime('2020-01-01T00:00:00Z', Date.parse('2020-01-01T00:05:00Z'))).toBe('5 minutes ago');
  });
});

describe('progress', () => {
  it('prints plain lines every interval without a terminal, nothing with quiet', () => {
    const io = bufferIO({ ci: true });
    let now = 0;
    const p = createProgress(io, { label: 'Uploading f', total: 1000, now: () => now });
    p.update(100);
    expect(io.err.text).toBe('');
    now = 5000;
    p.update(500);
    expect(io.err.text).toBe('Uploading f: 50% (500 B / 1.0 KB, 100 B/s, ETA 0:05)\n');
    now = 6000;
    p.update(1000);
    p.done('Uploaded f');
    expect(io.err.text.split('\n').filter(Boolean)).toHaveLength(2);
    const quiet = bufferIO();
    const q = createProgress(quiet, { label: 'x', quiet: true });
    q.update(1);
    q.done();
    expect(quiet.err.text).toBe('');
  });

  it('draws a live bar in a terminal', () => {
    const io = bufferIO({ errIsTTY: true });
    const p = createProgress(io, { label: 'Up', total: 100, now: () => 1000 });
    p.update(50);
    expect(io.err.text).toContain('\r');
    expect(io.err.text).toContain('50%');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
  });
});

describe('byte counts in tables', () => {
  const rows = [{ size: 1_500_000 }];
  const columns = [{ header: 'SIZE', get: (r: { size: number }, kit: import('../../src/io/output.js').Kit) => kit.bytes(r.size) }];

  it('are the exact number in a pipe', async () => {
    const pipe = bufferIO();
    (await Output.create(pipe, { format: 'table' })).list(listEnvelope(rows), rows, columns);
    expect(pipe.out.text).toBe('SIZE\n1500000\n');
  });

  it('read "1.5 MB" in a terminal', async () => {
    const tty = bufferIO({ outIsTTY: true });
    (await Output.create(tty, { format: 'table' })).list(listEnvelope(rows), rows, columns);
    expect(tty.out.text).toContain('1.5 MB');
    expect(tty.out.text).not.toContain('1500000');
  });
});
