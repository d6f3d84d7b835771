// `ahs asset status` as an operation (issue 35): every deployment record of
// an asset, OFFLINE included (the API hides OFFLINE records unless asked),
// as one list envelope. The command reads its filters from the settings and
// draws the matrix; the library's client.assets.status gives them.
import type { ApiClient } from '../http/client.js';
import type { AssetUrl, Envelope } from '../rules/schemas.js';
import { listRecords } from '../service/assets.js';
import { refuseMiscased } from '../util/miscased.js';
import type { PlanContext } from '../plan/context.js';

export interface AssetStatusInput {
  assetId: string;
  /** Only the records of this platform / environment / state. */
  platform?: string | undefined;
  envId?: string | undefined;
  state?: AssetUrl['state'] | undefined;
}

/** How the caller named the filters, for the message of a miscased one (`--env`, or the library's `envId`). */
export interface StatusNames {
  platform: string;
  envId: string;
}

/**
 * The asset's records matching the filters, in one envelope (the JSON of
 * `ahs asset status`). A filter that matches nothing but would match with
 * other case (`PROD` where the records say `prod`) is a UsageError naming
 * the spelling, not an empty answer.
 */
export async function assetStatus(ctx: PlanContext, input: AssetStatusInput, names: StatusNames = { platform: 'platform', envId: 'envId' }): Promise<Envelope<AssetUrl>> {
  const { assetId, platform, envId, state } = input;
  const api = await ctx.api();
  const records = await listRecords(api, assetId, { platform, envId, state });
  if (records.length === 0 && (platform !== undefined || envId !== undefined)) await refuseMiscasedFilters(api, assetId, platform, envId, names);
  return { totalResults: records.length, pageNumber: 1, pageSize: records.length, results: records };
}

/** `--env PROD` where the asset's records say `prod`: a usage error, not "no deployment records". */
async function refuseMiscasedFilters(api: ApiClient, assetId: string, platform: string | undefined, envId: string | undefined, names: StatusNames): Promise<void> {
  const all = await listRecords(api, assetId);
  refuseMiscased(names.envId, envId, all.map((r) => r.envId), `the environments of asset ${assetId}'s records`);
  refuseMiscased(names.platform, platform, all.map((r) => r.targetPlatform), `the platforms of asset ${assetId}'s records`);
}
