// Every write ends with a known outcome (issue 10): a proxy forwards the
// write, the service applies it, and the answer is lost (the connection is
// reset). ahs settles it with a read: exit 0 with the write confirmed, or 6
// saying whether it was applied; never a second version or item.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, harness, uid, type Harness } from '../e2e/helpers.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';

let h: Harness;
let proxy: FaultProxy;
beforeAll(async () => {
  h = await harness();
  proxy = await startFaultProxy(h.emu.baseUrl);
});
afterEach(() => proxy.reset());
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

/**
 * --timeout of the writes that are never applied: ahs re-reads until it is
 * spent, then says "unknown". The nine cases wait it out at the same time
 * (below), so 2 s costs ~2 s in all; shorter, the nine runs and the emulator
 * sharing one event loop on a loaded machine could stall a read past the
 * budget before the write was ever sent (urn:ahs:network instead of
 * unknown-outcome: seen once in ~35 loaded runs at 0.5 s).
 */
const SETTLE_TIMEOUT = '2';

/** Runs ahs through the proxy, the next write matching `path` losing its answer. */
async function lostAnswer(method: string, path: RegExp, args: string[]) {
  proxy.inject({ kind: 'reset-after' }, { method, path });
  const run = await h.ahs(args, { env: { AHS_BASE_URL: proxy.url } });
  const writes = proxy.log.filter((r) => r.method === method && path.test(r.path.split('?')[0]!));
  proxy.log.length = 0;
  return { run, writes };
}

function confirmed(run: { exitCode: number; stderr: string }) {
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stderr).toContain('a read confirms');
}

interface WriteKind {
  name: string;
  method: string;
  path: RegExp;
  setup: () => Promise<{ args: string[]; state: () => Promise<unknown>; check: string }>;
}

// Every kind of write settles the same way (issue 30): a read that shows the change proves it applied;
// one that does not proves nothing while the service may still be working on it.
const newCollection = async () => {
  const c = uid('lostk');
  expect((await h.call('POST', '/vc', { collectionId: c, collectionName: c, allowedAssetTypes: ['1001'], createdBy: DEMO_USER })).status).toBe(201);
  return c;
};
function writeKinds(): WriteKind[] {
  return [
    {
      name: 'asset update',
      method: 'PUT',
      path: /\/va\/[^/]+$/,
      async setup() {
        const id = uid('lostk');
        await h.createAsset(id);
        return { args: ['asset', 'update', id, '--name', 'renamed'], state: async () => (await h.call('GET', `/va/${id}`)).body.assetName, check: `ahs asset get ${id}` };
      },
    },
    {
      name: 'asset delete',
      method: 'DELETE',
      path: /\/va\/[^/]+$/,
      async setup() {
        const id = uid('lostk');
        await h.createAsset(id);
        return { args: ['asset', 'delete', id, '--yes'], state: async () => (await h.call('GET', `/va/${id}`)).status, check: `ahs asset get ${id}` };
      },
    },
    {
      name: 'asset undeploy',
      method: 'POST',
      path: /\/undeploy$/,
      async setup() {
        const id = uid('lostk');
        await h.createAsset(id);
        const v = await h.uploadVersion(id, 'ios');
        expect((await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'dev'])).exitCode).toBe(0);
        return { args: ['asset', 'undeploy', id, '--env', 'dev', '--platform', 'ios', '--yes'], state: () => h.records(id), check: `ahs asset status ${id} --env dev` };
      },
    },
    {
      name: 'version delete',
      method: 'DELETE',
      path: /\/versions\/[^/]+$/,
      async setup() {
        const id = uid('lostk');
        await h.createAsset(id);
        const v = await h.uploadVersion(id, 'ios');
        return { args: ['version', 'delete', id, v, '--yes'], state: async () => (await h.call('GET', `/va/${id}/versions`)).body.totalResults, check: `ahs version get ${id} ${v}` };
      },
    },
    {
      name: 'collection delete',
      method: 'DELETE',
      path: /\/vc\/[^/]+$/,
      async setup() {
        const c = await newCollection();
        return { args: ['collection', 'delete', c, '--yes'], state: async () => Boolean((await h.call('GET', `/vc/${c}`)).body.deleted), check: `ahs collection get ${c}` };
      },
    },
    {
      name: 'item remove',
      method: 'DELETE',
      path: /\/items\/[^/]+$/,
      async setup() {
        const c = await newCollection();
        const form = new FormData();
        form.set('assetItemName', 'a.json');
        form.set('assetType', '1001');
        form.set('createdBy', DEMO_USER);
        form.set('assetFile', new Blob(['{}']), 'a.json');
        const item = (await h.call('POST', `/vc/${c}/items`, form)).body.assetItemId as string;
        return { args: ['item', 'remove', c, item, '--yes'], state: async () => (await h.call('GET', `/vc/${c}/items`)).body.totalResults, check: `ahs item get ${c} ${item}` };
      },
    },
  ];
}

/** `use` with a fault proxy of its own in front of the emulator, closed afterwards: tests that run at once never share a rule. */
async function withOwnProxy(use: (proxy: FaultProxy) => Promise<void>): Promise<void> {
  const own = await startFaultProxy(h.emu.baseUrl);
  try {
    await use(own);
  } finally {
    await own.close();
  }
}

describe('a write whose answer is lost is settled by a read', () => {
  it('asset create', async () => {
    const id = uid('lost');
    const { run, writes } = await lostAnswer('POST', /\/va$/, ['asset', 'create', id, '--name', 'n', '--type', '1001']);
    confirmed(run);
    expect(writes).toHaveLength(1);
    expect((await h.call('GET', `/va/${id}`)).status).toBe(200);
  });

  it('version upload: one version, never two', async () => {
    const id = uid('lost');
    await h.createAsset(id);
    const file = await h.file('lost.zip', 'payload');
    const { run, writes } = await lostAnswer('POST', /\/versions$/, ['version', 'upload', id, file, '--platform', 'ios', '--name', '2.0', '--json']);
    confirmed(run);
    expect(run.json()).toMatchObject({ versionId: 'IOS1', versionName: '2.0' });
    expect(writes).toHaveLength(1);
    expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(1);
  });

  it('deploy and promote-default', async () => {
    const id = uid('lost');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    const deploy = await lostAnswer('POST', /\/deploy$/, ['deploy', id, v, '--platform', 'ios', '--env', 'dev']);
    confirmed(deploy.run);
    expect(deploy.writes).toHaveLength(1);
    const promote = await lostAnswer('POST', /\/deploy$/, ['promote-default', id, v, '--platform', 'ios', '--env', 'dev', '--json']);
    confirmed(promote.run);
    expect(promote.run.json()).toMatchObject({ assetVersion: { versionId: v, state: 'DEFAULT' }, previousDefault: null });
    expect(promote.writes).toHaveLength(1);
    expect(await h.records(id)).toEqual([`ios/dev/${v}=DEFAULT`]);
  });

  it('item upload: one item, never two', async () => {
    const c = uid('lostc');
    expect((await h.call('POST', '/vc', { collectionId: c, collectionName: c, allowedAssetTypes: ['1001'], createdBy: h.env.AHS_USER })).status).toBe(201);
    const file = await h.file('item.json', '{}');
    const { run, writes } = await lostAnswer('POST', /\/items$/, ['item', 'upload', c, file, '--type', '1001', '--json']);
    confirmed(run);
    expect(run.json().uploaded).toHaveLength(1);
    expect(writes).toHaveLength(1);
    expect((await h.call('GET', `/vc/${c}/items`)).body.totalResults).toBe(1);
  });

  it('collection-deploy', async () => {
    const c = uid('lostc');
    expect((await h.call('POST', '/vc', { collectionId: c, collectionName: c, allowedAssetTypes: ['1001'], createdBy: h.env.AHS_USER })).status).toBe(201);
    const form = new FormData();
    form.set('assetItemName', 'a.json');
    form.set('assetType', '1001');
    form.set('createdBy', h.env.AHS_USER!);
    form.set('assetFile', new Blob(['{}']), 'a.json');
    expect((await h.call('POST', `/vc/${c}/items`, form)).status).toBe(201);
    const { run, writes } = await lostAnswer('POST', /\/deployments$/, ['collection-deploy', c, '--env', 'dev']);
    confirmed(run);
    expect(writes).toHaveLength(1);
    expect((await h.call('GET', `/vc/${c}/deployments/dev`)).status).toBe(200);
  });

  const kinds = writeKinds();
  for (const kind of kinds) {
    it(`${kind.name}, applied and its answer lost: a read confirms it, exit 0, sent once`, async () => {
      const { args, state } = await kind.setup();
      const before = await state();
      const { run, writes } = await lostAnswer(kind.method, kind.path, args);
      confirmed(run);
      expect(writes).toHaveLength(1);
      expect(await state()).not.toEqual(before);
    });
  }
});

// Writes never applied: each re-reads until its --timeout is spent. They wait
// at the same time (issue 34: 9 x ~0.5 s one after the other), each through a
// fault proxy of its own, on an asset or collection of its own.
describe.concurrent('a write never applied, its answer lost, is unknown: never "not applied"', () => {
  const kinds = writeKinds();
  it.each([
    ['version upload', (id: string, file: string) => ['version', 'upload', id, file, '--platform', 'ios', '--name', '9.0'], /\/versions$/, (id: string) => `ahs version list ${id} --all`],
    ['item upload', (id: string, file: string) => ['item', 'upload', id, file, '--type', '1001'], /\/items$/, (id: string) => `ahs item list ${id} --all`],
  ])('a lost %s that no listing shows: unknown (the service may still be committing it), exit 6 naming the command that checks, nothing stored', (_what, args, path, check) =>
    withOwnProxy(async (proxy) => {
      const id = uid('uncommitted');
      await h.createAsset(id);
      expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: DEMO_USER })).status).toBe(201);
      const file = await h.file(`${id}.json`, '{"x":1}');
      proxy.inject({ kind: 'reset-before' }, { method: 'POST', path, times: 10 });
      const run = await h.ahs([...args(id, file), '--timeout', SETTLE_TIMEOUT, '--json'], { env: { AHS_BASE_URL: proxy.url } });
      expect(run.exitCode, run.stderr).toBe(6);
      const error = run.errJson();
      expect(error, run.stderr).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
      // A batch (item upload) names each file's failure in its document on stdout.
      const said = run.stdout + run.stderr;
      expect(said).toContain(`the write may have been applied: check with \`${check(id)}\``);
      expect(said).not.toMatch(/safe to retry|not applied/);
    }));

  for (const kind of kinds) {
    it(`${kind.name}, never applied and its answer lost: unknown (exit 6, urn:ahs:unknown-outcome, the command that checks), never "safe to retry"; the service unchanged`, () =>
      withOwnProxy(async (proxy) => {
        const { args, state, check } = await kind.setup();
        const before = await state();
        proxy.inject({ kind: 'reset-before' }, { method: kind.method, path: kind.path, times: 10 });
        const run = await h.ahs([...args, '--timeout', SETTLE_TIMEOUT, '--json'], { env: { AHS_BASE_URL: proxy.url } });
        expect(run.exitCode, run.stderr).toBe(6);
        expect(run.errJson(), run.stderr).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
        expect(run.errJson().detail).toContain(`: the write may have been applied: check with \`${check}\` before running it again`);
        expect(run.stderr).not.toMatch(/safe to retry|not applied/);
        expect(await state()).toEqual(before);
      }));
  }

  it('a deploy that never reached the service: no read can prove "not applied" (the service may still be deploying): exit 6, unknown, naming the command that checks', () =>
    withOwnProxy(async (proxy) => {
      const id = uid('lost');
      await h.createAsset(id);
      const v = await h.uploadVersion(id, 'ios');
      // The answer is lost AND the write was never applied: the proxy resets before forwarding, for every attempt.
      proxy.inject({ kind: 'reset-before' }, { method: 'POST', path: /\/deploy$/, times: 10 });
      const run = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'dev', '--timeout', SETTLE_TIMEOUT, '--json'], { env: { AHS_BASE_URL: proxy.url } });
      expect(run.exitCode, run.stderr).toBe(6);
      expect(run.errJson(), run.stderr).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
      expect(run.errJson().detail).toMatch(new RegExp(`the write may have been applied: check with \`ahs asset status ${id} --platform ios --env dev\` before running it again$`));
      expect(run.stderr).not.toMatch(/safe to retry|not applied/);
      expect(await h.records(id)).toEqual([]);
    }));
});
