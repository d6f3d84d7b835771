// Reads sized to the decision (issue 21): what release, rollback,
// promote-default, deploy --idempotent and a dry run send, request by
// request, through a proxy capping the page size at 2 (a channel of any size
// costs no more), and which reads go out at once (a barrier holds their
// answers until each has arrived: reads sent one after another never pass it).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';
import { startFaultProxy, type FaultProxy, type Match } from '../support/fault-proxy.js';

let h: Harness;
let proxy: FaultProxy;
beforeAll(async () => {
  h = await harness();
  proxy = await startFaultProxy(h.emu.baseUrl, { pageSizeCap: 2 });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

const CH = ['--platform', 'ios', '--env', 'prod'];
const DEFAULT_READ: Match = { method: 'GET', path: '/asset-urls', query: /state=DEFAULT/ };

/** An asset whose ios/prod channel holds `live` LIVE versions, the first the Default, and `more` not deployed. */
async function channel(live: number, more = 0): Promise<{ id: string; versions: string[] }> {
  const id = uid('rt');
  await h.createAsset(id);
  const versions: string[] = [];
  for (let i = 0; i < live + more; i++) versions.push(await h.uploadVersion(id, 'ios', `seed-${i}`));
  for (const v of versions.slice(0, live)) expect((await h.deploy(id, v, 'ios', 'prod', 'LIVE')).status).toBe(201);
  expect((await h.deploy(id, versions[0]!, 'ios', 'prod', 'DEFAULT')).status).toBe(201);
  return { id, versions };
}

/**
 * Runs ahs through the proxy: its requests as "METHOD path" (the domain
 * prefix and paging left out). Change control's reads (the sentinel assets
 * ahs-control*, src/plan/change-control.ts) are apart, in `control`, each
 * with the number of requests sent before it: they go beside the first reads.
 */
async function traced(args: string[]) {
  proxy.log.length = 0;
  const run = await h.ahs(args, { env: { AHS_BASE_URL: proxy.url } });
  // The journal's check (the domain's ahs-journal, with no setting) rides beside a run's writes, in no round of its own (issue 42): left out here.
  const all = proxy.log.map((r) => `${r.method} ${r.path.replace(/^\/api\/v2\/demo/, '').replace(/[?&]pageNumber=\d+&pageSize=\d+$/, '')}`).filter((r) => r !== 'GET /vc/ahs-journal');
  // Change control's requests: its reads, and the lock a holding run (release) takes and gives back.
  // (POST /va: the lock's sentinel asset made on its first use; release creates no asset of its own.)
  const isControl = (line: string) => /^[A-Z]+ \/va\/ahs-control/.test(line) || line === 'POST /va';
  const requests = all.filter((line) => !isControl(line));
  const control = all.flatMap((line, index) => (isControl(line) ? [{ line, after: all.slice(0, index).filter((l) => !isControl(l)).length }] : []));
  return { run, requests, control, all };
}

describe('release reads what the decision needs, at once', () => {
  it('a new file: the versions and the Default at once, then upload, deploy, promote (no read between)', async () => {
    const { id, versions } = await channel(4);
    const file = await h.file('new.zip', 'a new build');
    const barrier = proxy.together([{ method: 'GET', path: `/${id}/versions` }, DEFAULT_READ]);
    const { run, requests, control, all } = await traced(['release', id, file, ...CH, '--name', 'new', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(barrier.met).toBe(true);
    // Change control's check: freezes and blocks, the env's lock and the channel's, beside the first reads (before any write).
    const H = (c: { line: string }) => c.line.replace(/lock-[0-9a-f]{16}/, 'lock-H');
    expect(control.slice(0, 3).map(H).sort()).toEqual([
      'GET /va/ahs-control-lock-H/asset-urls?targetPlatform=generic&envId=prod&state=DEFAULT',
      'GET /va/ahs-control-lock/asset-urls?targetPlatform=generic&envId=prod&state=DEFAULT',
      'GET /va/ahs-control/versions',
    ]);
    expect(control.slice(0, 3).every((c) => c.after < 3)).toBe(true);
    // A run that coordinates through no lock (no --lock-ttl, --lock-timeout, --lock-id) takes none: no write to a lock cell,
    // the release at its floor (src/plan/change-control.ts, HOLDERS; change-control-holding.test.ts holds one).
    expect(all.filter((line) => /^(POST|PUT|DELETE) \/va\/ahs-control/.test(line))).toEqual([]);
    // 4 versions under a page cap of 2: two pages of the list; then only the three writes.
    expect(requests.filter((r) => r.startsWith('GET')).sort()).toEqual([
      `GET /va/${id}/asset-urls?targetPlatform=ios&envId=prod&state=DEFAULT`,
      `GET /va/${id}/versions`,
      `GET /va/${id}/versions`,
    ]);
    expect(requests.slice(3)).toEqual([`POST /va/${id}/versions?targetPlatformId=ios`, `POST /va/${id}/versions/IOS5/deploy?targetPlatformId=ios`, `POST /va/${id}/versions/IOS5/deploy?targetPlatformId=ios`]);
    expect(run.json()).toMatchObject({ version: { versionId: 'IOS5' }, assetVersion: { state: 'DEFAULT' }, previousDefault: versions[0] });
    expect(await h.records(id)).toEqual([...versions.map((v) => `ios/prod/${v}=LIVE`), 'ios/prod/IOS5=DEFAULT'].sort());

    // Its re-run: the versions and the Default (whose bytes are compared), and nothing else of the API.
    const again = await traced(['release', id, file, ...CH, '--name', 'new', '--json']);
    expect(again.run.exitCode, again.run.stderr).toBe(0);
    expect(again.run.stderr).toMatch(/reused \(matched by content/);
    expect(again.requests.sort()).toEqual([`GET /va/${id}/asset-urls?targetPlatform=ios&envId=prod&state=DEFAULT`, `GET /va/${id}/versions`, `GET /va/${id}/versions`, `GET /va/${id}/versions`]);
  });

  it('a version another run uploaded between the read and the upload is read by its id, and this run goes on with it', async () => {
    const { id } = await channel(1);
    const file = await h.file('race.zip', 'the same build');
    let raced = '';
    // Another run's copy of the same file lands just before this run's upload.
    const spy = await stubServer(async (req) => {
      if (req.method === 'POST' && req.url?.endsWith('/versions?targetPlatformId=ios') && !raced) {
        const form = new FormData();
        form.set('versionName', 'same');
        form.set('createdBy', 'owner@demo.test');
        form.set('assetFile', new Blob(['the same build']), 'race.zip');
        raced = (await h.call('POST', `/va/${id}/versions?targetPlatformId=ios`, form)).body.versionId;
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const run = await h.ahs(['release', id, file, ...CH, '--name', 'same', '--json'], { env: { AHS_BASE_URL: spy.url } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(raced).toBe('IOS2');
      expect(run.stderr).toContain("this run's copy IOS3 was deleted; going on with IOS2");
      expect(run.json()).toMatchObject({ version: { versionId: 'IOS2' }, assetVersion: { versionId: 'IOS2', state: 'DEFAULT' } });
      // The one version in between read by its id; the list is not read again.
      const reads = spy.requests.filter((r) => r.method === 'GET').map((r) => r.url.split('?')[0]);
      expect(reads.filter((u) => u!.endsWith(`${id}/versions`))).toHaveLength(1);
      expect(reads).toContain(`/api/v2/demo/va/${id}/versions/IOS2`);
      expect((await h.call('GET', `/va/${id}/versions/IOS3`)).status).toBe(404);
      expect(await h.records(id)).toEqual(['ios/prod/IOS1=LIVE', 'ios/prod/IOS2=DEFAULT']);
    } finally {
      await spy.close();
    }
  });
});

describe('a promotion, a rollback, a deploy and a dry run read in one round', () => {
  const ownReads = (id: string, versionId: string): Match[] => [DEFAULT_READ, { method: 'GET', path: `/${id}/versions/${versionId}/asset-urls` }, { method: 'GET', path: `/${id}/versions/${versionId}` }];

  it('rollback --to: the Default, the target\'s record and the target at once, then the promotion', async () => {
    const { id, versions } = await channel(5);
    expect((await h.deploy(id, versions[1]!, 'ios', 'prod', 'DEFAULT', { currentVersionId: versions[0]!, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const barrier = proxy.together(ownReads(id, versions[0]!));
    const { run, requests } = await traced(['rollback', id, '--to', versions[0]!, ...CH]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(barrier.met).toBe(true);
    expect(requests).toHaveLength(4);
    expect(requests[3]).toBe(`POST /va/${id}/versions/${versions[0]}/deploy?targetPlatformId=ios`);
    expect(await h.records(id)).toContain(`ios/prod/${versions[0]}=DEFAULT`);
  });

  it('promote-default --expect-current: one round of reads, then the promotion; its dry run the reads alone', async () => {
    const { id, versions } = await channel(5);
    const dry = proxy.together(ownReads(id, versions[3]!));
    const preview = await traced(['promote-default', id, versions[3]!, '--expect-current', versions[0]!, ...CH, '--dry-run', '--json']);
    expect(preview.run.exitCode, preview.run.stderr).toBe(0);
    expect(dry.met).toBe(true);
    expect(preview.requests).toHaveLength(3);
    expect(preview.run.json()).toMatchObject({ dryRun: true, request: { body: { intent: 'DEFAULT', currentVersionId: versions[0] } } });

    const barrier = proxy.together(ownReads(id, versions[3]!));
    const { run, requests } = await traced(['promote-default', id, versions[3]!, '--expect-current', versions[0]!, ...CH, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(barrier.met).toBe(true);
    expect(requests).toHaveLength(4);
    expect(run.json()).toMatchObject({ previousDefault: versions[0], attempts: 1 });
  });

  it('a 409 still reads the channel again (its Default and the version\'s record) and retries', async () => {
    const { id, versions } = await channel(3);
    proxy.inject({ kind: 'answer', status: 409, contentType: 'application/problem+json', body: JSON.stringify({ type: 'https://errors.asset-hosting.example/problem', title: 'The Default pointer moved', status: 409, detail: 'moved' }) }, { method: 'POST', path: '/deploy' });
    const { run, requests } = await traced(['promote-default', id, versions[2]!, ...CH, '--json', '--retries', '2']);
    proxy.reset();
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ attempts: 2 });
    expect(requests).toHaveLength(7);
    expect(requests[3]).toBe(`POST /va/${id}/versions/${versions[2]}/deploy?targetPlatformId=ios`);
    expect(requests.slice(4, 6).sort()).toEqual([`GET /va/${id}/asset-urls?targetPlatform=ios&envId=prod&state=DEFAULT`, `GET /va/${id}/versions/${versions[2]}/asset-urls?envId=prod`]);
    expect(requests[6]).toBe(`POST /va/${id}/versions/${versions[2]}/deploy?targetPlatformId=ios`);
    expect(await h.records(id)).toContain(`ios/prod/${versions[2]}=DEFAULT`);
  });

  it('deploy --idempotent reads the version\'s own record and the channel\'s OFFLINE ones at once: one round, then the deploy (or nothing)', async () => {
    const { id, versions } = await channel(5);
    const reads = [`GET /va/${id}/asset-urls?targetPlatform=ios&envId=prod&state=OFFLINE`, `GET /va/${id}/versions/${versions[4]}/asset-urls?envId=prod`];
    const atOnce = proxy.together([{ method: 'GET', path: `/va/${id}/asset-urls` }, { method: 'GET', path: `/va/${id}/versions/${versions[4]}/asset-urls` }]);
    const { run, requests } = await traced(['deploy', id, versions[4]!, '--state', 'OFFLINE', '--idempotent', ...CH]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(atOnce.met).toBe(true);
    expect(requests.slice(0, 2).sort()).toEqual(reads);
    expect(requests.slice(2)).toEqual([`POST /va/${id}/versions/${versions[4]}/deploy?targetPlatformId=ios`]);
    const again = await traced(['deploy', id, versions[4]!, '--state', 'OFFLINE', '--idempotent', ...CH, '--json']);
    expect(again.run.exitCode, again.run.stderr).toBe(0);
    expect(again.run.json()).toMatchObject({ changed: false, state: 'OFFLINE' });
    expect(again.requests.sort()).toEqual(reads);
    expect(await h.records(id)).toContain(`ios/prod/${versions[4]}=OFFLINE`);
  });
});

describe('item sync and item upload: 8 in flight, reads at once', () => {
  async function collection(files: Record<string, string>): Promise<{ id: string; dir: string }> {
    const id = uid('rtc');
    const r = await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], maxAssets: 50, createdBy: 'owner@demo.test' });
    expect(r.status).toBe(201);
    const dir = join(h.dir, id);
    await mkdir(dir);
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    return { id, dir };
  }
  const newFiles = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`n${i}.zip`, `new ${i}`]));

  it('item sync reads the collection and its items at once, not its deployments, and uploads 8 at a time', async () => {
    const { id, dir } = await collection(newFiles(9));
    const reads = proxy.together([{ method: 'GET', path: `/vc/${id}` }, { method: 'GET', path: `/vc/${id}/items` }]);
    const uploads = proxy.together(Array.from({ length: 8 }, () => ({ method: 'POST', path: `/vc/${id}/items` })), 3000);
    const { run, requests } = await traced(['item', 'sync', id, dir, '--type', '1001', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(reads.met).toBe(true);
    expect(uploads.met).toBe(true);
    expect(requests.filter((r) => r.includes('/deployments'))).toEqual([]);
    expect(run.json().uploaded).toHaveLength(9);
    // --reconcile asks about the deployments: then they are read, in the same round.
    const threeReads = proxy.together([{ method: 'GET', path: `/vc/${id}` }, { method: 'GET', path: `/vc/${id}/items` }, { method: 'GET', path: `/vc/${id}/deployments` }]);
    const again = await traced(['item', 'sync', id, dir, '--type', '1001', '--reconcile', '--json']);
    expect(again.run.exitCode, again.run.stderr).toBe(0);
    expect(threeReads.met).toBe(true);
    expect(again.requests).toContain(`GET /vc/${id}/deployments`);
  });

  it("the uploads' connections are opened while the first reads are in flight, beside the reads' own, and the uploads go on them", async () => {
    // A proxy of its own: its connections counted from the first.
    const counted = await startFaultProxy(h.emu.baseUrl);
    try {
      // 10 files, 8 at once: the two reads come on two connections, answered only once six more are open.
      const many = await collection(newFiles(10));
      const opened = counted.untilConnections(8, { method: 'GET' });
      // The sync's own connections: the journal's check (the domain's ahs-journal, read beside the writes) is left out.
      const run = await h.ahs(['item', 'sync', many.id, many.dir, '--type', '1001', '--json', '--no-journal'], { env: { AHS_BASE_URL: counted.url } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(opened.met).toBe(true);
      expect(run.json().uploaded).toHaveLength(10);
      // Each upload on a connection of its own (a write never goes on a kept-alive one), none of the reads':
      // the first 8 opened while the reads were in flight, the next two while the uploads before them were.
      const posts = counted.log.filter((r) => r.method === 'POST').map((r) => r.connection);
      expect(new Set(posts).size).toBe(10);
      expect(counted.log.filter((r) => r.method === 'GET').some((r) => posts.includes(r.connection))).toBe(false);
      expect(Math.max(...counted.log.map((r) => r.connection))).toBe(12);

      // 2 files: two connections opened ahead for them, beside the reads' two.
      counted.log.length = 0;
      const few = await collection(newFiles(2));
      const again = await h.ahs(['item', 'sync', few.id, few.dir, '--type', '1001', '--json', '--no-journal'], { env: { AHS_BASE_URL: counted.url } });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.json().uploaded).toHaveLength(2);
      expect(new Set(counted.log.map((r) => r.connection)).size).toBe(4);
    } finally {
      await counted.close();
    }
  });

  it('item sync reads before it has checked every file only when no usage error can follow: a bad name or user sends nothing, not even the reads', async () => {
    const long = 'n'.repeat(61) + '.zip';
    for (const [files, extra, message] of [
      [{ 'ok.zip': 'ok', [long]: 'long' }, [], /must be at most 64 characters/],
      [{ 'ok.zip': 'ok', 'bad\u001bname.zip': 'esc' }, [], /its name holds a control character/],
      [{ 'ok.zip': 'ok' }, ['--user', 'not-an-address'], /must be an e-mail address/],
    ] as const) {
      const { id, dir } = await collection(files);
      const { run, requests } = await traced(['item', 'sync', id, dir, '--type', '1001', ...extra]);
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(requests).toEqual([]);
    }
  });

  it('item sync of changed files: each upload and removal on a connection of its own, the reads on theirs', async () => {
    const counted = await startFaultProxy(h.emu.baseUrl);
    try {
      const { id, dir } = await collection(newFiles(10));
      const first = await h.ahs(['item', 'sync', id, dir, '--type', '1001'], { env: { AHS_BASE_URL: counted.url } });
      expect(first.exitCode, first.stderr).toBe(0);
      for (const name of Object.keys(newFiles(10))) await writeFile(join(dir, name), `changed ${name}`);
      counted.log.length = 0;
      const run = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--json'], { env: { AHS_BASE_URL: counted.url } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.json().replaced).toHaveLength(10);
      // A write never goes on a kept-alive connection (cli.md, "Reading the service"); the reads keep theirs.
      const writes = counted.log.filter((r) => r.method !== 'GET').map((r) => r.connection);
      expect(writes).toHaveLength(20);
      expect(new Set(writes).size).toBe(20);
      const reads = new Set(counted.log.filter((r) => r.method === 'GET').map((r) => r.connection));
      expect(reads.size).toBeLessThanOrEqual(3);
      expect([...reads].some((id) => writes.includes(id))).toBe(false);
    } finally {
      await counted.close();
    }
  });

  it('item upload reads the collection and its items at once, and sends 8 files at once', async () => {
    const { id, dir } = await collection(newFiles(8));
    const reads = proxy.together([{ method: 'GET', path: `/vc/${id}` }, { method: 'GET', path: `/vc/${id}/items` }]);
    const uploads = proxy.together(Array.from({ length: 8 }, () => ({ method: 'POST', path: `/vc/${id}/items` })), 3000);
    const { run } = await traced(['item', 'upload', id, ...Object.keys(newFiles(8)).map((name) => join(dir, name)), '--type', '1001', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(reads.met).toBe(true);
    expect(uploads.met).toBe(true);
  });

  it("a replaced item's removal does not wait for an unrelated upload", async () => {
    const { id, dir } = await collection({ 'b.zip': 'old b' });
    expect((await traced(['item', 'sync', id, dir, '--type', '1001'])).run.exitCode).toBe(0);
    await writeFile(join(dir, 'b.zip'), 'the new b, longer');
    await writeFile(join(dir, 'n.zip'), 'unrelated');
    // b's new upload is answered once n's upload is in flight; n's is answered once b's old item's removal arrived.
    let nArrived!: () => void;
    let removalArrived!: () => void;
    const nSent = new Promise<void>((resolve) => (nArrived = resolve));
    const removed = new Promise<void>((resolve) => (removalArrived = resolve));
    const giveUp = () => new Promise<void>((resolve) => setTimeout(resolve, 3000).unref());
    let removalWhileHeld = false;
    let holding = false;
    const spy = await stubServer(async (req, _res, body) => {
      const text = body.toString('latin1');
      if (req.method === 'POST' && text.includes('filename="b.zip"')) await Promise.race([nSent, giveUp()]);
      if (req.method === 'POST' && text.includes('filename="n.zip"')) {
        nArrived();
        holding = true;
        await Promise.race([removed, giveUp()]);
        holding = false;
      }
      if (req.method === 'DELETE') {
        removalWhileHeld = holding;
        removalArrived();
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const run = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--json'], { env: { AHS_BASE_URL: spy.url } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(removalWhileHeld).toBe(true);
      expect(run.json()).toMatchObject({ uploaded: [{ assetItemName: 'n.zip' }], replaced: [{ new: { assetItemName: 'b.zip' }, removedFirst: false }] });
    } finally {
      await spy.close();
    }
  });

  /**
   * Syncs `count` changed files through a server that holds each removal of
   * an old item (before it reaches the emulator) until `release` says so, or
   * 3 s pass (a failing run's safety): whether every removal was released.
   */
  async function syncHoldingRemovals(count: number, release: (seen: { uploads: number; itemReads: number }) => boolean) {
    const { id, dir } = await collection(Object.fromEntries(Array.from({ length: count }, (_, i) => [`c${i}.zip`, `old ${i}`])));
    expect((await h.ahs(['item', 'sync', id, dir, '--type', '1001'])).exitCode).toBe(0);
    for (let i = 0; i < count; i++) await writeFile(join(dir, `c${i}.zip`), `the new content of ${i}`);
    const seen = { uploads: 0, itemReads: 0 };
    const waiting: Array<() => void> = [];
    let released = 0;
    const check = () => {
      if (!release(seen)) return;
      released += waiting.length;
      waiting.splice(0).forEach((go) => go());
    };
    const spy = await stubServer(async (req) => {
      if (req.method === 'POST') seen.uploads++;
      if (req.method === 'GET' && req.url?.includes('/items?')) seen.itemReads++;
      check();
      if (req.method === 'DELETE') {
        await new Promise<void>((resolve) => {
          const go = () => (clearTimeout(giveUp), resolve());
          const giveUp = setTimeout(() => (waiting.splice(waiting.indexOf(go), 1), resolve()), 3000);
          giveUp.unref();
          waiting.push(go);
          check();
        });
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const run = await h.ahs(['item', 'sync', id, dir, '--type', '1001', '--json'], { env: { AHS_BASE_URL: spy.url } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.json().replaced).toHaveLength(count);
      return released === count;
    } finally {
      await spy.close();
    }
  }

  it('item sync of 10 changed files: the last 2 uploads go before the removals that wait in the slots (8 in flight)', async () => {
    expect(await syncHoldingRemovals(10, ({ uploads }) => uploads === 10)).toBe(true);
  });

  it("item sync of changed files: the read that settles another run's copies goes out once the uploads are done, beside the removals", async () => {
    // The first read of the items is the sync's own; the second settles the copies.
    expect(await syncHoldingRemovals(3, ({ itemReads }) => itemReads === 2)).toBe(true);
  });
});

describe('fetch', () => {
  it('reads the item list beside the deployment and its delivery document', async () => {
    const id = uid('rtf');
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: 'owner@demo.test' })).status).toBe(201);
    const dir = join(h.dir, id);
    await mkdir(dir);
    for (let i = 0; i < 3; i++) await writeFile(join(dir, `f${i}.zip`), `file ${i}`);
    expect((await h.ahs(['item', 'sync', id, dir, '--type', '1001'])).exitCode).toBe(0);
    expect((await h.call('POST', `/vc/${id}/deployments`, { envId: 'prod', state: 'LIVE', createdBy: 'owner@demo.test' })).status).toBe(201);
    const reads = proxy.together([{ method: 'GET', path: `/vc/${id}/deployments/prod` }, { method: 'GET', path: `/vc/${id}/items` }]);
    const { run } = await traced(['fetch', id, '--env', 'prod', '--dir', join(h.dir, `${id}-out`), '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(reads.met).toBe(true);
    expect(run.json().downloaded).toHaveLength(3);
  });
});
