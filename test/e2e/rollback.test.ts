// ahs rollback: the previous Default again, by the rule of cli.md or --to,
// as a compare-and-set on the Default read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const CH = ['--platform', 'ios', '--env', 'prod'];

/** IOS1 LIVE, IOS2 LIVE, IOS3 DEFAULT (and IOS4 OFFLINE) on ios/prod. */
async function released() {
  const id = uid('rb');
  await h.createAsset(id);
  const [v1, v2, v3, v4] = [await h.uploadVersion(id, 'ios', '1.0'), await h.uploadVersion(id, 'ios', '1.1'), await h.uploadVersion(id, 'ios', '1.2'), await h.uploadVersion(id, 'ios', '1.3')];
  for (const v of [v1, v2, v3, v4]) await h.deploy(id, v, 'ios', 'prod', 'LIVE');
  await h.deploy(id, v3, 'ios', 'prod', 'DEFAULT');
  await h.deploy(id, v4, 'ios', 'prod', 'OFFLINE');
  return { id, v1, v2, v3, v4 };
}

describe('ahs rollback', () => {
  it('without --to and no proof in the records: exit 2 listing the LIVE versions, never a guess from numbers', async () => {
    // IOS2 is a canary left LIVE that was never the Default: the highest LIVE number below IOS3 proves nothing.
    const { id, v1, v2, v3, v4 } = await released();
    const r = await h.ahs(['rollback', id, ...CH]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: which version was the Default of ${id}/ios/prod before ${v3} cannot be read .*name it with --to VERSION_ID; LIVE there: ${v2} \\(1\\.1, created [^)]+\\), ${v1} \\(1\\.0, created [^)]+\\)$`));
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=LIVE`, `ios/prod/${v2}=LIVE`, `ios/prod/${v3}=DEFAULT`, `ios/prod/${v4}=OFFLINE`]);
  });

  it('without --to, records that carry their change times prove the demoted Default: that one, saying why', async () => {
    const { id, v1, v2, v3, v4 } = await released();
    // A service that adds updatedAt to its asset-urls entries: v1 was demoted when v3 was promoted (same instant); v2 is a canary.
    const stamps: Record<string, string> = { [v1]: '2026-11-01T10:00:00.000Z', [v2]: '2026-11-02T09:00:00.000Z', [v3]: '2026-11-01T10:00:00.000Z', [v4]: '2026-10-01T00:00:00.000Z' };
    const stamped = await stubServer(async (req, res) => {
      if (req.method !== 'GET' || !req.url?.includes('/asset-urls') || !req.url.includes(`/va/${id}/`)) return false;
      const upstream = await fetch(new URL(req.url, h.emu.baseUrl), { headers: { apikey: String(req.headers.apikey) } });
      const body = await upstream.json();
      body.results = body.results.map((r: { versionId: string }) => ({ ...r, updatedAt: stamps[r.versionId] }));
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return true;
    }, h.emu.baseUrl);
    try {
      const r = await h.ahs(['rollback', id, ...CH, '--json'], { env: { AHS_BASE_URL: stamped.url } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ assetVersion: { versionId: v1, state: 'DEFAULT' }, previousDefault: v3 });
      expect(r.stderr).toContain(`rolling back ${id}/ios/prod to ${v1}: the channel's records show ${v1} was demoted when ${v3} became the Default`);
    } finally {
      await stamped.close();
    }
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=DEFAULT`, `ios/prod/${v2}=LIVE`, `ios/prod/${v3}=LIVE`, `ios/prod/${v4}=OFFLINE`]);
  });

  it('--to names the target; an OFFLINE one is refused before sending; no Default is nothing to roll back', async () => {
    const { id, v1, v3, v4 } = await released();
    const to = await h.ahs(['rollback', id, ...CH, '--to', v1]);
    expect(to.exitCode, to.stderr).toBe(0);
    expect(to.stderr).toContain(`${v1} is now the Default of ${id}/ios/prod; ${v3} is now LIVE`);
    const rerun = await h.ahs(['rollback', id, ...CH, '--to', v1, '--json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.json()).toMatchObject({ changed: false, state: 'DEFAULT' });
    const missing = await h.ahs(['rollback', id, ...CH, '--to', 'IOS99']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain(`${id} has no ios version IOS99`);
    const offline = await h.ahs(['rollback', id, ...CH, '--to', v4]);
    expect(offline.exitCode).toBe(1);
    expect(offline.stderr).toMatch(/nothing was sent: the service would answer 400: .*deploy it LIVE first/);
    // The command that would, whole: its channel named.
    expect(offline.stderr).toContain(`deploy it LIVE first (ahs deploy ${id} ${v4} --platform ios --env prod)`);
    expect((await h.records(id)).filter((r) => r.endsWith('=DEFAULT'))).toEqual([`ios/prod/${v1}=DEFAULT`]);
    // An environment the asset has nothing in (or the domain does not have: the spec has no read that tells): exit 4 naming it, as deploy's 404.
    const nowhere = await h.ahs(['rollback', id, '--platform', 'ios', '--env', 'qa']);
    expect(nowhere.exitCode).toBe(4);
    expect(nowhere.stderr).toBe(`error: ${id}/ios/qa not found: environment qa holds nothing of ${id} (it is deployed on ios in prod; an environment the domain does not have holds nothing either): nothing to roll back; check --env`);
    const json = await h.ahs(['rollback', id, '--platform', 'ios', '--env', 'qa', '--json']);
    expect(json.errJson()).toMatchObject({ type: 'urn:ahs:not-found', status: null });
    const platform = await h.ahs(['rollback', id, '--platform', 'android', '--env', 'prod']);
    expect(platform.exitCode).toBe(4);
    expect(platform.stderr).toBe(`error: ${id}/android/prod not found: ${id} has nothing on platform android in prod (it has on ios): nothing to roll back; check --platform`);
    await h.deploy(id, v1, 'ios', 'dev', 'LIVE');
    const none = await h.ahs(['rollback', id, '--platform', 'ios', '--env', 'dev']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toBe(`error: ${id}/ios/dev has no Default: nothing to roll back (promote one with ahs promote-default)`);
  });

  it('racing another promotion: exit 5 and nothing written by the rollback', async () => {
    const { id, v1, v2, v3, v4 } = await released();
    let raced = false;
    // The other pipeline promotes v1 between the rollback's read and its write.
    const racer = await stubServer(async (req) => {
      if (req.method === 'POST' && req.url?.includes('/deploy') && !raced) {
        raced = true;
        await h.deploy(id, v1, 'ios', 'prod', 'DEFAULT', { currentVersionId: v3, currentAssetIntent: 'LIVE' });
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const r = await h.ahs(['rollback', id, ...CH, '--to', v2, '--json'], { env: { AHS_BASE_URL: racer.url } });
      expect(r.exitCode, r.stderr).toBe(5);
      expect(r.errJson()).toMatchObject({ type: 'urn:ahs:conflict', status: null });
      expect(r.errJson().title).toContain(`the Default of ${id}/ios/prod is ${v1}`);
    } finally {
      await racer.close();
    }
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=DEFAULT`, `ios/prod/${v2}=LIVE`, `ios/prod/${v3}=LIVE`, `ios/prod/${v4}=OFFLINE`]);
  });

  it('--dry-run shows the promotion it would send, with the compare-and-set target', async () => {
    const { id, v2, v3 } = await released();
    const r = await h.ahs(['rollback', id, ...CH, '--to', v2, '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toMatchObject({ dryRun: true, request: { body: { intent: 'DEFAULT', currentVersionId: v3, currentAssetIntent: 'LIVE' } }, predicted: { status: 201, state: 'DEFAULT' } });
    expect(r.json().request.path).toContain(`/versions/${v2}/deploy`);
  });
});
