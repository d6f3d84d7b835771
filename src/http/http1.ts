// Reading one HTTP/1.1 answer to a GET out of the bytes a connection
// receives (the lean download transport, lean.ts): the status line and the
// headers, which may arrive split over several reads, then the body framed
// by content-length, by chunked transfer-encoding, or by the connection's
// end. Body bytes are never copied: each piece is a view of the read buffer.
// No I/O here, so that unit tests can feed it bytes however split.

export type Headers = Record<string, string | string[] | undefined>;

/**
 * The longest head (status line and headers) read: past it, the answer is
 * not one a file server gives. Interim answers (100, 103) before it count
 * in, as the trailers after a chunked body count against a limit of their
 * own: a server sending them without end is refused, not waited out.
 */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A line's end and the blank line after it: where a head ends, each line ending with CRLF or LF alone. */
const BLANK_LINE = /\n\r?\n/;

/**
 * The most header lines an answer may have (trailers counted apart): a file
 * server sends a few dozen. A head of 64 KiB holds 16,000 of them; past
 * this, the answer is refused before it is looked at further.
 */
export const MAX_HEADER_LINES = 1000;

/** What a header value may hold (RFC 9110 5.5): visible ASCII, blanks and obs-text; no CR, LF, NUL, ESC or other control. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The longest line of chunked framing (a chunk size with its extensions, a trailer). */
const MAX_FRAMING_LINE = 8 * 1024;

/** The longest piece of an answer quoted in an error. */
const MAX_QUOTED = 60;

/**
 * A piece of the server's answer, as an error quotes it: whole, or not at
 * all. Never cut: a server may echo the request's key, and the redaction of
 * what ahs prints (redact.ts) finds a whole key, not its first half.
 */
function shown(text: string): string {
  return text.length <= MAX_QUOTED ? JSON.stringify(text) : `of ${text.length} characters`;
}

/** Bytes that are not an HTTP/1.1 answer; errors.ts words the code. */
export class BadAnswerError extends Error {
  readonly code = 'AHS_BAD_HTTP';
  constructor(what: string) {
    super(`not a valid HTTP/1.1 answer: ${what}`);
  }
}

export interface AnswerHead {
  status: number;
  headers: Headers;
  /** The connection may carry another request after this answer. */
  keepAlive: boolean;
}

type Framing =
  | { kind: 'length'; left: number }
  | { kind: 'chunked'; state: 'size' | 'data' | 'data-end' | 'trailer'; left: number; line: string }
  | { kind: 'close' };

export class AnswerParser {
  head?: AnswerHead;
  /** The body is whole (always false for a body that ends with the connection). */
  done = false;
  /** The head's bytes of earlier reads, as text, one piece per read (joined once the head is whole). */
  private headParts: string[] = [];
  private headLength = 0;
  /** Its last two characters (where a blank line may have begun). */
  private headTail = '';
  /** Bytes of the interim answers skipped so far. */
  private interimBytes = 0;
  /** Bytes of the trailers after a chunked body, so far. */
  private trailerBytes = 0;
  private framing?: Framing;

  constructor(private readonly method = 'GET') {}

  /** The body runs until the server closes the connection (neither a length nor chunked). */
  get endsWithClose(): boolean {
    return this.framing?.kind === 'close';
  }

  /**
   * Reads head bytes from buffer[start, end). Returns the offset where the
   * body starts once the head is complete (`head` is set then), or -1 when
   * more bytes are needed. Interim answers (100 Continue) are skipped.
   */
  readHead(buffer: Buffer, start: number, end: number): number {
    let from = start;
    for (;;) {
      const headEnd = this.headEnd(buffer, from, end);
      if (headEnd < 0) {
        if (this.interimBytes + this.headLength + (end - from) > MAX_HEAD_BYTES) throw new BadAnswerError(`a head of more than ${MAX_HEAD_BYTES} bytes`);
        const piece = buffer.toString('latin1', from, end);
        this.headParts.push(piece);
        this.headLength += piece.length;
        this.headTail = (this.headTail + piece).slice(-2);
        return -1;
      }
      // Only the head becomes text: the body bytes after it in the same read stay bytes (a 256 KiB read per file, else).
      const text = this.headParts.join('') + buffer.toString('latin1', from, headEnd);
      this.headParts = [];
      this.headLength = 0;
      this.headTail = '';
      const lines = text.replace(/\r?\n\r?\n$/, '');
      if (this.interimBytes + lines.length > MAX_HEAD_BYTES) throw new BadAnswerError(`a head of more than ${MAX_HEAD_BYTES} bytes`);
      const head = parseHead(lines);
      if (head.status >= 100 && head.status < 200) {
        if (head.status === 101) throw new BadAnswerError('a protocol switch (101) to a GET');
        this.interimBytes += text.length;
        from = headEnd;
        if (from >= end) return -1;
        continue;
      }
      this.head = head;
      this.framing = framingOf(head, this.method);
      if (this.framing.kind === 'length' && this.framing.left === 0) this.done = true;
      if (this.framing.kind === 'close') this.head.keepAlive = false;
      return headEnd;
    }
  }

  /**
   * The offset in `buffer` just past the blank line that ends the head, or
   * -1; the blank line may have begun in an earlier read. A line may end
   * with LF alone (RFC 9112 2.2: a recipient may take it for CRLF), as
   * some small servers write them.
   */
  private headEnd(buffer: Buffer, from: number, end: number): number {
    const tail = this.headTail;
    if (tail) {
      const joint = BLANK_LINE.exec(tail + buffer.toString('latin1', from, Math.min(end, from + 2)));
      if (joint) return from + joint.index + joint[0].length - tail.length;
    }
    const bytes = buffer.subarray(from, end);
    const crlf = bytes.indexOf('\n\r\n');
    // LF alone only before it: not a scan of the whole read (body bytes included) per answer.
    const lf = (crlf < 0 ? bytes : bytes.subarray(0, crlf + 1)).indexOf('\n\n');
    if (lf >= 0) return from + lf + 2;
    return crlf < 0 ? -1 : from + crlf + 3;
  }

  /**
   * Reads body bytes from buffer[start, end), handing each piece of content
   * to `onPiece` (a view of `buffer`, valid during the call). Returns the
   * offset just past the body when it ended in this range, else -1.
   */
  readBody(buffer: Buffer, start: number, end: number, onPiece: (piece: Buffer) => void): number {
    const framing = this.framing;
    if (!framing) throw new Error('readBody before the head');
    if (this.done) return start;
    if (framing.kind === 'close') {
      if (end > start) onPiece(buffer.subarray(start, end));
      return -1;
    }
    if (framing.kind === 'length') {
      const take = Math.min(framing.left, end - start);
      if (take > 0) onPiece(buffer.subarray(start, start + take));
      framing.left -= take;
      if (framing.left > 0) return -1;
      this.done = true;
      return start + take;
    }
    return this.readChunked(framing, buffer, start, end, onPiece);
  }

  private readChunked(framing: Extract<Framing, { kind: 'chunked' }>, buffer: Buffer, start: number, end: number, onPiece: (piece: Buffer) => void): number {
    let i = start;
    while (i < end) {
      if (framing.state === 'data') {
        const take = Math.min(framing.left, end - i);
        onPiece(buffer.subarray(i, i + take));
        framing.left -= take;
        i += take;
        if (framing.left === 0) framing.state = 'data-end';
        continue;
      }
      // Framing lines, byte by byte: a few bytes per chunk.
      const byte = buffer[i++]!;
      if (byte !== 0x0a) {
        if (framing.line.length >= MAX_FRAMING_LINE) throw new BadAnswerError('a chunk framing line too long');
        framing.line += String.fromCharCode(byte);
        continue;
      }
      const line = framing.line.endsWith('\r') ? framing.line.slice(0, -1) : framing.line;
      framing.line = '';
      if (framing.state === 'size') {
        const size = chunkSize(line);
        if (size === 0) framing.state = 'trailer';
        else [framing.state, framing.left] = ['data', size];
      } else if (framing.state === 'data-end') {
        if (line !== '') throw new BadAnswerError('a chunk longer than its size');
        framing.state = 'size';
      } else if (line === '') {
        // The empty line after the trailers: the body is whole.
        this.done = true;
        return i;
      } else if ((this.trailerBytes += line.length + 2) > MAX_HEAD_BYTES) {
        throw new BadAnswerError(`trailers of more than ${MAX_HEAD_BYTES} bytes after the body`);
      } else {
        // A trailer is a header line (read, then dropped): held to the same rules.
        headerField(line);
      }
    }
    return -1;
  }
}

function parseHead(text: string): AnswerHead {
  const lines = text.split(/\r?\n/);
  const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0]!);
  if (!statusLine) throw new BadAnswerError(`a status line ${shown(lines[0]!)}`);
  if (lines.length - 1 > MAX_HEADER_LINES) throw new BadAnswerError(`more than ${MAX_HEADER_LINES} header lines`);
  // No prototype: a header named __proto__ is a header like any other.
  const headers: Headers = Object.create(null) as Headers;
  for (const line of lines.slice(1)) {
    const [name, value] = headerField(line);
    const before = headers[name];
    // Repeats added in place: a copy per repeat made 16,000 of them take 6 s.
    if (before === undefined) headers[name] = value;
    else if (Array.isArray(before)) before.push(value);
    else headers[name] = [before, value];
  }
  const connection = String(headers.connection ?? '').toLowerCase();
  // An HTTP/1.0 answer with a transfer-encoding is framed faultily, whatever it says of the connection: closed after it (RFC 9112 6.1).
  const keepAlive = statusLine[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection) && headers['transfer-encoding'] === undefined;
  return { status: Number(statusLine[2]), headers, keepAlive };
}

/**
 * One header (or trailer) line: its name, lowercased, and its value without
 * the blanks around it. A line that starts with a blank (an obs-fold, an old
 * server's continuation) is refused, as llhttp refuses it
 * (test/unit/http1-fuzz.test.ts): RFC 9112 5.2 lets a user agent refuse it.
 */
function headerField(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon <= 0 || /^[ \t]/.test(line)) throw new BadAnswerError(`a header line ${shown(line)}`);
  const name = line.slice(0, colon).toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) throw new BadAnswerError(`a header name ${shown(name)}`);
  const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  // A CR, a NUL or an ESC in a value would reach the terminal with --verbose, or cut the header in two for another reader.
  if (!HEADER_VALUE.test(value)) throw new BadAnswerError(`a control character in the value of the header ${shown(name)}`);
  return [name, value];
}

function framingOf(head: AnswerHead, method: string): Framing {
  if (method === 'HEAD' || head.status === 204 || head.status === 304) return { kind: 'length', left: 0 };
  // Both: a server or a proxy between frames answers its own way (RFC 9112 6.3: smuggling or splitting); llhttp refuses it too.
  if (head.headers['transfer-encoding'] !== undefined && head.headers['content-length'] !== undefined) throw new BadAnswerError('both a content-length and a transfer-encoding');
  // `identity` (an old server's) codes nothing.
  const codings = String(head.headers['transfer-encoding'] ?? '').toLowerCase().split(',').map((part) => part.trim()).filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > 0) {
    // ahs sends no TE: chunked is the only transfer coding a server may use (RFC 9112 7.4). Another (gzip) would be saved still coded, not as the file.
    const other = codings.find((coding) => coding !== 'chunked');
    if (other !== undefined) throw new BadAnswerError(`a body in the transfer coding ${shown(other)}, which ahs did not ask for and does not decode`);
    if (codings.length > 1) throw new BadAnswerError('a body chunked twice');
    return { kind: 'chunked', state: 'size', left: 0, line: '' };
  }
  const length = head.headers['content-length'];
  if (length === undefined) return { kind: 'close' };
  // One length, digits only: two of them, even equal, mean a server or a proxy between that frames answers its own way (RFC 9112 6.3; undici refuses them too).
  if (Array.isArray(length) || length.includes(',')) throw new BadAnswerError(`more than one content-length ${shown(String(length))}`);
  if (!/^\d{1,15}$/.test(length)) throw new BadAnswerError(`a content-length ${shown(length)}`);
  return { kind: 'length', left: Number(length) };
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const CHUNK_SIZE_LINE = new RegExp(`^0*([0-9a-fA-F]{1,13})(?:;${TOKEN}(?:=(?:${TOKEN}|"(?:[\\t\\x20\\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t\\x20-\\x7e\\x80-\\xff])*"))?)*$`);

function chunkSize(line: string): number {
  // Leading zeros are no part of the size (a server may pad it to a fixed width); 13 hex digits stay below 2^53.
  // Extensions (`;name`, `;name=token`, `;name="quoted"`) are skipped; no blank before them (llhttp refuses one).
  const digits = CHUNK_SIZE_LINE.exec(line);
  if (!digits) throw new BadAnswerError(`a chunk size ${shown(line)}`);
  return parseInt(digits[1]!, 16);
}
