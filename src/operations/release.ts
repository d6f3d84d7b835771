// A release as an operation (issue 34): a plan of up to three steps
// (upload, deploy LIVE, promote), each skipped when a read shows it done: the
// version of that name and file, its state on the channel (cli.md, "Release
// workflows"). Typed input, already resolved (no prompt, no setting read
// here); the stage lines are printed as each stage completes; the Plan's
// `done` is the result `ahs release` prints and the library's release() returns.
import { prefetchControl } from '../plan/change-control.js';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { ConflictError, ExitCode, PartialFailureError } from '../errors.js';
import type { ApiClient } from '../http/client.js';
import type { DeploymentState } from '../rules/index.js';
import { versionUploadFields, type AssetUrl, type DeployBody, type Version } from '../rules/schemas.js';
import { channelOf, listAllVersions, offlineRecordOnChannel, readDefault, versionRecords } from '../service/assets.js';
import { hashServed, servedUrl } from '../service/delivery.js';
import type { HashSummary } from '../transfer/download.js';
import { fileSha256 } from '../transfer/digest.js';
import type { DownloadTask } from '../transfer/download.js';
import { channelName, checkExpected, parseExpected, type Channel } from '../service/promote.js';
import { sizeAgrees, sizeLike } from '../service/size.js';
import { localFile } from '../transfer/upload.js';
import { plan, ref, type Plan, type Results, type Step } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import type { PlanContext } from '../plan/context.js';
import { fieldName, validateInput, type FieldNames } from './validate.js';
import { warnEmpty } from './versions.js';

type Stage = 'upload' | 'deploy' | 'promote';

/** The version on the channel: the fields an asset-urls entry and a deploy answer share. */
export type ChannelEntry = Pick<AssetUrl, 'assetId' | 'version' | 'versionId' | 'versionName' | 'targetPlatform' | 'assetType' | 'secured' | 'state' | 'envId'>;

function channelEntry(record: Omit<ChannelEntry, 'assetId' | 'targetPlatform' | 'envId'> & { envId?: string }, assetId: string, platform: string, envId: string): ChannelEntry {
  const { version, versionId, versionName, assetType, secured, state } = record;
  return { assetId, version, versionId, versionName, targetPlatform: platform, assetType, secured, state, envId: record.envId ?? envId };
}

/** How a version already there was found to be FILE's: its content compared, or (it cannot be downloaded) its name and size only. */
export type MatchedBy = 'content' | 'name and size';

/** What release() resolves to: the version, its record on the channel, the Default it replaced and each stage (done now, or found done). */
export interface ReleaseResult {
  version: Version;
  /** Always the version on the channel, as asset-urls gives it without downloadUrl, whatever stages ran. */
  assetVersion: ChannelEntry;
  previousDefault: string | null;
  /** The upload stage of a reused version says how it was matched (cli.md: the output says it). */
  stages: Array<{ stage: Stage; changed: boolean; matched?: MatchedBy }>;
}

export interface ReleaseInput extends Channel {
  /** The path of the file to release. */
  file: string;
  /** The version name: the key that makes a re-run resume. */
  versionName: string;
  /** Where the release ends: LIVE, or DEFAULT (promoted). */
  state: 'LIVE' | 'DEFAULT';
  /** Compare-and-set: promote only if the current Default is this version (`none`: no Default yet); else a ConflictError. */
  expectCurrent?: string | undefined;
  /** The acting user (createdBy, updatedBy). */
  user: string;
}

export async function release(ctx: PlanContext, input: ReleaseInput, names: FieldNames = {}): Promise<Plan<ReleaseResult>> {
  const { assetId, file, platform, envId, versionName, user } = input;
  const fields = validateInput(versionUploadFields, { versionName, createdBy: user }, names);
  const expected = parseExpected(input.expectCurrent);
  const where: Channel = { assetId, platform, envId };
  const name = channelName(where);
  const api = await ctx.api();
  if (!ctx.globals.dryRun) api.prepareUploads();
  const out = await ctx.output();
  // Change control's reads go beside the release's first reads (src/plan/change-control.ts): its check costs no round.
  await prefetchControl(ctx, [{ kind: 'channel', assetId, platform, env: envId }]);

  const reads = await readRelease(ctx, api, where, versionName, file, names);
  const { match, record, defaultRecord } = reads;
  const reused = match?.version;
  // The channel as far as the decisions go: its Default and the reused version's record.
  const channel = channelOf([defaultRecord, record]);
  const state: DeploymentState | undefined = reused ? channel.records[reused.versionId] : undefined;
  const promote = input.state === 'DEFAULT' && state !== 'DEFAULT';
  const deploy = state !== 'LIVE' && state !== 'DEFAULT';
  // The compare-and-set holds before anything is written, the upload included.
  if (promote) checkExpected(channel, expected, name);
  if (promote && reused && expected === undefined) refuseSupersededRelease(reused, defaultRecord, name, names);

  const liveBody: DeployBody = { envId, intent: 'LIVE', createdBy: user, updatedBy: user };
  if (match) out.success(`upload: ${match.version.versionId} (${versionName}, ${match.version.size}) is already there; reused (${match.matched})`);
  // converge: another run may release the same file to the same channel at the same time (cli.md, concurrent runs).
  const local = reused ? undefined : await localFile(file);
  if (local) await warnEmpty(ctx, local);
  const upload = local ? steps.versionUpload({ assetId, platform, fields, file: local, converge: true, latest: reads.latest }) : undefined;
  const versionId = upload ? ref(upload, 'versionId') : reused!.versionId;
  // A version this plan uploads does not exist yet: only the channel's rules predict; a reused one was read.
  const known = reused ? { version: reused } : { versionIsNew: true };
  const deployment = deploy ? steps.versionDeploy({ assetId, versionId, platform, body: liveBody, channel, ...known, converge: true }) : undefined;
  const promotion = promote ? steps.versionPromote({ assetId, platform, envId, versionId, user, channel, expected, afterLive: deploy ? liveBody : undefined, ...known, converge: true }) : undefined;
  if (!deploy) out.success(`deploy: ${reused!.versionId} is already ${state} on ${name}`);
  if (!promote && input.state === 'DEFAULT') out.success(`promote: ${reused!.versionId} is already the Default of ${name}`);

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
    (results): ReleaseResult => {
      const version = versionOf(results);
      const promoted = promotion && results.of(promotion);
      const deployed = deployment && results.of(deployment);
      const written = promoted?.assetVersion ?? deployed?.assetVersion;
      // One shape whatever ran: the version on the channel, from the answer of the last write or the record read
      // (no read after writing: a downloadUrl is for `ahs version urls`).
      return {
        version,
        assetVersion: written ? channelEntry(written, assetId, platform, envId) : channelEntry(record!, assetId, platform, envId),
        previousDefault: promoted?.previousDefault ?? null,
        stages: [
          { stage: 'upload', changed: upload !== undefined && results.has(upload), ...(match ? { matched: match.by } : {}) },
          { stage: 'deploy', changed: deployment !== undefined && results.has(deployment) },
          ...(input.state === 'DEFAULT' ? [{ stage: 'promote' as const, changed: promotion !== undefined && results.has(promotion) }] : []),
        ],
      };
    },
    {
      onAnswer: (step, results) => {
        const line = stageLine(step, results);
        if (line) out.success(line);
      },
    },
  );
}

/** What a release decides on. */
interface ReleaseReads {
  /** The version of that name that is this file's, and how that was matched (`matched`: in words). */
  match?: { version: Version; by: MatchedBy; matched: string };
  /** The matched version's record on the channel. */
  record?: AssetUrl;
  /** The channel's Default. */
  defaultRecord?: AssetUrl;
  /** The highest version number on the platform: an upload's converging starts there. */
  latest: number;
}

/**
 * The versions of the asset and the channel's Default, read at once (the
 * Default with the `state` filter: one record whatever the channel's size).
 * A re-run's version is usually the Default: when its name is this
 * release's, its bytes are hashed while the versions are still read.
 */
async function readRelease(ctx: PlanContext, api: ApiClient, where: Channel, versionName: string, file: string, names: FieldNames): Promise<ReleaseReads> {
  const defaultRead = readDefault(api, where);
  const early = defaultRead.then((record) => (record?.versionName === versionName && record.downloadUrl ? servedCopy(ctx, api, record).then((task) => compareContent(ctx, api, file, [task])) : undefined));
  try {
    const [versions, defaultRecord] = await Promise.all([listAllVersions(api, where.assetId), defaultRead]);
    const onPlatform = versions.filter((v) => v.targetPlatform === where.platform);
    const latest = Math.max(0, ...onPlatform.map((v) => v.version));
    const found = await reusableVersion(ctx, api, where, onPlatform.filter((v) => v.versionName === versionName), file, defaultRecord, early, names);
    return { ...found, defaultRecord, latest };
  } finally {
    // Never left running behind an error.
    await early.catch(() => undefined);
  }
}

interface ContentHashes {
  local: string;
  served: HashSummary;
}

/** FILE's SHA-256 and what the delivery network serves for each task, at once. */
async function compareContent(ctx: PlanContext, api: ApiClient, file: string, tasks: DownloadTask[]): Promise<ContentHashes> {
  const [local, served] = await Promise.all([fileSha256(file), hashServed(ctx, tasks, { label: `comparing ${basename(file)} with ${tasks.map((t) => t.id).join(', ')}` })]);
  return { local, served };
}

/** The version's file as the delivery network serves it: its downloadUrl, on the delivery URL set when there is one. */
async function servedCopy(ctx: PlanContext, api: ApiClient, record: AssetUrl): Promise<DownloadTask> {
  return { id: record.versionId, name: record.versionId, url: (await servedUrl(ctx, api, record.downloadUrl!)).url };
}

/**
 * The version of that name on the platform, when it is this file's, how
 * that was matched and its record on the channel; undefined when there is
 * none; a conflict (exit 5, nothing written) when it is another file, a
 * mismatch (exit 1, urn:ahs:mismatch) when another content. Same
 * file name and a size agreeing within the service's rounding; when such a
 * version can be downloaded (LIVE or DEFAULT somewhere: its asset-urls
 * downloadUrl), its content too, by SHA-256: a rebuild of the same size is
 * not the same release.
 */
async function reusableVersion(
  ctx: PlanContext,
  api: ApiClient,
  where: Channel,
  named: Version[],
  file: string,
  defaultRecord: AssetUrl | undefined,
  early: Promise<ContentHashes | undefined>,
  names: FieldNames,
): Promise<Pick<ReleaseReads, 'match' | 'record'>> {
  if (named.length === 0) return {};
  const bytes = (await stat(file)).size;
  const fileName = basename(file);
  const versionName = named[0]!.versionName;
  // Older versions lack fileName (spec): then the size alone decides.
  const same = named.filter((v) => (v.fileName === undefined || v.fileName === null || v.fileName === fileName) && sizeAgrees(v.size, bytes)).sort((a, b) => b.version - a.version);
  if (same.length === 0) {
    const other = named[0]!;
    throw new ConflictError(
      `${where.platform} version ${other.versionId} of ${where.assetId} is already named ${versionName}, with ${other.fileName ?? 'another file'} of ${other.size}, not ${fileName} of ${sizeLike(other.size, bytes)}; nothing was written: release under another ${fieldName(names, 'versionName')}`,
    );
  }
  // The Default's record was read; the others' are their own (every environment: a copy LIVE elsewhere can be downloaded).
  const isDefault = (v: Version) => v.versionId === defaultRecord?.versionId;
  const recordsOf = new Map(await Promise.all(same.filter((v) => !isDefault(v)).map(async (v) => [v.versionId, await versionRecords(api, where.assetId, v.versionId, { platform: where.platform })] as const)));
  // Its own listing may leave an OFFLINE record out (the spec is silent): none there, the channel's state=OFFLINE records tell.
  const recordOn = async (v: Version) => (isDefault(v) ? defaultRecord : (recordsOf.get(v.versionId)?.find((r) => r.envId === where.envId) ?? (await offlineRecordOnChannel(api, where, v.versionId))));
  const others = [...recordsOf.values()].flatMap((records) => records.find((r) => r.downloadUrl && (r.state === 'LIVE' || r.state === 'DEFAULT')) ?? []);
  const defaultHashes = same.some(isDefault) ? await early : undefined;
  if (!defaultHashes && others.length === 0) {
    const version = same[0]!;
    // What the match rests on: the service may omit fileName (older versions), and sizes are rounded.
    const basis = version.fileName ? 'same file name, and a size agreeing within its rounding' : 'the service shows no file name: version name and size only';
    return { match: { version, by: 'name and size', matched: `matched by name and size (${basis}); its content was not compared: it is LIVE or DEFAULT nowhere, so it cannot be downloaded` }, record: await recordOn(version) };
  }
  const otherHashes = others.length > 0 ? await compareContent(ctx, api, file, await Promise.all(others.map((r) => servedCopy(ctx, api, r)))) : undefined;
  const local = (defaultHashes ?? otherHashes)!.local;
  const hashes: HashSummary = { hashed: [...(defaultHashes?.served.hashed ?? []), ...(otherHashes?.served.hashed ?? [])], failed: [...(defaultHashes?.served.failed ?? []), ...(otherHashes?.served.failed ?? [])] };
  const failed = hashes.failed[0];
  if (failed) {
    const message = `could not download ${failed.id} to compare its content with ${fileName} (${failed.error}); nothing was written: run again`;
    // Refused by an answer (or broken locally): exit 1, urn:ahs:rejected; not a conflict, nothing was compared.
    if (!failed.network) throw new PartialFailureError(message, ExitCode.rejected);
    throw new PartialFailureError(message, ExitCode.network, { type: 'urn:ahs:network', title: message, status: null, detail: message });
  }
  const equal = hashes.hashed.find((h) => h.sha256 === local);
  if (equal) {
    const version = same.find((v) => v.versionId === equal.id)!;
    return { match: { version, by: 'content', matched: `matched by content: ${fileName} and what ${equal.id} serves have the same SHA-256 ${local}` }, record: await recordOn(version) };
  }
  const other = hashes.hashed[0]!;
  // Another content under the name (cli.md, "Release workflows": a conflict, exit 5, urn:ahs:conflict), established by SHA-256.
  throw new ConflictError(
    `${where.platform} version ${other.id} of ${where.assetId} is already named ${versionName}, with the same file name and size but another content: it serves SHA-256 ${other.sha256}, ${fileName} is ${local}; nothing was written: release under another ${fieldName(names, 'versionName')}`,
  );
}

/**
 * A re-run of an old release (its version older than the channel's
 * Default) must not take the Default back: that is a rollback, and
 * a re-run job is no place to roll back by accident. Exit 5, nothing written.
 */
function refuseSupersededRelease(version: Version, current: AssetUrl | undefined, name: string, names: FieldNames): void {
  if (!current || current.versionId === version.versionId || current.version < version.version) return;
  throw new ConflictError(
    `${version.versionId} (${version.versionName}) was released before, and the Default of ${name} is now ${current.versionId} (${current.versionName}), a newer version; nothing was written. To make ${version.versionId} the Default again, ${typeof names === 'function' ? `roll back to it (rollback with ${names('to')}: '${version.versionId}')` : `run ahs rollback --to ${version.versionId}`}, or re-run with ${fieldName(names, 'expectCurrent')} ${current.versionId}`,
  );
}
