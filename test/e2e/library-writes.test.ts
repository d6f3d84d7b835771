// The library's writes beside release, deploy and sync (cli.md "In CI, and
// from code": the same capabilities as the CLI, the writes as plans): asset
// update, delete and undeploy, version delete, the collection writes, item
// upload and remove. Driven through the built package entry (dist/lib.mjs,
// what `import 'ahs-cli'` loads) against the emulator over real HTTP; each
// checked by the service's state afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { assertBuiltFromSources, harness, uid, DEMO_API_KEY, DEMO_USER, ROOT, type Harness } from './helpers.js';
import type * as Library from '../../src/library/index.js';

let h: Harness;
let lib: typeof Library;
let client: Library.Client;
beforeAll(async () => {
  assertBuiltFromSources(join(ROOT, 'dist', 'lib.mjs'), 'npm run build', 'npm test');
  lib = (await import(pathToFileURL(join(ROOT, 'dist', 'lib.mjs')).href)) as typeof Library;
  h = await harness();
  client = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER });
});
afterAll(async () => {
  await client?.close();
  await h?.close();
});

describe('refusals in the library\'s own words', () => {
  it('a compare-and-set, a rollback with no proven target, a release of a name taken and a version not LIVE name the call\'s parameters, never a CLI flag', async () => {
    const id = uid('lib-words');
    await h.createAsset(id);
    const [v1, v2] = [await h.uploadVersion(id, 'ios', '1.0'), await h.uploadVersion(id, 'ios', '1.1')];
    for (const v of [v1, v2]) expect((await h.deploy(id, v, 'ios', 'prod', 'LIVE')).status).toBeLessThan(300);
    expect((await h.deploy(id, v2, 'ios', 'prod', 'DEFAULT')).status).toBeLessThan(300);
    const channel = { assetId: id, platform: 'ios', envId: 'prod' };
    const messages: string[] = [];
    const refused = async (call: () => Promise<unknown>) => {
      const error = (await call().catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(lib.AhsError);
      messages.push(error.message);
      return error;
    };

    const cas = await refused(async () => (await client.promoteDefault({ ...channel, versionId: v1, expectCurrent: 'IOS99' })).apply());
    expect(cas).toMatchObject({ exitCode: 5, expected: 'IOS99', actual: v2, message: `the compare-and-set did not hold: the Default of ${id}/ios/prod is ${v2}, not IOS99 as expected; nothing was written` });
    const rollback = await refused(async () => (await client.rollback(channel)).apply());
    expect(rollback.message).toMatch(/name it with to; LIVE there: /);
    const taken = await h.file(`${id}-other.bin`, 'another file, another size');
    const release = await refused(async () => (await client.release({ ...channel, file: taken, name: '1.0' })).apply());
    expect(release.message).toMatch(/nothing was written: release under another name$/);
    const v3 = await h.uploadVersion(id, 'ios', '1.2');
    const notLive = await refused(async () => (await client.promoteDefault({ ...channel, versionId: v3 })).apply());
    expect(notLive.message).toContain('add makeLive to deploy it LIVE first');
    for (const message of messages) expect(message).not.toMatch(/(^|\s)--[a-z]/);
  });

  it('a call out of time names its budget as the library takes it: timeoutMs, in milliseconds', async () => {
    // A service that takes the connection and never answers.
    const held = new Set<Socket>();
    const silent = createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const slow = lib.createClient({ baseUrl: `http://127.0.0.1:${port}`, domainId: 'demo', apiKey: DEMO_API_KEY, timeoutMs: 300, retries: 0 });
    try {
      const error = (await slow.assets.get('a').catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(lib.NetworkError);
      expect(error.message).toMatch(/^no answer from http:\/\/127\.0\.0\.1:\d+ to GET \/va\/a within 300 ms \(timeoutMs, retries included\); try again, or allow more time with a larger timeoutMs$/);
    } finally {
      await slow.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('asset and version writes', () => {
  it('update, undeploy from two platforms, delete a version, delete the asset: each predicted first (nothing sent), then applied', async () => {
    const id = uid('lib-asset');
    await h.createAsset(id);
    const update = await client.assets.update({ assetId: id, name: 'Renamed', active: false });
    expect(update.steps.map((s) => s.kind)).toEqual(['asset.update']);
    expect(await update.predict()).toMatchObject({ dryRun: true, request: { method: 'PUT' }, predicted: { error: null } });
    expect((await h.call('GET', `/va/${id}`)).body).toMatchObject({ assetName: id, active: true });
    expect(await update.apply()).toMatchObject({ assetId: id, assetName: 'Renamed', active: false });
    expect((await h.call('GET', `/va/${id}`)).body).toMatchObject({ assetName: 'Renamed', active: false, updatedBy: DEMO_USER });
    await (await client.assets.update({ assetId: id, active: true, localCacheMaxAge: 60 })).apply();
    expect((await h.call('GET', `/va/${id}`)).body).toMatchObject({ assetName: 'Renamed', active: true, localCacheMaxAge: 60 });

    const [ios, android] = [await h.uploadVersion(id, 'ios', '1'), await h.uploadVersion(id, 'android', '1')];
    expect((await h.deploy(id, ios, 'ios', 'prod', 'LIVE')).status).toBe(201);
    expect((await h.deploy(id, android, 'android', 'prod', 'LIVE')).status).toBe(201);
    const undeploy = await client.assets.undeploy({ assetId: id, envId: 'prod', platform: ['ios', 'android'] });
    expect(await undeploy.apply()).toMatchObject({ totalUndeployedVersions: 2 });
    expect(await h.records(id)).toEqual([]);

    const versionDelete = await client.versions.delete({ assetId: id, versionId: ios });
    expect(await versionDelete.apply()).toEqual({ deleted: true, assetId: id, versionId: ios });
    expect((await h.call('GET', `/va/${id}/versions/${ios}`)).status).toBe(404);

    // An asset with a version left: the rules predict the service's refusal; apply throws it with the CLI's exit code.
    const refused = await client.assets.delete({ assetId: id });
    expect(await refused.predict()).toMatchObject({ predicted: { error: { status: expect.any(Number) } } });
    await expect(refused.apply()).rejects.toMatchObject({ exitCode: 1 });
    expect((await h.call('GET', `/va/${id}`)).status).toBe(200);
    await (await client.versions.delete({ assetId: id, versionId: android })).apply();
    expect(await (await client.assets.delete({ assetId: id })).apply()).toEqual({ deleted: true, assetId: id });
    expect((await h.call('GET', `/va/${id}`)).status).toBe(404);
  });

  it('a bad parameter is a usage error naming the call and the parameter, before any request', async () => {
    await expect(client.assets.undeploy({ assetId: 'x', envId: 'prod', platform: [] })).rejects.toMatchObject({ exitCode: 2, message: 'assets.undeploy: platform must be a non-empty list of strings' });
    await expect(client.versions.delete({ assetId: 'x' } as never)).rejects.toMatchObject({ exitCode: 2, message: 'versions.delete: versionId is required' });
  });

  it('the channel writes name the call\'s parameters, not the CLI\'s flags, before any request', async () => {
    const seen: string[] = [];
    const watched = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, onEvent: (e) => e.type === 'request' && seen.push(e.path) });
    try {
      const file = await h.file('lib-params.zip', 'x');
      const long = 'n'.repeat(65);
      await expect(watched.versions.upload({ assetId: 'x', file, platform: 'ios', name: long })).rejects.toMatchObject({ exitCode: 2, message: 'name must be at most 64 characters (got 65 characters)' });
      await expect(watched.release({ assetId: 'x', file, platform: 'ios', envId: 'prod', name: long })).rejects.toMatchObject({ exitCode: 2, message: 'name must be at most 64 characters (got 65 characters)' });
      await expect(watched.deploy({ assetId: 'a'.repeat(65), versionId: 'IOS1', platform: 'ios', envId: 'prod' })).rejects.toMatchObject({ exitCode: 2, message: 'assetId must be at most 64 characters (got 65 characters)' });
      await expect(watched.promoteDefault({ assetId: 'x', platform: 'ios', envId: 'prod', versionId: 'IOS1', fromEnv: 'staging' })).rejects.toMatchObject({ exitCode: 2, message: 'give versionId or fromEnv, not both' });
      await expect(watched.promoteDefault({ assetId: 'x', platform: 'ios', envId: 'prod', fromEnv: 'prod' })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/^fromEnv prod is the environment being promoted in \(envId prod\)/) });
      await expect(watched.promoteDefault({ assetId: 'x', platform: 'ios', envId: 'prod' })).rejects.toMatchObject({ exitCode: 2, message: 'promoteDefault: versionId (or fromEnv) is required' });
      expect(seen).toEqual([]);
    } finally {
      await watched.close();
    }
  });
});

describe('collection and item writes', () => {
  it('create, update, upload items, deploy, undeploy, remove an item, delete, restore, purge: the service holds each step', async () => {
    const id = uid('lib_coll').replace(/-/g, '_').slice(0, 40);
    const created = await client.collections.create({ collectionId: id, name: 'Pack', allowedTypes: ['9999'], maxAssets: 5 });
    expect(await created.apply()).toMatchObject({ collectionId: id, collectionName: 'Pack', allowedAssetTypes: ['9999'], maxAssets: 5 });
    expect(await (await client.collections.update({ collectionId: id, maxAssets: 10, description: 'from code' })).apply()).toMatchObject({ maxAssets: 10, description: 'from code' });
    expect((await h.call('GET', `/vc/${id}`)).body).toMatchObject({ maxAssets: 10, description: 'from code' });

    const files = [await h.file(`${id}-a.txt`, 'a'), await h.file(`${id}-b.txt`, 'bb')];
    const upload = await client.items.upload({ collectionId: id, files, type: '9999' });
    expect(upload.steps.map((s) => s.kind)).toEqual(['item.upload', 'item.upload']);
    const uploaded = await upload.apply();
    expect(uploaded.failed).toEqual([]);
    expect(uploaded.uploaded.map((item) => item.assetItemName).sort()).toEqual([`${id}-a.txt`, `${id}-b.txt`]);

    const deployed = await (await client.collections.deploy({ collectionId: id, envId: 'prod' })).apply();
    expect(deployed).toMatchObject({ downloadUrl: expect.any(String) });
    const again = await client.collections.deploy({ collectionId: id, envId: 'prod', idempotent: true });
    expect(again.unchanged).toMatchObject({ changed: false, state: 'LIVE' });
    expect(await (await client.collections.undeploy({ collectionId: id, envId: 'prod' })).apply()).toMatchObject({ message: expect.any(String) });
    const status = (await h.call('GET', `/vc/${id}/deployments`)).body.items.find((row: { envId: string }) => row.envId === 'prod');
    expect(status?.live ?? []).toEqual([]);

    const [first] = uploaded.uploaded;
    await (await client.items.remove({ collectionId: id, itemId: first!.assetItemId })).apply();
    expect((await h.call('GET', `/vc/${id}/items`)).body.results.map((item: { assetItemId: string }) => item.assetItemId)).toEqual([uploaded.uploaded[1]!.assetItemId]);

    await (await client.collections.delete({ collectionId: id })).apply();
    expect((await h.call('GET', `/vc/${id}`)).body).toMatchObject({ deleted: true });
    await (await client.collections.restore({ collectionId: id })).apply();
    expect((await h.call('GET', `/vc/${id}`)).body).toMatchObject({ deleted: false });
    await (await client.collections.delete({ collectionId: id })).apply();
    await (await client.collections.purge({ collectionId: id })).apply();
    expect((await h.call('GET', `/vc/${id}`)).status).not.toBe(200);
  });

  it('items.upload refused by the service once planned (the collection made read-only meanwhile): apply() rejects as the CLI exits, naming each file', async () => {
    const id = uid('lib_part').replace(/-/g, '_').slice(0, 40);
    await (await client.collections.create({ collectionId: id, name: 'Part', allowedTypes: ['9999'] })).apply();
    const files = [await h.file(`${id}-a.txt`, 'a'), await h.file(`${id}-b.txt`, 'b')];
    const upload = await client.items.upload({ collectionId: id, files, type: '9999' });
    expect((await h.call('PATCH', `/vc/${id}`, { editable: false, updatedBy: DEMO_USER })).status).toBe(200);
    const error = await upload.apply().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(lib.PartialFailureError);
    expect(error).toMatchObject({ exitCode: 1, kind: 'rejected', message: expect.stringMatching(/^0 of 2 uploaded; failed: .*-a\.txt \(HTTP 400: .*-b\.txt \(HTTP 400: /) });
    // What was done all the same: the document a call that succeeded answers, the failures in it.
    expect((error as { result?: { uploaded: unknown[]; failed: Array<{ file: string }> } }).result).toMatchObject({ uploaded: [], failed: [{ file: files[0] }, { file: files[1] }] });
    expect((await h.call('GET', `/vc/${id}/items`)).body.results).toEqual([]);
  });

  it('items.upload with no files is a usage error naming the parameter', async () => {
    await expect(client.items.upload({ collectionId: 'c', files: [], type: '9999' })).rejects.toMatchObject({ exitCode: 2, message: 'items.upload: files must be a non-empty list of strings' });
  });

  it('items.upload and items.sync without a type: a usage error naming the parameter (not the CLI\'s --type), before any request', async () => {
    const seen: string[] = [];
    const watched = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, onEvent: (e) => e.type === 'request' && seen.push(e.path) });
    try {
      const file = await h.file('lib-notype.txt', 'x');
      await expect(watched.items.upload({ collectionId: 'c', files: [file] } as never)).rejects.toMatchObject({ exitCode: 2, message: 'items.upload: type is required' });
      await expect(watched.items.sync({ collectionId: 'c', dir: h.dir } as never)).rejects.toMatchObject({ exitCode: 2, message: 'items.sync: type is required' });
      expect(seen).toEqual([]);
    } finally {
      await watched.close();
    }
  });
});

describe('state parameters', () => {
  it('deploy, release and collections.deploy take a state in any case as --state does, and refuse another naming the call\'s state, before sending', async () => {
    const id = uid('lib-state');
    await h.createAsset(id);
    const versionId = await h.uploadVersion(id, 'ios', '1');
    const offline = await client.deploy({ assetId: id, versionId, platform: 'ios', envId: 'dev', state: 'offline' as never });
    expect(await offline.predict()).toMatchObject({ request: { body: { intent: 'OFFLINE' } } });
    await expect(client.deploy({ assetId: id, versionId, platform: 'ios', envId: 'dev', state: 'DEFAULT' as never })).rejects.toMatchObject({ exitCode: 2, message: 'deploy: state must be one of LIVE, OFFLINE (got DEFAULT)' });
    const file = await h.file(`${id}.zip`, 'x');
    await expect(client.release({ assetId: id, file, platform: 'ios', envId: 'dev', name: '2', state: 'OFFLINE' as never })).rejects.toMatchObject({ exitCode: 2, message: 'release: state must be one of LIVE, DEFAULT (got OFFLINE)' });
    const collectionId = uid('lib_state').replace(/-/g, '_').slice(0, 40);
    await (await client.collections.create({ collectionId, name: 'State', allowedTypes: ['9999'] })).apply();
    await expect(client.collections.deploy({ collectionId, envId: 'dev', state: 'gone' as never })).rejects.toMatchObject({ exitCode: 2, message: 'collections.deploy: state must be one of LIVE, OFFLINE (got gone)' });
    expect(await h.records(id)).toEqual([]);
  });
});

describe('messages', () => {
  it('onMessage hears the line each command prints once its write is done: asset create and update, collection create, update and deploy', async () => {
    const lines: string[] = [];
    const heard = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, onMessage: (line) => lines.push(line) });
    try {
      const assetId = uid('lib-said');
      const create = await heard.assets.create({ assetId, name: 'Said', type: '1001' });
      await create.predict();
      expect(lines).toEqual([]);
      await create.apply();
      await (await heard.assets.update({ assetId, name: 'Said again' })).apply();
      const collectionId = uid('lib_said').replace(/-/g, '_').slice(0, 40);
      await (await heard.collections.create({ collectionId, name: 'Said', allowedTypes: ['9999'] })).apply();
      await (await heard.collections.update({ collectionId, description: 'said' })).apply();
      await (await heard.items.upload({ collectionId, files: [await h.file(`${collectionId}.txt`, 'x')], type: '9999' })).apply();
      await (await heard.collections.deploy({ collectionId, envId: 'dev' })).apply();
      expect(lines.map((line) => line.replace(/^✓ /, ''))).toEqual([
        `Created asset ${assetId}`,
        `Updated asset ${assetId}`,
        `created collection ${collectionId}; add files with: ahs item upload ${collectionId} FILE... --type CODE`,
        `updated collection ${collectionId} (description)`,
        expect.stringMatching(new RegExp(`${collectionId}\\.txt → item-`)),
        `collection ${collectionId} is LIVE in dev; fetch it with: ahs fetch ${collectionId} --env dev`,
      ]);
    } finally {
      await heard.close();
    }
  });
});
