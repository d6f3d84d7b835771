// The HTTP layer (undici `request`, never fetch): builds /api/v2/{domainId}/...
// paths, sends the apikey header, maps error answers to ApiError and transport
// failures to NetworkError, applies the timeout, retries idempotent reads on
// network errors and 502/503/504 with backoff and jitter (a write only when
// it surely never left this machine), honours HTTP(S)_PROXY/NO_PROXY and
// traces on stderr with --verbose, key redacted.
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, UsageError } from '../errors.js';
import { apiError, neverSent, toNetworkError, isAbort } from './errors.js';
import { Redactor } from './redact.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | boolean | undefined | null>;

/** A request body that is streamed (multipart uploads): a factory so that it could be rebuilt. */
export interface StreamBody {
  contentType: string;
  length: number;
  open(): Readable;
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
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable & { text(): Promise<string>; dump(): Promise<void> };
  url: string;
}

export interface ClientOptions {
  baseUrl: string;
  domainId?: string;
  apiKey?: string;
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
}

declare const AHS_VERSION: string;
const USER_AGENT = `ahs-cli/${typeof AHS_VERSION === 'string' ? AHS_VERSION : 'dev'} node/${process.versions.node}`;
/** Visible ASCII and inner blanks: what an HTTP header value may hold. */
const VALID_HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
const RETRY_STATUSES = new Set([502, 503, 504]);
const TRACE_BODY_LIMIT = 4000;

export class ApiClient {
  readonly baseUrl: string;
  readonly domainId: string | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly redactor: Redactor;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.domainId = options.domainId;
    this.redactor = options.redactor ?? new Redactor();
    this.redactor.add(options.apiKey);
    this.dispatcher = makeDispatcher(options.env ?? process.env, options.timeoutMs);
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

  /** Sends a request and returns the parsed JSON answer (undefined for an empty one). Throws ApiError on >= 400. */
  async json<T = unknown>(options: RequestOptions): Promise<T> {
    const response = await this.send(options);
    const text = await response.body.text();
    this.traceBody('<', text);
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      return text as T;
    }
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
   * ApiError; the caller must consume or dump the body of a success.
   */
  async send(options: RequestOptions): Promise<RawResponse> {
    const url = this.url(options.path, options.query);
    if (options.auth !== false && this.options.apiKey && !VALID_HEADER_VALUE.test(this.options.apiKey)) {
      // undici would refuse the header with an "invalid apikey header" error after every retry.
      throw new UsageError('the API key has characters an HTTP header cannot carry (control characters or non-ASCII): check AHS_API_KEY or the profile\'s key (ahs profile add NAME --api-key-stdin)');
    }
    const idempotent = options.idempotent ?? (options.method === 'GET' || options.method === 'HEAD');
    const maxAttempts = 1 + Math.max(0, this.options.retries);
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      let response: Dispatcher.ResponseData;
      try {
        response = await this.attempt(url, options, attempt);
      } catch (error) {
        const mapped = toNetworkError(error, new URL(url).origin);
        this.trace(`< ${isAbort(error) ? 'aborted' : `failed: ${mapped.message}`} (${Date.now() - started} ms)`);
        const replayable = options.stream === undefined;
        const mayRetry = !isAbort(error) && mapped.name !== 'CancelledError' && (idempotent || (replayable && neverSent(error)));
        if (mayRetry && attempt < maxAttempts && !this.options.signal?.aborted) {
          await this.backoff(attempt, undefined);
          continue;
        }
        throw mapped;
      }
      const { statusCode, headers, body } = response;
      this.trace(`< ${statusCode} (${Date.now() - started} ms)`);
      this.traceHeaders('<', headers);
      if (statusCode >= 400) {
        const text = await body.text().catch(() => '');
        this.traceBody('<', text);
        if (idempotent && RETRY_STATUSES.has(statusCode) && attempt < maxAttempts && !this.options.signal?.aborted) {
          await this.backoff(attempt, headers['retry-after']);
          continue;
        }
        throw apiError(statusCode, text, options.notFound);
      }
      return { status: statusCode, headers, body: body as RawResponse['body'], url };
    }
  }

  private async attempt(url: string, options: RequestOptions, attempt: number): Promise<Dispatcher.ResponseData> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.options.userAgent ?? USER_AGENT, ...options.headers };
    if (options.auth !== false && this.options.apiKey) headers.apikey = this.options.apiKey;
    let body: string | Readable | undefined;
    if (options.stream) {
      headers['content-type'] = options.stream.contentType;
      headers['content-length'] = String(options.stream.length);
      body = options.stream.open();
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    this.trace(`> ${options.method} ${url}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
    this.traceHeaders('>', headers);
    if (typeof body === 'string') this.traceBody('>', body);
    else if (options.stream) this.trace(`> [${options.stream.length} bytes of ${options.stream.contentType.split(';')[0]}]`);
    return request(url, {
      method: options.method,
      headers,
      body,
      dispatcher: this.dispatcher,
      signal: this.options.signal,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
    });
  }

  private async backoff(attempt: number, retryAfter: string | string[] | undefined): Promise<void> {
    const base = this.options.backoffMs ?? 300;
    let delay = Math.min(base * 2 ** (attempt - 1), 8000);
    delay = delay / 2 + Math.random() * (delay / 2); // jitter
    const after = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    if (Number.isFinite(after) && after > 0) delay = Math.max(delay, Math.min(after * 1000, 10_000));
    this.trace(`* retrying in ${Math.round(delay)} ms`);
    try {
      await sleep(delay, undefined, { signal: this.options.signal });
    } catch (error) {
      throw toNetworkError(error, this.baseUrl);
    }
  }

  private trace(line: string): void {
    if (this.options.trace) this.options.trace.write(`${this.redactor.redact(line)}\n`);
  }
  private traceHeaders(direction: string, headers: Record<string, string | string[] | undefined>): void {
    if (!this.options.trace) return;
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      const shown = /^(apikey|authorization|proxy-authorization|cookie|set-cookie)$/i.test(name) ? '***' : Array.isArray(value) ? value.join(', ') : value;
      this.trace(`${direction} ${name}: ${shown}`);
    }
  }
  private traceBody(direction: string, text: string): void {
    if (!this.options.trace || !text) return;
    const shown = text.length > TRACE_BODY_LIMIT ? `${text.slice(0, TRACE_BODY_LIMIT)}… (${text.length} chars)` : text;
    this.trace(`${direction} ${shown}`);
  }

  /** Drops idle keep-alive connections at once, so the process can exit when the command is done. */
  async destroy(): Promise<void> {
    await this.dispatcher.destroy();
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

function makeDispatcher(env: NodeJS.ProcessEnv, timeoutMs: number): Dispatcher {
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  const connect = { timeout: Math.min(timeoutMs, 30_000) };
  if (httpProxy || httpsProxy) {
    return new EnvHttpProxyAgent({ httpProxy, httpsProxy: httpsProxy ?? httpProxy, noProxy, connect });
  }
  return new Agent({ connect });
}
