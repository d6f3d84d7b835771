// The journal's entry format (src/service/journal-format.ts), table-driven:
// which documents are entries and why the others are unreadable, the file
// name that carries an entry and what a name says back, the nonce.
import { describe, expect, it } from 'vitest';
import { entryFileName, entryNonce, isShallowJson, NAME_MAX, parseEntry, readFileName, VALUE_DEPTH_MAX, type EntryDocumentV2 } from '../../src/service/journal-format.js';

const v1 = { apiVersion: 'ahs/journal/v1', command: 'release', arguments: ['my-bundle'], actor: 'a@b.c', changes: [], outcome: 'applied', exitCode: 0 };
const v2: EntryDocumentV2 = { apiVersion: 'ahs/journal/v2', id: 'abcdef0123456789', command: 'deploy', arguments: ['A', 'V1'], actor: 'a@b.c', changes: [{ address: 'channel.A.ios.prod', before: { default: 'V0' }, after: { default: 'V1' } }], outcome: 'applied', exitCode: 0 };

/** `depth` levels of arrays around a string. */
function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}
/** `depth` levels of objects around a string. */
function nestedObject(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { k: value };
  return value;
}

describe('a change value is JSON no deeper than the format writes', () => {
  const rows: Array<[string, unknown, boolean]> = [
    ['null', null, true],
    ['a string', 's', true],
    ['true', true, true],
    ['false', false, true],
    ['a number', 12.5, true],
    ['zero', 0, true],
    ['NaN', Number.NaN, false],
    ['Infinity', Number.POSITIVE_INFINITY, false],
    ['-Infinity', Number.NEGATIVE_INFINITY, false],
    ['undefined', undefined, false],
    ['a function', () => 1, false],
    ['a bigint', 1n, false],
    ['a symbol', Symbol('s'), false],
    ['an empty object', {}, true],
    ['an empty array', [], true],
    ['a NaN inside an array', [1, Number.NaN], false],
    ['a NaN inside an object', { a: { b: Number.NaN } }, false],
    ['undefined inside an object', { a: undefined }, false],
    [`arrays ${VALUE_DEPTH_MAX} deep`, nested(VALUE_DEPTH_MAX), true],
    [`arrays ${VALUE_DEPTH_MAX + 1} deep`, nested(VALUE_DEPTH_MAX + 1), false],
    [`objects ${VALUE_DEPTH_MAX} deep`, nestedObject(VALUE_DEPTH_MAX), true],
    [`objects ${VALUE_DEPTH_MAX + 1} deep`, nestedObject(VALUE_DEPTH_MAX + 1), false],
    ['a deep value after a shallow sibling', { a: 1, b: nested(VALUE_DEPTH_MAX + 1) }, false],
    ['a deep value before a shallow sibling', [nested(VALUE_DEPTH_MAX + 1), 1], false],
    ['100,000 levels (no stack overflow)', nested(100_000), false],
  ];
  it.each(rows)('%s', (_name, value, ok) => {
    expect(isShallowJson(value)).toBe(ok);
  });

  it('the depth is a parameter: 0 allows scalars only, 1 one level', () => {
    expect(isShallowJson('x', 0)).toBe(true);
    expect(isShallowJson([], 0)).toBe(false);
    expect(isShallowJson({}, 0)).toBe(false);
    expect(isShallowJson(['x'], 1)).toBe(true);
    expect(isShallowJson([['x']], 1)).toBe(false);
    expect(isShallowJson([[]], 1)).toBe(false);
  });
});

describe('an entry document is read with the one schema, or is unreadable with the first thing wrong', () => {
  it('reads both versions', () => {
    expect(parseEntry(v1)).toEqual({ ok: true, doc: v1 });
    expect(parseEntry(v2)).toEqual({ ok: true, doc: v2 });
  });

  const change = (c: unknown) => ({ ...v1, changes: [c] });
  const rows: Array<[string, unknown, RegExp]> = [
    ['not an object', 'entry', /^.+/],
    ['null', null, /^.+/],
    ['another apiVersion', { ...v1, apiVersion: 'ahs/journal/v9' }, /^apiVersion: /],
    ['a null change', change(null), /^changes\.0: /],
    ['an address that is a number', change({ address: 123, before: null, after: null }), /^changes\.0\.address: /],
    ['an empty address', change({ address: '', before: null, after: null }), /^changes\.0\.address: /],
    ['a value nested too deep', change({ address: 'asset.A', before: null, after: { a: nested(VALUE_DEPTH_MAX + 1) } }), /^changes\.0\.after: /],
    ['a channel Default that is an object', change({ address: 'channel.A.ios.prod', before: null, after: { default: { x: 1 } } }), /^changes\.0\.after: /],
    ['a channel Default before that is a number', change({ address: 'channel.A.ios.prod', before: { default: 5 }, after: null }), /^changes\.0\.before: /],
    ['a channel version that is empty', change({ address: 'channel.A.ios.prod', before: null, after: { version: '' } }), /^changes\.0\.after\.version: /],
    ['a channel state of 21 characters', change({ address: 'channel.A.ios.prod', before: null, after: { state: 'L'.repeat(21) } }), /^changes\.0\.after\.state: /],
    ['an outcome that is not one', { ...v1, outcome: 'maybe' }, /^outcome: /],
    ['an exit code of 256', { ...v1, exitCode: 256 }, /^exitCode: /],
    ['a v2 id of 7 characters', { ...v2, id: 'abc1234' }, /^id: /],
    ['a v2 id with a dot', { ...v2, id: 'abcd.efgh' }, /^id: /],
  ];
  it.each(rows)('%s', (_name, content, reason) => {
    const parsed = parseEntry(content);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('a channel value of the right types is read; only a channel address has its value typed', () => {
    expect(parseEntry(change({ address: 'channel.A.ios.prod', before: { default: null, state: null }, after: { version: 'V1', state: 'LIVE', extra: [1] } })).ok).toBe(true);
    expect(parseEntry(change({ address: 'asset.A', before: { default: { x: 1 } }, after: { default: 5 } })).ok).toBe(true);
    expect(parseEntry(change({ address: 'xchannel.A', before: null, after: { default: 5 } })).ok).toBe(true);
  });

  it('a reason without a path is the issue alone; one longer than 200 characters is cut there', () => {
    expect(parseEntry('entry')).toEqual({ ok: false, reason: 'Invalid input: expected object, received string' });
    const key = 'k'.repeat(300);
    const long = parseEntry({ ...v1, rollout: { asset: 'A', version: 'V', platform: 'p', waves: [], wave: 'w', action: 'live', [key]: Number.NaN } });
    expect(long).toEqual({ ok: false, reason: `rollout.${key}`.slice(0, 200) });
  });

  it('a reason names the path of the first issue, is at most 200 characters, and has no "path: " without a path', () => {
    const top = parseEntry('entry');
    expect(top.ok).toBe(false);
    if (!top.ok) expect(top.reason).not.toMatch(/^: /);
    if (!top.ok) expect(top.reason).not.toMatch(/^[a-z.0-9]+: /i);
    const long = parseEntry({ ...v1, command: 'c'.repeat(5000) });
    expect(long.ok).toBe(false);
    if (!long.ok) {
      expect(long.reason.startsWith('command: ')).toBe(true);
      expect(long.reason.length).toBeLessThanOrEqual(200);
    }
    const bad = parseEntry({ ...v1, changes: [{ address: 'channel.A', before: { default: 5 }, after: { default: 6 } }] });
    expect(bad).toEqual({ ok: false, reason: 'changes.0.before: Invalid input' });
  });
});

describe('an entry\'s file name carries its document when it fits', () => {
  it('the whole document, which reads back to the same document', () => {
    const name = entryFileName(v2);
    expect(name).toBe(`ahs2.${v2.id}.${Buffer.from(JSON.stringify(v2), 'utf8').toString('base64url')}.json`);
    expect(readFileName(name)).toEqual({ id: v2.id, doc: v2 });
  });

  it('a document too large for NAME_MAX: its id alone, and its content carries it', () => {
    const big: EntryDocumentV2 = { ...v2, arguments: ['x'.repeat(NAME_MAX)] };
    expect(entryFileName(big)).toBe(`ahs2.${v2.id}..json`);
    expect(readFileName(entryFileName(big))).toEqual({ id: v2.id });
  });

  it('a name of exactly NAME_MAX characters still carries the document, one more does not', () => {
    const nameOf = (doc: EntryDocumentV2) => `ahs2.${doc.id}.${Buffer.from(JSON.stringify(doc), 'utf8').toString('base64url')}.json`;
    // base64 skips some lengths: an id of 8 to 11 characters lands one of them on NAME_MAX exactly.
    let fits: EntryDocumentV2 | undefined;
    for (let n = 900; n < NAME_MAX && !fits; n++) {
      for (const id of ['abcd1234', 'abcd12345', 'abcd123456', 'abcd1234567']) {
        const doc = { ...v2, id, arguments: ['a'.repeat(n)] };
        if (nameOf(doc).length === NAME_MAX) fits = doc;
      }
    }
    expect(fits).toBeDefined();
    expect(entryFileName(fits!)).toBe(nameOf(fits!));
    expect(entryFileName(fits!).length).toBe(NAME_MAX);
    expect(readFileName(entryFileName(fits!)).doc).toEqual(fits);
    const over = { ...fits!, arguments: [`${fits!.arguments[0]}a`] };
    expect(nameOf(over).length).toBeGreaterThan(NAME_MAX);
    expect(entryFileName(over)).toBe(`ahs2.${over.id}..json`);
  });

  const encoded = (doc: unknown) => Buffer.from(JSON.stringify(doc), 'utf8').toString('base64url');
  const rows: Array<[string, unknown, { id?: string; doc?: unknown }]> = [
    ['not a string', 42, {}],
    ['an object that prints as a name', { toString: () => `ahs2.${v2.id}..json` }, {}],
    ['undefined', undefined, {}],
    ['entry.json (a v1 entry)', 'entry.json', {}],
    ['another prefix', `ahs3.${v2.id}.${encoded(v2)}.json`, {}],
    ['text before the prefix', `x-ahs2.${v2.id}.${encoded(v2)}.json`, {}],
    ['text after .json', `ahs2.${v2.id}.${encoded(v2)}.json.bak`, {}],
    ['an id of 7 characters', 'ahs2.abc1234..json', {}],
    ['an id of 33 characters', `ahs2.${'a'.repeat(33)}..json`, {}],
    ['an id of 32 characters', `ahs2.${'a'.repeat(32)}..json`, { id: 'a'.repeat(32) }],
    ['an id of 8 characters', 'ahs2.abcd1234..json', { id: 'abcd1234' }],
    ['an id with a dash', 'ahs2.abcd-1234..json', {}],
    ['a payload with a dot', `ahs2.${v2.id}.ab.cd.json`, {}],
    ['no payload', `ahs2.${v2.id}..json`, { id: v2.id }],
    ['a payload that is not JSON', `ahs2.${v2.id}.${Buffer.from('{not json').toString('base64url')}.json`, { id: v2.id }],
    ['a payload cut short by a service', `ahs2.${v2.id}.${encoded(v2).slice(0, 40)}.json`, { id: v2.id }],
    ['a payload of another id', `ahs2.${v2.id}.${encoded({ ...v2, id: 'zzzzzzzzzzzzzzzz' })}.json`, { id: v2.id }],
    ['a payload that is a v1 document', `ahs2.${v2.id}.${encoded(v1)}.json`, { id: v2.id }],
    ['a payload that does not parse as an entry', `ahs2.${v2.id}.${encoded({ ...v2, changes: [null] })}.json`, { id: v2.id }],
  ];
  it.each(rows)('%s', (_name, fileName, said) => {
    expect(readFileName(fileName)).toEqual(said);
  });
});

describe('an entry\'s nonce', () => {
  it('is 16 base-36 characters drawn from the random source', () => {
    expect(entryNonce(() => 0)).toBe('0'.repeat(16));
    expect(entryNonce(() => 0.999999)).toBe('z'.repeat(16));
    let i = 0;
    const digits = '0123456789abcdefghijklmnopqrstuvwxyz';
    expect(entryNonce(() => (i++ % 36) / 36 + 0.001)).toBe(digits.slice(0, 16));
    expect(entryNonce()).toMatch(/^[0-9a-z]{16}$/);
    expect(readFileName(`ahs2.${entryNonce()}..json`).id).toMatch(/^[0-9a-z]{16}$/);
  });
});
