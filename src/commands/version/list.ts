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
import { blocksAmong, readControlRecords, type BlockRecord } from '../../service/change-control.js';
import type { Output } from '../../io/output.js';

/** The spec's default page size, used when --page is given without --page-size. */
const DEFAULT_PAGE_SIZE = 50;

export const run: Run<typeof listSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const api = await ctx.api();
  const out = await ctx.output();
  // From the command line or AHS_PLATFORM (the same thing): a profile's default platform must not hide the other platforms' versions.
  const platform = filterSetting(await ctx.settings(), 'platform');
  // Which versions are blocked (ahs version block): ahs-control's versions, read beside the asset's.
  const records = readControlRecords(api);
  records.catch(() => undefined);
  const blocksOf = (versions: Version[]) => records.then((all) => blocksAmong(all, assetId, versions.map((v) => v.versionId)), (error: unknown) => error as Error);
  if (platform === undefined) {
    const { doc, rows, merged } = await listPages<Version>(api, api.path('va', assetId, 'versions'), options);
    const blocked = await blocksOf(rows);
    out.list(withBlocks(doc, blocked), rows, versionColumns, pageFooter(doc, merged));
    sayBlocks(out, assetId, blocked);
    return;
  }
  const all = await listAllVersions(api, assetId);
  const matching = all.filter((v) => v.targetPlatform === platform);
  if (matching.length === 0) refuseMiscased('--platform', platform, all.map((v) => v.targetPlatform), `the versions of asset ${assetId}`);
  const doc = platformPage(matching, platform, options);
  const paged = options.page !== undefined || options.pageSize !== undefined;
  const footer = paged && !options.all ? pageFooter(doc, false) : `${doc.totalResults} ${platform} version(s) of ${all.length} (filtered by ahs: the service's list has no platform filter)`;
  const blocked = await blocksOf(doc.results);
  out.list(withBlocks(doc, blocked), doc.results, versionColumns, footer);
  sayBlocks(out, assetId, blocked);
};

/** The envelope, with `blocked` (each block among its versions: who, when, why) when there is one. */
function withBlocks<D extends object>(doc: D, blocked: BlockRecord[] | Error): D | (D & { blocked: Array<Pick<BlockRecord, 'versionId' | 'actor' | 'createdAt' | 'reason'>> }) {
  if (blocked instanceof Error || blocked.length === 0) return doc;
  return { ...doc, blocked: blocked.map(({ versionId, actor, createdAt, reason }) => ({ versionId, actor, createdAt, reason })) };
}

/** Each blocked version said under the table (stdout keeps the service's columns); a listing that failed, said once. */
function sayBlocks(out: Output, assetId: string, blocked: BlockRecord[] | Error): void {
  if (blocked instanceof Error) {
    out.warn(`whether these versions are blocked could not be read (${blocked.message}); ahs version block refusals still apply to every write`);
    return;
  }
  for (const block of blocked) {
    const who = [block.actor ? `by ${block.actor}` : '', block.createdAt ? `at ${block.createdAt}` : ''].filter(Boolean).join(' ');
    out.info(`! ${block.versionId} is blocked${who ? ` (${who}${block.reason ? `: ${block.reason}` : ''})` : block.reason ? ` (${block.reason})` : ''}: promotions refuse it until ahs version unblock ${assetId} ${block.versionId}; it stays downloadable`);
  }
}

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
