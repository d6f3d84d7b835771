// The HTTP layer seen from the binary: auth, retries, timeouts, error bodies,
// proxies, --verbose traces, and the key never appearing anywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, DEMO_API_KEY, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe('HTTP layer', () => {
  it('sends the apikey header on /api/v2/{domain}/ paths; a wrong key is 403, exit 3', async () => {
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const ok = await h.ahs(['asset', 'list', '--json'], { env: { AHS_BASE_URL: spy.url } });
      expect(ok.exitCode).toBe(0);
      expect(spy.requests[0]).toMatchObject({ method: 'GET', url: '/api/v2/demo/va' });
      expect(spy.requests[0]!.headers.apikey).toBe(DEMO_API_KEY);
    } finally {
      await spy.close();
    }
    const bad = await h.ahs(['asset', 'list', '--json'], { env: { AHS_API_KEY: 'not-the-key-9876' } });
    expect(bad.exitCode).toBe(3);
    expect(bad.errJson()).toMatchObject({ status: 403 });
    const none = await h.ahs(['asset', 'list'], { env: { AHS_API_KEY: undefined } });
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toContain('no API key');
  });

  it('a key no HTTP header can carry is a usage error (exit 2), sent nowhere and not retried', async () => {
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const r = await h.ahs(['asset', 'list', '--json', '-v'], { env: { AHS_BASE_URL: spy.url, AHS_API_KEY: 'bad\u0001key-4242' } });
      expect(r.exitCode).toBe(2);
      expect(r.errJson()).toMatchObject({ type: 'urn:ahs:usage', status: null });
      expect(r.errJson().title).toMatch(/API key .*AHS_API_KEY/);
      expect(r.stdout + r.stderr).not.toContain('key-4242');
      expect(spy.requests).toHaveLength(0);
    } finally {
      await spy.close();
    }
  });

  it('--verbose traces requests and answers on stderr with the key redacted; the key appears nowhere', async () => {
    const id = uid('trace');
    const file = await h.file('t.zip', 'trace');
    const runs = [
      await h.ahs(['asset', 'create', id, '--name', 'n', '--type', '1001', '--verbose']),
      await h.ahs(['version', 'upload', id, file, '--platform', 'ios', '--name', 'v', '-v', '--json']),
      await h.ahs(['deploy', id, 'IOS1', '--platform', 'ios', '--env', 'dev', '-v']),
      await h.ahs(['promote-default', id, 'IOS1', '--platform', 'ios', '--env', 'dev', '-v', '--dry-run']),
      await h.ahs(['asset', 'status', id, '-v', '--json']),
      await h.ahs(['asset', 'get', 'missing-one', '-v', '--json']),
      await h.ahs(['profile', 'check', '-v']),
    ];
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(DEMO_API_KEY);
    }
    expect(runs[0]!.stderr).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/api\/v2\/demo\/va/);
    expect(runs[0]!.stderr).toContain('> apikey: ***');
    expect(runs[0]!.stderr).toMatch(/< 201/);
    expect(runs[5]!.exitCode).toBe(4);
  });

  it('connection refused is exit 6 (json: urn:ahs:network)', async () => {
    const r = await h.ahs(['asset', 'list', '--json', '--retries', '0'], { env: { AHS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.exitCode).toBe(6);
    expect(r.errJson()).toMatchObject({ type: 'urn:ahs:network', status: null });
    expect(r.errJson().title).toMatch(/connection refused.*check the address \(--base-url/);
  });

  it('retries idempotent reads on 502/503/504, never a write (a gateway\'s answer to it is settled by a read)', async () => {
    let failures = 2;
    const flaky = await stubServer((req, res) => {
      if (req.method === 'GET' && failures > 0) {
        failures--;
        // Retry-After: 0 (honoured): the retries are counted here, the backoff without it is retry.test.ts's.
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0' }).end('busy');
        return true;
      }
      if (req.method === 'POST') {
        res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
        return true;
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const read = await h.ahs(['asset', 'list', '--json', '--retries', '3'], { env: { AHS_BASE_URL: flaky.url } });
      expect(read.exitCode).toBe(0);
      expect(flaky.requests.filter((r) => r.method === 'GET')).toHaveLength(3);
      const write = await h.ahs(['asset', 'create', uid('flaky'), '--name', 'n', '--type', '1001', '--retries', '3', '--timeout', '1', '--json'], { env: { AHS_BASE_URL: flaky.url } });
      // A gateway's 502 does not say whether the write was applied: reads settle it, and none shows it: unknown, never "safe to retry".
      expect(write.exitCode).toBe(6);
      expect(flaky.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      expect(write.errJson()).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
      expect(write.errJson().title).toMatch(/^the answer to POST \/va was lost: a gateway answered 502 \(a text\/plain body\); .*: the write may have been applied: check with `ahs asset get flaky-.*` before running it again$/);
      failures = 10;
      const exhausted = await h.ahs(['asset', 'list', '--retries', '1'], { env: { AHS_BASE_URL: flaky.url } });
      expect(exhausted.exitCode).toBe(1);
    } finally {
      await flaky.close();
    }
  });

  it('times out with --timeout (exit 6)', async () => {
    const slow = await stubServer(() => new Promise<boolean>(() => undefined));
    try {
      // The stub never answers: any --timeout ends the same way, a short one sooner.
      const r = await h.ahs(['asset', 'list', '--timeout', '0.2', '--retries', '0', '--json'], { env: { AHS_BASE_URL: slow.url } });
      expect(r.exitCode).toBe(6);
      expect(r.errJson().type).toBe('urn:ahs:network');
      expect(r.errJson().title).toMatch(/--timeout SECONDS/);
    } finally {
      await slow.close();
    }
  });

  it('keeps a plain-text 500 (undeploy) readable', async () => {
    const broken = await stubServer((req, res) => {
      if (req.method === 'POST' && req.url?.endsWith('/undeploy')) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error: undeploy exploded');
        return true;
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const id = uid('p500');
      await h.createAsset(id);
      const r = await h.ahs(['asset', 'undeploy', id, '--env', 'dev', '--platform', 'ios', '--yes'], { env: { AHS_BASE_URL: broken.url } });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('the service answered 500: Internal Server Error: undeploy exploded');
      const j = await h.ahs(['asset', 'undeploy', id, '--env', 'dev', '--platform', 'ios', '--yes', '--json'], { env: { AHS_BASE_URL: broken.url } });
      expect(j.errJson()).toMatchObject({ status: 500 });
    } finally {
      await broken.close();
    }
  });

  it('goes through HTTP_PROXY, and around it for NO_PROXY hosts', async () => {
    const proxy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const via = await h.ahs(['asset', 'list', '--json'], { env: { HTTP_PROXY: proxy.url } });
      expect(via.exitCode).toBe(0);
      expect(proxy.requests.length).toBe(1);
      const [tunnel] = proxy.requests;
      // An http:// service: the absolute URL, forwarded (as curl does), never a CONNECT tunnel.
      expect(tunnel!.method).toBe('GET');
      expect(new URL(tunnel!.url).host).toBe(new URL(h.emu.baseUrl).host);
      const around = await h.ahs(['asset', 'list', '--json'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
      expect(around.exitCode).toBe(0);
      expect(proxy.requests.length).toBe(1);
      // An upload too (through a proxy it is sent as a stream by undici, see http/client.ts).
      const id = uid('proxied');
      await h.createAsset(id);
      const content = Buffer.alloc(3 * 1024 * 1024 + 17, 5);
      const file = await h.file('proxied.bin', content);
      const upload = await h.ahs(['version', 'upload', id, file, '--platform', 'ios', '--name', 'via-proxy', '--json'], { env: { HTTP_PROXY: proxy.url } });
      expect(upload.exitCode).toBe(0);
      // Each request forwarded on its own (reads and the upload), none tunnelled.
      const uploaded = proxy.requests.slice(1);
      expect(uploaded.some((request) => request.method === 'POST' && new URL(request.url).pathname.endsWith(`/va/${id}/versions`))).toBe(true);
      expect(uploaded.filter((request) => request.method === 'CONNECT')).toEqual([]);
      const stored = await h.ahs(['version', 'get', id, upload.json<{ versionId: string }>().versionId, '--json']);
      expect(stored.json()).toMatchObject({ versionName: 'via-proxy', fileName: 'proxied.bin' });
    } finally {
      await proxy.close();
    }
  });
});
