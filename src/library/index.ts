// The library entry (`import { createClient } from 'ahs-cli'`, package.json
// "exports"): createClient, the error classes every call may throw (each
// with the CLI's exit code, kind and JSON body), and the public types.
// Bundled as dist/lib.mjs (scripts/build.mjs), without commander or the
// CLI's start-up; its declarations are dist/lib.d.ts.
export { createClient, type Client } from './client.js';
export {
  AhsError,
  BlockedError,
  ApiError,
  CancelledError,
  ChangesPending,
  ConflictError,
  ExitCode,
  NetworkError,
  NotFoundError,
  OutcomeUnknownError,
  PartialFailureError,
  UsageError,
  WaitingError,
  type BlockCause,
  type ErrorBody,
  type ErrorKind,
  type FailedRequest,
  type Outcome,
} from '../errors.js';
export type * from './types.js';
