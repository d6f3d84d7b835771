// The one factory for the service's error bodies: handlers throw a Problem
// (or return a rules Rejection through `fail`), the server writes the
// four-field body of the spec.
import { errorBody, type Rejection } from '../rules/index.js';

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    /** Write the body as plain text instead of the usual JSON (undeploy's 500). */
    readonly plainText = false,
  ) {
    super(title);
  }

  body() {
    return errorBody({ status: this.status, title: this.title });
  }
}

export function problem(status: number, title: string): Problem {
  return new Problem(status, title);
}

/** Throws a rules Rejection as the service's error. */
export function fail(rejection: Pick<Rejection, 'status' | 'title'>): never {
  throw new Problem(rejection.status, rejection.title);
}

/** For a decision that must be a rejection here (e.g. the collection is missing). */
export function failWith(decision: { ok: true } | Pick<Rejection, 'ok' | 'status' | 'title'>): never {
  if (!decision.ok) fail(decision);
  throw new Problem(500, 'Unexpected error: a rule allowed a request it should have refused');
}
