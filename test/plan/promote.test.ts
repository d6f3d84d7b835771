// What the promotions share (src/service/promote.ts), by table: the DEFAULT
// body over the channel as read, --expect-current as a compare-and-set and
// its parsing, and the channel predicted after a LIVE deploy.
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/errors.js';
import { afterLive, channelName, checkExpected, parseExpected, promoteBody } from '../../src/service/promote.js';
import type { ChannelSnapshot, DeploymentState } from '../../src/rules/index.js';

const USER = 'rel@example.com';
const channel = (records: Record<string, DeploymentState>, extra: Partial<ChannelSnapshot> = {}): ChannelSnapshot => ({ records, formerDefaults: [], midDeployment: false, ...extra });

describe('promoteBody', () => {
  const rows: Array<[string, Record<string, DeploymentState>, string, Record<string, unknown>]> = [
    ['no Default yet', { IOS1: 'LIVE' }, 'IOS1', {}],
    ['another version is the Default: it is demoted to LIVE', { IOS1: 'DEFAULT', IOS2: 'LIVE' }, 'IOS2', { currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' }],
    ['the version is the Default already: nothing to demote', { IOS1: 'DEFAULT' }, 'IOS1', {}],
  ];
  for (const [name, records, versionId, extra] of rows) {
    it(name, () => {
      expect(promoteBody(channel(records), versionId, 'prod', USER)).toStrictEqual({ envId: 'prod', intent: 'DEFAULT', createdBy: USER, updatedBy: USER, ...extra });
    });
  }
});

describe('checkExpected (--expect-current)', () => {
  const rows: Array<[string, Record<string, DeploymentState>, string | null | undefined, string | undefined]> = [
    ['no check asked', { IOS1: 'DEFAULT' }, undefined, undefined],
    ['the expected Default holds', { IOS1: 'DEFAULT' }, 'IOS1', undefined],
    ['"none" holds with no Default', { IOS1: 'LIVE' }, null, undefined],
    ['another Default', { IOS2: 'DEFAULT' }, 'IOS1', 'the compare-and-set did not hold: the Default of A/ios/prod is IOS2, not IOS1 as expected; nothing was written'],
    ['no Default when one was expected', { IOS1: 'LIVE' }, 'IOS1', 'the compare-and-set did not hold: the Default of A/ios/prod is none, not IOS1 as expected; nothing was written'],
    ['a Default when none was expected', { IOS1: 'DEFAULT' }, null, 'the compare-and-set did not hold: the Default of A/ios/prod is IOS1, not none as expected; nothing was written'],
  ];
  for (const [name, records, expected, message] of rows) {
    it(`${name}: ${message ? 'exit 5' : 'holds'}`, () => {
      const check = () => checkExpected(channel(records), expected, channelName({ assetId: 'A', platform: 'ios', envId: 'prod' }));
      if (!message) return expect(check).not.toThrow();
      expect(check).toThrow(ConflictError);
      expect(check).toThrow(message);
      // As data for a library caller: what the compare-and-set expected and what it found.
      const found = Object.entries(records).find(([, state]) => state === 'DEFAULT')?.[0] ?? null;
      expect(() => check()).toThrow(expect.objectContaining({ expected, actual: found }));
    });
  }
});

describe('parseExpected', () => {
  const rows: Array<[string | undefined, string | null | undefined]> = [
    [undefined, undefined],
    ['none', null],
    ['NONE', null],
    ['IOS1', 'IOS1'],
    ['ios1', 'ios1'],
  ];
  for (const [value, parsed] of rows) {
    it(`${String(value)} → ${String(parsed)}`, () => expect(parseExpected(value)).toBe(parsed));
  }
});

describe('afterLive', () => {
  const body = { envId: 'prod', intent: 'LIVE' as const, createdBy: USER, updatedBy: USER };
  it('a version that can be deployed LIVE: the channel with it LIVE', () => {
    expect(afterLive(channel({ IOS1: 'DEFAULT' }), 'IOS2', body).records).toEqual({ IOS1: 'DEFAULT', IOS2: 'LIVE' });
  });
  it('a deploy the rules reject: the channel as it was', () => {
    const before = channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }, { midDeployment: true });
    expect(afterLive(before, 'IOS2', body)).toBe(before);
  });
});
