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
    expect(redactor.redact('x %64%65mo-key-1234 y')).toBe('x *** y');
  });
});
