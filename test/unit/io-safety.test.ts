import { describe, expect, it } from 'vitest';
import { escapeControls } from '../../src/util/escape.js';
import { createRequestFeedback } from '../../src/io/feedback.js';
import { Output } from '../../src/io/output.js';
import { redactedIO } from '../../src/io/streams.js';
import { Redactor } from '../../src/http/redact.js';
import { bufferIO, Sink } from './helpers.js';

describe('escapeControls', () => {
  it('makes every control character visible', () => {
    expect(escapeControls('a\u001b[2Jb\u001b]52;c;Zm9v\u0007c\td\ne\rf\u009bg\u202eh\u007f')).toBe('a\\e[2Jb\\e]52;c;Zm9v\\x07c\\td\\ne\\rf\\x9bg\\u202eh\\x7f');
  });
  it('keeps newlines, tabs and colour sequences only when asked', () => {
    expect(escapeControls('a\nb\tc', { newlines: true, tabs: true })).toBe('a\nb\tc');
    expect(escapeControls('\u001b[1mbold\u001b[22m \u001b[2J', { colours: true })).toBe('\u001b[1mbold\u001b[22m \\e[2J');
  });
  it('leaves plain text alone', () => {
    expect(escapeControls('plain text, ünïcode ✓')).toBe('plain text, ünïcode ✓');
  });
});

describe('Output for people', () => {
  it('escapes server strings in records and messages; json stays exact', async () => {
    const io = bufferIO();
    const out = await Output.create(io, { format: 'table' });
    out.print({ name: 'x\u001b[2J\ty' });
    out.warn('bad \u0007 bell');
    expect(io.out.text).toBe('name\tx\\e[2J\\ty\n');
    expect(io.err.text).toBe('warning: bad \\x07 bell\n');
    const jsonIO = bufferIO();
    (await Output.create(jsonIO, { format: 'json' })).print({ name: 'x\u001b[2J\ty' });
    expect(JSON.parse(jsonIO.out.text)).toEqual({ name: 'x\u001b[2J\ty' });
  });
});

describe('redaction of every printed line', () => {
  it('replaces known keys and the values of --api-key-looking tokens, text only', () => {
    const redactor = new Redactor();
    redactor.add('key-from-env');
    redactor.addFromArgv(['asset', 'list', '--api-key=KEY-ONE', '--apikey', 'KEY-TWO', '--API_KEY=KEY-3']);
    const io = redactedIO(bufferIO(), redactor);
    io.err.write('a key-from-env b KEY-ONE c KEY-TWO d KEY-3\n');
    io.out.write(Buffer.from('KEY-ONE binary'));
    expect((io.err as Sink).text).toBe('a *** b *** c *** d ***\n');
    expect((io.out as Sink).text).toBe('KEY-ONE binary');
  });
});

class TtySink extends Sink {
  isTTY = true;
  columns = 80;
  readonly firstWrite: Promise<void>;
  private wrote!: () => void;
  constructor() {
    super();
    this.firstWrite = new Promise((resolve) => (this.wrote = resolve));
  }
  override _write(chunk: Buffer, enc: BufferEncoding, done: () => void): void {
    super._write(chunk, enc, done);
    this.wrote();
  }
  cursorTo(): boolean {
    return true;
  }
  moveCursor(): boolean {
    return true;
  }
  clearLine(): boolean {
    return true;
  }
}

describe('request feedback', () => {
  it('shows a spinner naming the request once a wait passes the delay, and clears it', async () => {
    const err = new TtySink();
    const feedback = createRequestFeedback(bufferIO({ err, errIsTTY: true }), { delayMs: 0 });
    const end = feedback.waiting('GET /va');
    await err.firstWrite;
    end();
    expect(err.text).toContain('GET /va');
    expect(err.text).not.toMatch(/\u001b\[3\dm/); // no colour: errColor is off
  });

  it('shows nothing for a wait that ends before the delay, outside a terminal, under CI or with --quiet', () => {
    for (const [overrides, options] of [
      [{ errIsTTY: true }, {}],
      [{ errIsTTY: false }, { delayMs: 0 }],
      [{ errIsTTY: true, ci: true }, { delayMs: 0 }],
      [{ errIsTTY: true }, { delayMs: 0, quiet: true }],
    ] as const) {
      const io = bufferIO(overrides);
      const end = createRequestFeedback(io, { delayMs: 10_000, ...options }).waiting('GET /va');
      end();
      expect(io.err.text).toBe('');
    }
  });

  it('says each retry, except with --quiet or without notices', () => {
    const io = bufferIO({ ci: true });
    createRequestFeedback(io).retrying('retrying GET /va (attempt 2 of 3) after connection reset');
    expect(io.err.text).toBe('retrying GET /va (attempt 2 of 3) after connection reset\n');
    const quiet = bufferIO();
    createRequestFeedback(quiet, { quiet: true }).retrying('retrying');
    createRequestFeedback(quiet, { notices: false }).retrying('retrying');
    expect(quiet.err.text).toBe('');
  });
});
