// cli.md "Output": data on stdout; progress, messages and errors on stderr.
// A write that answers with a message only prints nothing on stdout in table
// mode (its ✓ line goes to stderr), and its JSON answer on stdout with --json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

async function seeded(method: string, path: string, body?: unknown): Promise<void> {
  const r = await h.call(method, path, body);
  if (r.status >= 300) throw new Error(`seed ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** A collection with one item (seeded over HTTP), LIVE in dev when `live`, soft-deleted when `deleted`. */
async function collection(state: { live?: boolean; deleted?: boolean } = {}): Promise<string> {
  const id = uid('streams');
  await seeded('POST', '/vc', { collectionId: id, collectionName: 'Streams', allowedAssetTypes: ['1001'], createdBy: DEMO_USER });
  const form = new FormData();
  form.set('assetItemName', 'x.txt');
  form.set('assetType', '1001');
  form.set('createdBy', DEMO_USER);
  form.set('assetFile', new Blob(['x']), 'x.txt');
  await seeded('POST', `/vc/${id}/items`, form);
  if (state.live) await seeded('POST', `/vc/${id}/deployments`, { state: 'LIVE', envId: 'dev', createdBy: DEMO_USER });
  if (state.deleted) await seeded('DELETE', `/vc/${id}`, { deletedBy: DEMO_USER });
  return id;
}

async function asset(version: 'none' | 'uploaded' | 'deployed'): Promise<{ id: string; versionId: string }> {
  const id = uid('streams');
  await h.createAsset(id);
  const versionId = version === 'none' ? '' : await h.uploadVersion(id, 'ios');
  if (version === 'deployed') await h.deploy(id, versionId, 'ios', 'dev', 'LIVE');
  return { id, versionId };
}

const cases: Array<[string, () => Promise<string[]>, RegExp]> = [
  ['collection delete', async () => ['collection', 'delete', await collection(), '--yes'], /deleted/i],
  ['collection restore', async () => ['collection', 'restore', await collection({ deleted: true })], /restored/i],
  ['collection purge', async () => ['collection', 'purge', await collection({ deleted: true }), '--yes'], /purged/i],
  ['collection undeploy', async () => ['collection', 'undeploy', await collection({ live: true }), '--env', 'dev', '--yes'], /undeployed/i],
  ['collection-deploy --state OFFLINE', async () => ['collection-deploy', await collection({ live: true }), '--env', 'dev', '--state', 'OFFLINE'], /OFFLINE/],
  ['collection-deploy --reconcile', async () => ['collection-deploy', await collection({ live: true }), '--reconcile'], /./],
  ['asset delete', async () => ['asset', 'delete', (await asset('none')).id, '--yes'], /Deleted asset/],
  ['version delete', async () => {
    const { id, versionId } = await asset('uploaded');
    return ['version', 'delete', id, versionId, '--yes'];
  }, /Deleted version/],
  ['asset undeploy', async () => ['asset', 'undeploy', (await asset('deployed')).id, '--env', 'dev', '--platform', 'ios', '--yes'], /deployment record\(s\) removed/],
];

describe('a write answered with a message: nothing on stdout in table mode, its JSON on stdout with --json', () => {
  it.each(cases)('%s', async (_name, setup, message) => {
    const table = await h.ahs(await setup());
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toBe('');
    expect(table.stderr).toMatch(/^✓ /m);
    expect(table.stderr).toMatch(message);

    const json = await h.ahs([...(await setup()), '--json']);
    expect(json.exitCode).toBe(0);
    expect(json.json()).toEqual(expect.any(Object));
    expect(json.stderr).not.toMatch(/✓/);
  });
});
