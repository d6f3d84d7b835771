// Who may act and what may be uploaded (asset-hosting-api-v2.md:
// "Authentication" 2-4, the 400/403 rows of the error tables).
import { describe, expect, it } from 'vitest';
import { decideActingUser, decideFileType, decideKeyScope, decidePlanLimits } from '../../src/rules/index.js';

const users = [
  { email: 'owner@acme.test', role: 'owner', active: true },
  { email: 'admin@acme.test', role: 'admin', active: true },
  { email: 'viewer@acme.test', role: 'viewer', active: true },
  { email: 'former@acme.test', role: 'admin', active: false },
];

describe('acting user: an active admin or owner of the domain, else 400', () => {
  it.each([
    ['owner@acme.test', undefined],
    ['ADMIN@acme.test', undefined],
    ['viewer@acme.test', 400],
    ['former@acme.test', 400],
    ['stranger@acme.test', 400],
  ])('%s -> %s', (email, status) => {
    expect(decideActingUser('createdBy', email, users, 'acme')?.status).toBe(status);
  });
});

describe('key scope: an environment-scoped key acts only there (403)', () => {
  it.each([
    [undefined, 'prod', undefined],
    ['prod', 'prod', undefined],
    ['prod', 'dev', 403],
  ])('key %s acting in %s -> %s', (keyEnv, envId, status) => {
    expect(decideKeyScope(keyEnv, envId)?.status).toBe(status);
  });
});

describe('file type: no file or a type the asset type does not allow -> 400', () => {
  it.each([
    [undefined, ['.zip'], 400],
    [{ fileName: '' }, undefined, 400],
    [{ fileName: 'app.zip' }, ['.zip', '.js'], undefined],
    [{ fileName: 'APP.ZIP' }, ['.zip'], undefined],
    [{ fileName: 'app.exe' }, ['.zip'], 400],
    [{ fileName: 'Makefile' }, ['.zip'], 400],
    [{ fileName: 'anything.bin' }, undefined, undefined],
  ])('%j allowed %j -> %s', (file, allowed, status) => {
    expect(decideFileType(file, '1001', allowed)?.status).toBe(status);
  });
});

describe('plan limits: upload size, then storage -> 403', () => {
  const plan = { maxUploadBytes: 100, maxStorageBytes: 1000 };
  it.each([
    [100, 0, undefined],
    [101, 0, 403],
    [100, 900, undefined],
    [100, 901, 403],
  ])('%i bytes with %i stored -> %s', (size, stored, status) => {
    expect(decidePlanLimits(size, stored, plan)?.status).toBe(status);
  });
  it('no plan: no limit', () => expect(decidePlanLimits(10 ** 12, 10 ** 12, undefined)).toBeUndefined());
});
