// The asset writes as operations (issue 34): typed input, already resolved
// (no prompt, no setting read here), a Plan whose `done` is the typed result.
// `ahs asset create|update|delete|undeploy` ask for what is missing and print
// the result; the library's client.assets.* call the same functions.
import { UsageError } from '../errors.js';
import { assetCreateBody, assetUpdateBody, deleteBody, undeployBody, type Asset } from '../rules/schemas.js';
import { recordList } from '../rules/assets.js';
import { getAsset } from '../service/assets.js';
import { plan, type Plan } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import { targetedRecords, type UndeployAnswer } from '../plan/kinds/assets.js';
import type { PlanContext } from '../plan/context.js';
import { validateInput, type FieldNames } from './validate.js';

export interface AssetCreateInput {
  assetId: string;
  assetName: string;
  assetType: string;
  description?: string | undefined;
  /** false: delivered without an API key. Default true. */
  secured?: boolean | undefined;
  localCacheControl?: boolean | undefined;
  /** Seconds (a string of digits is taken too: it is checked by the schema). */
  localCacheMaxAge?: number | string | undefined;
  /** The acting user (createdBy). */
  user: string;
}

/** The line `ahs asset create` prints on stderr once the asset is made, and the library's onMessage hears. */
export function assetCreatedLine(asset: Asset): string {
  return `Created asset ${asset.assetId}`;
}

/** The line `ahs asset update` prints on stderr once the asset is updated, and the library's onMessage hears. */
export function assetUpdatedLine(asset: Asset): string {
  return `Updated asset ${asset.assetId}`;
}

/** POST /va: the asset it made. A lost answer is settled by reading the asset back. */
export async function createAsset(_ctx: PlanContext, input: AssetCreateInput, names: FieldNames = {}): Promise<Plan<Asset>> {
  const { user, ...fields } = input;
  const body = validateInput(assetCreateBody, { ...fields, createdBy: user }, names);
  const create = steps.assetCreate({ body });
  return plan([create], (results) => results.of(create)!);
}

export interface AssetUpdateInput {
  assetId: string;
  assetName?: string | undefined;
  description?: string | undefined;
  /** The API requires assetType on every PUT: the current one is read and sent when this is not given. */
  assetType?: string | undefined;
  localCacheControl?: boolean | undefined;
  /** Seconds (a string of digits is taken too: it is checked by the schema). */
  localCacheMaxAge?: number | string | undefined;
  /** false: mark the asset inactive; true: active again. */
  active?: boolean | undefined;
  user: string;
}

/** An update that names no field to change is refused (`nothing`: how the caller says which it takes), before the acting user is asked for. */
export function refuseEmptyUpdate(changes: Omit<AssetUpdateInput, 'assetId' | 'user'>, nothing: string): void {
  if (Object.values(changes).every((v) => v === undefined)) throw new UsageError(nothing);
}

/** PUT /va/{id}: the asset as updated. */
export async function updateAsset(ctx: PlanContext, input: AssetUpdateInput, names: FieldNames = {}, nothingToUpdate = 'nothing to update: give at least one field to change'): Promise<Plan<Asset>> {
  const { assetId, assetType, user, ...changes } = input;
  refuseEmptyUpdate({ assetType, ...changes }, nothingToUpdate);
  // Validate what was given before reading anything (assetType is filled in below when absent).
  validateInput(assetUpdateBody, { updatedBy: user, assetType: assetType ?? 'x', ...changes }, names);
  const current = assetType === undefined ? await getAsset(await ctx.api(), assetId) : undefined;
  const body = validateInput(assetUpdateBody, { updatedBy: user, assetType: assetType ?? current!.assetType, ...changes }, names);
  const update = steps.assetUpdate({ assetId, body, before: current });
  return plan([update], (results) => results.of(update)!);
}

/** `asset delete`: the service answers with no body; the CLI's JSON names what went. */
export interface AssetDeleted {
  deleted: true;
  assetId: string;
}

export interface AssetDeleteInput {
  assetId: string;
  /** The acting user (deletedBy). */
  user: string;
}

/**
 * DELETE /va/{id}, after a confirmation; an asset that still has versions is
 * refused before the question. A lost answer is settled by reading the asset
 * (404: it was deleted).
 */
export async function deleteAsset(_ctx: PlanContext, input: AssetDeleteInput): Promise<Plan<AssetDeleted>> {
  const { assetId, user } = input;
  const body = validateInput(deleteBody, { deletedBy: user });
  // The rules already say whether the service will refuse (versions left): the executor refuses before asking.
  const refuse = { hint: `delete its versions first (ahs version list ${assetId}, then ahs version delete ${assetId} VERSION_ID)` };
  const confirm = { message: `Delete asset ${assetId}? This cannot be undone`, action: `asset delete ${assetId}` };
  return plan([steps.assetDelete({ assetId, body }, { refuse })], (): AssetDeleted => ({ deleted: true, assetId }), { confirm });
}

export interface AssetUndeployInput {
  assetId: string;
  envId: string;
  platforms: string[];
}

/**
 * Removes every version's deployment record for the given platforms in one
 * environment (there is no per-version undeploy). The records are read first,
 * so the confirmation says what will be removed; a lost answer is settled by
 * reading them again. Its result is the service's answer (or, settled, one
 * that says so).
 */
export async function undeployAsset(ctx: PlanContext, input: AssetUndeployInput, names: FieldNames = {}): Promise<Plan<UndeployAnswer>> {
  const { assetId, envId } = input;
  const targetPlatforms = [...new Set(input.platforms.map((p) => p.trim()).filter(Boolean))];
  const body = validateInput(undeployBody, { envId, targetPlatforms }, names);
  const records = await targetedRecords(await ctx.api(), assetId, body);
  const removed = records.length ? `removes ${recordList(records)}` : 'no deployment record there now';
  const undeploy = steps.assetUndeploy({ assetId, body, records });
  // Asked by the executor, once change control let the write through: never a question whose yes is then refused.
  return plan([undeploy], (results) => results.of(undeploy)!, { confirm: { message: `Undeploy every version of ${assetId} for ${targetPlatforms.join(', ')} in ${envId} (${removed})?`, action: `asset undeploy ${assetId}` } });
}
