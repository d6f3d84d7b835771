// The list envelope is checked by hand (http/paging.ts: zod stays off a
// read's path, issue 14): one row per way an answer can miss the spec's shape.
import { describe, expect, it } from 'vitest';
import { envelopeSchema } from '../../src/http/paging.js';
import { assetSchema } from '../../src/rules/schemas.js';

const asset = {
  assetId: 'A1',
  assetName: 'app',
  assetType: '1',
  secured: false,
  localCacheControl: true,
  localCacheMaxAge: 60,
  createdBy: 'a@b.c',
  updatedBy: 'a@b.c',
  active: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const envelope = (fields: Record<string, unknown>) => ({ totalResults: 1, pageNumber: 1, pageSize: 50, results: [asset], ...fields });

function issueOf(value: unknown, item?: typeof assetSchema): string | undefined {
  const result = envelopeSchema(item).safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

describe('the list envelope check', () => {
  it.each([
    ['an envelope of the spec', envelope({}), undefined],
    ['extra fields', envelope({ nextPage: 'x' }), undefined],
    ['an empty page', envelope({ totalResults: 0, results: [] }), undefined],
    ['an array', [asset], ': expected an object, received an array'],
    ['null', null, ': expected an object, received null'],
    ['totalResults missing', envelope({ totalResults: undefined }), 'totalResults: expected a whole number of at least 0, received undefined'],
    ['totalResults a string', envelope({ totalResults: '1' }), 'totalResults: expected a whole number of at least 0, received string'],
    ['pageNumber negative', envelope({ pageNumber: -1 }), 'pageNumber: expected a whole number of at least 0, received -1'],
    ['pageSize a fraction', envelope({ pageSize: 2.5 }), 'pageSize: expected a whole number of at least 0, received 2.5'],
    ['results missing', envelope({ results: undefined }), 'results: expected an array, received undefined'],
    ['results an object', envelope({ results: {} }), 'results: expected an array, received object'],
  ])('%s', (_name, value, expected) => {
    expect(issueOf(value)).toBe(expected);
  });

  it('checks each result with the item schema, naming the result and its field', () => {
    expect(issueOf(envelope({}), assetSchema)).toBeUndefined();
    expect(issueOf(envelope({ results: [asset, { ...asset, assetName: 7 }] }), assetSchema)).toMatch(/^results\.1\.assetName: /);
  });
});
