// A write of several parts (files) of which some failed: its result all the
// same, carried by the error. The command prints the result, then fails with
// the error's exit code; the library's apply() rejects with the error, whose
// `result` says what was done.
import { PartialFailureError, type ErrorBody, type ExitCode } from '../errors.js';
import type { Plan } from '../plan/plan.js';

export class PartialResultError<R> extends PartialFailureError {
  constructor(
    message: string,
    exitCode: ExitCode,
    first: ErrorBody | undefined,
    /** What was done: the document the write prints (uploaded, failed, ...). */
    override readonly result: R,
  ) {
    super(message, exitCode, first);
    // Named as every partial failure, to callers and in logs.
    this.name = 'PartialFailureError';
  }
}

/** The plan with its result handed to `then`, also when some parts failed (then the error is thrown after). */
export function thenReport<R, S>(planned: Plan<R>, then: (result: R) => S | Promise<S>): Plan<S> {
  return {
    ...planned,
    done: async (results) => {
      let result: R;
      try {
        result = await planned.done(results);
      } catch (error) {
        if (error instanceof PartialResultError) await then(error.result as R);
        throw error;
      }
      return then(result);
    },
  };
}
