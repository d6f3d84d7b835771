// ahs verify COLLECTION_ID DIR [--env E] | ASSET_ID FILE --platform P --env E [--version ID] [--sums SHA256SUMS]
// What the delivery network serves, hashed as it streams (never written),
// against the SHA-256 of the local files or the lines of a sums file
// (cli.md "In CI, and from code"). Reads only: no plan.
import { readdir, stat } from 'node:fs/promises';
import { nameOf, type Run } from '../define.js';
import { verifySpec } from './index.js';
import type { Context } from '../../context.js';
import { ExitCode, mismatchBody, NotFoundError, PartialFailureError, UsageError } from '../../errors.js';
import type { Item } from '../../rules/schemas.js';
import { findAsset, findVersion, getVersion, listRecords } from '../../service/assets.js';
import { listItems } from '../../service/collections.js';
import { deliveryFileUrl, hashServed, readDeployedCollection, servedUrl } from '../../service/delivery.js';
import { askAssetId, askEnv } from '../../pickers/pick-asset.js';
import { collectionArg, liveEnvArg } from '../../pickers/pick-collection.js';
import { fileSha256, readSums, shortDigest, sumsFinder, sumsFromInside } from '../../transfer/digest.js';
import type { DownloadTask, HashSummary } from '../../transfer/download.js';
import { eachLimited } from '../../util/pool.js';
import { NameAllocator } from '../../transfer/safe-name.js';
import { topFiles } from '../../transfer/top-files.js';
import { escapeControls } from '../../util/escape.js';
import { compareText } from '../../order.js';

export interface VerifyResult {
  matched: string[];
  differ: Array<{ name: string; expected: string; actual: string }>;
  missing: string[];
  extra: string[];
  failed: Array<{ name: string; error: string }>;
}

/** What is served, by the name the local file (or sums line) has. */
interface Served {
  name: string;
  task: DownloadTask;
}

/** Where the expected digests come from: the local files (read lazily, once each) or a sums file. */
interface Expected {
  names: string[];
  digest(name: string): Promise<string>;
  /** "DIR", "FILE" or the sums file, for messages. */
  source: string;
}

export const run: Run<typeof verifySpec> = async (options, ctx) => {
  const kind = await whatToVerify(options, ctx);
  const out = await ctx.output();
  // FILE is what the version is checked against: its row names FILE, whatever the version's file is called.
  const { served, where } = kind.asset ? await servedVersion(ctx, options.id, options.version, options.sums ? undefined : options.path) : await servedCollection(ctx, options.id);
  const expected = options.sums ? await fromSums(options.sums, served.map((s) => s.name), out) : kind.asset ? fromFile(options.path!) : await fromFolder(options.path!, options.followLinks === true, out);

  const result: VerifyResult = { matched: [], differ: [], missing: [], extra: [], failed: [] };
  const listed = new Set(expected.names);
  const checked = served.filter((s) => listed.has(s.name));
  result.missing = served.filter((s) => !listed.has(s.name)).map((s) => s.name);
  const servedNames = new Set(served.map((s) => s.name));
  result.extra = expected.names.filter((name) => !servedNames.has(name));

  // The local digests are taken while the downloads run.
  const [hashes, local] = await Promise.all([
    hashServed(ctx, checked.map((s) => s.task), { label: checked.length === 1 ? `verifying ${checked[0]!.name}` : `verifying ${checked.length} files`, concurrency: options.concurrency }),
    localDigests(expected, checked.map((s) => s.name)),
  ]);
  const byId = new Map(hashes.hashed.map((h) => [h.id, h]));
  for (const { name, task } of checked) {
    const actual = byId.get(task.id)?.sha256;
    if (actual === undefined) continue;
    const wanted = local.get(name)!;
    if (actual === wanted) result.matched.push(name);
    else result.differ.push({ name, expected: wanted, actual });
  }
  result.failed = hashes.failed.map((f) => ({ name: f.name, error: f.error }));
  for (const list of [result.matched, result.missing, result.extra]) list.sort();
  result.differ.sort((a, b) => compareText(a.name, b.name));

  print(out, result, expected.source);
  const problems = result.differ.length + result.missing.length + result.extra.length + result.failed.length;
  if (problems === 0) {
    out.info(`${result.matched.length} file(s) of ${where} match ${escapeControls(expected.source)} byte for byte`);
    return;
  }
  throw failure(result, where, expected.source, hashes);
};

/** Collection or asset: from the local path (a folder or a file), or, with --sums alone, from --platform / --version on the command line. */
async function whatToVerify(options: Parameters<Run<typeof verifySpec>>[0], ctx: Context): Promise<{ asset: boolean }> {
  const pathName = nameOf(verifySpec, 'path');
  const sumsFlag = nameOf(verifySpec, 'sums');
  if (options.sums !== undefined && options.path !== undefined) throw new UsageError(`give either ${pathName} or ${sumsFlag}, not both (${sumsFlag} checks against the sums file instead of local files)`);
  if (options.sums !== undefined) return { asset: options.version !== undefined || ctx.globals.platform !== undefined };
  if (options.path === undefined) throw new UsageError(`${pathName} is required: a folder to compare a collection with, or a file to compare an asset's version with (or ${sumsFlag} SHA256SUMS)`);
  const info = await stat(options.path).catch(() => undefined);
  if (!info) throw new UsageError(`${pathName} ${escapeControls(options.path)}: no such file or folder`);
  if (info.isDirectory()) {
    if (options.version !== undefined) throw new UsageError(`${nameOf(verifySpec, 'version')}: only for an asset (a FILE); ${escapeControls(options.path)} is a folder`);
    return { asset: false };
  }
  if (info.isFile()) return { asset: true };
  throw new UsageError(`${pathName} ${escapeControls(options.path)}: not a regular file or a folder`);
}

/** The items a deployed collection serves, each under the name fetch would give its file. */
async function servedCollection(ctx: Context, given: string | undefined): Promise<{ served: Served[]; where: string }> {
  const collectionId = await collectionArg(ctx, given);
  const envId = await liveEnvArg(ctx, collectionId, 'Environment (where the collection is Live)');
  const { doc, deliveryBase } = await readDeployedCollection(ctx, collectionId, envId);
  const records = await itemRecords(ctx, collectionId);
  const names = new NameAllocator();
  const seen = new Set<string>();
  const served: Served[] = [];
  for (const entry of doc.assetItemUrls) {
    if (seen.has(entry.assetItemId)) continue;
    seen.add(entry.assetItemId);
    const record = records.get(entry.assetItemId);
    const name = names.allocate(record?.fileName || entry.assetItemName, entry.assetItemId);
    const size = typeof record?.size === 'number' ? record.size : undefined;
    served.push({ name, task: { id: entry.assetItemId, name, url: deliveryFileUrl(deliveryBase, entry.downloadUrl), expectedSize: size } });
  }
  return { served, where: `${collectionId} (${envId})` };
}

/** Item records (file names with extensions, sizes), when the key can read them. */
async function itemRecords(ctx: Context, collectionId: string): Promise<Map<string, Item>> {
  try {
    const items = await listItems(await ctx.api(), collectionId);
    return new Map(items.map((item) => [item.assetItemId, item]));
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return new Map();
  }
}

/**
 * The channel's Default (or --version), as its asset-urls downloadUrl serves
 * it, named `localFile` (FILE) when given, else by the version's file name
 * (what a sums line names).
 */
async function servedVersion(ctx: Context, given: string | undefined, versionId: string | undefined, localFile: string | undefined): Promise<{ served: Served[]; where: string }> {
  const assetId = await askAssetId(ctx, given);
  const platform = await ctx.setting('platform', { message: 'Target platform code' });
  const envId = await askEnv(ctx, assetId, platform);
  const api = await ctx.api();
  const records = await listRecords(api, assetId, { platform, envId });
  const channel = `${assetId} ${platform}/${envId}`;
  if (records.length === 0 && !(await findAsset(api, assetId))) throw new NotFoundError(`asset ${assetId} not found`);
  const record = versionId === undefined ? records.find((r) => r.state === 'DEFAULT') : records.find((r) => r.versionId === versionId);
  // A version that does not exist is exit 4 (cli.md), one that is not deployed here a usage error.
  if (!record && versionId !== undefined && !(await findVersion(api, assetId, versionId))) throw new NotFoundError(`version ${versionId} of ${assetId} not found`);
  if (!record) {
    throw new UsageError(versionId === undefined ? `${channel} has no Default: nothing is served to verify (pass --version for a LIVE one)` : `${versionId} is not deployed on ${channel}: nothing is served to verify`);
  }
  if (!record.downloadUrl) throw new UsageError(`${record.versionId} is ${record.state} on ${channel}: the delivery network serves it only LIVE or DEFAULT`);
  const name = localFile ?? (await versionFileName(api, assetId, record.versionId));
  return { served: [{ name, task: { id: record.versionId, name, url: (await servedUrl(ctx, api, record.downloadUrl)).url } }], where: `${channel} ${record.versionId} (${record.state})` };
}

/**
 * The name a sums line gives the version's file: its record's fileName. One
 * more read: the asset-urls records carry no file name, and the spec does not
 * fix the form of their downloadUrl (its last segment need not be the name).
 */
async function versionFileName(api: Awaited<ReturnType<Context['api']>>, assetId: string, versionId: string): Promise<string> {
  const { fileName } = await getVersion(api, assetId, versionId);
  if (fileName) return fileName;
  throw new UsageError(
    `${versionId} of ${assetId} has no file name on record (older versions lack one): no line of ${nameOf(verifySpec, 'sums')} can be told to be its; compare it with the file instead: ahs verify ${assetId} FILE, with the same --platform and --env`,
  );
}

/**
 * The sums file's lines under the served names they stand for: a line that
 * names a folder (sha256sum dist/* writes dist/a.txt) stands for the served
 * file of its base name (sumsFinder), said in one line; two such lines of one
 * base name stand for neither (one warning line). Lines that stand for no
 * served name keep their own (extra).
 */
async function fromSums(path: string, servedNames: string[], out: Awaited<ReturnType<Context['output']>>): Promise<Expected> {
  const sums = await readSums(path, nameOf(verifySpec, 'sums'));
  const find = sumsFinder(sums);
  const lines = new Map<string, string>();
  const used = new Set<string>();
  const byBaseName: string[] = [];
  for (const name of servedNames) {
    const match = find(name);
    if (match === undefined) continue;
    if ('ambiguous' in match) {
      out.warn(`${escapeControls(name)}: ${escapeControls(path)} lists ${match.ambiguous.map((listed) => escapeControls(listed)).join(' and ')}, so which is its cannot be told and neither is compared; ${sumsFromInside(match.ambiguous[0]!)}`);
      continue;
    }
    lines.set(name, match.hex);
    used.add(match.listedAs);
    if (match.listedAs !== name) byBaseName.push(`${escapeControls(match.listedAs)} as ${escapeControls(name)}`);
  }
  if (byBaseName.length > 0) out.info(`matched by base name (${escapeControls(path)} names folders, the served files have none): ${byBaseName.sort().join(', ')}`);
  for (const [listed, hex] of sums) if (!used.has(listed)) lines.set(listed, hex);
  return { names: [...lines.keys()], digest: async (name) => lines.get(name)!, source: path };
}

/** FILE, against the one version served. */
function fromFile(path: string): Expected {
  return { names: [path], digest: () => fileSha256(path), source: path };
}

/** The regular files at the top of DIR, by name: what item sync would sync (a symbolic link only with --follow-links; one skipped is named, as item sync names it). */
async function fromFolder(dir: string, followLinks: boolean, out: Awaited<ReturnType<Context['output']>>): Promise<Expected> {
  const { files, notFollowed, broken } = topFiles(dir, (await readdir(dir)).sort(), followLinks);
  if (notFollowed.length > 0) out.warn(`skipped ${notFollowed.length} symbolic link(s), not followed without --follow-links (as item sync): ${notFollowed.map((name) => escapeControls(name)).join(', ')}`);
  for (const link of broken) out.warn(`skipped ${escapeControls(`${link.name}: ${link.reason}`)} (--follow-links)`);
  const paths = new Map(files.map((file) => [file.name, file.path]));
  return { names: [...paths.keys()], digest: (name) => fileSha256(paths.get(name)!), source: dir };
}

/** Local digests (a few files read at a time), by name. */
async function localDigests(expected: Expected, names: string[]): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  await eachLimited(names, 4, new AbortController().signal, async (name) => {
    digests.set(name, await expected.digest(name));
  });
  return digests;
}

function print(out: Awaited<ReturnType<Context['output']>>, result: VerifyResult, source: string): void {
  type Row = { name: string; result: string; detail: string };
  out.print(result, (r, kit) => {
    const rows: Row[] = [
      ...r.matched.map((name) => ({ name, result: kit.style.green('matches'), detail: '' })),
      ...r.differ.map((d) => ({ name: d.name, result: kit.style.red('differs'), detail: `expected ${shortDigest(d.expected)}…, served ${shortDigest(d.actual)}…` })),
      ...r.missing.map((name) => ({ name, result: kit.style.red('missing'), detail: `served, but not in ${escapeControls(source)}` })),
      ...r.extra.map((name) => ({ name, result: kit.style.red('extra'), detail: `in ${escapeControls(source)}, but not served` })),
      ...r.failed.map((f) => ({ name: f.name, result: kit.style.red('failed'), detail: f.error })),
    ].sort((a, b) => compareText(a.name, b.name));
    if (rows.length === 0) return undefined;
    return kit.table(
      [
        { header: 'FILE', get: (row: Row) => row.name },
        { header: 'RESULT', get: (row: Row) => row.result },
        { header: 'DETAIL', get: (row: Row) => row.detail },
      ],
      rows,
    );
  });
}

/**
 * Exit 1 naming each difference, urn:ahs:mismatch (what is served is not
 * what was expected, as a release's same-name version of another content); 6
 * when the only trouble was the network's. Downloads refused by an answer
 * (403, 404, 410...) and nothing else are exit 1 of the exit code's type
 * (urn:ahs:rejected): nothing was compared, so nothing differs.
 */
function failure(result: VerifyResult, where: string, source: string, hashes: HashSummary): PartialFailureError {
  const parts = [
    ...result.differ.map((d) => `${d.name} differs (expected ${d.expected}, served ${d.actual})`),
    ...result.missing.map((name) => `${name} is served but not in ${source}`),
    ...result.extra.map((name) => `${name} is in ${source} but not served`),
    ...result.failed.map((f) => `${f.name} could not be read (${f.error})`),
  ];
  const message = escapeControls(`${where} does not match ${source}: ${parts.join('; ')}`);
  const onlyNetwork = parts.length === result.failed.length && hashes.failed.every((f) => f.network);
  if (onlyNetwork) return new PartialFailureError(message, ExitCode.network, { type: 'urn:ahs:network', title: message, status: null, detail: message });
  if (parts.length === result.failed.length) return new PartialFailureError(message, ExitCode.rejected);
  return new PartialFailureError(message, ExitCode.rejected, mismatchBody(message));
}
