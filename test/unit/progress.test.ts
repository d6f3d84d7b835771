// Transfer progress: the single bar (version upload) and the multi-file view
// (item upload, fetch): a live block redrawn in place in a terminal, plain
// periodic lines in CI or a pipe, nothing with --quiet.
import { describe, expect, it } from 'vitest';
import { createMultiProgress, createProgress } from '../../src/io/progress.js';
import { bufferIO } from './helpers.js';

/** What a terminal shows after `text`: handles \n, \r, cursor up (ESC[nA) and erase (ESC[0J, ESC[2K). */
function screen(text: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\x1b') {
      const match = /^\x1b\[(\d*)([AJK])/.exec(text.slice(i));
      if (!match) throw new Error(`unexpected escape at ${i}: ${JSON.stringify(text.slice(i, i + 8))}`);
      const n = match[1] === '' ? 1 : Number(match[1]);
      if (match[2] === 'A') row = Math.max(0, row - n);
      else if (match[2] === 'J') {
        lines[row] = lines[row]!.slice(0, col);
        lines.length = row + 1;
      } else lines[row] = '';
      i += match[0].length - 1;
    } else if (ch === '\n') {
      row += 1;
      col = 0;
      if (lines.length <= row) lines.push('');
    } else if (ch === '\r') col = 0;
    else {
      const line = lines[row]!.padEnd(col);
      lines[row] = line.slice(0, col) + ch + line.slice(col + 1);
      col += 1;
    }
  }
  return lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

const clock = (start = 1_000_000) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

describe('createMultiProgress in a terminal', () => {
  it('shows a line per file in flight and a total line with percent and rate, redrawn in place', () => {
    const io = bufferIO({ errIsTTY: true });
    const time = clock();
    const p = createMultiProgress(io, { label: 'uploading 3 files', total: 3000, files: 3, now: time.now, timer: false });
    p.start('a', 'a.bin', 1000);
    p.start('b', 'b.bin', 2000);
    time.advance(1000);
    p.update('a', 500);
    time.advance(200);
    p.update('b', 1000);
    const shown = screen(io.err.text);
    expect(shown).toHaveLength(3);
    expect(shown[0]).toMatch(/^ {2}a\.bin .*\] +50% {2}500 B \/ 1.0 KB$/);
    expect(shown[1]).toMatch(/^ {2}b\.bin .*\] +50% {2}1.0 KB \/ 2.0 KB$/);
    // At 80 columns the ETA leaves no room for the bar of the total line: the numbers stay.
    expect(shown[2]).toMatch(/^uploading 3 files (\[.*\] )?50% {2}1.5 KB \/ 3.0 KB {2}1.3 KB\/s {2}ETA 0:02 {2}0\/3 files done$/);
    expect(io.err.text).toContain('\x1b[3A'); // moved back up over the block to redraw it
    expect(io.out.text).toBe('');
  });

  it('prints finished files above the block and leaves only those lines when it ends', () => {
    const io = bufferIO({ errIsTTY: true });
    const time = clock();
    const p = createMultiProgress(io, { label: 'downloading 2 files', files: 2, now: time.now, timer: false });
    p.start('a', 'a.bin', 10);
    p.start('b', 'b.bin', 10);
    time.advance(500);
    p.update('a', 10);
    p.finish('a');
    p.log(() => io.err.write('✓ a.bin (10 B)\n'));
    time.advance(500);
    p.update('b', 4);
    let shown = screen(io.err.text);
    expect(shown[0]).toBe('✓ a.bin (10 B)');
    expect(shown.slice(1).join('\n')).not.toContain('a.bin');
    expect(shown[1]).toMatch(/b\.bin .* 40%/);
    expect(shown[2]).toMatch(/^downloading 2 files .* 70% .* 1\/2 files done$/);
    p.finish('b');
    p.log(() => io.err.write('✓ b.bin (10 B)\n'));
    p.stop();
    shown = screen(io.err.text);
    expect(shown).toEqual(['✓ a.bin (10 B)', '✓ b.bin (10 B)']);
  });

  it('never draws a line wider than the terminal, and folds files beyond the room into one line', () => {
    const io = bufferIO({ errIsTTY: true });
    Object.assign(io.err, { columns: 50, rows: 8 });
    const time = clock();
    const p = createMultiProgress(io, { label: 'downloading 12 files with a long label', files: 12, now: time.now, timer: false });
    for (let i = 0; i < 12; i++) p.start(`f${i}`, `a-rather-long-file-name-number-${i}.tar.gz`, 100);
    time.advance(200);
    p.update('f0', 50);
    const shown = screen(io.err.text);
    expect(shown.length).toBeLessThanOrEqual(6); // rows - 2: the block never scrolls itself off
    expect(shown.some((line) => /… \d+ more in flight/.test(line))).toBe(true);
    for (const line of shown) expect([...line].length).toBeLessThan(50);
    p.stop();
    expect(screen(io.err.text)).toEqual([]);
  });
});

describe('createMultiProgress under CI or in a pipe', () => {
  it('writes a plain line every few seconds naming the files in flight and the total; no escape sequences', () => {
    const io = bufferIO({ errIsTTY: true, ci: true });
    const time = clock();
    const p = createMultiProgress(io, { label: 'downloading 3 files', total: 300, files: 3, now: time.now, timer: false });
    p.start('a', 'a.bin', 100);
    p.start('b', 'b.bin', 100);
    p.update('a', 50);
    time.advance(1000);
    p.update('b', 10);
    expect(io.err.text).toBe(''); // not yet: every 5 s
    time.advance(4000);
    p.update('a', 60);
    expect(io.err.text).toBe('downloading 3 files: 23% (70 B / 300 B, 14 B/s, ETA 0:17), 0/3 files done; in flight: a.bin 60%, b.bin 10%\n');
    p.finish('a');
    p.log(() => io.err.write('✓ a.bin\n'));
    time.advance(5000);
    p.update('b', 100);
    p.stop();
    const lines = io.err.text.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('✓ a.bin');
    expect(lines[2]).toMatch(/^downloading 3 files: 66% .* 1\/3 files done; in flight: b\.bin 100%$/);
    expect(io.err.text).not.toContain('\x1b');
  });

  it('without a terminal behaves the same (plain lines)', () => {
    const io = bufferIO();
    const time = clock();
    const p = createMultiProgress(io, { label: 'uploading 1 file', total: 10, now: time.now, timer: false });
    p.start('a', 'a.bin', 10);
    time.advance(6000);
    p.update('a', 5);
    expect(io.err.text).toMatch(/^uploading 1 file: 50% .*in flight: a\.bin 50%\n$/);
  });
});

describe('createMultiProgress with --quiet', () => {
  it('writes nothing, but what goes through log (warnings) still shows', () => {
    const io = bufferIO({ errIsTTY: true });
    const time = clock();
    const p = createMultiProgress(io, { label: 'x', total: 10, quiet: true, now: time.now, timer: false });
    p.start('a', 'a.bin', 10);
    time.advance(10_000);
    p.update('a', 10);
    p.finish('a');
    p.log(() => io.err.write('warning: b.bin failed\n'));
    p.done('all done');
    expect(io.err.text).toBe('warning: b.bin failed\n');
  });
});

describe('createProgress (one bar, version upload)', () => {
  it('still draws one live bar and a final line', () => {
    const io = bufferIO({ errIsTTY: true });
    const time = clock();
    const p = createProgress(io, { label: 'Uploading x.zip', total: 100, now: time.now });
    p.update(50);
    time.advance(1000);
    p.done('Uploaded x.zip');
    expect(io.err.text).toMatch(/Uploading x\.zip \[.*\] 50%/);
    expect(io.err.text).toMatch(/Uploaded x\.zip \(50 B in 1\.0 s, 50 B\/s\)\n$/);
  });

  it('in a narrow terminal a long file name is cut in the middle and the line never wraps', () => {
    const io = bufferIO({ errIsTTY: true });
    Object.assign(io.err, { columns: 50 });
    const time = clock();
    const name = `Uploading ${'very-long-release-bundle-name-'.repeat(3)}final.zip`;
    const p = createProgress(io, { label: name, total: 100, now: time.now });
    for (let sent = 10; sent <= 90; sent += 20) {
      time.advance(200);
      p.update(sent);
    }
    const shown = screen(io.err.text);
    expect(shown).toHaveLength(1); // redrawn in place: no stale copies above
    expect([...shown[0]!].length).toBeLessThanOrEqual(49);
    expect(shown[0]).toMatch(/^Uploading very-long.*….*final\.zip .*%/);
  });
});

describe('file names in progress lines', () => {
  it('a newline or an escape in a label or a final message is shown escaped, never a line of its own', () => {
    const io = bufferIO({ env: { AHS_PROGRESS_INTERVAL: '0.000001' } });
    let t = 0;
    const single = createProgress(io, { label: 'Uploading a\nuploading fake: 100%', total: 10, now: () => (t += 10) });
    single.update(5);
    single.done('Uploaded a\nb\u001b[2J as v1');
    const multi = createMultiProgress(io, { label: 'uploading 2 files', files: 2, timer: false, now: () => (t += 10) });
    multi.start('1', 'x\ny.zip', 10);
    multi.update('1', 5);
    multi.done('uploaded x\ny.zip');
    const lines = io.err.text.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^Uploading a\\nuploading fake: 100%: 50% /);
    expect(lines[1]).toMatch(/^Uploaded a\\nb\\e\[2J as v1 \(/);
    expect(lines[3]).toContain('in flight: x\\ny.zip 50%');
    expect(lines[4]).toMatch(/^uploaded x\\ny\.zip \(/);
  });
});

describe('a retry notice during a live bar', () => {
  it('gets a line of its own: the bar is ended first (a newline), then goes on below it', async () => {
    const { createRequestFeedback } = await import('../../src/io/feedback.js');
    const io = bufferIO({ errIsTTY: true });
    const time = clock();
    const bar = createProgress(io, { label: 'uploading app.zip', total: 1000, now: time.now });
    time.advance(1000);
    bar.update(400);
    createRequestFeedback(io).retrying('retrying GET /va/my-bundle/versions (attempt 2 of 3)');
    time.advance(1000);
    bar.update(800);
    const shown = screen(io.err.text);
    expect(shown[0]).toMatch(/^uploading app\.zip .*40%/);
    expect(shown[1]).toBe('retrying GET /va/my-bundle/versions (attempt 2 of 3)');
    expect(shown[2]).toMatch(/^uploading app\.zip .*80%/);
    // Ended bars are not ended twice: a notice after done() follows the final line directly.
    bar.done();
    createRequestFeedback(io).retrying('retrying GET /va (attempt 2 of 3)');
    expect(io.err.text).toMatch(/\/s\)\nretrying GET \/va \(attempt 2 of 3\)\n$/);
  });
});
