// The item writes of one command (item upload, item sync), run concurrently
// (bounded) and started by the first plan step that asks for its outcome:
// uploads streamed from disk with progress, removals, and replacements (an
// upload and the removal of the old item, in the order the collection's room
// allows). Each plan step waits for its own job. A failure is an outcome,
// not an error, so the plan goes on with the other files; only an interrupt
// (Ctrl-C) stops it.
import { basename } from 'node:path';
import type { Context } from '../context.js';
import type { ApiClient } from '../http/client.js';
import { AhsError, ApiError, CancelledError, ExitCode, NetworkError, PartialFailureError } from '../errors.js';
import type { Item } from '../rules/schemas.js';
import { prepareMultipart } from '../transfer/upload.js';
import { eachLimited } from '../transfer/pool.js';
import { createMultiProgress, formatBytes, type MultiProgress } from '../io/progress.js';
import { settleItemUpload, vcPath } from './collections.js';

/** Item writes at the same time, unless --concurrency says otherwise. */
export const DEFAULT_ITEM_CONCURRENCY = 4;

/** A file to upload as an item: `file` names it in messages and results, `path` is read. */
export interface FileUpload {
  file: string;
  path: string;
  size: number;
  /** The multipart fields besides the file: assetItemName, assetType, createdBy. */
  fields: Record<string, string>;
}

export type ItemJob =
  | ({ kind: 'upload' } & FileUpload)
  /** Upload the file, then remove `old`; or, `removeFirst` (the collection is full), the other way round. */
  | ({ kind: 'replace'; old: Item; removeFirst: boolean } & FileUpload)
  | { kind: 'remove'; old: Item };

export type JobOutcome =
  | { kind: 'upload'; file: string; item: Item }
  | { kind: 'replace'; file: string; item: Item; old: Item; removeFirst: boolean }
  | { kind: 'remove'; old: Item }
  /** What went wrong; `item` / `removed` say what was done all the same (half a replacement). */
  | { kind: 'failed'; file: string; error: AhsError; item?: Item; removed?: string };

/** Jobs run `concurrency` at a time; a phase starts when the one before it has ended. */
export interface Phase {
  jobs: ItemJob[];
  concurrency: number;
}

export class ItemWork {
  private readonly jobs: ItemJob[];
  private readonly outcomes: Array<Promise<JobOutcome | undefined>>;
  private readonly settle: Array<(outcome: JobOutcome | undefined) => void> = [];
  private running: Promise<void> | undefined;

  /** `user` signs the removals (deletedBy). */
  constructor(
    private readonly ctx: Context,
    private readonly api: ApiClient,
    private readonly collectionId: string,
    private readonly phases: Phase[],
    private readonly user?: string,
  ) {
    this.jobs = phases.flatMap((phase) => phase.jobs);
    this.outcomes = this.jobs.map((_, index) => new Promise((resolve) => (this.settle[index] = resolve)));
  }

  /** The outcome of job `index` (in the order of the phases' jobs); starts the work on the first call. */
  async outcome(index: number): Promise<JobOutcome> {
    this.running ??= this.runAll();
    const outcome = await this.outcomes[index]!;
    if (!outcome) throw this.ctx.signal.reason instanceof AhsError ? this.ctx.signal.reason : new CancelledError();
    return outcome;
  }

  /** Resolves once every job has ended (and the progress display is cleared). */
  async finished(): Promise<void> {
    await this.running;
  }

  private async runAll(): Promise<void> {
    const { ctx } = this;
    const out = await ctx.output();
    const uploads = this.jobs.filter((job): job is Extract<ItemJob, FileUpload> => job.kind !== 'remove');
    // Per-file lines and the total (live in a terminal, periodic lines in CI, nothing with -q).
    const progress = createMultiProgress(ctx.io, {
      label: uploads.length === 1 ? `uploading ${basename(uploads[0]!.file)}` : `uploading ${uploads.length} files`,
      total: uploads.reduce((sum, upload) => sum + upload.size, 0),
      files: uploads.length,
      quiet: ctx.globals.quiet || uploads.length === 0,
      // --verbose traces requests on stderr between redraws: plain lines then.
      live: ctx.globals.verbose ? false : undefined,
    });
    const log = (text: string) => progress.log(() => out.success(text));
    let first = 0;
    try {
      for (const phase of this.phases) {
        const offset = first;
        await eachLimited(phase.jobs, phase.concurrency, ctx.signal, async (_, at) => {
          const index = offset + at;
          const outcome = await this.runJob(this.jobs[index]!, index, progress, log);
          if (!outcome) return false;
          this.settle[index]!(outcome);
          return true;
        });
        first += phase.jobs.length;
        if (ctx.signal.aborted) break;
      }
    } finally {
      progress.stop();
      // Interrupted: the jobs not done have no outcome.
      for (const settle of this.settle) settle(undefined);
    }
  }

  /** One job; undefined when it was interrupted. */
  private async runJob(job: ItemJob, index: number, progress: MultiProgress, log: (text: string) => void): Promise<JobOutcome | undefined> {
    if (job.kind === 'remove') {
      const failed = await this.attempt(() => this.remove(job.old));
      if (failed === 'interrupted') return undefined;
      if (failed) return { kind: 'failed', file: job.old.assetItemName, error: failed };
      log(`removed ${job.old.assetItemId} (${job.old.assetItemName}): no file of that name`);
      return { kind: 'remove', old: job.old };
    }
    const size = formatBytes(job.size);
    if (job.kind === 'replace' && job.removeFirst) {
      const failed = await this.attempt(() => this.remove(job.old));
      if (failed === 'interrupted') return undefined;
      if (failed) return { kind: 'failed', file: job.file, error: failed };
    }
    let item: Item | undefined;
    const failed = await this.attempt(async () => {
      item = await this.upload(job, String(index), progress);
    });
    if (failed === 'interrupted') return undefined;
    if (job.kind === 'upload') {
      if (failed) return { kind: 'failed', file: job.file, error: failed };
      log(`${job.file} → ${item!.assetItemId} (${size})`);
      return { kind: 'upload', file: job.file, item: item! };
    }
    const old = job.old.assetItemId;
    if (job.removeFirst) {
      if (failed) return { kind: 'failed', file: job.file, error: withContext(failed, `the old item ${old} was removed first (the collection is at maxAssets); the upload failed`), removed: old };
      log(`${job.file} → ${item!.assetItemId} (${size}), replacing ${old}, removed first: the collection is at maxAssets`);
      return { kind: 'replace', file: job.file, item: item!, old: job.old, removeFirst: true };
    }
    if (failed) return { kind: 'failed', file: job.file, error: failed };
    const notRemoved = await this.attempt(() => this.remove(job.old));
    if (notRemoved === 'interrupted') return undefined;
    if (notRemoved) return { kind: 'failed', file: job.file, error: withContext(notRemoved, `uploaded as ${item!.assetItemId}, but removing the old item ${old} failed`), item: item! };
    log(`${job.file} → ${item!.assetItemId} (${size}), replacing ${old}`);
    return { kind: 'replace', file: job.file, item: item!, old: job.old, removeFirst: false };
  }

  /** Runs `work`: undefined when it succeeded, the failure, or 'interrupted'. */
  private async attempt(work: () => Promise<void>): Promise<AhsError | 'interrupted' | undefined> {
    try {
      await work();
      return undefined;
    } catch (error) {
      return this.ctx.signal.aborted ? 'interrupted' : asAhsError(error);
    }
  }

  private async upload(upload: FileUpload, key: string, progress: MultiProgress): Promise<Item> {
    progress.start(key, basename(upload.file), upload.size);
    const started = Date.now();
    try {
      const stream = await prepareMultipart({ fields: upload.fields, file: { field: 'assetFile', path: upload.path }, onProgress: (bytes) => progress.update(key, bytes) });
      return await this.api.json<Item>({ method: 'POST', path: vcPath(this.api, this.collectionId, 'items'), stream });
    } catch (error) {
      if (!lostAnswer(error)) throw error;
      // The upload may have been stored: the collection's items settle it.
      const settled = await settleItemUpload(this.api, this.collectionId, String(upload.fields.assetItemName), started);
      if (settled.applied === true) {
        (await this.ctx.output()).info(`${upload.file}: the answer was lost, but a read confirms the write was applied (${settled.how})`);
        return settled.result;
      }
      throw new NetworkError(`${error.message}; ${settled.applied === false ? `a read shows it was not stored (${settled.how}): safe to retry` : `whether it was stored is unknown: check with \`${settled.check}\``}`);
    } finally {
      progress.finish(key);
    }
  }

  private async remove(old: Item): Promise<void> {
    const path = vcPath(this.api, this.collectionId, 'items', old.assetItemId);
    try {
      await this.api.json({ method: 'DELETE', path, body: { deletedBy: this.user } });
    } catch (error) {
      if (!lostAnswer(error)) throw error;
      // Removed after all when the item is no longer a member (404).
      const gone = await this.api.get(path).then(() => false, (read: unknown) => read instanceof ApiError && read.status === 404);
      if (!gone) throw new NetworkError(`${error.message}; a read shows ${old.assetItemId} is still in ${this.collectionId}: safe to retry`);
    }
  }
}

function lostAnswer(error: unknown): error is NetworkError {
  return error instanceof NetworkError && error.mayHaveApplied;
}

export function asAhsError(error: unknown): AhsError {
  if (error instanceof AhsError) return error;
  const message = String((error as Error)?.message ?? error);
  return new PartialFailureError(message, ExitCode.rejected, { type: 'urn:ahs:network', title: message, status: null, detail: message });
}

/** The same failure (status, exit code, body) with what had been done said first. */
function withContext(error: AhsError, context: string): AhsError {
  const body = error.toBody();
  const title = `${context}: ${body.title}`;
  return new PartialFailureError(title, error.exitCode, { ...body, title, detail: title });
}
