// The promotion dance: read the channel's Default, send DEFAULT with
import { oldDryRunDocument } from '../legacy.js';
// currentVersionId + currentAssetIntent=LIVE when there is one, and on a 409
// (the pointer moved) or the stale-read 400 read again and retry, a bounded
// number of times. --make-live deploys an OFFLINE/undeployed version LIVE
// first; --expect-current is a compare-and-set (exit 5, nothing written);
// --idempotent turns "already the Default" into success (checked first).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { ConflictError } from '../../errors.js';
import {
  applyVersionDeploy,
  decideVersionDeploy,
  defaultOf,
  type ChannelSnapshot,
  type Decision,
  type DeploymentState,
} from '../../rules/index.js';
import { deployBody, type DeployBody } from '../../rules/schemas.js';
import { printDryRun } from '../legacy.js';
import { validateInput } from '../validate.js';
import { fetchAll } from '../../http/paging.js';
import { listAllVersions, listRecords, readChannel } from '../../service/assets.js';
import { isApiError } from '../../http/client.js';
import type { Asset } from '../../rules/schemas.js';
import type { Choice } from '../../io/prompt.js';
import { renderDeployment, type DeployResponse } from '../../io/views/deploy.js';
import { deployableVersion } from '../../service/assets.js';

interface Options {
  makeLive?: boolean;
  expectCurrent?: string;
  idempotent?: boolean;
}

export const MAX_ATTEMPTS = 5;
const OTHER = '\u0000other';

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const apiForChoices = () => ctx.api();
  const assetId = await ctx.need(args[0], {
    flag: 'ASSET_ID',
    message: 'Asset',
    choices: async () => {
      const api = await apiForChoices();
      const assets = await fetchAll<Asset>(api, api.path('va'));
      return assets.map((a) => ({ name: `${a.assetId}  ${a.assetName}`, value: a.assetId }));
    },
  });
  let versionsCache: Awaited<ReturnType<typeof listAllVersions>> | undefined;
  const versions = async () => (versionsCache ??= await listAllVersions(await apiForChoices(), assetId));
  const platform = await ctx.setting('platform', {
    message: 'Target platform',
    choices: async () => [...new Set((await versions()).map((v) => v.targetPlatform))].sort().map((p) => ({ name: p, value: p })),
  });
  const pickedEnv = await ctx.setting('envId', {
    message: 'Environment',
    choices: async () => {
      // The API lists no environments: offer those the asset is deployed in, and "other".
      const records = await listRecords(await apiForChoices(), assetId);
      const here = new Set(records.filter((r) => r.targetPlatform === platform).map((r) => r.envId));
      const envs = [...new Set(records.map((r) => r.envId))].sort();
      return [
        ...envs.map((e) => ({ name: here.has(e) ? e : `${e}  (nothing on ${platform} yet)`, value: e })),
        { name: 'other…', value: OTHER },
      ];
    },
  });
  const envId = pickedEnv === OTHER ? await (await ctx.prompter()).input('Environment id') : pickedEnv;
  const versionId = await ctx.need(args[1], {
    flag: 'VERSION_ID',
    message: 'Version to promote to Default',
    choices: async () => {
      const { channel } = await readChannel(await apiForChoices(), assetId, platform, envId);
      return (await versions())
        .filter((v) => v.targetPlatform === platform)
        .sort((a, b) => b.version - a.version)
        .map((v): Choice<string> => ({ name: `${v.versionId}  ${v.versionName}  ${channel.records[v.versionId] ?? 'not deployed'}`, value: v.versionId }));
    },
  });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const expected = opts.expectCurrent === undefined ? undefined : opts.expectCurrent.toLowerCase() === 'none' ? null : opts.expectCurrent;
  validateInput(deployBody, { envId, intent: 'DEFAULT', createdBy: user, updatedBy: user });

  const api = await ctx.api();
  const out = await ctx.output();
  const path = api.path('va', assetId, 'versions', versionId, 'deploy');
  const query = { targetPlatformId: platform };
  const channelName = `${assetId}/${platform}/${envId}`;

  let { channel } = await readChannel(api, assetId, platform, envId);
  const state = channel.records[versionId];

  // 1. --idempotent: already the Default (checked before --expect-current).
  if (opts.idempotent && state === 'DEFAULT') {
    const message = `${versionId} is already the Default of ${channelName}; nothing sent`;
    out.print({ changed: false, state: 'DEFAULT', message }, () => {
      out.success(message);
      return undefined;
    });
    return;
  }
  // 2. --expect-current: compare-and-set.
  checkExpected(channel, expected, channelName);

  const liveBody: DeployBody = { envId, intent: 'LIVE', createdBy: user, updatedBy: user };
  let makeLive = Boolean(opts.makeLive);
  if (!makeLive && (state === undefined || state === 'OFFLINE') && ctx.io.canPrompt && !ctx.globals.yes && !ctx.globals.dryRun) {
    // A person picked a version that cannot be promoted as it is: offer --make-live.
    makeLive = await (await ctx.prompter()).confirm(`${versionId} is ${state ?? 'not deployed'} on ${channelName}; deploy it LIVE first (--make-live)?`, true);
  }
  const needsLive = makeLive && (state === undefined || state === 'OFFLINE');

  if (ctx.globals.dryRun) {
    const missing = await deployableVersion(api, assetId, versionId, platform);
    if (missing) {
      // The first write (the --make-live deploy, or the promotion) is the one the service refuses.
      const body = needsLive ? liveBody : promoteBody(channel, versionId, envId, user);
      await printDryRun(ctx, { request: { method: 'POST', path, query, body }, current: state ?? null, decision: missing });
      return;
    }
    const prior: ReturnType<typeof oldDryRunDocument>[] = [];
    let simulated = channel;
    if (needsLive) {
      const live = decideVersionDeploy(channel, { versionId, ...liveBody });
      prior.push(oldDryRunDocument({ request: { method: 'POST', path, query, body: liveBody }, current: state ?? null, decision: live }));
      if (!live.ok) {
        await printDryRun(ctx, { request: { method: 'POST', path, query, body: liveBody }, current: state ?? null, decision: live, notes: ['--make-live: the LIVE deploy would fail'] });
        return;
      }
      simulated = applyVersionDeploy(channel, versionId, live);
    }
    const body = promoteBody(simulated, versionId, envId, user);
    const decision: Decision<DeploymentState> = decideVersionDeploy(simulated, { versionId, ...body });
    await printDryRun(ctx, {
      request: { method: 'POST', path, query, body },
      current: { state: state ?? null, default: defaultOf(channel) ?? null },
      decision,
      unchanged: state ?? null,
      before: prior,
    });
    return;
  }

  if (needsLive) {
    await api.post<DeployResponse>(path, liveBody, query);
    out.info(`${versionId} deployed LIVE on ${channelName} (--make-live)`);
    ({ channel } = await readChannel(api, assetId, platform, envId));
    checkExpected(channel, expected, channelName);
  }

  for (let attempt = 1; ; attempt++) {
    const previousDefault = defaultOf(channel) ?? null;
    const body = promoteBody(channel, versionId, envId, user);
    try {
      const answer = await api.post<DeployResponse>(path, body, query);
      const doc = { ...answer, previousDefault: previousDefault === versionId ? null : previousDefault, attempts: attempt };
      out.print(doc, (d, kit) => {
        out.success(
          `${versionId} is now the Default of ${channelName}` +
            (d.previousDefault ? `; previous Default ${d.previousDefault} is now LIVE` : '; there was no Default before'),
        );
        const lines = [`old Default: ${d.previousDefault ?? '(none)'}`, `new Default: ${versionId}`];
        if (attempt > 1) lines.push(`attempts:    ${attempt}`);
        return `${lines.join('\n')}\n${renderDeployment(d, kit)}`;
      });
      return;
    } catch (error) {
      const retryable = isApiError(error, 409) || isApiError(error, 400);
      if (!retryable) throw error;
      // Read again: a 409 (or a 400 from a stale read) means the pointer moved.
      const fresh = (await readChannel(api, assetId, platform, envId)).channel;
      const moved = (defaultOf(fresh) ?? null) !== previousDefault;
      if (isApiError(error, 400) && !moved) throw error; // a real 400 (OFFLINE, already Default, ...)
      if (attempt >= MAX_ATTEMPTS) {
        if (isApiError(error, 409)) throw error;
        throw new ConflictError(`the Default of ${channelName} kept moving; gave up after ${attempt} attempts`);
      }
      channel = fresh;
      checkExpected(channel, expected, channelName);
      out.info(`the Default of ${channelName} moved (now ${defaultOf(channel) ?? 'none'}); retrying`);
      await sleep(100 * attempt + Math.random() * 100, undefined, { signal: ctx.signal });
    }
  }
}

function promoteBody(channel: ChannelSnapshot, versionId: string, envId: string, user: string): DeployBody {
  const current = defaultOf(channel);
  const body: DeployBody = { envId, intent: 'DEFAULT', createdBy: user, updatedBy: user };
  if (current && current !== versionId) {
    body.currentVersionId = current;
    body.currentAssetIntent = 'LIVE';
  }
  return body;
}

function checkExpected(channel: ChannelSnapshot, expected: string | null | undefined, channelName: string): void {
  if (expected === undefined) return;
  const found = defaultOf(channel) ?? null;
  if (found !== expected) {
    throw new ConflictError(`--expect-current ${expected ?? 'none'} did not hold: the Default of ${channelName} is ${found ?? 'none'}; nothing was written`);
  }
}
