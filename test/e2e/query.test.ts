// --query EXPR (JMESPath, as the aws CLI): a string prints raw, anything else
// as JSON, with the command's own exit code; a bad expression sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe('--query', () => {
  it('a string result prints raw: id=$(ahs version upload … --query versionId)', async () => {
    const id = uid('q');
    await h.createAsset(id);
    const file = await h.file('app.zip', 'bundle');
    const r = await h.ahs(['version', 'upload', id, file, '--platform', 'ios', '--name', '1.4', '--query', 'versionId']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('IOS1');
  });

  it('other results print as JSON; no match is null', async () => {
    const id = uid('q');
    await h.createAsset(id);
    await h.uploadVersion(id, 'ios', 'a');
    await h.uploadVersion(id, 'android', 'b');
    const list = await h.ahs(['version', 'list', id, '--query', 'results[].{id: versionId, name: versionName}']);
    expect(list.exitCode).toBe(0);
    const rows = JSON.parse(list.stdout);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(expect.arrayContaining([{ id: 'IOS1', name: 'a' }, { id: 'AND1', name: 'b' }]));
    const count = await h.ahs(['version', 'list', id, '--query', 'totalResults']);
    expect(count.stdout).toBe('2');
    const none = await h.ahs(['asset', 'get', id, '--query', 'nosuchfield']);
    expect(none.stdout).toBe('null');
  });

  it('keeps the command\'s exit code, with the error as JSON on stderr and nothing on stdout', async () => {
    const r = await h.ahs(['version', 'upload', 'no-such-asset', await h.file('x.zip', 'x'), '--platform', 'ios', '--name', '1', '--query', 'versionId']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.errJson()).toMatchObject({ status: 404 });
  });

  it('a bad expression is a usage error before any request', async () => {
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const r = await h.ahs(['asset', 'list', '--query', 'results[?'], { env: { AHS_BASE_URL: spy.url } });
      expect(r.exitCode).toBe(2);
      expect(r.errJson()).toMatchObject({ type: 'urn:ahs:usage' });
      expect(r.errJson().title).toContain('--query is not a valid JMESPath expression');
      expect(spy.requests).toEqual([]);
    } finally {
      await spy.close();
    }
  });
});

describe('--query functions', () => {
  it('typed functions are checked against the answer, not an empty document: length(), sort_by(), keys()', async () => {
    const id = uid('qf');
    await h.createAsset(id);
    await h.uploadVersion(id, 'ios', 'a');
    await h.uploadVersion(id, 'ios', 'b');
    expect((await h.ahs(['version', 'list', id, '--query', 'length(results)'])).stdout).toBe('2');
    expect((await h.ahs(['version', 'list', id, '--query', 'sort_by(results, &version)[-1].versionId'])).stdout).toBe('IOS2');
    const keys = await h.ahs(['asset', 'get', id, '--query', 'keys(@)']);
    expect(JSON.parse(keys.stdout)).toContain('assetId');
  });

  it('an expression that fails on the answer says so, and that the command completed', async () => {
    const id = uid('qf');
    await h.createAsset(id);
    const r = await h.ahs(['asset', 'get', id, '--query', 'abs(assetName)']);
    expect(r.exitCode).toBe(2);
    expect(r.errJson().title).toMatch(/failed on the answer: .*the command itself completed/);
    expect(r.stderr).not.toContain('unexpected error');
  });
});
