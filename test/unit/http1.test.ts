// The lean download transport's HTTP/1.1 answer parser (src/http/http1.ts),
// fed bytes split at every place a socket may split them.
import { describe, expect, it } from 'vitest';
import { AnswerParser, BadAnswerError, MAX_HEAD_BYTES } from '../../src/http/http1.js';

interface Parsed {
  status: number;
  headers: Record<string, unknown>;
  keepAlive: boolean;
  body: Buffer;
  done: boolean;
  /** Bytes after the answer's end (another answer's, or garbage). */
  rest: number;
}

/** Feeds `wire` to a parser in reads of the given sizes (the rest in one read); each read is its own buffer, overwritten after. */
function parse(wire: Buffer, cuts: number[] = [], method = 'GET'): Parsed {
  const parser = new AnswerParser(method);
  const pieces: Buffer[] = [];
  const reads: Buffer[] = [];
  let at = 0;
  for (const size of [...cuts, wire.length]) {
    if (at >= wire.length) break;
    reads.push(wire.subarray(at, Math.min(wire.length, at + size)));
    at += size;
  }
  let rest = 0;
  const read = Buffer.alloc(wire.length + 16);
  for (const chunk of reads) {
    // One reused read buffer, as the transport has: a parser that kept a view of it would see it overwritten.
    read.fill(0xee);
    chunk.copy(read, 0);
    let start = 0;
    if (!parser.head) {
      start = parser.readHead(read, 0, chunk.length);
      if (start < 0) continue;
    }
    const after = parser.readBody(read, start, chunk.length, (piece) => pieces.push(Buffer.from(piece)));
    if (after >= 0) rest += chunk.length - after;
  }
  if (!parser.head) throw new Error('no head');
  return { ...parser.head, body: Buffer.concat(pieces), done: parser.done, rest };
}

const bytes = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + 3) & 0xff));
const head = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');

describe('AnswerParser', () => {
  const body = bytes(1000);
  const byLength = Buffer.concat([head(['HTTP/1.1 200 OK', 'Content-Length: 1000', 'Content-Type: application/octet-stream', 'X-Twice: a', 'X-Twice: b']), body]);

  it('reads status, headers and a content-length body whole, however the reads split it', () => {
    for (let cut = 1; cut < byLength.length; cut += 7) {
      const parsed = parse(byLength, [cut]);
      expect(parsed.status).toBe(200);
      expect(parsed.headers['content-type']).toBe('application/octet-stream');
      expect(parsed.headers['x-twice']).toEqual(['a', 'b']);
      expect(parsed.keepAlive).toBe(true);
      expect(parsed.done).toBe(true);
      expect(parsed.body.equals(body)).toBe(true);
    }
  });

  it('finds the end of the head when its blank line is split between two reads, byte by byte', () => {
    const parsed = parse(byLength, Array.from({ length: byLength.length }, () => 1));
    expect(parsed.status).toBe(200);
    expect(parsed.body.equals(body)).toBe(true);
  });

  it('decodes a chunked body (sizes in either case, extensions, trailers), however the reads split it', () => {
    const content = bytes(70_000);
    const wire = Buffer.concat([
      head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']),
      Buffer.from('A;name=value\r\n'),
      content.subarray(0, 10),
      Buffer.from('\r\nffff\r\n'),
      content.subarray(10, 10 + 0xffff),
      Buffer.from(`\r\n${(content.length - 10 - 0xffff).toString(16).toUpperCase()}\r\n`),
      content.subarray(10 + 0xffff),
      Buffer.from('\r\n0\r\nX-Checksum: none\r\n\r\n'),
    ]);
    for (const cuts of [[], [wire.length - 1], [20, 1, 1, 1, 5, 3], Array.from({ length: 200 }, (_, i) => (i % 13) + 1)]) {
      const parsed = parse(wire, cuts);
      expect(parsed.done).toBe(true);
      expect(parsed.rest).toBe(0);
      expect(parsed.body.equals(content)).toBe(true);
    }
  });

  it('a chunk size padded with leading zeros, however many, is its value; one past 13 hex digits (2^52 and up) is refused', () => {
    const wire = Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from(`${'0'.repeat(30)}5\r\nhello\r\n${'0'.repeat(20)}\r\n\r\n`)]);
    const parsed = parse(wire, [40, 7]);
    expect(parsed.body.toString()).toBe('hello');
    expect(parsed.done).toBe(true);
    const huge = Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from('20000000000000\r\n')]);
    expect(() => parse(huge)).toThrow(BadAnswerError);
  });

  it('a head whose lines end with LF alone is read as one with CRLF (RFC 9112 2.2), however the reads split it', () => {
    const wire = Buffer.from('HTTP/1.1 200 OK\nContent-Length: 5\nX-Mixed: yes\r\n\nhello', 'latin1');
    for (let cut = 1; cut < wire.length; cut++) {
      const parsed = parse(wire, [cut]);
      expect(parsed.headers['x-mixed']).toBe('yes');
      expect(parsed.body.toString()).toBe('hello');
      expect(parsed.done).toBe(true);
    }
  });

  it('tells where the answer ends: what follows it in the same read is not body', () => {
    const wire = Buffer.concat([byLength, Buffer.from('HTTP/1.1 200 OK\r\n')]);
    const parsed = parse(wire);
    expect(parsed.body.equals(body)).toBe(true);
    expect(parsed.rest).toBe(17);
  });

  it('skips an interim 100 Continue, and reads no body for a 204, a 304 or a HEAD', () => {
    const wire = Buffer.concat([head(['HTTP/1.1 100 Continue']), byLength]);
    expect(parse(wire, [10, 30]).body.equals(body)).toBe(true);
    expect(parse(head(['HTTP/1.1 204 No Content'])).done).toBe(true);
    expect(parse(head(['HTTP/1.1 304 Not Modified', 'Content-Length: 10'])).done).toBe(true);
    expect(parse(head(['HTTP/1.1 200 OK', 'Content-Length: 10']), [], 'HEAD').done).toBe(true);
  });

  it('content-length with a transfer-encoding: refused, as llhttp refuses it (RFC 9112 6.3: a server or proxy framing its own way)', () => {
    for (const coding of ['chunked', 'identity']) {
      const wire = Buffer.concat([head(['HTTP/1.1 200 OK', 'Content-Length: 99', `Transfer-Encoding: ${coding}`]), Buffer.from('5\r\nhello\r\n0\r\n\r\n')]);
      expect(() => parse(wire, [20])).toThrow('both a content-length and a transfer-encoding');
    }
  });

  it('a body with neither a length nor chunked runs until the connection ends: never done, not kept alive', () => {
    const parsed = parse(Buffer.concat([head(['HTTP/1.1 200 OK']), body]), [30]);
    expect(parsed.done).toBe(false);
    expect(parsed.keepAlive).toBe(false);
    expect(parsed.body.equals(body)).toBe(true);
  });

  it('keep-alive: HTTP/1.1 unless it says close; HTTP/1.0 only when it says keep-alive', () => {
    expect(parse(head(['HTTP/1.1 200 OK', 'Connection: close', 'Content-Length: 0'])).keepAlive).toBe(false);
    expect(parse(head(['HTTP/1.0 200 OK', 'Content-Length: 0'])).keepAlive).toBe(false);
    expect(parse(head(['HTTP/1.0 200 OK', 'Connection: keep-alive', 'Content-Length: 0'])).keepAlive).toBe(true);
    // HTTP/1.0 has no chunked: such an answer's framing is not trusted with another (RFC 9112 6.1).
    expect(parse(Buffer.concat([head(['HTTP/1.0 200 OK', 'Connection: keep-alive', 'Transfer-Encoding: chunked']), Buffer.from('0\r\n\r\n')])).keepAlive).toBe(false);
  });

  it('refuses what is not an HTTP/1.1 answer', () => {
    const bad = [
      head(['HTTP/2 200', 'Content-Length: 0']),
      head(['SSH-2.0-OpenSSH_9.2']),
      head(['HTTP/1.1 200 OK', 'no colon here']),
      head(['HTTP/1.1 200 OK', ' folded: value']),
      head(['HTTP/1.1 200 OK', 'Content-Length: 12abc']),
      head(['HTTP/1.1 200 OK', 'Content-Length: 10', 'Content-Length: 11']),
      // The same length twice, or listed twice in one field: refused all the same (RFC 9112 6.3, as undici does).
      head(['HTTP/1.1 200 OK', 'Content-Length: 10', 'Content-Length: 10']),
      head(['HTTP/1.1 200 OK', 'Content-Length: 10, 10']),
      head(['HTTP/1.1 101 Switching Protocols']),
      // A transfer coding ahs never asked for (it sends no TE): the bytes would be saved still coded.
      Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: gzip']), Buffer.from('\x1f\x8b')]),
      Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: gzip, chunked']), Buffer.from('2\r\n\x1f\x8b\r\n0\r\n\r\n')]),
      head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked, chunked']),
      Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from('zz\r\n')]),
      Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from('2\r\nabc\r\n')]),
      Buffer.from(`HTTP/1.1 200 OK\r\nX-Long: ${'a'.repeat(MAX_HEAD_BYTES)}`),
    ];
    for (const wire of bad) expect(() => parse(wire, [7]), wire.toString('latin1', 0, 40)).toThrow(BadAnswerError);
  });

  it('refuses a folded header line (obs-fold), in the head and in the trailers, as llhttp does (RFC 9112 5.2 lets a user agent)', () => {
    expect(() => parse(Buffer.concat([head(['HTTP/1.1 200 OK', 'X-Folded: first', ' second', 'Content-Length: 2']), Buffer.from('ok')]), [25])).toThrow('a header line');
    const wire = Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from('2\r\nok\r\n0\r\nX-T: a\r\n b\r\n\r\n')]);
    expect(() => parse(wire)).toThrow('a header line');
  });

  it('checks trailers as headers: a control character or a bad name is refused', () => {
    for (const trailer of ['X-T: a\u0000b', 'X-T: a\u001bb', 'X T: a', ': a']) {
      const wire = Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from(`2\r\nok\r\n0\r\n${trailer}\r\n\r\n`, 'latin1')]);
      expect(() => parse(wire), trailer).toThrow(BadAnswerError);
    }
  });

  it('chunk extensions: tokens and quoted strings skipped; a blank before the `;` refused, as llhttp refuses it', () => {
    for (const extension of [';a', ';a=b', ';a="x y"', ';a="q\\"x";b']) {
      const wire = Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from(`2${extension}\r\nok\r\n0\r\n\r\n`)]);
      expect(parse(wire).body.toString(), extension).toBe('ok');
    }
    for (const extension of [' ;a=b', '; a', ';a=b c', ';a="x']) {
      const wire = Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from(`2${extension}\r\nok\r\n0\r\n\r\n`)]);
      expect(() => parse(wire), extension).toThrow('a chunk size');
    }
  });

  it('interim answers without end (103 Early Hints) count in the head limit, and so do trailers without end: refused, not read on', () => {
    const hint = head(['HTTP/1.1 103 Early Hints', 'Link: </style.css>; rel=preload']);
    const hints = Buffer.concat(Array.from({ length: Math.ceil(MAX_HEAD_BYTES / hint.length) + 1 }, () => hint));
    expect(() => parse(Buffer.concat([hints, byLength]), Array.from({ length: 200 }, () => 1000))).toThrow(/head of more than/);
    // A few of them are skipped.
    expect(parse(Buffer.concat([hint, hint, byLength])).body.equals(body)).toBe(true);
    const trailer = Buffer.from('X-Trailer: padding padding padding\r\n');
    const trailers = Buffer.concat(Array.from({ length: Math.ceil(MAX_HEAD_BYTES / trailer.length) + 1 }, () => trailer));
    const wire = Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from('2\r\nok\r\n0\r\n'), trailers, Buffer.from('\r\n')]);
    expect(() => parse(wire, [200])).toThrow(/trailers of more than/);
  });

  it('a header named __proto__ is a header, not a prototype', () => {
    const parsed = parse(head(['HTTP/1.1 200 OK', '__proto__: x', 'Content-Length: 0']));
    expect(parsed.headers.__proto__).toBe('x');
    expect(Object.getPrototypeOf(parsed.headers)).toBeNull();
  });
});
