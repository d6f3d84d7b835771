// Defaults and small rules stated once in src/rules, for the CLI and the emulator.
import { describe, expect, it } from 'vitest';
import { ASSET_DEFAULTS, canAct, COLLECTION_DEFAULTS, decideAnchor, effectiveAnchor, PAGING } from '../../src/rules/index.js';

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

  it('the anchor is one of the collection items; the delivery document falls back to the first', () => {
    expect(decideAnchor('c', 'item-2', ['item-1', 'item-2'])).toBeUndefined();
    expect(decideAnchor('c', '', ['item-1'])).toBeUndefined();
    expect(decideAnchor('c', 'item-9', ['item-1'])).toMatchObject({ status: 400, kind: 'not-found', resource: 'item', code: 'anchorNotInCollection' });
    expect(effectiveAnchor('item-2', ['item-1', 'item-2'])).toBe('item-2');
    expect(effectiveAnchor('gone', ['item-1'])).toBe('item-1');
    expect(effectiveAnchor(null, [])).toBeUndefined();
  });
});
