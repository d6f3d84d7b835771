// What every rule returns: the service's answer, as a value. The emulator
// turns it into an HTTP response; the CLI's --dry-run prints it.

/** The constant `type` of every error body of the service (emulator.md). */
export const ERROR_TYPE = 'https://errors.asset-hosting.example/problem';

/**
 * What kind of refusal a rejection is. A caller (the CLI's exit code, a
 * retry) decides from this, the status and its own request, never from the
 * title's wording.
 */
export type RejectionKind = 'not-found' | 'unknown-reference' | 'conflict' | 'state' | 'access' | 'plan-limit' | 'validation' | 'internal';

/** The resource a 'not-found' rejection says is missing. */
export type MissingResource = 'asset' | 'version' | 'collection' | 'item';

/** Made only by the named constructors of rejections.ts. */
export interface Rejection {
  ok: false;
  status: number;
  title: string;
  kind: RejectionKind;
  /** With kind 'not-found': what is missing. */
  resource?: MissingResource;
  /** The constructor's name, e.g. `assetNotFound`: stable, unlike the title. */
  code: string;
}

export interface Allowed<S> {
  ok: true;
  status: number;
  /** The state after the request (what a read would show). */
  next: S;
  effects: Effect[];
  /** The confirmation message of the response body, where the spec fixes one. */
  message?: string;
}

export type Decision<S> = Allowed<S> | Rejection;

/** Side effects beyond the one record the request names. */
export type Effect =
  | { kind: 'demote'; description: string; versionId: string; to: 'LIVE' }
  | { kind: 'removeRecords'; description: string; envId: string; platforms: string[]; count: number }
  | { kind: 'removeDeployments'; description: string; envIds: string[] }
  | { kind: 'removeItems'; description: string; itemIds: string[] }
  | { kind: 'detachItems'; description: string; itemIds: string[] }
  | { kind: 'redeploy'; description: string; envIds: string[] }
  | { kind: 'clearAnchor'; description: string; itemId: string };

export function allow<S>(status: number, next: S, effects: Effect[] = [], message?: string): Allowed<S> {
  return message === undefined ? { ok: true, status, next, effects } : { ok: true, status, next, effects, message };
}

/** The four-field error body the service sends for a rejection. */
export function errorBody(rejection: Pick<Rejection, 'status' | 'title'>) {
  return { type: ERROR_TYPE, title: rejection.title, status: rejection.status, detail: rejection.title };
}
