// The library's downloads and reads of state (issue 35): client.fetch,
// client.versions.download, client.export and client.assets.status, built
// on the same operations as `ahs fetch`, `ahs version download`, `ahs
// export` and `ahs asset status` (src/operations/), against the emulator
// over real HTTP. What a call resolves to is what the command prints with
// --json; files land whole or not at all, also when the call's own signal
// cuts a download (behind the fault proxy, which holds a file's body).
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, syncedLiveCollection, uid, DEMO_API_KEY, DEMO_USER, type Harness } from './helpers.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { createHash } from 'node:crypto';
import { CancelledError, NotFoundError, PartialFailureError, UsageError, createClient, type Client, type ClientEvent, type FetchResult } from '../../src/library/index.js';

const FILES = { 'a.txt': 'alpha', 'b.txt': 'bravo bravo', 'big.bin': 'x'.repeat(400_000) };

let h: Harness;
let proxy: FaultProxy;
let client: Client;
const events: ClientEvent[] = [];
let collectionId: string;
let assetId: string;
let versionId: string;
let scratch: string;

beforeAll(async () => {
  h = await harness();
  proxy = await startFaultProxy(h.emu.baseUrl);
  client = createClient({ baseUrl: h.emu.baseUrl, deliveryUrl: h.emu.deliveryUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, onEvent: (e) => events.push(e) });
  ({ id: collectionId } = await syncedLiveCollection(h, FILES, 'lib-fetch'));
  assetId = uid('lib-status');
  await h.createAsset(assetId);
  versionId = await h.uploadVersion(assetId, 'ios', '1.0.0');
  const other = await h.uploadVersion(assetId, 'android', '1.0.0');
  for (const [id, platform, env, intent] of [
    [versionId, 'ios', 'dev', 'LIVE'],
    [versionId, 'ios', 'prod', 'LIVE'],
    [versionId, 'ios', 'prod', 'DEFAULT'],
    [other, 'android', 'dev', 'OFFLINE'],
  ] as const) {
    const r = await h.deploy(assetId, id, platform, env, intent);
    if (r.status >= 300) throw new Error(`deploy ${id} ${env}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  scratch = await mkdtemp(join(h.dir, 'lib-fetch-'));
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await h?.close();
});

const bytesOf = (label: string) => events.filter((e): e is Extract<ClientEvent, { type: 'bytes' }> => e.type === 'bytes' && e.label === label);

/** The proxy holds the body of the download at `url` after its first 64 KiB. */
const stall = (url: string) => proxy.inject({ kind: 'stall', phase: 'body', after: 65_536 }, { method: 'GET', path: new URL(url, h.emu.deliveryUrl).pathname });

/** big.bin's download URL in dev, as `ahs fetch --manifest` gives it. */
async function bigUrl(): Promise<string> {
  const manifest = await h.ahs(['fetch', collectionId, '--env', 'dev', '--manifest', '--json']);
  return manifest.json().assetItemUrls.find((e: { assetItemName: string }) => e.assetItemName === 'big.bin').downloadUrl;
}

/** A client through the proxy whose call signal `controller` aborts (with `reason`) once bytes of a download arrive; its events in `seen`. */
function cuttingClient(controller: AbortController, reason?: Error, seen: ClientEvent[] = []): Client {
  return createClient({
    baseUrl: proxy.url,
    deliveryUrl: proxy.url,
    domainId: 'demo',
    apiKey: DEMO_API_KEY,
    user: DEMO_USER,
    onEvent: (event) => {
      seen.push(event);
      if (event.type === 'bytes' && event.done > 0 && !controller.signal.aborted) controller.abort(reason);
    },
  });
}

describe('client.fetch', () => {
  it('downloads every item into the folder: the bytes uploaded, and the document ahs fetch --json prints', async () => {
    const dir = join(scratch, 'all');
    events.length = 0;
    const result = await client.fetch({ collectionId, envId: 'dev', dir });
    expect((await readdir(dir)).sort()).toEqual(Object.keys(FILES).sort());
    for (const [name, content] of Object.entries(FILES)) expect(await readFile(join(dir, name), 'utf8')).toBe(content);

    const cliDir = join(scratch, 'all-cli');
    const cli = await h.ahs(['fetch', collectionId, '--env', 'dev', '--dir', cliDir, '--json']);
    expect(cli.exitCode).toBe(0);
    const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
    const printed = cli.json();
    expect({ ...result, downloaded: byName(result.downloaded) }).toEqual({
      ...printed,
      dir,
      downloaded: byName(printed.downloaded).map((f: { name: string }) => ({ ...f, path: join(dir, f.name) })),
    });
    expect(result.downloaded.map((f) => f.bytes).sort((a, b) => a - b)).toEqual(Object.values(FILES).map((c) => c.length).sort((a, b) => a - b));
  });

  it('a file that fails (its sum does not match) rejects with a PartialFailureError whose result says what came and what failed', async () => {
    const dir = join(scratch, 'partly');
    const sums = join(scratch, 'partly.sha256');
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    await writeFile(sums, `${sha(FILES['a.txt'])}  a.txt\n${sha('not bravo')}  b.txt\n`);
    const error = await client.fetch({ collectionId, envId: 'dev', dir, pattern: ['a.txt', 'b.txt'], verify: sums }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialFailureError);
    expect(error).toMatchObject({ exitCode: 1 });
    const result = (error as PartialFailureError).result as FetchResult;
    expect(result.downloaded.map((f) => f.name)).toEqual(['a.txt']);
    expect(result.failed.map((f) => f.name)).toEqual(['b.txt']);
    expect(await readdir(dir)).toEqual(['a.txt']);
  });

  it('tells each file\'s bytes as typed events, labelled by its name, up to its size, and its end', async () => {
    events.length = 0;
    await client.fetch({ collectionId, envId: 'dev', dir: join(scratch, 'events') });
    for (const [name, content] of Object.entries(FILES)) {
      const bytes = bytesOf(name);
      expect(bytes.length, name).toBeGreaterThan(0);
      expect(bytes.at(-1)).toEqual({ type: 'bytes', label: name, done: content.length, total: content.length });
      expect(bytes.every((e, i) => i === 0 || e.done >= bytes[i - 1]!.done)).toBe(true);
      expect(events).toContainEqual({ type: 'transfer-end', label: name, ok: true });
    }
  });

  it('narrows by item and pattern; a run with skipExisting keeps what is there', async () => {
    const dir = join(scratch, 'narrow');
    const items = await client.items.list(collectionId).toArray();
    const b = items.find((i) => i.assetItemName.startsWith('b'))!;
    const only = await client.fetch({ collectionId, envId: 'dev', dir, item: [b.assetItemId] });
    expect(only.downloaded.map((f) => f.id)).toEqual([b.assetItemId]);
    await writeFile(join(dir, 'b.txt'), 'mine');
    const kept = await client.fetch({ collectionId, envId: 'dev', dir, pattern: ['*.txt'], skipExisting: true });
    expect(kept.downloaded.map((f) => f.name)).toEqual(['a.txt']);
    expect(kept.skipped.map((f) => f.name)).toEqual(['b.txt']);
    // The reason names the call's parameter, as a kept symbolic link's does; the CLI's names its flag.
    expect(kept.skipped[0]!.reason).toBe('a file of that name is already there (skipExisting)');
    expect(await readFile(join(dir, 'b.txt'), 'utf8')).toBe('mine');
    expect((await readdir(dir)).sort()).toEqual(['a.txt', 'b.txt']);
    const cli = await h.ahs(['fetch', collectionId, '--env', 'dev', '--dir', dir, '--pattern', 'b.txt', '--skip-existing', '--json']);
    expect(cli.json().skipped[0].reason).toBe('a file of that name is already there (--skip-existing)');
  });

  it('takes a deployed collection URL, as ahs fetch --url does', async () => {
    const { body } = await h.call<{ downloadUrl: string }>('GET', `/vc/${collectionId}/deployments/dev`);
    const dir = join(scratch, 'by-url');
    const result = await client.fetch({ url: new URL(body.downloadUrl, h.emu.deliveryUrl).toString(), dir });
    expect(result).toMatchObject({ collectionId, envId: 'dev', dir });
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('alpha');
    // A relative URL needs the client's deliveryUrl, and says so in the library's words.
    const bare = createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY });
    const path = new URL(body.downloadUrl, h.emu.deliveryUrl).pathname;
    const relative = bare.fetch({ url: path, dir: join(scratch, 'relative') });
    await expect(relative).rejects.toBeInstanceOf(UsageError);
    await expect(relative).rejects.toThrow(`url ${JSON.stringify(path)} is relative: set the delivery URL it is relative to with the client's deliveryUrl`);
  });

  it('refuses bad parameters before any request, naming them; an item not in the collection is a NotFoundError', async () => {
    const refused = async (params: unknown) => (await client.fetch(params as never).catch((e: unknown) => e)) as Error;
    expect(await refused({ collectionId, envId: 'dev', url: 'http://x.test/doc' })).toBeInstanceOf(UsageError);
    expect((await refused({ dir: scratch })).message).toBe('fetch: give either collectionId (with envId) or url');
    expect((await refused({ collectionId })).message).toBe('fetch: envId is required');
    expect((await refused({ collectionId, envId: 'dev', concurrency: 0 })).message).toMatch(/^fetch: concurrency must be a whole number above 0/);
    expect((await refused({ collectionId, envId: 'dev', item: 'a' })).message).toBe('fetch: item must be a non-empty list of strings');
    const missing = await refused({ collectionId, envId: 'dev', dir: join(scratch, 'none'), item: ['nope'] });
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe(`item nope not in the deployed collection ${collectionId} (dev)`);
    await expect(readdir(join(scratch, 'none'))).rejects.toThrow(/ENOENT/);
  });

  it('the call\'s signal cuts a download: CancelledError with the reason as cause, no partial file, the older copy whole; the client goes on', async () => {
    const dir = join(scratch, 'cut');
    await mkdir(dir);
    await writeFile(join(dir, 'big.bin'), 'the older copy');
    // Through the proxy: the file's headers and its first 64 KiB, then nothing.
    stall(await bigUrl());
    const controller = new AbortController();
    const reason = new Error('the job was cancelled');
    const seen: ClientEvent[] = [];
    const cutting = cuttingClient(controller, reason, seen);
    try {
      const error = await cutting.fetch({ collectionId, envId: 'dev', dir, pattern: ['big.bin'] }, { signal: controller.signal }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CancelledError);
      expect((error as CancelledError).cause).toBe(reason);
      expect((error as CancelledError).message).toBe('interrupted; partial downloads removed');
      expect(seen).toContainEqual({ type: 'transfer-end', label: 'big.bin', ok: false });
      expect(await readdir(dir)).toEqual(['big.bin']);
      expect(await readFile(join(dir, 'big.bin'), 'utf8')).toBe('the older copy');
      // Only that call was aborted: the same client fetches again.
      const again = await cutting.fetch({ collectionId, envId: 'dev', dir, pattern: ['big.bin'] });
      expect(again.downloaded.map((f) => f.name)).toEqual(['big.bin']);
      expect(await readFile(join(dir, 'big.bin'), 'utf8')).toBe(FILES['big.bin']);
    } finally {
      await cutting.close();
    }
  });

  it('cut into a folder it made: the folder goes too', async () => {
    const dir = join(scratch, 'made', 'here');
    stall(await bigUrl());
    const controller = new AbortController();
    const cutting = cuttingClient(controller);
    try {
      await expect(cutting.fetch({ collectionId, envId: 'dev', dir, pattern: ['big.bin'] }, { signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
      await expect(readdir(join(scratch, 'made'))).rejects.toThrow(/ENOENT/);
    } finally {
      await cutting.close();
    }
  });
});

describe('client.versions.download', () => {
  it('writes the version\'s file at out, as ahs version download --json says, its bytes as events', async () => {
    const out = join(scratch, 'version', 'app.zip');
    await mkdir(join(scratch, 'version'));
    events.length = 0;
    const result = await client.versions.download({ assetId, versionId, envId: 'prod', out });
    expect(await readFile(out, 'utf8')).toBe('payload');
    const cliOut = join(scratch, 'version', 'cli.zip');
    const cli = await h.ahs(['version', 'download', assetId, versionId, '--env', 'prod', '-O', cliOut, '--json']);
    expect(cli.exitCode).toBe(0);
    expect(result).toEqual({ ...cli.json(), path: out });
    expect(result).toMatchObject({ envId: 'prod', targetPlatform: 'ios', bytes: 7 });
    expect(events).toContainEqual({ type: 'bytes', label: 'downloading app.zip', done: 7, total: 7 });
    expect(events).toContainEqual({ type: 'transfer-end', label: 'downloading app.zip', ok: true });
  });

  it('a version deployed nowhere in that environment: NotFoundError naming the deploy that would give it a URL', async () => {
    const error = await client.versions.download({ assetId, versionId, envId: 'staging', out: join(scratch, 'nowhere.zip') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(new RegExp(`has no download URL in staging .*ahs deploy ${assetId} ${versionId} --platform ios --env staging`));
    await expect(client.versions.download({ assetId } as never)).rejects.toThrow('versions.download: versionId is required');
  });
  it('the call\'s signal cuts the download: CancelledError with the reason as cause, nothing at out, no partial file', async () => {
    const bigAsset = uid('lib-dl');
    await h.createAsset(bigAsset);
    const big = await h.file('big.zip', Buffer.alloc(400_000, 5));
    const upload = await client.versions.upload({ assetId: bigAsset, file: big, platform: 'ios', name: '2.0.0' });
    const { versionId: bigId } = await upload.apply();
    await (await client.deploy({ assetId: bigAsset, versionId: bigId, platform: 'ios', envId: 'dev' })).apply();
    const [record] = await client.versions.urls(bigAsset, bigId, 'dev').toArray();
    stall(record!.downloadUrl!);
    const dir = join(scratch, 'version-cut');
    await mkdir(dir);
    const controller = new AbortController();
    const reason = new Error('superseded');
    const cutting = cuttingClient(controller, reason);
    try {
      const error = await cutting.versions.download({ assetId: bigAsset, versionId: bigId, envId: 'dev', out: join(dir, 'app.zip') }, { signal: controller.signal }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CancelledError);
      expect((error as CancelledError).cause).toBe(reason);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await cutting.close();
    }
  });
});

describe('client.export', () => {
  it('is the document ahs export --json prints, for an asset and a collection', async () => {
    const exported = await client.export({ asset: [assetId], collection: [collectionId] });
    const cli = await h.ahs(['export', '--asset', assetId, '--collection', collectionId, '--json']);
    expect(cli.exitCode).toBe(0);
    expect(exported).toEqual(cli.json());
    expect(exported.assets?.[assetId]?.channels?.ios?.prod).toEqual({ default: '1.0.0', exclusive: true });
    expect(exported.collections?.[collectionId]?.items).toEqual({ names: Object.keys(FILES).sort() });
  });

  it('narrows the channels by platform and environment as --platform and --env do', async () => {
    const exported = await client.export({ asset: [assetId], platform: ['ios'], envId: ['dev'] });
    const cli = await h.ahs(['export', '--asset', assetId, '--platform', 'ios', '--env', 'dev', '--json']);
    expect(exported).toEqual(cli.json());
    expect(Object.keys(exported.assets?.[assetId]?.channels ?? {})).toEqual(['ios']);
  });

  it('an asset that does not exist is a NotFoundError; a filter that is not a list is refused', async () => {
    await expect(client.export({ asset: [uid('missing')] })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.export({ asset: assetId } as never)).rejects.toThrow('export: asset must be a non-empty list of strings');
  });
});

describe('client.assets.status', () => {
  it('is the envelope ahs asset status --json prints, OFFLINE records included', async () => {
    const status = await client.assets.status(assetId);
    const cli = await h.ahs(['asset', 'status', assetId, '--json']);
    expect(cli.exitCode).toBe(0);
    expect(status).toEqual(cli.json());
    expect(status.results.map((r) => `${r.targetPlatform}/${r.envId}=${r.state}`).sort()).toEqual(['android/dev=OFFLINE', 'ios/dev=LIVE', 'ios/prod=DEFAULT']);
  });

  it('filters as --platform, --env and --state do', async () => {
    const status = await client.assets.status(assetId, { platform: 'ios', envId: 'dev' });
    const cli = await h.ahs(['asset', 'status', assetId, '--platform', 'ios', '--env', 'dev', '--json']);
    expect(status).toEqual(cli.json());
    expect(status.totalResults).toBe(1);
    const offline = await client.assets.status(assetId, { state: 'OFFLINE' });
    expect(offline).toEqual((await h.ahs(['asset', 'status', assetId, '--state', 'OFFLINE', '--json'])).json());
    expect(offline.results.map((r) => `${r.targetPlatform}/${r.envId}`)).toEqual(['android/dev']);
  });

  it('a filter that differs only by case is refused naming the parameter, not answered empty', async () => {
    const error = await client.assets.status(assetId, { envId: 'DEV' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`envId DEV matches nothing in the environments of asset ${assetId}'s records; did you mean envId dev? (ids are case-sensitive)`);
  });

  it('an asset that does not exist is a NotFoundError', async () => {
    await expect(client.assets.status(uid('missing'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a state in any case is taken as --state takes it (live is LIVE), another refused as --state refuses it, not answered empty; records() alike', async () => {
    expect(await client.assets.status(assetId, { state: 'live' as never })).toEqual((await h.ahs(['asset', 'status', assetId, '--state', 'live', '--json'])).json());
    expect((await client.assets.status(assetId, { state: 'live' as never })).totalResults).toBe(1);
    const error = await client.assets.status(assetId, { state: 'NOPE' as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('assets.status: state must be one of LIVE, OFFLINE, DEFAULT (got NOPE)');
    expect((await h.ahs(['asset', 'status', assetId, '--state', 'NOPE'])).exitCode).toBe(2);
    expect((await client.records(assetId, { state: 'default' as never }).toArray()).map((r) => r.state)).toEqual(['DEFAULT']);
    await expect(client.records(assetId, { state: 'gone' as never }).toArray()).rejects.toThrow('records: state must be one of LIVE, OFFLINE, DEFAULT (got gone)');
  });
});
