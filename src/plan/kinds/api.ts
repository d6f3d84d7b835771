// `ahs api` METHOD PATH of a write, as a step: the request exactly as given.
// The executor runs it like every other write, so that it is gated by change
// control (src/plan/change-control.ts names its scopes from its path and
// body) and recorded in the journal as the raw request
// (src/plan/journal-record.ts), for the CLI and the library's
// client.request() alike. The rules do not predict a raw request, and no
// read can settle a lost answer to one: its outcome is then unknown.
import type { Query } from '../../http/client.js';
import type { PlannedRequest } from '../plan.js';
import { kind } from './kind.js';

export interface ApiRequestParams {
  method: PlannedRequest['method'];
  /** The whole path (/api/v2/{domainId}/...), as the request goes. */
  path: string;
  query?: Query;
  body?: unknown;
}

export const apiRequest = kind<ApiRequestParams, unknown>({
  describe: (p) => `${p.method} ${p.path}`,
  check: (p) => `ahs api GET ${p.path.replace(/^\/api\/v2\/[^/]+\//, '')}`,
  request: (p) => ({ method: p.method, path: p.path, ...(p.query ? { query: p.query as Record<string, string> } : {}), ...(p.body !== undefined ? { body: p.body } : {}) }),
  predict: async () => ({
    current: null,
    decision: { ok: true, status: 200, next: null, effects: [] },
    notes: ['a raw request: the rules do not predict its answer; the service decides'],
  }),
});
