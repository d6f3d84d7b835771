// One case per row of the spec's "Version deployment state" table
// (asset-hosting-api-v2.md, "States and transitions"), in the table's order.
import { describe, expect, it } from 'vitest';
import {
  applyAssetUndeploy,
  applyVersionDeploy,
  decideVersionDeploy,
  emptyChannel,
  type ChannelSnapshot,
  type DeploymentState,
  type VersionDeployRequest,
} from '../../src/rules/index.js';

const by = { createdBy: 'owner@demo.test', updatedBy: 'owner@demo.test' };

function channel(records: Record<string, DeploymentState> = {}, extra: Partial<ChannelSnapshot> = {}): ChannelSnapshot {
  return { records, formerDefaults: [], midDeployment: false, ...extra };
}

interface Row {
  row: string;
  channel: ChannelSnapshot;
  request: VersionDeployRequest;
  status: number;
  next?: DeploymentState;
  demotes?: string;
  title?: RegExp;
}

const rows: Row[] = [
  { row: 'no record | deploy LIVE | createdBy sent -> LIVE, 201', channel: channel(), request: { versionId: 'IOS1', intent: 'LIVE', ...by }, status: 201, next: 'LIVE' },
  { row: 'no record | deploy OFFLINE | createdBy sent -> OFFLINE, 201', channel: channel(), request: { versionId: 'IOS1', intent: 'OFFLINE', ...by }, status: 201, next: 'OFFLINE' },
  { row: 'no record | deploy DEFAULT | always -> 404, only LIVE/OFFLINE on a first deploy', channel: channel(), request: { versionId: 'IOS1', intent: 'DEFAULT', ...by }, status: 404, title: /only LIVE or OFFLINE/ },
  { row: 'OFFLINE | deploy LIVE | updatedBy sent -> LIVE, 201', channel: channel({ IOS1: 'OFFLINE' }), request: { versionId: 'IOS1', intent: 'LIVE', ...by }, status: 201, next: 'LIVE' },
  { row: 'LIVE | deploy OFFLINE | updatedBy sent -> OFFLINE, 201', channel: channel({ IOS1: 'LIVE' }), request: { versionId: 'IOS1', intent: 'OFFLINE', ...by }, status: 201, next: 'OFFLINE' },
  { row: 'LIVE | deploy LIVE | already in target state -> 400', channel: channel({ IOS1: 'LIVE' }), request: { versionId: 'IOS1', intent: 'LIVE', ...by }, status: 400, title: /already in the target state LIVE/ },
  { row: 'OFFLINE | deploy OFFLINE | already in target state -> 400', channel: channel({ IOS1: 'OFFLINE' }), request: { versionId: 'IOS1', intent: 'OFFLINE', ...by }, status: 400, title: /already in the target state OFFLINE/ },
  { row: 'LIVE | deploy DEFAULT, no current Default on channel -> DEFAULT, 201', channel: channel({ IOS1: 'LIVE' }), request: { versionId: 'IOS1', intent: 'DEFAULT', ...by }, status: 201, next: 'DEFAULT' },
  {
    row: 'LIVE | deploy DEFAULT with currentVersionId and currentAssetIntent=LIVE | matches -> DEFAULT, previous Default becomes LIVE',
    channel: channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }),
    request: { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'LIVE', ...by },
    status: 201,
    next: 'DEFAULT',
    demotes: 'IOS1',
  },
  { row: 'LIVE | deploy DEFAULT without current Default info while a Default exists -> 400', channel: channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }), request: { versionId: 'IOS2', intent: 'DEFAULT', ...by }, status: 400, title: /send currentVersionId=IOS1/ },
  { row: 'OFFLINE | deploy DEFAULT | always -> 400', channel: channel({ IOS1: 'OFFLINE' }), request: { versionId: 'IOS1', intent: 'DEFAULT', ...by }, status: 400, title: /OFFLINE; deploy it LIVE/ },
  { row: 'DEFAULT | deploy LIVE | always -> 400, promote another first', channel: channel({ IOS1: 'DEFAULT' }), request: { versionId: 'IOS1', intent: 'LIVE', ...by }, status: 400, title: /promote another version/ },
  { row: 'DEFAULT | deploy DEFAULT | already in target state -> 400', channel: channel({ IOS1: 'DEFAULT' }), request: { versionId: 'IOS1', intent: 'DEFAULT', ...by }, status: 400, title: /already in the target state DEFAULT/ },
  { row: 'DEFAULT | deploy OFFLINE | always -> 400, promote another first', channel: channel({ IOS1: 'DEFAULT' }), request: { versionId: 'IOS1', intent: 'OFFLINE', ...by }, status: 400, title: /promote another version/ },
  {
    row: 'any | demote path | currentVersionId is not Default -> 400',
    channel: channel({ IOS1: 'DEFAULT', IOS2: 'LIVE', IOS3: 'LIVE' }),
    request: { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: 'IOS3', currentAssetIntent: 'LIVE', ...by },
    status: 400,
    title: /IOS3 is not the DEFAULT/,
  },
  {
    row: 'any | demote path | currentAssetIntent other than LIVE -> refused (spec: undefined, next write fails)',
    channel: channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }),
    request: { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'OFFLINE', ...by },
    status: 400,
    title: /currentAssetIntent must be LIVE/,
  },
];

// Other rules and the error table of "Version deploy and asset undeploy".
const otherRules: Row[] = [
  {
    row: 'Default pointer moved between read and write -> 409',
    channel: channel({ IOS1: 'LIVE', IOS2: 'DEFAULT', IOS3: 'LIVE' }, { formerDefaults: ['IOS1'] }),
    request: { versionId: 'IOS3', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'LIVE', ...by },
    status: 409,
    title: /Default pointer moved.*now IOS2/,
  },
  { row: 'channel mid-deployment -> 500', channel: channel({ IOS1: 'LIVE' }, { midDeployment: true }), request: { versionId: 'IOS1', intent: 'OFFLINE', ...by }, status: 500, title: /mid-deployment/ },
  { row: 'first deploy without createdBy -> 500', channel: channel(), request: { versionId: 'IOS1', intent: 'LIVE', updatedBy: 'a@b' }, status: 500, title: /^createdBy is required for the first deploy of a version$/ },
  { row: 'change without updatedBy -> 500', channel: channel({ IOS1: 'LIVE' }), request: { versionId: 'IOS1', intent: 'OFFLINE', createdBy: 'a@b' }, status: 500, title: /^updatedBy is required to change a deployed version$/ },
  { row: 'an empty currentVersionId while a Default exists -> 400, as if left out', channel: channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }), request: { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: '', ...by }, status: 400, title: /send currentVersionId=IOS1/ },
  { row: 'an empty currentVersionId, no Default yet -> DEFAULT, 201', channel: channel({ IOS2: 'LIVE' }), request: { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: '', ...by }, status: 201, next: 'DEFAULT' },
  {
    row: 'currentAssetIntent left out when demoting -> 400',
    channel: channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }),
    request: { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: 'IOS1', ...by },
    status: 400,
    title: /currentAssetIntent must be LIVE .*\(got \(missing\)\)/,
  },
  { row: 'intent missing on a first deploy -> 404', channel: channel(), request: { versionId: 'IOS1', ...by }, status: 404 },
  { row: 'unrecognized intent on a re-publish -> 400', channel: channel({ IOS1: 'LIVE' }), request: { versionId: 'IOS1', intent: 'GONE', ...by }, status: 400, title: /not recognized/ },
  {
    row: 'old Default not found when demoting -> 404',
    channel: channel({ IOS2: 'LIVE' }),
    request: { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: 'IOS9', currentAssetIntent: 'LIVE', ...by },
    status: 404,
    title: /IOS9 not found/,
  },
];

// Decided inside each test, not while collecting: a mutation tool counts
// which test reaches which line.
describe.each([...rows, ...otherRules])('$row', ({ channel: before, request, status, next, demotes, title }) => {
  it(`answers ${status}`, () => {
    const decision = decideVersionDeploy(before, request);
    expect(decision.status).toBe(status);
    if (!decision.ok) expect(decision.title).toMatch(title ?? /./);
  });

  if (next) {
    it(`moves the version to ${next}${demotes ? ` and demotes ${demotes} to LIVE` : ''}`, () => {
      const decision = decideVersionDeploy(before, request);
      if (!decision.ok) throw new Error(decision.title);
      expect(decision.next).toBe(next);
      expect(decision.message).toBe('Deployment has been completed.');
      expect(decision.effects).toEqual(demotes ? [{ kind: 'demote', versionId: demotes, to: 'LIVE', description: `previous Default ${demotes} becomes LIVE` }] : []);
      const after = applyVersionDeploy(before, request.versionId, decision);
      expect(after.records[request.versionId]).toBe(next);
      if (demotes) expect(after.records[demotes]).toBe('LIVE');
      expect(Object.values(after.records).filter((state) => state === 'DEFAULT').length).toBeLessThanOrEqual(1);
    });
  }
});

describe('the demoted Default is remembered, so a stale currentVersionId is a 409', () => {
  it('an empty channel has no records, no former Defaults and no deployment running', () => {
    expect(emptyChannel()).toStrictEqual({ records: {}, formerDefaults: [], midDeployment: false });
  });

  it.each([
    ['kept when another version is deployed', channel({ IOS1: 'LIVE', IOS2: 'DEFAULT' }, { formerDefaults: ['IOS1'] }), { versionId: 'IOS3', intent: 'LIVE' }, ['IOS1']],
    ['listed once when demoted again', channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }, { formerDefaults: ['IOS1'] }), { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' }, ['IOS1']],
    ['dropped when it holds the pointer again', channel({ IOS1: 'LIVE', IOS2: 'DEFAULT' }, { formerDefaults: ['IOS1'] }), { versionId: 'IOS1', intent: 'DEFAULT', currentVersionId: 'IOS2', currentAssetIntent: 'LIVE' }, ['IOS2']],
  ])('a former Default is %s', (_case, before, request, formerDefaults) => {
    const decision = decideVersionDeploy(before, { ...request, ...by });
    if (!decision.ok) throw new Error(decision.title);
    expect(applyVersionDeploy(before, request.versionId, decision).formerDefaults).toEqual(formerDefaults);
  });

  it('records the former Default after a promotion', () => {
    const before = channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' });
    const decision = decideVersionDeploy(before, { versionId: 'IOS2', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'LIVE', ...by });
    if (!decision.ok) throw new Error(decision.title);
    const after = applyVersionDeploy(before, 'IOS2', decision);
    expect(after.formerDefaults).toEqual(['IOS1']);
    const stale = decideVersionDeploy({ ...after, records: { ...after.records, IOS3: 'LIVE' } }, { versionId: 'IOS3', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'LIVE', ...by });
    expect(stale.status).toBe(409);
  });
});

// Spec, "Other rules": a promotion naming a version that no longer holds the
// Default pointer is a 409. `asset undeploy` takes the pointer away too.
describe('asset undeploy removes every record; a Default it removed lost the pointer', () => {
  const promote = (currentVersionId: string): VersionDeployRequest => ({ versionId: 'IOS3', intent: 'DEFAULT', currentVersionId, currentAssetIntent: 'LIVE', ...by });
  // After the undeploy, IOS3 is deployed LIVE again and promoted naming the old Default.
  const redeployed = (after: ChannelSnapshot) => ({ ...after, records: { IOS3: 'LIVE' as const } });

  it.each([
    ['the Default IOS1 removed', channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }), ['IOS1']],
    ['the Default IOS2 removed, IOS1 demoted before', channel({ IOS1: 'LIVE', IOS2: 'DEFAULT' }, { formerDefaults: ['IOS1'] }), ['IOS1', 'IOS2']],
    ['no Default on the channel', channel({ IOS1: 'LIVE' }), []],
    ['a Default already remembered is not listed twice', channel({ IOS1: 'DEFAULT' }, { formerDefaults: ['IOS1'] }), ['IOS1']],
  ])('%s -> formerDefaults %j', (_case, before, formerDefaults) => {
    const after = applyAssetUndeploy(before);
    expect(after).toEqual({ records: {}, formerDefaults, midDeployment: false });
  });

  it.each([
    ['naming the Default the undeploy removed -> 409', 'IOS1', 409, /Default pointer moved: IOS1 is no longer DEFAULT; retry/],
    ['naming a version never deployed on the channel -> 404', 'IOS9', 404, /IOS9 not found/],
  ])('a later promotion %s', (_case, named, status, title) => {
    const after = applyAssetUndeploy(channel({ IOS1: 'DEFAULT', IOS2: 'LIVE' }));
    const decision = decideVersionDeploy(redeployed(after), promote(named));
    expect(decision.status).toBe(status);
    expect(decision.ok ? '' : decision.title).toMatch(title);
  });
});
