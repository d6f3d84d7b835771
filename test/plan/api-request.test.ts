// The raw request of `ahs api` as a step (src/plan/kinds/api.ts), by table:
// the request exactly as given, its words, the read that checks it, and a
// prediction that leaves the answer to the service.
import { describe, expect, it } from 'vitest';
import { apiRequest } from '../../src/plan/kinds/api.js';
import { KINDS } from '../../src/plan/kinds/index.js';
import { FakeService } from './fake.js';

describe('api.request', () => {
  const api = new FakeService().client();
  it.each<[string, Parameters<typeof apiRequest.request>[0], unknown]>([
    ['a body and a query', { method: 'POST', path: '/api/v2/d/va/A/versions/V/deploy', query: { targetPlatformId: 'ios' }, body: { envId: 'prod', intent: 'LIVE' } }, { method: 'POST', path: '/api/v2/d/va/A/versions/V/deploy', query: { targetPlatformId: 'ios' }, body: { envId: 'prod', intent: 'LIVE' } }],
    ['no query, no body', { method: 'DELETE', path: '/api/v2/d/va/A' }, { method: 'DELETE', path: '/api/v2/d/va/A' }],
    ['a body that is falsy but given', { method: 'PUT', path: '/api/v2/d/va/A', body: 0 }, { method: 'PUT', path: '/api/v2/d/va/A', body: 0 }],
    ['a null body', { method: 'PATCH', path: '/api/v2/d/va/A', body: null }, { method: 'PATCH', path: '/api/v2/d/va/A', body: null }],
  ])('the request as given: %s', (_name, params, expected) => {
    expect(apiRequest.request(params, api)).toStrictEqual(expected);
  });

  it('its words, and the read that checks it (the domain\'s prefix left out)', () => {
    expect(apiRequest.describe({ method: 'POST', path: '/api/v2/d/va/A/versions' })).toBe('POST /api/v2/d/va/A/versions');
    expect(apiRequest.check({ method: 'POST', path: '/api/v2/demo/va/A/versions' })).toBe('ahs api GET va/A/versions');
    expect(apiRequest.check({ method: 'POST', path: '/other/api/v2/demo/va/A' })).toBe('ahs api GET /other/api/v2/demo/va/A');
  });

  it('predicted as the service\'s to decide; the executor finds it by its kind', async () => {
    expect(await apiRequest.predict({ method: 'POST', path: '/api/v2/d/va' }, api)).toEqual({
      current: null,
      decision: { ok: true, status: 200, next: null, effects: [] },
      notes: ['a raw request: the rules do not predict its answer; the service decides'],
    });
    expect(KINDS['api.request']).toBe(apiRequest);
  });
});
