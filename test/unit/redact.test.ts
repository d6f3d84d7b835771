// Every encoded form of a key is redacted, in the middle of other text and in
// JSON that must stay JSON.
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/http/redact.js';
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
    expect(redactor.redact('x demo-key-1234 y')).toBe('x *** y');
  });

  // Forms beyond the contract's, and corners of finding them.
  const corners: Array<[string, string[], string, string]> = [
    ['a key ending in % takes %25 whole, double-encoded too', ['key100%'], 'a key100%25 b key100%2525 c key100% d', 'a *** b *** c *** d'],
    ['a key holding %25, in its encodings', ['pct%25key'], 'x pct%2525key y pct%252525key z pct%25key', 'x *** y *** z ***'],
    ['a key holding a backslash, JSON-escaped once and twice', ['back\\slash'], 'x back\\\\slash y back\\\\\\\\slash z back\\slash', 'x *** y *** z ***'],
    ['a key ending in a backslash, JSON-escaped', ['end-key\\'], '"end-key\\\\" and end-key\\\\\\\\', '"***" and ***'],
    ['a key beyond the BMP, as a surrogate pair, UTF-8 bytes and entities', ['key😀smile'], 'a key\\ud83d\\ude00smile b key%F0%9F%98%80smile c key&#128512;smile d key&#x1F600;smile e key😀smile f key&#x1f600;smile', 'a *** b *** c *** d *** e *** f ***'],
    ['every character as \\uXXXX, either case', ['k/y é'], '\\u006b\\u002f\\u0079\\u0020\\u00e9 \\u006B\\u002F\\u0079\\u0020\\u00E9', '*** ***'],
    ['a space as + or %20, in lower-case hex too', ['a key/é'], 'a+key%2F%C3%A9 a%20key%2f%c3%a9 a+key/%C3%A9', '*** *** ***'],
    ['a partial key followed by the full key', ['demo-key-1234'], 'demo-key-demo-key-1234. demo-key-123%64emo-key-1234', 'demo-key-***. demo-key-123%64emo-key-1234'],
    ['adjacent keys, and overlapping ones', ['demo-key-1234', 'abab'], 'demo-key-1234demo-key-1234|demo-key-1234demo-key-123|ababab', '******|***demo-key-123|***ab'],
    ['two keys side by side, either order', ['key-one-1', 'key-two-2'], 'key-one-1key-two-2 key-two-2key-one-1', '****** ******'],
    ['base64 with or without its padding', ['demo-key'], 'ZGVtby1rZXk= ZGVtby1rZXk.', '*** ***.'],
    ['HTML entities, escaped again, decimal and hex in either case', ['a&b<c"d\''], 'a&amp;amp;b&amp;lt;c&amp;quot;d&amp;#39; a&#38;b&#60;c&#34;d&#39; a&#x26;b&#x3C;c&#x22;d&#x27; a&#x26;b&#x3c;c&#x22;d&#x27; a&amp;b&lt;c&quot;d&apos;', '*** *** *** *** ***'],
    ['hex in either case', ['demo-key'], '64656d6f2d6b6579 64656D6F2D6B6579', '*** ***'],
  ];
  for (const [name, keys, text, expected] of corners) {
    it(`redacts ${name}`, () => {
      const redactor = new Redactor();
      for (const key of keys) redactor.add(key);
      expect(redactor.redact(text)).toBe(expected);
    });
  }

  it('redacts the base64 of a key inside a longer base64 text, at each of its three alignments', () => {
    const key = 'k"ey/with+plus and%25sp';
    const redactor = new Redactor();
    redactor.add(key);
    for (const before of ['', 'u', 'us', 'user:']) {
      for (const alphabet of ['base64', 'base64url'] as const) {
        const text = Buffer.from(`${before}${key}:after`).toString(alphabet);
        const shown = redactor.redact(text);
        expect(shown).toContain('***');
        // What is left of the key's encoding: at most the characters it shares with its neighbours.
        expect(shown.length).toBeLessThanOrEqual(text.length - Math.floor((key.length * 8) / 6) + 3 + 2);
        expect(Buffer.from(shown.replace('***', ''), alphabet).toString('latin1')).not.toContain(key);
      }
    }
  });

  it('redacts a 2,000-character secret written in \\u escapes, character by character', () => {
    // The RegExp of its forms was too large for V8 ("Invalid regular expression: Stack overflow") at any line.
    const secret = 'abcdefghij'.repeat(200);
    const redactor = new Redactor();
    redactor.add(secret);
    const escaped = [...secret].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('');
    expect(redactor.redact(`password ${escaped} refused`)).toBe('password *** refused');
    expect(redactor.redact('no secret here')).toBe('no secret here');
  });

  // Texts that made the old matcher back off over and over (30 escaped backslashes never ended, 20,000
  // backslashes before a near-key took 7 s): checked in linear time now, and redacted.
  it.each([
    ['a key of backslashes, each escaped twice', '\\'.repeat(30), `x ${'\\\\\\\\'.repeat(30)} y\n`, 'x *** y\n'],
    ['20,000 backslashes before all of a key but its last letter', 'k'.repeat(32), `${'\\'.repeat(20_000)}${'k'.repeat(31)}`, `${'\\'.repeat(20_000)}${'k'.repeat(31)}`],
    ['20,000 backslashes before a key', 'k'.repeat(32), `${'\\'.repeat(20_000)}${'k'.repeat(32)}`, `${'\\'.repeat(20_000)}***`],
  ])('checks a text built to make a matcher back off in linear time: %s', (_case, key, text, expected) => {
    const redactor = new Redactor();
    redactor.add(key);
    redactor.redact('warm up');
    const started = performance.now();
    const shown = redactor.redact(text);
    const took = performance.now() - started;
    expect(shown).toBe(expected);
    expect(took).toBeLessThan(100);
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

