// Differential: each write runs with --dry-run, then for real, across the rows of
// the spec's deployment table (and the other writes). The prediction must equal
// the outcome: exit code, status, resulting state, error body; and the dry run
// must send no write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';

let h: Harness;
let spy: Awaited<ReturnType<typeof stubServer>>;
beforeAll(async () => {
  h = await harness();
  spy = await stubServer(() => false, h.emu.baseUrl);
});
afterAll(async () => {
  await spy?.close();
  await h?.close();
});

interface Outcome {
  exitCode: number;
  predicted: any;
  real: { exitCode: number; stdout: string; stderr: string };
}

/** Runs args with --dry-run (through a spy proxy: no write may pass) and then for real. */
async function differential(args: string[]): Promise<Outcome> {
  const before = spy.requests.length;
  const dry = await h.ahs([...args, '--dry-run', '--json'], { env: { AHS_BASE_URL: spy.url } });
  const sent = spy.requests.slice(before);
  expect(sent.filter((r) => r.method !== 'GET'), `dry run of ${args.join(' ')} sent a write`).toEqual([]);
  const doc = JSON.parse(dry.stdout);
  expect(doc.dryRun).toBe(true);
  const real = await h.ahs([...args, '--json', '--yes']);
  expect(real.exitCode, `${args.join(' ')}: dry-run exit ${dry.exitCode}, real exit ${real.exitCode}\n${real.stderr}`).toBe(dry.exitCode);
  if (doc.predicted.error) {
    const body = JSON.parse(real.stderr.trim().split('\n').pop()!);
    // The service's body; or, when ahs refused before sending because what it
    // read settles the answer, urn:ahs:predicted (status null: nothing was
    // sent) carrying that body under `predicted`, the message with how to get past it.
    const { title, detail, ...rest } = doc.predicted.error;
    if (body.type === 'urn:ahs:predicted') {
      expect(body.status).toBeNull();
      expect(body.predicted).toEqual(doc.predicted.error);
      expect(body.title).toContain(title);
    } else {
      expect(body).toMatchObject(rest);
      expect(body.title).toContain(title);
      expect(body.detail).toContain(detail);
    }
  } else {
    expect(real.exitCode).toBe(0);
  }
  return { exitCode: dry.exitCode, predicted: doc.predicted, real };
}

type Setup = 'none' | 'LIVE' | 'OFFLINE' | 'DEFAULT';

async function channelWith(state: Setup, withOtherDefault = false) {
  const id = uid('diff');
  await h.createAsset(id);
  const v = await h.uploadVersion(id, 'ios');
  const other = await h.uploadVersion(id, 'ios');
  if (withOtherDefault) {
    await h.deploy(id, other, 'ios', 'staging', 'LIVE');
    await h.deploy(id, other, 'ios', 'staging', 'DEFAULT');
  }
  if (state !== 'none') await h.deploy(id, v, 'ios', 'staging', 'LIVE');
  if (state === 'OFFLINE') await h.deploy(id, v, 'ios', 'staging', 'OFFLINE');
  if (state === 'DEFAULT') {
    const cur: Record<string, string> = withOtherDefault ? { currentVersionId: other, currentAssetIntent: 'LIVE' } : {};
    await h.deploy(id, v, 'ios', 'staging', 'DEFAULT', cur);
  }
  return { id, v, other };
}

async function stateOf(id: string, v: string): Promise<string | null> {
  const line = (await h.records(id)).find((r) => r.startsWith(`ios/staging/${v}=`));
  return line ? line.split('=')[1]! : null;
}

const CH = ['--platform', 'ios', '--env', 'staging'];

describe('dry-run == outcome: version deployment table', () => {
  const rows: Array<{ current: Setup; otherDefault?: boolean; command: 'deploy LIVE' | 'deploy OFFLINE' | 'promote'; status: number; exit: number }> = [
    { current: 'none', command: 'deploy LIVE', status: 201, exit: 0 },
    { current: 'none', command: 'deploy OFFLINE', status: 201, exit: 0 },
    { current: 'none', command: 'promote', status: 404, exit: 4 },
    { current: 'OFFLINE', command: 'deploy LIVE', status: 201, exit: 0 },
    { current: 'LIVE', command: 'deploy OFFLINE', status: 201, exit: 0 },
    { current: 'LIVE', command: 'deploy LIVE', status: 400, exit: 1 },
    { current: 'OFFLINE', command: 'deploy OFFLINE', status: 400, exit: 1 },
    { current: 'LIVE', command: 'promote', status: 201, exit: 0 },
    { current: 'LIVE', otherDefault: true, command: 'promote', status: 201, exit: 0 },
    { current: 'OFFLINE', command: 'promote', status: 400, exit: 1 },
    { current: 'OFFLINE', otherDefault: true, command: 'promote', status: 400, exit: 1 },
    { current: 'DEFAULT', command: 'deploy LIVE', status: 400, exit: 1 },
    { current: 'DEFAULT', command: 'deploy OFFLINE', status: 400, exit: 1 },
    { current: 'DEFAULT', otherDefault: true, command: 'promote', status: 400, exit: 1 },
  ];
  it.each(rows)('$current (other Default: $otherDefault) + $command -> $status', async (row) => {
    const { id, v, other } = await channelWith(row.current, row.otherDefault);
    const args =
      row.command === 'promote'
        ? ['promote-default', id, v, ...CH]
        : ['deploy', id, v, ...CH, '--state', row.command === 'deploy LIVE' ? 'LIVE' : 'OFFLINE'];
    const before = await h.records(id);
    const { exitCode, predicted } = await differential(args);
    expect(predicted.status).toBe(row.status);
    expect(exitCode).toBe(row.exit);
    if (predicted.error) {
      expect(await h.records(id)).toEqual(before);
    } else {
      expect(await stateOf(id, v)).toBe(predicted.state);
      const demote = predicted.effects.find((e: any) => e.kind === 'demote');
      if (row.otherDefault && row.command === 'promote') {
        expect(demote?.versionId).toBe(other);
        expect(await stateOf(id, other)).toBe('LIVE');
      } else expect(demote).toBeUndefined();
    }
  });

  it('promote --make-live from no record', async () => {
    const { id, v } = await channelWith('none', true);
    const { predicted } = await differential(['promote-default', id, v, ...CH, '--make-live']);
    expect(predicted.status).toBe(201);
    expect(await stateOf(id, v)).toBe('DEFAULT');
  });
});

describe('dry-run == outcome: a version missing or of another platform', () => {
  it.each([
    ['deploy', 'another platform'],
    ['deploy', 'missing'],
    ['promote', 'another platform'],
    ['promote --make-live', 'missing'],
  ])('%s, version %s: the same 404 body', async (command, which) => {
    const { id, v } = await channelWith('LIVE');
    const version = which === 'missing' ? 'IOS99' : v;
    const platform = which === 'missing' ? 'ios' : 'android';
    const ch = ['--platform', platform, '--env', 'staging'];
    const args = command === 'deploy' ? ['deploy', id, version, ...ch] : ['promote-default', id, version, ...ch, ...(command.includes('make-live') ? ['--make-live'] : [])];
    const { exitCode, predicted } = await differential(args);
    expect(exitCode).toBe(4);
    expect(predicted.error.title).toBe(`Version ${version} not found for platform ${platform} under Virtual Asset ${id}${which === 'missing' ? '' : ' (it is an ios version)'}`);
  });
});

describe('dry-run of promote-default --make-live shows both writes', () => {
  it('json: the LIVE deploy sent first is in `before`, with its own prediction; table: a `first:` line', async () => {
    const { id, v } = await channelWith('OFFLINE', true);
    const r = await h.ahs(['promote-default', id, v, ...CH, '--make-live', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc.request.body).toMatchObject({ intent: 'DEFAULT', currentAssetIntent: 'LIVE' });
    expect(doc.before).toEqual([
      {
        request: { method: 'POST', path: `/api/v2/demo/va/${id}/versions/${v}/deploy`, query: { targetPlatformId: 'ios' }, body: expect.objectContaining({ envId: 'staging', intent: 'LIVE' }) },
        current: 'OFFLINE',
        predicted: { status: 201, state: 'LIVE', effects: [], error: null },
      },
    ]);
    const table = await h.ahs(['promote-default', id, v, ...CH, '--make-live', '--dry-run']);
    expect(table.stdout).toMatch(/first:\s+POST \/api\/v2\/demo\/va\/.*\/deploy\?targetPlatformId=ios .*"intent":"LIVE".* → 201 LIVE/);
    // Without --make-live nothing is sent first.
    expect((await h.ahs(['promote-default', id, v, ...CH, '--dry-run', '--json'])).stdout).not.toContain('"before"');
  });
});

describe('dry-run == outcome: other writes', () => {
  it('asset undeploy', async () => {
    const { id } = await channelWith('LIVE', true);
    const { predicted } = await differential(['asset', 'undeploy', id, ...CH]);
    expect(predicted.state).toEqual({ totalUndeployedVersions: 2 });
    expect(await h.records(id)).toEqual([]);
  });

  it('version delete: refused while LIVE, allowed when OFFLINE', async () => {
    const live = await channelWith('LIVE');
    expect((await differential(['version', 'delete', live.id, live.v])).exitCode).toBe(1);
    const off = await channelWith('OFFLINE');
    expect((await differential(['version', 'delete', off.id, off.v])).exitCode).toBe(0);
    expect((await h.call('GET', `/va/${off.id}/versions/${off.v}`)).status).toBe(404);
  });

  it('asset delete: refused with versions, allowed without', async () => {
    const withVersions = await channelWith('none');
    expect((await differential(['asset', 'delete', withVersions.id])).exitCode).toBe(1);
    const empty = uid('diff');
    await h.createAsset(empty);
    expect((await differential(['asset', 'delete', empty])).exitCode).toBe(0);
  });

  it('asset create: new (201), existing (409, exit 5)', async () => {
    const id = uid('diff');
    const created = await differential(['asset', 'create', id, '--name', 'n', '--type', '1001']);
    expect(created.predicted.state).toMatchObject({ assetId: id, assetName: 'n', secured: true });
    expect(JSON.parse(created.real.stdout)).toMatchObject({ assetId: id, assetName: 'n' });
    const again = await h.ahs(['asset', 'create', id, '--name', 'n', '--type', '1001', '--dry-run', '--json']);
    expect(again.exitCode).toBe(5);
  });

  it('asset update and version upload predict the body the service returns', async () => {
    const { id } = await channelWith('none');
    const upd = await differential(['asset', 'update', id, '--name', 'renamed', '--local-cache-max-age', '99']);
    const real = JSON.parse(upd.real.stdout);
    for (const key of ['assetName', 'assetType', 'localCacheMaxAge', 'active', 'secured']) expect(upd.predicted.state[key]).toEqual(real[key]);
    const file = await h.file('d.zip', 'dry');
    const up = await differential(['version', 'upload', id, file, '--platform', 'ios', '--name', 'next']);
    const version = JSON.parse(up.real.stdout);
    for (const key of ['versionId', 'version', 'versionName', 'targetPlatform', 'fileName', 'size', 'assetType']) expect(up.predicted.state[key]).toEqual(version[key]);
  });

  it('validation runs before anything in a dry run too (exit 2, no request)', async () => {
    const before = spy.requests.length;
    const r = await h.ahs(['asset', 'create', uid('diff'), '--name', 'n', '--type', '1001', '--local-cache-max-age', '999999', '--dry-run'], { env: { AHS_BASE_URL: spy.url } });
    expect(r.exitCode).toBe(2);
    expect(spy.requests.length).toBe(before);
  });

  it('prints a readable block in table mode', async () => {
    const { id, v } = await channelWith('LIVE', true);
    const r = await h.ahs(['promote-default', id, v, ...CH, '--dry-run']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Dry run: nothing was sent.');
    expect(r.stdout).toMatch(/request:\s+POST \/api\/v2\/demo\/va\/.*\/deploy\?targetPlatformId=ios/);
    expect(r.stdout).toMatch(/effect:\s+previous Default .* becomes LIVE/);
  });
});

describe('dry-run == outcome: collection writes', () => {
  /** A collection with one item, LIVE in staging when asked. */
  async function collectionWith(live: boolean): Promise<string> {
    const id = uid('coll');
    expect((await h.ahs(['collection', 'create', id, '--name', id, '--allowed-types', '1001'])).exitCode).toBe(0);
    expect((await h.ahs(['item', 'upload', id, await h.file(`${id}.zip`, id), '--type', '1001'])).exitCode).toBe(0);
    if (live) expect((await h.ahs(['collection-deploy', id, '--env', 'staging'])).exitCode).toBe(0);
    return id;
  }

  it.each([
    ['collection-deploy', '--env', 'staging'],
    ['collection-deploy', '--reconcile'],
    ['collection', 'undeploy', '--env', 'staging'],
    ['collection', 'delete'],
    ['collection', 'update', '--name', 'x'],
    ['item', 'remove', 'item-none'],
  ])('a missing collection: exit 4 predicted and real (%s %s)', async (...args) => {
    const missing = uid('none');
    const [first, ...rest] = args;
    const argv = first === 'collection-deploy' ? [first, missing, ...rest] : [first!, rest[0]!, missing, ...rest.slice(1)];
    expect((await differential(argv)).exitCode).toBe(4);
  });

  it('collection-deploy: LIVE (201), LIVE again (400, exit 1), OFFLINE (201)', async () => {
    const id = await collectionWith(false);
    expect((await differential(['collection-deploy', id, '--env', 'staging'])).predicted).toMatchObject({ status: 201, state: 'LIVE' });
    expect((await differential(['collection-deploy', id, '--env', 'staging'])).exitCode).toBe(1);
    expect((await differential(['collection-deploy', id, '--env', 'staging', '--state', 'OFFLINE'])).predicted).toMatchObject({ status: 201, state: 'OFFLINE' });
  });

  it('collection delete refused while LIVE; undeploy; delete; restore; purge refused unless deleted', async () => {
    const id = await collectionWith(true);
    expect((await differential(['collection', 'delete', id])).exitCode).toBe(1);
    expect((await differential(['collection', 'undeploy', id, '--env', 'staging'])).exitCode).toBe(0);
    expect((await differential(['collection', 'purge', id])).exitCode).toBe(1);
    expect((await differential(['collection', 'delete', id])).exitCode).toBe(0);
    expect((await differential(['collection', 'restore', id])).exitCode).toBe(0);
    expect((await differential(['collection', 'delete', id])).exitCode).toBe(0);
    expect((await differential(['collection', 'purge', id])).predicted.effects.map((e: { kind: string }) => e.kind)).toContain('removeItems');
    expect((await h.call('GET', `/vc/${id}`)).status).toBe(400);
  });
});
