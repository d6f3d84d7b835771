// ahs fetch COLLECTION_ID [--env E] [--dir DIR] [--item ID...] [--pattern GLOB...] [--skip-existing] [--concurrency N] [--manifest]
// ahs fetch --url DOWNLOAD_URL [--dir DIR]   (a deployed collection's URL, or one file's: a version's download URL)
// ahs fetch                      (in a terminal: browse, pick, download)
//
// Asks for what is missing (browse, pick), then the operation
// (src/operations/fetch.ts, also the library's client.fetch) reads the
// delivery document and downloads the items in parallel into --dir,
// atomically, replacing what is there unless --skip-existing; this prints
// its result and its summary line.
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { fetchSpec } from './index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { DeliveryEntry } from '../../rules/schemas.js';
import { readSums } from '../../transfer/digest.js';
import { formatBytes } from '../../io/progress.js';
import { escapeControls } from '../../util/escape.js';
import { deliveryFileUrl } from '../../service/delivery.js';
import { collectionArg, liveEnvArg } from '../../pickers/pick-collection.js';
import { compareText } from '../../order.js';
import { fetchCollection, fetchUrl, readFetchSource, type FetchNames, type FetchSource } from '../../operations/fetch.js';

/** Messages name the command's flags and arguments, and where the settings come from. */
const SETTINGS = { deliveryUrl: "--delivery-url (or AHS_DELIVERY_URL, or the profile's deliveryUrl)", baseUrl: '--base-url (or AHS_BASE_URL, or the profile\'s baseUrl)' };
const names: FetchNames = (field) => (field === 'deliveryUrl' || field === 'baseUrl' ? SETTINGS[field] : nameOf(fetchSpec, field));

export const run: Run<typeof fetchSpec> = async (options, ctx) => {
  if (options.url && options.collectionId) throw new UsageError(`give either ${nameOf(fetchSpec, 'collectionId')} or ${nameOf(fetchSpec, 'url')}, not both`);
  // The URL names the environment already: an --env beside it would be ignored.
  if (options.url && ctx.globals.env !== undefined) throw new UsageError(`--env: not used with ${nameOf(fetchSpec, 'url')} (the URL names the environment); remove it`);
  let itemIds = options.item;
  // The sums file is read before anything is sent: a bad one is exit 2.
  if (options.verify && options.manifest) throw new UsageError(`${nameOf(fetchSpec, 'verify')}: not used with ${nameOf(fetchSpec, 'manifest')} (nothing is downloaded); remove one`);
  const sums = options.verify ? await readSums(options.verify, nameOf(fetchSpec, 'verify')) : undefined;

  let source: FetchSource;
  if (options.url) {
    source = { url: options.url };
  } else {
    let collectionId = options.collectionId;
    if (!collectionId && itemIds && itemIds.length > 0) {
      // `--item` takes several values, so `ahs fetch --item ID COLLECTION_ID` reads the collection as an item.
      throw new UsageError(`COLLECTION_ID is required with --item (got items ${itemIds.join(', ')}); --item takes several values, so put COLLECTION_ID first: ahs fetch COLLECTION_ID --item ITEM_ID...`);
    }
    let envId: string | undefined;
    if (!collectionId && ctx.io.canPrompt && !options.manifest) {
      const { browse } = await import('./browse.js');
      const picked = await browse(ctx);
      ({ collectionId, envId } = picked);
      itemIds = picked.itemIds;
    }
    collectionId = await collectionArg(ctx, collectionId);
    envId ??= await liveEnvArg(ctx, collectionId, 'Environment (where the collection is Live)');
    source = { collectionId, envId };
  }

  const out = await ctx.output();
  if (options.manifest) {
    const { doc, deliveryBase } = await readFetchSource(ctx, source, { records: false }, names);
    out.print(doc, (d, kit) => {
      const url = (e: DeliveryEntry) => deliveryFileUrl(deliveryBase, e.downloadUrl);
      const fit = kit.terminal ? manifestFit(d.assetItemUrls, url, terminalColumns(ctx)) : { name: Infinity, url: Infinity };
      return kit.table(
        [
          { header: 'ITEM', get: (e: DeliveryEntry) => e.assetItemId },
          { header: 'NAME', get: (e: DeliveryEntry) => middleCut(e.assetItemName, fit.name) },
          { header: 'TYPE', get: (e: DeliveryEntry) => e.mimetype },
          { header: 'ANCHOR', get: (e: DeliveryEntry) => (d.anchorAsset?.assetItemId === e.assetItemId ? 'yes' : '') },
          { header: 'URL', get: (e: DeliveryEntry) => middleCut(url(e), fit.url) },
        ],
        d.assetItemUrls,
      );
    });
    return;
  }

  const input = { dir: options.dir, itemIds, patterns: options.pattern, skipExisting: options.skipExisting, concurrency: options.concurrency, verify: options.verify, sums };
  // A --url is a collection's delivery document or one file (a version's download URL): its answer says which.
  const { result, notChecked, failure } = 'url' in source ? await fetchUrl(ctx, { ...input, source }, names) : await fetchCollection(ctx, { ...input, source }, names);
  out.print(result, (r, kit) => {
    const rows = [
      ...r.downloaded.map((f) => ({ name: f.name, id: f.id, result: kit.style.green('downloaded'), detail: formatBytes(f.bytes) })),
      ...r.skipped.map((f) => ({ name: f.name, id: f.id, result: 'skipped', detail: f.reason })),
      ...r.failed.map((f) => ({ name: f.name, id: f.id, result: kit.style.red('failed'), detail: f.error })),
    ];
    if (rows.length === 0) return undefined;
    // By name, as item sync and the picker list them.
    rows.sort((a, b) => compareText(a.name, b.name));
    return kit.table(
      [
        { header: 'FILE', get: (row: (typeof rows)[number]) => row.name },
        { header: 'ITEM', get: (row) => row.id },
        { header: 'RESULT', get: (row) => row.result },
        { header: 'DETAIL', get: (row) => row.detail },
      ],
      rows,
    );
  });
  const failedCount = `${result.failed.length - notChecked} failed${notChecked > 0 ? `, ${notChecked} not checked (not in ${escapeControls(options.verify ?? 'the sums file')})` : ''}`;
  out.info(`${result.downloaded.length} downloaded, ${result.skipped.length} skipped, ${failedCount} → ${escapeControls(result.dir)}`);
  if (failure) throw failure;
};

function terminalColumns(ctx: Context): number {
  const columns = (ctx.io.out as { columns?: number }).columns;
  return typeof columns === 'number' && columns > 20 ? columns : 80;
}

/**
 * Widths of the NAME and URL columns of the manifest table so that a row fits
 * `columns` (a wrapped bordered table is unreadable): the fixed columns keep
 * their width, NAME and URL share the rest, each losing its middle.
 */
function manifestFit(entries: DeliveryEntry[], url: (e: DeliveryEntry) => string, columns: number): { name: number; url: number } {
  const widest = (header: string, values: string[]) => Math.max(header.length, ...values.map((v) => [...v].length));
  const fixed = widest('ITEM', entries.map((e) => e.assetItemId)) + widest('TYPE', entries.map((e) => e.mimetype)) + widest('ANCHOR', []);
  const names = widest('NAME', entries.map((e) => e.assetItemName));
  const urls = widest('URL', entries.map(url));
  // Each of the 5 columns adds a space either side and a border; one more border closes the row.
  const room = columns - fixed - 5 * 3 - 1;
  if (names + urls <= room) return { name: names, url: urls };
  const name = Math.min(names, Math.max(12, Math.floor(room / 2)));
  return { name, url: Math.max(12, room - name) };
}

/** `text` in at most `max` characters, cut in the middle (the start and the end of a name or URL say the most). */
function middleCut(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const keep = max - 1;
  return `${chars.slice(0, Math.ceil(keep / 2)).join('')}…${chars.slice(chars.length - Math.floor(keep / 2)).join('')}`;
}
