// Defaults and small rules stated once in src/rules, for the CLI and the emulator.
import { describe, expect, it } from 'vitest';
import { ASSET_DEFAULTS, canAct, COLLECTION_DEFAULTS, createdAsset, decideAnchor, effectiveAnchor, PAGING } from '../../src/rules/index.js';

describe('defaults', () => {
  it('are the spec values', () => {
    expect(ASSET_DEFAULTS).toEqual({ secured: true, localCacheControl: false, localCacheMaxAge: 30 });
    expect(COLLECTION_DEFAULTS).toMatchObject({ editable: true, deployable: true, secured: true, targetPlatform: 'generic', localCacheMaxAge: 30 });
    expect(PAGING).toEqual({ defaultPageNumber: 1, defaultPageSize: 50, maxPageSize: 500 });
  });

  it('only an active owner or admin may act', () => {
    expect(canAct({ role: 'owner', active: true })).toBe(true);
    expect(canAct({ role: 'admin', active: true })).toBe(true);
    expect(canAct({ role: 'admin', active: false })).toBe(false);
    expect(canAct({ role: 'viewer', active: true })).toBe(false);
  });

  it.each([
    ['an item of the collection', 'item-2', undefined],
    ['none (left out)', undefined, undefined],
    ['cleared with an empty string', '', undefined],
    ['an item of another collection', 'item-9', 'anchorAsset: item item-9 not found in collection c; name one of its items'],
  ])('anchor set to %s', (_case, anchor, title) => {
    expect(decideAnchor('c', anchor, ['item-1', 'item-2'])?.title).toBe(title);
  });

  it.each([
    ['a member anchor is shown', 'item-2', ['item-1', 'item-2'], 'item-2'],
    ['an anchor no longer a member falls back to the first item', 'gone', ['item-1', 'item-2'], 'item-1'],
    ['a cleared anchor falls back to the first item', '', ['item-1', 'item-2'], 'item-1'],
    ['no anchor, no items: none', null, [], undefined],
  ])('delivery anchor: %s', (_case, anchor, items, shown) => {
    expect(effectiveAnchor(anchor, items)).toBe(shown);
  });

  it('the anchor is one of the collection items; the delivery document falls back to the first', () => {
    expect(decideAnchor('c', 'item-2', ['item-1', 'item-2'])).toBeUndefined();
    expect(decideAnchor('c', '', ['item-1'])).toBeUndefined();
    expect(decideAnchor('c', 'item-9', ['item-1'])).toMatchObject({ status: 400, kind: 'not-found', resource: 'item', code: 'anchorNotInCollection' });
    expect(effectiveAnchor('item-2', ['item-1', 'item-2'])).toBe('item-2');
    expect(effectiveAnchor('gone', ['item-1'])).toBe('item-1');
    expect(effectiveAnchor(null, [])).toBeUndefined();
  });
});

describe('createdAsset: what a read of a new asset shows (spec, Virtual asset)', () => {
  const at = '2026-11-02T10:00:00.000Z';
  const base = { assetId: 'app', assetName: 'App', assetType: '1001', createdBy: 'owner@demo.test' };
  const common = { assetId: 'app', assetName: 'App', assetType: '1001', createdBy: 'owner@demo.test', active: true, createdAt: at, updatedAt: at };

  it.each([
    ['fields left out get the defaults; updatedBy is the creator', base, { ...common, secured: true, localCacheControl: false, localCacheMaxAge: 30, updatedBy: 'owner@demo.test' }],
    [
      'fields sent are kept',
      { ...base, secured: false, localCacheControl: true, localCacheMaxAge: 600, updatedBy: 'admin@demo.test' },
      { ...common, secured: false, localCacheControl: true, localCacheMaxAge: 600, updatedBy: 'admin@demo.test' },
    ],
  ])('%s', (_case, body, expected) => {
    expect(createdAsset(body, at)).toStrictEqual(expected);
  });
});
