// One case per row of the spec's "Collection lifecycle" and "Collection
// deployment state" tables (asset-hosting-api-v2.md), plus the item rules.
import { describe, expect, it } from 'vitest';
import {
  decideCollectionCreate,
  decideCollectionDelete,
  decideCollectionDeploy,
  decideCollectionGet,
  decideCollectionPurge,
  decideCollectionReconcile,
  decideCollectionRestore,
  decideCollectionUndeploy,
  decideCollectionUpdate,
  decideDeployedUrl,
  decideDeploymentStatus,
  decideItemAdd,
  decideItemRemove,
  resolveCollectionDeployEnv,
  type CollectionSnapshot,
  type Decision,
} from '../../src/rules/index.js';

const ID = 'bundle';
const user = 'owner@demo.test';

function collection(extra: Partial<CollectionSnapshot> = {}): CollectionSnapshot {
  return { collectionId: ID, deleted: false, deployable: true, editable: true, itemCount: 1, maxAssets: 10, deployments: {}, ...extra };
}

function expectDecision(decision: Decision<unknown>, status: number, next?: unknown, title?: RegExp) {
  expect(decision.status).toBe(status);
  if (decision.ok) expect(decision.next).toEqual(next);
  else expect(decision.title).toMatch(title ?? /./);
}

describe('collection lifecycle table', () => {
  it('not present | create | valid body -> exists, deleted false', () => {
    expectDecision(decideCollectionCreate(ID, undefined), 201, 'exists');
  });
  it('exists, not deleted | delete | not Live anywhere -> deleted true, 200 with message', () => {
    const decision = decideCollectionDelete(ID, collection({ deployments: { dev: 'OFFLINE' } }));
    expectDecision(decision, 200, 'deleted');
    expect(decision.ok && decision.message).toBe('Asset collection bundle has been deleted.');
  });
  it('exists, not deleted | delete | Live somewhere -> 400, must be made OFFLINE first', () => {
    expectDecision(decideCollectionDelete(ID, collection({ deployments: { prod: 'LIVE' } })), 400, undefined, /is LIVE in prod and must be made OFFLINE first/);
  });
  it('deleted | delete | always -> 400 already deleted', () => {
    expectDecision(decideCollectionDelete(ID, collection({ deleted: true })), 400, undefined, /already deleted/);
  });
  it('deleted | restore -> deleted false, 200 with message', () => {
    const decision = decideCollectionRestore(ID, collection({ deleted: true }));
    expectDecision(decision, 200, 'exists');
    expect(decision.ok && decision.message).toBe('Asset collection bundle has been restored.');
  });
  it('not deleted | restore -> 400', () => {
    expectDecision(decideCollectionRestore(ID, collection()), 400, undefined, /not deleted/);
  });
  it('deleted | purge -> removed, with its deployments everywhere and its only-parent items; shared items kept', () => {
    const decision = decideCollectionPurge(ID, collection({ deleted: true, deployments: { dev: 'OFFLINE', prod: 'OFFLINE' } }), [
      { assetItemId: 'i1', parentCollections: [ID] },
      { assetItemId: 'i2', parentCollections: [ID, 'other'] },
    ]);
    expectDecision(decision, 200, 'removed');
    if (!decision.ok) return;
    expect(decision.message).toBe('Asset collection bundle has been purged.');
    expect(decision.effects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'removeDeployments', envIds: ['dev', 'prod'] }),
        expect.objectContaining({ kind: 'removeItems', itemIds: ['i1'] }),
        expect.objectContaining({ kind: 'detachItems', itemIds: ['i2'] }),
      ]),
    );
  });
  it('not deleted | purge -> 400', () => {
    expectDecision(decideCollectionPurge(ID, collection(), []), 400, undefined, /delete it before purging/);
  });
});

describe('collection deployment table', () => {
  const live = (extra: Partial<CollectionSnapshot> = {}) => collection({ deployments: { prod: 'LIVE' }, ...extra });

  it('no record | deploy LIVE | deployable with at least 1 item -> LIVE, 201', () => {
    expectDecision(decideCollectionDeploy(ID, collection(), { state: 'LIVE', envId: 'prod', createdBy: user }), 201, 'LIVE');
  });
  it('no record | deploy LIVE | not deployable -> 400', () => {
    expectDecision(decideCollectionDeploy(ID, collection({ deployable: false }), { state: 'LIVE', envId: 'prod', createdBy: user }), 400, undefined, /not deployable/);
  });
  it('no record | deploy LIVE | no items -> 400', () => {
    expectDecision(decideCollectionDeploy(ID, collection({ itemCount: 0 }), { state: 'LIVE', envId: 'prod', createdBy: user }), 400, undefined, /no items/);
  });
  it('LIVE | deploy OFFLINE | deployable with at least 1 item -> OFFLINE, record kept, 201 with message', () => {
    const decision = decideCollectionDeploy(ID, live(), { state: 'OFFLINE', envId: 'prod', updatedBy: user });
    expectDecision(decision, 201, 'OFFLINE');
    expect(decision.ok && decision.message).toBe('Asset collection is now OFFLINE.');
  });
  it('LIVE | deploy OFFLINE | no items -> 400', () => {
    expectDecision(decideCollectionDeploy(ID, live({ itemCount: 0 }), { state: 'OFFLINE', envId: 'prod', updatedBy: user }), 400, undefined, /no items/);
  });
  it('OFFLINE | deploy LIVE -> LIVE', () => {
    expectDecision(decideCollectionDeploy(ID, collection({ deployments: { prod: 'OFFLINE' } }), { state: 'LIVE', envId: 'prod', createdBy: user }), 201, 'LIVE');
  });
  it('LIVE in one or more envs | reconcile -> each Live env stays LIVE, 200', () => {
    const decision = decideCollectionReconcile(ID, collection({ deployments: { prod: 'LIVE', dev: 'LIVE', staging: 'OFFLINE' } }), user);
    expectDecision(decision, 200, 'LIVE');
    expect(decision.ok && decision.effects[0]).toMatchObject({ kind: 'redeploy', envIds: ['prod', 'dev'] });
  });
  it('LIVE | undeploy -> record removed', () => {
    const decision = decideCollectionUndeploy(ID, live(), 'prod', user);
    expectDecision(decision, 200, 'undeployed');
    expect(decision.ok && decision.message).toBe('Asset collection bundle has been undeployed.');
  });
  it('OFFLINE | undeploy -> 400', () => {
    expectDecision(decideCollectionUndeploy(ID, collection({ deployments: { prod: 'OFFLINE' } }), 'prod', user), 400, undefined, /not LIVE in prod/);
  });
  it('no record | undeploy -> 400', () => {
    expectDecision(decideCollectionUndeploy(ID, collection(), 'prod', user), 400, undefined, /not LIVE in prod/);
  });
  it('none Live anywhere | reconcile -> 400, never creates a deployment', () => {
    expectDecision(decideCollectionReconcile(ID, collection({ deployments: { prod: 'OFFLINE' } }), user), 400, undefined, /reconcile never creates/);
  });
});

describe('collection deployment: other rules of the error table', () => {
  it('deploy from a state that does not allow it: OFFLINE with no record -> 400', () => {
    expect(decideCollectionDeploy(ID, collection(), { state: 'OFFLINE', envId: 'prod', updatedBy: user }).status).toBe(400);
  });
  it('deploy LIVE where already LIVE -> 400 (already in the target state)', () => {
    expect(decideCollectionDeploy(ID, collection({ deployments: { prod: 'LIVE' } }), { state: 'LIVE', envId: 'prod', createdBy: user }).status).toBe(400);
  });
  it('deploy LIVE without createdBy -> 500', () => {
    expect(decideCollectionDeploy(ID, collection(), { state: 'LIVE', envId: 'prod' }).status).toBe(500);
  });
  it('deploy of a missing collection -> 400 not found', () => {
    expectDecision(decideCollectionDeploy(ID, undefined, { state: 'LIVE', envId: 'prod', createdBy: user }), 400, undefined, /not found/);
  });
  it('deployed URL where LIVE -> 200; taken OFFLINE or never deployed -> 400', () => {
    expect(decideDeployedUrl(ID, collection({ deployments: { prod: 'LIVE' } }), 'prod').status).toBe(200);
    expect(decideDeployedUrl(ID, collection({ deployments: { prod: 'OFFLINE' } }), 'prod').status).toBe(400);
    expect(decideDeployedUrl(ID, collection(), 'prod').status).toBe(400);
  });
  it('deployment status: missing or never deployed -> 404', () => {
    expect(decideDeploymentStatus(ID, undefined, false).status).toBe(404);
    expect(decideDeploymentStatus(ID, collection(), false).status).toBe(404);
    expect(decideDeploymentStatus(ID, collection(), true).status).toBe(200);
  });
  it.each([
    ['env-scoped key, no env named', 'prod', undefined, 'prod'],
    ['env-scoped key, its own env named', 'prod', 'prod', 'prod'],
    ['env-scoped key, another env named', 'prod', 'dev', 403],
    ['domain-wide key, env named', undefined, 'dev', 'dev'],
    ['domain-wide key, no env', undefined, undefined, 400],
  ])('target environment: %s', (_case, keyEnv, requested, expected) => {
    const result = resolveCollectionDeployEnv(keyEnv, requested);
    if (typeof expected === 'number') expect(result.ok ? 0 : result.status).toBe(expected);
    else expect(result.ok && result.envId).toBe(expected);
  });
});

describe('not found differs by endpoint', () => {
  it('GET of a missing collection -> 400', () => expect(decideCollectionGet(ID, undefined).status).toBe(400));
  // Thunks: decided inside the test, where a mutation tool sees which test reaches which line.
  it.each([
    ['update', () => decideCollectionUpdate(ID, undefined, {})],
    ['delete', () => decideCollectionDelete(ID, undefined)],
    ['restore', () => decideCollectionRestore(ID, undefined)],
    ['purge', () => decideCollectionPurge(ID, undefined, [])],
  ])('%s of a missing collection -> 404', (_verb, decide) => expect(decide().status).toBe(404));
});

describe('collection update', () => {
  it.each(['assetItems', 'deleted', 'collectionId', 'allowedAssetTypes', 'targetPlatform'])('%s in an update -> 400', (field) => {
    expectDecision(decideCollectionUpdate(ID, collection(), { [field]: 'x' }), 400, undefined, new RegExp(`${field} cannot be updated`));
  });
  it('maxAssets below the current item count -> 400', () => {
    expectDecision(decideCollectionUpdate(ID, collection({ itemCount: 3 }), { maxAssets: 2 }), 400, undefined, /below the collection's current item count 3/);
  });
  it('maxAssets equal to the item count -> 200', () => {
    expect(decideCollectionUpdate(ID, collection({ itemCount: 3 }), { maxAssets: 3 }).status).toBe(200);
  });
});

describe('items', () => {
  const types = { allowedAssetTypes: ['1001'] };
  it.each([
    ['an allowed type', collection(), { ...types, assetType: '1001' }, 201],
    ['type 9999 (Other), always allowed', collection(), { ...types, assetType: '9999' }, 201],
    ['a type the collection does not allow', collection(), { ...types, assetType: '1002' }, 400],
    ['no type', collection(), { ...types }, 400],
    ['a collection that is not editable', collection({ editable: false }), { ...types, assetType: '1001' }, 400],
    ['a full collection (item limit reached)', collection({ itemCount: 10, maxAssets: 10 }), { ...types, assetType: '1001' }, 400],
    ['a missing collection', undefined, { ...types, assetType: '1001' }, 400],
  ])('adding an item to %s', (_case, target, item, status) => {
    expect(decideItemAdd(ID, target, item).status).toBe(status);
  });
  it('removing a member item -> 200; its last collection removes it for good', () => {
    const decision = decideItemRemove(ID, collection(), { assetItemId: 'i1', parentCollections: [ID] }, 'i1');
    expect(decision.status).toBe(200);
    expect(decision.ok && decision.effects[0]?.kind).toBe('removeItems');
  });
  it('removing an item shared with another collection only detaches it', () => {
    const decision = decideItemRemove(ID, collection(), { assetItemId: 'i1', parentCollections: [ID, 'other'] }, 'i1');
    expect(decision.ok && decision.effects[0]?.kind).toBe('detachItems');
  });
  it('removing an item from a collection that is not editable -> 400', () => {
    expect(decideItemRemove(ID, collection({ editable: false }), { assetItemId: 'i1', parentCollections: [ID] }, 'i1').status).toBe(400);
  });
    it('removing an item that is not a member -> 404; from a missing collection -> 400', () => {
    expect(decideItemRemove(ID, collection(), { assetItemId: 'i1', parentCollections: ['other'] }, 'i1').status).toBe(404);
    expect(decideItemRemove(ID, undefined, undefined, 'i1').status).toBe(400);
  });
});

// The whole answer, as --dry-run prints it and the emulator applies it:
// status, next state, effects with their descriptions, message or title.
const refused = (status: number, title: string) => expect.objectContaining({ ok: false, status, title });
const deleted = collection({ deleted: true });
const member = (...parents: string[]) => ({ assetItemId: 'i1', parentCollections: parents });

describe('collection answers in full', () => {
  it.each([
    ['get of a collection', () => decideCollectionGet(ID, collection()), { ok: true, status: 200, next: 'exists', effects: [] }],
    ['get of a deleted collection', () => decideCollectionGet(ID, deleted), { ok: true, status: 200, next: 'deleted', effects: [] }],
    ['update', () => decideCollectionUpdate(ID, collection(), { collectionName: 'New' }), { ok: true, status: 200, next: 'exists', effects: [] }],
    ['update of a deleted collection', () => decideCollectionUpdate(ID, deleted, { description: 'x' }), { ok: true, status: 200, next: 'deleted', effects: [] }],
    ['update with a maxAssets that is not a number (the schema refuses it first)', () => decideCollectionUpdate(ID, collection({ itemCount: 3 }), { maxAssets: '2' }), { ok: true, status: 200, next: 'exists', effects: [] }],
    ['delete', () => decideCollectionDelete(ID, collection()), { ok: true, status: 200, next: 'deleted', effects: [], message: 'Asset collection bundle has been deleted.' }],
    ['restore', () => decideCollectionRestore(ID, deleted), { ok: true, status: 200, next: 'exists', effects: [], message: 'Asset collection bundle has been restored.' }],
    ['restore of a collection not deleted', () => decideCollectionRestore(ID, collection()), refused(400, 'Collection bundle is not deleted; only a deleted collection can be restored')],
    ['purge of a collection not deleted', () => decideCollectionPurge(ID, collection(), []), refused(400, 'Collection bundle is not deleted; delete it before purging it')],
    [
      'purge, deployed in two environments, one item of its own, one shared',
      () => decideCollectionPurge(ID, collection({ deleted: true, deployments: { dev: 'OFFLINE', prod: 'OFFLINE' } }), [member(ID), { assetItemId: 'i2', parentCollections: [ID, 'other'] }]),
      {
        ok: true,
        status: 200,
        next: 'removed',
        message: 'Asset collection bundle has been purged.',
        effects: [
          { kind: 'removeDeployments', envIds: ['dev', 'prod'], description: 'deployment records removed in dev, prod' },
          { kind: 'removeItems', itemIds: ['i1'], description: '1 item(s) removed for good (this was their only collection)' },
          { kind: 'detachItems', itemIds: ['i2'], description: '1 item(s) shared with other collections kept there' },
        ],
      },
    ],
    [
      'purge, never deployed, no shared item',
      () => decideCollectionPurge(ID, deleted, [member(ID)]),
      {
        ok: true,
        status: 200,
        next: 'removed',
        message: 'Asset collection bundle has been purged.',
        effects: [
          { kind: 'removeDeployments', envIds: [], description: 'no deployment records to remove' },
          { kind: 'removeItems', itemIds: ['i1'], description: '1 item(s) removed for good (this was their only collection)' },
        ],
      },
    ],
  ])('%s', (_case, decide, expected) => {
    expect(decide()).toStrictEqual(expected);
  });
});

describe('item answers in full', () => {
  const types = { allowedAssetTypes: ['1001', '1002'] };
  it.each([
    ['add', () => decideItemAdd(ID, collection({ itemCount: 3 }), { ...types, assetType: '1001' }), { ok: true, status: 201, next: { itemCount: 4 }, effects: [] }],
    ['add to a deleted collection', () => decideItemAdd(ID, deleted, { ...types, assetType: '1001' }), refused(400, 'Collection bundle is deleted; restore it first')],
    ['add to a collection not editable', () => decideItemAdd(ID, collection({ editable: false }), { ...types, assetType: '1001' }), refused(400, 'Collection bundle is not editable; set editable to true to add items')],
    ['add without a type', () => decideItemAdd(ID, collection(), { ...types }), refused(400, 'assetType is required')],
    ['add of a type not allowed', () => decideItemAdd(ID, collection(), { ...types, assetType: '1003' }), refused(400, 'Asset type 1003 is not allowed in collection bundle; use one of 1001, 1002, 9999')],
    [
      'remove of its only collection',
      () => decideItemRemove(ID, collection({ itemCount: 3 }), member(ID), 'i1'),
      { ok: true, status: 200, next: { itemCount: 2 }, message: 'Asset Item removed successfully', effects: [{ kind: 'removeItems', itemIds: ['i1'], description: 'item i1 removed for good (this was its only collection)' }] },
    ],
    [
      'remove of a shared item',
      () => decideItemRemove(ID, collection({ itemCount: 3 }), member('a', ID, 'b'), 'i1'),
      { ok: true, status: 200, next: { itemCount: 2 }, message: 'Asset Item removed successfully', effects: [{ kind: 'detachItems', itemIds: ['i1'], description: 'item i1 detached; kept in a, b' }] },
    ],
    ['remove from a collection not editable', () => decideItemRemove(ID, collection({ editable: false }), member(ID), 'i1'), refused(400, 'Collection bundle is not editable; set editable to true to remove items')],
    ['remove from a deleted collection', () => decideItemRemove(ID, deleted, member(ID), 'i1'), refused(400, 'Collection bundle is deleted; restore it first')],
  ])('%s', (_case, decide, expected) => {
    expect(decide()).toStrictEqual(expected);
  });
});

describe('collection deployment answers in full', () => {
  const live = collection({ deployments: { prod: 'LIVE', dev: 'LIVE', qa: 'OFFLINE' } });
  it.each([
    ['deploy LIVE', () => decideCollectionDeploy(ID, collection(), { state: 'LIVE', envId: 'prod', createdBy: user }), { ok: true, status: 201, next: 'LIVE', effects: [] }],
    ['deploy OFFLINE', () => decideCollectionDeploy(ID, live, { state: 'OFFLINE', envId: 'prod', updatedBy: user }), { ok: true, status: 201, next: 'OFFLINE', effects: [], message: 'Asset collection is now OFFLINE.' }],
    ['deploy with another state', () => decideCollectionDeploy(ID, collection(), { state: 'DEFAULT', envId: 'prod', createdBy: user, updatedBy: user }), refused(400, 'state must be LIVE or OFFLINE (got DEFAULT)')],
    ['deploy LIVE without createdBy', () => decideCollectionDeploy(ID, collection(), { state: 'LIVE', envId: 'prod', updatedBy: user }), refused(500, 'createdBy is required to deploy a collection LIVE')],
    ['deploy OFFLINE without updatedBy', () => decideCollectionDeploy(ID, live, { state: 'OFFLINE', envId: 'prod', createdBy: user }), refused(500, 'updatedBy is required to take a collection OFFLINE')],
    [
      'reconcile',
      () => decideCollectionReconcile(ID, live, user),
      { ok: true, status: 200, next: 'LIVE', message: 'Asset collection bundle has been redeployed in 2 environment(s).', effects: [{ kind: 'redeploy', envIds: ['prod', 'dev'], description: 'Live deployment re-run in prod, dev' }] },
    ],
    ['reconcile without createdBy', () => decideCollectionReconcile(ID, live), refused(500, 'createdBy is required to reconcile a collection')],
    ['reconcile of a deleted collection', () => decideCollectionReconcile(ID, deleted, user), refused(400, 'Collection bundle is deleted; restore it first')],
    [
      'undeploy',
      () => decideCollectionUndeploy(ID, live, 'prod', user),
      {
        ok: true,
        status: 200,
        next: 'undeployed',
        message: 'Asset collection bundle has been undeployed.',
        effects: [{ kind: 'removeDeployments', envIds: ['prod'], description: 'deployment record in prod removed; only a fresh deploy makes it LIVE again' }],
      },
    ],
    ['undeploy without updatedBy', () => decideCollectionUndeploy(ID, live, 'prod'), refused(500, 'updatedBy is required to undeploy a collection')],
    ['undeploy where OFFLINE', () => decideCollectionUndeploy(ID, live, 'qa', user), refused(400, 'Collection bundle is not LIVE in qa (OFFLINE); only a LIVE deployment can be undeployed')],
    ['undeploy where never deployed', () => decideCollectionUndeploy(ID, live, 'staging', user), refused(400, 'Collection bundle is not LIVE in staging (not deployed); only a LIVE deployment can be undeployed')],
    ['undeploy from a deleted collection', () => decideCollectionUndeploy(ID, deleted, 'prod', user), refused(400, 'Collection bundle is deleted; restore it first')],
    ['deployed URL where LIVE', () => decideDeployedUrl(ID, live, 'prod'), { ok: true, status: 200, next: 'LIVE', effects: [] }],
    ['deployed URL where OFFLINE', () => decideDeployedUrl(ID, live, 'qa'), refused(400, 'No deployed URL for collection bundle in qa; it is OFFLINE there')],
    ['deployed URL where never deployed', () => decideDeployedUrl(ID, live, 'staging'), refused(400, 'No deployed URL for collection bundle in staging; it is not deployed there')],
    ['deployed URL of a deleted collection', () => decideDeployedUrl(ID, deleted, 'prod'), refused(400, 'Collection bundle is deleted; restore it first')],
    ['deployment status', () => decideDeploymentStatus(ID, live, true), { ok: true, status: 200, next: 'status', effects: [] }],
  ])('%s', (_case, decide, expected) => {
    expect(decide()).toStrictEqual(expected);
  });
});
