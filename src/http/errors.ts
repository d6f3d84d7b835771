// Turns an error answer into an ApiError carrying the service's 4-field body
// (or one built from a plain-text body, which undeploy's 500 may be), and
// undici/socket failures into NetworkError.
import { AhsError, ApiError, CancelledError, ExitCode, NetworkError, type ErrorBody } from '../errors.js';

export const SERVICE_ERROR_TYPE_FALLBACK = 'urn:ahs:http';

export function parseErrorBody(status: number, text: string, statusText = ''): ErrorBody {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const body = JSON.parse(trimmed) as Partial<ErrorBody> & Record<string, unknown>;
      if (body && typeof body === 'object' && (typeof body.title === 'string' || typeof body.detail === 'string')) {
        const title = String(body.title ?? body.detail);
        return {
          ...body,
          type: typeof body.type === 'string' ? body.type : SERVICE_ERROR_TYPE_FALLBACK,
          title,
          status: typeof body.status === 'number' ? body.status : status,
          detail: typeof body.detail === 'string' ? body.detail : title,
        };
      }
    } catch {
      /* not JSON after all: fall through */
    }
  }
  // A page is never printed: it is a gateway's or a web server's, not the service's words.
  if (isHtml(undefined, trimmed)) {
    const title = status >= 500 ? `a gateway answered ${status} (an HTML page)` : `the server answered ${status} with an HTML page, not the service's error body: check the service's base URL`;
    return { type: SERVICE_ERROR_TYPE_FALLBACK, title, status, detail: title };
  }
  // Bytes that are not text (an encoding ahs could not undo, a file) are never printed.
  if (isBinary(trimmed)) {
    const title = `the service answered ${status} with a body that is not text`;
    return { type: SERVICE_ERROR_TYPE_FALLBACK, title, status, detail: title };
  }
  // An empty body says nothing more than its status: "answered 404: HTTP 404" said it twice.
  const title = trimmed ? `the service answered ${status}: ${oneLine(trimmed).slice(0, 300)}` : `the service answered ${status}${statusText ? ` (${statusText})` : ''} with no error body`;
  return { type: SERVICE_ERROR_TYPE_FALLBACK, title, status, detail: title };
}

/** Text that holds control characters other than white space, or bytes that were not UTF-8 (U+FFFD). */
export function isBinary(text: string): boolean {
  return /[\x00-\x08\x0e-\x1f\x7f\ufffd]/.test(text);
}

/** The statuses a gateway (load balancer, CDN, proxy) answers when the service did not answer it in time or at all. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * Whether an error answer to a write came from a gateway rather than the
 * service, and so does not say whether the write was applied: a 502, 503 or
 * 504 (whatever its body: a 503 of the service itself with Retry-After is
 * no more telling), or a 5xx HTML page. Returns the reason as messages give
 * it ("a gateway answered 504 (an HTML page)"), else undefined. A 5xx in
 * plain text is the service's (undeploy's 500 may be, spec "Errors").
 */
export function gatewayAnswer(status: number, contentType: string | string[] | undefined, text: string): string | undefined {
  const html = isHtml(contentType, text);
  if (!GATEWAY_STATUSES.has(status) && !(status >= 500 && html)) return undefined;
  return `a gateway answered ${status} (${html ? 'an HTML page' : describeBody(contentType, text)})`;
}

function isHtml(contentType: string | string[] | undefined, text: string): boolean {
  const type = String(Array.isArray(contentType) ? contentType[0] : (contentType ?? ''));
  return /html/i.test(type) || /^\s*<(!doctype|html|head|body|\?xml|[a-z]+[\s>])/i.test(text);
}

function describeBody(contentType: string | string[] | undefined, text: string): string {
  if (!text.trim()) return 'no body';
  if (/^\s*\{/.test(text)) return 'an error body';
  const type = String(Array.isArray(contentType) ? contentType[0] : (contentType ?? '')).split(';')[0]!.trim();
  return type ? `a ${type} body` : 'a body that is not the service\'s';
}

export function apiError(status: number, text: string, notFound = false, retryAfter?: string | string[]): ApiError {
  const error = new ApiError(status, parseErrorBody(status, text), notFound);
  if (retryAfter !== undefined) error.retryAfter = retryAfter;
  return error;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  EPIPE: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer within the timeout',
  UND_ERR_BODY_TIMEOUT: 'the answer stalled past the timeout',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'request body length mismatch',
};

// What to try next, by kind of failure: the address, or the patience.
function networkHint(code: string, words: CallerWords = {}): string {
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) {
    return `; check the address (${words.address ?? CLI_ADDRESS}) and that the service is up`;
  }
  if (/TIMEOUT$|^ETIMEDOUT$/.test(code)) return `; try again, or allow more time with ${words.more ?? '--timeout SECONDS'}`;
  return '';
}

/**
 * True when the request surely never reached the server (safe to retry
 * even a write): no connection, or a TLS handshake that refused the
 * server's certificate, which ends before any byte of the request is sent.
 */
export function neverSent(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'UND_ERR_CONNECT_TIMEOUT' || certificateRefused(error);
}

/** The server's TLS certificate was refused: sending again would meet the same certificate. */
export function certificateRefused(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && CERTIFICATE_CODES.test(code);
}

/**
 * An answer whose status is outside 100-599 (000, 099, 600, 999): no HTTP
 * answer (RFC 9110 15). undici would take 000 to 099 for an interim answer
 * and wait for the next one (transport.ts refuses it as its head arrives);
 * client.ts reports it as an unexpected answer.
 */
export class StatusOutOfRangeError extends Error {
  readonly code = 'AHS_BAD_STATUS';
  constructor(readonly status: number) {
    super(`a status of ${String(status).padStart(3, '0')}, outside 100-599`);
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || errorCode(error) === 'UND_ERR_ABORTED' || error instanceof CancelledError);
}

/** OpenSSL's and Node's codes for a server certificate refused (not trusted, expired, for another name). */
const CERTIFICATE_CODES = /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|CERT_REVOKED|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/** Where the CLI's user sets the service's address (the library names its own options: BudgetWords.address). */
const CLI_ADDRESS = '--base-url / AHS_BASE_URL, --delivery-url for downloads';

/** How a hint names the caller's settings (the client's BudgetWords): the CLI's flags by default. */
export interface CallerWords {
  address?: string | undefined;
  more?: string | undefined;
}

/** Maps a thrown transport error to NetworkError (or rethrows what is not one); `words` name the caller's settings in its hint. */
export function toNetworkError(error: unknown, target: string, words?: CallerWords): Error {
  if (error instanceof CancelledError) return error;
  if (isAbort(error)) return new CancelledError();
  const code = errorCode(error);
  if (code && CERTIFICATE_CODES.test(code) && error instanceof Error) {
    // Refused before any request was sent: nothing read from that server.
    return new NetworkError(`could not reach ${target}: its TLS certificate was refused (${error.message}, ${code}); check the address, or, for a certificate of your own CA, point NODE_EXTRA_CA_CERTS at that CA's certificate`);
  }
  if (code && NETWORK_CODES[code]) return new NetworkError(`could not reach ${target}: ${NETWORK_CODES[code]} (${code})${networkHint(code, words)}`);
  if (code && /^E[A-Z]+$/.test(code)) return new NetworkError(`could not reach ${target}: ${code}`);
  if (error instanceof Error && /fetch failed|socket|network|TLS|certificate|proxy/i.test(error.message)) {
    return new NetworkError(`could not reach ${target}: ${error.message}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    // AggregateError (happy eyeballs) and wrapped causes.
    const inner = (current as { errors?: unknown[] }).errors?.[0] ?? (current as { cause?: unknown }).cause;
    current = inner;
  }
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/**
 * An answer that is not what the spec says the request returns: a redirect,
 * an HTML page, invalid JSON, `null`, an empty 200, a body of the wrong shape
 * or too large. Exit 1, one line naming the request and what came back.
 */
export class UnexpectedAnswerError extends AhsError {
  readonly exitCode = ExitCode.rejected;
  constructor(
    /** "GET /va/A" */
    readonly request: string,
    readonly status: number,
    what: string,
  ) {
    super(`${request} answered ${status} with ${what}; this is not what the service returns (check the base URL and the delivery URL)`);
  }
  toBody(): ErrorBody {
    return { type: 'urn:ahs:unexpected-answer', title: this.message, status: null, detail: this.message };
  }
}

/**
 * A write that left this machine and whose answer never came (reset, closed,
 * timed out after sending): the service may have applied it. The caller
 * settles it with a read (cli.md "Reading the service"). Exit 6.
 */
export class AnswerLostError extends NetworkError {
  override readonly mayHaveApplied = true as const;
  /**
   * A streamed body (an upload) that was not all handed to the connection
   * when the request failed: the service never had the whole of it, so no
   * later read can show it applied where the first did not (the settling
   * stops at one read, plan/execute.ts).
   */
  bodyUnsent?: { sent: number; total: number };
  constructor(
    /** "POST /va" */
    readonly request: string,
    /** Why the answer was lost, in our words ("connection reset"). */
    readonly reason: string,
    message = `the answer to ${request} was lost (${reason}) after the request was sent: it may have been applied; check before running it again`,
  ) {
    super(message);
  }
}

/**
 * A gateway in front of the service (a load balancer, a CDN) answered a
 * write: a 502, 503 or 504, or an error page that is not the service's
 * error body. It does not say whether the service applied the write, so it
 * is settled by a read like a lost answer (cli.md, "Reading the service").
 * The page itself is never shown: the reason names the status and the kind
 * of body ("a gateway answered 504 (an HTML page)").
 */
export class GatewayAnswerError extends AnswerLostError {
  constructor(
    request: string,
    readonly status: number,
    reason: string,
  ) {
    super(request, reason, `the answer to ${request} was lost: ${reason}, which does not say whether the service applied it; check before running it again`);
  }
}

/**
 * A request the command no longer needs (the other half of a parallel read
 * after a 404, a page after an error): cancelled when the command's client
 * was destroyed, never counted as a network failure, never retried, never
 * said (cli.md, "Reading the service"). Whoever awaited it has already
 * failed or finished; if it surfaces anyway it is a cancellation.
 */
export class NotNeededError extends CancelledError {
  constructor(readonly request: string) {
    super(`${request} was cancelled: the command no longer needed it`);
  }
}

/** A proxy (HTTPS_PROXY/HTTP_PROXY) refused or could not be reached: exit 6, the proxy named (without credentials). */
export class ProxyError extends NetworkError {
  constructor(
    message: string,
    /** Worth another attempt (a proxy that is not up yet, a 503 of its own); a 407 is not. */
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** Why a connection failed, in our words ("connection reset"), never the library's. */
export function transportReason(error: unknown): string {
  const code = errorCode(error);
  if (code && NETWORK_CODES[code]) return NETWORK_CODES[code]!;
  // The lean transport's parser (http1.ts) says what in the answer broke HTTP/1.1: our words already.
  if (code === 'AHS_BAD_HTTP' && error instanceof Error) return error.message;
  if (code) return `connection failed (${code})`;
  return 'connection failed';
}

/** The service answered, but not in a way ahs can go on with (a list that does not advance). Exit 1. */
export class ServiceError extends AhsError {
  readonly exitCode = ExitCode.rejected;
  toBody(): ErrorBody {
    return { type: 'urn:ahs:unexpected-answer', title: this.message, status: null, detail: this.message };
  }
}
