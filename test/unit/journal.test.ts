// The journal's pure parts: entry names, the link between a full journal and
// the collection it continues in, the CI run, and history's filter.
import { describe, expect, it } from 'vitest';
import { ciRunOf, describeJournal, entryName, isEntryDocument, nextJournalId, parseJournalDescription } from '../../src/service/journal.js';
import { addressParts, matches, rolloutMatches } from '../../src/service/history.js';
import { changesOf } from '../../src/plan/journal-record.js';
import { OutcomeUnknownError } from '../../src/errors.js';
import type { Results, Step } from '../../src/plan/plan.js';

describe('journal entries', () => {
  it('are named by UTC time and command, at most 64 characters, safe as an item name', () => {
    const at = new Date('2026-11-27T19:41:24.123Z');
    expect(entryName('release', at)).toBe('2026-11-27T19:41:24.123Z release');
    const long = entryName(`collection-deploy ${'x'.repeat(80)}/é`, at);
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^2026-11-27T19:41:24\.123Z collection-deploy x+$/);
  });

  it('a full journal continues in ID--2, then ID--3, within the 50 characters of a collection id', () => {
    expect(nextJournalId('ahs-journal')).toBe('ahs-journal--2');
    expect(nextJournalId('ahs-journal--2')).toBe('ahs-journal--3');
    expect(nextJournalId('team-2024')).toBe('team-2024--2');
    expect(nextJournalId('j'.repeat(50))).toBe(`${'j'.repeat(47)}--2`);
    expect(parseJournalDescription(describeJournal({ envId: 'prod', next: 'ahs-journal--2' }))).toEqual({ envId: 'prod', next: 'ahs-journal--2' });
    expect(parseJournalDescription('something else')).toEqual({});
  });

  it('names the GitHub Actions run, and nothing outside CI', () => {
    expect(ciRunOf({ GITHUB_SERVER_URL: 'https://github.com/', GITHUB_REPOSITORY: 'a/b', GITHUB_RUN_ID: '9', GITHUB_SHA: 's', GITHUB_REF: 'r' })).toEqual({ runUrl: 'https://github.com/a/b/actions/runs/9', sha: 's', ref: 'r' });
    expect(ciRunOf({})).toBeUndefined();
    expect(isEntryDocument({ apiVersion: 'ahs/journal/v1', command: 'x', arguments: [], actor: 'a@b.c', changes: [], outcome: 'applied', exitCode: 0 })).toBe(true);
    expect(isEntryDocument({ apiVersion: 'ahs/journal/v1', command: 'x', changes: [] })).toBe(false);
    expect(isEntryDocument({ apiVersion: 'other', command: 'x', changes: [] })).toBe(false);
  });

  it('lists the answered steps and the unknown one, nothing of a step that failed or was not sent', () => {
    const promote: Step = { id: 'p', kind: 'version.promote', params: { assetId: 'A', platform: 'ios', envId: 'prod', versionId: 'V2', channel: { records: { V1: 'DEFAULT' } } } };
    const deploy: Step = { id: 'd', kind: 'version.deploy', params: { assetId: 'A', versionId: 'V3', platform: 'ios', body: { envId: 'prod', intent: 'LIVE' } } };
    const failed: Step = { id: 'f', kind: 'version.deploy', params: { assetId: 'A', versionId: 'V4', platform: 'ios', body: { envId: 'prod', intent: 'LIVE' } } };
    const answers = new Map<string, unknown>([['p', { previousDefault: 'V1', assetVersion: { versionId: 'V2' } }]]);
    // d: its answer was lost and no read could tell; f: refused (a plain failure, nothing applied).
    const failures = new Map<string, unknown>([
      ['d', { error: new OutcomeUnknownError('lost') }],
      ['f', { error: new Error('refused') }],
    ]);
    const results: Results = { of: (s) => answers.get(s.id) as never, has: (s) => answers.has(s.id), failureOf: (s) => failures.get(s.id) as never };
    const { changes, unknown } = changesOf([promote, deploy, failed], results);
    expect(unknown).toBe(true);
    expect(changes).toEqual([
      { address: 'channel.A.ios.prod', before: { default: 'V1' }, after: { default: 'V2' } },
      { address: 'channel.A.ios.prod', before: { version: 'V3', state: null }, after: { version: 'V3', state: 'LIVE' }, unknownBefore: ['state'], unknownAfter: ['state'] },
    ]);
  });
});

describe('history filter', () => {
  it('narrows to an asset or collection, a platform, an environment', () => {
    expect(addressParts('channel.A.ios.prod')).toEqual({ kind: 'channel', id: 'A', platform: 'ios', envId: 'prod' });
    expect(addressParts('collection.C.deployment.prod')).toEqual({ kind: 'collection', id: 'C', envId: 'prod' });
    const channel = { address: 'channel.A.ios.prod', before: null, after: { default: 'V1' } };
    const version = { address: 'version.A.V1', before: null, after: { platform: 'android' } };
    expect(matches(channel, { id: 'A', platform: 'ios', envId: 'prod' })).toBe(true);
    expect(matches(channel, { id: 'B' })).toBe(false);
    expect(matches(channel, { envId: 'dev' })).toBe(false);
    expect(matches(channel, { platform: 'android' })).toBe(false);
    expect(matches(version, { platform: 'android' })).toBe(true);
    expect(matches(version, { platform: 'ios' })).toBe(false);
    // A version upload belongs to no environment: an environment filter leaves it out.
    expect(matches(version, { envId: 'prod' })).toBe(false);
    expect(matches({ address: 'collection.C.deployment.prod', before: null, after: { state: 'LIVE' } }, { envId: 'prod' })).toBe(true);
    expect(matches({ address: 'collection.C', before: null, after: { description: 'x' } }, { envId: 'prod' })).toBe(false);
  });
});

describe("history filter: a rollout's own records (a halt, a supersede) concern its asset, platform and wave", () => {
  const rollout = (wave: string, action: 'intent' | 'halt' | 'supersede') => ({ rollout: { asset: 'A', version: 'V2', platform: 'web', waves: ['dev', 'staging', 'prod'], wave, action } });
  it.each([
    ['a halt at staging, no filter', rollout('staging', 'halt'), {}, true],
    ['its asset', rollout('staging', 'halt'), { id: 'A' }, true],
    ['another asset', rollout('staging', 'halt'), { id: 'B' }, false],
    ['its platform', rollout('staging', 'halt'), { platform: 'web' }, true],
    ['another platform', rollout('staging', 'halt'), { platform: 'ios' }, false],
    ['its wave', rollout('staging', 'halt'), { envId: 'staging' }, true],
    ['another wave of the rollout', rollout('staging', 'halt'), { envId: 'prod' }, false],
    ['all three', rollout('prod', 'halt'), { id: 'A', platform: 'web', envId: 'prod' }, true],
    ['an intent (the promotion\'s own entry follows it)', rollout('prod', 'intent'), {}, false],
    ['a supersede (wave *), one of its waves', rollout('*', 'supersede'), { envId: 'prod' }, true],
    ['a supersede, an environment not among its waves', rollout('*', 'supersede'), { envId: 'qa' }, false],
    ['an entry of no rollout', {}, {}, false],
  ])('%s', (_name, entry, filter, expected) => {
    expect(rolloutMatches(entry as Parameters<typeof rolloutMatches>[0], filter)).toBe(expected);
  });
});
