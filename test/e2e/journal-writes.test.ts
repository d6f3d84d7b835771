// The journal under every kind of write command (one entry each, listing its
// changes), a journal that fills up (it continues in a linked collection and
// history reads across), and the emulator's variations (page caps, delivery
// under a prefix on its own port). main() against the emulator over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_USER, harness, uid, type Harness } from './helpers.js';
import { ALL_VARIATIONS } from '../../src/emulator/variation.js';
import { startFaultProxy } from '../support/fault-proxy.js';

const CH = ['--platform', 'ios', '--env', 'prod'];

async function startJournal(h: Harness) {
  const journal = uid('jr');
  const init = await h.ahs(['journal', 'init', journal, '--env', 'prod']);
  expect(init.exitCode, init.stderr).toBe(0);
  return journal;
}

/** The entries' commands and addresses, newest first. */
async function entries(h: Harness, journal: string, args: string[] = []) {
  const r = await h.ahs(['history', ...args, '--json'], { env: { AHS_JOURNAL: journal } });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.json().results as Array<{ command: string; changes: Array<{ address: string; before: unknown; after: unknown }>; outcome: string; exitCode: number }>;
}

describe('the journal and every write', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => h?.close());

  it('deploy, promote-default, version delete, asset undeploy, collection create, item upload/sync/remove, collection-deploy and apply: one entry each, naming its changes', async () => {
    const journal = await startJournal(h);
    const env = { AHS_JOURNAL: journal };
    const id = uid('jw');
    await h.createAsset(id);
    const [v1, v2] = [await h.uploadVersion(id, 'ios', '1.0'), await h.uploadVersion(id, 'ios', '1.1')];
    const run = async (args: string[]) => {
      const r = await h.ahs(args, { env });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('did not record');
    };
    await run(['deploy', id, v1, ...CH]);
    await run(['deploy', id, v2, ...CH]);
    await run(['promote-default', id, v1, ...CH]);
    await run(['deploy', id, v2, ...CH, '--state', 'OFFLINE']);
    const col = uid('jc');
    const dir = join(h.dir, col);
    await mkdir(dir);
    await writeFile(join(dir, 'a.json'), '{"a":1}');
    await run(['collection', 'create', col, '--name', 'J', '--allowed-types', '9999']);
    await run(['item', 'upload', col, await h.file(`${col}-b.json`, '{}'), '--type', '9999']);
    await run(['item', 'sync', col, dir, '--type', '9999']);
    await run(['collection-deploy', col, '--env', 'prod', '--state', 'LIVE']);
    const yaml = join(h.dir, `${id}.yaml`);
    await writeFile(yaml, `apiVersion: ahs/v1\nassets:\n  ${id}:\n    name: renamed\n    type: "1001"\n`);
    await run(['apply', '-f', yaml, '--yes']);
    // A no-op and a dry run record nothing.
    await run(['promote-default', id, v1, ...CH, '--idempotent']);
    await run(['deploy', id, v2, ...CH, '--dry-run']);
    const list = await entries(h, journal);
    expect(list.map((e) => e.command)).toEqual(['apply', 'collection-deploy', 'item sync', 'item upload', 'collection create', 'deploy', 'promote-default', 'deploy', 'deploy', 'journal init']);
    const [apply, colDeploy, sync, upload, create, offline, promote] = list;
    expect(apply!.changes).toEqual([{ address: `asset.${id}`, before: { assetName: id }, after: { assetName: 'renamed' } }]);
    // collection-deploy reads the deployment's state before sending: not deployed in prod before (cli.md: true values).
    expect(colDeploy!.changes).toEqual([{ address: `collection.${col}.deployment.prod`, before: { state: null }, after: { state: 'LIVE' } }]);
    expect(sync!.changes.map((c) => c.address)).toContain(`item.${col}.a.json`);
    expect(upload!.changes).toEqual([{ address: `item.${col}.${col}-b.json`, before: null, after: { itemId: expect.any(String), size: 2 } }]);
    expect(create!.changes[0]).toMatchObject({ address: `collection.${col}`, before: null });
    // deploy reads the version's record on the channel before sending: LIVE, from the deploy before.
    expect(offline!.changes).toEqual([{ address: `channel.${id}.ios.prod`, before: { version: v2, state: 'LIVE' }, after: { version: v2, state: 'OFFLINE' } }]);
    expect(promote!.changes).toEqual([{ address: `channel.${id}.ios.prod`, before: { default: null }, after: { default: v1 }, current: { default: v1 }, disagrees: false }]);
    expect(list.every((e) => e.outcome === 'applied' && e.exitCode === 0)).toBe(true);
  });

  it('before is what the service held, read before the write: deploy (not deployed, LIVE, OFFLINE), collection update (the old name), collection-deploy (none, LIVE, OFFLINE), apply of an anchor (none)', async () => {
    const journal = await startJournal(h);
    const env = { AHS_JOURNAL: journal };
    const run = async (args: string[]) => {
      const r = await h.ahs(args, { env });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('did not record');
    };
    const id = uid('jb');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    await run(['deploy', id, v1, ...CH, '--state', 'OFFLINE']);
    await run(['deploy', id, v1, ...CH, '--state', 'LIVE']);
    await run(['deploy', id, v1, ...CH, '--state', 'OFFLINE']);
    await run(['deploy', id, v1, ...CH, '--state', 'LIVE']);
    const channel = (await entries(h, journal, [id])).map((e) => e.changes);
    expect(channel).toEqual([
      [{ address: `channel.${id}.ios.prod`, before: { version: v1, state: 'OFFLINE' }, after: { version: v1, state: 'LIVE' } }],
      [{ address: `channel.${id}.ios.prod`, before: { version: v1, state: 'LIVE' }, after: { version: v1, state: 'OFFLINE' } }],
      [{ address: `channel.${id}.ios.prod`, before: { version: v1, state: 'OFFLINE' }, after: { version: v1, state: 'LIVE' } }],
      [{ address: `channel.${id}.ios.prod`, before: { version: v1, state: null }, after: { version: v1, state: 'OFFLINE' } }],
    ]);
    const col = uid('jbc');
    await run(['collection', 'create', col, '--name', 'Before', '--allowed-types', '9999']);
    await run(['collection', 'update', col, '--name', 'After']);
    await run(['item', 'upload', col, await h.file(`${col}.json`, '{}'), '--type', '9999']);
    await run(['collection-deploy', col, '--env', 'prod', '--state', 'LIVE']);
    await run(['collection-deploy', col, '--env', 'prod', '--state', 'OFFLINE']);
    await run(['collection-deploy', col, '--env', 'prod', '--state', 'LIVE']);
    // The desired state names the anchor among its items folder's files (the same file as the item: unchanged).
    const folder = join(h.dir, `${col}-items`);
    await mkdir(folder);
    await writeFile(join(folder, `${col}.json`), '{}');
    const yaml = join(h.dir, `${col}.yaml`);
    await writeFile(yaml, `apiVersion: ahs/v1\ncollections:\n  ${col}:\n    name: After\n    allowedTypes: ["9999"]\n    items: { dir: ${folder}, type: "9999" }\n    anchor: ${col}.json\n`);
    await run(['apply', '-f', yaml, '--yes']);
    const [anchor, live, offline, first, , update] = await entries(h, journal, [col]);
    expect(update!.changes).toEqual([{ address: `collection.${col}`, before: { collectionName: 'Before' }, after: { collectionName: 'After' } }]);
    expect(first!.changes).toEqual([{ address: `collection.${col}.deployment.prod`, before: { state: null }, after: { state: 'LIVE' } }]);
    expect(offline!.changes).toEqual([{ address: `collection.${col}.deployment.prod`, before: { state: 'LIVE' }, after: { state: 'OFFLINE' } }]);
    expect(live!.changes).toEqual([{ address: `collection.${col}.deployment.prod`, before: { state: 'OFFLINE' }, after: { state: 'LIVE' } }]);
    expect(anchor!.command).toBe('apply');
    expect(anchor!.changes).toEqual([{ address: `collection.${col}`, before: { anchorAsset: null }, after: { anchorAsset: expect.any(String) } }]);
    // No change of any of these says its before is unknown.
    for (const e of [...(await entries(h, journal, [id])), ...(await entries(h, journal, [col]))]) for (const c of e.changes) expect(c).not.toHaveProperty('unknownBefore');
  });

  it('a write whose outcome is unknown (answer lost, and the read that would tell failed) leaves an entry with outcome unknown and its exit code', async () => {
    const journal = await startJournal(h);
    const id = uid('ju');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    const proxy = await startFaultProxy(h.emu.baseUrl);
    try {
      proxy.inject({ kind: 'reset-after' }, { method: 'POST', path: /\/deploy$/ });
      // The channel's reads only: change control's (ahs-control*) must answer, or the deploy is stopped before it is sent (exit 6).
      // The deploy's own read before it (the version's record and the channel's OFFLINE records: the entry's before) answers; the settling reads after it do not.
      proxy.inject({ kind: 'pass' }, { method: 'GET', path: new RegExp(`/va/${id}/.*asset-urls$`), times: 2 });
      proxy.inject({ kind: 'status', status: 500 }, { method: 'GET', path: new RegExp(`/va/${id}/.*asset-urls$`), times: 50 });
      const r = await h.ahs(['deploy', id, v1, ...CH, '--retries', '0'], { env: { AHS_JOURNAL: journal, AHS_BASE_URL: proxy.url } });
      expect(r.exitCode, r.stderr).toBe(6);
      expect(r.stderr).not.toContain('did not record');
    } finally {
      await proxy.close();
    }
    const [newest] = await entries(h, journal, [id]);
    expect(newest).toMatchObject({ command: 'deploy', outcome: 'unknown', exitCode: 6, changes: [{ address: `channel.${id}.ios.prod`, after: { version: v1, state: 'LIVE' } }] });
  });

  it('a journal at its maxAssets continues in a new collection linked from the old one; history reads across both', async () => {
    const journal = await startJournal(h);
    const env = { AHS_JOURNAL: journal };
    const id = uid('jf');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    await h.deploy(id, v1, 'ios', 'prod', 'LIVE');
    // Full after one more entry.
    expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 2, updatedBy: DEMO_USER })).status).toBe(200);
    for (const state of ['OFFLINE', 'LIVE', 'OFFLINE']) {
      const r = await h.ahs(['deploy', id, v1, ...CH, '--state', state], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('did not record');
    }
    const next = `${journal}--2`;
    expect((await h.call('GET', `/vc/${journal}`)).body.description).toBe(`ahs journal; env=prod; next=${next}`);
    expect((await h.call('GET', `/vc/${next}/items`)).body.totalResults).toBe(2);
    const list = await entries(h, journal, [id]);
    expect(list.map((e) => (e.changes[0]!.after as { state: string }).state)).toEqual(['OFFLINE', 'LIVE', 'OFFLINE']);
  });
});

describe('the journal against the emulator with every variation on (page caps of 20, delivery under /cdn on its own port)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ variation: ALL_VARIATIONS });
  });
  afterAll(async () => h?.close());

  it('records, pages through more entries than a page holds, and proves a rollback', async () => {
    const journal = await startJournal(h);
    const env = { AHS_JOURNAL: journal };
    const id = uid('jv');
    await h.createAsset(id);
    const r1 = await h.ahs(['release', id, await h.file(`${id}-1.zip`, '1'), ...CH, '--name', '1.0', '--json'], { env });
    expect(r1.exitCode, r1.stderr).toBe(0);
    const v1 = r1.json().version.versionId;
    // 24 more writes: more entries than the capped page of 20.
    const canary = await h.uploadVersion(id, 'ios', 'canary');
    for (let n = 0; n < 12; n++) {
      for (const state of ['LIVE', 'OFFLINE']) {
        const v = await h.ahs(['deploy', id, canary, ...CH, '--state', state], { env });
        expect(v.exitCode, v.stderr).toBe(0);
      }
    }
    const r2 = await h.ahs(['release', id, await h.file(`${id}-2.zip`, '2'), ...CH, '--name', '1.1', '--json'], { env });
    expect(r2.exitCode, r2.stderr).toBe(0);
    const all = await entries(h, journal);
    const items = (await h.call('GET', `/vc/${journal}/items?pageSize=20`)).body;
    expect(items.pageSize).toBe(20);
    expect(all).toHaveLength(items.totalResults);
    expect(all.length).toBeGreaterThan(20);
    const rb = await h.ahs(['rollback', id, ...CH, '--json'], { env });
    expect(rb.exitCode, rb.stderr).toBe(0);
    expect(rb.json().assetVersion.versionId).toBe(v1);
    expect(rb.stderr).toContain('the journal proves it');
  });
});
