// What every rule returns (rules/decision.ts): the allowed answer as a value
// and the four-field error body the emulator sends for a rejection
// (emulator.md, "Choices where the spec is silent").
import { describe, expect, it } from 'vitest';
import { allow, assetNotFound, errorBody } from '../../src/rules/index.js';

describe('allow: the answer of a request the rules accept', () => {
  it.each([
    ['no effects, no message', allow(204, 'deleted'), { ok: true, status: 204, next: 'deleted', effects: [] }],
    [
      'a confirmation message the spec fixes',
      allow(200, 'exists', [], 'Asset collection c has been restored.'),
      { ok: true, status: 200, next: 'exists', effects: [], message: 'Asset collection c has been restored.' },
    ],
    [
      'effects beyond the named record',
      allow(201, 'DEFAULT', [{ kind: 'demote', versionId: 'IOS1', to: 'LIVE', description: 'previous Default IOS1 becomes LIVE' }]),
      { ok: true, status: 201, next: 'DEFAULT', effects: [{ kind: 'demote', versionId: 'IOS1', to: 'LIVE', description: 'previous Default IOS1 becomes LIVE' }] },
    ],
  ])('%s', (_case, allowed, expected) => {
    // Strict: no `message: undefined` key where the spec fixes no message.
    expect(allowed).toStrictEqual(expected);
  });
});

describe('errorBody: type, title, status and detail', () => {
  it('carries the rejection title as title and detail', () => {
    expect(errorBody(assetNotFound('app', 'demo'))).toStrictEqual({
      type: 'https://errors.asset-hosting.example/problem',
      title: 'Virtual Asset app not found in domain demo',
      status: 404,
      detail: 'Virtual Asset app not found in domain demo',
    });
  });
});
