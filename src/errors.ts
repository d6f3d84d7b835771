// Typed errors. Commands throw these; src/main.ts alone turns them into an
// exit code and a message (house style: one exit site).

/** The four-field error body of the service (spec, "Errors"). */
export interface ErrorBody {
  type: string;
  title: string;
  status: number | null;
  detail: string;
  /** urn:ahs:blocked: what blocks the write, and when that ends by itself (null: only a person ends it). */
  blockedBy?: BlockCause;
  until?: string | null;
}

/** The exit codes of the CLI (cli.md, "Exit codes"): every AhsError carries the one the CLI would exit with. */
export const ExitCode = {
  ok: 0,
  rejected: 1,
  usage: 2,
  forbidden: 3,
  notFound: 4,
  conflict: 5,
  network: 6,
  /** plan --detailed-exitcode: changes are pending. */
  changes: 10,
  /** rollout: waiting for a soak time, an approval or an inconclusive check; run it again later. */
  waiting: 11,
  /** Refused by change control: a lock another run holds, a freeze, a blocked version, a rollout in flight; nothing was sent. */
  blocked: 12,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * What went wrong, in a word per exit code of cli.md (the library's callers
 * switch on it rather than on classes or exit numbers).
 */
export type ErrorKind = 'rejected' | 'usage' | 'forbidden' | 'not-found' | 'conflict' | 'network' | 'changes' | 'waiting' | 'blocked' | 'interrupted';

const KIND_OF_EXIT: Record<Exclude<ExitCode, 0>, ErrorKind> = {
  1: 'rejected',
  2: 'usage',
  3: 'forbidden',
  4: 'not-found',
  5: 'conflict',
  6: 'network',
  10: 'changes',
  11: 'waiting',
  12: 'blocked',
  130: 'interrupted',
};

/** The base of every error ahs throws: its `exitCode`, its `kind` (what it means) and the JSON body the CLI prints. */
export abstract class AhsError extends Error {
  abstract readonly exitCode: ExitCode;
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // "ConflictError: ..." in a library caller's stack trace and logs, not "Error: ...".
    this.name = new.target.name;
  }
  /** The exit code's meaning (cli.md, "Exit codes"): the same for the CLI and the library. */
  get kind(): ErrorKind {
    return this.exitCode === ExitCode.ok ? 'rejected' : KIND_OF_EXIT[this.exitCode];
  }
  /**
   * Whether what failed was a write that may have been applied anyway:
   * 'unknown' when its answer was lost (or an interrupt cut it) and no read
   * could tell (check before sending it again); 'applied' when an
   * interrupted write was proven applied by a read; else 'not-applied'.
   */
  get outcome(): Outcome {
    return 'not-applied';
  }
  /** The JSON document printed on stderr in json mode. */
  abstract toBody(): ErrorBody;
}

/** The request an error answered: its method and path (the query left out; the key is never in either). */
export interface FailedRequest {
  method: string;
  path: string;
}

/** Bad or missing input; nothing was sent. Exit 2. */
export class UsageError extends AhsError {
  readonly exitCode = ExitCode.usage;
  toBody(): ErrorBody {
    return { type: 'urn:ahs:usage', title: this.message, status: null, detail: this.message };
  }
}

/**
 * The service answered with an error status. The exit code comes from the
 * status and what the request named, never from the wording of the title
 * (the real service words its titles its own way).
 */
export class ApiError extends AhsError {
  readonly exitCode: ExitCode;
  /** The request the service answered with this error. */
  request?: FailedRequest;
  /**
   * The answer's Retry-After header, when it had one: a write tried again waits that long (within --timeout).
   * @internal
   */
  retryAfter?: string | string[];
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    /** A read settled it: the thing named on the command line does not exist (a 400 of a missing collection). */
    readonly notFound = false,
    exitCode?: ExitCode,
  ) {
    super(body.title || `the service answered ${status}`);
    this.exitCode = exitCode ?? exitCodeForStatus(status, notFound);
  }
  /**
   * The same answer, known (by a settling read) to mean "the named thing does not exist": exit 4.
   * @internal
   */
  asNotFound(): ApiError {
    return this.sameAnswer(new ApiError(this.status, this.body, true));
  }
  /**
   * The same answer, known to mean contention (a channel kept mid-deployment by other writers through the retries): exit 5.
   * @internal
   */
  asConflict(): ApiError {
    return this.sameAnswer(new ApiError(this.status, this.body, false, ExitCode.conflict));
  }
  /** What the answer carried beside its body: the request, its Retry-After. */
  private sameAnswer(error: ApiError): ApiError {
    if (this.request) error.request = this.request;
    if (this.retryAfter !== undefined) error.retryAfter = this.retryAfter;
    return error;
  }
  toBody(): ErrorBody {
    return this.body;
  }
}

/**
 * A conflict with another writer (exit 5): a compare-and-set that did not
 * hold (`expected` and `actual` say what was expected and found), a list
 * that kept changing, a stale saved plan. By meaning: `instanceof
 * ConflictError` is also true of the service's 409 still standing after the
 * retries (an ApiError, with the service's `status` and `body`).
 */
export class ConflictError extends AhsError {
  readonly exitCode = ExitCode.conflict;
  /** A compare-and-set: the value it expected (null: none). */
  readonly expected?: string | null;
  /** A compare-and-set: the value it found instead (null: none). */
  readonly actual?: string | null;
  constructor(message: string, options: ErrorOptions & { expected?: string | null; actual?: string | null } = {}) {
    super(message, options);
    if ('expected' in options) this.expected = options.expected;
    if ('actual' in options) this.actual = options.actual;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof AhsError && value.exitCode === ExitCode.conflict;
  }
  toBody(): ErrorBody {
    return { type: 'urn:ahs:conflict', title: this.message, status: null, detail: this.message };
  }
}

/**
 * Content differs from what was expected (cli.md, urn:ahs:mismatch): what is
 * served is not the local file or the sums file's line, or a release's
 * same-name version serves another content. Exit 1: nothing conflicted with
 * another writer; what is there is simply not what was asked for.
 */
export class MismatchError extends AhsError {
  readonly exitCode = ExitCode.rejected;
  toBody(): ErrorBody {
    return mismatchBody(this.message);
  }
}

/** The body of urn:ahs:mismatch (also the type of a batch's failure when files differ). */
export function mismatchBody(message: string): ErrorBody {
  return { type: 'urn:ahs:mismatch', title: message, status: null, detail: message };
}

/** No answer: connection refused, DNS, TLS, timeout. Exit 6. */
export class NetworkError extends AhsError {
  readonly exitCode = ExitCode.network;
  /** The request may have reached the service before the answer was lost: a write must be settled with a read. */
  readonly mayHaveApplied: boolean = false;
  override get outcome(): Outcome {
    return this.mayHaveApplied ? 'unknown' : 'not-applied';
  }
  toBody(): ErrorBody {
    return { type: 'urn:ahs:network', title: this.message, status: null, detail: this.message };
  }
}

/**
 * A write whose answer was lost and whose settling read failed too: it may
 * or may not have been applied, and nothing read says which (exit 6).
 */
export class OutcomeUnknownError extends NetworkError {
  override readonly mayHaveApplied = true as const;
  override get outcome(): 'unknown' {
    return 'unknown';
  }
  override toBody(): ErrorBody {
    return { type: 'urn:ahs:unknown-outcome', title: this.message, status: null, detail: this.message };
  }
}

/** What became of a write that failed or was interrupted (AhsError.outcome). */
export type Outcome = 'applied' | 'not-applied' | 'unknown';

/**
 * Ctrl-C or a cancelled prompt, or a library call's signal. Exit 130. A
 * write cut by it is settled by one short read: `outcome` says what it
 * showed ('unknown' when the write may have been applied).
 */
export class CancelledError extends AhsError {
  readonly exitCode = ExitCode.interrupted;
  private readonly settled: Outcome;
  /** `cause`: the abort's reason (a library caller's `controller.abort(reason)`). */
  constructor(message = 'interrupted', options: ErrorOptions & { outcome?: Outcome } = {}) {
    super(message, options);
    this.settled = options.outcome ?? 'not-applied';
  }
  override get outcome(): Outcome {
    return this.settled;
  }
  toBody(): ErrorBody {
    return { type: 'urn:ahs:interrupted', title: this.message, status: null, detail: this.message };
  }
}

/**
 * Some parts of a multi-part job failed (several files); each failure was
 * already reported. Exit 1, or the given code.
 */
export class PartialFailureError extends AhsError {
  /**
   * What was done all the same, when the call has a result of its parts
   * (`items.upload`, `items.sync`, `fetch`): the same document a call that
   * succeeded answers, with the parts that failed in it (`failed`).
   */
  result?: unknown;

  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.rejected,
    /** The first failure's error body, when there is one. */
    readonly first?: ErrorBody,
  ) {
    super(message);
  }
  /**
   * cli.md: the service's error body unchanged when the service answered
   * (the first failure's); otherwise the type the caller gives, else the
   * one the exit code names: exit 1 is urn:ahs:rejected (some part failed,
   * refused by an answer or locally), never urn:ahs:network unless every
   * failure was for want of an answer (exit 6), which only the caller knows.
   */
  toBody(): ErrorBody {
    if (this.first && this.first.status !== null) return this.first;
    const type = this.first?.type ?? `urn:ahs:${this.kind}`;
    return { type, title: this.message, status: null, detail: this.message };
  }
}

/** @internal */
export function exitCodeForStatus(status: number, notFound = false): ExitCode {
  if (status === 403) return ExitCode.forbidden;
  if (status === 404 || (notFound && status === 400)) return ExitCode.notFound;
  if (status === 409) return ExitCode.conflict;
  return ExitCode.rejected;
}

/**
 * Something named does not exist (exit 4), found by a read. By meaning:
 * `instanceof NotFoundError` is also true of the service's 404 (and of a
 * 400 a read showed to mean "missing"), an ApiError with its `status` and `body`.
 */
export class NotFoundError extends AhsError {
  readonly exitCode = ExitCode.notFound;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof AhsError && value.exitCode === ExitCode.notFound;
  }
  toBody(): ErrorBody {
    return { type: 'urn:ahs:not-found', title: this.message, status: null, detail: this.message };
  }
}

/**
 * `plan --detailed-exitcode` with changes pending: exit 10. Not an error to
 * report: the plan itself was the output (main prints nothing more).
 */
export class ChangesPending extends AhsError {
  readonly exitCode = ExitCode.changes;
  toBody(): ErrorBody {
    return { type: 'urn:ahs:changes', title: this.message, status: null, detail: this.message };
  }
}

/**
 * A rollout that cannot go on yet (a soak time, an approval, an inconclusive
 * check): exit 11, `urn:ahs:waiting`. Not a failure: the message names what
 * it waits for and until when; the same command line run later moves it on.
 */
export class WaitingError extends AhsError {
  readonly exitCode = ExitCode.waiting;
  constructor(
    message: string,
    /** When it can go on (ISO), when known (a soak); an approval or a check has no time. */
    readonly resumeAfter: string | null = null,
  ) {
    super(message);
  }
  toBody(): ErrorBody {
    return { type: 'urn:ahs:waiting', title: this.message, status: null, detail: this.message };
  }
}

/** What change control refused a write for (cli.md, "Change control"): the GitHub output `blocked-by`. */
export type BlockCause = 'lock' | 'freeze' | 'version' | 'rollout';

/**
 * A write refused by change control before anything was sent: a lock
 * another run holds, a freeze, a blocked version, another version's rollout
 * in flight. Exit 12, `urn:ahs:blocked`; the message names who, why and
 * until when, and how to get through (release, wait, --break-glass, unblock,
 * --supersede).
 */
export class BlockedError extends AhsError {
  readonly exitCode = ExitCode.blocked;
  constructor(
    message: string,
    /** What blocks the write. */
    readonly blockedBy: BlockCause,
    /** When the block ends by itself (ISO: a lease's end, a freeze's end), null when only a person ends it. */
    readonly until: string | null = null,
  ) {
    super(message);
  }
  toBody(): ErrorBody {
    return { type: 'urn:ahs:blocked', title: this.message, status: null, detail: this.message, blockedBy: this.blockedBy, until: this.until };
  }
}
