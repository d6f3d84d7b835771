// Every deployment record of the asset, OFFLINE included (the API hides
// OFFLINE records unless asked). json: one list envelope of asset-url
// entries; terminal: a platform x environment matrix; pipe: one row per record.
import type { Run } from '../define.js';
import type { statusSpec } from './index.js';
import { listEnvelope } from '../../io/output.js';
import { listRecords } from '../../service/assets.js';
import type { AssetUrl } from '../../rules/schemas.js';
import { recordColumns } from '../../io/views/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { refuseMiscased } from '../suggest.js';
import type { ApiClient } from '../../http/client.js';
import { compareText } from '../../order.js';
import { filterSetting } from '../../config/settings.js';

export const run: Run<typeof statusSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const api = await ctx.api();
  const out = await ctx.output();
  // --platform / --env here are filters, from the command line or AHS_PLATFORM / AHS_ENV
  // (the same thing): a profile's default platform must not hide the other platforms' records.
  const settings = await ctx.settings();
  const platform = filterSetting(settings, 'platform');
  const envId = filterSetting(settings, 'envId');
  const records = await listRecords(api, assetId, { platform, envId, state: options.state });
  if (records.length === 0 && (platform !== undefined || envId !== undefined)) await refuseMiscasedFilters(api, assetId, platform, envId);
  out.print(listEnvelope(records), (_doc, kit) => {
    if (records.length === 0) {
      out.info(`asset ${assetId} has no deployment records${options.state || platform || envId ? ' matching the filters' : ''}`);
      return undefined;
    }
    if (!kit.terminal) return kit.table(recordColumns(kit), records);
    const platforms = [...new Set(records.map((r) => r.targetPlatform))].sort();
    const envs = [...new Set(records.map((r) => r.envId))].sort(envOrder);
    const rows = platforms.map((platform) => [
      kit.style.bold(platform),
      ...envs.map(
        (env) =>
          records
            .filter((r) => r.targetPlatform === platform && r.envId === env)
            .map((r: AssetUrl) => `${r.versionId} ${kit.state(r.state)}${r.versionName ? kit.style.dim(` ${r.versionName}`) : ''}`)
            .join('\n') || kit.style.dim('-'),
      ),
    ]);
    // The matrix when it fits the terminal; else one row per record, fitted to its width (a wrapped grid breaks its borders).
    return kit.grid([assetId, ...envs], rows) ?? kit.table(recordColumns(kit), records);
  });
};

/** `--env PROD` where the asset's records say `prod`: a usage error, not "no deployment records". */
async function refuseMiscasedFilters(api: ApiClient, assetId: string, platform: string | undefined, envId: string | undefined): Promise<void> {
  const all = await listRecords(api, assetId);
  refuseMiscased('--env', envId, all.map((r) => r.envId), `the environments of asset ${assetId}'s records`);
  refuseMiscased('--platform', platform, all.map((r) => r.targetPlatform), `the platforms of asset ${assetId}'s records`);
}

const ENV_RANK: Record<string, number> = { dev: 0, development: 0, test: 1, qa: 1, staging: 2, stage: 2, preprod: 3, prod: 4, production: 4 };
function envOrder(a: string, b: string): number {
  return (ENV_RANK[a] ?? 2.5) - (ENV_RANK[b] ?? 2.5) || compareText(a, b);
}
