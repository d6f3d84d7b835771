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
  it.each([
    ['update', decideCollectionUpdate(ID, undefined, {})],
    ['delete', decideCollectionDelete(ID, undefined)],
    ['restore', decideCollectionRestore(ID, undefined)],
    ['purge', decideCollectionPurge(ID, undefined, [])],
  ])('%s of a missing collection -> 404', (_verb, decision) => expect(decision.status).toBe(404));
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
