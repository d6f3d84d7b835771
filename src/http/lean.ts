// The lean transport (issue 21): delivery downloads only (the bytes of
// versions and items, client.ts transportFor and transfer/download.ts), a
// GET over plain `net`/`tls` sockets, each connection reading with `onread`
// into one buffer of its own, reused for every read, every piece of the
// body handed synchronously to the consumer (body.ts), which writes it and
// hashes it in place. node:http and undici allocate a buffer per read; on a
// 1 GiB download that was 42k to 93k page faults and 2.7 s of CPU against
// curl's 1.3 s (bench/README.md). Every request to the API goes through
// undici (client.ts); the answers this parser reads (http1.ts) are checked
// against llhttp's by test/unit/http1-fuzz.test.ts.
//
// Keep-alive connections are pooled per origin, at most `connections` to
// one (--concurrency); a request beyond them waits for one to be free. A
// connection whose server closed it after its answer is never handed out
// again; one it closed while the next GET was sent (nothing received) is
// retried once on a new one: a GET has no effect. Failures carry the codes
// undici gives the same events, so errors.ts and download.ts word them
// alike whatever the transport.
import { connect as netConnect, type Socket } from 'node:net';
import type * as Tls from 'node:tls';
import { AnswerParser } from './http1.js';
import { collectText, prematureClose, type AnswerBody } from './body.js';
import type { Transport, TransportAnswer, TransportRequest } from './transport.js';

/**
 * Bytes read at a time, per connection. 256 KiB: nginx's sendfile fills
 * it on loopback; the bare client of issue 21 read 1 GiB in 0.5 s with it.
 */
const READ_BUFFER_BYTES = 256 * 1024;

interface TlsSetup {
  connector: typeof Tls;
  options: Tls.ConnectionOptions;
}

interface Origin {
  secure: boolean;
  host: string;
  port: number;
}

/**
 * The lean transport: a GET or a HEAD, no body, no proxy. `tlsOptions`
 * add to what each TLS connection is made with (tests: the CA of their
 * own server); the system's CAs and NODE_EXTRA_CA_CERTS otherwise.
 */
export function leanTransport(connections = Infinity, tlsOptions: Tls.ConnectionOptions = {}): Transport {
  const pools = new Map<string, OriginPool>();
  let tls: Promise<typeof Tls> | undefined;
  const poolFor = async (target: URL): Promise<OriginPool> => {
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') throw new Error(`cannot download a ${target.protocol} URL`);
    const connector = secure ? await (tls ??= import('node:tls')) : undefined;
    let pool = pools.get(target.origin);
    if (!pool) {
      const origin = { secure, host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || (secure ? 443 : 80)) };
      pools.set(target.origin, (pool = new OriginPool(origin, connections, connector && { connector, options: tlsOptions })));
    }
    return pool;
  };
  const destroy = async () => {
    for (const pool of pools.values()) pool.destroy();
    pools.clear();
  };
  return {
    async request(url, init) {
      if (init.body !== undefined || (init.method !== 'GET' && init.method !== 'HEAD')) throw new Error('the lean transport carries downloads only (a GET without a body); the API goes through undici');
      const target = new URL(url);
      const pool = await poolFor(target);
      const message = Buffer.from(requestHead(init.method, target, init.headers), 'latin1');
      return new Promise<TransportAnswer>((resolve, reject) => new Exchange(pool, message, init, resolve, reject).start(false));
    },
    destroy,
    close: destroy,
  };
}

/**
 * The request's head, as sent: a value with a line break would smuggle a
 * header in, and is refused. It asks for the bytes as stored
 * (`accept-encoding: identity`) unless told otherwise: a request without
 * the header accepts any content coding (RFC 9110 12.5.3), and this
 * transport decodes none, so a server free to gzip a file would have it
 * saved, and hashed, gzipped.
 */
function requestHead(method: string, target: URL, headers: Record<string, string>): string {
  let text = `${method} ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\n`;
  let encoding = false;
  for (const [name, value] of Object.entries(headers)) {
    // A line break would smuggle a header in; a character beyond latin1 would be written as another one.
    if (/[\r\n]/.test(name) || /[^\t\x20-\x7e\x80-\xff]/.test(value)) throw new Error(`the header ${JSON.stringify(name)} has a character an HTTP header cannot carry`);
    const lower = name.toLowerCase();
    encoding ||= lower === 'accept-encoding';
    if (lower !== 'host') text += `${name}: ${value}\r\n`;
  }
  if (!encoding) text += 'accept-encoding: identity\r\n';
  const credentials = userinfo(target);
  if (credentials && !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) text += `authorization: Basic ${credentials}\r\n`;
  return `${text}\r\n`;
}

/**
 * A URL's `user:password@`, as Basic credentials: what node:http (the
 * delivery document's read) and curl send for it, so a file is asked for
 * as its document was. undefined without one.
 */
function userinfo(target: URL): string | undefined {
  if (!target.username && !target.password) return undefined;
  return Buffer.from(`${percentDecoded(target.username)}:${percentDecoded(target.password)}`, 'utf8').toString('base64');
}

/** A URL's part decoded; as written when it holds a `%` that escapes nothing. */
function percentDecoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** One origin's connections: idle ones kept alive, at most `max` open, requests beyond them queued. */
class OriginPool {
  private readonly idle: Connection[] = [];
  private readonly waiting: Array<{ give: (connection: Connection) => void }> = [];
  /** Every connection open, idle or not (destroy() closes them all). */
  private readonly all = new Set<Connection>();
  private open = 0;

  constructor(
    readonly origin: Origin,
    private readonly max: number,
    private readonly tls: TlsSetup | undefined,
  ) {}

  /** A connection for one request: an idle one (unless `fresh`), a new one, or the next one freed. */
  acquire(fresh: boolean): { connection?: Connection; wait?: Promise<Connection>; cancel?: () => void } {
    while (!fresh && this.idle.length > 0) {
      const idle = this.idle.pop()!;
      // Closed by the server while idle (its close not yet told): another one.
      if (!idle.usable()) {
        idle.socket.destroy();
        continue;
      }
      if (idle.settled) return { connection: idle.take() };
      // Released in this turn of the event loop or the last: a server that closes right after its answer
      // (without `Connection: close`: a gateway, a server at its keep-alive limit) has its FIN read two turns
      // later, and the connection is not handed to this download then, which met the close and went again
      // on a new one (test/faults/hostile-server.test.ts).
      const wait = idle.settling.then(() => {
        if (idle.usable()) return idle.take();
        idle.socket.destroy();
        // Its close frees its room (dropped()), which this request waits for as any other beyond the limit.
        return new Promise<Connection>((give) => this.waiting.unshift({ give }));
      });
      return { wait };
    }
    if (this.open >= this.max && fresh && this.idle.length > 0) this.idle.shift()!.socket.destroy();
    if (this.open < this.max) return { connection: this.connect() };
    let entry!: { give: (connection: Connection) => void };
    const wait = new Promise<Connection>((give) => this.waiting.push((entry = { give })));
    const cancel = () => {
      const at = this.waiting.indexOf(entry);
      if (at >= 0) this.waiting.splice(at, 1);
    };
    return { wait, cancel };
  }

  /** A connection done with its answer, still good for another. */
  release(connection: Connection): void {
    connection.idled = true;
    connection.settled = false;
    connection.settling = new Promise<void>((settle) => setImmediate(() => setImmediate(() => ((connection.settled = true), settle()))));
    const next = this.waiting.shift();
    if (next) next.give(connection.take());
    else this.idle.push(connection.park());
  }

  /** A connection closed (by either side): room for a new one. */
  dropped(connection: Connection): void {
    this.open--;
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    const next = this.waiting.shift();
    if (next) next.give(this.connect());
  }

  destroy(): void {
    this.waiting.length = 0;
    for (const connection of this.idle.splice(0)) connection.socket.destroy();
    for (const connection of this.all) connection.socket.destroy();
  }

  private connect(): Connection {
    this.open++;
    const connection = new Connection(this, this.tls);
    this.all.add(connection);
    connection.socket.once('close', () => this.all.delete(connection));
    return connection;
  }
}

/** One socket and its read buffer; the exchange it serves gets every read. */
class Connection {
  readonly socket: Socket;
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  exchange?: Exchange;
  /** It carried an answer before: the server may have closed it since. */
  idled = false;
  /** Two turns of the event loop have passed since its last answer (OriginPool.acquire). */
  settled = true;
  settling: Promise<void> = Promise.resolve();
  connected = false;
  /** Over TLS: reads may still come after pause() (Exchange.hold). */
  readonly secure: boolean;
  lastError?: Error;

  constructor(
    private readonly pool: OriginPool,
    tls: TlsSetup | undefined,
  ) {
    const { host, port } = pool.origin;
    this.secure = tls !== undefined;
    const onread = { buffer: this.buffer, callback: (bytes: number, buffer: Buffer) => this.onRead(bytes, buffer) };
    // tls.connect honours onread as net.connect does (Node 20.20: every read into this buffer; test/unit/lean-transport.test.ts).
    this.socket = tls
      ? tls.connector.connect({ ...tls.options, host, port, servername: isIp(host) ? undefined : host, ALPNProtocols: ['http/1.1'], onread } as Tls.ConnectionOptions)
      : netConnect({ host, port, onread });
    this.socket.once(tls ? 'secureConnect' : 'connect', () => (this.connected = true));
    this.socket.on('error', (error) => (this.lastError ??= error));
    this.socket.on('timeout', () => this.exchange?.timedOut());
    this.socket.once('close', () => {
      const exchange = this.exchange;
      this.exchange = undefined;
      this.pool.dropped(this);
      exchange?.closed(this.lastError);
    });
  }

  /** Neither end has closed it: a request may be written on it. */
  usable(): boolean {
    return !this.socket.destroyed && this.socket.writable && !this.socket.readableEnded;
  }

  /** Out of the idle list, for a request: it holds the process open again. */
  take(): this {
    this.socket.ref();
    return this;
  }

  /** Into the idle list: an idle connection does not keep the process alive, nor times out. */
  park(): this {
    this.socket.setTimeout(0);
    this.socket.unref();
    return this;
  }

  /** Each read; true: read on (the exchange pauses the socket itself when its consumer is not there yet). */
  private onRead(bytes: number, buffer: Buffer): boolean {
    // Bytes while idle are no answer to anything: the connection cannot be trusted.
    if (!this.exchange) this.socket.destroy();
    else this.exchange.received(buffer, bytes);
    return true;
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** One request on one connection: its answer's head, then its body, handed over in place. */
class Exchange implements AnswerBody {
  private readonly parser: AnswerParser;
  private connection?: Connection;
  private cancelWait?: () => void;
  private retried = false;
  private receivedAny = false;
  /** Body bytes read before consume(), held (the socket paused) until it is called. */
  private pending: Buffer[] = [];
  private onPiece?: (piece: Buffer) => void;
  private finish?: { resolve: () => void; reject: (error: Error) => void };
  /** The body's failure before consume() was called, given to it then. */
  private failure?: Error;
  private answered = false;
  private over = false;

  constructor(
    private readonly pool: OriginPool,
    private readonly message: Buffer,
    private readonly init: TransportRequest,
    private readonly resolveAnswer: (answer: TransportAnswer) => void,
    private readonly rejectAnswer: (error: Error) => void,
  ) {
    this.parser = new AnswerParser(init.method);
  }

  /** Sends the request on a connection of the pool; `retry`: on a new one, the first having closed unanswered. */
  start(retry: boolean): void {
    if (this.init.signal.aborted) return this.fail(abortError(this.init.signal));
    if (!retry) this.init.signal.addEventListener('abort', this.onAbort, { once: true });
    const { connection, wait, cancel } = this.pool.acquire(retry);
    if (connection) return this.send(connection);
    this.cancelWait = cancel;
    void wait!.then((free) => {
      this.cancelWait = undefined;
      if (this.over) this.pool.release(free);
      else this.send(free);
    });
  }

  private send(connection: Connection): void {
    this.connection = connection;
    connection.exchange = this;
    connection.socket.setTimeout(this.init.timeoutMs);
    connection.socket.write(this.message);
  }

  /** Each read of the connection. */
  received(buffer: Buffer, bytes: number): void {
    this.receivedAny = true;
    if (this.over) return;
    let start = 0;
    if (!this.answered) {
      try {
        start = this.parser.readHead(buffer, 0, bytes);
      } catch (error) {
        return this.fail(error as Error);
      }
      if (start < 0) return;
      this.answered = true;
      const { status, headers } = this.parser.head!;
      if (!this.parser.done) {
        // The consumer is not there yet: hold the rest of this read, read no more until it is.
        this.hold(buffer, start, bytes);
        this.connection!.socket.pause();
        this.connection!.socket.setTimeout(0);
      }
      this.resolveAnswer({ statusCode: status, headers, body: this });
      if (this.parser.done) this.complete(start < bytes);
      return;
    }
    if (!this.onPiece) return this.hold(buffer, start, bytes);
    this.readBody(buffer, start, bytes);
  }

  /**
   * Keeps body bytes read before consume(). Over TCP, pause() stops the
   * reads at once: the bytes wait in place, in the read buffer. Over TLS,
   * the records already decrypted keep coming after pause(), each one
   * written over the buffer (TLSWrap::ClearOut), so the bytes held are
   * copied: at most what one read of the socket decrypted.
   */
  private hold(buffer: Buffer, start: number, end: number): void {
    if (end <= start) return;
    const bytes = buffer.subarray(start, end);
    this.pending.push(this.connection!.secure ? Buffer.from(bytes) : bytes);
  }

  consume(onPiece: (piece: Buffer) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.finish || this.onPiece) return reject(new Error('the body is read once'));
      if (this.failure) return reject(this.failure);
      if (this.over) return resolve();
      this.finish = { resolve, reject };
      this.onPiece = onPiece;
      while (this.pending.length > 0) {
        const held = this.pending.shift()!;
        this.readBody(held, 0, held.length);
        if (this.over) return;
      }
      this.connection!.socket.setTimeout(this.init.timeoutMs);
      this.connection!.socket.resume();
    });
  }

  text(): Promise<string> {
    return collectText(this);
  }

  destroy(error?: Error): void {
    if (!this.over) this.fail(error ?? prematureClose());
  }

  private readBody(buffer: Buffer, start: number, end: number): void {
    let after: number;
    try {
      after = this.parser.readBody(buffer, start, end, this.onPiece!);
    } catch (error) {
      return this.fail(error as Error);
    }
    // Bytes after the body, in this read or held for the next: more than the answer.
    if (after >= 0) this.complete(after < end || this.pending.length > 0);
  }

  /** The body is whole: the connection goes back to the pool, unless more came than the answer (or the server said close). */
  private complete(extraBytes: boolean): void {
    const connection = this.connection!;
    this.end();
    connection.exchange = undefined;
    if (extraBytes || !this.parser.head!.keepAlive) connection.socket.destroy();
    else {
      connection.socket.resume();
      this.pool.release(connection);
    }
    this.finish?.resolve();
  }

  /** The connection closed under this exchange. */
  closed(error: Error | undefined): void {
    if (this.over) return;
    if (this.parser.endsWithClose && this.answered && !error) {
      // A body without a length ends with its connection.
      this.end();
      this.finish?.resolve();
      return;
    }
    if (!this.receivedAny && !this.retried && this.connection?.idled && (this.init.method === 'GET' || this.init.method === 'HEAD')) {
      // A kept-alive connection the server closed while we sent: a GET that nothing answered is safe to send again, once.
      this.retried = true;
      this.connection = undefined;
      return this.start(true);
    }
    this.fail(this.answered ? socketClosed(error) : (error ?? socketClosed(undefined)));
  }

  timedOut(): void {
    const connection = this.connection;
    if (this.over || !connection) return;
    const code = !connection.connected ? 'UND_ERR_CONNECT_TIMEOUT' : this.answered ? 'UND_ERR_BODY_TIMEOUT' : 'UND_ERR_HEADERS_TIMEOUT';
    this.fail(Object.assign(new Error(this.answered ? 'the answer stalled' : 'no answer'), { code }));
  }

  private readonly onAbort = () => this.fail(abortError(this.init.signal));

  private fail(error: Error): void {
    if (this.over) return;
    const connection = this.connection;
    this.end();
    this.cancelWait?.();
    if (connection) {
      connection.exchange = undefined;
      connection.socket.destroy();
    }
    if (!this.answered) this.rejectAnswer(error);
    else if (this.finish) this.finish.reject(error);
    else this.failure = error;
  }

  private end(): void {
    this.over = true;
    this.pending.length = 0;
    this.init.signal.removeEventListener('abort', this.onAbort);
    this.connection?.socket.setTimeout(0);
  }
}

/** A body cut short: undici's code and words for it ("connection closed before the file was complete", download.ts). */
function socketClosed(cause: Error | undefined): Error {
  return Object.assign(new Error('other side closed', { cause }), { code: 'UND_ERR_SOCKET' });
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}
