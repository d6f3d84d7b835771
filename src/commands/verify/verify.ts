// ahs verify COLLECTION_ID DIR [--env E] | ASSET_ID FILE --platform P --env E [--version ID] [--sums SHA256SUMS]
// Tells a collection from an asset, asks for what is missing, then the
// operation (src/operations/verify.ts) downloads, hashes and compares; the
// differences are printed, and are exit 1 (6 when only the network failed).
import { stat } from 'node:fs/promises';
import { nameOf, type Run } from '../define.js';
import { verifySpec } from './index.js';
import type { Context } from '../../context.js';
import type { Output } from '../../io/output.js';
import { UsageError } from '../../errors.js';
import { askAssetId, askEnv } from '../../pickers/pick-asset.js';
import { collectionArg, liveEnvArg } from '../../pickers/pick-collection.js';
import { shortDigest } from '../../transfer/digest.js';
import { verify, verifyFailure, type VerifyInput, type VerifyResult } from '../../operations/verify.js';
import { escapeControls } from '../../util/escape.js';
import { compareText } from '../../order.js';

export const run: Run<typeof verifySpec> = async (options, ctx) => {
  const kind = await whatToVerify(options, ctx);
  const out = await ctx.output();
  const names = {
    collectionId: nameOf(verifySpec, 'id'),
    assetId: nameOf(verifySpec, 'id'),
    dir: nameOf(verifySpec, 'path'),
    file: nameOf(verifySpec, 'path'),
    sums: nameOf(verifySpec, 'sums'),
    versionId: nameOf(verifySpec, 'version'),
    followLinks: nameOf(verifySpec, 'followLinks'),
    platform: '--platform',
    envId: '--env',
  };
  const input: VerifyInput = kind.asset
    ? { kind: 'asset', ...(await channelOf(ctx, options.id)), file: options.sums ? undefined : options.path, sums: options.sums, versionId: options.version, concurrency: options.concurrency }
    : { kind: 'collection', ...(await collectionOf(ctx, options.id)), dir: options.sums ? undefined : options.path, sums: options.sums, followLinks: options.followLinks, concurrency: options.concurrency };
  const verified = await verify(ctx, input, names);
  print(out, verified.result, verified.source);
  const failure = verifyFailure(verified);
  if (failure) throw failure;
  out.info(`${verified.result.matched.length} file(s) of ${verified.where} match ${escapeControls(verified.source)} byte for byte`);
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

/** The collection, and an environment where it is Live (picked in a terminal). */
async function collectionOf(ctx: Context, given: string | undefined): Promise<{ collectionId: string; envId: string }> {
  const collectionId = await collectionArg(ctx, given);
  const envId = await liveEnvArg(ctx, collectionId, 'Environment (where the collection is Live)');
  return { collectionId, envId };
}

/** The asset and its channel (each picked in a terminal when not given). */
async function channelOf(ctx: Context, given: string | undefined): Promise<{ assetId: string; platform: string; envId: string }> {
  const assetId = await askAssetId(ctx, given);
  const platform = await ctx.setting('platform', { message: 'Target platform code' });
  const envId = await askEnv(ctx, assetId, platform);
  return { assetId, platform, envId };
}

function print(out: Output, result: VerifyResult, source: string): void {
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
