// Differential fuzzing of the download reader's HTTP/1.1 parser (src/http/http1.ts)
// against llhttp, the parser of node:http and undici (issue 30). The same byte
// streams (random framing: content-length, chunked with random chunk sizes and
// extensions, trailers, header sets and repeats, 1xx answers before the final
// one, and faults: a stream cut short, control characters, duplicate or
// conflicting framing headers, bad chunk sizes, obs-folds) are fed to
// AnswerParser split at random offsets (every offset for small streams) and,
// whole, to node:http from a raw node:net server on 127.0.0.1. Both must
// reach the same verdict (accepted or refused) and the same body.
//
// Deterministic: a seeded PRNG (AHS_FUZZ_SEED, default below), printed with
// every failure; AHS_FUZZ_CASES runs more (default 2000, a few seconds).
//
// Deliberate differences, left out of the comparison (each is http1.ts
// stricter, or refusing what it cannot save as the file, never looser):
// - a transfer coding other than chunked (gzip): llhttp reads the body to
//   the close, still coded; http1.ts refuses it (ahs decodes none);
// - a status outside 100-599: llhttp takes any three digits; both transports
//   refuse it after parsing (client.ts, an unexpected answer);
// - a line ending with LF alone: llhttp (strict) refuses it; http1.ts takes
//   it for CRLF, as RFC 9112 2.2 allows a recipient to;
// - 101 (a protocol switch) to a GET: node:http hands it to 'upgrade'.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { request } from 'node:http';
import { AnswerParser } from '../../src/http/http1.js';

const SEED = Number(process.env.AHS_FUZZ_SEED ?? 0x5eed30);
const CASES = Number(process.env.AHS_FUZZ_CASES ?? 2000);

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  bytes: Buffer;
  /** What was done to the stream, for the failure message. */
  notes: string[];
}

const FAULTS = ['cut', 'control', 'cr-alone', 'dup-length', 'two-lengths', 'length-and-chunked', 'bad-chunk-size', 'chunk-overrun', 'space-before-colon', 'bad-name', 'obs-fold', 'bad-length', 'interim-101', 'chunked-1.0', 'empty-name', 'trailer-control'] as const;
type Fault = (typeof FAULTS)[number];

function generate(random: () => number): Case {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const notes: string[] = [];
  const fault: Fault | undefined = random() < 0.35 ? pick(FAULTS) : undefined;
  if (fault) notes.push(`fault ${fault}`);
  const visible = () => {
    let text = '';
    for (let i = int(0, 12); i > 0; i--) text += random() < 0.1 ? pick(['\t', ' ', '\xe9', '\xff', '\x80']) : String.fromCharCode(int(0x21, 0x7e));
    return text;
  };
  const token = () => pick(['x-a', 'Server', 'cache-control', 'X-Dup', 'etag', 'vary', 'x-' + String(int(0, 99)), 'a', '!#$%&\'*+.^_`|~']);
  let head = '';
  for (let i = random() < 0.2 ? int(1, 2) : 0; i > 0; i--) {
    const interim = fault === 'interim-101' && i === 1 ? 101 : pick([100, 102, 103]);
    head += `HTTP/1.1 ${interim} Info\r\n${random() < 0.5 ? 'link: </a.css>\r\n' : ''}\r\n`;
    notes.push(`interim ${interim}`);
  }
  const version = fault === 'chunked-1.0' || random() < 0.1 ? '1.0' : '1.1';
  // 204 and 304 have no body: bytes after their head are another answer's (garbage, to llhttp), which
  // http1.ts leaves unread, the connection dropped. Not compared.
  const drawn = pick([200, 200, 200, 201, 203, 206, 404, 500, 503, int(200, 599)]);
  const status = drawn === 204 || drawn === 304 ? 200 : drawn;
  head += `HTTP/${version} ${status}${pick([' OK', ' ', ' Some Reason Here', ''])}\r\n`;
  const lines: string[] = [];
  for (let i = int(0, 8); i > 0; i--) lines.push(`${token()}:${pick([' ', '', '  ', '\t'])}${visible()}${pick(['', ' ', '\t'])}`);
  if (random() < 0.3) lines.push(...Array.from({ length: int(2, 40) }, () => `x-repeat: ${visible()}`));
  const body = Buffer.from(Array.from({ length: pick([0, int(1, 16), int(1, 400)]) }, () => int(0, 255)));
  const framing = fault === 'length-and-chunked' || fault === 'bad-chunk-size' || fault === 'chunk-overrun' || fault === 'chunked-1.0' || fault === 'trailer-control' ? 'chunked' : pick(['length', 'length', 'chunked', 'chunked', 'close']);
  notes.push(`HTTP/${version} ${status}, ${framing}, ${body.length} bytes`);
  let wireBody: Buffer;
  if (framing === 'chunked') {
    lines.push(`transfer-encoding: ${pick(['chunked', 'chunked', 'Chunked', 'identity, chunked'])}`);
    if (fault === 'length-and-chunked') lines.push(`content-length: ${body.length}`);
    const parts: Buffer[] = [];
    let at = 0;
    while (at < body.length) {
      const size = Math.min(body.length - at, int(1, 120));
      const hex = size.toString(16);
      const sized = fault === 'bad-chunk-size' && at === 0 ? pick(['zz', '-1', '', '0x10', '1 2']) : `${random() < 0.1 ? '00' : ''}${random() < 0.5 ? hex.toUpperCase() : hex}`;
      const extension = random() < 0.2 ? pick([';a=b', ';name', ';q="x y"', ' ;a=b']) : '';
      parts.push(Buffer.from(`${sized}${extension}\r\n`, 'latin1'), body.subarray(at, at + size), Buffer.from(fault === 'chunk-overrun' && at === 0 ? 'X\r\n' : '\r\n', 'latin1'));
      at += size;
    }
    if (fault === 'bad-chunk-size' && body.length === 0) parts.push(Buffer.from('zz\r\n', 'latin1'));
    let trailers = '';
    for (let i = random() < 0.3 ? int(1, 3) : 0; i > 0; i--) trailers += `x-trailer-${i}: ${visible()}\r\n`;
    if (fault === 'trailer-control') trailers += 'x-t: a\u0000b\r\n';
    parts.push(Buffer.from(`0${random() < 0.2 ? ';last' : ''}\r\n${trailers}\r\n`, 'latin1'));
    wireBody = Buffer.concat(parts);
  } else if (framing === 'length') {
    lines.push(`content-length: ${fault === 'bad-length' ? pick([`+${body.length}`, `${body.length}x`, '-1', `0x${body.length.toString(16)}`, '']) : body.length}`);
    if (fault === 'dup-length') lines.push(`content-length: ${body.length}`);
    if (fault === 'two-lengths') lines.push(`content-length: ${body.length + 1}`);
    wireBody = body;
  } else {
    wireBody = body;
  }
  // Shuffle, then the faults of the head.
  for (let i = lines.length - 1; i > 0; i--) {
    const j = int(0, i);
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  const where = int(0, Math.max(0, lines.length - 1));
  if (fault === 'control') lines.splice(where, 0, `x-c: a${pick(['\u0000', '\u001b', '\u0007', '\u007f', '\u000b', '\u000c', '\u001f'])}b`);
  if (fault === 'cr-alone') lines.splice(where, 0, 'x-c: a\rb');
  if (fault === 'space-before-colon') lines.splice(where, 0, 'x-c : a');
  if (fault === 'bad-name') lines.splice(where, 0, `${pick(['x(c', 'x"c', 'x c', 'x@c', 'x\u00e9'])}: a`);
  if (fault === 'empty-name') lines.splice(where, 0, ': a');
  if (fault === 'obs-fold') lines.splice(where, 0, 'x-f: a', ` ${visible()}`);
  head += lines.map((line) => `${line}\r\n`).join('') + '\r\n';
  let bytes = Buffer.concat([Buffer.from(head, 'latin1'), wireBody]);
  if (fault === 'cut') {
    bytes = bytes.subarray(0, int(0, Math.max(0, bytes.length - 1)));
    notes.push(`cut at ${bytes.length}`);
  }
  return { bytes, notes };
}

type Verdict = { accepted: true; status: number; body: string } | { accepted: false };

/** http1.ts's verdict on `bytes` read in pieces ending at `cuts`, then the connection's end. */
function http1Verdict(bytes: Buffer, cuts: number[]): Verdict {
  const parser = new AnswerParser('GET');
  const pieces: Buffer[] = [];
  const read = Buffer.alloc(bytes.length + 1);
  let from = 0;
  try {
    for (const to of [...cuts, bytes.length]) {
      if (to <= from) continue;
      // One read buffer, overwritten by each read, as the transport has.
      bytes.copy(read, 0, from, to);
      const length = to - from;
      from = to;
      let start = 0;
      if (!parser.head) {
        start = parser.readHead(read, 0, length);
        if (start < 0) continue;
      }
      if (parser.done) break;
      const after = parser.readBody(read, start, length, (piece) => pieces.push(Buffer.from(piece)));
      if (after >= 0) break;
    }
  } catch {
    return { accepted: false };
  }
  if (!parser.head || !(parser.done || parser.endsWithClose)) return { accepted: false };
  return { accepted: true, status: parser.head.status, body: Buffer.concat(pieces).toString('latin1') };
}

let server: Server;
let port = 0;
const streams = new Map<string, Buffer>();
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket)).on('error', () => {});
    let head = '';
    socket.on('data', (data: Buffer) => {
      head += data.toString('latin1');
      const match = /^GET \/(\d+) /.exec(head);
      if (!match || !head.includes('\r\n\r\n')) return;
      socket.end(streams.get(match[1]!) ?? Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** llhttp's verdict: node:http reading the stream whole from the raw server, then its close. */
function llhttpVerdict(id: string): Promise<Verdict> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (verdict: Verdict) => {
      if (settled) return;
      settled = true;
      resolve(verdict);
    };
    const req = request({ host: '127.0.0.1', port, path: `/${id}`, agent: false, maxHeaderSize: 80 * 1024 }, (res) => {
      const pieces: Buffer[] = [];
      res.on('data', (piece: Buffer) => pieces.push(piece));
      res.on('error', () => settle({ accepted: false }));
      res.on('close', () => settle(res.complete ? { accepted: true, status: res.statusCode!, body: Buffer.concat(pieces).toString('latin1') } : { accepted: false }));
    });
    req.on('error', () => settle({ accepted: false }));
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      settle({ accepted: false });
    });
    req.end();
  });
}

/** A stream whose difference is a deliberate one (see the top of this file). */
function deliberate(bytes: Buffer): boolean {
  const text = bytes.toString('latin1');
  return /^HTTP\/1\.[01] 101/m.test(text);
}

describe(`the download reader's parser against llhttp (seed ${SEED}, ${CASES} cases; AHS_FUZZ_SEED, AHS_FUZZ_CASES)`, () => {
  it('reaches the same verdict and the same body, however the stream is split', async () => {
    // A refused stream is a thrown BadAnswerError, whose stack nobody reads here: not captured, a third of the file's CPU.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    onTestFinished(() => {
      Error.stackTraceLimit = limit;
    });
    const random = prng(SEED);
    const cases = Array.from({ length: CASES }, () => generate(random));
    const mismatches: string[] = [];
    let accepted = 0;
    const BATCH = 16;
    for (let first = 0; first < cases.length; first += BATCH) {
      const batch = cases.slice(first, first + BATCH).map((c, offset) => ({ ...c, id: String(first + offset) }));
      for (const c of batch) streams.set(c.id, c.bytes);
      const theirs = await Promise.all(batch.map((c) => llhttpVerdict(c.id)));
      batch.forEach((c, index) => {
        streams.delete(c.id);
        if (deliberate(c.bytes)) return;
        const expected = theirs[index]!;
        if (expected.accepted) accepted++;
        // Whole, split at random offsets, and (a small stream) split once at every offset.
        const splits: number[][] = [[]];
        for (let n = 0; n < 3; n++) splits.push([...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.floor(random() * c.bytes.length)))].sort((a, b) => a - b));
        if (c.bytes.length <= 200) for (let at = 1; at < c.bytes.length; at++) splits.push([at]);
        for (const cuts of splits) {
          const ours = http1Verdict(c.bytes, cuts);
          if (JSON.stringify(ours) !== JSON.stringify(expected)) {
            mismatches.push(`case ${c.id} (seed ${SEED}; ${c.notes.join('; ')}), split at [${cuts.join(',')}]: llhttp ${JSON.stringify(expected).slice(0, 120)}, http1.ts ${JSON.stringify(ours).slice(0, 120)}; stream ${JSON.stringify(c.bytes.toString('latin1')).slice(0, 400)}`);
            break;
          }
        }
      });
    }
    if (process.env.AHS_FUZZ_SUMMARY) {
      const seen = new Set<string>();
      for (const m of mismatches) {
        const key = /\(seed \d+; ([^)]*)\)/.exec(m)![1]!.replace(/HTTP.*/, '').replace(/interim \d+; /g, '');
        if (!seen.has(key)) console.log(m);
        seen.add(key);
      }
    }
    expect(mismatches.slice(0, 5), `${mismatches.length} mismatches (seed ${SEED})`).toEqual([]);
    // Both verdicts are exercised: a fuzzer whose streams all fail tests nothing.
    expect(accepted).toBeGreaterThan(CASES / 3);
    expect(accepted).toBeLessThan(CASES);
  }, 120_000);
});
