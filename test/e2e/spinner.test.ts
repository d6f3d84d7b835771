// The spinner says what is being done in the user's terms (issue 24):
// "reading channel A/ios/prod", "promoting IOS1 to Default of A/ios/prod",
// not "GET /va/A/asset-urls". A proxy holds each request until its words are
// on the pty's screen, then lets it through: nothing depends on timing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, hasScript, runInPty, stubServer, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe.skipIf(!hasScript)('the spinner in a terminal', () => {
  it('names the channel it reads and the promotion it sends', async () => {
    const id = uid('spin');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    expect((await h.deploy(id, v, 'ios', 'prod', 'LIVE')).status).toBe(201);
    // Each held request waits for these words on the screen.
    const awaited: Array<{ request: RegExp; words: string; held: Array<() => void> }> = [
      { request: /\/asset-urls\?.*targetPlatform=ios/, words: `reading channel ${id}/ios/prod`, held: [] },
      { request: /\/deploy\?/, words: `promoting ${v} to Default of ${id}/ios/prod`, held: [] },
    ];
    const seen = new Set<string>();
    const proxy = await stubServer(async (req) => {
      const hold = awaited.find((entry) => entry.request.test(req.url ?? '') && !seen.has(entry.words));
      if (hold) await new Promise<void>((resolve) => (seen.has(hold.words) ? resolve() : hold.held.push(resolve)));
      return false;
    }, h.emu.baseUrl);
    try {
      const { code, screen } = await runInPty({ ...h.env, AHS_BASE_URL: proxy.url }, ['promote-default', id, v, '--platform', 'ios', '--env', 'prod', '--timeout', '5'], [], {
        columns: 100,
        onScreen: (text) => {
          for (const entry of awaited) {
            if (!seen.has(entry.words) && text.includes(entry.words)) {
              seen.add(entry.words);
              for (const release of entry.held.splice(0)) release();
            }
          }
        },
      });
      expect(code, JSON.stringify(screen)).toBe(0);
      expect([...seen]).toEqual(awaited.map((entry) => entry.words));
      expect(screen).not.toMatch(/GET \/va|POST \/va/);
    } finally {
      await proxy.close();
    }
    expect(await h.records(id)).toEqual([`ios/prod/${v}=DEFAULT`]);
  });
});
