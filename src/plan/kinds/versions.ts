// The kinds of step that write versions: upload, deploy (LIVE, OFFLINE),
// promote (DEFAULT, with the compare-and-set and the 409 re-read) and delete.
// A lost answer is settled by reading the asset's versions or the channel.
import { ConflictError } from '../../errors.js';
import { isApiError } from '../../http/client.js';
import { allow, decideVersionDeploy, decideVersionDelete, defaultOf, type ChannelSnapshot, type DeploymentRecordRef } from '../../rules/index.js';
import { createdVersion } from '../../rules/defaults.js';
import type { AssetUrl, DeployBody, Version } from '../../rules/schemas.js';
import { byAnother, type DeployResponse, type ReadBackRecord } from '../answers.js';
import type { PlanOutput } from '../context.js';
import { prepareMultipart } from '../../transfer/upload.js';
import { findVersion, getAsset, getVersion, listAllVersions, notDeployable, readChannel, readVersionOnChannel, versionRecordOnChannel, versionRecords } from '../../service/assets.js';
import { afterLive, channelName, checkExpected, promoteBody, type Channel } from '../../service/promote.js';
import { kind, type KindIO, type StepFile } from './kind.js';
import { sizeAgrees } from '../../service/size.js';
import type { PlannedRequest, Prediction, Settlement } from '../plan.js';
import type { ApiClient } from '../../http/client.js';

export interface VersionUploadParams {
  assetId: string;
  platform: string;
  fields: { versionName: string; createdBy: string };
  file: StepFile;
  /**
   * Another run may upload the same file at the same time (two CI jobs):
   * once uploaded, the versions of that name are read again, and when
   * another copy of this file has the lower number this run's copy is
   * deleted and the other is the answer, so both runs go on with one version.
   */
  converge?: boolean;
  /**
   * The highest version number on the platform when the command read the
   * versions: a copy another run uploaded since has a number between it and
   * this upload's, so converging reads those few ids, none when this upload
   * took the next number (else the whole list).
   */
  latest?: number;
}

export const versionUpload = kind<VersionUploadParams, Version>({
  describe: (p) => `upload ${p.file.name} as ${p.platform} version ${p.fields.versionName} of ${p.assetId}`,
  request: (p, api) => ({
    method: 'POST',
    path: api.path('va', p.assetId, 'versions'),
    query: { targetPlatformId: p.platform },
    body: { ...p.fields, assetFile: { fileName: p.file.name, size: p.file.size, contentType: 'multipart/form-data' } },
  }),
  file: (p) => p.file,
  uploaded: (p, answer) => `Uploaded ${p.file.name} as ${answer.versionId}`,
  applied: (p, answer) => `version ${answer.versionId} of ${p.assetId} was created`,
  check: (p) => `ahs version list ${p.assetId} --all`,
  async predict({ assetId, platform, fields, file }, api): Promise<Prediction> {
    const [asset, versions] = await Promise.all([getAsset(api, assetId), listAllVersions(api, assetId)]);
    const onPlatform = versions.filter((v) => v.targetPlatform === platform);
    const latest = Math.max(0, ...onPlatform.map((v) => v.version));
    return {
      current: { asset: asset.assetId, versionsOnPlatform: onPlatform.map((v) => v.versionId) },
      decision: allow(201, createdVersion(asset, { platform, latest, ...fields, fileName: file.name, bytes: file.size }, new Date().toISOString())),
      notes: ['the version id assumes no deleted version used a higher number on this platform', 'the platform code, the file type and the plan limits are checked by the service'],
    };
  },
  async send(p, io) {
    const stream = await prepareMultipart({ fields: p.fields, file: { field: 'assetFile', path: p.file.path, fileName: p.file.name, sha256: p.file.sha256 }, onProgress: io.progress });
    const created = await io.api.json<Version>({ method: 'POST', path: io.api.path('va', p.assetId, 'versions'), query: { targetPlatformId: p.platform }, stream });
    return p.converge ? convergeUpload(p, created, io) : created;
  },
  // Exactly one version of this name and platform created since the upload started is this upload's.
  async settle({ assetId, platform, fields }, { api, sentAt }) {
    const made = (await listAllVersions(api, assetId)).filter((v) => v.versionName === fields.versionName && v.targetPlatform === platform && api.madeSince(v.createdAt, sentAt));
    const what = `${platform} version named ${fields.versionName} created since the upload started`;
    if (made.length === 1) return { applied: true, how: `the asset's versions show one ${what} (${made[0]!.versionId})`, result: made[0]! };
    if (made.length === 0) return { applied: false, how: `the asset's versions show no ${what}` };
    return { applied: 'unknown', check: `ahs version list ${assetId} --all` };
  },
});

/**
 * The one version two runs uploading the same file agree on: of the copies
 * of this file (same name, platform, file name and size), the lowest
 * number. This run's copy, when it is not that one, is deleted (it was
 * never deployed); a delete that fails is said, with the command that does it.
 */
async function convergeUpload(p: VersionUploadParams, created: Version, io: KindIO): Promise<Version> {
  const copies = (await versionsSince(p, created, io.api)).filter(
    (v) => v.targetPlatform === p.platform && v.versionName === p.fields.versionName && (v.fileName === undefined || v.fileName === p.file.name) && sizeAgrees(v.size, p.file.size),
  );
  const first = copies.sort((a, b) => a.version - b.version)[0];
  if (!first || first.versionId === created.versionId) return created;
  const ours = created.versionId;
  try {
    await io.api.json({ method: 'DELETE', path: io.api.path('va', p.assetId, 'versions', ours) });
    io.out.info(`another run uploaded the same file as ${first.versionId} meanwhile: this run's copy ${ours} was deleted; going on with ${first.versionId}`);
  } catch (error) {
    io.out.warn(`another run uploaded the same file as ${first.versionId} meanwhile; deleting this run's copy ${ours} failed (${(error as Error).message}): delete it with ahs version delete ${p.assetId} ${ours}`);
  }
  return first;
}

/** Versions another run may have uploaded since the command read the list (this upload's among them). */
async function versionsSince(p: VersionUploadParams, created: Version, api: ApiClient): Promise<Version[]> {
  const ids = p.latest === undefined ? undefined : idsBetween(created, p.latest);
  if (!ids) return listAllVersions(api, p.assetId);
  const found = await Promise.all(ids.map((id) => findVersion(api, p.assetId, id)));
  return [created, ...found.filter((v): v is Version => v !== undefined)];
}

/** The ids numbered after `latest` and before this upload's, in its format; undefined when they cannot be told (or are many). */
export function idsBetween(created: Version, latest: number): string[] | undefined {
  const match = /^(.*?)(\d+)$/.exec(created.versionId);
  const count = created.version - latest - 1;
  if (!match || Number(match[2]) !== created.version || count < 0 || count > MAX_IDS_BETWEEN) return undefined;
  const [, prefix, digits] = match as unknown as [string, string, string];
  const padded = digits.startsWith('0');
  const ids: string[] = [];
  for (let number = latest + 1; number < created.version; number++) {
    const text = String(number);
    // GEN100 may be GEN99's successor or GEN099's: a width that is not told is not guessed.
    if (!padded && text.length !== digits.length) return undefined;
    ids.push(prefix + (padded ? text.padStart(digits.length, '0') : text));
  }
  return ids;
}

/** More versions than this since the read: the whole list is one read. */
const MAX_IDS_BETWEEN = 8;

/** A write another run already made (the service's "already in the target state"): done, when a read shows the state asked for. */
async function alreadyThere<R>(error: unknown, holds: () => Promise<R | undefined>, io: KindIO, what: string): Promise<R> {
  if (!isApiError(error, 400)) throw error;
  const result = await holds();
  if (result === undefined) throw error;
  io.out.info(`${what} already: another writer did it meanwhile (the service answered 400, and a read shows the state asked for)`);
  return typeof result === 'object' && result !== null ? byAnother(result) : result;
}

export interface VersionDeployParams {
  assetId: string;
  versionId: string;
  platform: string;
  body: DeployBody;
  /** The channel as the command read it: predicted over it (else read). */
  channel?: ChannelSnapshot;
  /** Uploaded by an earlier step: it cannot be read yet, so only the channel's rules predict. */
  versionIsNew?: boolean;
  /** The version as the command read it (null: not found): predicted from it (else read). */
  version?: Version | null;
  notes?: string[];
  /** Another run may make the same change (a release): "already in the target state" is done when a read shows it. */
  converge?: boolean;
}

export const versionDeploy = kind<VersionDeployParams, DeployResponse>({
  describe: (p) => `deploy ${p.versionId} ${p.body.intent} on ${p.assetId}/${p.platform}/${p.body.envId}`,
  request: deployRequest,
  async predict(p, api) {
    // What the command did not read, read at once: the version's record, the version, and the Default when it decides.
    const where = { assetId: p.assetId, platform: p.platform, envId: p.body.envId };
    const read = p.channel ? undefined : await readVersionOnChannel(api, where, p.versionId, { version: needsVersion(p), withDefault: p.body.intent === 'DEFAULT' });
    const channel = p.channel ?? read!.channel;
    const missing = await missingVersion(p, api, read?.version);
    return { current: channel.records[p.versionId] ?? null, decision: missing ?? decideVersionDeploy(channel, { versionId: p.versionId, ...p.body }), notes: p.notes };
  },
  waitsOutDeployment: true,
  check: (p) => `ahs asset status ${p.assetId} --platform ${p.platform} --env ${p.body.envId}`,
  async send(p, io) {
    try {
      return await io.api.json<DeployResponse>({ ...deployRequest(p, io.api) });
    } catch (error) {
      if (!p.converge) {
        // The service's "already in the target state" 400, told by a read (never by its wording).
        if (isApiError(error, 400)) await hintIdempotent(io.api, io.out, p.assetId, p.platform, p.body.envId, p.versionId, p.body.intent);
        throw error;
      }
      // A DEFAULT version is LIVE too (its record says DEFAULT): a release racing another is past this stage.
      const accepted = p.body.intent === 'LIVE' ? ['LIVE', 'DEFAULT'] : [p.body.intent];
      return alreadyThere(error, async () => {
        const settled = await settleDeploy(p, io.api, accepted);
        return settled.applied === true ? settled.result : undefined;
      }, io, `${p.versionId} is ${p.body.intent} on ${p.assetId}/${p.platform}/${p.body.envId}`);
    }
  },
  settle: (p, { api }) => settleDeploy(p, api),
});

function deployRequest(p: VersionDeployParams, api: ApiClient): PlannedRequest {
  return { method: 'POST', path: api.path('va', p.assetId, 'versions', p.versionId, 'deploy'), query: { targetPlatformId: p.platform }, body: p.body };
}

/** Whether a prediction must read the version: not when it is new, nor when the command read it. */
function needsVersion(p: { versionIsNew?: boolean; version?: Version | null }): boolean {
  return !p.versionIsNew && p.version === undefined;
}

/** The deploy's 404 for a version that cannot be deployed (missing, of another platform), from what was read or a read now. */
async function missingVersion(p: { assetId: string; versionId: string; platform: string; versionIsNew?: boolean; version?: Version | null }, api: ApiClient, read?: Version | null) {
  if (p.versionIsNew) return undefined;
  const version = p.version !== undefined ? p.version : read !== undefined ? read : await findVersion(api, p.assetId, p.versionId);
  return notDeployable(version, p);
}

/** Applied when the version's own record on the channel shows the state asked for. */
async function settleDeploy({ assetId, versionId, platform, body }: VersionDeployParams, api: ApiClient, accepted: string[] = [body.intent]): Promise<Settlement<DeployResponse>> {
  const record = await versionRecordOnChannel(api, { assetId, platform, envId: body.envId }, versionId);
  const how = `the channel ${assetId}/${platform}/${body.envId} shows ${versionId} ${record?.state ?? 'not deployed'}`;
  if (!record || !accepted.includes(record.state)) return { applied: false, how };
  return { applied: true, how, result: { assetVersion: await readBack(api, record), message: CONFIRMED_BY_READ } };
}

/** A promotion (`ahs promote-default --json`, `ahs rollback --json`; promoteDefault() and rollback() resolve to it): the deploy answer, the Default it replaced and how many compare-and-set attempts it took. */
export interface PromoteResult extends DeployResponse {
  previousDefault: string | null;
  attempts: number;
}

export interface VersionPromoteParams extends Channel {
  versionId: string;
  user: string;
  /** The channel as read when planning. */
  channel: ChannelSnapshot;
  /** --expect-current: the Default that must hold (null: none); absent: no check. */
  expected?: string | null;
  /** Deployed LIVE by an earlier step (--make-live, release): predicted and sent over the channel as read plus that deploy. */
  afterLive?: DeployBody;
  versionIsNew?: boolean;
  /** The version as the command read it (null: not found): predicted from it (else read). */
  version?: Version | null;
  /** Another run may promote the same version (a release): that version being the Default is done. */
  converge?: boolean;
}

/**
 * The promotion: DEFAULT with currentVersionId + currentAssetIntent=LIVE
 * when another version is the Default. A 409 (or the stale-read 400) means
 * the pointer moved: read the channel again and retry within the retry
 * budget; --expect-current is checked on every read (exit 5, nothing written).
 */
export const versionPromote = kind<VersionPromoteParams, PromoteResult>({
  describe: (p) => `make ${p.versionId} the Default of ${channelName(p)}`,
  request: (p, api) => ({
    method: 'POST',
    path: api.path('va', p.assetId, 'versions', p.versionId, 'deploy'),
    query: { targetPlatformId: p.platform },
    body: promoteBody(expectedChannel(p), p.versionId, p.envId, p.user),
  }),
  async predict(p, api) {
    const expected = expectedChannel(p);
    const body = promoteBody(expected, p.versionId, p.envId, p.user);
    const missing = await missingVersion(p, api);
    return {
      current: { state: p.channel.records[p.versionId] ?? null, default: defaultOf(p.channel) ?? null },
      decision: missing ?? decideVersionDeploy(expected, { versionId: p.versionId, ...body }),
      unchanged: p.channel.records[p.versionId] ?? null,
    };
  },
  waitsOutDeployment: true,
  check: (p) => `ahs asset status ${p.assetId} --platform ${p.platform} --env ${p.envId}`,
  async send(p, io) {
    const { api } = io;
    const name = channelName(p);
    const path = api.path('va', p.assetId, 'versions', p.versionId, 'deploy');
    const query = { targetPlatformId: p.platform };
    // The channel as read, plus the LIVE deploy of an earlier step: no read before sending. The
    // service's currentVersionId check is the compare-and-set: a pointer that moved meanwhile is a 409.
    let known = expectedChannel(p);
    for (let attempt = 0; ; attempt++) {
      checkExpected(known, p.expected, name);
      const previousDefault = defaultOf(known) ?? null;
      try {
        const answer = await api.post<DeployResponse>(path, promoteBody(known, p.versionId, p.envId, p.user), query);
        return { ...answer, previousDefault: previousDefault === p.versionId ? null : previousDefault, attempts: attempt + 1 };
      } catch (error) {
        if (!isApiError(error, 409) && !isApiError(error, 400)) throw error;
        // A 409 (or a 400 from a stale read) means the pointer moved: read again (the Default and this version's record).
        const read = await readVersionOnChannel(api, p, p.versionId, { version: false });
        const fresh = read.channel;
        const moved = (defaultOf(fresh) ?? null) !== previousDefault;
        if (p.converge && defaultOf(fresh) === p.versionId && read.defaultRecord) {
          io.out.info(`${p.versionId} is the Default of ${name} already: another writer promoted it meanwhile`);
          const before = defaultOf(p.channel) ?? null;
          return byAnother({ assetVersion: await readBack(api, { ...read.defaultRecord, envId: p.envId }), message: 'Already the Default: confirmed by a read of the channel.', previousDefault: before === p.versionId ? null : before, attempts: attempt + 1 });
        }
        if (isApiError(error, 400) && !moved) {
          // a real 400 (OFFLINE, already Default, ...)
          if (defaultOf(fresh) === p.versionId) idempotentHint(io.out, p.versionId, 'DEFAULT', name);
          throw error;
        }
        known = fresh;
        checkExpected(known, p.expected, name);
        if (!(await io.retry.next(attempt, 'contention', error.retryAfter))) {
          if (isApiError(error, 409)) throw error.asConflict();
          throw new ConflictError(`the Default of ${name} kept moving; gave up after ${attempt + 1} attempts`);
        }
        io.out.info(`the Default of ${name} moved (now ${defaultOf(known) ?? 'none'}); retrying`);
      }
    }
  },
  async settle(p, { api }) {
    const name = channelName(p);
    const [record] = await versionRecords(api, p.assetId, p.versionId, { platform: p.platform, envId: p.envId });
    const how = `the channel ${name} shows ${p.versionId} ${record?.state ?? 'not deployed'}`;
    if (record?.state !== 'DEFAULT') return { applied: false, how };
    const before = defaultOf(p.channel) ?? null;
    // The read shows the Default but not who made it: another writer's promotion of the same version looks the same.
    const previousDefault = before === p.versionId ? null : before;
    return { applied: true, how, result: { assetVersion: await readBack(api, { ...record, envId: p.envId }), message: CONFIRMED_BY_READ, previousDefault, attempts: 1 } };
  },
});

/** A deploy refused with a 400 because the version already is in that state: --idempotent makes such a re-run succeed. */
async function hintIdempotent(api: ApiClient, out: PlanOutput, assetId: string, platform: string, envId: string, versionId: string, intent: string): Promise<void> {
  const state = await readChannel(api, assetId, platform, envId).then(
    ({ channel }) => channel.records[versionId],
    () => undefined, // the service's error is the one to report
  );
  if (state === intent) idempotentHint(out, versionId, state, channelName({ assetId, platform, envId }));
}

function idempotentHint(out: PlanOutput, versionId: string, state: string, name: string): void {
  if (out.json) return;
  out.info(`hint: ${versionId} is already ${state} on ${name}; with --idempotent, a run that finds it so says so and exits 0 without sending`);
}

const CONFIRMED_BY_READ = 'Deployment confirmed by a read of the channel.';

/**
 * The deployment record of a settled deploy, in the deploy answer's shape
 * (its keys, in its order): the channel's entry and the version's own fields;
 * what neither read shows is null (ReadBackRecord).
 */
async function readBack(api: ApiClient, entry: AssetUrl): Promise<ReadBackRecord> {
  const version = await getVersion(api, entry.assetId, entry.versionId);
  return {
    version: entry.version,
    assetType: entry.assetType,
    versionId: entry.versionId,
    versionName: entry.versionName,
    envId: entry.envId,
    fallback: null,
    lock: null,
    state: entry.state,
    createdBy: null,
    updatedBy: null,
    createdAt: null,
    updatedAt: null,
    active: version.active,
    secured: entry.secured,
    size: version.size,
    targetPlatform: entry.targetPlatform,
    uploadStatus: version.uploadStatus,
  };
}

function expectedChannel(p: VersionPromoteParams): ChannelSnapshot {
  return p.afterLive ? afterLive(p.channel, p.versionId, p.afterLive) : p.channel;
}

export interface VersionDeleteParams {
  assetId: string;
  versionId: string;
  /** Where the version is deployed, as read. */
  records: DeploymentRecordRef[];
}

export const versionDelete = kind<VersionDeleteParams, undefined>({
  describe: (p) => `delete version ${p.versionId} of ${p.assetId}`,
  check: (p) => `ahs version get ${p.assetId} ${p.versionId}`,
  request: (p, api) => ({ method: 'DELETE', path: api.path('va', p.assetId, 'versions', p.versionId) }),
  async predict(p) {
    return { current: p.records, decision: decideVersionDelete(p.versionId, p.records) };
  },
  async settle({ assetId, versionId }, { api }) {
    if (await findVersion(api, assetId, versionId)) return { applied: false, how: `version ${versionId} still exists` };
    return { applied: true, how: `GET of version ${versionId} answers 404`, result: undefined };
  },
});
