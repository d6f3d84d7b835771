// The promotion dance as a plan step, shared by promote-default and the
// release workflows (release, rollback): read the channel's Default, send
// DEFAULT with currentVersionId + currentAssetIntent=LIVE when there is one,
// and on a 409 (the pointer moved) or the stale-read 400 read again and
// retry, a bounded number of times; --expect-current is a compare-and-set
// checked on every read (exit 5, nothing written).
import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictError } from '../errors.js';
import { isApiError, type ApiClient } from '../http/client.js';
import { applyVersionDeploy, decideVersionDeploy, defaultOf, type ChannelSnapshot } from '../rules/index.js';
import type { DeployBody } from '../rules/schemas.js';
import type { Prediction, Step } from '../plan/plan.js';
import type { DeployResponse } from '../io/views/deploy.js';
import { deployableVersion, readChannel } from './assets.js';

export const MAX_PROMOTE_ATTEMPTS = 5;

export interface Channel {
  assetId: string;
  platform: string;
  envId: string;
}

/** What promote-default prints in json: the deploy response, the Default it replaced, and how many sends it took. */
export interface PromoteResult extends DeployResponse {
  previousDefault: string | null;
  attempts: number;
}

export interface PromoteOptions {
  versionId: string;
  user: string;
  /** --expect-current: the Default that must hold (null: none); undefined: no check. */
  expected?: string | null;
  /** The version is deployed LIVE by an earlier step of the plan (--make-live): predict over that, and read the channel again before sending. */
  afterLive?: DeployBody;
  /** The version is uploaded by an earlier step (release): it cannot be read yet, so only the channel's rules predict. */
  versionIsNew?: boolean;
  /** Told when the pointer moved and the promotion is sent again. */
  onRetry?: (message: string) => void;
  signal?: AbortSignal;
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
    throw new ConflictError(`--expect-current ${expected ?? 'none'} did not hold: the Default of ${name} is ${found ?? 'none'}; nothing was written`);
  }
}

/** `--expect-current VALUE` as the compare-and-set target: `none` is "no Default yet". */
export function parseExpected(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value.toLowerCase() === 'none' ? null : value;
}

/**
 * The promotion of `versionId` on a channel read as `channel` (or, in a dry
 * run, as a previous step predicted it). Sending re-reads the channel after
 * a 409, a stale-read 400 or a 500, and checks --expect-current each time.
 */
export function promoteStep(api: ApiClient, where: Channel, channel: ChannelSnapshot, options: PromoteOptions): Step<PromoteResult> {
  const { assetId, platform, envId } = where;
  const { versionId, user, expected } = options;
  const path = api.path('va', assetId, 'versions', versionId, 'deploy');
  const query = { targetPlatformId: platform };
  const name = channelName(where);
  const expectedChannel = options.afterLive ? afterLive(channel, versionId, options.afterLive) : channel;
  let known = channel;
  let sends = 0;
  return {
    request: { method: 'POST', path, query, body: promoteBody(expectedChannel, versionId, envId, user) },
    retryOn500: true,
    async predict(): Promise<Prediction> {
      const body = promoteBody(expectedChannel, versionId, envId, user);
      const missing = options.versionIsNew ? undefined : await deployableVersion(api, assetId, versionId, platform);
      return {
        current: { state: channel.records[versionId] ?? null, default: defaultOf(channel) ?? null },
        decision: missing ?? decideVersionDeploy(expectedChannel, { versionId, ...body }),
        unchanged: channel.records[versionId] ?? null,
      };
    },
    async send(client) {
      // After the --make-live deploy, or a 500: the channel as it is now.
      if (sends > 0 || options.afterLive) known = (await readChannel(client, assetId, platform, envId)).channel;
      for (let attempt = 1; ; attempt++) {
        sends++;
        checkExpected(known, expected, name);
        const previousDefault = defaultOf(known) ?? null;
        try {
          const answer = await client.post<DeployResponse>(path, promoteBody(known, versionId, envId, user), query);
          return { ...answer, previousDefault: previousDefault === versionId ? null : previousDefault, attempts: sends };
        } catch (error) {
          if (!isApiError(error, 409) && !isApiError(error, 400)) throw error;
          // A 409 (or a 400 from a stale read) means the pointer moved: read again.
          const fresh = (await readChannel(client, assetId, platform, envId)).channel;
          const moved = (defaultOf(fresh) ?? null) !== previousDefault;
          if (isApiError(error, 400) && !moved) throw error; // a real 400 (OFFLINE, already Default, ...)
          if (attempt >= MAX_PROMOTE_ATTEMPTS) {
            if (isApiError(error, 409)) throw error;
            throw new ConflictError(`the Default of ${name} kept moving; gave up after ${attempt} attempts`);
          }
          known = fresh;
          checkExpected(known, expected, name);
          options.onRetry?.(`the Default of ${name} moved (now ${defaultOf(known) ?? 'none'}); retrying`);
          await sleep(100 * attempt + Math.random() * 100, undefined, { signal: options.signal });
        }
      }
    },
    async settle(client) {
      const { records } = await readChannel(client, assetId, platform, envId);
      const record = records.find((r) => r.versionId === versionId);
      const how = `the channel ${name} shows ${versionId} ${record?.state ?? 'not deployed'}`;
      if (record?.state !== 'DEFAULT') return { applied: false, how };
      const previousDefault = defaultOf(known) ?? null;
      return {
        applied: true,
        how,
        result: {
          assetVersion: { ...record, envId } as unknown as DeployResponse['assetVersion'],
          message: 'Deployment confirmed by a read of the channel.',
          previousDefault: previousDefault === versionId ? null : previousDefault,
          attempts: sends,
        },
      };
    },
  };
}

/** The channel as it will be once `versionId` is deployed LIVE (for predicting the promotion after --make-live). */
export function afterLive(channel: ChannelSnapshot, versionId: string, body: DeployBody): ChannelSnapshot {
  const live = decideVersionDeploy(channel, { versionId, ...body });
  return live.ok ? applyVersionDeploy(channel, versionId, live) : channel;
}
