// Typed errors. Commands throw these; src/main.ts alone turns them into an
// exit code and a message (house style: one exit site).

/** The four-field error body of the service (spec, "Errors"). */
export interface ErrorBody {
  type: string;
  title: string;
  status: number | null;
  detail: string;
}

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
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * What went wrong, in a word per exit code of cli.md (the library's callers
 * switch on it rather than on classes or exit numbers).
 */
export type ErrorKind = 'rejected' | 'usage' | 'forbidden' | 'not-found' | 'conflict' | 'network' | 'changes' | 'interrupted';

const KIND_OF_EXIT: Record<Exclude<ExitCode, 0>, ErrorKind> = {
  1: 'rejected',
  2: 'usage',
  3: 'forbidden',
  4: 'not-found',
  5: 'conflict',
  6: 'network',
  10: 'changes',
  130: 'interrupted',
};

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
  /** The JSON document printed on stderr in json mode. */
  abstract toBody(): ErrorBody;
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
  /** The answer's Retry-After header, when it had one: a write tried again waits that long (within --timeout). */
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
  /** The same answer, known (by a settling read) to mean "the named thing does not exist": exit 4. */
  asNotFound(): ApiError {
    return this.keepRetryAfter(new ApiError(this.status, this.body, true));
  }
  /** The same answer, known to mean contention (a channel kept mid-deployment by other writers through the retries): exit 5. */
  asConflict(): ApiError {
    return this.keepRetryAfter(new ApiError(this.status, this.body, false, ExitCode.conflict));
  }
  private keepRetryAfter(error: ApiError): ApiError {
    if (this.retryAfter !== undefined) error.retryAfter = this.retryAfter;
    return error;
  }
  toBody(): ErrorBody {
    return this.body;
  }
}

/** A local conflict: an --expect-current that did not hold, or a 409 still standing. Exit 5. */
export class ConflictError extends AhsError {
  readonly exitCode = ExitCode.conflict;
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
  toBody(): ErrorBody {
    return { type: 'urn:ahs:network', title: this.message, status: null, detail: this.message };
  }
}

/**
 * A write whose answer was lost and whose settling read failed too: it may
 * or may not have been applied, and nothing read says which (exit 6).
 */
export class OutcomeUnknownError extends NetworkError {
  /** cli.md: urn:ahs:unknown-outcome (exit 6), `detail` naming the command that checks. */
  override toBody(): ErrorBody {
    return { type: 'urn:ahs:unknown-outcome', title: this.message, status: null, detail: this.message };
  }
}

/** Ctrl-C or a cancelled prompt. Exit 130. */
export class CancelledError extends AhsError {
  readonly exitCode = ExitCode.interrupted;
  constructor(message = 'interrupted') {
    super(message);
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

export function exitCodeForStatus(status: number, notFound = false): ExitCode {
  if (status === 403) return ExitCode.forbidden;
  if (status === 404 || (notFound && status === 400)) return ExitCode.notFound;
  if (status === 409) return ExitCode.conflict;
  return ExitCode.rejected;
}

/** Something named on the command line does not exist (exit 4), found by a read. */
export class NotFoundError extends AhsError {
  readonly exitCode = ExitCode.notFound;
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
