// One request exactly as given (`ahs api`, the library's client.request()):
// a read is sent at once (a list read page after page with `paginate`); a
// write is a plan of one step (src/plan/kinds/api.ts), which the executor
// gates by change control, records in the journal as the raw request, and
// predicts in a dry run without sending, as it does every other write.
import type { Method, Query } from '../http/client.js';
import { fetchAll } from '../http/paging.js';
import { plan, type Plan } from '../plan/plan.js';
import type { PlanContext } from '../plan/context.js';
import { steps } from '../plan/steps.js';
import type { ServiceContext } from '../service/context.js';

export interface ApiRequestInput {
  method: Method;
  /** The whole path (/api/v2/{domainId}/...; src/service/api-path.ts makes it). */
  path: string;
  query?: Query | undefined;
  body?: unknown;
}

/** GET: the answer; with `paginate`, every page's results in one list envelope. */
export async function readRequest(ctx: Pick<ServiceContext, 'api'>, input: ApiRequestInput & { paginate?: boolean | undefined }): Promise<unknown> {
  const api = await ctx.api();
  if (!input.paginate) return api.json<unknown>({ method: 'GET', path: input.path, query: input.query });
  const results = await fetchAll<unknown>(api, input.path, input.query);
  return { totalResults: results.length, pageNumber: 1, pageSize: results.length, results };
}

/** A write: one step, its answer the service's (undefined for an empty one). */
export function planWriteRequest(_ctx: PlanContext, input: ApiRequestInput): Plan<unknown> {
  const method = input.method as Exclude<Method, 'GET' | 'HEAD'>;
  const request = steps.apiRequest({ method, path: input.path, ...(input.query ? { query: input.query } : {}), ...(input.body !== undefined ? { body: input.body } : {}) });
  return plan([request], (results) => results.of(request));
}
