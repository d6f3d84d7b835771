// Missing positional arguments (ASSET_ID, VERSION_ID) and the channel of a
// deploy: in a terminal they are picked from lists read from the service;
// without one (CI, --no-input, a pipe) they stay a usage error naming the
// argument (Context.need). Nothing here is read unless a prompt is shown.
import { isSentinelAsset } from '../rules/control-names.js';
import type { Context } from '../io/context.js';
import { UsageError } from '../errors.js';
import { fetchAll } from '../http/paging.js';
import { listAllVersions, listRecords } from '../service/assets.js';
import { assetId as assetIdSchema, type Asset, type AssetUrl, type Version } from '../rules/schemas.js';
import type { Choice } from '../io/prompt.js';
import { compareText } from '../order.js';

/** ASSET_ID: given, or picked from the domain's assets in a terminal. */
export function askAssetId(ctx: Context, given: string | undefined, message = 'Asset'): Promise<string> {
  return ctx.need(given, {
    flag: 'ASSET_ID',
    message,
    schema: assetIdSchema,
    choices: async () => {
      const api = await ctx.api();
      // Change control's sentinels are not content: never offered.
      const assets = (await fetchAll<Asset>(api, api.path('va'))).filter((a) => !isSentinelAsset(a.assetId));
      if (assets.length === 0) throw new UsageError('ASSET_ID is required: the domain has no assets yet (create one with ahs asset create ASSET_ID)');
      return assets.map((a) => ({ name: `${a.assetId}  ${a.assetName}`, value: a.assetId }));
    },
  });
}

export interface VersionFilter {
  /** Only versions of this platform. */
  platform?: string;
  /** Show the state on this environment's channel (else every deployment of the version). */
  envId?: string;
  message?: string;
}

/** VERSION_ID: given, or picked from the asset's versions (with their deployment states) in a terminal. */
export function askVersionId(ctx: Context, assetId: string, given: string | undefined, filter: VersionFilter = {}): Promise<string> {
  return ctx.need(given, {
    flag: 'VERSION_ID',
    message: filter.message ?? 'Version',
    choices: async () => {
      const api = await ctx.api();
      // Blocked versions are marked (a promotion of one is refused, exit 12); a listing that cannot be read marks none.
      // Imported here: every command that may pick loads this module, and only a prompt needs change control's reads.
      const { blocksAmong, readControlRecords } = await import('../service/change-control.js');
      const [versions, records, control] = await Promise.all([listAllVersions(api, assetId), listRecords(api, assetId, { platform: filter.platform }), readControlRecords(api).catch(() => [])]);
      const candidates = versions.filter((v) => !filter.platform || v.targetPlatform === filter.platform);
      if (candidates.length === 0) {
        const where = filter.platform ? ` for platform ${filter.platform}` : '';
        throw new UsageError(`VERSION_ID is required: asset ${assetId} has no versions${where} (upload one with ahs version upload ${assetId} FILE)`);
      }
      const blocked = new Map(blocksAmong(control, assetId, candidates.map((v) => v.versionId)).map((b) => [b.versionId, b]));
      return candidates
        .sort((a, b) => compareText(a.targetPlatform, b.targetPlatform) || b.version - a.version)
        .map((v): Choice<string> => {
          const block = blocked.get(v.versionId);
          const mark = block ? `  BLOCKED${block.reason ? ` (${block.reason})` : ''}` : '';
          return { name: `${versionLabel(v, records, filter)}${mark}`, value: v.versionId };
        });
    },
  });
}

function versionLabel(v: Version, records: AssetUrl[], filter: VersionFilter): string {
  const mine = records.filter((r) => r.versionId === v.versionId && r.targetPlatform === v.targetPlatform);
  let state: string;
  if (filter.envId) state = mine.find((r) => r.envId === filter.envId)?.state ?? `not deployed in ${filter.envId}`;
  else state = mine.length ? mine.map((r) => `${r.envId} ${r.state}`).join(', ') : 'not deployed';
  return [v.versionId, v.versionName, filter.platform ? '' : v.targetPlatform, state].filter(Boolean).join('  ');
}

/** The platforms an asset has versions for (choices for --platform). */
export async function platformChoices(ctx: Context, assetId: string): Promise<Choice<string>[]> {
  const versions = await listAllVersions(await ctx.api(), assetId);
  return [...new Set(versions.map((v) => v.targetPlatform))].sort().map((p) => ({ name: p, value: p }));
}

const OTHER = '\u0000other';

/**
 * --env from flag/env/profile, or in a terminal picked among the environments
 * the asset is already deployed in, with "other…" for a new one (the API
 * lists no environments).
 */
export async function askEnv(ctx: Context, assetId: string, platform?: string): Promise<string> {
  const picked = await ctx.setting('envId', {
    message: 'Environment',
    choices: async () => {
      const records = await listRecords(await ctx.api(), assetId);
      const here = new Set(records.filter((r) => !platform || r.targetPlatform === platform).map((r) => r.envId));
      const envs = [...new Set(records.map((r) => r.envId))].sort();
      return [
        ...envs.map((e) => ({ name: here.has(e) ? e : `${e}  (nothing on ${platform} yet)`, value: e })),
        { name: 'other…', value: OTHER },
      ];
    },
  });
  return picked === OTHER ? ctx.need<string>(undefined, { flag: '--env', message: 'Environment id' }) : picked;
}
