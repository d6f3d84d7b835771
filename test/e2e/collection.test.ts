// The whole collection lifecycle through the built binary, against the
// in-process emulator: create, items, deploy table (LIVE/OFFLINE/idempotent/
// reconcile/undeploy), update refusals, delete/restore/purge, dry-runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, ERROR_TYPE, harness, type Harness } from './helpers.js';
import type { FixtureConfig } from '../../src/emulator/index.js';

const FIXTURE: FixtureConfig = {
  domains: [
    {
      domainId: 'demo',
      users: [{ email: DEMO_USER, role: 'owner', active: true }],
      apiKeys: [{ key: 'demo-key' }, { key: 'prod-key', envId: 'prod' }],
      environments: ['dev', 'staging', 'prod'],
      targetPlatforms: ['generic', 'ios'],
      assetTypes: [
        { code: '1001', name: 'Bundle', active: true, allowedExtensions: ['.zip', '.json', '.txt'] },
        { code: '9999', name: 'Other', active: true },
      ],
    },
  ],
};

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: FIXTURE });
});
afterAll(async () => {
  await h?.close();
});

describe('collection lifecycle', () => {
  const id = 'life-1';

  it('creates (dry-run first: nothing sent), gets and lists', async () => {
    const dry = await h.ahs(['collection', 'create', id, '--name', 'Life', '--allowed-types', '1001', '--max-assets', '3', '--dry-run', '--json']);
    expect(dry.exitCode).toBe(0);
    expect(dry.json()).toMatchObject({ dryRun: true, request: { method: 'POST', path: '/api/v2/demo/vc' }, predicted: { status: 201, error: null } });
    expect((await h.call('GET', `/vc/${id}`)).status).toBe(400);

    const created = await h.ahs(['collection', 'create', id, '--name', 'Life', '--allowed-types', '1001', '--max-assets', '3', '--json']);
    expect(created.exitCode).toBe(0);
    expect(created.json()).toMatchObject({ collectionId: id, collectionName: 'Life', allowedAssetTypes: ['1001'], maxAssets: 3, assetItems: [], deleted: false });

    const again = await h.ahs(['collection', 'create', id, '--name', 'Life', '--allowed-types', '1001', '--dry-run']);
    expect(again.exitCode).toBe(5);

    const got = await h.ahs(['collection', 'get', id, '--json']);
    expect(got.json().collectionId).toBe(id);
    const missing = await h.ahs(['collection', 'get', 'no-such', '--json']);
    expect(missing.exitCode).toBe(4);
    expect(missing.errJson()).toMatchObject({ status: 400 });

    const list = await h.ahs(['collection', 'list', '--all', '--json']);
    expect(list.json().results.map((c: { collectionId: string }) => c.collectionId)).toContain(id);
  });

  it('validates locally before sending (exit 2)', async () => {
    const bad = await h.ahs(['collection', 'create', 'bad id!', '--name', 'x', '--allowed-types', '1001']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/letters, digits/);
    const noTypes = await h.ahs(['collection', 'create', 'x1', '--name', 'x']);
    expect(noTypes.exitCode).toBe(2);
    expect(noTypes.stderr).toMatch(/--allowed-types/);
  });

  it('uploads 3 files with one rejected: the others go through, exit 1, JSON names the failure', async () => {
    const a = await h.file('one.zip', 'zip-bytes-1');
    const b = await h.file('evil.exe', 'MZ');
    const c = await h.file('three.json', '{"x":3}');
    const run = await h.ahs(['item', 'upload', id, a, b, c, '--type', '1001', '--concurrency', '3', '--json']);
    expect(run.exitCode).toBe(1);
    const doc = run.json();
    expect(doc.uploaded.map((i: { assetItemName: string }) => i.assetItemName)).toEqual(['one.zip', 'three.json']);
    expect(doc.failed).toHaveLength(1);
    expect(doc.failed[0].file).toBe(b);
    expect(doc.failed[0].error.status).toBe(400);
    // stderr: one JSON object, the service's error body of the failure, unchanged.
    expect(run.errJson()).toEqual(doc.failed[0].error);
    expect(run.errJson().type).toBe(ERROR_TYPE);
    const items = await h.ahs(['item', 'list', id, '--json']);
    expect(items.json().totalResults).toBe(2);
  });

  it('refuses --name with several files, and a missing file, before sending', async () => {
    const a = await h.file('n1.txt', 'a');
    const b = await h.file('n2.txt', 'b');
    expect((await h.ahs(['item', 'upload', id, a, b, '--type', '1001', '--name', 'x'])).exitCode).toBe(2);
    expect((await h.ahs(['item', 'upload', id, a, '/no/such/file', '--type', '1001'])).exitCode).toBe(2);
    expect((await h.ahs(['item', 'list', id, '--json'])).json().totalResults).toBe(2);
  });

  it('item get/list with dates; list --since in the future is empty', async () => {
    const list = (await h.ahs(['item', 'list', id, '--json'])).json();
    const itemId = list.results[0].assetItemId;
    const got = await h.ahs(['item', 'get', id, itemId, '--json']);
    expect(got.json()).toMatchObject({ assetItemId: itemId, parentCollections: [id] });
    expect((await h.ahs(['item', 'get', id, 'nope', '--json'])).exitCode).toBe(4);
    expect((await h.ahs(['item', 'list', id, '--since', '2000-01-01', '--until', '2999-12-31', '--json'])).json().totalResults).toBe(2);
    expect((await h.ahs(['item', 'list', id, '--since', '2999-01-01', '--json'])).json().totalResults).toBe(0);
    expect((await h.ahs(['item', 'list', id, '--since', 'yesterday'])).exitCode).toBe(2);
  });

  it('update refuses permanent fields and maxAssets below the item count, before sending', async () => {
    const low = await h.ahs(['collection', 'update', id, '--max-assets', '1']);
    expect(low.exitCode).toBe(2);
    expect(low.stderr).toMatch(/below .*item count 2/);
    // The dry run refuses it as the real run does: before any request is planned (2), like every local validation.
    const lowDry = await h.ahs(['collection', 'update', id, '--max-assets', '1', '--dry-run', '--json']);
    expect(lowDry.exitCode).toBe(2);
    expect(lowDry.errJson().title).toMatch(/below .*item count 2/);
    expect(lowDry.stdout).toBe('');
    const perm = await h.ahs(['collection', 'update', id, '--allowed-types', '9999']);
    expect(perm.exitCode).toBe(2);
    const items = await h.ahs(['collection', 'update', id, '--from-json', '-'], { input: '{"assetItems": [], "deleted": true}' });
    expect(items.exitCode).toBe(2);
    expect(items.stderr).toMatch(/assetItems/);
    // A field of the file that is no update field: named as written in the file, not as a flag that does not exist.
    const bogus = await h.ahs(['collection', 'update', id, '--from-json', '-'], { input: '{"bogus": 1, "maxAssets": 10}' });
    expect(bogus.exitCode).toBe(2);
    expect(bogus.stderr).toMatch(/--from-json -: unknown field "bogus"; the fields an update takes are collectionName, /);
    expect(bogus.stderr).not.toMatch(/--bogus/);
    const badValue = await h.ahs(['collection', 'update', id, '--from-json', '-'], { input: '{"maxAssets": 0}' });
    expect(badValue.exitCode).toBe(2);
    expect(badValue.stderr).toMatch(/maxAssets \(--from-json\) must be/);
    const ok = await h.ahs(['collection', 'update', id, '--name', 'Life 2', '--max-assets', '10', '--json']);
    expect(ok.exitCode).toBe(0);
    expect(ok.json()).toMatchObject({ collectionName: 'Life 2', maxAssets: 10 });
  });

  it('deploys: LIVE, idempotent re-run, OFFLINE, LIVE again, reconcile, status table, url, undeploy', async () => {
    const live = await h.ahs(['collection-deploy', id, '--env', 'dev', '--json']);
    expect(live.exitCode).toBe(0);
    expect(live.json().downloadUrl).toMatch(/^http/);

    const dup = await h.ahs(['collection-deploy', id, '--env', 'dev']);
    expect(dup.exitCode).toBe(1);
    const idem = await h.ahs(['collection-deploy', id, '--env', 'dev', '--idempotent', '--json']);
    expect(idem.exitCode).toBe(0);
    expect(idem.json()).toMatchObject({ changed: false, state: 'LIVE' });

    const staging = await h.ahs(['collection-deploy', id, '--env', 'staging']);
    expect(staging.exitCode).toBe(0);
    expect(staging.stderr).toMatch(/fetch it with: ahs fetch life-1 --env staging$/m);
    const offDry = await h.ahs(['collection-deploy', id, '--env', 'staging', '--state', 'OFFLINE', '--dry-run', '--json']);
    expect(offDry.json().predicted).toMatchObject({ status: 201, state: 'OFFLINE' });
    expect((await h.ahs(['collection-deploy', id, '--env', 'staging', '--state', 'OFFLINE'])).exitCode).toBe(0);

    const status = await h.ahs(['collection', 'status', id, '--json']);
    const rows = Object.fromEntries(status.json().items.map((r: { envId: string }) => [r.envId, r]));
    expect(rows.dev.live).toHaveLength(2);
    expect(rows.staging.offline).toHaveLength(2);
    const table = await h.ahs(['collection', 'status', id]);
    expect(table.stdout).toMatch(/dev\s+LIVE/);
    expect(table.stdout).toMatch(/staging\s+OFFLINE/);

    const url = await h.ahs(['collection', 'url', id, '--env', 'dev']);
    expect(url.stdout.trim()).toMatch(/^http/);
    expect((await h.ahs(['collection', 'url', id, '--env', 'staging'])).exitCode).toBe(1);

    const recDry = await h.ahs(['collection-deploy', id, '--reconcile', '--dry-run', '--json']);
    expect(recDry.json().predicted.effects[0]).toMatchObject({ kind: 'redeploy', envIds: ['dev'] });
    expect((await h.ahs(['collection-deploy', id, '--reconcile'])).exitCode).toBe(0);

    // Delete is refused while Live (predicted and real).
    const delDry = await h.ahs(['collection', 'delete', id, '--dry-run', '--json']);
    expect(delDry.exitCode).toBe(1);
    expect(delDry.json().predicted.error.title).toMatch(/LIVE/);

    // Destructive: needs --yes without a terminal.
    expect((await h.ahs(['collection', 'undeploy', id, '--env', 'dev'])).exitCode).toBe(2);
    expect((await h.ahs(['collection', 'undeploy', id, '--env', 'dev', '--yes'])).exitCode).toBe(0);
    expect((await h.ahs(['collection', 'undeploy', id, '--env', 'dev', '--dry-run'])).exitCode).toBe(1);
  });

  it('explains the env-scoped key rule: naming another environment is 403 (exit 3)', async () => {
    const other = await h.ahs(['collection-deploy', id, '--env', 'dev'], { env: { AHS_API_KEY: 'prod-key' } });
    expect(other.exitCode).toBe(3);
    // The run's lock on dev (change control) is the first write the key is refused: the service's words, or ahs's hint.
    expect(other.stderr).toMatch(/scoped to (another environment|environment prod; it cannot act in dev)/);
    // A domain-wide key without an environment: the service's 400, and how to fix it.
    const unnamed = await h.ahs(['collection-deploy', id]);
    expect(unnamed.exitCode).toBe(1);
    expect(unnamed.stderr).toMatch(/pass --env ENV/);
    const own = await h.ahs(['collection-deploy', id], { env: { AHS_API_KEY: 'prod-key' } });
    expect(own.exitCode).toBe(0);
    // The hint is a command that works as printed: no --env was named, so it gives the deployed URL.
    const hint = /fetch it with: (ahs .*)$/m.exec(own.stderr)?.[1];
    expect(hint).toBe(`ahs fetch --url ${own.stdout.trim()}`);
    const fetched = await h.ahs([...hint!.split(' ').slice(1), '--dir', `${h.dir}/hint-out`, '--json'], { env: { AHS_API_KEY: 'prod-key' } });
    expect(fetched.exitCode).toBe(0);
    expect(fetched.json()).toMatchObject({ envId: 'prod', failed: [] });
    expect(fetched.json().downloaded).toHaveLength(2);
    const status = (await h.ahs(['collection', 'status', id, '--json'])).json();
    expect(status.items.find((r: { envId: string }) => r.envId === 'prod').live).toHaveLength(2);
    expect((await h.ahs(['collection', 'undeploy', id, '--env', 'prod', '--yes'])).exitCode).toBe(0);
  });

  it('removes an item (dry-run predicts removal for good), then delete, list marks, restore, delete, purge', async () => {
    const items = (await h.ahs(['item', 'list', id, '--json'])).json().results;
    const itemId = items[0].assetItemId;
    const dry = await h.ahs(['item', 'remove', id, itemId, '--dry-run', '--json']);
    expect(dry.json().predicted.effects[0]).toMatchObject({ kind: 'removeItems', itemIds: [itemId] });
    expect((await h.ahs(['item', 'remove', id, itemId])).exitCode).toBe(2);
    expect((await h.ahs(['item', 'remove', id, itemId, '-y'])).exitCode).toBe(0);
    expect((await h.ahs(['item', 'list', id, '--json'])).json().totalResults).toBe(1);

    // staging is OFFLINE, nothing Live: delete is allowed.
    expect((await h.ahs(['collection', 'delete', id, '-y', '--json'])).json().message).toBe(`Asset collection ${id} has been deleted.`);
    const deleted = await h.ahs(['collection', 'list', '--deleted', '--json']);
    expect(deleted.json().results.map((c: { collectionId: string }) => c.collectionId)).toEqual([id]);
    const active = await h.ahs(['collection', 'list', '--no-deleted', '--json']);
    expect(active.json().results.map((c: { collectionId: string }) => c.collectionId)).not.toContain(id);
    const table = await h.ahs(['collection', 'list']);
    expect(table.stdout).toMatch(new RegExp(`${id}.*deleted`));

    expect((await h.ahs(['collection', 'restore', id, '--dry-run'])).exitCode).toBe(0);
    expect((await h.ahs(['collection', 'restore', id])).exitCode).toBe(0);
    expect((await h.ahs(['collection', 'purge', id, '-y'])).exitCode).toBe(1); // not deleted
    expect((await h.ahs(['collection', 'delete', id, '-y'])).exitCode).toBe(0);

    const purgeDry = await h.ahs(['collection', 'purge', id, '--dry-run', '--json']);
    expect(purgeDry.exitCode).toBe(0);
    const kinds = purgeDry.json().predicted.effects.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['removeDeployments', 'removeItems']));
    expect((await h.ahs(['collection', 'purge', id])).exitCode).toBe(2);
    const purged = await h.ahs(['collection', 'purge', id, '-y']);
    expect(purged.exitCode).toBe(0);
    expect(purged.stderr).toMatch(/removes, for good/);
    expect((await h.ahs(['collection', 'get', id])).exitCode).toBe(4);
  });

  it('never prompts without a terminal: a missing COLLECTION_ID is a usage error', async () => {
    const run = await h.ahs(['collection', 'get']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/COLLECTION_ID is required/);
  });
});
