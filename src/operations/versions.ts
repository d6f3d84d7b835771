// The version writes as operations (issue 34): typed input, already resolved
// (no prompt, no setting read here), a Plan whose `done` is the typed result.
// `ahs version upload|delete` ask for what is missing and print the result;
// the library's client.versions.upload|delete call the same functions.
import type { DeploymentRecordRef } from '../rules/index.js';
import { versionUploadFields, type Version } from '../rules/schemas.js';
import type { ApiClient } from '../http/client.js';
import { localFile } from '../transfer/upload.js';
import { getVersion, listRecords } from '../service/assets.js';
import { plan, type Plan } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import type { PlanContext } from '../plan/context.js';
import { validateInput, type FieldNames } from './validate.js';

export interface VersionUploadInput {
  assetId: string;
  /** The path of the file to upload. */
  file: string;
  platform: string;
  versionName: string;
  /** The acting user (createdBy). */
  user: string;
}

/** A version, by its asset and id. */
export interface VersionKey {
  assetId: string;
  versionId: string;
}

/** POST of the file as a streamed multipart body, progress on stderr (src/service/version-upload.ts): the version it made. */
export async function uploadVersion(ctx: PlanContext, input: VersionUploadInput, names: FieldNames = {}): Promise<Plan<Version>> {
  const { assetId, file, platform, versionName, user } = input;
  const fields = validateInput(versionUploadFields, { versionName, createdBy: user }, names);
  const local = await localFile(file);
  await warnEmpty(ctx, local);
  const upload = steps.versionUpload({ assetId, platform, fields, file: local });
  return plan([upload], (results) => results.of(upload)!);
}

/**
 * A version of 0 bytes is warned of, not refused: the spec computes `size`
 * from the file and names no lower bound (its 400 is for no file at all),
 * so an empty file is a file the service takes, and ahs does not refuse what
 * the service accepts. But it is most often a build step that wrote nothing,
 * and a version cannot be replaced once uploaded (only deleted while it is
 * deployed nowhere), so the run says so before sending.
 */
export async function warnEmpty(ctx: PlanContext, file: { path: string; size: number }): Promise<void> {
  if (file.size === 0) (await ctx.output()).warn(`${file.path} is empty (0 bytes): a version cannot be replaced once uploaded (check the step that built it; ahs version delete removes one deployed nowhere)`);
}

/** `version delete`: the service answers with no body; the CLI's JSON names what went. */
export interface VersionDeleted {
  deleted: true;
  assetId: string;
  versionId: string;
}

/**
 * DELETE of the version, after a confirmation. The version's deployments are
 * read first: when it is LIVE or DEFAULT somewhere the service would refuse,
 * so nothing is asked and nothing is sent (the step's refusal: exit 1, the
 * service's error and how to get past it). A lost answer is settled by
 * reading the version.
 */
export async function deleteVersion(ctx: PlanContext, input: VersionKey): Promise<Plan<VersionDeleted>> {
  const { assetId, versionId } = input;
  const deployments = await deploymentsOf(await ctx.api(), assetId, versionId);
  const step = steps.versionDelete({ assetId, versionId, records: deployments.records }, { refuse: { hint: howToFree(assetId, versionId, deployments) } });
  const confirm = { message: `Delete version ${versionId} of ${assetId}? This cannot be undone`, action: `version delete ${versionId}` };
  return plan([step], (): VersionDeleted => ({ deleted: true, assetId, versionId }), { confirm });
}

interface Deployments {
  platform: string;
  records: DeploymentRecordRef[];
}

/** Where the version is deployed, in any state (a missing version is the GET's 404: exit 4). */
async function deploymentsOf(api: ApiClient, assetId: string, versionId: string): Promise<Deployments> {
  const { targetPlatform: platform } = await getVersion(api, assetId, versionId);
  const records = await listRecords(api, assetId, { platform });
  return { platform, records: records.filter((r) => r.versionId === versionId).map((r) => ({ envId: r.envId, state: r.state })) };
}

/** What makes the version deletable: OFFLINE wherever it is LIVE; a Default must first be replaced. */
function howToFree(assetId: string, versionId: string, { platform, records }: Deployments): string {
  const steps = records.flatMap((r) => {
    const offline = `ahs deploy ${assetId} ${versionId} --platform ${platform} --env ${r.envId} --state OFFLINE`;
    if (r.state === 'DEFAULT') return [`make another version the Default in ${r.envId}, then ${offline}`];
    return r.state === 'LIVE' ? [offline] : [];
  });
  return `first ${steps.join('; ')}`;
}
