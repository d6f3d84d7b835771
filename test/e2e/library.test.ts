// The typed library (issue 23 point 3, cli.md "In CI, and from code") against
// the emulator over real HTTP: reads as async iterators, writes as plans
// (steps, predict, apply) built on the commands' own run, the same JSON as
// the CLI, errors with the CLI's exit code and kind, explicit settings only.
// The packed package (dist/lib.mjs, its declarations) is tested in
// library-package.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, uid, DEMO_API_KEY, DEMO_USER, type Harness } from './helpers.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { AhsError, ConflictError, createClient, PartialFailureError, UsageError, type Client } from '../../src/library/index.js';

let h: Harness;
let client: Client;
const messages: string[] = [];
beforeAll(async () => {
  h = await harness();
  client = createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, onMessage: (line) => messages.push(line) });
});
afterAll(async () => {
  await client?.close();
  await h?.close();
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('reads', () => {
  it('iterate every page of a list, whatever page size the service caps at', async () => {
    const capped = await harness({ variation: { maxPageSize: 2 } });
    try {
      const small = createClient({ baseUrl: capped.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY });
      const id = uid('lib-pages');
      await capped.createAsset(id);
      const uploaded: string[] = [];
      for (const name of ['1', '2', '3', '4', '5']) uploaded.push(await capped.uploadVersion(id, 'ios', name));
      const versions = await collect(small.versions.list(id));
      expect(versions.map((v) => v.versionId)).toEqual(expect.arrayContaining(uploaded));
      expect(versions).toHaveLength(5);
      const assets = await collect(small.assets.list());
      expect(assets.map((a) => a.assetId)).toContain(id);
      expect(new Set(assets.map((a) => a.assetId)).size).toBe(assets.length);
    } finally {
      await capped.close();
    }
  });

  it('a missing asset is a NotFoundError-kind error with exit code 4', async () => {
    const error = await client.assets.get(uid('missing')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AhsError);
    expect(error).toMatchObject({ exitCode: 4, kind: 'not-found' });
    expect((error as AhsError).toBody()).toMatchObject({ status: 404 });
  });
});

describe('writes as plans', () => {
  it('release: steps, a prediction that sends nothing, then apply with the CLI\'s JSON; the channel reads back', async () => {
    const id = uid('lib-rel');
    const created = await client.assets.create({ assetId: id, name: 'Library', type: '1001' });
    expect(created.steps.map((s) => s.kind)).toEqual(['asset.create']);
    expect(await created.apply()).toMatchObject({ assetId: id, assetName: 'Library' });
    const file = await h.file(`${id}.zip`, 'release bytes');

    const release = await client.release({ assetId: id, file, platform: 'ios', envId: 'prod', name: '1.0.0' });
    expect(release.steps.map((s) => s.kind)).toEqual(['version.upload', 'version.deploy', 'version.promote']);
    const predicted = await release.predict();
    expect(predicted).toMatchObject({ dryRun: true, request: { method: 'POST' }, predicted: { error: null }, before: [{ request: { method: 'POST' } }, { request: { method: 'POST' } }] });
    expect(await collect(client.versions.list(id))).toEqual([]);

    const result = await release.apply();
    const cli = await h.ahs(['release', id, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0.0', '--json']);
    expect(cli.exitCode, cli.stderr).toBe(0);
    // The CLI's re-run finds the release done; the first run's document has the same shape and ids.
    expect(Object.keys(result).sort()).toEqual(Object.keys(cli.json()).sort());
    expect(result).toMatchObject({ version: { versionId: cli.json().version.versionId }, assetVersion: { state: 'DEFAULT' }, previousDefault: null });
    expect(result.stages.every((s) => s.changed)).toBe(true);
    expect(await collect(client.channel(id, 'ios', 'prod'))).toMatchObject([{ versionId: cli.json().version.versionId, state: 'DEFAULT' }]);
    expect(await h.records(id)).toEqual([`ios/prod/${cli.json().version.versionId}=DEFAULT`]);
    await expect(release.apply()).rejects.toThrow(UsageError);
    expect(messages.some((line) => line.includes('is the Default of'))).toBe(true);
  });

  it('a predicted rejection is the prediction; apply throws the error with the CLI\'s exit code, nothing sent', async () => {
    const id = uid('lib-off');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1');
    const rollback = await client.rollback({ assetId: id, platform: 'ios', envId: 'prod', to: v1 }).catch((e: unknown) => e);
    // No Default on the channel: nothing to roll back, a usage error as the CLI's exit 2.
    expect(rollback).toMatchObject({ exitCode: 2, kind: 'usage', message: expect.stringContaining('has no Default') });

    const promote = await client.promoteDefault({ assetId: id, platform: 'ios', envId: 'prod', versionId: v1 });
    const predicted = await promote.predict();
    expect(predicted).toMatchObject({ dryRun: true, predicted: { error: { status: expect.any(Number) } } });
    const error = await promote.apply().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AhsError);
    const cli = await h.ahs(['promote-default', id, v1, '--platform', 'ios', '--env', 'prod', '--json']);
    expect((error as AhsError).exitCode).toBe(cli.exitCode);
    expect(await h.records(id)).toEqual([]);
  });

  it('rollback and a compare-and-set that does not hold: the CLI\'s JSON, then a ConflictError (exit 5)', async () => {
    const id = uid('lib-rb');
    await h.createAsset(id);
    const [v1, v2] = [await h.uploadVersion(id, 'ios', '1'), await h.uploadVersion(id, 'ios', '2')];
    for (const v of [v1, v2]) await h.deploy(id, v, 'ios', 'prod', 'LIVE');
    await h.deploy(id, v2, 'ios', 'prod', 'DEFAULT');

    const rollback = await client.rollback({ assetId: id, platform: 'ios', envId: 'prod', to: v1 });
    expect(await rollback.apply()).toMatchObject({ assetVersion: { versionId: v1, state: 'DEFAULT' }, previousDefault: v2, attempts: 1 });
    const again = await client.rollback({ assetId: id, platform: 'ios', envId: 'prod', to: v1 });
    const cli = await h.ahs(['rollback', id, '--platform', 'ios', '--env', 'prod', '--to', v1, '--json']);
    expect(again.unchanged).toEqual(cli.json());
    expect(await again.apply()).toEqual(cli.json());

    const stale = await client.promoteDefault({ assetId: id, platform: 'ios', envId: 'prod', versionId: v2, expectCurrent: v2 }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ConflictError);
    expect(stale).toMatchObject({ exitCode: 5, kind: 'conflict' });
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=DEFAULT`, `ios/prod/${v2}=LIVE`]);
  });

  it('item sync: the CLI\'s JSON, and a second sync by the CLI finds nothing to do', async () => {
    const id = uid('lib-sync').replace(/-/g, '_').slice(0, 40);
    const created = await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['9999'], createdBy: DEMO_USER });
    expect(created.status).toBe(201);
    const dir = join(h.dir, id);
    await mkdir(dir);
    await writeFile(join(dir, 'a.txt'), 'a');
    await writeFile(join(dir, 'b.txt'), 'bb');
    const sync = await client.items.sync({ collectionId: id, dir, type: '9999' });
    expect(sync.steps.map((s) => s.kind)).toEqual(['item.upload', 'item.upload', 'item.converge']);
    const result = await sync.apply();
    expect(result).toMatchObject({ removed: [], failed: [], compared: { size: 0 } });
    expect(result.uploaded.map((i) => i.assetItemName).sort()).toEqual(['a.txt', 'b.txt']);
    const items = await collect(client.items.list(id));
    expect(items.map((i) => i.assetItemName).sort()).toEqual(['a.txt', 'b.txt']);
    const cli = await h.ahs(['item', 'sync', id, dir, '--type', '9999', '--json']);
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(Object.keys(cli.json()).sort()).toEqual(Object.keys(result).sort());
    expect(cli.json().unchanged.sort()).toEqual(['a.txt', 'b.txt']);
  });

  it('verify: the CLI\'s JSON, differences included (the answer, not an error), for a collection, an asset\'s file and a sums file', async () => {
    const id = uid('lib-verify');
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['9999'], createdBy: DEMO_USER })).status).toBe(201);
    const dir = join(h.dir, id);
    await mkdir(dir);
    await writeFile(join(dir, 'a.txt'), 'aaa');
    await writeFile(join(dir, 'b.txt'), 'bbb');
    expect((await h.ahs(['item', 'sync', id, dir, '--type', '9999'])).exitCode).toBe(0);
    expect((await h.ahs(['collection-deploy', id, '--env', 'dev'])).exitCode).toBe(0);
    expect(await client.verify({ collectionId: id, envId: 'dev', dir })).toEqual({ matched: ['a.txt', 'b.txt'], differ: [], missing: [], extra: [], failed: [] });
    await writeFile(join(dir, 'b.txt'), 'BBB');
    const differs = await client.verify({ collectionId: id, envId: 'dev', dir });
    const cli = await h.ahs(['verify', id, dir, '--env', 'dev', '--json']);
    expect(cli.exitCode).toBe(1);
    expect(differs).toEqual(cli.json());
    expect(differs.differ.map((d) => d.name)).toEqual(['b.txt']);

    const asset = uid('lib-verify-asset');
    await h.createAsset(asset);
    const file = join(dir, 'a.txt');
    expect((await h.ahs(['release', asset, file, '--platform', 'ios', '--env', 'prod', '--name', '1.0'])).exitCode).toBe(0);
    expect(await client.verify({ assetId: asset, platform: 'ios', envId: 'prod', file })).toMatchObject({ matched: [file], differ: [] });
    const sums = join(h.dir, `${asset}.sums`);
    await writeFile(sums, `${'0'.repeat(64)}  a.txt\n`);
    expect(await client.verify({ assetId: asset, platform: 'ios', envId: 'prod', sums })).toMatchObject({ matched: [], differ: [{ name: 'a.txt', expected: '0'.repeat(64) }] });
    await expect(client.verify({ collectionId: id, envId: 'dev' })).rejects.toThrow(/verify: give either dir or sums/);
    await expect(client.verify({ collectionId: id, envId: 'dev', sums: join(h.dir, 'none.sums') })).rejects.toMatchObject({ kind: 'usage' });
  });

  it('verify: the parameters say what is verified: a dir that is a file, a file that is a folder and a bad id are usage errors naming the parameter, nothing read', async () => {
    const dir = join(h.dir, uid('lib-verify-kinds'));
    await mkdir(dir);
    const file = join(dir, 'a.txt');
    await writeFile(file, 'aaa');
    const requests: string[] = [];
    const watched = createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, onEvent: (event) => void (event.type === 'request' && requests.push(event.path)) });
    try {
      await expect(watched.verify({ collectionId: 'launch-pack', envId: 'dev', dir: file })).rejects.toThrow(new RegExp(`^dir ${file}: not a folder$`));
      await expect(watched.verify({ assetId: 'my-bundle', platform: 'ios', envId: 'dev', file: dir })).rejects.toThrow(new RegExp(`^file ${dir}: not a regular file$`));
      await expect(watched.verify({ collectionId: 'launch-pack', envId: 'dev', dir: join(dir, 'none') })).rejects.toMatchObject({ kind: 'usage', message: expect.stringMatching(/^dir .*none: no such folder$/) });
      await expect(watched.verify({ collectionId: 'no such pack', envId: 'dev', dir })).rejects.toMatchObject({ kind: 'usage', message: expect.stringMatching(/^collectionId /) });
      expect(requests).toEqual([]);
    } finally {
      await watched.close();
    }
  });

  it('desired state: plan equals ahs plan --json; apply sends it; the CLI then plans nothing', async () => {
    const id = uid('lib-ds');
    const folder = join(h.dir, id);
    await mkdir(folder);
    const file = join(folder, 'ahs.yaml');
    await writeFile(file, `apiVersion: ahs/v1\nassets:\n  ${id}:\n    name: Desired\n    type: "1001"\n`);
    // A file that is not there: UsageError naming the parameter, not the CLI's -f.
    const missing = join(folder, 'none.yaml');
    await expect(client.plan({ file: missing })).rejects.toThrow(`cannot read ${missing}: no such file; write the desired state there (ahs export > ${missing} starts one), or name another file with the file parameter`);
    const planned = await client.plan({ file });
    const cli = await h.ahs(['plan', '-f', file, '--json']);
    // The same document but for the step ids' counter and the predicted records' times.
    const comparable = (doc: unknown) => JSON.parse(JSON.stringify(doc).replace(/#\d+"/g, '#N"').replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"TIME"'));
    expect(comparable(planned)).toEqual(comparable(cli.json()));
    expect(planned.steps.map((s) => s.kind)).toEqual(['asset.create']);
    const apply = await client.apply({ file });
    const result = await apply.apply();
    expect(result).toMatchObject({ changed: 1, failed: [], steps: [{ action: 'create', outcome: 'done' }] });
    expect((await client.assets.get(id)).assetName).toBe('Desired');
    expect((await h.ahs(['plan', '-f', file, '--json'])).json().steps).toEqual([]);
  });

  it('desired state: checksum compares Live items by content as plan --checksum; apply({ checksum }) replaces a same-size edit, and verify then agrees', async () => {
    const id = uid('lib-ds-sum');
    const folder = join(h.dir, id);
    await mkdir(join(folder, 'items'), { recursive: true });
    await writeFile(join(folder, 'items', 'a.txt'), 'aaa');
    const file = join(folder, 'ahs.yaml');
    await writeFile(file, `apiVersion: ahs/v1\ncollections:\n  ${id}:\n    name: Sums\n    allowedTypes: ["9999"]\n    items: { dir: ./items, type: "9999" }\n    deployments: { dev: LIVE }\n`);
    expect(await (await client.apply({ file })).apply()).toMatchObject({ failed: [] });
    await writeFile(join(folder, 'items', 'a.txt'), 'AAA'); // same size: unseen by size
    expect((await client.plan({ file })).steps).toEqual([]);
    const bySum = await client.plan({ file, checksum: true });
    const cli = await h.ahs(['plan', '-f', file, '--checksum', '--json']);
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(bySum.steps.map((s) => s.kind)).toEqual(cli.json().steps.map((s: { kind: string }) => s.kind));
    expect(bySum.steps.map((s) => s.kind)).toContain('item.upload');
    expect(bySum.notes).toContain(`collection ${id}: items 1 compared by content, 0 by size`);
    const applied = await (await client.apply({ file, checksum: true })).apply();
    expect(applied.failed).toEqual([]);
    expect(applied.changed).toBeGreaterThan(0);
    expect(await client.verify({ collectionId: id, envId: 'dev', dir: join(folder, 'items') })).toMatchObject({ matched: ['a.txt'], differ: [] });
    expect((await client.plan({ file, checksum: true })).steps).toEqual([]);
  });

  it('desired state: a saved plan is applied as saved (with file too, a usage error); a refused request is a PartialFailureError with the exit code of its answer', async () => {
    const id = uid('lib-ds-saved');
    const folder = join(h.dir, id);
    await mkdir(folder);
    const file = join(folder, 'ahs.yaml');
    await writeFile(file, `apiVersion: ahs/v1\nassets:\n  ${id}:\n    name: Saved\n    type: "1001"\n`);
    const saved = join(folder, 'release.plan');
    expect((await h.ahs(['plan', '-f', file, '--out', saved])).exitCode).toBe(0);
    await expect(client.apply({ plan: saved, file })).rejects.toMatchObject({ kind: 'usage', message: expect.stringMatching(/^apply: a saved plan is applied as it was saved: leave out file/) });

    const proxy = await startFaultProxy(h.emu.baseUrl);
    const refused = createClient({ baseUrl: proxy.url, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER });
    try {
      proxy.inject({ kind: 'answer', status: 403, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, detail: 'no rights' }) }, { method: 'POST', path: '/va' });
      const error = await (await refused.apply({ file })).apply().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PartialFailureError);
      expect(error).toMatchObject({ exitCode: 3, kind: 'forbidden' });
      expect((error as PartialFailureError).toBody()).toMatchObject({ status: 403, title: 'Forbidden' });
      expect((await client.assets.list().toArray()).some((a) => a.assetId === id)).toBe(false);
    } finally {
      await refused.close();
      await proxy.close();
    }
    // Nothing moved since it was saved: the saved plan is sent as it is.
    expect(await (await client.apply({ plan: saved })).apply()).toMatchObject({ changed: 1, failed: [], steps: [{ resource: `asset.${id}`, action: 'create', outcome: 'done' }] });
    expect((await client.assets.get(id)).assetName).toBe('Saved');
  });
});

describe('settings', () => {
  it('explicit only: no base URL is a usage error naming the option, whatever the environment holds', () => {
    expect(() => createClient({ domainId: 'demo' })).toThrow(/^createClient: baseUrl is required/);
    try {
      createClient({ domainId: 'demo' });
    } catch (error) {
      expect(error).toMatchObject({ exitCode: 2, kind: 'usage', name: 'UsageError' });
    }
  });

  it('a profile only when asked for: { profile } or { fromEnvironment }, never the current one implicitly', async () => {
    const add = await h.ahs(['profile', 'add', 'lib', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--user', DEMO_USER, '--api-key-stdin'], { bare: true, input: `${DEMO_API_KEY}\n` });
    expect(add.exitCode, add.stderr).toBe(0);
    const saved = { AHS_CONFIG_DIR: process.env.AHS_CONFIG_DIR, AHS_API_KEY: process.env.AHS_API_KEY };
    process.env.AHS_CONFIG_DIR = h.configDir;
    delete process.env.AHS_API_KEY;
    try {
      // The current profile holds the key; an explicit client without one does not borrow it.
      const explicit = createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo' });
      await expect(collect(explicit.assets.list())).rejects.toMatchObject({ exitCode: 3, kind: 'forbidden' });
      const id = uid('lib-profile');
      await h.createAsset(id);
      expect((await createClient({ profile: 'lib' }).assets.get(id)).assetId).toBe(id);
      expect((await createClient({ fromEnvironment: true }).assets.get(id)).assetId).toBe(id);
      await expect(createClient({ profile: 'nope' }).assets.get(id)).rejects.toMatchObject({ kind: 'usage', message: expect.stringContaining('no profile named "nope"') });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('a setting a call needs and nobody gave is named as the library\'s option', async () => {
    const anonymous = createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY });
    const id = uid('lib-user');
    const error = await anonymous.assets.create({ assetId: id, name: 'x', type: '1001' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'usage', message: 'user is required: give it to createClient({ user }) or to this call' });
    await expect(anonymous.release({ assetId: id, platform: 'ios', envId: 'prod', name: '1' } as never)).rejects.toThrow('release: file is required');
  });

  it('a bad API key is a forbidden error (exit 3) and the key is in no message', async () => {
    const seen: string[] = [];
    const key = 'not-the-key-0123456789';
    const wrong = createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: key, user: DEMO_USER, onMessage: (line) => seen.push(line) });
    const error = await collect(wrong.assets.list()).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 3, kind: 'forbidden' });
    expect(JSON.stringify((error as AhsError).toBody()) + (error as Error).message + seen.join('\n')).not.toContain(key);
  });
});
