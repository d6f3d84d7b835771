// version list ASSET_ID [--page N] [--page-size N] [--all] [--platform P]
// The service's version list has no platform filter (spec: pageNumber and
// pageSize only), so --platform reads every page and filters here; the
// envelope says so (`filter`), and its totalResults counts the filtered list.
import type { Run } from '../define.js';
import type { listSpec } from './index.js';
import { listPages, pageFooter, type Envelope } from '../../http/paging.js';
import type { Version } from '../../rules/schemas.js';
import { versionColumns } from '../../io/views/assets.js';
import { askAssetId } from '../../pickers/pick-asset.js';
import { listAllVersions } from '../../service/assets.js';
import { refuseMiscased } from '../suggest.js';
import { filterSetting } from '../../config/settings.js';

/** The spec's default page size, used when --page is given without --page-size. */
const DEFAULT_PAGE_SIZE = 50;

export const run: Run<typeof listSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const api = await ctx.api();
  const out = await ctx.output();
  // From the command line or AHS_PLATFORM (the same thing): a profile's default platform must not hide the other platforms' versions.
  const platform = filterSetting(await ctx.settings(), 'platform');
  if (platform === undefined) {
    const { doc, rows, merged } = await listPages<Version>(api, api.path('va', assetId, 'versions'), options);
    out.list(doc, rows, versionColumns, pageFooter(doc, merged));
    return;
  }
  const all = await listAllVersions(api, assetId);
  const matching = all.filter((v) => v.targetPlatform === platform);
  if (matching.length === 0) refuseMiscased('--platform', platform, all.map((v) => v.targetPlatform), `the versions of asset ${assetId}`);
  const doc = platformPage(matching, platform, options);
  const paged = options.page !== undefined || options.pageSize !== undefined;
  const footer = paged && !options.all ? pageFooter(doc, false) : `${doc.totalResults} ${platform} version(s) of ${all.length} (filtered by ahs: the service's list has no platform filter)`;
  out.list(doc, doc.results, versionColumns, footer);
};

type FilteredEnvelope = Envelope<Version> & { filter: { targetPlatform: string } };

/** The filtered list as one envelope: every match, or the page of it that --page / --page-size ask for. */
function platformPage(matching: Version[], platform: string, options: { page?: number; pageSize?: number; all?: boolean }): FilteredEnvelope {
  const filter = { targetPlatform: platform };
  if (options.all || (options.page === undefined && options.pageSize === undefined)) {
    return { totalResults: matching.length, pageNumber: 1, pageSize: matching.length, results: matching, filter };
  }
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const pageNumber = options.page ?? 1;
  const results = matching.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
  return { totalResults: matching.length, pageNumber, pageSize, results, filter };
}
