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
