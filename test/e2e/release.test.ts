// ahs release: upload, deploy LIVE, promote, each stage skipped when done;
// a re-run of a finished release sends no write (cli.md, "Release workflows").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';
import { SPARE_CONTROL, startFaultProxy } from '../support/fault-proxy.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const CH = ['--platform', 'ios', '--env', 'prod'];

async function asset() {
  const id = uid('rel');
  await h.createAsset(id);
  return id;
}

/** Runs ahs through a request-counting proxy: the writes it sent. */
async function counting(args: string[]) {
  const spy = await stubServer(() => false, h.emu.baseUrl);
  try {
    const run = await h.ahs(args, { env: { AHS_BASE_URL: spy.url } });
    return { run, writes: spy.requests.filter((r) => r.method !== 'GET') };
  } finally {
    await spy.close();
  }
}

describe('ahs release', () => {
  it('uploads, deploys LIVE and promotes, printing each stage; a re-run sends no write and exits 0', async () => {
    const id = await asset();
    const file = await h.file('app-1.zip', 'release one');
    const first = await h.ahs(['release', id, file, ...CH, '--name', '1.0', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.json()).toMatchObject({
      version: { versionId: 'IOS1', versionName: '1.0', fileName: 'app-1.zip' },
      assetVersion: { versionId: 'IOS1', state: 'DEFAULT' },
      previousDefault: null,
      stages: [
        { stage: 'upload', changed: true },
        { stage: 'deploy', changed: true },
        { stage: 'promote', changed: true },
      ],
    });
    const table = await h.ahs(['release', id, await h.file('app-2.zip', 'release two'), ...CH, '--name', '1.1']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stderr).toMatch(/upload: app-2\.zip is IOS2[\s\S]*deploy: IOS2 is LIVE[\s\S]*promote: IOS2 is the Default of .*\(IOS1 is now LIVE\)/);
    expect(await h.records(id)).toEqual(['ios/prod/IOS1=LIVE', 'ios/prod/IOS2=DEFAULT']);

    const again = await counting(['release', id, await h.file('app-2.zip', 'release two'), ...CH, '--name', '1.1', '--json']);
    expect(again.run.exitCode, again.run.stderr).toBe(0);
    expect(again.writes).toEqual([]);
    expect(again.run.json()).toMatchObject({
      version: { versionId: 'IOS2' },
      assetVersion: { versionId: 'IOS2', state: 'DEFAULT' },
      stages: [
        { stage: 'upload', changed: false },
        { stage: 'deploy', changed: false },
        { stage: 'promote', changed: false },
      ],
    });
    expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(2);
  });

  it('interrupted after the upload, a re-run resumes with the same version: one version in the end', async () => {
    const id = await asset();
    const file = await h.file('resume.zip', 'resumable');
    const proxy = await startFaultProxy(h.emu.baseUrl, { spare: SPARE_CONTROL });
    try {
      proxy.inject({ kind: 'reset-before' }, { method: 'POST', path: /\/deploy$/, times: 10 });
      const broken = await h.ahs(['release', id, file, ...CH, '--name', '2.0', '--retries', '0', '--timeout', '1'], { env: { AHS_BASE_URL: proxy.url } });
      expect(broken.exitCode).toBe(6);
      expect(broken.stderr).toContain('upload: resume.zip is IOS1');
    } finally {
      await proxy.close();
    }
    const resumed = await h.ahs(['release', id, file, ...CH, '--name', '2.0', '--json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.json().stages).toEqual([
      // Uploaded but never deployed: it cannot be downloaded, so its name and size matched it.
      { stage: 'upload', changed: false, matched: 'name and size' },
      { stage: 'deploy', changed: true },
      { stage: 'promote', changed: true },
    ]);
    expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(1);
    expect(await h.records(id)).toEqual(['ios/prod/IOS1=DEFAULT']);
  });

  it('the same name with another file is a conflict: exit 5, nothing written', async () => {
    const id = await asset();
    expect((await h.ahs(['release', id, await h.file('a.zip', 'aaa'), ...CH, '--name', '3.0'])).exitCode).toBe(0);
    const other = await counting(['release', id, await h.file('b.zip', 'bbb'), ...CH, '--name', '3.0']);
    expect(other.run.exitCode).toBe(5);
    expect(other.run.stderr).toContain('already named 3.0, with a.zip');
    expect(other.writes).toEqual([]);
    const bigger = await counting(['release', id, await h.file('a.zip', 'a much longer file this time'), ...CH, '--name', '3.0']);
    expect(bigger.run.exitCode).toBe(5);
    expect(bigger.writes).toEqual([]);
  });

  it('--state LIVE stops before the promotion; --expect-current that does not hold writes nothing, not even the upload', async () => {
    const id = await asset();
    const live = await h.ahs(['release', id, await h.file('l.zip', 'live'), ...CH, '--name', '4.0', '--state', 'LIVE', '--json']);
    expect(live.exitCode, live.stderr).toBe(0);
    expect(live.json().stages.map((s: { stage: string }) => s.stage)).toEqual(['upload', 'deploy']);
    expect(await h.records(id)).toEqual(['ios/prod/IOS1=LIVE']);
    const cas = await counting(['release', id, await h.file('m.zip', 'more'), ...CH, '--name', '4.1', '--expect-current', 'IOS9']);
    expect(cas.run.exitCode).toBe(5);
    expect(cas.run.stderr).toContain('the compare-and-set did not hold: the Default of');
    expect(cas.writes).toEqual([]);
  });

  it('--dry-run shows every step (upload, deploy, promote) and sends nothing', async () => {
    const id = await asset();
    const dry = await counting(['release', id, await h.file('d.zip', 'dry'), ...CH, '--name', '5.0', '--dry-run', '--json']);
    expect(dry.run.exitCode, dry.run.stderr).toBe(0);
    expect(dry.writes).toEqual([]);
    const doc = dry.run.json();
    expect(doc.before.map((s: { request: { path: string } }) => s.request.path)).toEqual([`/api/v2/demo/va/${id}/versions`, `/api/v2/demo/va/${id}/versions/IOS1/deploy`]);
    expect(doc).toMatchObject({ dryRun: true, request: { body: { intent: 'DEFAULT' } }, predicted: { status: 201, state: 'DEFAULT' } });
  });
});

describe('ahs release of an old version', () => {
  it('a re-run of a release the channel has moved past does not take the Default back: exit 5, nothing written', async () => {
    const id = uid('rel');
    await h.createAsset(id);
    const old = await h.file('old.zip', 'old build');
    expect((await h.ahs(['release', id, old, ...CH, '--name', '1.0'])).exitCode).toBe(0);
    expect((await h.ahs(['release', id, await h.file('new.zip', 'new build'), ...CH, '--name', '2.0'])).exitCode).toBe(0);
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const rerun = await h.ahs(['release', id, old, ...CH, '--name', '1.0'], { env: { AHS_BASE_URL: spy.url } });
      expect(rerun.exitCode).toBe(5);
      expect(rerun.stderr).toContain('IOS1 (1.0) was released before, and the Default of');
      expect(rerun.stderr).toContain('ahs rollback --to IOS1');
      expect(spy.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await spy.close();
    }
    expect(await h.records(id)).toEqual(['ios/prod/IOS1=LIVE', 'ios/prod/IOS2=DEFAULT']);
    // Said on purpose, with the compare-and-set: promoted back.
    const forced = await h.ahs(['release', id, old, ...CH, '--name', '1.0', '--expect-current', 'IOS2']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(await h.records(id)).toEqual(['ios/prod/IOS1=DEFAULT', 'ios/prod/IOS2=LIVE']);
  });
});

describe('two releases of one new file to one channel at once (two CI jobs)', () => {
  it('end with one version, the Default, and neither run fails on the other\'s change', async () => {
    const channels = await Promise.all([1, 2, 3, 4].map(async () => ({ id: await asset(), file: await h.file(`${uid('twin')}.zip`, 'the same build') })));
    const runs = await Promise.all(channels.flatMap(({ id, file }) => [1, 2].map(() => h.ahs(['release', id, file, ...CH, '--name', '3.0', '--json']))));
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    for (const { id } of channels) {
      const versions = (await h.call('GET', `/va/${id}/versions`)).body.results.filter((v: { versionName: string }) => v.versionName === '3.0');
      expect(versions, id).toHaveLength(1);
      expect(await h.records(id)).toEqual([`ios/prod/${versions[0].versionId}=DEFAULT`]);
    }
    // Both runs of a channel report the same version.
    for (let i = 0; i < channels.length; i++) expect(runs[2 * i]!.json().version.versionId).toBe(runs[2 * i + 1]!.json().version.versionId);
  });
});
