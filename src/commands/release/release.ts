// release ASSET FILE --platform P --env E --name N [--state LIVE|DEFAULT] [--expect-current V|none]
// A plan of up to three steps (upload, deploy LIVE, promote), each skipped
// when a read shows it done: the version of that name and file, its state on
// the channel (cli.md, "Release workflows").
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { releaseSpec } from './index.js';
import { ConflictError } from '../../errors.js';
import type { ApiClient } from '../../http/client.js';
import type { DeploymentState } from '../../rules/index.js';
import { versionUploadFields, type AssetUrl, type DeployBody, type Version } from '../../rules/schemas.js';
import { validateGiven, validateInput } from '../validate.js';
import { listAllVersions, readChannel } from '../../service/assets.js';
import { askAssetId, askEnv } from '../../service/pick-asset.js';
import { fileArg } from '../../service/pick-file.js';
import { channelName, checkExpected, parseExpected, type Channel } from '../../service/promote.js';
import { sizeAgrees } from '../../service/size.js';
import type { DeployResponse } from '../../io/views/deploy.js';
import { localFile } from '../../transfer/upload.js';
import { plan, ref, type Results, type Step } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

type Stage = 'upload' | 'deploy' | 'promote';

interface ReleaseResult {
  version: Version;
  assetVersion: DeployResponse['assetVersion'] | AssetUrl;
  previousDefault: string | null;
  stages: Array<{ stage: Stage; changed: boolean }>;
}

export const run: Run<typeof releaseSpec> = async (options, ctx) => {
  const nameFlag = nameOf(releaseSpec, 'name');
  if (options.name !== undefined) validateGiven(versionUploadFields, { versionName: options.name }, { versionName: nameFlag });
  const assetId = await askAssetId(ctx, options.assetId);
  const file = await fileArg(ctx, options.file);
  const platform = await ctx.setting('platform', { message: 'Target platform code' });
  const envId = await askEnv(ctx, assetId, platform);
  const versionName = await ctx.need(options.name, { flag: nameFlag, message: 'Version name' });
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const fields = validateInput(versionUploadFields, { versionName, createdBy: user }, { versionName: nameFlag });
  const expected = parseExpected(options.expectCurrent);
  const where: Channel = { assetId, platform, envId };
  const name = channelName(where);
  const api = await ctx.api();
  const out = await ctx.output();

  const reused = await reusableVersion(api, where, versionName, file);
  const { channel, records } = await readChannel(api, assetId, platform, envId);
  const state: DeploymentState | undefined = reused ? channel.records[reused.versionId] : undefined;
  const promote = options.state === 'DEFAULT' && state !== 'DEFAULT';
  const deploy = state !== 'LIVE' && state !== 'DEFAULT';
  // The compare-and-set holds before anything is written, the upload included.
  if (promote) checkExpected(channel, expected, name);
  if (promote && reused && expected === undefined) refuseSupersededRelease(reused, records, name);

  const liveBody: DeployBody = { envId, intent: 'LIVE', createdBy: user, updatedBy: user };
  if (reused) {
    // What the match rests on: the service may omit fileName (older versions), and sizes are rounded.
    const matched = reused.fileName ? `same file name, and a size agreeing within its rounding` : `the service shows no file name: matched by version name and size only`;
    out.success(`upload: ${reused.versionId} (${versionName}, ${reused.size}) is already there; reused (${matched})`);
  }
  // converge: another run may release the same file to the same channel at the same time (cli.md, concurrent runs).
  const upload = reused ? undefined : steps.versionUpload({ assetId, platform, fields, file: await localFile(file), converge: true });
  const versionId = upload ? ref(upload, 'versionId') : reused!.versionId;
  // A version this plan uploads does not exist yet: only the channel's rules predict.
  const versionIsNew = !reused;
  const deployment = deploy ? steps.versionDeploy({ assetId, versionId, platform, body: liveBody, channel, versionIsNew, converge: true }) : undefined;
  const promotion = promote ? steps.versionPromote({ assetId, platform, envId, versionId, user, channel, expected, afterLive: deploy ? liveBody : undefined, versionIsNew, converge: true }) : undefined;
  if (!deploy) out.success(`deploy: ${reused!.versionId} is already ${state} on ${name}`);
  if (!promote && options.state === 'DEFAULT') out.success(`promote: ${reused!.versionId} is already the Default of ${name}`);

  const versionOf = (results: Results): Version => reused ?? results.of(upload!)!;
  const stageLine = (step: Step, results: Results): string | undefined => {
    const version = versionOf(results);
    if (step === upload) return `upload: ${basename(file)} is ${version.versionId} (${version.size})`;
    if (step === deployment) return `deploy: ${version.versionId} is LIVE on ${name}`;
    const promoted = promotion && results.of(promotion);
    if (promoted) return `promote: ${version.versionId} is the Default of ${name}${promoted.previousDefault ? ` (${promoted.previousDefault} is now LIVE)` : ''}`;
    return undefined;
  };
  const planned: Step[] = [];
  for (const step of [upload, deployment, promotion]) if (step) planned.push(step);
  return plan(
    planned,
    (results) => {
      const version = versionOf(results);
      const promoted = promotion && results.of(promotion);
      const deployed = deployment && results.of(deployment);
      const result: ReleaseResult = {
        version,
        assetVersion: promoted?.assetVersion ?? deployed?.assetVersion ?? records.find((r) => r.versionId === version.versionId)!,
        previousDefault: promoted?.previousDefault ?? null,
        stages: [
          { stage: 'upload', changed: upload !== undefined && results.has(upload) },
          { stage: 'deploy', changed: deployment !== undefined && results.has(deployment) },
          ...(options.state === 'DEFAULT' ? [{ stage: 'promote' as const, changed: promotion !== undefined && results.has(promotion) }] : []),
        ],
      };
      out.print(result, (r) => `${r.version.versionId} (${r.version.versionName}) is ${r.assetVersion.state} on ${name}${r.stages.some((s) => s.changed) ? '' : '; nothing was sent: the release was already done'}`);
    },
    {
      onAnswer: (step, results) => {
        const line = stageLine(step, results);
        if (line) out.success(line);
      },
    },
  );
};

/**
 * The version of that name on the platform, when it is this file's (same
 * file name, size agreeing within the service's rounding); undefined when
 * there is none; a conflict (exit 5, nothing written) when it is another's.
 */
async function reusableVersion(api: ApiClient, where: Channel, versionName: string, file: string): Promise<Version | undefined> {
  const named = (await listAllVersions(api, where.assetId)).filter((v) => v.targetPlatform === where.platform && v.versionName === versionName);
  if (named.length === 0) return undefined;
  const bytes = (await stat(file)).size;
  const fileName = basename(file);
  // Older versions lack fileName (spec): then the size alone decides.
  const same = named.filter((v) => (v.fileName === undefined || v.fileName === null || v.fileName === fileName) && sizeAgrees(v.size, bytes));
  if (same.length >= 1) return same.sort((a, b) => b.version - a.version)[0];
  const other = named[0]!;
  throw new ConflictError(
    `${where.platform} version ${other.versionId} of ${where.assetId} is already named ${versionName}, with ${other.fileName ?? 'another file'} of ${other.size}, not ${fileName} of ${bytes} bytes; nothing was written: release under another --name`,
  );
}

/**
 * A re-run of an old release (its version older than the channel's
 * Default) must not take the Default back: that is a rollback, and
 * a re-run job is no place to roll back by accident. Exit 5, nothing written.
 */
function refuseSupersededRelease(version: Version, records: AssetUrl[], name: string): void {
  const current = records.find((r) => r.state === 'DEFAULT');
  if (!current || current.versionId === version.versionId || current.version < version.version) return;
  throw new ConflictError(
    `${version.versionId} (${version.versionName}) was released before, and the Default of ${name} is now ${current.versionId} (${current.versionName}), a newer version; nothing was written. To make ${version.versionId} the Default again, run ahs rollback --to ${version.versionId}, or re-run with --expect-current ${current.versionId}`,
  );
}
