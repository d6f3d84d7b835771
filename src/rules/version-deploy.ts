// Version deployment (spec, "States and transitions" > "Version deployment
// state"): one channel is one asset, one target platform, one environment.
import { allow, type Decision, type Effect } from './decision.js';
import {
  actingUserRequired,
  alreadyInTargetState,
  currentAssetIntentInvalid,
  currentDefaultNotFound,
  defaultExistsWithoutDemotion,
  defaultPointerMoved,
  firstDeployIntentInvalid,
  midDeployment,
  notTheDefault,
  offlineToDefault,
  republishIntentInvalid,
  versionIsDefault,
} from './rejections.js';

export const DEPLOYMENT_STATES = ['LIVE', 'OFFLINE', 'DEFAULT'] as const;
/** A version's state on a channel: LIVE (served at its own URL), DEFAULT (served as the channel's default; one per channel) or OFFLINE. */
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];

export interface ChannelSnapshot {
  /** The channel's deployment records: versionId -> state. */
  records: Record<string, DeploymentState>;
  /**
   * Versions that held the Default pointer on this channel and lost it. A
   * `currentVersionId` naming one of them means the pointer moved between the
   * client's read and its write: 409, not 400.
   */
  formerDefaults: string[];
  /** A deployment of this channel is still running. */
  midDeployment: boolean;
}

export interface VersionDeployRequest {
  versionId: string;
  intent?: string;
  createdBy?: string;
  updatedBy?: string;
  currentVersionId?: string;
  currentAssetIntent?: string;
}

export const DEPLOY_COMPLETED = 'Deployment has been completed.';

export function emptyChannel(): ChannelSnapshot {
  return { records: {}, formerDefaults: [], midDeployment: false };
}

export function defaultOf(channel: ChannelSnapshot): string | undefined {
  return Object.entries(channel.records).find(([, state]) => state === 'DEFAULT')?.[0];
}

function isDeploymentState(value: string | undefined): value is DeploymentState {
  return (DEPLOYMENT_STATES as readonly string[]).includes(value ?? '');
}

/**
 * Decides a deploy request against the channel's current records. Existence
 * of the asset, environment, platform and version is checked before this
 * (404s); this function knows the states.
 */
export function decideVersionDeploy(channel: ChannelSnapshot, request: VersionDeployRequest): Decision<DeploymentState> {
  if (channel.midDeployment) {
    return midDeployment();
  }
  const current = channel.records[request.versionId];
  return current === undefined ? decideFirstDeploy(request) : decideRepublish(channel, current, request);
}

function decideFirstDeploy(request: VersionDeployRequest): Decision<DeploymentState> {
  const { intent } = request;
  if (intent !== 'LIVE' && intent !== 'OFFLINE') {
    return firstDeployIntentInvalid(intent);
  }
  if (!request.createdBy) return actingUserRequired('createdBy', 'for the first deploy of a version');
  return allow(201, intent, [], DEPLOY_COMPLETED);
}

function decideRepublish(channel: ChannelSnapshot, current: DeploymentState, request: VersionDeployRequest): Decision<DeploymentState> {
  const { intent, versionId } = request;
  if (!isDeploymentState(intent)) {
    return republishIntentInvalid(intent);
  }
  if (!request.updatedBy) return actingUserRequired('updatedBy', 'to change a deployed version');
  if (current === 'DEFAULT') {
    if (intent === 'DEFAULT') return alreadyInTargetState(versionId, 'DEFAULT');
    return versionIsDefault(versionId);
  }
  if (intent === current) return alreadyInTargetState(versionId, intent);
  if (intent !== 'DEFAULT') return allow(201, intent, [], DEPLOY_COMPLETED);
  if (current === 'OFFLINE') {
    return offlineToDefault(versionId);
  }
  return decidePromotion(channel, request);
}

function decidePromotion(channel: ChannelSnapshot, request: VersionDeployRequest): Decision<DeploymentState> {
  const currentDefault = defaultOf(channel);
  const named = request.currentVersionId;
  if (named === undefined || named === '') {
    if (currentDefault === undefined) return allow(201, 'DEFAULT', [], DEPLOY_COMPLETED);
    return defaultExistsWithoutDemotion(currentDefault);
  }
  if (named !== currentDefault) {
    if (channel.formerDefaults.includes(named)) {
      return defaultPointerMoved(named, currentDefault);
    }
    if (!(named in channel.records)) return currentDefaultNotFound(named);
    return notTheDefault(named);
  }
  if (request.currentAssetIntent !== 'LIVE') {
    // The spec leaves any other value undefined (the next write fails); refuse it.
    return currentAssetIntentInvalid(request.currentAssetIntent);
  }
  const demote: Effect = { kind: 'demote', versionId: named, to: 'LIVE', description: `previous Default ${named} becomes LIVE` };
  return allow(201, 'DEFAULT', [demote], DEPLOY_COMPLETED);
}

/** Applies an allowed deploy to a channel: the state both the emulator stores and a dry-run shows. */
export function applyVersionDeploy(channel: ChannelSnapshot, versionId: string, decision: Extract<Decision<DeploymentState>, { ok: true }>): ChannelSnapshot {
  const records = { ...channel.records, [versionId]: decision.next };
  const formerDefaults = [...channel.formerDefaults];
  for (const effect of decision.effects) {
    if (effect.kind === 'demote') {
      records[effect.versionId] = effect.to;
      if (!formerDefaults.includes(effect.versionId)) formerDefaults.push(effect.versionId);
    }
  }
  return { ...channel, records, formerDefaults: formerDefaults.filter((id) => records[id] !== 'DEFAULT') };
}

/**
 * Asset undeploy removes every record of the channel. A Default removed this
 * way lost the pointer: a later promotion naming it is a 409, as after a
 * demotion.
 */
export function applyAssetUndeploy(channel: ChannelSnapshot): ChannelSnapshot {
  const removedDefault = defaultOf(channel);
  const formerDefaults = removedDefault && !channel.formerDefaults.includes(removedDefault) ? [...channel.formerDefaults, removedDefault] : channel.formerDefaults;
  return { ...channel, records: {}, formerDefaults };
}
