// Verify as an operation (issue 34): what the delivery network serves,
// hashed as it streams (never written), against the SHA-256 of the local
// files or the lines of a sums file (cli.md "In CI, and from code"). Reads
// only: no plan. The input is resolved (ids, environment, platform given);
// the differences are the answer, not an error: `ahs verify` prints them and
// exits with verifyFailure's error, the library returns them.
import { readdir, stat } from 'node:fs/promises';
import { ExitCode, mismatchBody, NotFoundError, PartialFailureError, UsageError } from '../errors.js';
import { assetId as assetIdSchema, collectionId as collectionIdSchema, validate, type Item } from '../rules/schemas.js';
import type { ApiClient } from '../http/client.js';
import { findAsset, findVersion, getVersion, listRecords, versionNotFound } from '../service/assets.js';
import { listItems } from '../service/collections.js';
import { deliveryFileUrl, hashServed, readDeployedCollection, servedUrl } from '../service/delivery.js';
import { fileSha256, readSums, sumsFinder, sumsFromInside } from '../transfer/digest.js';
import type { DownloadTask } from '../transfer/download.js';
import { eachLimited } from '../util/pool.js';
import { NameAllocator } from '../transfer/safe-name.js';
import { topFiles } from '../transfer/top-files.js';
import { escapeControls } from '../util/escape.js';
import { compareText } from '../order.js';
import type { PlanContext, PlanOutput } from '../plan/context.js';
import type { FieldNames } from './validate.js';

/** The answer of a verify (`ahs verify --json`; verify() resolves to it), everything matched or not (names as the files in dir, `file`, or the lines of `sums`). */
export interface VerifyResult {
  matched: string[];
  /** expected: the local (or listed) SHA-256; actual: the SHA-256 of what the delivery network serves. */
  differ: Array<{ name: string; expected: string; actual: string }>;
  /** Served, without a file or line. */
  missing: string[];
  /** A file or line, not served. */
  extra: string[];
  /** Could not be downloaded. */
  failed: Array<{ name: string; error: string }>;
}

/** verify() of a collection: its items in `envId` against the files at the top of `dir`, or the lines of `sums`. */
export interface VerifyCollectionInput {
  collectionId: string;
  envId: string;
  dir?: string | undefined;
  sums?: string | undefined;
  /** Follow symbolic links in `dir` (as item sync's followLinks). */
  followLinks?: boolean | undefined;
  /** Files downloaded at the same time (default 8). */
  concurrency?: number | undefined;
}

/** A channel's Default (or `versionId`) against `file`, or the line of its file name in `sums`. */
export interface VerifyAssetInput {
  assetId: string;
  platform: string;
  envId: string;
  file?: string | undefined;
  sums?: string | undefined;
  /** Check this version (LIVE or DEFAULT in envId) rather than the Default. */
  versionId?: string | undefined;
  concurrency?: number | undefined;
}

export type VerifyInput = ({ kind: 'collection' } & VerifyCollectionInput) | ({ kind: 'asset' } & VerifyAssetInput);

/** The answer, with what was checked against what (for the command's lines and its error). */
export interface Verified {
  result: VerifyResult;
  /** `launch-pack (prod)`, `my-bundle ios/prod IOS3 (DEFAULT)`. */
  where: string;
  /** DIR, FILE or the sums file. */
  source: string;
  /** Every download that failed, failed for the network's sake (exit 6 when nothing else is wrong). */
  networkOnly: boolean;
}

/**
 * How the caller gave the inputs, for messages: the CLI's `--sums`,
 * `--version`, `--follow-links`, `COLLECTION_ID`...; the library its
 * parameters. Fields: collectionId, assetId, dir, file, sums, versionId, followLinks.
 */
export type VerifyNames = FieldNames;

/** What is served, by the name the local file (or sums line) has. */
interface Served {
  name: string;
  task: DownloadTask;
}

/** Where the expected digests come from: the local files (read lazily, once each) or a sums file. */
interface Expected {
  names: string[];
  digest(name: string): Promise<string>;
  /** DIR, FILE or the sums file, for messages. */
  source: string;
}

export async function verify(ctx: PlanContext, input: VerifyInput, names: VerifyNames = {}): Promise<Verified> {
  const name = nameWith(names);
  const path = input.kind === 'asset' ? input.file : input.dir;
  if ((path === undefined) === (input.sums === undefined)) throw new UsageError(`give either ${name(input.kind === 'asset' ? 'file' : 'dir')} or ${name('sums')}`);
  checkId(input.kind === 'asset' ? 'assetId' : 'collectionId', input.kind === 'asset' ? input.assetId : input.collectionId, name);
  if (path !== undefined) await checkPath(path, input.kind === 'asset' ? 'file' : 'dir', name);
  const out = await ctx.output();
  // FILE is what the version is checked against: its row names FILE, whatever the version's file is called.
  const { served, where } = input.kind === 'asset' ? await servedVersion(ctx, input, input.sums ? undefined : input.file, name) : await servedCollection(ctx, input.collectionId, input.envId);
  const expected = input.sums
    ? await fromSums(input.sums, served.map((s) => s.name), out, name)
    : input.kind === 'asset'
      ? fromFile(input.file!)
      : await fromFolder(input.dir!, input.followLinks === true, out, name);

  const result: VerifyResult = { matched: [], differ: [], missing: [], extra: [], failed: [] };
  const listed = new Set(expected.names);
  const checked = served.filter((s) => listed.has(s.name));
  result.missing = served.filter((s) => !listed.has(s.name)).map((s) => s.name);
  const servedNames = new Set(served.map((s) => s.name));
  result.extra = expected.names.filter((listedName) => !servedNames.has(listedName));

  // The local digests are taken while the downloads run.
  const [hashes, local] = await Promise.all([
    hashServed(ctx, checked.map((s) => s.task), { label: checked.length === 1 ? `verifying ${checked[0]!.name}` : `verifying ${checked.length} files`, concurrency: input.concurrency }),
    localDigests(expected, checked.map((s) => s.name)),
  ]);
  const byId = new Map(hashes.hashed.map((h) => [h.id, h]));
  for (const { name: servedName, task } of checked) {
    const actual = byId.get(task.id)?.sha256;
    if (actual === undefined) continue;
    const wanted = local.get(servedName)!;
    if (actual === wanted) result.matched.push(servedName);
    else result.differ.push({ name: servedName, expected: wanted, actual });
  }
  result.failed = hashes.failed.map((f) => ({ name: f.name, error: f.error }));
  for (const list of [result.matched, result.missing, result.extra]) list.sort();
  result.differ.sort((a, b) => compareText(a.name, b.name));
  return { result, where, source: expected.source, networkOnly: hashes.failed.every((f) => f.network) };
}

/**
 * Exit 1 naming each difference, urn:ahs:mismatch (what is served is not
 * what was expected, as a release's same-name version of another content); 6
 * when the only trouble was the network's. Downloads refused by an answer
 * (403, 404, 410...) and nothing else are exit 1 of the exit code's type
 * (urn:ahs:rejected): nothing was compared, so nothing differs. None when
 * everything matched.
 */
export function verifyFailure({ result, where, source, networkOnly }: Verified): PartialFailureError | undefined {
  const parts = [
    ...result.differ.map((d) => `${d.name} differs (expected ${d.expected}, served ${d.actual})`),
    ...result.missing.map((name) => `${name} is served but not in ${source}`),
    ...result.extra.map((name) => `${name} is in ${source} but not served`),
    ...result.failed.map((f) => `${f.name} could not be read (${f.error})`),
  ];
  if (parts.length === 0) return undefined;
  const message = escapeControls(`${where} does not match ${source}: ${parts.join('; ')}`);
  const onlyFailures = parts.length === result.failed.length;
  if (onlyFailures && networkOnly) return new PartialFailureError(message, ExitCode.network, { type: 'urn:ahs:network', title: message, status: null, detail: message });
  if (onlyFailures) return new PartialFailureError(message, ExitCode.rejected);
  return new PartialFailureError(message, ExitCode.rejected, mismatchBody(message));
}

function nameWith(names: FieldNames): (field: string) => string {
  return typeof names === 'function' ? names : (field) => names[field] ?? field;
}

/** An id as the rules take it (the CLI checked it when it was given or picked): refused before any request. */
function checkId(field: 'assetId' | 'collectionId', value: string, name: (field: string) => string): void {
  const checked = validate(field === 'assetId' ? assetIdSchema : collectionIdSchema, value, () => name(field));
  if (!checked.ok) throw new UsageError(checked.messages.join('; '));
}

/** DIR must be a folder, FILE a regular file (the CLI tells which it was given by this). */
async function checkPath(path: string, kind: 'dir' | 'file', name: (field: string) => string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`${name(kind)} ${escapeControls(path)}: no such ${kind === 'dir' ? 'folder' : 'file'}`);
  if (kind === 'dir' ? !info.isDirectory() : !info.isFile()) throw new UsageError(`${name(kind)} ${escapeControls(path)}: not ${kind === 'dir' ? 'a folder' : 'a regular file'}`);
}

/** The items a deployed collection serves, each under the name fetch would give its file. */
async function servedCollection(ctx: PlanContext, collectionId: string, envId: string): Promise<{ served: Served[]; where: string }> {
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
async function itemRecords(ctx: PlanContext, collectionId: string): Promise<Map<string, Item>> {
  try {
    const items = await listItems(await ctx.api(), collectionId);
    return new Map(items.map((item) => [item.assetItemId, item]));
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return new Map();
  }
}

/**
 * The channel's Default (or the version asked for), as its asset-urls
 * downloadUrl serves it, named `localFile` (FILE) when given, else by the
 * version's file name (what a sums line names).
 */
async function servedVersion(ctx: PlanContext, input: VerifyAssetInput, localFile: string | undefined, name: (field: string) => string): Promise<{ served: Served[]; where: string }> {
  const { assetId, platform, envId, versionId } = input;
  const api = await ctx.api();
  const records = await listRecords(api, assetId, { platform, envId });
  const channel = `${assetId} ${platform}/${envId}`;
  if (records.length === 0 && !(await findAsset(api, assetId))) throw new NotFoundError(`asset ${assetId} not found`);
  const record = versionId === undefined ? records.find((r) => r.state === 'DEFAULT') : records.find((r) => r.versionId === versionId);
  // A version that does not exist is exit 4 (cli.md), one that is not deployed here a usage error.
  if (!record && versionId !== undefined && !(await findVersion(api, assetId, versionId))) throw await versionNotFound(api, assetId, versionId);
  if (!record) {
    throw new UsageError(versionId === undefined ? `${channel} has no Default: nothing is served to verify (pass ${name('versionId')} for a LIVE one)` : `${versionId} is not deployed on ${channel}: nothing is served to verify`);
  }
  if (!record.downloadUrl) throw new UsageError(`${record.versionId} is ${record.state} on ${channel}: the delivery network serves it only LIVE or DEFAULT`);
  const fileName = localFile ?? (await versionFileName(api, assetId, record.versionId, name));
  return { served: [{ name: fileName, task: { id: record.versionId, name: fileName, url: (await servedUrl(ctx, api, record.downloadUrl)).url } }], where: `${channel} ${record.versionId} (${record.state})` };
}

/**
 * The name a sums line gives the version's file: its record's fileName. One
 * more read: the asset-urls records carry no file name, and the spec does not
 * fix the form of their downloadUrl (its last segment need not be the name).
 */
async function versionFileName(api: ApiClient, assetId: string, versionId: string, name: (field: string) => string): Promise<string> {
  const { fileName } = await getVersion(api, assetId, versionId);
  if (fileName) return fileName;
  throw new UsageError(
    `${versionId} of ${assetId} has no file name on record (older versions lack one): no line of ${name('sums')} can be told to be its; compare it with the file instead: give ${name('file')} rather than ${name('sums')}, with the same ${name('platform')} and ${name('envId')}`,
  );
}

/**
 * The sums file's lines under the served names they stand for: a line that
 * names a folder (sha256sum dist/* writes dist/a.txt) stands for the served
 * file of its base name (sumsFinder), said in one line; two such lines of one
 * base name stand for neither (one warning line). Lines that stand for no
 * served name keep their own (extra).
 */
async function fromSums(path: string, servedNames: string[], out: PlanOutput, name: (field: string) => string): Promise<Expected> {
  const sums = await readSums(path, name('sums'));
  const find = sumsFinder(sums);
  const lines = new Map<string, string>();
  const used = new Set<string>();
  const byBaseName: string[] = [];
  for (const servedName of servedNames) {
    const match = find(servedName);
    if (match === undefined) continue;
    if ('ambiguous' in match) {
      out.warn(`${escapeControls(servedName)}: ${escapeControls(path)} lists ${match.ambiguous.map((listed) => escapeControls(listed)).join(' and ')}, so which is its cannot be told and neither is compared; ${sumsFromInside(match.ambiguous[0]!)}`);
      continue;
    }
    lines.set(servedName, match.hex);
    used.add(match.listedAs);
    if (match.listedAs !== servedName) byBaseName.push(`${escapeControls(match.listedAs)} as ${escapeControls(servedName)}`);
  }
  if (byBaseName.length > 0) out.info(`matched by base name (${escapeControls(path)} names folders, the served files have none): ${byBaseName.sort().join(', ')}`);
  for (const [listed, hex] of sums) if (!used.has(listed)) lines.set(listed, hex);
  return { names: [...lines.keys()], digest: async (listed) => lines.get(listed)!, source: path };
}

/** FILE, against the one version served. */
function fromFile(path: string): Expected {
  return { names: [path], digest: () => fileSha256(path), source: path };
}

/** The regular files at the top of DIR, by name: what item sync would sync (a symbolic link only when followed; one skipped is named, as item sync names it). */
async function fromFolder(dir: string, followLinks: boolean, out: PlanOutput, name: (field: string) => string): Promise<Expected> {
  const { files, notFollowed, broken } = topFiles(dir, (await readdir(dir)).sort(), followLinks);
  if (notFollowed.length > 0) out.warn(`skipped ${notFollowed.length} symbolic link(s), not followed without ${name('followLinks')} (as item sync): ${notFollowed.map((link) => escapeControls(link)).join(', ')}`);
  for (const link of broken) out.warn(`skipped ${escapeControls(`${link.name}: ${link.reason}`)} (${name('followLinks')})`);
  const paths = new Map(files.map((file) => [file.name, file.path]));
  return { names: [...paths.keys()], digest: (file) => fileSha256(paths.get(file)!), source: dir };
}

/** Local digests (a few files read at a time), by name. */
async function localDigests(expected: Expected, names: string[]): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  await eachLimited(names, 4, new AbortController().signal, async (name) => {
    digests.set(name, await expected.digest(name));
  });
  return digests;
}
