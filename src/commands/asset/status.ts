// Every deployment record of the asset, OFFLINE included: the operation
// (src/operations/asset-status.ts, also the library's client.assets.status)
// reads them. json: one list envelope of asset-url entries; terminal: a
// platform x environment matrix; pipe: one row per record.
import type { Run } from '../define.js';
import type { statusSpec } from './index.js';
import type { AssetUrl } from '../../rules/schemas.js';
import { recordColumns } from '../../io/views/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { compareText } from '../../order.js';
import { filterSetting } from '../../config/settings.js';
import { assetStatus } from '../../operations/asset-status.js';

export const run: Run<typeof statusSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const out = await ctx.output();
  // --platform / --env here are filters, from the command line or AHS_PLATFORM / AHS_ENV
  // (the same thing): a profile's default platform must not hide the other platforms' records.
  const settings = await ctx.settings();
  const platform = filterSetting(settings, 'platform');
  const envId = filterSetting(settings, 'envId');
  const envelope = await assetStatus(ctx, { assetId, platform, envId, state: options.state }, { platform: '--platform', envId: '--env' });
  const records = envelope.results;
  out.print(envelope, (_doc, kit) => {
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

const ENV_RANK: Record<string, number> = { dev: 0, development: 0, test: 1, qa: 1, staging: 2, stage: 2, preprod: 3, prod: 4, production: 4 };
function envOrder(a: string, b: string): number {
  return (ENV_RANK[a] ?? 2.5) - (ENV_RANK[b] ?? 2.5) || compareText(a, b);
}
