// Connections opened ahead of the requests that will use them. undici opens
// a connection only once a request is queued for it (nodejs/undici#317), so
// the first uploads of `item sync`, `item upload` and `release`, which follow
// the command's first reads, paid their TCP handshake (and TLS's, one round
// trip more) after those reads' round trip. Opened while the reads are in
// flight, they are paid in its shadow (bench/README.md, "Connection set-up").
//
// A warm connection is handed to the next connection undici asks for to the
// same origin, so the pool never holds more than its limit: undici asks only
// for as many as it may open, and one still connecting is waited for rather
// than opened beside. Those never asked for are closed with the transport
// (unreferenced meanwhile: they never keep the process alive).
import type { Socket } from 'node:net';
import type { buildConnector as BuildConnector } from 'undici';

type Connector = BuildConnector.connector;
type ConnectOptions = BuildConnector.Options;

interface Warm {
  socket?: Socket;
  /** When it was asked for (Date.now()). */
  openedAt: number;
  /** Settles once the connection is made (undefined) or failed (its error). */
  ready: Promise<Error | undefined>;
}

export class WarmConnections {
  private readonly byOrigin = new Map<string, Warm[]>();
  /** Per origin, the connections still to open as warm ones are taken: the uploads announced beyond those open now. */
  private readonly toReplace = new Map<string, { url: string; left: number }>();
  /** Closed with the transport: a command may end before its uploads' connections were asked for, and one still connecting would hold the process open. */
  private closed = false;

  constructor(
    private readonly connect: Connector,
    /** A warm connection older than this is closed rather than handed out (it may have been dropped by an idle timeout on the way). */
    private readonly maxAgeMs = Infinity,
  ) {}

  /**
   * Opens up to `count` connections to `url`'s origin, beside those already
   * warm; with `expected` (the uploads to come, more than `count`), each one
   * taken is replaced by a new one until that many were opened: every write
   * goes on a connection of its own (transport.ts), and the next upload's is
   * then opened while the ones before are in flight.
   */
  open(url: string, count: number, expected = count): void {
    if (this.closed) return;
    const { protocol, port, host, hostname: named } = new URL(url);
    // An IPv6 literal without its brackets, as undici's client gives its connector ([::1] is no host name to look up).
    const hostname = named.replace(/^\[(.*)\]$/, '$1');
    const key = originKey(protocol, hostname, port);
    const warm = this.byOrigin.get(key) ?? [];
    this.byOrigin.set(key, warm);
    const opening = Math.max(0, count - warm.length);
    if (expected > count) this.toReplace.set(key, { url, left: expected - count });
    for (let index = 0; index < opening; index++) {
      const entry: Warm = { ready: Promise.resolve(undefined), openedAt: Date.now() };
      entry.ready = new Promise((settle) => {
        const socket = this.connect({ protocol, hostname, host, port } as ConnectOptions, (error, connected) => {
          if (error || !connected) return settle(error ?? new Error('no connection'));
          connected.unref();
          settle(undefined);
        }) as unknown as Socket | undefined;
        entry.socket = socket;
      });
      warm.push(entry);
    }
  }

  /** undici's connector: a warm connection to the origin when there is one still open, else a new one. */
  connector(): Connector {
    return (options, callback) => {
      const key = originKey(options.protocol, options.hostname, String(options.port ?? ''));
      const entry = this.byOrigin.get(key)?.shift();
      const replace = this.toReplace.get(key);
      if (replace && replace.left > 0) {
        replace.left--;
        this.open(replace.url, (this.byOrigin.get(key)?.length ?? 0) + 1, 0);
      }
      if (!entry) return this.connect(options, callback);
      void entry.ready.then((error) => {
        const socket = entry.socket;
        // A host that did not answer in the connect timeout: its error is this one's (no second wait).
        if (isConnectTimeout(error)) return callback(error!, null);
        if (socket && isOpen(socket) && Date.now() - entry.openedAt <= this.maxAgeMs) {
          socket.ref();
          return callback(null, socket);
        }
        // Refused, reset or closed by the other end since it was opened (a server may drop a connection that
        // sent nothing), or too old to be sure it was not: a new one, which reports its own failure if there is still one.
        socket?.destroy();
        this.connect(options, callback);
      });
    };
  }

  /** Closes the connections never handed out. */
  close(): void {
    this.closed = true;
    this.toReplace.clear();
    for (const warm of this.byOrigin.values()) for (const entry of warm) entry.socket?.destroy();
    this.byOrigin.clear();
  }
}

function originKey(protocol: string, hostname: string, port: string): string {
  const https = protocol === 'https:';
  return `${protocol}//${hostname.toLowerCase()}:${port || (https ? '443' : '80')}`;
}

function isConnectTimeout(error: Error | undefined): boolean {
  return (error as { code?: string } | undefined)?.code === 'UND_ERR_CONNECT_TIMEOUT';
}

/** Connected, and neither end has closed it since. */
function isOpen(socket: Socket): boolean {
  return !socket.destroyed && socket.readyState === 'open' && !socket.readableEnded;
}
