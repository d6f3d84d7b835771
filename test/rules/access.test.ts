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
    [{ fileName: 'anything.bin' }, [], undefined],
    [{ fileName: 'app.zip' }, ['.ZIP'], undefined],
    [{ fileName: 'archive.tar.zip' }, ['.zip'], undefined],
    // A dot file has no extension: `.zip` is a name, not a type.
    [{ fileName: '.zip' }, ['.zip'], 400],
  ])('%j allowed %j -> %s', (file, allowed, status) => {
    expect(decideFileType(file, '1001', allowed)?.status).toBe(status);
  });
});

describe('the titles say what was refused and what is allowed', () => {
  it.each([
    ['no file', () => decideFileType(undefined, '1001', ['.zip']), 'No file uploaded: send the file in the multipart field assetFile'],
    ['a type not allowed', () => decideFileType({ fileName: 'App.EXE' }, '1001', ['.zip', '.js']), 'File type .exe of App.EXE is not allowed for asset type 1001; allowed: .zip, .js'],
    ['no extension', () => decideFileType({ fileName: 'Makefile' }, '1001', ['.zip']), 'File type (none) of Makefile is not allowed for asset type 1001; allowed: .zip'],
    ['an acting user who may not act', () => decideActingUser('updatedBy', 'viewer@acme.test', users, 'acme'), 'updatedBy viewer@acme.test is not an active admin or owner of domain acme; use the e-mail of an active admin or owner'],
    ['a key of another environment', () => decideKeyScope('prod', 'dev'), 'This API key is scoped to environment prod; it cannot act in dev'],
    ['an upload over the plan', () => decidePlanLimits(101, 0, { maxUploadBytes: 100 }), "The file is larger than the plan's upload limit of 100 bytes; upload a smaller file or raise the plan"],
    ['storage over the plan', () => decidePlanLimits(10, 995, { maxStorageBytes: 1000 }), "The plan's storage limit of 1000 bytes is reached (995 bytes stored); remove versions or items first"],
  ])('%s', (_case, decide, title) => {
    expect(decide()?.title).toBe(title);
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
  it.each([
    ['only an upload limit', { maxUploadBytes: 100 }, 100, 10 ** 12, undefined],
    ['only a storage limit', { maxStorageBytes: 1000 }, 10 ** 6, 0, 'plan-limit'],
    ['only a storage limit, within it', { maxStorageBytes: 1000 }, 500, 500, undefined],
  ])('%s', (_case, limits, size, stored, kind) => {
    expect(decidePlanLimits(size, stored, limits)?.kind).toBe(kind);
  });
});
