// Output modes: data on stdout, everything else on stderr; json is the API body
// unchanged; errors in json mode are one JSON object on stderr.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe('output', () => {
  it('json is the API body unchanged, -o json == --json', async () => {
    const id = uid('out');
    await h.createAsset(id);
    const server = (await h.call('GET', `/va/${id}`)).body;
    const a = await h.ahs(['asset', 'get', id, '--json']);
    const b = await h.ahs(['-o', 'json', 'asset', 'get', id]);
    expect(a.json()).toEqual(server);
    expect(b.json()).toEqual(server);
    expect(a.stderr).toBe('');
    // -o yaml: the same document as YAML.
    const yaml = await h.ahs(['asset', 'get', id, '-o', 'yaml']);
    expect(yaml.exitCode).toBe(0);
    expect((await import('yaml')).parse(yaml.stdout)).toEqual(server);
    expect(yaml.stdout).toContain(`assetId: ${id}`);
  });

  it('table mode: data on stdout, status on stderr, no colour without a terminal, silence with -q', async () => {
    const id = uid('out');
    const r = await h.ahs(['asset', 'create', id, '--name', 'n', '--type', '1001']);
    expect(r.stdout).toContain(id);
    expect(r.stderr).toContain('Created asset');
    expect(r.stdout + r.stderr).not.toMatch(/\x1b\[/);
    const q = await h.ahs(['asset', 'update', id, '--name', 'm', '-q']);
    expect(q.exitCode).toBe(0);
    expect(q.stderr).toBe('');
    expect(q.stdout).toContain('m');
  });

  it('errors in json mode: one JSON object on stderr (service body, or urn:ahs:* with status null)', async () => {
    const notFound = await h.ahs(['asset', 'get', 'nope-nope', '--json']);
    expect(notFound.stdout).toBe('');
    const lines = notFound.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      type: 'https://errors.asset-hosting.example/problem',
      title: expect.any(String),
      status: 404,
      detail: expect.any(String),
    });
    const usage = await h.ahs(['deploy', 'a', 'b', '--json']);
    expect(usage.exitCode).toBe(2);
    expect(usage.errJson()).toMatchObject({ type: 'urn:ahs:usage', status: null });
    const text = await h.ahs(['asset', 'get', 'nope-nope']);
    expect(text.stderr).toMatch(/^error: .* \(HTTP 404\)$/);
  });

  it('an empty list says so on stderr and prints nothing on stdout in table mode', async () => {
    const id = uid('out');
    await h.createAsset(id);
    const r = await h.ahs(['version', 'list', id]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no results');
    const j = await h.ahs(['version', 'list', id, '--json']);
    expect(j.json()).toMatchObject({ totalResults: 0, results: [] });
  });
});
