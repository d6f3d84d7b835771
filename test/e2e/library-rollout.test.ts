// client.rollout / rolloutStatus (cli.md "Rollouts across environments", from
// code): the command's own run through the built package entry (dist/lib.mjs)
// against the emulator; a wait answers with the document, as the CLI's
// exit 11 prints it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
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

describe('client.rollout', () => {
  it('promotes the waves whose gates hold and answers where the rollout stands; the approval moves it on; status reads the same', async () => {
    const id = uid('lib-ro');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'web', '1.0');
    const v2 = await h.uploadVersion(id, 'web', '2.0');
    await h.deploy(id, v1, 'web', 'prod', 'LIVE');
    await h.deploy(id, v1, 'web', 'prod', 'DEFAULT');
    const params = { assetId: id, name: '2.0', platform: 'web', waves: ['dev', 'prod'], approve: ['prod'] };
    const waiting = await client.rollout(params);
    expect(waiting).toMatchObject({ version: v2, promoted: ['dev'], next: { action: 'wait', for: 'approval', env: 'prod' } });
    expect(await client.rolloutStatus(params)).toMatchObject({ promoted: [], waves: [{ env: 'dev', state: 'done' }, { env: 'prod', state: 'waiting-approval' }] });
    const done = await client.rollout({ ...params, approved: ['prod'] });
    expect(done).toMatchObject({ promoted: ['prod'], next: { action: 'complete' } });
    expect(await h.records(id)).toEqual([`web/dev/${v2}=DEFAULT`, `web/prod/${v1}=LIVE`, `web/prod/${v2}=DEFAULT`]);
    await expect(client.rollout({ ...params, waves: [] })).rejects.toMatchObject({ kind: 'usage' });
  });

  it('with a journal: calls at once agree; a failed check rejects and so does rolloutStatus; resume goes on; another version is blocked until supersede', async () => {
    const journal = uid('lib-jr');
    expect((await h.ahs(['journal', 'init', journal, '--env', 'dev'])).exitCode).toBe(0);
    const own = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, journal });
    try {
      const id = uid('lib-ro');
      await h.createAsset(id);
      const v1 = await h.uploadVersion(id, 'web', '1.0');
      const v2 = await h.uploadVersion(id, 'web', '2.0');
      await h.deploy(id, v1, 'web', 'prod', 'LIVE');
      await h.deploy(id, v1, 'web', 'prod', 'DEFAULT');
      const params = { assetId: id, versionId: v2, platform: 'web', waves: ['dev', 'prod'] };
      // Three calls at once: each resolves with the rollout as it finds it; each wave promoted by one of them.
      const failing = { ...params, check: '[ "$AHS_ROLLOUT_ENV" != prod ]' };
      const runs = await Promise.allSettled([own.rollout(failing), own.rollout(failing), own.rollout(failing)]);
      expect(runs.some((r) => r.status === 'rejected' && (r.reason as { exitCode: number }).exitCode === 1)).toBe(true);
      for (const r of runs) if (r.status === 'rejected') expect((r.reason as { exitCode: number }).exitCode).toBe(1);
      await expect(own.rolloutStatus(params)).rejects.toMatchObject({ exitCode: 1, message: expect.stringContaining('halted: the check failed before promoting prod (exit 1)') });
      const resumed = await own.rollout({ ...params, check: 'true', resume: true });
      expect(resumed).toMatchObject({ promoted: ['prod'], next: { action: 'complete' } });

      // A rollout in flight (prod waits for approval): another version's rollout rejects until supersede.
      const v3 = await h.uploadVersion(id, 'web', '3.0');
      expect(await own.rollout({ ...params, versionId: v3, approve: ['prod'] })).toMatchObject({ promoted: ['dev'], next: { action: 'wait', for: 'approval' } });
      const v4 = await h.uploadVersion(id, 'web', '4.0');
      const blocked = await own.rollout({ ...params, versionId: v4 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(blocked).toMatchObject({ exitCode: 12, blockedBy: 'rollout', message: expect.stringContaining(`the rollout of ${v3} is in flight`) });
      expect(await own.rollout({ ...params, versionId: v4, supersede: true })).toMatchObject({ promoted: ['dev', 'prod'], next: { action: 'complete' } });
      await expect(own.rolloutStatus({ ...params, versionId: v3, approve: ['prod'] })).rejects.toMatchObject({ exitCode: 12, blockedBy: 'rollout' });
    } finally {
      await own.close();
    }
  });

  it('the version and the check are named as the call\'s parameters (not VERSION_ID, --name or --check), before any request', async () => {
    const seen: string[] = [];
    const watched = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, onEvent: (e) => e.type === 'request' && seen.push(e.path) });
    try {
      const base = { assetId: 'x', platform: 'web', waves: ['dev'] };
      await expect(watched.rollout(base)).rejects.toMatchObject({ exitCode: 2, message: 'rollout: versionId (or name) is required: the version to roll out' });
      await expect(watched.rolloutStatus({ ...base, versionId: 'WEB1', name: '1.0' })).rejects.toMatchObject({ exitCode: 2, message: 'rolloutStatus: give versionId or name, not both' });
      await expect(watched.rollout({ ...base, versionId: 'WEB1', check: ' ' })).rejects.toMatchObject({ exitCode: 2, message: 'rollout: check must not be empty' });
      expect(seen).toEqual([]);
    } finally {
      await watched.close();
    }
  });
});
