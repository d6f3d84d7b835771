// Handlers refuse a request by throwing a rules Rejection (`fail`); the
// server writes it as the service's error body.
import type { Rejection } from '../rules/index.js';

export class Problem extends Error {
  constructor(
    readonly rejection: Rejection,
    /** Write the body as plain text instead of the usual JSON (undeploy's 500). */
    readonly plainText = false,
  ) {
    super(rejection.title);
  }

  get status(): number {
    return this.rejection.status;
  }
}

/** Throws a rules Rejection as the service's error. */
export function fail(rejection: Rejection): never {
  throw new Problem(rejection);
}

/** Answers with the rejection of a decision that must be one here (e.g. the collection is missing). */
export function failWith(decision: { ok: true } | Rejection): never {
  if (!decision.ok) fail(decision);
  throw new Error('a rule allowed a request it should have refused');
}
