// The kinds of step that write collections and items
// (src/plan/kinds/collections.ts), each question asked on its own against
// the fake client, by table: requests, predictions over the collection as
// read (a missing one is "not found"), sends that converge or explain a
// refusal, and the settling reads of lost answers.
import { isByAnother } from '../../src/plan/answers.js';
import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Output } from '../../src/io/output.js';
import {
  collectionCreate,
  collectionDelete,
  collectionDeploy,
  collectionPurge,
  collectionReconcile,
  collectionRestore,
  collectionUndeploy,
  collectionUpdate,
  itemConverge,
  itemRemove,
  itemUpload,
  readItemParents,
} from '../../src/plan/kinds/collections.js';
import type { Kind, KindIO } from '../../src/plan/kinds/kind.js';
import { stepBudget } from '../../src/plan/retry.js';
import { bufferIO } from '../unit/helpers.js';
import { apiError, FakeService, USER } from './fake.js';
import { tempDirs } from '../support/temp-dir.js';

/** The test's temporary folders, removed after the file. */
const temp = tempDirs();

async function kindIO(service: FakeService, format: 'json' | 'table' = 'table') {
  const io = bufferIO();
  const api = service.client();
  const kio: KindIO = { api, out: await Output.create(io, { format }), signal: new AbortController().signal, retry: stepBudget(api.policy), sentAt: 0, progress: () => undefined };
  return { kio, io };
}

const C = (extra: Record<string, unknown> = {}) => ({ collectionId: 'C', assetItems: [], allowedAssetTypes: ['1001'], maxAssets: 10, createdBy: USER, createdAt: '2026-01-01T00:00:00Z', ...extra });
const write = { collectionId: 'C', user: USER };

describe('requests and descriptions', () => {
  const api = new FakeService().client();
  const file = { path: '/f/a.png', name: 'a.png', size: 3 };
  const rows: Array<[string, Kind, Record<string, unknown>, unknown, string]> = [
    ['create', collectionCreate, { collectionId: 'C', body: { x: 1 } }, { method: 'POST', path: '/api/v2/d/vc', body: { x: 1 } }, 'create collection C'],
    ['update', collectionUpdate, { collectionId: 'C', body: { maxAssets: 3 } }, { method: 'PATCH', path: '/api/v2/d/vc/C', body: { maxAssets: 3 } }, 'update collection C'],
    ['delete', collectionDelete, write, { method: 'DELETE', path: '/api/v2/d/vc/C', body: { deletedBy: USER } }, 'delete collection C'],
    ['restore', collectionRestore, write, { method: 'POST', path: '/api/v2/d/vc/C/restore', body: { createdBy: USER } }, 'restore collection C'],
    ['purge', collectionPurge, write, { method: 'POST', path: '/api/v2/d/vc/C/purge', body: { createdBy: USER } }, 'purge collection C'],
    ['undeploy', collectionUndeploy, { ...write, envId: 'prod' }, { method: 'DELETE', path: '/api/v2/d/vc/C/deployments/prod', body: { updatedBy: USER } }, 'undeploy collection C from prod'],
    ['deploy in an env', collectionDeploy, { ...write, state: 'LIVE', envId: 'prod' }, { method: 'POST', path: '/api/v2/d/vc/C/deployments', body: { state: 'LIVE', createdBy: USER, updatedBy: USER, envId: 'prod' } }, 'deploy collection C LIVE in prod'],
    ['deploy in the key\'s env', collectionDeploy, { ...write, state: 'OFFLINE' }, { method: 'POST', path: '/api/v2/d/vc/C/deployments', body: { state: 'OFFLINE', createdBy: USER, updatedBy: USER } }, 'deploy collection C OFFLINE'],
    ['reconcile', collectionReconcile, write, { method: 'POST', path: '/api/v2/d/vc/C/deployments', query: { reconcile: 'true' }, body: { createdBy: USER } }, 're-run the Live deployments of C'],
    ['item upload', itemUpload, { collectionId: 'C', fields: { assetItemName: 'a', assetType: '1001', createdBy: USER }, file }, { method: 'POST', path: '/api/v2/d/vc/C/items', body: { assetItemName: 'a', assetType: '1001', createdBy: USER, assetFile: '@/f/a.png (3 bytes)' } }, 'upload a.png to C'],
    ['item remove', itemRemove, { ...write, itemId: 'i1' }, { method: 'DELETE', path: '/api/v2/d/vc/C/items/i1', body: { deletedBy: USER } }, 'remove item i1 from C'],
    ['item remove, named', itemRemove, { ...write, itemId: 'i1', name: 'a.png' }, { method: 'DELETE', path: '/api/v2/d/vc/C/items/i1', body: { deletedBy: USER } }, 'remove item i1 (a.png) from C'],
    ['item converge', itemConverge, { ...write, uploaded: [] }, { method: 'DELETE', path: '/api/v2/d/vc/C/items/%7Bcopy%7D', body: { deletedBy: USER } }, 'remove copies another run uploaded to C at the same time'],
  ];
  for (const [name, kind, params, request, description] of rows) {
    it(name, () => {
      expect(kind.request(params, api)).toStrictEqual(request);
      expect(kind.describe(params)).toBe(description);
      // Every kind but create names the collection whose 400 may mean "not found".
      expect(kind.collection?.(params)).toBe(kind === collectionCreate ? undefined : 'C');
    });
  }
  it('the files and check commands', () => {
    expect(itemUpload.file!({ collectionId: 'C', fields: {} as never, file })).toBe(file);
    expect(itemUpload.check!({ collectionId: 'C' } as never)).toBe('ahs item list C --all');
    expect(itemConverge.runTimeOnly).toBe(true);
  });
});

describe('predictions over the collection as read', () => {
  const rows: Array<{ name: string; kind: Kind; params: Record<string, unknown>; collection?: Record<string, unknown> | 'missing'; deployments?: Record<string, 'LIVE' | 'OFFLINE'>; items?: Array<Record<string, unknown>>; status: number; ok: boolean; notFound?: boolean; current?: unknown; notes?: string[] }> = [
    { name: 'create of a free id', kind: collectionCreate, params: { collectionId: 'C', body: { collectionName: 'C', createdBy: USER } }, collection: 'missing', status: 201, ok: true, current: null, notes: ['the asset type codes and the platform are checked by the service (400 when unknown)'] },
    { name: 'create of a taken id', kind: collectionCreate, params: { collectionId: 'C', body: { collectionName: 'C', createdBy: USER } }, status: 409, ok: false, notes: ['the asset type codes and the platform are checked by the service (400 when unknown)'] },
    { name: 'update', kind: collectionUpdate, params: { collectionId: 'C', body: { maxAssets: 5 } }, status: 200, ok: true },
    { name: 'update of a missing collection: not found', kind: collectionUpdate, params: { collectionId: 'C', body: { maxAssets: 5 } }, collection: 'missing', status: 404, ok: false, notFound: true },
    { name: 'update clearing the anchor (null)', kind: collectionUpdate, params: { collectionId: 'C', body: { anchorAsset: null } }, collection: C({ assetItems: ['i1'] }), status: 200, ok: true },
    { name: 'update to an anchor that is an item', kind: collectionUpdate, params: { collectionId: 'C', body: { anchorAsset: 'i1' } }, collection: C({ assetItems: ['i1'] }), status: 200, ok: true },
    { name: 'update to an anchor that is not an item', kind: collectionUpdate, params: { collectionId: 'C', body: { anchorAsset: 'i9' } }, collection: C({ assetItems: ['i1'] }), status: 400, ok: false },
    { name: 'update of a refused field, with an anchor', kind: collectionUpdate, params: { collectionId: 'C', body: { anchorAsset: 'i1', createdBy: 'x' } }, collection: C({ assetItems: ['i1'] }), status: 400, ok: false },
    { name: 'delete', kind: collectionDelete, params: write, status: 200, ok: true },
    { name: 'delete of a LIVE collection', kind: collectionDelete, params: write, deployments: { prod: 'LIVE' }, status: 400, ok: false },
    { name: 'restore of a collection not deleted', kind: collectionRestore, params: write, status: 400, ok: false },
    { name: 'restore', kind: collectionRestore, params: write, collection: C({ deleted: true }), status: 200, ok: true },
    { name: 'purge of a deleted collection: its items read', kind: collectionPurge, params: write, collection: C({ deleted: true, assetItems: ['i1'] }), items: [{ assetItemId: 'i1', parentCollections: ['C'] }], status: 200, ok: true },
    { name: 'purge of a missing collection: nothing read about items', kind: collectionPurge, params: write, collection: 'missing', status: 404, ok: false, notFound: true, current: null },
    { name: 'undeploy of a LIVE collection', kind: collectionUndeploy, params: { ...write, envId: 'prod' }, deployments: { prod: 'LIVE' }, status: 200, ok: true },
    { name: 'undeploy of a collection not LIVE', kind: collectionUndeploy, params: { ...write, envId: 'prod' }, status: 400, ok: false },
    {
      name: 'deploy LIVE in an env',
      kind: collectionDeploy,
      params: { ...write, state: 'LIVE', envId: 'prod' },
      collection: C({ assetItems: ['i1'] }),
      status: 201,
      ok: true,
      notes: ['the environment code is checked by the service (400 when unknown); an environment-scoped API key deploys to its own environment only (403 for another)'],
    },
    { name: 'deploy with no env named', kind: collectionDeploy, params: { ...write, state: 'LIVE' }, collection: C({ assetItems: ['i1'] }), status: 400, ok: false, notes: ['an environment-scoped API key deploys to its own environment; with a domain-wide key, pass --env'] },
    { name: 'deploy of a missing collection', kind: collectionDeploy, params: { ...write, state: 'LIVE', envId: 'prod' }, collection: 'missing', status: 400, ok: false, notFound: true, notes: ['the environment code is checked by the service (400 when unknown); an environment-scoped API key deploys to its own environment only (403 for another)'] },
    { name: 'reconcile of a LIVE collection', kind: collectionReconcile, params: write, deployments: { prod: 'LIVE' }, status: 200, ok: true },
    { name: 'reconcile of a collection LIVE nowhere', kind: collectionReconcile, params: write, status: 400, ok: false },
    { name: 'item upload of an allowed type', kind: itemUpload, params: { collectionId: 'C', fields: { assetItemName: 'a', assetType: '1001', createdBy: USER }, file: {} }, status: 201, ok: true, notes: ['the file type (extension) is checked by the service'] },
    { name: 'item upload of a type not allowed', kind: itemUpload, params: { collectionId: 'C', fields: { assetItemName: 'a', assetType: '2002', createdBy: USER }, file: {} }, status: 400, ok: false, notes: ['the file type (extension) is checked by the service'] },
    { name: 'item upload to a missing collection', kind: itemUpload, params: { collectionId: 'C', fields: { assetItemName: 'a', assetType: '1001', createdBy: USER }, file: {} }, collection: 'missing', status: 400, ok: false, notFound: true, notes: ['the file type (extension) is checked by the service'] },
    { name: 'item upload to a collection with no allowed types', kind: itemUpload, params: { collectionId: 'C', fields: { assetItemName: 'a', assetType: '1001', createdBy: USER }, file: {} }, collection: C({ allowedAssetTypes: undefined }), status: 400, ok: false, notes: ['the file type (extension) is checked by the service'] },
    { name: 'item removal of an item it holds', kind: itemRemove, params: { ...write, itemId: 'i1' }, items: [{ assetItemId: 'i1', parentCollections: ['C'] }], status: 200, ok: true },
    { name: 'item removal of an item with no parents listed (this collection)', kind: itemRemove, params: { ...write, itemId: 'i1' }, items: [{ assetItemId: 'i1' }], status: 200, ok: true },
    { name: 'item removal of an item it does not hold', kind: itemRemove, params: { ...write, itemId: 'i9' }, status: 404, ok: false },
    { name: 'item removal from a missing collection', kind: itemRemove, params: { ...write, itemId: 'i1' }, collection: 'missing', status: 400, ok: false, notFound: true, current: { item: null } },
    { name: 'item converge', kind: itemConverge, params: { ...write, uploaded: [] }, status: 200, ok: true, current: null, notes: ['copies made by another run at the same time are found once the uploads are done'] },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.status}`, async () => {
      const service = new FakeService();
      if (row.collection === 'missing') service.collection = undefined;
      else if (row.collection) service.collection = row.collection;
      else service.collection = C();
      service.deployments = row.deployments;
      service.items = row.items ?? [];
      const prediction = await row.kind.predict(row.params, service.client());
      expect([prediction.decision.ok, prediction.decision.status]).toEqual([row.ok, row.status]);
      if (row.notFound !== undefined) expect(prediction.decision).toMatchObject({ kind: 'not-found', resource: 'collection' });
      if (row.current !== undefined) expect(prediction.current).toEqual(row.current);
      // What was read is shown, whatever the rule decided.
      else expect(prediction.current).toEqual(row.collection === 'missing' ? null : expect.objectContaining({ deleted: expect.any(Boolean) }));
      expect(prediction.notes).toEqual(row.notes);
    });
  }

  it('a create predicts the new record in the domain of the client (none: empty)', async () => {
    const service = new FakeService();
    service.collection = undefined;
    const params = { collectionId: 'C', body: { collectionId: 'C', collectionName: 'C', allowedAssetTypes: ['1001'], createdBy: USER } };
    expect((await collectionCreate.predict(params, service.client())).decision).toMatchObject({ next: { domainId: 'd' } });
    service.domainId = undefined;
    expect((await collectionCreate.predict(params, service.client())).decision).toMatchObject({ next: { domainId: '' } });
  });

  it('copies made by another run are predicted as none', async () => {
    expect((await itemConverge.predict({ ...write, uploaded: [] }, new FakeService().client())).decision).toMatchObject({ ok: true, status: 200, next: { duplicates: [] } });
  });

  it('what "current" shows: the collection, the item removed, the items a purge reads', async () => {
    const service = new FakeService();
    service.collection = C({ deleted: true, assetItems: ['i1'] });
    service.items = [{ assetItemId: 'i1', parentCollections: ['C', 'D'] }];
    const purge = await collectionPurge.predict(write, service.client());
    expect(purge.current).toMatchObject({ items: [{ assetItemId: 'i1', parentCollections: ['C', 'D'] }] });
    service.collection = C();
    const removal = await itemRemove.predict({ ...write, itemId: 'i1' }, service.client());
    expect(removal.current).toMatchObject({ item: { assetItemId: 'i1', parentCollections: ['C', 'D'] } });
    const none = await itemRemove.predict({ ...write, itemId: 'i9' }, service.client());
    expect(none.current).toMatchObject({ item: null });
    service.collection = undefined;
    expect((await itemRemove.predict({ ...write, itemId: 'i1' }, service.client())).current).toEqual({ item: null });
    expect(service.reads.filter((path) => path.endsWith('/items/i1'))).toHaveLength(1);
  });
});

describe('settling reads', () => {
  const rows: Array<{ name: string; kind: Kind; params: Record<string, unknown>; collection?: Record<string, unknown> | 'missing'; deployments?: Record<string, 'LIVE' | 'OFFLINE'>; since?: boolean; applied: boolean | 'unknown'; how?: string; result?: unknown }> = [
    { name: 'create: missing', kind: collectionCreate, params: { collectionId: 'C', body: { createdBy: USER } }, collection: 'missing', applied: false, how: 'GET /vc/C says it does not exist' },
    { name: 'create: made by us since', kind: collectionCreate, params: { collectionId: 'C', body: { createdBy: USER } }, applied: true, how: `collection C exists, created by ${USER}` },
    { name: 'create: made before', kind: collectionCreate, params: { collectionId: 'C', body: { createdBy: USER } }, since: false, applied: false, how: `collection C exists, created by ${USER} at 2026-01-01T00:00:00Z: not by this command` },
    { name: 'create: made by another', kind: collectionCreate, params: { collectionId: 'C', body: { createdBy: 'x@example.com' } }, applied: false, how: `collection C exists, created by ${USER} at 2026-01-01T00:00:00Z: not by this command` },
    { name: 'delete: deleted', kind: collectionDelete, params: write, collection: C({ deleted: true }), applied: true, how: 'a read of collection C shows it deleted', result: { message: 'Asset collection C has been deleted.' } },
    { name: 'delete: not deleted', kind: collectionDelete, params: write, applied: false, how: 'a read of collection C shows it not deleted' },
    { name: 'delete: gone altogether', kind: collectionDelete, params: write, collection: 'missing', applied: false, how: 'a read of collection C shows it not deleted' },
    { name: 'restore: restored', kind: collectionRestore, params: write, applied: true, how: 'a read of collection C shows it restored', result: { message: 'Asset collection C has been restored.' } },
    { name: 'restore: still deleted', kind: collectionRestore, params: write, collection: C({ deleted: true }), applied: false, how: 'a read of collection C shows it not restored' },
    { name: 'restore: missing', kind: collectionRestore, params: write, collection: 'missing', applied: false, how: 'a read of collection C shows it not restored' },
    { name: 'purge: gone', kind: collectionPurge, params: write, collection: 'missing', applied: true, how: 'a read of collection C shows it gone', result: { message: 'Asset collection C has been purged.' } },
    { name: 'purge: still there', kind: collectionPurge, params: write, collection: C({ deleted: true }), applied: false, how: 'a read of collection C shows it not gone' },
    { name: 'undeploy: no record left', kind: collectionUndeploy, params: { ...write, envId: 'prod' }, deployments: { qa: 'LIVE' }, applied: true, how: 'a read of collection C shows it undeployed from prod', result: { message: 'Asset collection C has been undeployed.' } },
    { name: 'undeploy: still LIVE', kind: collectionUndeploy, params: { ...write, envId: 'prod' }, deployments: { prod: 'LIVE' }, applied: false, how: 'a read of collection C shows it not undeployed from prod' },
    { name: 'undeploy: collection missing', kind: collectionUndeploy, params: { ...write, envId: 'prod' }, collection: 'missing', applied: false, how: 'a read of collection C shows it not undeployed from prod' },
    { name: 'deploy: in that state', kind: collectionDeploy, params: { ...write, state: 'LIVE', envId: 'prod' }, deployments: { prod: 'LIVE' }, applied: true, how: 'a read of collection C shows it LIVE in prod', result: { message: 'collection C is LIVE in prod' } },
    { name: 'deploy: not in that state', kind: collectionDeploy, params: { ...write, state: 'LIVE', envId: 'prod' }, deployments: { prod: 'OFFLINE' }, applied: false, how: 'a read of collection C shows it not LIVE in prod' },
    { name: 'deploy: missing collection', kind: collectionDeploy, params: { ...write, state: 'LIVE', envId: 'prod' }, collection: 'missing', applied: false, how: 'a read of collection C shows it not LIVE in prod' },
    { name: "deploy in the key's env: cannot tell", kind: collectionDeploy, params: { ...write, state: 'LIVE' }, applied: 'unknown' },
    { name: 'item remove: gone', kind: itemRemove, params: { ...write, itemId: 'i9' }, applied: true, how: 'GET /api/v2/d/vc/C/items/i9 no longer finds the item', result: { message: 'Asset Item removed successfully' } },
    { name: 'item remove: still there', kind: itemRemove, params: { ...write, itemId: 'i1' }, applied: false, how: 'GET /api/v2/d/vc/C/items/i1 still finds the item' },
  ];
  for (const row of rows) {
    it(`${row.name}: ${String(row.applied)}`, async () => {
      const service = new FakeService();
      if (row.collection === 'missing') service.collection = undefined;
      else if (row.collection) service.collection = row.collection;
      else service.collection = C();
      service.deployments = row.deployments;
      service.items = [{ assetItemId: 'i1', parentCollections: ['C'] }];
      service.madeSince = row.since ?? true;
      const settled = await row.kind.settle!(row.params, (await kindIO(service)).kio);
      expect(settled.applied).toBe(row.applied);
      if (row.how) expect((settled as { how: string }).how).toBe(row.how);
      if (row.result) expect((settled as { result: unknown }).result).toEqual(row.result);
      if (row.applied === 'unknown') expect(settled).toEqual({ applied: 'unknown', check: 'ahs collection status C' });
    });
  }

  it('item upload: one item of that name made since is this upload; none is not seen (yet)', async () => {
    const service = new FakeService();
    const params = { collectionId: 'C', fields: { assetItemName: 'a.png', assetType: '1001', createdBy: USER }, file: {} as never };
    service.items = [{ assetItemId: 'i1', assetItemName: 'a.png', createdAt: '2026-01-01T00:00:00Z' }];
    expect(await itemUpload.settle!(params, (await kindIO(service)).kio)).toMatchObject({ applied: true });
    service.items = [];
    expect(await itemUpload.settle!(params, (await kindIO(service)).kio)).toMatchObject({ applied: false, how: 'the collection shows no item named a.png created in C since the upload started' });
  });

  it('an item read that fails otherwise than 404 is the error', async () => {
    const service = new FakeService();
    service.items = [{ assetItemId: 'i1' }];
    service.failReads = 1;
    await expect(readItemParents(service.client(), 'C', 'i1')).rejects.toThrow('could not reach the service');
    service.readError = apiError(500, 'broken');
    service.failReads = 1;
    await expect(readItemParents(service.client(), 'C', 'i1')).rejects.toThrow('broken');
    expect(await readItemParents(service.client(), 'C', 'i1')).toEqual({ assetItemId: 'i1', parentCollections: ['C'] });
  });
});

describe('sends', () => {
  const rows: Array<{ name: string; params: Record<string, unknown>; status: number; format?: 'json' | 'table'; said: string }> = [
    { name: 'a 400 with no env named: the hint to name one', params: { ...write, state: 'LIVE' }, status: 400, said: 'hint: no environment was named. A domain-wide API key must name one: pass --env ENV (or set AHS_ENV, or envId in the profile); an environment-scoped key deploys to its own.' },
    { name: 'a 400 with an env named: no hint', params: { ...write, state: 'LIVE', envId: 'prod' }, status: 400, said: '' },
    { name: 'a 403 with --env', params: { ...write, state: 'LIVE', envId: 'prod', envSource: 'flag' }, status: 403, said: 'hint: a 403 here usually means the API key is scoped to another environment than prod (from --env).' },
    { name: 'a 403 with the envId option (the library)', params: { ...write, state: 'LIVE', envId: 'prod', envSource: 'option' }, status: 403, said: '(from the envId option)' },
    { name: 'a 403 with AHS_ENV', params: { ...write, state: 'LIVE', envId: 'prod', envSource: 'env' }, status: 403, said: '(from AHS_ENV)' },
    { name: 'a 403 with an answer to the prompt', params: { ...write, state: 'LIVE', envId: 'prod', envSource: 'prompt' }, status: 403, said: '(from your answer)' },
    { name: "a 403 with the profile's env", params: { ...write, state: 'LIVE', envId: 'prod' }, status: 403, said: "(from the profile's envId)" },
    { name: 'a 403 with no env named: no hint', params: { ...write, state: 'LIVE' }, status: 403, said: '' },
    { name: 'a 404: no hint', params: { ...write, state: 'LIVE', envId: 'prod' }, status: 404, said: '' },
    { name: 'a 400 in json: no hint (a document reader)', params: { ...write, state: 'LIVE' }, status: 400, format: 'json', said: '' },
  ];
  for (const row of rows) {
    it(`collection deploy, ${row.name}`, async () => {
      const service = new FakeService();
      const error = apiError(row.status);
      service.script('POST /api/v2/d/vc/C/deployments', error);
      const { kio, io } = await kindIO(service, row.format);
      await expect(collectionDeploy.send!(row.params as never, kio)).rejects.toBe(error);
      if (row.said) expect(io.err.text).toContain(row.said);
      else expect(io.err.text).toBe('');
    });
  }

  it('collection deploy: the answer, the body as requested', async () => {
    const service = new FakeService();
    service.script('POST /api/v2/d/vc/C/deployments', { downloadUrl: 'u' });
    expect(await collectionDeploy.send!({ ...write, state: 'LIVE', envId: 'prod' }, (await kindIO(service)).kio)).toEqual({ downloadUrl: 'u' });
    expect(service.sent[0]!.body).toEqual({ state: 'LIVE', createdBy: USER, updatedBy: USER, envId: 'prod' });
  });

  it('collection deploy: something else than an ApiError, no hint', async () => {
    const service = new FakeService();
    const error = new Error('boom');
    service.script('POST /api/v2/d/vc/C/deployments', error);
    const { kio, io } = await kindIO(service);
    await expect(collectionDeploy.send!({ ...write, state: 'LIVE' }, kio)).rejects.toBe(error);
    expect(io.err.text).toBe('');
  });

  const removals: Array<{ name: string; converge: boolean; error: Error; done: boolean; said?: string }> = [
    { name: 'converging, a 404: removed by another writer', converge: true, error: apiError(404), done: true, said: 'i1 (a.png) was removed from C already: another writer did it meanwhile' },
    { name: 'converging, a 400: the error', converge: true, error: apiError(400), done: false },
    { name: 'not converging, a 404: the error', converge: false, error: apiError(404), done: false },
  ];
  for (const row of removals) {
    it(`item remove, ${row.name}`, async () => {
      const service = new FakeService();
      service.script('DELETE /api/v2/d/vc/C/items/i1', row.error);
      const { kio, io } = await kindIO(service);
      const outcome = await itemRemove.send!({ ...write, itemId: 'i1', name: 'a.png', converge: row.converge }, kio).catch((error: Error) => error);
      if (row.done) {
        expect((outcome as { message: string }).message).toBe('Asset Item removed successfully');
        // Marked as another writer's: the journal leaves it to that writer's entry.
        expect(isByAnother(outcome)).toBe(true);
        expect(io.err.text.trim()).toBe(row.said);
      } else expect(outcome).toBe(row.error);
    });
  }

  it('item remove without a name, converging: says the id only', async () => {
    const service = new FakeService();
    service.script('DELETE /api/v2/d/vc/C/items/i1', apiError(404));
    const { kio, io } = await kindIO(service);
    await itemRemove.send!({ ...write, itemId: 'i1', converge: true }, kio);
    expect(io.err.text.trim()).toBe('i1 was removed from C already: another writer did it meanwhile');
    expect(service.sent[0]!.body).toEqual({ deletedBy: USER });
  });

  it('item upload: the multipart request to the collection', async () => {
    const dir = await temp('ahs-item-');
    await writeFile(join(dir, 'a.png'), 'png');
    const service = new FakeService();
    let body = '';
    service.script('POST /api/v2/d/vc/C/items', async (request: { stream?: { open(): AsyncIterable<Buffer> } }) => {
      for await (const chunk of request.stream!.open()) body += chunk.toString();
      return { assetItemId: 'i2' };
    });
    const answer = await itemUpload.send!({ collectionId: 'C', fields: { assetItemName: 'a.png', assetType: '1001', createdBy: USER }, file: { path: join(dir, 'a.png'), name: 'a.png', size: 3 } }, (await kindIO(service)).kio);
    expect(answer).toEqual({ assetItemId: 'i2' });
    expect(service.sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/v2/d/vc/C/items']);
    expect(body).toContain('name="assetFile"; filename="a.png"');
    expect(body).toContain('name="assetItemName"\r\n\r\na.png');
  });

  const item = (assetItemId: string, assetItemName: string, size: number, createdAt: string) => ({ assetItemId, assetItemName, size, createdAt });
  const converges: Array<{ name: string; uploaded: Array<{ name: string; size: number; itemId: string | undefined }>; replacing?: string[]; items: Array<Record<string, unknown>>; deleteError?: Error; removed: string[]; kept?: string[]; error?: boolean }> = [
    { name: 'no upload succeeded: nothing read', uploaded: [{ name: 'a', size: 1, itemId: undefined }], items: [], removed: [] },
    { name: 'ours is the only copy', uploaded: [{ name: 'a', size: 1, itemId: 'i2' }], items: [item('i2', 'a', 1, 't2')], removed: [] },
    { name: 'ours came first', uploaded: [{ name: 'a', size: 1, itemId: 'i1' }], items: [item('i2', 'a', 1, 't2'), item('i1', 'a', 1, 't1')], removed: [] },
    { name: 'another came first: ours removed', uploaded: [{ name: 'a', size: 1, itemId: 'i2' }], items: [item('i2', 'a', 1, 't2'), item('i1', 'a', 1, 't1')], removed: ['i2'], kept: ['i1'] },
    { name: 'same time: the lower id is kept', uploaded: [{ name: 'a', size: 1, itemId: 'i2' }], items: [item('i2', 'a', 1, 't1'), item('i1', 'a', 1, 't1')], removed: ['i2'], kept: ['i1'] },
    { name: 'same time, ours the lower id', uploaded: [{ name: 'a', size: 1, itemId: 'i1' }], items: [item('i2', 'a', 1, 't1'), item('i1', 'a', 1, 't1')], removed: [] },
    { name: 'another size or name is no copy', uploaded: [{ name: 'a', size: 1, itemId: 'i2' }], items: [item('i2', 'a', 1, 't2'), item('i1', 'a', 2, 't1'), item('i0', 'b', 1, 't0')], removed: [] },
    {
      name: 'the old item this run replaces, of the same size (--checksum) and still listed while its removal runs: no copy',
      uploaded: [{ name: 'a', size: 1, itemId: 'i2' }],
      replacing: ['i1'],
      items: [item('i2', 'a', 1, 't2'), item('i1', 'a', 1, 't1')],
      removed: [],
    },
    {
      name: 'beside the old item this run replaces, another run\'s copy came first: ours removed',
      uploaded: [{ name: 'a', size: 1, itemId: 'i2' }],
      replacing: ['i0'],
      items: [item('i2', 'a', 1, 't2'), item('i1', 'a', 1, 't1'), item('i0', 'a', 1, 't0')],
      removed: ['i2'],
      kept: ['i1'],
    },
    { name: 'our copy already gone (404): still said', uploaded: [{ name: 'a', size: 1, itemId: 'i2' }], items: [item('i2', 'a', 1, 't2'), item('i1', 'a', 1, 't1')], deleteError: apiError(404), removed: ['i2'], kept: ['i1'] },
    { name: 'removing our copy fails otherwise: the error', uploaded: [{ name: 'a', size: 1, itemId: 'i2' }], items: [item('i2', 'a', 1, 't2'), item('i1', 'a', 1, 't1')], deleteError: apiError(403), removed: [], error: true },
  ];
  for (const row of converges) {
    it(`item converge, ${row.name}`, async () => {
      const service = new FakeService();
      service.items = row.items;
      if (row.deleteError) service.script('DELETE /api/v2/d/vc/C/items/i2', row.deleteError);
      const { kio, io } = await kindIO(service);
      const outcome = await itemConverge.send!({ ...write, uploaded: row.uploaded, replacing: row.replacing }, kio).catch((error: Error) => error);
      if (row.error) return expect(outcome).toBe(row.deleteError);
      const { duplicates } = outcome as { duplicates: Array<{ name: string; removed: string; kept: { assetItemId: string } }> };
      expect(duplicates.map((d) => d.removed)).toEqual(row.removed);
      expect(duplicates.map((d) => d.kept.assetItemId)).toEqual(row.kept ?? []);
      expect(io.err.text.trim()).toBe(row.removed.map((id, i) => `another run uploaded a as ${row.kept![i]} meanwhile: this run's copy ${id} was removed`).join('\n'));
      if (row.items.length === 0) expect(service.reads).toEqual([]);
      if (row.removed.length) expect(service.sent[0]).toMatchObject({ method: 'DELETE', path: '/api/v2/d/vc/C/items/i2', body: { deletedBy: USER } });
    });
  }
});
