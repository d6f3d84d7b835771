// What a kind of step does, written once: the request it sends, how it
// predicts the service's answer with src/rules, how it sends (by default the
// JSON request as planned), how a lost answer is settled by a read, and
// whether a 500 means "mid-deployment" (wait it out). The executor
// (../execute.ts) owns the policies; a kind only answers its questions.
import type { ApiClient } from '../../http/client.js';
import type { PlanOutput } from '../context.js';
import type { PlannedRequest, Prediction, Settlement } from '../plan.js';
import type { RetryBudget } from '../retry.js';

/** What a kind's send and settle may use. */
export interface KindIO {
  api: ApiClient;
  out: PlanOutput;
  signal: AbortSignal;
  retry: RetryBudget;
  /** When the first send of this step began (this machine's clock; compare with api.madeSince). */
  sentAt: number;
  /** Bytes of the step's file sent so far (uploads). */
  progress(sent: number, total: number): void;
}

/** The local file a step sends: checked (size, digest) before a saved plan is applied. */
export interface StepFile {
  path: string;
  /** The name the service is told (the file part's filename). */
  name: string;
  /** What the progress line calls it, when not its name (a journal entry's name is the entry itself, hundreds of characters). */
  label?: string;
  size: number;
  sha256?: string;
}

export interface Kind<P = any, R = any> {
  request(params: P, api: ApiClient): PlannedRequest;
  /** The rules' prediction from reads of the service (when the command did not plan one). */
  predict(params: P, api: ApiClient): Promise<Prediction>;
  send?(params: P, io: KindIO): Promise<R>;
  /**
   * After a lost answer (or a 500 of a deployment): was it applied? The
   * service may still be applying the write after its answer is lost, so a
   * read proves "applied" or nothing: the executor reads again within
   * --timeout, then the outcome is unknown (never "not applied").
   */
  settle?(params: P, io: KindIO): Promise<Settlement<R>>;
  /** A 500 may mean the channel is mid-deployment: settle, and retry while the requested state does not hold. */
  waitsOutDeployment?: boolean;
  /** The collection named on the command line: a 400 is "not found" (exit 4) when GET /vc/{id} confirms it missing. */
  collection?(params: P): string | undefined;
  /** The local file this step uploads. */
  file?(params: P): StepFile | undefined;
  /** Sends only when a read at run time calls for it (settling copies made by another run): not shown as a request by a dry run. */
  runTimeOnly?: boolean;
  /** What the step does, in the user's terms ("upload ios.zip as 1.5.0"). */
  describe(params: P): string;
  /** The ahs command that tells whether the write was applied, when no read settled it. */
  check(params: P): string;
  /** What the step did once applied, in the user's terms ("version IOS4 was created"); else "done: " and describe(). */
  applied?(params: P, answer: R): string;
  /** The final line of the upload's progress. */
  uploaded?(params: P, answer: R): string;
}

/** A kind, typed by its parameters and answer. */
export function kind<P, R>(definition: Kind<P, R>): Kind<P, R> {
  return definition;
}
