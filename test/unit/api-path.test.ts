// `ahs api`'s PATH, by table: the forms a user types, and what is sent.
import { describe, expect, it } from 'vitest';
import { pathOf } from '../../src/service/api-path.js';

describe('ahs api PATH', () => {
  const rows: Array<[string, string]> = [
    ['/api/v2/{domainId}/va', '/api/v2/demo/va'],
    ['{domainId}/va/a1', '/api/v2/demo/va/a1'],
    ['/{domainId}/vc', '/api/v2/demo/vc'],
    ['va', '/api/v2/demo/va'],
    ['/va/a1/versions?pageSize=5', '/api/v2/demo/va/a1/versions?pageSize=5'],
    ['/vc/pack/deployments', '/api/v2/demo/vc/pack/deployments'],
    ['/vault/x', '/api/v2/vault/x'],
    ['/api/v2/other/va', '/api/v2/other/va'],
  ];
  for (const [typed, sent] of rows) {
    it(`${typed} → ${sent}`, () => expect(pathOf(typed, 'demo')).toBe(sent));
  }
  it('another placeholder, or a URL, is a usage error', () => {
    expect(() => pathOf('va/{assetId}', 'demo')).toThrow(/\{assetId\} is not filled by ahs/);
    expect(() => pathOf('https://x/va', 'demo')).toThrow(/a path of the API, not a URL/);
  });
});
