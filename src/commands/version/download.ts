// version download ASSET_ID VERSION_ID [--env E] [-O FILE]
// The version's file through its deployed URL (asset-urls downloadUrl), from
// the environment asked for or the first where it is LIVE or DEFAULT; written
// atomically and streamed (src/transfer/download.ts), as fetch writes items.
import { basename, dirname } from 'node:path';
import type { Run } from '../define.js';
import type { downloadSpec } from './index.js';
import type { Context } from '../../context.js';
import { ApiError, ExitCode, NotFoundError, PartialFailureError, type AhsError } from '../../errors.js';
import { SERVICE_ERROR_TYPE_FALLBACK } from '../../http/errors.js';
import type { AssetUrl, Version } from '../../rules/schemas.js';
import { getVersion, listRecords } from '../../service/assets.js';
import { servedUrl } from '../../service/delivery.js';
import { askAssetId, askVersionId } from '../../pickers/pick-asset.js';
import { DownloadHttpError, downloadAll, isNetworkFailure, type DownloadTask } from '../../transfer/download.js';
import { safeFileName } from '../../transfer/safe-name.js';
import { formatBytes } from '../../io/progress.js';

interface DownloadResult {
  assetId: string;
  versionId: string;
  envId: string;
  targetPlatform: string;
  downloadUrl: string;
  path: string;
  bytes: number;
}

export const run: Run<typeof downloadSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const versionId = await askVersionId(ctx, assetId, options.versionId, { message: 'Version to download' });
  const api = await ctx.api();
  const version = await getVersion(api, assetId, versionId);
  const entry = await deployedEntry(ctx, assetId, version);
  const path = options.out ?? safeFileName(version.fileName, versionId);
  // As fetch: the URL the service gave, on the delivery host set by --delivery-url when there is one.
  const { url, deliveryBase } = await servedUrl(ctx, api, entry.downloadUrl);
  const bytes = await downloadOne(ctx, { id: versionId, name: basename(path), url }, dirname(path), deliveryBase);
  const result: DownloadResult = { assetId, versionId, envId: entry.envId, targetPlatform: version.targetPlatform, downloadUrl: entry.downloadUrl, path, bytes };
  const out = await ctx.output();
  out.print(result, (r) => {
    out.success(`${r.versionId} (${formatBytes(r.bytes)}, from ${r.envId}) → ${r.path}`);
    return r.path;
  });
};

/** The version's deployed URL entry: in the environment asked for, else the first where it is LIVE or DEFAULT. */
async function deployedEntry(ctx: Context, assetId: string, version: Version): Promise<AssetUrl & { downloadUrl: string }> {
  const envId = (await ctx.settings()).get('envId');
  const records = await listRecords(await ctx.api(), assetId, { platform: version.targetPlatform, envId });
  const mine = records.filter((r) => r.versionId === version.versionId);
  const served = mine.find((r): r is AssetUrl & { downloadUrl: string } => r.state !== 'OFFLINE' && typeof r.downloadUrl === 'string');
  if (served) return served;
  const where = envId ? `in ${envId}` : 'anywhere';
  const state = mine[0] ? `it is ${mine[0].state} there` : 'it is not deployed there';
  const deploy = `ahs deploy ${assetId} ${version.versionId} --platform ${version.targetPlatform} --env ${envId ?? 'ENV'}`;
  throw new NotFoundError(
    `${version.versionId} of ${assetId} has no download URL ${where} (${envId ? state : 'it is LIVE or DEFAULT in no environment'}): only a deployed version can be downloaded; deploy it first (${deploy})`,
  );
}

/** One file into `dir`, with a progress bar; its failure is the command's (exit 4 for a 404, 3 for a 403, 6 for the network). */
async function downloadOne(ctx: Context, task: DownloadTask, dir: string, deliveryBase: string): Promise<number> {
  const client = await ctx.deliveryClient(deliveryBase, 1);
  const progress = await ctx.progress(`downloading ${task.name}`);
  let failure: Error | undefined;
  try {
    const summary = await downloadAll([task], {
      dir,
      signal: ctx.signal,
      open: async (t) => {
        const response = await client.send({ method: 'GET', path: t.url, headers: { accept: '*/*' } });
        return { status: response.status, headers: response.headers, body: response.body };
      },
      onEvent: (event) => {
        if (event.type === 'progress') progress.update(event.bytes, event.size);
        if (event.type === 'failed') failure = event.error;
      },
    });
    const done = summary.downloaded[0];
    if (!done) throw failed(task, failure);
    progress.done();
    return done.bytes;
  } catch (error) {
    progress.stop();
    throw error;
  } finally {
    await client.close().catch(() => {});
  }
}

function failed(task: DownloadTask, error: Error | undefined): AhsError {
  // The answer as every other command reports it (fetch --url, the API's reads): its
  // error body unchanged, exit by its status (a 404 is 4).
  if (error instanceof ApiError) return error;
  const message = `${task.name} was not downloaded: ${error?.message ?? 'unknown error'}`;
  if (error instanceof DownloadHttpError) {
    // An answer without the service's error body (not shown for delivery, spec): the four fields, with its status.
    return new PartialFailureError(message, codeOf(error.status), { type: SERVICE_ERROR_TYPE_FALLBACK, title: message, status: error.status, detail: message });
  }
  // Network only for want of an answer; a file that could not be written here is exit 1, urn:ahs:rejected.
  if (!error || !isNetworkFailure(error)) return new PartialFailureError(message, ExitCode.rejected);
  return new PartialFailureError(message, ExitCode.network, { type: 'urn:ahs:network', title: message, status: null, detail: message });
}

function codeOf(status: number): ExitCode {
  if (status === 404) return ExitCode.notFound;
  if (status === 403 || status === 401) return ExitCode.forbidden;
  return ExitCode.rejected;
}
