// ahs lists names, ids and timestamps in one order on every machine: by code
// units, whatever the locale (src/order.ts).
import { describe, expect, it } from 'vitest';
import { compareText } from '../../src/order.js';

describe('compareText', () => {
  it('orders by code units, as LC_ALL=C sort does, not by a locale', () => {
    expect(['b.zip', 'B.zip', 'a.zip', 'A.zip', 'é.zip', 'z.zip', '_x.zip'].sort(compareText)).toEqual(['A.zip', 'B.zip', '_x.zip', 'a.zip', 'b.zip', 'z.zip', 'é.zip']);
  });

  it('orders ISO timestamps in time order, and says when two are equal', () => {
    expect(['2026-01-02T00:00:00Z', '2025-12-31T23:59:59Z'].sort(compareText)).toEqual(['2025-12-31T23:59:59Z', '2026-01-02T00:00:00Z']);
    expect(compareText('item-1', 'item-1')).toBe(0);
  });
});
