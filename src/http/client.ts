// The HTTP layer (never fetch): every request to the service's API goes
// through undici `request` (transport.ts), one pool and one set of timeouts;
// the hand-written reader (lean.ts) carries delivery downloads only (send()
// of a GET: the bytes of versions and items). Builds /api/v2/{domainId}/...
// paths, sends the apikey header, maps error answers to ApiError and transport
// failures to NetworkError, retries by the one RetryPolicy (retry.ts, within
// --retries and --timeout): reads on network errors (a body that breaks off
// included) and 502/503/504, any request on a 429, honouring Retry-After (a
// write only when it surely never left this machine or was refused by a
// 429; a write whose answer was lost, or answered by a gateway, is an
// AnswerLostError for the executor to settle), checks every success answer
// (no redirects, JSON of the expected shape, at most MAX_JSON_BYTES),
// honours HTTP(S)_PROXY/NO_PROXY (a proxy's failure named as the proxy's)
// and traces on stderr with --verbose, key redacted.
import { setMaxListeners } from 'node:events';
import type { Writable } from 'node:stream';
import { ApiError, CancelledError, ConflictError, NetworkError, UsageError } from '../errors.js';
import { AnswerLostError, GatewayAnswerError, NotNeededError, ProxyError, UnexpectedAnswerError, apiError, certificateRefused, errorCode, gatewayAnswer, neverSent, StatusOutOfRangeError, toNetworkError, isAbort, transportReason } from './errors.js';
import { RetryPolicy, WaitTooLongError, type Clock, type RetryBudget } from './retry.js';
import { API_ACCEPT_ENCODING, MAX_JSON_BYTES, checkJson, readCapped, type ResponseSchema } from './responses.js';
import { Redactor } from './redact.js';
import { proxyAuthenticationRequired, proxyConfigured, undiciTransport, type Transport, type TransportAnswer } from './transport.js';
import { leanTransport } from './lean.js';
import type { AnswerBody } from './body.js';
import { escapeControls } from '../util/escape.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | boolean | undefined | null>;
export type { ResponseSchema } from './responses.js';

/** A request body that is streamed (multipart uploads): a factory so that it could be rebuilt. */
export interface StreamBody {
  contentType: string;
  length: number;
  /** The body, piece by piece (a new pass each time: a retry sends it again). */
  open(): AsyncIterable<Uint8Array>;
}

export interface RequestOptions {
  method: Method;
  /** A path starting with '/' (resolved against the base URL) or an absolute URL. */
  path: string;
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Streamed body (multipart). */
  stream?: StreamBody;
  /** Send the apikey header (default true). */
  auth?: boolean;
  /** Treat a 400 as "the thing named does not exist" (exit 4). */
  notFound?: boolean;
  /** Override: retry this request on network errors and 502/503/504 (default: only GET/HEAD). */
  idempotent?: boolean;
  headers?: Record<string, string>;
  /**
   * The shape the spec gives the success answer (a zod schema, e.g. from
   * rules/schemas.ts). json() checks it and returns the body as received,
   * extra fields included: the service may add fields.
   */
  schema?: ResponseSchema;
}

/** A GET the service answered: what was asked, the status, and the parsed body of a success. */
export interface ObservedRead {
  path: string;
  query: Query;
  status: number;
  body: unknown;
}
export type ReadListener = (read: ObservedRead) => void;

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Read piece by piece, each piece in place (body.ts). */
  body: AnswerBody;
  url: string;
}

/** What a person sees while a request waits (spinner, retry notices); see io/feedback.ts. */
export interface RequestFeedback {
  /**
   * A request starts waiting for its answer: "GET /va", and the request's
   * parts for saying it in the user's terms (io/activity.ts); returns the
   * function that ends the wait.
   */
  waiting(request: string, shape?: { method: string; path: string; query: URLSearchParams; body?: unknown }): () => void;
  /** One line saying a retry is about to happen. */
  retrying(notice: string): void;
  /** Each attempt of every request, as it is sent ("GET /va/A": the label messages use). */
  sent?(method: string, label: string): void;
  /** Its answer's status (null: it failed without one) after `ms`. */
  answered?(method: string, label: string, status: number | null, ms: number): void;
}

export interface ClientOptions {
  baseUrl: string;
  domainId?: string;
  apiKey?: string;
  /** The budget of one request, its retries included (--timeout). */
  timeoutMs: number;
  retries: number;
  signal?: AbortSignal;
  /** Trace requests/responses here (stderr) when set. */
  trace?: Writable;
  redactor?: Redactor;
  env?: NodeJS.ProcessEnv;
  userAgent?: string;
  /** Base delay of the retry backoff (tests make it small). */
  backoffMs?: number;
  /** The retry policy's clock (unit tests). */
  clock?: Clock;
  feedback?: RequestFeedback;
  /** Largest JSON answer accepted (default MAX_JSON_BYTES; tests make it small). */
  maxJsonBytes?: number;
  /**
   * The most connections open to one host at once (default: no limit); a
   * request beyond them waits for one to be free. Set to the number of
   * requests a command sends at once (fetch's --concurrency).
   */
  connections?: number;
  /** In-process tests: scripted transports in place of undici (`api`) and the download reader (`downloads`). */
  transports?: { api?: Transport; downloads?: Transport };
  /** How a message names the request budget: the CLI's --timeout in seconds (default), the library's timeoutMs. */
  budgetWords?: BudgetWords;
}

/** The request budget as a message names it to whoever set it. */
export interface BudgetWords {
  /** `--timeout`, `timeoutMs`. */
  name: string;
  /** An amount of time in the budget's unit: `1.5 s`, `1500 ms`. */
  amount(ms: number): string;
  /** How to give more: `--timeout SECONDS`, `a larger timeoutMs`. */
  more: string;
  /**
   * Where the service's address is set, for a host that cannot be reached:
   * the CLI's `--base-url / AHS_BASE_URL, --delivery-url for downloads`
   * (default), the library's `the client's baseUrl (deliveryUrl for downloads)`.
   */
  address?: string;
}

export const CLI_BUDGET: BudgetWords = { name: '--timeout', amount: (ms) => seconds(ms), more: '--timeout SECONDS' };

declare const AHS_VERSION: string;
const USER_AGENT = `ahs-cli/${typeof AHS_VERSION === 'string' ? AHS_VERSION : 'dev'} node/${process.versions.node}`;
/** Visible ASCII and inner blanks: what an HTTP header value may hold. */
const VALID_HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
const RETRY_STATUSES = new Set([502, 503, 504]);
const TRACE_BODY_LIMIT = 4000;
const TRACE_EXCERPT = 200;

/** A success answer: the headers, and the body read as text when asked for. */
interface Answer {
  response: RawResponse;
  text?: string;
  /** The request as messages name it (describe()). */
  label: string;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly domainId: string | undefined;
  private readonly redactor: Redactor;
  /** The service's clock minus this machine's, from the Date header of the latest answer (0 before any). */
  private clockOffsetMs = 0;
  private readonly env: NodeJS.ProcessEnv;
  /** The delivery downloads' transport (lean.ts), made at the first download. */
  private downloads?: Transport;
  private undici?: Promise<Transport>;
  /** Retries, backoff, Retry-After and the --timeout budget: one policy (retry.ts), also for callers that wait something out. */
  readonly policy: RetryPolicy;
  private readonly readListeners = new Set<ReadListener>();
  private parsedBaseOrigin?: string;
  /** Aborted by destroy(): every request still in flight or waiting to retry is one the command no longer needs. */
  private readonly unneeded = new AbortController();

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.domainId = options.domainId;
    this.redactor = options.redactor ?? new Redactor();
    this.redactor.add(options.apiKey);
    this.env = options.env ?? process.env;
    this.policy = RetryPolicy.fromSettings(options, { signal: options.signal, baseMs: options.backoffMs, clock: options.clock });
    // Each attempt in flight listens to it (attemptSignal, removed when the attempt ends): 20 downloads at once are
    // 20 listeners, not a leak; Node's default of 10 printed a MaxListenersExceededWarning on the user's stderr.
    setMaxListeners(0, this.unneeded.signal);
  }

  /**
   * Starts loading undici (the first request of a command loads it anyway)
   * and opens the connections of its first `uploads` (at most the pool's
   * limit) while the command's first reads are in flight: their handshakes
   * are then paid in the reads' round trip (warm.ts). A failure here is the
   * first upload's to report.
   */
  prepareUploads(uploads = 1): void {
    this.undiciTransport()
      .then((ready) => ready.preconnect?.(this.baseUrl, uploads))
      .catch(() => {});
  }

  private undiciTransport(): Promise<Transport> {
    const scripted = this.options.transports?.api;
    return (this.undici ??= scripted ? Promise.resolve(scripted) : undiciTransport(this.env, this.options.timeoutMs, this.options.connections));
  }

  /**
   * The transport for a request (see transport.ts). Every request to the
   * API (JSON reads and writes, uploads, anything through a proxy) goes
   * through undici: one pool per host, at most `connections`, one set of
   * timeouts. A delivery download (send() of a GET, its body streamed to a
   * file or a hash) goes on the lean transport (lean.ts), which reads into
   * one buffer per connection and hands each piece over in place: a 1 GiB
   * download at curl's pace, where undici and node:http allocate a buffer
   * per read (bench/README.md). Through a proxy, downloads go through
   * undici too (EnvHttpProxyAgent).
   */
  private transportFor(options: RequestOptions, readBody: boolean): Promise<Transport> {
    if (!readBody && options.method === 'GET' && !proxyConfigured(this.env)) return Promise.resolve((this.downloads ??= this.options.transports?.downloads ?? leanTransport(this.options.connections)));
    return this.undiciTransport();
  }

  /** `/api/v2/{domainId}/seg/seg...`, every segment URL-encoded. */
  path(...segments: string[]): string {
    if (!this.domainId) throw new Error('ApiClient.path needs a domainId');
    return `/api/v2/${[this.domainId, ...segments].map(encodeURIComponent).join('/')}`;
  }

  url(path: string, query?: Query): string {
    const url = /^https?:\/\//i.test(path) ? new URL(path) : new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /**
   * Sends a request and returns its JSON answer, checked: an empty answer is
   * undefined only for a 204 or a DELETE; anything else that is not a JSON
   * object or array (of `schema`'s shape when given) is an
   * UnexpectedAnswerError. Throws ApiError on >= 400.
   */
  async json<T = unknown>(options: RequestOptions): Promise<T> {
    let body: T;
    try {
      const { response, text = '', label } = await this.exchange(options, true);
      this.traceBody('<', text);
      body = checkJson(label, response.status, response.headers, text, {
        emptyAllowed: response.status === 204 || options.method === 'DELETE',
        schema: options.schema,
      }) as T;
    } catch (error) {
      // "Not there" is something a plan rests on too (an asset it will create).
      if (error instanceof ApiError && options.method === 'GET') this.noteRead(options, error.status, undefined);
      throw error;
    }
    if (options.method === 'GET') this.noteRead(options, 200, body);
    return body;
  }

  /**
   * Hears every GET answered by the service (a success with its parsed body,
   * or an error status): a saved plan records the reads it rests on, to
   * check them again before it is applied (src/plan/saved.ts). Returns the
   * function that stops listening.
   */
  onRead(listener: ReadListener): () => void {
    this.readListeners.add(listener);
    return () => this.readListeners.delete(listener);
  }

  private noteRead(options: RequestOptions, status: number, body: unknown): void {
    for (const listener of this.readListeners) listener({ path: options.path, query: options.query ?? {}, status, body });
  }

  get<T = unknown>(path: string, query?: Query, extra: Partial<RequestOptions> = {}): Promise<T> {
    return this.json<T>({ method: 'GET', path, query, ...extra });
  }
  post<T = unknown>(path: string, body?: unknown, query?: Query, extra: Partial<RequestOptions> = {}): Promise<T> {
    return this.json<T>({ method: 'POST', path, body, query, ...extra });
  }
  put<T = unknown>(path: string, body?: unknown, query?: Query, extra: Partial<RequestOptions> = {}): Promise<T> {
    return this.json<T>({ method: 'PUT', path, body, query, ...extra });
  }
  patch<T = unknown>(path: string, body?: unknown, query?: Query, extra: Partial<RequestOptions> = {}): Promise<T> {
    return this.json<T>({ method: 'PATCH', path, body, query, ...extra });
  }
  delete<T = unknown>(path: string, body?: unknown, query?: Query, extra: Partial<RequestOptions> = {}): Promise<T> {
    return this.json<T>({ method: 'DELETE', path, body, query, ...extra });
  }

  /**
   * Sends a request and returns the response with its body unread (for
   * streaming downloads). Error answers (>= 400) are read and thrown as
   * ApiError, a redirect as UnexpectedAnswerError; the caller must consume
   * or dump the body of a success.
   */
  async send(options: RequestOptions): Promise<RawResponse> {
    return (await this.exchange(options, false)).response;
  }

  /** "GET /va/A": the request as messages name it (the /api/v2/{domain} prefix and the query left out). */
  describe(method: string, url: string): string {
    const { pathname, origin } = new URL(url);
    const prefix = this.domainId ? `/api/v2/${encodeURIComponent(this.domainId)}` : undefined;
    const path = prefix && pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : pathname;
    return `${method} ${origin === this.baseOrigin ? '' : origin}${decodeURIComponentSafe(path)}`;
  }

  /**
   * One request and its retries, within the --timeout budget (retry.ts).
   * With `readBody`, the body is read (capped) inside the same attempt, so a
   * body that breaks off is retried like a reset.
   */
  private async exchange(options: RequestOptions, readBody: boolean): Promise<Answer> {
    const url = this.url(options.path, options.query);
    this.redactPassword(url);
    if (options.auth !== false && this.options.apiKey && !VALID_HEADER_VALUE.test(this.options.apiKey)) {
      // undici would refuse the header with an "invalid apikey header" error after every retry.
      throw new UsageError('the API key has characters an HTTP header cannot carry (control characters or non-ASCII): check AHS_API_KEY or the profile\'s key (ahs profile add NAME --api-key-stdin)');
    }
    const label = this.describe(options.method, url);
    const idempotent = options.idempotent ?? (options.method === 'GET' || options.method === 'HEAD');
    const isWrite = options.method !== 'GET' && options.method !== 'HEAD';
    // Loaded before the budget starts: a first request on a loaded machine may spend longer loading
    // undici than its --timeout, and a write cut off before it was sent must not be reported as
    // one whose answer was lost.
    const transport = await this.transportFor(options, readBody);
    const budget = this.policy.forRequest();
    // A streamed upload may take longer than the budget while data flows: its
    // attempts keep the per-attempt timeouts only.
    const budgeted = options.stream === undefined;
    const endWait = readBody && budgeted ? this.options.feedback?.waiting(label, { method: options.method, path: label.slice(label.indexOf(' ') + 1), query: new URL(url).searchParams, body: options.body }) : undefined;
    const retry = (attempt: number, after: string, retryAfter?: string | string[]) =>
      this.waitToRetry(budget, attempt, retryAfter, label, `${label} (attempt ${attempt + 1} of ${budget.minAttempts}) after ${after}`);
    // A write goes on a connection of its own (transport.ts, FRESH_CONNECTION_MS); so does a read sent again
    // after its connection failed, which may have been a kept-alive one a gateway had closed.
    let fresh = isWrite;
    // How much of a streamed body the last attempt handed to its connection.
    const streamed = { sent: 0 };
    try {
      for (let attempt = 1; ; attempt++) {
        const started = Date.now();
        const remaining = budgeted ? Math.max(1, budget.left()) : this.options.timeoutMs;
        const timer = attemptSignal(this.options.signal, budgeted ? remaining : undefined, this.unneeded.signal);
        const signal = timer.signal;
        let response: TransportAnswer | undefined;
        let text = '';
        const feedback = this.options.feedback;
        try {
          feedback?.sent?.(options.method, label);
          response = await this.attempt(transport, url, options, attempt, signal, remaining, fresh, readBody, streamed);
          feedback?.answered?.(options.method, label, response.statusCode, Date.now() - started);
          this.noteServiceClock(response.headers.date);
          this.trace(`< ${response.statusCode} (${Date.now() - started} ms)`);
          this.traceHeaders('<', response.headers);
          // Status 000 or 999 is no HTTP answer (RFC 9110 15): never taken for a success.
          if (response.statusCode < 100 || response.statusCode > 599) {
            response.body.destroy();
            throw new UnexpectedAnswerError(label, response.statusCode, 'a status outside 100-599');
          }
          if (response.statusCode >= 400) text = await readCapped(response.body, this.maxJsonBytes, response.headers).catch(() => '');
          else if (response.statusCode < 300 && readBody) text = await readCapped(response.body, this.maxJsonBytes, response.headers, label);
        } catch (error) {
          // The command ended (its client destroyed) while this was in flight: nothing to report or retry.
          if (this.unneeded.signal.aborted) {
            response?.body.destroy();
            throw new NotNeededError(label);
          }
          if (response === undefined) feedback?.answered?.(options.method, label, null, Date.now() - started);
          // A body that refused to go on (a file changed during its upload) says why itself.
          if (error instanceof UnexpectedAnswerError || error instanceof UsageError || error instanceof ConflictError) throw error;
          // Refused as its head arrived (transport.ts): no HTTP answer.
          if (error instanceof StatusOutOfRangeError) throw new UnexpectedAnswerError(label, error.status, 'a status outside 100-599');
          response?.body.destroy();
          if (this.options.signal?.aborted || (isAbort(error) && !timer.expired())) throw new CancelledError('interrupted', { cause: this.options.signal?.reason });
          if (error instanceof ProxyError) {
            if (error.transient && budget.canRetry(attempt)) {
              await retry(attempt, 'no connection to the proxy');
              continue;
            }
            throw error;
          }
          // Nothing was sent, and another attempt would meet the same certificate.
          if (certificateRefused(error)) throw this.networkError(error, label, false);
          const timedOut = timer.expired() || /TIMEOUT$/.test(errorCode(error) ?? '');
          const reason = timedOut ? `no complete answer within ${seconds(this.options.timeoutMs)}` : transportReason(error);
          this.trace(`< failed: ${reason} (${Date.now() - started} ms)`);
          const sentForSure = isWrite && !neverSent(error);
          const mayRetry = idempotent || (options.stream === undefined && !sentForSure);
          if (mayRetry && budget.canRetry(attempt)) {
            if (response === undefined) fresh = true;
            await retry(attempt, reason);
            continue;
          }
          if (sentForSure) throw Object.assign(new AnswerLostError(label, reason), unsent(options.stream, streamed));
          throw this.networkError(error, label, timedOut);
        } finally {
          timer.dispose();
        }
        const { statusCode, headers, body } = response;
        if (statusCode >= 400) {
          this.traceErrorBody(text);
          this.refuseNonServiceAnswer(statusCode, headers, text, url, label, isWrite && !idempotent, options.stream, streamed);
          // A 429 was not applied, whatever the request; a read may be sent again after a gateway's 502/503/504.
          if (statusCode === 429 || (idempotent && RETRY_STATUSES.has(statusCode))) {
            if (budget.canRetry(attempt)) {
              await retry(attempt, `HTTP ${statusCode}`, headers['retry-after']).catch((error: unknown) => {
                throw error instanceof WaitTooLongError ? this.waitRefused(label, statusCode, error) : error;
              });
              continue;
            }
          }
          // Redacted before the message is cut to its first 300 characters (a key across the cut).
          const refused = apiError(statusCode, this.redactor.redact(text), options.notFound, headers['retry-after']);
          // What a library caller logs beside the body: the request, by its path (never the query: no secret is in a path).
          refused.request = { method: options.method, path: this.redactor.redact(decodeURIComponentSafe(new URL(url).pathname)) };
          throw refused;
        }
        if (statusCode >= 300) {
          // Neither transport follows a redirect, nor does ahs: the API never redirects.
          body.destroy();
          const location = headers.location ? ` to ${String(headers.location)}` : '';
          throw new UnexpectedAnswerError(label, statusCode, `a redirect${location}`);
        }
        const raw: RawResponse = { status: statusCode, headers, body, url };
        return readBody ? { response: raw, text, label } : { response: raw, label };
      }
    } finally {
      endWait?.();
    }
  }

  /**
   * An error answer that is not the service's: a proxy's 407 (named as the
   * proxy's), or a gateway's answer to a write (a 502/503/504, or a 5xx
   * error page): it does not say whether the service applied the write, so
   * it is thrown as a lost answer for the executor to settle with a read.
   */
  private refuseNonServiceAnswer(status: number, headers: TransportAnswer['headers'], text: string, url: string, label: string, write: boolean, stream?: StreamBody, streamed?: { sent: number }): void {
    if (status === 407) throw proxyAuthenticationRequired(this.env, url);
    const gateway = write ? gatewayAnswer(status, headers['content-type'], text) : undefined;
    if (gateway) throw Object.assign(new GatewayAnswerError(label, status, gateway), unsent(stream, streamed));
  }

  /** The wait before the next attempt (Retry-After or backoff), said on stderr; a wait past the budget throws WaitTooLongError. */
  private async waitToRetry(budget: RetryBudget, attempt: number, retryAfter: string | string[] | undefined, label: string, notice: string): Promise<void> {
    const delay = budget.delay(attempt, { retryAfter, serviceNow: Date.now() + this.clockOffsetMs });
    const asked = retryAfter === undefined ? '' : ` (the service asked to wait ${seconds(delay)})`;
    if (this.unneeded.signal.aborted) throw new NotNeededError(label);
    this.trace(`* retrying in ${Math.round(delay)} ms`);
    this.options.feedback?.retrying(`retrying ${notice}${asked}`);
    await this.policy.sleep(delay);
    if (this.unneeded.signal.aborted) throw new NotNeededError(label);
  }

  /** A Retry-After longer than what is left of --timeout: fail at once, saying so (exit 6, nothing applied). */
  private waitRefused(label: string, status: number, error: WaitTooLongError): NetworkError {
    const words = this.options.budgetWords ?? CLI_BUDGET;
    const wait = `the service asked to retry after ${words.amount(error.askedMs)}, more than the ${words.amount(error.leftMs)} left of ${words.name} (${words.amount(error.timeoutMs)})`;
    return new NetworkError(`${label} answered ${status}, and ${wait}: try again later, or allow more time with ${words.more}`);
  }

  private networkError(error: unknown, label: string, timedOut: boolean): Error {
    const origin = this.baseOrigin;
    if (timedOut) {
      const words = this.options.budgetWords ?? CLI_BUDGET;
      return new NetworkError(`no answer from ${origin} to ${label} within ${words.amount(this.options.timeoutMs)} (${words.name}, retries included); try again, or allow more time with ${words.more}`);
    }
    const mapped = toNetworkError(error, origin, this.options.budgetWords);
    // Whatever the library said, the user reads our words.
    return mapped instanceof NetworkError || mapped instanceof CancelledError ? mapped : new NetworkError(`could not read the answer of ${origin} to ${label}: ${transportReason(error)}`);
  }

  /** The base URL's origin (parsed once). */
  private get baseOrigin(): string {
    return (this.parsedBaseOrigin ??= new URL(this.baseUrl).origin);
  }

  private get maxJsonBytes(): number {
    return this.options.maxJsonBytes ?? MAX_JSON_BYTES;
  }

  private async attempt(transport: Transport, url: string, options: RequestOptions, attempt: number, signal: AbortSignal, timeoutMs: number, fresh: boolean, readBody: boolean, streamed: { sent: number }): Promise<TransportAnswer> {
    // An answer read here is decoded (readCapped); a download is stored byte for byte, so it asks for none.
    const encoding = readBody ? API_ACCEPT_ENCODING : 'identity';
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': encoding, 'user-agent': this.options.userAgent ?? USER_AGENT, ...options.headers };
    if (options.auth !== false && this.options.apiKey) headers.apikey = this.options.apiKey;
    let body: string | StreamBody | undefined;
    if (options.stream) {
      headers['content-type'] = options.stream.contentType;
      headers['content-length'] = String(options.stream.length);
      body = counting(options.stream, streamed);
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    this.trace(`> ${options.method} ${url}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
    this.traceHeaders('>', headers);
    if (typeof body === 'string') this.traceBody('>', body);
    else if (options.stream) this.trace(`> [${options.stream.length} bytes of ${options.stream.contentType.split(';')[0]}]`);
    return transport.request(url, { method: options.method, headers, body, signal, timeoutMs, fresh });
  }

  /**
   * The password of a URL's `user:password@` (a download URL may carry one,
   * sent as Basic credentials) is a secret like the key: redacted from
   * every line printed, the trace's `> GET` line included, in every form.
   */
  private redactPassword(url: string): void {
    // No user:password@ without an @: a URL parsed less per request (issue 21: 200 uploads).
    if (!url.includes('@')) return;
    const { password } = new URL(url);
    if (!password) return;
    this.redactor.add(password);
    this.redactor.add(decodeURIComponentSafe(password));
  }

  /** One line on the trace: what a server sent (headers, bodies) with its control characters escaped (io/escape.ts), secrets out. */
  private trace(line: string): void {
    if (this.options.trace) this.options.trace.write(`${this.redactor.redact(escapeControls(line))}\n`);
  }
  private traceHeaders(direction: string, headers: Record<string, string | string[] | undefined>): void {
    if (!this.options.trace) return;
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      const shown = /^(apikey|authorization|proxy-authorization|cookie|set-cookie)$/i.test(name) ? '***' : Array.isArray(value) ? value.join(', ') : value;
      this.trace(`${direction} ${name}: ${shown}`);
    }
  }
  /** An error answer's body: whole when it is JSON, else a short excerpt on one line (a gateway's HTML page says little). */
  private traceErrorBody(text: string): void {
    if (/^\s*[[{]/.test(text)) return this.traceBody('<', text);
    const line = this.redactor.redact(text).replace(/\s+/g, ' ').trim();
    this.traceBody('<', line.length > TRACE_EXCERPT ? `${line.slice(0, TRACE_EXCERPT)}… (${text.length} chars)` : line);
  }
  private traceBody(direction: string, text: string): void {
    if (!this.options.trace || !text) return;
    // Redacted before it is cut: a key across the cut would leave its first half.
    const clean = this.redactor.redact(text);
    const shown = clean.length > TRACE_BODY_LIMIT ? `${clean.slice(0, TRACE_BODY_LIMIT)}… (${text.length} chars)` : clean;
    this.trace(`${direction} ${shown}`);
  }

  /**
   * Whether a timestamp of the service (a createdAt) is not before `localStart`
   * of this machine's clock, read on the service's clock (its Date headers,
   * to the second): settling a lost answer must not depend on the two clocks
   * agreeing.
   */
  madeSince(timestamp: string, localStart: number): boolean {
    return Date.parse(timestamp) >= localStart + this.clockOffsetMs - 1000;
  }

  /**
   * Now on the service's clock, as its last Date header said (to the second):
   * a rollout's soak is measured against the
   * journal's createdAt on this clock, never on this machine's alone.
   */
  serviceNow(): number {
    // The header says the service's time is in [offset, offset + 1 s) from ours: when that holds ours (the
    // clocks agree as far as it can tell), ours is the finer reading; otherwise its lower end (a soak never ends early).
    const offset = this.clockOffsetMs;
    return Date.now() + (offset <= 0 && offset > -1000 ? 0 : offset);
  }

  private noteServiceClock(date: string | string[] | undefined): void {
    const at = Date.parse(String(Array.isArray(date) ? date[0] : date));
    if (Number.isFinite(at)) this.clockOffsetMs = at - Date.now();
  }

  /**
   * A client for the one short read that settles a write cut by an interrupt:
   * the same settings, deaf to the command's signal (it fired), every request
   * within `ms` in all, no retries. Destroy it after.
   */
  detached(ms: number): ApiClient {
    const client = new ApiClient({ ...this.options, signal: AbortSignal.timeout(ms), timeoutMs: ms, retries: 0 });
    client.clockOffsetMs = this.clockOffsetMs;
    return client;
  }

  /** Drops idle keep-alive connections at once, so the process can exit when the command is done. */
  async destroy(): Promise<void> {
    this.unneeded.abort();
    await Promise.all([this.downloads?.destroy(), this.undici?.then((transport) => transport.destroy())]);
  }

  async close(): Promise<void> {
    await Promise.all([this.downloads?.close(), this.undici?.then((transport) => transport.close())]);
  }
}

/**
 * One attempt's signal: aborted by the command's (Ctrl-C) or when `ms` run
 * out (expired() tells which), or by the client's destroy() (the command
 * no longer needs it). One controller and its listeners: AbortSignal.any
 * took 15 us and two weak references per request (issue 21: 200 uploads).
 */
function attemptSignal(outer: AbortSignal | undefined, ms: number | undefined, unneeded: AbortSignal): { signal: AbortSignal; expired(): boolean; dispose(): void } {
  const controller = new AbortController();
  let expired = false;
  const clock = ms === undefined ? undefined : setTimeout(() => ((expired = true), controller.abort()), ms);
  const cancel = () => controller.abort(outer!.reason);
  const drop = () => controller.abort(unneeded.reason);
  if (outer?.aborted) cancel();
  else outer?.addEventListener('abort', cancel, { once: true });
  unneeded.addEventListener('abort', drop, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    dispose() {
      clearTimeout(clock);
      outer?.removeEventListener('abort', cancel);
      unneeded.removeEventListener('abort', drop);
    },
  };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** A streamed body whose passes count the bytes handed over in `streamed.sent` (from 0 at each pass). */
function counting(stream: StreamBody, streamed: { sent: number }): StreamBody {
  return {
    ...stream,
    async *open() {
      streamed.sent = 0;
      for await (const piece of stream.open()) {
        yield piece;
        streamed.sent += piece.length;
      }
    },
  };
}

/** `bodyUnsent` of a lost upload whose body was not all handed over (AnswerLostError), else nothing. */
function unsent(stream: StreamBody | undefined, streamed: { sent: number } | undefined): { bodyUnsent?: { sent: number; total: number } } {
  if (!stream || !streamed || streamed.sent >= stream.length) return {};
  return { bodyUnsent: { sent: streamed.sent, total: stream.length } };
}

function decodeURIComponentSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
