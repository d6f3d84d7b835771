// The library per call (issue 35): lazy lists that read a page only when the
// iteration needs it, and options of one call (signal, timeoutMs, retries)
// above the client's. Against the emulator behind the fault proxy, which
// counts the requests and holds the answers a test asks it to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, uid, DEMO_API_KEY, DEMO_USER, type Harness } from './helpers.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { ApiError, CancelledError, ConflictError, NetworkError, NotFoundError, UsageError, createClient, type Client, type ClientEvent } from '../../src/library/index.js';

let h: Harness;
let proxy: FaultProxy;
let client: Client;
let assetId: string;
const versionIds: string[] = [];
beforeAll(async () => {
  h = await harness();
  // The service caps pages at 10 results, whatever is asked.
  proxy = await startFaultProxy(h.emu.baseUrl, { pageSizeCap: 10 });
  client = createClient({ baseUrl: proxy.url, deliveryUrl: proxy.url, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER });
  assetId = uid('lib-calls');
  await h.createAsset(assetId);
  for (let n = 1; n <= 25; n++) versionIds.push(await h.uploadVersion(assetId, 'ios', `1.0.${n}`));
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await h?.close();
});

const versionReads = () => proxy.log.filter((r) => r.method === 'GET' && r.path.split('?')[0]!.endsWith(`/va/${assetId}/versions`)).length;

describe('lists read lazily', () => {
  it('a for await that breaks after the first result reads one page, and nothing more', async () => {
    const before = versionReads();
    let seen = 0;
    for await (const version of client.versions.list(assetId)) {
      expect(versionIds).toContain(version.versionId);
      seen++;
      break;
    }
    expect(seen).toBe(1);
    expect(versionReads() - before).toBe(1);
  });

  it('reads every page when the iteration goes on: 25 versions under a cap of 10 are 3 requests', async () => {
    const before = versionReads();
    const ids: string[] = [];
    for await (const version of client.versions.list(assetId)) ids.push(version.versionId);
    expect(ids.sort()).toEqual([...versionIds].sort());
    expect(versionReads() - before).toBe(3);
  });

  it('pages() gives each page with the list\'s totalResults; toArray({ limit }) reads only the pages it needs', async () => {
    const pages = [];
    for await (const page of client.versions.list(assetId, { pageSize: 10 }).pages()) pages.push(page);
    expect(pages.map((p) => [p.pageNumber, p.results.length, p.totalResults])).toEqual([
      [1, 10, 25],
      [2, 10, 25],
      [3, 5, 25],
    ]);
    const before = versionReads();
    const twelve = await client.versions.list(assetId).toArray({ limit: 12 });
    expect(twelve).toHaveLength(12);
    expect(versionReads() - before).toBe(2);
    expect(await client.versions.list(assetId).toArray()).toHaveLength(25);
  });

  it('a list of a collection that does not exist fails as not found (exit 4), on its first page', async () => {
    const error = await client.items.list(uid('no-such-collection')).toArray({ limit: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 4, kind: 'not-found' });
  });

  it('a bad pageSize or limit is a UsageError naming it', async () => {
    expect(() => client.assets.list({ pageSize: 0 })).toThrow(UsageError);
    await expect(client.assets.list().toArray({ limit: -1 })).rejects.toThrow(/limit must be a whole number/);
  });
});

describe('options of one call', () => {
  it('a call aborted by its own signal fails alone, with the reason as its cause; another call on the client completes, and the client goes on', async () => {
    // The asset read of the aborted call is held (never answered) until it gives up.
    const held = uid('held');
    proxy.inject({ kind: 'stall' }, { method: 'GET', path: `/va/${held}` });
    const controller = new AbortController();
    const aborted = client.assets.get(held, { signal: controller.signal }).catch((e: unknown) => e);
    const other = client.assets.get(assetId);
    await expect(other).resolves.toMatchObject({ assetId });
    const reason = new Error('the release was called off');
    controller.abort(reason);
    const error = await aborted;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe(reason);
    await expect(client.assets.get(assetId)).resolves.toMatchObject({ assetId });
  });

  it('timeoutMs of one call bounds that call alone (the client\'s budget is 30 s)', async () => {
    const slow = uid('slow');
    proxy.inject({ kind: 'stall' }, { method: 'GET', path: `/va/${slow}` });
    const error = await client.assets.get(slow, { timeoutMs: 300, retries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(6);
    expect(String((error as Error).message)).toMatch(/within 300 ms \(timeoutMs, retries included\)/);
  });

  it('a write planned with a call\'s signal is cancelled by it before anything is sent', async () => {
    const controller = new AbortController();
    const planned = await client.assets.update({ assetId, name: 'renamed' }, { signal: controller.signal });
    controller.abort(new Error('stop'));
    const writesBefore = proxy.log.filter((r) => r.method === 'PUT').length;
    const error = await planned.apply().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).toMatchObject({ message: 'interrupted: nothing was sent', outcome: 'not-applied' });
    expect(proxy.log.filter((r) => r.method === 'PUT').length).toBe(writesBefore);
  });

  it('an upload whose call signal fires once its request left: one short read settles it; outcome unknown when no version shows, applied when one does; cause the reason', async () => {
    for (const stored of [false, true]) {
      const id = uid('lib-cut');
      await h.createAsset(id);
      const file = await h.file(`${id}.zip`, Buffer.alloc(2 * 1024 * 1024, 3));
      const controller = new AbortController();
      const reason = new Error('the release was called off');
      // Not stored: the proxy holds the upload, never forwarded. Stored: forwarded, and the answer held after its headers.
      proxy.inject(stored ? { kind: 'stall', phase: 'body', after: 0 } : { kind: 'stall' }, { method: 'POST', path: `/va/${id}/versions` });
      const cutting = createClient({
        baseUrl: proxy.url,
        domainId: 'demo',
        apiKey: DEMO_API_KEY,
        user: DEMO_USER,
        onEvent: (event) => {
          // The upload's own answer: the journal's check (a read of its collection) answers beside it.
          const left = stored ? event.type === 'answer' && event.method === 'POST' : event.type === 'bytes' && event.done === event.total;
          if (left && !controller.signal.aborted) controller.abort(reason);
        },
      });
      try {
        const upload = await cutting.versions.upload({ assetId: id, file, platform: 'ios', name: '1.0.0' }, { signal: controller.signal });
        const error = await upload.apply().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(CancelledError);
        expect((error as CancelledError).cause).toBe(reason);
        expect((error as CancelledError).outcome).toBe(stored ? 'applied' : 'unknown');
        expect((error as CancelledError).message).toBe(stored ? `interrupted: version IOS1 of ${id} was created` : `interrupted: the write may have been applied: check with \`ahs version list ${id} --all\``);
      } finally {
        await cutting.close();
        proxy.reset();
      }
      expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(stored ? 1 : 0);
    }
  });

  it('bad options of a call are a UsageError naming them', async () => {
    await expect(client.assets.get(assetId, { timeoutMs: -1 })).rejects.toThrow(/timeoutMs must be a number of milliseconds above 0/);
    await expect(client.assets.get(assetId, { retries: 1.5 })).rejects.toThrow(/retries must be a whole number/);
  });
});

describe('a write with nothing to do', () => {
  it('a release already done says so in unchanged, and sends no write', async () => {
    const id = uid('lib-done');
    await h.createAsset(id);
    const file = await h.file(`${id}.zip`, 'done bytes');
    const first = await client.release({ assetId: id, file, platform: 'ios', envId: 'prod', name: '2.0.0' });
    expect(first.unchanged).toBeUndefined();
    await first.apply();
    // Straight to the emulator: the service's download URLs are on its own host, not the proxy's.
    const direct = createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER });
    try {
      const again = await direct.release({ assetId: id, file, platform: 'ios', envId: 'prod', name: '2.0.0' });
      expect(again.steps).toEqual([]);
      expect(again.unchanged).toMatchObject({ changed: false, message: expect.stringMatching(/already/) });
      const result = await again.apply();
      expect(result.stages.every((s) => !s.changed)).toBe(true);
    } finally {
      await direct.close();
    }
  });
});

describe('what the CLI has and the client now has too', () => {
  it('versions.urls(): a version\'s records in one environment, with their download URLs', async () => {
    const [first] = versionIds;
    await h.deploy(assetId, first!, 'ios', 'staging', 'LIVE');
    const records = await client.versions.urls(assetId, first!, 'staging').toArray();
    expect(records).toMatchObject([{ versionId: first, envId: 'staging', state: 'LIVE', downloadUrl: expect.stringMatching(/^https?:\/\//) }]);
    expect(await client.versions.urls(assetId, first!, 'prod').toArray()).toEqual([]);
  });

  it('request(): one request as given, under the domain, the key sent; an error answer is an ApiError with its body', async () => {
    const asset = await client.request<{ assetId: string }>({ method: 'get', path: `va/${assetId}` } as never);
    expect(asset.assetId).toBe(assetId);
    const page = await client.request<{ results: unknown[] }>({ method: 'GET', path: '/api/v2/{domainId}/va', query: { pageSize: 1 } });
    expect(page.results).toHaveLength(1);
    const missing = await client.request({ method: 'GET', path: `va/${uid('none')}` }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ exitCode: 4, body: { status: 404 } });
    await expect(client.request({ method: 'TRACE' as never, path: 'va' })).rejects.toThrow(/method must be one of GET, POST, PUT, PATCH, DELETE/);
    await expect(client.request({ method: 'GET', path: 'https://elsewhere.example/va' })).rejects.toThrow(/a path of the API, not a URL/);
  });
});

describe('errors by meaning, as data', () => {
  it('a 404 is a NotFoundError carrying the status, the service\'s body and the request', async () => {
    const missing = uid('missing');
    const error = await client.assets.get(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'ApiError', status: 404, body: { status: 404 }, request: { method: 'GET', path: `/api/v2/demo/va/${missing}` }, outcome: 'not-applied' });
    expect(error).not.toBeInstanceOf(ConflictError);
  });

  it('a compare-and-set that does not hold is a ConflictError with expected and actual', async () => {
    const id = uid('lib-cas');
    await h.createAsset(id);
    const [v1, v2] = [await h.uploadVersion(id, 'ios', '1'), await h.uploadVersion(id, 'ios', '2')];
    await h.deploy(id, v1, 'ios', 'prod', 'LIVE');
    await h.deploy(id, v1, 'ios', 'prod', 'DEFAULT');
    const planned = await client.promoteDefault({ assetId: id, versionId: v2, platform: 'ios', envId: 'prod', makeLive: true, expectCurrent: 'IOS999' }).catch((e: unknown) => e);
    const error = planned instanceof Error ? planned : await (planned as { apply(): Promise<unknown> }).apply().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ exitCode: 5, expected: 'IOS999', actual: v1 });
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=DEFAULT`]);
  });

  it('the service\'s 409 still standing after the retries is a ConflictError too, with the service\'s status and body', async () => {
    const id = uid('lib-409');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1');
    const body = JSON.stringify({ type: 'https://errors.example/problem', title: 'Conflict', status: 409, detail: 'the Default moved' });
    proxy.inject({ kind: 'answer', status: 409, contentType: 'application/problem+json', body }, { method: 'POST', path: /\/deploy$/, times: 20 });
    try {
      const error = await (await client.deploy({ assetId: id, versionId: v1, platform: 'ios', envId: 'dev' }, { retries: 1 })).apply().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ exitCode: 5, status: 409, body: { detail: 'the Default moved' }, request: { method: 'POST' } });
    } finally {
      proxy.reset();
    }
  });
});

describe('typed events', () => {
  it('an upload tells its requests, its bytes as they go, its end and its step; a logger gets them by level', async () => {
    const events: ClientEvent[] = [];
    const logged: string[] = [];
    const watched = createClient({
      baseUrl: h.emu.baseUrl,
      domainId: 'demo',
      apiKey: DEMO_API_KEY,
      user: DEMO_USER,
      onEvent: (event) => events.push(event),
      logger: { debug: (m) => logged.push(`debug ${m}`), info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`) },
    });
    try {
      const id = uid('lib-events');
      await h.createAsset(id);
      const file = await h.file(`${id}.zip`, Buffer.alloc(3 * 1024 * 1024, 7));
      const upload = await watched.versions.upload({ assetId: id, file, platform: 'ios', name: '1.0.0' });
      const version = await upload.apply();
      const bytes = events.filter((e): e is Extract<ClientEvent, { type: 'bytes' }> => e.type === 'bytes');
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.at(-1)).toMatchObject({ label: expect.stringContaining(`${id}.zip`), done: 3 * 1024 * 1024 });
      expect(bytes.every((e, i) => i === 0 || e.done >= bytes[i - 1]!.done)).toBe(true);
      expect(events).toContainEqual({ type: 'transfer-end', label: bytes[0]!.label, ok: true });
      expect(events).toContainEqual({ type: 'step', id: expect.any(String), kind: 'version.upload', outcome: 'done' });
      // The upload's request and its answer, with its status and time.
      expect(events).toContainEqual({ type: 'request', method: 'POST', path: `/va/${id}/versions` });
      expect(events).toContainEqual({ type: 'answer', method: 'POST', path: `/va/${id}/versions`, status: expect.any(Number), ms: expect.any(Number) });
      expect(logged).toContainEqual(`debug > POST /va/${id}/versions`);
      expect(version.versionId).toMatch(/^IOS/);
    } finally {
      await watched.close();
    }
  });
});
