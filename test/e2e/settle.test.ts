// Every write ends with a known outcome (issue 10): a deploy or promotion
// answered 500 (the channel mid-deployment) is settled by reading the
// channel and retried while the requested state does not hold. Concurrent
// promotions (0 or 5, never 1, with one Default) and a deploy whose answer
// times out while the service is still deploying: settle-slow.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, stubServer, uid, type Harness } from './helpers.js';

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
