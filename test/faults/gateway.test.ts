// Never quietly wrong behind a gateway (issue 19): a gateway's answer to a
// write (a 504 page after the service applied it) is settled by a read,
// never reported as the service's failure; 429 and 503 with Retry-After are
// waited out within --timeout, or refused at once when they ask for more;
// a kept-alive connection reset as it is reused; and a forward proxy that
// wants credentials or is down, named as the proxy.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, harness, syncedLiveCollection, uid, type Harness } from '../e2e/helpers.js';
import { GATEWAY_PAGE, deadPort, startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';

let h: Harness;
let gateway: FaultProxy;
beforeAll(async () => {
  h = await harness();
  gateway = await startFaultProxy(h.emu.baseUrl);
});
afterEach(() => {
  gateway.reset();
  gateway.log.length = 0;
});
afterAll(async () => {
  await gateway?.close();
  await h?.close();
});

const through = (args: string[], env: Record<string, string> = {}) => h.ahs(args, { env: { AHS_BASE_URL: gateway.url, ...env } });
const sent = (method: string, path: RegExp) => gateway.log.filter((r) => r.method === method && path.test(r.path.split('?')[0]!));

describe('a gateway answers 504 (an HTML page) to a write the service applied', () => {
  it('version upload: exit 0, a read confirms it, one version', async () => {
    const id = uid('gw');
    await h.createAsset(id);
    const file = await h.file('gw.zip', 'payload');
    gateway.inject({ kind: 'gateway' }, { method: 'POST', path: /\/versions$/ });
    const run = await through(['version', 'upload', id, file, '--platform', 'ios', '--name', '3.0', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('a read confirms the write was applied');
    expect(run.stderr).not.toMatch(/<|nginx|Gateway Time-out/);
    expect(run.json()).toMatchObject({ versionId: 'IOS1', versionName: '3.0' });
    expect(sent('POST', /\/versions$/)).toHaveLength(1);
    expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(1);
  });

  it('deploy: exit 0, a read confirms it, the record LIVE', async () => {
    const id = uid('gw');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    gateway.inject({ kind: 'gateway' }, { method: 'POST', path: /\/deploy$/ });
    const run = await through(['deploy', id, v, '--platform', 'ios', '--env', 'dev']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('a read confirms the write was applied');
    expect(sent('POST', /\/deploy$/)).toHaveLength(1);
    expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(1);
    expect(await h.records(id)).toEqual([`ios/dev/${v}=LIVE`]);
  });

  it('item sync: the removal of a replaced item, sent through the uploads\' pool (undici), settled by a read: exit 0, sent once', async () => {
    const { writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { id, dir } = await syncedLiveCollection(h, { 'a.zip': 'a', 'b.zip': 'b' }, 'gws');
    const old = (await h.call('GET', `/vc/${id}/items`)).body.results.find((i: { assetItemName: string }) => i.assetItemName === 'b.zip').assetItemId;
    await writeFile(join(dir, 'b.zip'), 'bbbb');
    gateway.inject({ kind: 'gateway' }, { method: 'DELETE', path: `/items/${old}` });
    const run = await through(['item', 'sync', id, dir, '--type', '1001', '--delete', '--yes', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('a read confirms the write was applied');
    expect(run.json().replaced).toEqual([expect.objectContaining({ old })]);
    expect(sent('DELETE', /\/items\//)).toHaveLength(1);
    const names = (await h.call('GET', `/vc/${id}/items`)).body.results.map((i: { assetItemName: string; size: number }) => `${i.assetItemName}:${i.size}`);
    expect(names.sort()).toEqual(['a.zip:1', 'b.zip:4']);
  });

  it('a 502 before the service saw it: no read proves "not applied" (the service may still be creating it): unknown, exit 6 naming the gateway and the command that checks, no page; nothing created', async () => {
    const id = uid('gw');
    gateway.inject({ kind: 'status', status: 502, headers: { 'content-type': 'text/html' }, body: GATEWAY_PAGE.replace(/504/g, '502') }, { method: 'POST', path: /\/va$/ });
    // --timeout 0.5: the reads that find nothing go on until it is spent; half a second still takes several (issue 34).
    const run = await through(['asset', 'create', id, '--name', 'n', '--type', '1001', '--timeout', '0.5']);
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toMatch(new RegExp(`^error: the answer to POST /va was lost: a gateway answered 502 \\(an HTML page\\); .*: the write may have been applied: check with \`ahs asset get ${id}\` before running it again$`));
    expect(run.stderr).not.toMatch(/safe to retry|not applied/);
    expect(run.stderr).not.toMatch(/<|nginx/);
    expect((await h.call('GET', `/va/${id}`)).status).toBe(404);
  });

  it('--verbose shows a short excerpt of the page, the key redacted', async () => {
    const id = uid('gw');
    await h.createAsset(id);
    const page = `<html><body>upstream timed out for apikey=${DEMO_API_KEY} ${'x'.repeat(2000)}</body></html>`;
    gateway.inject({ kind: 'gateway', body: page }, { method: 'POST', path: /\/va$/ });
    const run = await through(['asset', 'create', uid('gw'), '--name', 'n', '--type', '1001', '--verbose']);
    expect(run.stderr).toContain('< <html><body>upstream timed out for apikey=***');
    expect(run.stderr).not.toContain(DEMO_API_KEY);
    expect(run.stderr).not.toContain('x'.repeat(300));
  });
});

describe('429 and 503 with Retry-After', () => {
  it('a write answered 429 is sent again after the wait the service asked for', async () => {
    const id = uid('rl');
    gateway.inject({ kind: 'status', status: 429, headers: { 'retry-after': '0', 'content-type': 'application/json' }, body: '{"type":"about:blank","title":"Too Many Requests","status":429,"detail":"slow down"}' }, { method: 'POST', path: /\/va$/ });
    const run = await through(['asset', 'create', id, '--name', 'n', '--type', '1001']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('retrying POST /va (attempt 2 of 3) after HTTP 429 (the service asked to wait 0 s)');
    expect((await h.call('GET', `/va/${id}`)).status).toBe(200);
    expect(sent('POST', /\/va$/)).toHaveLength(2);
    expect(gateway.log.filter((r) => r.forwarded && r.method === 'POST')).toHaveLength(1);
  });

  it('a read answered 503 with Retry-After is retried and said so', async () => {
    const id = uid('rl');
    await h.createAsset(id);
    gateway.inject({ kind: 'status', status: 503, headers: { 'retry-after': '0' } }, { method: 'GET', path: `/va/${id}` });
    const run = await through(['asset', 'get', id]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(`retrying GET /va/${id} (attempt 2 of 3) after HTTP 503 (the service asked to wait 0 s)`);
  });

  it('a wait longer than what is left of --timeout fails at once, saying so (one request, no sleep to the deadline)', async () => {
    const id = uid('rl');
    gateway.inject({ kind: 'status', status: 503, headers: { 'retry-after': '3600' } }, { method: 'GET', times: 5 });
    const run = await through(['asset', 'get', id, '--timeout', '30']);
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toMatch(new RegExp(`^error: GET /va/${id} answered 503, and the service asked to retry after 3600 s, more than the \\d+(\\.\\d)? s left of --timeout \\(30 s\\): try again later, or allow more time with --timeout SECONDS$`));
    expect(gateway.log).toHaveLength(1);
  });

  it('a write answered 429 asking for more than is left is not applied: exit 6 at once', async () => {
    const id = uid('rl');
    gateway.inject({ kind: 'status', status: 429, headers: { 'retry-after': '3600' } }, { method: 'POST', path: /\/va$/ });
    const run = await through(['asset', 'create', id, '--name', 'n', '--type', '1001']);
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toContain('POST /va answered 429, and the service asked to retry after 3600 s');
    expect(run.stderr).not.toContain('may have been applied');
    expect(sent('POST', /\/va$/)).toHaveLength(1);
  });

  it('a write answered 503 (even with Retry-After) is a gateway answer: settled by reads, unknown when none shows it (never "safe to retry")', async () => {
    const id = uid('rl');
    gateway.inject({ kind: 'status', status: 503, headers: { 'retry-after': '1' } }, { method: 'POST', path: /\/va$/ });
    const run = await through(['asset', 'create', id, '--name', 'n', '--type', '1001', '--timeout', '1', '--json']);
    expect(run.exitCode).toBe(6);
    expect(run.errJson()).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
    expect(run.errJson().detail).toMatch(/a gateway answered 503 .*check with `ahs asset get /);
    expect(run.stderr).not.toMatch(/safe to retry|not applied/);
    expect(sent('POST', /\/va$/)).toHaveLength(1);
    expect(sent('GET', new RegExp(`/va/${id}$`)).length).toBeGreaterThanOrEqual(2);
    expect((await h.call('GET', `/va/${id}`)).status).toBe(404);
  });
});

describe('kept-alive connections reset as they are reused', () => {
  it('a read is sent again on a new connection', async () => {
    const paged = await startFaultProxy(h.emu.baseUrl, { pageSizeCap: 1 });
    try {
      await h.createAsset(uid('ka'));
      await h.createAsset(uid('ka'));
      // Two resets: each costs a backoff of the default policy.
      paged.inject({ kind: 'reset-reused' }, { method: 'GET', path: /\/va$/, times: 2 });
      const run = await h.ahs(['asset', 'list', '--all', '--json'], { env: { AHS_BASE_URL: paged.url } });
      expect(run.exitCode, run.stderr).toBe(0);
      const total = (await h.call('GET', '/va')).body.totalResults;
      expect(run.json().results).toHaveLength(total);
      expect(paged.log.filter((r) => r.forwarded).length).toBe(total);
      // How many pages come on a reused connection is the pool's to decide; at least one did, and was reset.
      expect(paged.log.filter((r) => r.fault === 'reset-reused' && !r.forwarded).length).toBeGreaterThanOrEqual(1);
    } finally {
      await paged.close();
    }
  });

  it('a write never goes on a kept-alive connection: a deploy after its reads is applied, and exits 0', async () => {
    const id = uid('ka');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    // deploy --idempotent reads the channel first; its POST goes on a connection of its own.
    gateway.inject({ kind: 'reset-reused' }, { method: 'POST', path: /\/deploy$/ });
    const run = await through(['deploy', id, v, '--platform', 'ios', '--env', 'dev', '--idempotent']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(gateway.log[0]!.method).toBe('GET');
    expect(sent('POST', /\/deploy$/)).toEqual([expect.objectContaining({ fault: undefined, forwarded: true })]);
    expect(await h.records(id)).toEqual([`ios/dev/${v}=LIVE`]);
  });

  it('behind a gateway that resets every request on a reused connection, 5 releases in a row each exit 0 with one version', async () => {
    const strict = await startFaultProxy(h.emu.baseUrl);
    try {
      strict.inject({ kind: 'reset-reused' }, { times: Infinity });
      for (let index = 1; index <= 5; index++) {
        const id = uid('ka');
        await h.createAsset(id);
        const file = await h.file(`r${index}.bin`, `release ${index}`);
        const run = await h.ahs(['release', id, file, '--name', `r${index}`, '--platform', 'ios', '--env', 'dev', '--json'], { env: { AHS_BASE_URL: strict.url } });
        expect(run.exitCode, run.stderr).toBe(0);
        expect(run.stderr).not.toContain('may have been applied');
        expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(1);
        expect(await h.records(id)).toEqual([expect.stringMatching(/^ios\/dev\/IOS1=(LIVE|DEFAULT)$/)]);
      }
      // Every write came on a connection of its own: none was reset.
      const writes = strict.log.filter((r) => r.method !== 'GET');
      expect(writes.length).toBeGreaterThanOrEqual(10);
      expect(writes.every((r) => r.forwarded)).toBe(true);
      expect(new Set(writes.map((r) => r.connection)).size).toBe(writes.length);
    } finally {
      await strict.close();
    }
  });
});

describe('a forward proxy (HTTP_PROXY)', () => {
  let proxy: FaultProxy;
  beforeAll(async () => {
    proxy = await startFaultProxy(h.emu.baseUrl, { proxyAuth: 'ci:s3cret' });
  });
  afterAll(() => proxy.close());

  it('answering 407 is named, with how to give credentials: exit 6, not "interrupted"', async () => {
    const run = await h.ahs(['asset', 'list'], { env: { HTTP_PROXY: proxy.url } });
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toBe(`error: the proxy ${proxy.url} answered 407 Proxy Authentication Required: put credentials in HTTP_PROXY (http://user:pass@host:port) or check NO_PROXY`);
  });

  it('refusing the credentials given: named without them', async () => {
    const run = await h.ahs(['asset', 'list', '--json'], { env: { HTTP_PROXY: proxy.url.replace('//', '//ci:wrong-pass@') } });
    expect(run.exitCode).toBe(6);
    expect(run.errJson()).toMatchObject({ type: 'urn:ahs:network', status: null });
    expect(run.errJson().title).toBe(`the proxy ${proxy.url} answered 407 Proxy Authentication Required: the credentials in HTTP_PROXY were refused: check them (http://user:pass@host:port) or check NO_PROXY`);
    expect(run.stderr).not.toContain('wrong-pass');
  });

  it('with the right credentials, goes through: to an http:// service by plain forwarding, as curl does (no CONNECT)', async () => {
    const [tunnels, forwards] = [proxy.tunnels, proxy.forwards];
    const run = await h.ahs(['asset', 'list', '--json'], { env: { HTTP_PROXY: proxy.url.replace('//', '//ci:s3cret@') } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(proxy.tunnels).toBe(tunnels);
    expect(proxy.forwards).toBe(forwards + 1);
  });

  it('down: "could not reach the proxy", never the service', async () => {
    const dead = await deadPort();
    const run = await h.ahs(['asset', 'list', '--retries', '0'], { env: { HTTP_PROXY: dead.replace('//', '//ci:s3cret@') } });
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toBe(`error: could not reach the proxy ${dead} (ECONNREFUSED): check HTTP_PROXY`);
    const unknown = await h.ahs(['asset', 'list', '--retries', '0'], { env: { HTTP_PROXY: 'http://proxy.invalid:3128' } });
    expect(unknown.exitCode).toBe(6);
    expect(unknown.stderr).toBe('error: could not reach the proxy http://proxy.invalid:3128 (ENOTFOUND): check HTTP_PROXY');
  });
});
