// Every encoded form of a key is redacted, in the middle of other text and in
// JSON that must stay JSON.
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/http/redact.js';
import { WITHHELD } from '../../src/http/redact-match.js';
import { HOSTILE_KEYS, keyEncodings } from '../support/key-encodings.js';

describe('Redactor', () => {
  for (const key of HOSTILE_KEYS) {
    const redactor = new Redactor();
    redactor.add(key);
    for (const [name, encoded] of Object.entries(keyEncodings(key))) {
      it(`redacts the ${name} form of ${JSON.stringify(key)}`, () => {
        expect(redactor.redact(`before ${encoded} after`)).toBe('before *** after');
      });
    }
  }

  it('keeps a JSON document valid around a JSON-escaped key', () => {
    const redactor = new Redactor();
    redactor.add(HOSTILE_KEYS[0]);
    const text = JSON.stringify({ detail: `key ${HOSTILE_KEYS[0]} refused`, nested: JSON.stringify({ key: HOSTILE_KEYS[0] }) });
    expect(JSON.parse(redactor.redact(text))).toEqual({ detail: 'key *** refused', nested: '{"key":"***"}' });
  });

  it('leaves text without the key alone, and other keys unknown to it', () => {
    const redactor = new Redactor();
    redactor.add('demo-key-1234');
    expect(redactor.redact('GET /va/demo-key-123 answered 403 %64emo')).toBe('GET /va/demo-key-123 answered 403 %64emo');
    expect(redactor.redact('x %64%65mo-key-1234 y')).toBe('x *** y');
  });

  // Corners a differential fuzz against the RegExp the matcher replaced
  // exercised (src/http/redact-match.ts): the same texts, the same results.
  const corners: Array<[string, string[], string, string]> = [
    ['a key ending in % takes %25 whole, double-encoded too', ['key100%'], 'a key100%25 b key100%2525 c key100% d', 'a *** b *** c *** d'],
    ['a key holding %25, in its encodings', ['pct%25key'], 'x pct%2525key y pct%252525key z pct%25key', 'x *** y *** z ***'],
    ['a key holding a backslash, JSON-escaped once and twice', ['back\\slash'], 'x back\\\\slash y back\\\\\\\\slash z back\\slash', 'x *** y *** z ***'],
    ['a key ending in a backslash takes the backslashes before it, not the letter after', ['end-key\\'], '"end-key\\\\" and end-key\\\\\\n', '"***" and ***n'],
    ['a key beyond the BMP, as a surrogate pair, UTF-8 bytes and entities', ['key😀smile'], 'a key\\ud83d\\ude00smile b key%F0%9F%98%80smile c key&#128512;smile d key&#x1F600;smile e key😀smile', 'a *** b *** c *** d *** e ***'],
    ['a partial key followed by the full key', ['demo-key-1234'], 'demo-key-demo-key-1234. demo-key-123%64emo-key-1234', 'demo-key-***. demo-key-123***'],
    ['adjacent keys, in one encoding or two', ['demo-key-1234'], 'demo-key-1234demo-key-1234|demo-key-1234%64emo-key-1234|demo-key-1234demo-key-123', '******|******|***demo-key-123'],
    ['two keys side by side, either order', ['key-one-1', 'key-two-2'], 'key-one-1key-two-2 key-two-2key-one-1', '****** ******'],
    ['two keys matching at one place: the one with the longer pattern is tried first, whatever their order', ['abcdA', 'abcd\\'], '<abcd\\u0041>', '<***u0041>'],
    ['the same two keys added the other way round', ['abcd\\', 'abcdA'], '<abcd\\u0041>', '<***u0041>'],
    ['base64 padding: at most two = go with the key', ['demo-key'], 'ZGVtby1rZXk= ZGVtby1rZXk====', '*** ***=='],
    ['HTML entities escaped again, with leading zeros', ['a&b<c"d'], 'a&amp;amp;b&amp;lt;c&amp;quot;d / a&#38;b&#x3C;c&#0034;d', '*** / ***'],
  ];
  for (const [name, keys, text, expected] of corners) {
    it(`redacts ${name}`, () => {
      const redactor = new Redactor();
      for (const key of keys) redactor.add(key);
      expect(redactor.redact(text)).toBe(expected);
    });
  }

  it('redacts a 2,000-character secret written in \\u escapes, character by character', () => {
    // The RegExp of its forms was too large for V8 ("Invalid regular expression: Stack overflow") at any line.
    const secret = 'abcdefghij'.repeat(200);
    const redactor = new Redactor();
    redactor.add(secret);
    const escaped = [...secret].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('');
    expect(redactor.redact(`password ${escaped} refused`)).toBe('password *** refused');
    expect(redactor.redact('no secret here')).toBe('no secret here');
  });

  // Texts built to make the matcher back off over and over: before its budget, 30 escaped backslashes did
  // not end, and 20,000 backslashes before a near-key took 7 s. Withheld now, never printed unchecked.
  it.each([
    ['a key of backslashes, each escaped twice', '\\'.repeat(30), `x ${'\\\\\\\\'.repeat(30)} y\n`],
    ['20,000 backslashes before all of a key but its last letter', 'k'.repeat(32), `${'\\'.repeat(20_000)}${'k'.repeat(31)}`],
  ])('withholds a text it cannot check within its budget: %s', (_case, key, text) => {
    const redactor = new Redactor();
    redactor.add(key);
    const shown = redactor.redact(text);
    expect(shown).toBe(text.endsWith('\n') ? `${WITHHELD}\n` : WITHHELD);
    expect(shown).not.toContain(key);
  });

  it('checks a long ordinary text whole: 400 KB of JSON with the key in it twice', () => {
    const redactor = new Redactor();
    redactor.add('demo-key-1234');
    const rows = Array.from({ length: 8000 }, (_, i) => ({ assetId: `a-${i}`, note: i % 4000 === 7 ? 'demo-key-1234' : 'x\\y "z" %25 &amp;' }));
    const shown = redactor.redact(JSON.stringify(rows));
    expect(shown.length).toBeGreaterThan(400_000);
    expect(shown.match(/\*\*\*/g)).toHaveLength(2);
    expect(shown).not.toContain('demo-key-1234');
  });
});

