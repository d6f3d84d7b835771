// What the promotions share (promote-default, release, rollback, and the
// version.promote step of src/plan/kinds/versions.ts): the channel's name,
// the DEFAULT body over the channel as read, and --expect-current as a
// compare-and-set (exit 5, nothing written).
import { ConflictError } from '../errors.js';
import { applyVersionDeploy, decideVersionDeploy, defaultOf, type ChannelSnapshot } from '../rules/index.js';
import type { DeployBody } from '../rules/schemas.js';

export interface Channel {
  assetId: string;
  platform: string;
  envId: string;
}

export function channelName(c: Channel): string {
  return `${c.assetId}/${c.platform}/${c.envId}`;
}

/** The DEFAULT deploy body over the channel as read: with the demotion info when another version is the Default. */
export function promoteBody(channel: ChannelSnapshot, versionId: string, envId: string, user: string): DeployBody {
  const current = defaultOf(channel);
  const body: DeployBody = { envId, intent: 'DEFAULT', createdBy: user, updatedBy: user };
  if (current && current !== versionId) {
    body.currentVersionId = current;
    body.currentAssetIntent = 'LIVE';
  }
  return body;
}

/** Throws the compare-and-set failure (exit 5) when the channel's Default is not the expected one. */
export function checkExpected(channel: ChannelSnapshot, expected: string | null | undefined, name: string): void {
  if (expected === undefined) return;
  const found = defaultOf(channel) ?? null;
  if (found !== expected) {
    // In the words of neither the CLI nor the library: both give the expected Default (--expect-current, expectCurrent).
    throw new ConflictError(`the compare-and-set did not hold: the Default of ${name} is ${found ?? 'none'}, not ${expected ?? 'none'} as expected; nothing was written`, { expected, actual: found });
  }
}

/** `--expect-current VALUE` as the compare-and-set target: `none` is "no Default yet". */
export function parseExpected(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value.toLowerCase() === 'none' ? null : value;
}

/** The channel as it will be once `versionId` is deployed LIVE (for predicting the promotion after --make-live). */
export function afterLive(channel: ChannelSnapshot, versionId: string, body: DeployBody): ChannelSnapshot {
  const live = decideVersionDeploy(channel, { versionId, ...body });
  return live.ok ? applyVersionDeploy(channel, versionId, live) : channel;
}
