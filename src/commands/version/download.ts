// version download ASSET_ID VERSION_ID [--env E] [-O FILE]
// Asks for the asset and version when missing; the operation
// (src/operations/fetch.ts downloadVersion, also the library's
// client.versions.download) downloads the version's file through its
// deployed URL, atomically and streamed; this prints where it went.
import type { Run } from '../define.js';
import type { downloadSpec } from './index.js';
import { askAssetId, askVersionId } from '../../pickers/pick-asset.js';
import { formatBytes } from '../../io/progress.js';
import { downloadVersion } from '../../operations/fetch.js';

export const run: Run<typeof downloadSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const versionId = await askVersionId(ctx, assetId, options.versionId, { message: 'Version to download' });
  const envId = (await ctx.settings()).get('envId');
  const result = await downloadVersion(ctx, { assetId, versionId, envId, out: options.out });
  const out = await ctx.output();
  out.print(result, (r) => {
    out.success(`${r.versionId} (${formatBytes(r.bytes)}, from ${r.envId}) → ${r.path}`);
    return r.path;
  });
};
