// Every write ends with a known outcome (issue 10): a deploy or promotion
// answered 500 (the channel mid-deployment) is settled by reading the
// channel and retried while the requested state does not hold; concurrent
// promotions end 0 or 5, never 1, with one Default. A deploy whose answer
// times out while the service is still deploying: settle-slow.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';
import { DEMO_FIXTURE } from '../../src/emulator/fixture.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

async function oneVersion() {
  const id = uid('settle');
  await h.createAsset(id);
  return { id, v: await h.uploadVersion(id, 'ios') };
}

describe('a deploy answered 500', () => {
  it('not applied: the channel is read, the deploy sent again, exit 0', async () => {
    const { id, v } = await oneVersion();
    let failed = 0;
    const flaky = await stubServer((req, res) => {
      if (req.method === 'POST' && req.url?.includes('/deploy') && failed === 0) {
        failed++;
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'x', title: 'busy', status: 500, detail: 'busy' }));
        return true;
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const r = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'dev', '--json'], { env: { AHS_BASE_URL: flaky.url } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ assetVersion: { versionId: v, state: 'LIVE' } });
      expect(r.stderr).toContain('answered 500');
      expect(flaky.requests.filter((q) => q.method === 'POST')).toHaveLength(2);
    } finally {
      await flaky.close();
    }
    expect(await h.records(id)).toEqual([`ios/dev/${v}=LIVE`]);
  });

  it('applied although the answer was a 500: confirmed by a read, not sent twice', async () => {
    const { id, v } = await oneVersion();
    const liar = await stubServer(async (req, res, body) => {
      if (req.method === 'POST' && req.url?.includes('/deploy')) {
        await h.call('POST', req.url.replace(/^\/api\/v2\/demo/, ''), JSON.parse(body.toString('utf8')));
        res.writeHead(500).end('upstream error');
        return true;
      }
      return false;
    }, h.emu.baseUrl);
    try {
      const r = await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'dev'], { env: { AHS_BASE_URL: liar.url } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain('a read confirms the write was applied');
      expect(liar.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    } finally {
      await liar.close();
    }
    expect(await h.records(id)).toEqual([`ios/dev/${v}=LIVE`]);
  });
});

describe('concurrent promotions of one channel, the emulator mid-deployment for a while', () => {
  it('10 at once: each ends 0 or 5 (never 1), and the channel has one Default', async () => {
    const slow = await harness({ config: { ...DEMO_FIXTURE, deployDelayMs: 30 } });
    try {
      const id = uid('race');
      await slow.createAsset(id);
      const versions: string[] = [];
      for (let i = 0; i < 10; i++) {
        const v = await slow.uploadVersion(id, 'ios', `1.${i}`);
        versions.push(v);
        const live = await slow.deploy(id, v, 'ios', 'prod', 'LIVE');
        expect(live.status).toBe(201);
      }
      const runs = await Promise.all(versions.map((v) => slow.ahs(['promote-default', id, v, '--platform', 'ios', '--env', 'prod'])));
      for (const run of runs) expect([0, 5], run.stderr).toContain(run.exitCode);
      expect(runs.some((run) => run.exitCode === 0)).toBe(true);
      expect((await slow.records(id)).filter((r) => r.endsWith('=DEFAULT'))).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

// Issue 30: a read taken while the service may still be deploying proves
// "applied" when it shows the change, never "not applied". The emulator keeps
// each deployment in progress for 4 s, past the deploy's --timeout.
