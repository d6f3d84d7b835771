// rules/limits.ts checks an upload's fields without zod, so that item sync
// may read before it loads zod (commands/item/sync.ts): it must never say
// "they fit" of fields the schema refuses.
import { describe, expect, it } from 'vitest';
import { itemUploadFieldsFit } from '../../src/rules/limits.js';
import { itemUploadFields } from '../../src/rules/schemas.js';

const names = ['a', 'file.zip', 'n'.repeat(64), 'n'.repeat(65), '', ' ', 'évian.txt', '\u{1F600}'.repeat(32), '\u{1F600}'.repeat(33)];
const types = ['1001', '', 't'.repeat(64), 't'.repeat(65)];
const users = ['owner@demo.test', 'a@b', 'not-an-address', '@b', 'a@', 'a b@c', 'a@b c', ''];

describe('itemUploadFieldsFit', () => {
  it('says they fit only of fields the schema takes, and of every ASCII one it takes, at and around the limits', () => {
    for (const assetItemName of names) {
      for (const assetType of types) {
        for (const createdBy of users) {
          const fields = { assetItemName, assetType, createdBy };
          const taken = itemUploadFields.safeParse(fields).success;
          // Lengths in UTF-16 units, never fewer than the schema's characters: a name of 33 emoji is checked by the schema first.
          const exact = /^[\x00-\x7f]*$/.test(assetItemName);
          expect([fields, itemUploadFieldsFit(fields)]).toEqual([fields, exact ? taken : itemUploadFieldsFit(fields) && taken]);
        }
      }
    }
  });
});
