// The CLI's main flows against three services that all obey the spec: the
// default emulator, one with every variation on (emulator.md "Variations":
// page cap 20, version sequences from 1001, sizes in MiB, other error
// titles, no version fileName, unknown extra fields, plain-text 500 on
// undeploy, a version's own asset-urls without its OFFLINE record, delivery
// on its own port under /cdn with absolute download URLs), and one with the
// variations that exclude some of those (download URLs relative to a
// delivery network under /assets, a page cap of 7, no OFFLINE record in a
// version's own asset-urls). Each release workflow runs once against each;
// the big paging fixtures are seeded (over HTTP, not through the CLI) for
// the first two only, to keep the file fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ALL_VARIATIONS, OTHER_VARIATIONS, type EmulatorOptions } from '../../src/emulator/index.js';
import { DEMO_USER, harness, type Harness } from './helpers.js';

const SERVICES: Array<[string, EmulatorOptions, { paging: boolean }]> = [
  ['the default emulator', {}, { paging: true }],
  ['an emulator with every variation on', { variation: ALL_VARIATIONS }, { paging: true }],
  ['an emulator with relative download URLs under a delivery prefix', { variation: OTHER_VARIATIONS }, { paging: false }],
];

const ASSETS = 130;
const CHANNEL_VERSIONS = 120;
const COLLECTIONS = 25;
const ITEMS = 25;
const BIG = 'big-channel';
const BIG_CH = ['--platform', 'android', '--env', 'prod'];
const MISSING = 'no-such-collection';

describe.each(SERVICES)('against %s', (_name, options, { paging }) => {
  let h: Harness;
  let bigVersions: string[];

  beforeAll(async () => {
    h = await harness(options);
    if (!paging) return;
    await Promise.all(times(ASSETS, (i) => h.createAsset(`pg-${String(i).padStart(3, '0')}`)));
    // A channel of 120 LIVE versions whose Default is the oldest (the lowest number).
    await h.createAsset(BIG);
    const uploaded = await Promise.all(times(CHANNEL_VERSIONS, (i) => h.uploadVersion(BIG, 'android', `1.0.${i}`)));
    bigVersions = uploaded.sort((a, b) => versionNumber(a) - versionNumber(b));
    const deployed = await Promise.all(bigVersions.map((v) => h.deploy(BIG, v, 'android', 'prod', 'LIVE')));
    expect(deployed.map((r) => r.status)).toEqual(bigVersions.map(() => 201));
    expect((await h.deploy(BIG, bigVersions[0]!, 'android', 'prod', 'DEFAULT')).status).toBe(201);
    await Promise.all(times(COLLECTIONS, (i) => seedCollection(`pgc-${String(i).padStart(2, '0')}`)));
    await Promise.all(times(ITEMS, (i) => seedItem('pgc-00', `item-${i}.json`)));
  });
  afterAll(async () => h?.close());

  async function seedCollection(collectionId: string) {
    const r = await h.call('POST', '/vc', { collectionId, collectionName: collectionId, allowedAssetTypes: ['1001'], createdBy: DEMO_USER });
    expect(r.status).toBe(201);
  }

  async function seedItem(collectionId: string, name: string) {
    const form = new FormData();
    form.set('assetItemName', name);
    form.set('assetType', '1001');
    form.set('createdBy', DEMO_USER);
    form.set('assetFile', new Blob([`{"name":"${name}"}`], { type: 'application/json' }), name);
    expect((await h.call('POST', `/vc/${collectionId}/items`, form)).status).toBe(201);
  }

  /** Where this service starts its version sequences (1, or 1001 with the variation). */
  const firstVersion = (platform: string) => `${platform.slice(0, 3).toUpperCase()}${h.emu.variation.versionSequenceStart}`;

  it('release path: asset create, version upload, deploy LIVE, promote-default, promote over it with --expect-current, rollback', async () => {
    const id = 'rel';
    expect((await h.ahs(['asset', 'create', id, '--name', 'Release', '--type', '1001'])).exitCode).toBe(0);
    const ch = ['--platform', 'android', '--env', 'staging'];
    const first = await h.ahs(['version', 'upload', id, await h.file('app-1.zip', 'first build'), '--platform', 'android', '--name', '1.0', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    const v1 = first.json().versionId;
    expect(v1).toBe(firstVersion('android'));
    expect((await h.ahs(['deploy', id, v1, ...ch])).exitCode).toBe(0);
    const promoted = await h.ahs(['promote-default', id, v1, ...ch, '--json']);
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    expect(promoted.json()).toMatchObject({ assetVersion: { versionId: v1, state: 'DEFAULT' }, previousDefault: null });

    const second = await h.ahs(['version', 'upload', id, await h.file('app-2.zip', 'second build'), '--platform', 'android', '--name', '1.1', '--json']);
    const v2 = second.json().versionId;
    expect((await h.ahs(['deploy', id, v2, ...ch, '--state', 'LIVE'])).exitCode).toBe(0);
    const over = await h.ahs(['promote-default', id, v2, ...ch, '--expect-current', v1, '--json']);
    expect(over.exitCode, over.stderr).toBe(0);
    expect(over.json()).toMatchObject({ assetVersion: { versionId: v2, state: 'DEFAULT' }, previousDefault: v1 });
    expect(await h.records(id)).toEqual([`android/staging/${v1}=LIVE`, `android/staging/${v2}=DEFAULT`]);

    const back = await h.ahs(['rollback', id, ...ch, '--to', v1, '--json']);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(back.json()).toMatchObject({ assetVersion: { versionId: v1, state: 'DEFAULT' }, previousDefault: v2 });
    expect(await h.records(id)).toEqual([`android/staging/${v1}=DEFAULT`, `android/staging/${v2}=LIVE`]);
  });

  it('release: upload, deploy LIVE, promote; a re-run matches the version by its content as served and sends nothing; verify and version download read the same bytes', async () => {
    const id = 'released';
    await h.createAsset(id);
    const ch = ['--platform', 'ios', '--env', 'prod'];
    const content = randomBytes(40_000);
    const file = await h.file('release.zip', content);
    const first = await h.ahs(['release', id, file, ...ch, '--name', '3.0', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    const versionId = first.json().version.versionId;
    expect(first.json().stages.map((s: { changed: boolean }) => s.changed)).toEqual([true, true, true]);
    expect(await h.records(id)).toEqual([`ios/prod/${versionId}=DEFAULT`]);
    // The re-run downloads the Default through its downloadUrl (absolute or relative, on the delivery URL) to compare it.
    const again = await h.ahs(['release', id, file, ...ch, '--name', '3.0', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.json().stages.map((s: { changed: boolean }) => s.changed)).toEqual([false, false, false]);
    expect(again.stderr).toMatch(/SHA-256/);
    const verified = await h.ahs(['verify', id, file, ...ch]);
    expect(verified.exitCode, verified.stderr).toBe(0);
    // The same file released to another environment where the version is OFFLINE: read as OFFLINE, whatever its own listing shows.
    expect((await h.deploy(id, versionId, 'ios', 'staging', 'OFFLINE')).status).toBe(201);
    const staging = ['--platform', 'ios', '--env', 'staging'];
    const dry = await h.ahs(['release', id, file, ...staging, '--name', '3.0', '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.json().before).toMatchObject([{ current: 'OFFLINE', predicted: { status: 201, state: 'LIVE' } }]);
    const toStaging = await h.ahs(['release', id, file, ...staging, '--name', '3.0', '--json']);
    expect(toStaging.exitCode, toStaging.stderr).toBe(0);
    expect(toStaging.json().stages.map((s: { changed: boolean }) => s.changed)).toEqual([false, true, true]);
    expect(await h.records(id)).toEqual([`ios/prod/${versionId}=DEFAULT`, `ios/staging/${versionId}=DEFAULT`]);
    const out = join(h.dir, 'downloaded.zip');
    const downloaded = await h.ahs(['version', 'download', id, versionId, '--env', 'prod', '--out', out]);
    expect(downloaded.exitCode, downloaded.stderr).toBe(0);
    expect((await readFile(out)).equals(content)).toBe(true);
  });

  it('OFFLINE versions, decided from reads the spec defines: --idempotent, --dry-run, promote-default, rollback --to', async () => {
    const id = 'offline';
    await h.createAsset(id);
    const ch = ['--platform', 'web', '--env', 'staging'];
    const [v1, v2] = [await h.uploadVersion(id, 'web', '1'), await h.uploadVersion(id, 'web', '2')];
    expect((await h.deploy(id, v1, 'web', 'staging', 'LIVE')).status).toBe(201);
    expect((await h.deploy(id, v1, 'web', 'staging', 'DEFAULT')).status).toBe(201);
    expect((await h.deploy(id, v2, 'web', 'staging', 'OFFLINE')).status).toBe(201);
    const before = await h.records(id);
    expect(before).toEqual([`web/staging/${v1}=DEFAULT`, `web/staging/${v2}=OFFLINE`]);

    // Already OFFLINE: nothing sent, exit 0, whether or not the version's own asset-urls list the record.
    const idem = await h.ahs(['deploy', id, v2, ...ch, '--state', 'OFFLINE', '--idempotent', '--json']);
    expect(idem.exitCode, idem.stderr).toBe(0);
    expect(idem.json()).toMatchObject({ changed: false, state: 'OFFLINE' });
    const dry = await h.ahs(['deploy', id, v2, ...ch, '--state', 'LIVE', '--dry-run', '--json']);
    expect(dry.exitCode, dry.stdout).toBe(0);
    expect(dry.json()).toMatchObject({ current: 'OFFLINE', predicted: { status: 201, state: 'LIVE' } });
    const dryOffline = await h.ahs(['deploy', id, v2, ...ch, '--state', 'OFFLINE', '--dry-run', '--json']);
    expect(dryOffline.json().predicted.status).toBe(400);
    // An OFFLINE version is not "never deployed": the service's 400 (exit 1), not a local 404 (exit 4).
    const promote = await h.ahs(['promote-default', id, v2, ...ch]);
    expect(promote.exitCode, promote.stderr).toBe(1);
    expect(promote.stderr).toContain(`${v2} is OFFLINE on ${id}/web/staging: add --make-live`);
    const back = await h.ahs(['rollback', id, ...ch, '--to', v2]);
    expect(back.exitCode, back.stderr).toBe(1);
    expect(back.stderr).toContain(`${v2} is OFFLINE on ${id}/web/staging`);
    expect(await h.records(id)).toEqual(before);

    const live = await h.ahs(['promote-default', id, v2, ...ch, '--make-live', '--json']);
    expect(live.exitCode, live.stderr).toBe(0);
    expect(live.json()).toMatchObject({ assetVersion: { versionId: v2, state: 'DEFAULT' }, previousDefault: v1 });
    expect(await h.records(id)).toEqual([`web/staging/${v1}=LIVE`, `web/staging/${v2}=DEFAULT`]);
    // From another environment: the Default of the same asset and platform there.
    const from = await h.ahs(['promote-default', id, '--from-env', 'staging', '--platform', 'web', '--env', 'prod', '--make-live', '--json']);
    expect(from.exitCode, from.stderr).toBe(0);
    expect(from.json()).toMatchObject({ assetVersion: { versionId: v2, state: 'DEFAULT' }, previousDefault: null });
  });

  it('item sync --checksum compares Live items by the bytes the delivery network serves, and verify COLLECTION DIR agrees', async () => {
    const id = 'synced';
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], createdBy: DEMO_USER })).status).toBe(201);
    const folder = join(h.dir, 'sync-checksum');
    await mkdir(folder, { recursive: true });
    await h.file('sync-checksum/a.json', '{"a":1}');
    await h.file('sync-checksum/b.json', '{"b":2}');
    const first = await h.ahs(['item', 'sync', id, folder, '--type', '1001', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.json().uploaded).toHaveLength(2);
    expect((await h.ahs(['collection-deploy', id, '--env', 'dev'])).exitCode).toBe(0);
    // Same size, other bytes: only the content comparison (a download from the delivery network) sees it.
    await h.file('sync-checksum/a.json', '{"a":9}');
    const verifyChanged = await h.ahs(['verify', id, folder, '--env', 'dev']);
    expect(verifyChanged.exitCode, verifyChanged.stderr).toBe(1);
    const synced = await h.ahs(['item', 'sync', id, folder, '--type', '1001', '--checksum', '--reconcile', '--json']);
    expect(synced.exitCode, synced.stderr).toBe(0);
    expect(synced.json().replaced).toHaveLength(1);
    expect(synced.json().unchanged).toEqual(['b.json']);
    const verified = await h.ahs(['verify', id, folder, '--env', 'dev']);
    expect(verified.exitCode, verified.stderr).toBe(0);
  });

  it('versions: sizes in the service\'s units, without fileName, extra fields passed through unchanged', async () => {
    const id = 'sizes';
    await h.createAsset(id);
    const up = await h.ahs(['version', 'upload', id, await h.file('big.zip', Buffer.alloc(1_100_000, 7)), '--platform', 'ios', '--name', '2.0', '--json']);
    expect(up.exitCode, up.stderr).toBe(0);
    const versionId = up.json().versionId;
    expect(versionId).toBe(firstVersion('ios'));
    const size = h.emu.variation.sizeStyle === 'binary' ? '1.05 MiB' : '1.1 MB';
    const direct = (await h.call('GET', `/va/${id}/versions/${versionId}`)).body;
    expect(direct.size).toBe(size);
    expect('fileName' in direct).toBe(h.emu.variation.versionFileName);

    const list = await h.ahs(['version', 'list', id]);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toContain(versionId);
    expect(list.stdout).toContain(size);
    const get = await h.ahs(['version', 'get', id, versionId]);
    expect(get.exitCode, get.stderr).toBe(0);
    expect(get.stdout).toContain(size);

    // JSON is the service's body unchanged: unknown fields kept, nothing invented.
    const json = await h.ahs(['version', 'get', id, versionId, '--json']);
    expect(json.json()).toEqual(sameBody(direct));
    const asset = await h.ahs(['asset', 'get', id, '--json']);
    expect(asset.json()).toEqual(sameBody((await h.call('GET', `/va/${id}`)).body));
  });

  it('collections: create, upload 2 items, deploy, status, url, fetch the same bytes, undeploy, delete, restore, purge', async () => {
    const id = 'flow';
    expect((await h.ahs(['collection', 'create', id, '--name', 'Flow', '--allowed-types', '1001'])).exitCode).toBe(0);
    const bytes = { 'a.bin': randomBytes(70_000), 'b.json': Buffer.from('{"b":2}') };
    const files = await Promise.all(Object.entries(bytes).map(([name, content]) => h.file(name, content)));
    const up = await h.ahs(['item', 'upload', id, ...files, '--type', '1001', '--json']);
    expect(up.exitCode, up.stderr).toBe(0);
    expect(up.json().uploaded).toHaveLength(2);

    const deployed = await h.ahs(['collection-deploy', id, '--env', 'dev', '--json']);
    expect(deployed.exitCode, deployed.stderr).toBe(0);
    expect(deployed.json().downloadUrl.startsWith(h.emu.variation.relativeDownloadUrls ? '/api/vi/' : `${h.emu.deliveryUrl}/api/vi/`)).toBe(true);
    const status = await h.ahs(['collection', 'status', id, '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.json().items.find((r: { envId: string }) => r.envId === 'dev').live).toHaveLength(2);
    const url = await h.ahs(['collection', 'url', id, '--env', 'dev']);
    expect(url.exitCode, url.stderr).toBe(0);
    expect(url.stdout.trim()).toBe(deployed.json().downloadUrl);

    const dir = join(h.dir, 'fetched');
    const fetched = await h.ahs(['fetch', id, '--env', 'dev', '--dir', dir, '--json']);
    expect(fetched.exitCode, fetched.stderr).toBe(0);
    expect(fetched.json()).toMatchObject({ failed: [] });
    for (const [name, content] of Object.entries(bytes)) expect((await readFile(join(dir, name))).equals(content)).toBe(true);
    const byUrl = join(h.dir, 'fetched-by-url');
    const fetchedByUrl = await h.ahs(['fetch', '--url', url.stdout.trim(), '--dir', byUrl, '--json']);
    expect(fetchedByUrl.exitCode, fetchedByUrl.stderr).toBe(0);
    for (const [name, content] of Object.entries(bytes)) expect((await readFile(join(byUrl, name))).equals(content)).toBe(true);

    expect((await h.ahs(['collection', 'undeploy', id, '--env', 'dev', '--yes'])).exitCode).toBe(0);
    expect((await h.ahs(['collection', 'delete', id, '--yes'])).exitCode).toBe(0);
    expect((await h.ahs(['collection', 'restore', id])).exitCode).toBe(0);
    expect((await h.ahs(['collection', 'delete', id, '--yes'])).exitCode).toBe(0);
    expect((await h.ahs(['collection', 'purge', id, '--yes'])).exitCode).toBe(0);
    expect((await h.ahs(['collection', 'get', id])).exitCode).toBe(4);
  });

  // A relative download URL names no host: it needs the delivery URL set.
  it.skipIf(OTHER_VARIATIONS === options.variation)('fetch without a delivery URL set finds the files where the deployed URL says (an unsecured collection)', async () => {
    const id = 'open';
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['1001'], secured: false, createdBy: DEMO_USER })).status).toBe(201);
    await seedItem(id, 'open.json');
    const live = await h.call('POST', `/vc/${id}/deployments`, { state: 'LIVE', envId: 'dev', createdBy: DEMO_USER });
    expect(live.status).toBe(201);
    const unset = { env: { AHS_DELIVERY_URL: undefined } };
    for (const [dir, args] of [
      ['open-by-id', ['fetch', id, '--env', 'dev']],
      ['open-by-url', ['fetch', '--url', live.body.downloadUrl]],
    ] as const) {
      const run = await h.ahs([...args, '--dir', join(h.dir, dir)], unset);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(await readFile(join(h.dir, dir, 'open.json'), 'utf8')).toBe('{"name":"open.json"}');
    }
  });

  it.skipIf(OTHER_VARIATIONS !== options.variation)('a relative download URL without a delivery URL set: exit 2 naming --delivery-url, nothing fetched', async () => {
    const run = await h.ahs(['fetch', '--url', '/api/vi/demo/vc/flow/dev', '--dir', join(h.dir, 'nowhere')], { env: { AHS_DELIVERY_URL: undefined } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('error: --url "/api/vi/demo/vc/flow/dev" is relative: set the delivery URL it is relative to with --delivery-url (or AHS_DELIVERY_URL, or the profile\'s deliveryUrl)');
  });

  it('an undeploy that meets a running deployment: a plain-text 500 is exit 1 naming it', async () => {
    const id = 'busy';
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'web');
    const hold = h.emu.holdDeployments();
    const deploying = h.deploy(id, v, 'web', 'dev', 'LIVE');
    await hold.held();
    try {
      const run = await h.ahs(['asset', 'undeploy', id, '--env', 'dev', '--platform', 'web', '--yes', '--retries', '0']);
      // The default emulator lets the undeploy through; the variation answers a plain-text 500.
      const refused = h.emu.variation.undeployPlainText500;
      expect(run.exitCode, run.stderr).toBe(refused ? 1 : 0);
      if (refused) expect(run.stderr).toMatch(/answered 500: E9998 internal failure/);
    } finally {
      hold();
    }
    expect((await deploying).status).toBe(201);
  });

  it.skipIf(!paging)('--all reads every page, whatever page size the service allows', async () => {
    const assets = await h.ahs(['asset', 'list', '--all', '--json']);
    expect(assets.exitCode, assets.stderr).toBe(0);
    const ids = assets.json().results.map((a: { assetId: string }) => a.assetId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(assets.json().totalResults);
    expect(ids.filter((id: string) => id.startsWith('pg-'))).toHaveLength(ASSETS);

    const versions = await h.ahs(['version', 'list', BIG, '--all', '--json']);
    expect(versions.json().results.map((v: { versionId: string }) => v.versionId).sort()).toEqual([...bigVersions].sort());
    const items = await h.ahs(['item', 'list', 'pgc-00', '--all', '--json']);
    expect(new Set(items.json().results.map((i: { assetItemId: string }) => i.assetItemId)).size).toBe(ITEMS);
    const collections = await h.ahs(['collection', 'list', '--all', '--json']);
    const seeded = collections.json().results.filter((c: { collectionId: string }) => c.collectionId.startsWith('pgc-'));
    expect(seeded).toHaveLength(COLLECTIONS);
    const status = await h.ahs(['asset', 'status', BIG, ...BIG_CH, '--json']);
    expect(status.json().results).toHaveLength(CHANNEL_VERSIONS);
  });

  it.skipIf(!paging)('a channel larger than a page: dry-run predicts the Default\'s 400, promote over the oldest Default with --expect-current', async () => {
    const oldest = bigVersions[0]!;
    const newest = bigVersions[CHANNEL_VERSIONS - 1]!;
    const dry = await h.ahs(['deploy', BIG, oldest, ...BIG_CH, '--state', 'LIVE', '--dry-run', '--json']);
    expect(dry.exitCode, dry.stdout).toBe(1);
    expect(dry.json().predicted.status).toBe(400);
    expect((await h.ahs(['deploy', BIG, oldest, ...BIG_CH, '--state', 'LIVE'])).exitCode).toBe(1);

    const idem = await h.ahs(['promote-default', BIG, oldest, ...BIG_CH, '--idempotent', '--json']);
    expect(idem.json()).toMatchObject({ changed: false, state: 'DEFAULT' });
    const promoted = await h.ahs(['promote-default', BIG, newest, ...BIG_CH, '--expect-current', oldest, '--json']);
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    expect(promoted.json()).toMatchObject({ assetVersion: { versionId: newest, state: 'DEFAULT' }, previousDefault: oldest });
    const records = await h.records(BIG);
    expect(records.filter((r) => r.endsWith('=DEFAULT'))).toEqual([`android/prod/${newest}=DEFAULT`]);
    expect(records).toContain(`android/prod/${oldest}=LIVE`);
    expect(records).toHaveLength(CHANNEL_VERSIONS);

    // Now the Default sorts last (the emulator lists a channel by version number): on the last page.
    const dryNewest = await h.ahs(['deploy', BIG, newest, ...BIG_CH, '--state', 'LIVE', '--dry-run', '--json']);
    expect(dryNewest.exitCode).toBe(1);
    expect(dryNewest.json().predicted.status).toBe(400);
    const stale = await h.ahs(['promote-default', BIG, oldest, ...BIG_CH, '--expect-current', oldest]);
    expect(stale.exitCode).toBe(5);
    expect(stale.stderr).toContain(newest);
    const back = await h.ahs(['promote-default', BIG, oldest, ...BIG_CH, '--expect-current', newest, '--json']);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(back.json()).toMatchObject({ previousDefault: newest });
    expect((await h.records(BIG)).filter((r) => r.endsWith('=DEFAULT'))).toEqual([`android/prod/${oldest}=DEFAULT`]);
  });

  it.each([
    ['collection get', ['collection', 'get', MISSING]],
    ['collection update', ['collection', 'update', MISSING, '--name', 'x']],
    ['collection delete', ['collection', 'delete', MISSING, '--yes']],
    ['collection restore', ['collection', 'restore', MISSING]],
    ['collection purge', ['collection', 'purge', MISSING, '--yes']],
    ['collection status', ['collection', 'status', MISSING]],
    ['collection url', ['collection', 'url', MISSING, '--env', 'dev']],
    ['collection undeploy', ['collection', 'undeploy', MISSING, '--env', 'dev', '--yes']],
    ['item list', ['item', 'list', MISSING]],
    ['item get', ['item', 'get', MISSING, 'item-000001']],
    ['item remove', ['item', 'remove', MISSING, 'item-000001', '--yes']],
    ['collection-deploy', ['collection-deploy', MISSING, '--env', 'dev']],
    ['collection-deploy --idempotent', ['collection-deploy', MISSING, '--env', 'dev', '--idempotent']],
    ['collection-deploy --reconcile', ['collection-deploy', MISSING, '--reconcile']],
    ['collection-deploy --state OFFLINE', ['collection-deploy', MISSING, '--env', 'dev', '--state', 'OFFLINE']],
    ['collection-deploy --dry-run', ['collection-deploy', MISSING, '--env', 'dev', '--dry-run']],
    ['collection-deploy --reconcile --dry-run', ['collection-deploy', MISSING, '--reconcile', '--dry-run']],
    ['collection undeploy --dry-run', ['collection', 'undeploy', MISSING, '--env', 'dev', '--dry-run']],
    ['collection delete --dry-run', ['collection', 'delete', MISSING, '--dry-run']],
    ['item remove --dry-run', ['item', 'remove', MISSING, 'item-000001', '--dry-run']],
    ['fetch --manifest', ['fetch', MISSING, '--env', 'dev', '--manifest']],
  ])('a missing collection exits 4: %s', async (_command, args) => {
    const run = await h.ahs(args);
    expect(run.exitCode, run.stderr).toBe(4);
  });

  it('a missing collection exits 4: fetch, item sync and item upload (with and without --dry-run)', async () => {
    const file = await h.file('lonely.json', '{}');
    const fetched = await h.ahs(['fetch', MISSING, '--env', 'dev', '--dir', join(h.dir, 'nothing')]);
    expect(fetched.exitCode, fetched.stderr).toBe(4);
    const folder = join(h.dir, 'sync-src');
    await mkdir(folder, { recursive: true });
    await h.file('sync-src/one.json', '{"one":1}');
    for (const dryRun of [[], ['--dry-run']]) {
      const sync = await h.ahs(['item', 'sync', MISSING, folder, '--type', '1001', ...dryRun]);
      expect(sync.exitCode, sync.stderr).toBe(4);
      const upload = await h.ahs(['item', 'upload', MISSING, file, '--type', '1001', ...dryRun]);
      expect(upload.exitCode, upload.stderr).toBe(4);
    }
  });
});

function times<T>(n: number, make: (i: number) => Promise<T>): Promise<T>[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

/** The number of a version id such as AND1007 (the sequence, whatever its start). */
function versionNumber(versionId: string): number {
  return Number(/\d+$/.exec(versionId)?.[0]);
}

/** The body the service answered, as the CLI must print it (a request id differs per request). */
function sameBody(body: Record<string, unknown>): Record<string, unknown> {
  return 'requestId' in body ? { ...body, requestId: expect.any(String) } : body;
}
