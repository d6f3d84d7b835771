// The run's own API client with each request seen first by a hook that may
// answer in the service's place (a refusal, junk), send it (or another in
// its place) and then lose the answer, or hold it while something else
// happens. What is sent is recorded, in order.
import type { ApiClient, RequestOptions } from '../../src/http/client.js';

/** `send`: sends the request (or another in its place) to the emulator. */
export type Hook = (request: RequestOptions, send: (instead?: RequestOptions) => Promise<unknown>) => Promise<unknown>;

export interface Scripted extends ApiClient {
  sent: RequestOptions[];
}

export function scripted(api: ApiClient, hook: Hook = (_request, send) => send()): Scripted {
  const client = Object.create(api) as Scripted;
  client.sent = [];
  client.json = ((request: RequestOptions) => {
    client.sent.push(request);
    return hook(request, (instead = request) => api.json(instead));
  }) as ApiClient['json'];
  return client;
}

/** Each request as `GET /va/ID/asset-urls` (the domain's prefix left out). */
export const lines = (api: Scripted): string[] => api.sent.map((r) => `${r.method} ${r.path.replace(/^\/api\/v2\/demo/, '')}`);
