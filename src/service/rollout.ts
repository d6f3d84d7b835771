// Rollouts (cli.md "Rollouts across environments"): the reads a run makes
// (the version, each wave's channel, the rollout's journal entries), the
// wave's writes as plans of the one executor (the LIVE deploy and the
// promotion of promote-default, a compare-and-set on the Default read),
// the check command, the served bytes verified, and the wait. The state
// machine itself is src/rules/rollout.ts; the commands in
// src/commands/rollout/ and the library call runRollout.
import { spawn } from 'node:child_process';
import type { Context } from '../context.js';
import type { ApiClient } from '../http/client.js';
import { AhsError, CancelledError, ConflictError, NotFoundError, PartialFailureError, ExitCode, UsageError, WaitingError } from '../errors.js';
import { defaultOf, type ChannelSnapshot } from '../rules/index.js';
import { decideAbort, decideRollout, formatClock, formatDuration, parseDuration, type AbortStep, type Next, type RolloutStatus, type WaveFacts } from '../rules/rollout.js';
import type { DeployBody, Version } from '../rules/schemas.js';
import { findVersion, listAllVersions, readVersionOnChannel, versionRecords } from './assets.js';
import { channelName } from './promote.js';
import { sizeAgrees } from './size.js';
import { hashServed } from './delivery.js';
import { appendRolloutEntry, journalOf, rolloutEntries, type RolloutField } from './rollout-journal.js';
import { plan, type Plan, type Step } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import { KINDS } from '../plan/kinds/index.js';
import { dryRunDocument, type DryRunDocument } from '../plan/dryrun.js';

/** The command line of a rollout, as every run of it gives it. */
export interface RolloutOptions {
  assetId: string;
  versionId?: string;
  name?: string;
  waves?: string[];
  soak?: string[];
  check?: string;
  approve?: string[];
  approved?: string[];
  wait?: true;
  /** The desired-state file whose `assets.ID.rollout` gives the defaults. */
  file?: string;
}

/** The options checked: what every run derives the same state from. */
export interface Rollout {
  assetId: string;
  versionId: string;
  platform: string;
  waves: string[];
  soakMs: Record<string, number>;
  check?: string;
  approve: string[];
  approved: string[];
  wait: boolean;
}

/** The JSON document of a rollout run, status and dry run. */
export interface RolloutDocument {
  asset: string;
  version: string;
  platform: string;
  waves: Array<{ env: string; state: string; gate: string | null; since: string | null; until: string | null; previousDefault: string | null }>;
  next: Record<string, unknown>;
  /** The waves this run promoted, in order. */
  promoted: string[];
  dryRun?: true;
  /** --dry-run: the requests of the next wave, each with the rules' prediction. */
  requests?: DryRunDocument[];
}

export type RolloutMode = 'start' | 'status' | 'abort';

/** A rollout run, status or abort, as the command and the library run it. */
export async function runRollout(ctx: Context, mode: RolloutMode, options: RolloutOptions): Promise<void> {
  const api = await ctx.api();
  const platform = await ctx.setting('platform', { message: 'Target platform' });
  const rollout = await checkOptions(ctx, api, options, platform);
  const journal = await journalOf(ctx);
  if (mode !== 'status' && Object.keys(rollout.soakMs).length > 0 && !journal) {
    throw new UsageError(`a soak time needs the journal (the service's own record of when each wave was promoted), and none is set: start one with \`ahs journal init\`, or run without --soak`);
  }
  if (mode === 'abort' && !journal) throw new UsageError('abort puts back the Default each wave had before, which only the journal knows, and none is set: start one with `ahs journal init`');
  const run = new RolloutRun(ctx, api, rollout, journal);
  if (mode === 'status') return run.status();
  if (mode === 'abort') return run.abort();
  return run.start();
}

/** A rollout's gates as a desired-state file declares them (`assets.ID.rollout`). */
export interface RolloutDefaults {
  waves: string[];
  soak?: Record<string, string>;
  approve?: string[];
}

/**
 * Where a version's rollout stands, read only (channels and journal, as
 * `ahs rollout status` reads them), in one line for people: what `plan`
 * says of a version whose asset declares its rollout. Nothing is sent.
 */
export async function rolloutStanding(ctx: Context, api: ApiClient, key: { assetId: string; versionId: string; platform: string }, defaults: RolloutDefaults): Promise<string> {
  const soakMs: Record<string, number> = {};
  for (const [env, text] of Object.entries(defaults.soak ?? {})) {
    const ms = parseDuration(text);
    if (ms !== undefined && defaults.waves.includes(env)) soakMs[env] = ms;
  }
  const approve = (defaults.approve ?? []).filter((env) => defaults.waves.includes(env));
  const run = new RolloutRun(ctx, api, { ...key, waves: defaults.waves, soakMs, approve, approved: [], wait: false }, await journalOf(ctx));
  const { status, now } = await run.snapshot();
  const waves = status.waves.map((wave) => `${wave.env} ${wave.state === 'soaking' && wave.until !== null ? `soaking until ${formatClock(wave.until, now)}` : wave.state}`);
  return `${waves.join(', ')}: ${sentence(status.next, now)}`;
}

/**
 * The asset's `rollout:` defaults of the desired-state file (--file, else
 * ahs.yaml when it is there): each applies where its flag was not given.
 */
async function withFileDefaults(options: RolloutOptions): Promise<RolloutOptions> {
  const { DEFAULT_FILE, loadDesiredFile } = await import('../desired/file.js');
  const { existsSync } = await import('node:fs');
  const path = options.file ?? (existsSync(DEFAULT_FILE) ? DEFAULT_FILE : undefined);
  if (path === undefined) return options;
  const defaults = (await loadDesiredFile(path)).state.assets?.[options.assetId]?.rollout;
  if (!defaults) {
    if (options.file !== undefined) throw new UsageError(`${path} declares no rollout for ${options.assetId} (assets.${options.assetId}.rollout: {waves, soak, check, approve})`);
    return options;
  }
  // The file's gates of waves that --waves leaves out do not apply.
  const waves = options.waves ?? defaults.waves;
  const soak = options.soak && options.soak.length > 0 ? options.soak : Object.entries(defaults.soak ?? {}).filter(([env]) => waves.includes(env)).map(([env, duration]) => `${env}=${duration}`);
  return { ...options, waves, soak, check: options.check ?? defaults.check, approve: options.approve ?? defaults.approve?.filter((env) => waves.includes(env)) };
}

async function checkOptions(ctx: Context, api: ApiClient, given: RolloutOptions, platform: string): Promise<Rollout> {
  const options = await withFileDefaults(given);
  if (!options.waves || options.waves.length === 0) throw new UsageError('--waves is required: the environments in order, e.g. --waves dev,staging,prod');
  const waves = options.waves;
  const inWaves = (flag: string, env: string) => {
    if (!waves.includes(env)) throw new UsageError(`${flag} ${env}: not one of --waves (${waves.join(',')})`);
  };
  const soakMs: Record<string, number> = {};
  for (const raw of options.soak ?? []) {
    const at = raw.indexOf('=');
    const env = at < 0 ? '' : raw.slice(0, at).trim();
    const duration = at < 0 ? undefined : parseDuration(raw.slice(at + 1));
    if (!env || duration === undefined) throw new UsageError(`--soak takes ENV=DURATION, e.g. --soak staging=30m (units ms, s, m, h, d; got ${raw})`);
    inWaves('--soak', env);
    if (soakMs[env] !== undefined && soakMs[env] !== duration) throw new UsageError(`--soak ${env} given twice with different times`);
    soakMs[env] = duration;
  }
  const envList = (flag: string, values: string[] | undefined) => {
    const list = (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
    for (const env of list) inWaves(flag, env);
    return [...new Set(list)];
  };
  const approve = envList('--approve', options.approve);
  const approved = envList('--approved', options.approved);
  if (options.versionId !== undefined && options.name !== undefined) throw new UsageError('give VERSION_ID or --name, not both');
  if (options.versionId === undefined && options.name === undefined) throw new UsageError('VERSION_ID or --name VERSION_NAME is required: the version to roll out');
  const versionId = options.versionId ?? (await versionByName(api, options.assetId, options.name!, platform));
  if (options.check !== undefined && options.check.trim() === '') throw new UsageError('--check must not be empty');
  return { assetId: options.assetId, versionId, platform, waves, soakMs, check: options.check, approve, approved, wait: options.wait === true };
}

async function versionByName(api: ApiClient, assetId: string, name: string, platform: string): Promise<string> {
  const found = (await listAllVersions(api, assetId)).filter((v) => v.versionName === name && v.targetPlatform === platform);
  if (found.length === 0) throw new NotFoundError(`${assetId} has no ${platform} version named ${name}`);
  if (found.length > 1) throw new UsageError(`${assetId} has ${found.length} ${platform} versions named ${name} (${found.map((v) => v.versionId).join(', ')}): name one by VERSION_ID`);
  return found[0]!.versionId;
}

interface WaveRead {
  env: string;
  channel: ChannelSnapshot;
}

interface Snapshot {
  waves: WaveRead[];
  facts: WaveFacts[];
  status: RolloutStatus;
  now: number;
}

class RolloutRun {
  private readonly promoted: string[] = [];
  private version: Version | undefined;
  /** The SHA-256 of what an earlier wave serves, once read in this run. */
  private reference: { env: string; sha256: string } | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly api: ApiClient,
    private readonly rollout: Rollout,
    private readonly journal: string | undefined,
  ) {}

  private get name(): string {
    return `${this.rollout.versionId} of ${this.rollout.assetId} (${this.rollout.platform})`;
  }

  private abortCommand(): string {
    const r = this.rollout;
    return `ahs rollout abort ${r.assetId} ${r.versionId} --platform ${r.platform} --waves ${r.waves.join(',')}`;
  }

  /** Where the rollout stands, read only (plan's view). */
  snapshot(): Promise<Snapshot> {
    return this.read();
  }

  /** The version, each wave's channel and the rollout's journal entries, read together. */
  private async read(): Promise<Snapshot> {
    const r = this.rollout;
    // The version first (once): entries older than its upload cannot be of its rollout.
    const version = this.version ?? (await findVersion(this.api, r.assetId, r.versionId));
    if (!version) throw new NotFoundError(`version ${r.versionId} of ${r.assetId} not found`);
    if (version.targetPlatform !== r.platform) throw new UsageError(`${r.versionId} is a ${version.targetPlatform} version of ${r.assetId}, not ${r.platform}: give --platform ${version.targetPlatform}`);
    const [waves, entries] = await Promise.all([
      Promise.all(r.waves.map(async (env) => ({ env, channel: (await readVersionOnChannel(this.api, { assetId: r.assetId, platform: r.platform, envId: env }, r.versionId, { version: false })).channel }))),
      this.journal ? rolloutEntries(this.ctx, this.journal, { asset: r.assetId, version: r.versionId, platform: r.platform }, new Date(Date.parse(version.createdAt) - 60_000)) : Promise.resolve([]),
    ]);
    this.version = version;
    const facts: WaveFacts[] = waves.map(({ env, channel }) => {
      const entry = entries.find((e) => e.rollout.wave === env && (e.rollout.action === 'promote' || e.rollout.action === 'abort'));
      return {
        env,
        currentDefault: defaultOf(channel) ?? null,
        ...(entry ? { entry: { action: entry.rollout.action as 'promote' | 'abort', at: entry.at, previousDefault: entry.rollout.previousDefault ?? null } } : {}),
      };
    });
    const now = this.api.serviceNow();
    const status = decideRollout({ versionId: r.versionId, waves: facts, soakMs: r.soakMs, approve: r.approve, approved: r.approved, now });
    return { waves, facts, status, now };
  }

  private document(snapshot: Snapshot, extra: Partial<RolloutDocument> = {}): RolloutDocument {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      asset: this.rollout.assetId,
      version: this.rollout.versionId,
      platform: this.rollout.platform,
      waves: snapshot.status.waves.map((w) => ({ env: w.env, state: w.state, gate: w.gate, since: iso(w.since), until: iso(w.until), previousDefault: w.previousDefault })),
      next: nextDocument(snapshot.status.next),
      promoted: [...this.promoted],
      ...extra,
    };
  }

  private async print(doc: RolloutDocument): Promise<void> {
    const out = await this.ctx.output();
    out.print(doc, (d, kit) =>
      kit.table(
        [
          { header: 'WAVE', get: (w: RolloutDocument['waves'][number]) => w.env },
          { header: 'STATE', get: (w) => w.state },
          { header: 'GATE', get: (w) => w.gate ?? '' },
          { header: 'SINCE', get: (w) => w.since ?? '' },
          { header: 'UNTIL', get: (w) => w.until ?? '' },
          { header: 'PREVIOUS DEFAULT', get: (w) => w.previousDefault ?? '' },
        ],
        d.waves,
      ),
    );
  }

  async status(): Promise<void> {
    const snapshot = await this.read();
    await this.print(this.document(snapshot));
    (await this.ctx.output()).info(`${this.name}: ${sentence(snapshot.status.next, snapshot.now)}`);
  }

  async start(): Promise<void> {
    const out = await this.ctx.output();
    const deadline = Date.now() + (await this.ctx.settings()).timeoutMs;
    for (;;) {
      const snapshot = await this.read();
      const next = snapshot.status.next;
      if (this.ctx.globals.dryRun) return this.dryRun(snapshot);
      this.refuseUnrecorded(snapshot);
      if (next.action === 'promote') {
        try {
          await this.promote(next.env, snapshot);
        } catch (error) {
          // A halt (a check, the served bytes) or a wait on a check: the document still says where the rollout stands.
          if (error instanceof AhsError && !(error instanceof CancelledError)) await this.read().then((after) => this.print(this.document(after)), () => undefined);
          throw error;
        }
        continue;
      }
      if (next.action === 'wait' && next.for === 'soak' && this.rollout.wait) {
        const left = next.until - snapshot.now;
        if (Date.now() + left <= deadline) {
          await this.sleep(left, next, snapshot.now);
          continue;
        }
        out.warn(`--wait: ${sentence(next, snapshot.now)}, longer than what --timeout leaves (${formatDuration(deadline - Date.now())})`);
      }
      await this.print(this.document(snapshot));
      return this.finish(next, snapshot.now);
    }
  }

  /**
   * A wave this run promoted whose soak the journal cannot measure (its
   * append failed, warned above): going on would skip the soak. Halts.
   */
  private refuseUnrecorded(snapshot: Snapshot): void {
    const missing = snapshot.facts.find((f) => this.promoted.includes(f.env) && this.rollout.soakMs[f.env] !== undefined && f.entry?.action !== 'promote');
    if (!missing) return;
    const text = `the journal has no entry of ${missing.env}'s promotion (see the warning above), so its soak cannot be measured: the rollout stops here; ${missing.env} is promoted. No later run can measure it either: to go on without that soak, run again without --soak ${missing.env}=...; to put ${missing.env} back (abort cannot: the journal has no entry of it): ahs rollback ${this.rollout.assetId} --platform ${this.rollout.platform} --env ${missing.env}`;
    throw new PartialFailureError(text, ExitCode.rejected, { type: 'urn:ahs:rejected', title: text, status: null, detail: text });
  }

  /** The exit of a run that cannot go on: complete (0), waiting (11), halted (5) or aborted (5). */
  private finish(next: Next, now: number): void {
    const text = `${this.name}: ${sentence(next, now)}`;
    if (next.action === 'complete') {
      void this.ctx.output().then((out) => out.success(text));
      return;
    }
    if (next.action === 'wait') throw new WaitingError(text, next.for === 'soak' ? new Date(next.until).toISOString() : null);
    if (next.action === 'halt') throw new ConflictError(`${text}; to put back the waves this rollout promoted: ${this.abortCommand()}`);
    throw new ConflictError(`${text}; nothing was sent`);
  }

  private async dryRun(snapshot: Snapshot): Promise<void> {
    const next = snapshot.status.next;
    const requests: DryRunDocument[] = [];
    if (next.action === 'promote') {
      const wave = snapshot.waves.find((w) => w.env === next.env)!;
      const user = (await this.ctx.settings()).get('user') ?? '(acting user)';
      for (const step of this.waveSteps(next.env, wave.channel, user).all) {
        const kind = KINDS[step.kind];
        requests.push(dryRunDocument(kind.request(step.params, this.api), step.prediction ?? (await kind.predict(step.params, this.api))));
      }
    }
    const doc = this.document(snapshot, { dryRun: true, requests });
    const out = await this.ctx.output();
    out.print(doc, (d, kit) => {
      const lines = [kit.style.bold('Dry run: nothing was sent.'), `next: ${sentence(next, snapshot.now)}`];
      for (const request of d.requests ?? []) lines.push(`  ${request.request.method} ${request.request.path} ${JSON.stringify(request.request.body)} → ${request.predicted.status}${request.predicted.error ? ` ${request.predicted.error.title}` : ''}`);
      if (next.action === 'promote' && this.rollout.check) lines.push(`  check: ${this.rollout.check} (run before and after the promotion; not run by a dry run)`);
      lines.push('', kit.table([{ header: 'WAVE', get: (w: RolloutDocument['waves'][number]) => w.env }, { header: 'STATE', get: (w) => w.state }, { header: 'GATE', get: (w) => w.gate ?? '' }, { header: 'UNTIL', get: (w) => w.until ?? '' }], d.waves));
      return lines.join('\n');
    });
    if (next.action !== 'promote') this.finish(next, snapshot.now);
  }

  /** The wave's writes: LIVE (when the version is not yet), then the promotion as a compare-and-set on the Default read. */
  private waveSteps(env: string, channel: ChannelSnapshot, user = '(acting user)'): { live?: Step; promotion: Step; all: Step[] } {
    const r = this.rollout;
    const state = channel.records[r.versionId];
    const liveBody: DeployBody = { envId: env, intent: 'LIVE', createdBy: user, updatedBy: user };
    const needsLive = state !== 'LIVE' && state !== 'DEFAULT';
    const live = needsLive ? steps.versionDeploy({ assetId: r.assetId, versionId: r.versionId, platform: r.platform, body: liveBody, channel, version: this.version ?? null, notes: [`rollout: ${r.versionId} is deployed LIVE on ${env} first`] }) : undefined;
    const expected = defaultOf(channel) ?? null;
    const promotion = steps.versionPromote(
      { assetId: r.assetId, platform: r.platform, envId: env, versionId: r.versionId, user, channel, expected, ...(needsLive ? { afterLive: liveBody } : {}), version: this.version ?? null },
      { refuse: { hint: `the rollout's promotion of ${env} would be refused` } },
    );
    return { live, promotion, all: live ? [live, promotion] : [promotion] };
  }

  /** One wave: LIVE, check, promotion (compare-and-set), served bytes verified, check again; the journal entry with the wave. */
  private async promote(env: string, snapshot: Snapshot): Promise<void> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const user = await this.ctx.setting('user', { message: 'Acting user e-mail' });
    const channel = snapshot.waves.find((w) => w.env === env)!.channel;
    const previousDefault = defaultOf(channel) ?? null;
    const { live, promotion } = this.waveSteps(env, channel, user);
    const field = (action: RolloutField['action']): RolloutField => ({ asset: r.assetId, version: r.versionId, platform: r.platform, waves: r.waves, wave: env, action, previousDefault });
    const execute = async (p: Plan, rollout: RolloutField) => {
      const { executePlan } = await import('../plan/execute.js');
      try {
        await executePlan(appendRolloutEntry(p, rollout), this.ctx);
      } catch (error) {
        // The compare-and-set on the Default read did not hold: another writer moved it meanwhile.
        if (error instanceof ConflictError) throw new ConflictError(`${env}'s Default moved while this rollout was promoting ${r.versionId} there (${error.message}); run the same command again to see where the rollout stands`);
        throw error;
      }
    };
    const name = channelName({ assetId: r.assetId, platform: r.platform, envId: env });
    const onAnswer = (step: Step) => {
      if (step === live) out.info(`${r.versionId} deployed LIVE on ${name}`);
      if (step === promotion) out.info(`${r.versionId} is now the Default of ${name}${previousDefault ? ` (previous Default ${previousDefault}, now LIVE)` : ''}`);
    };
    if (r.check) {
      if (live) await execute(plan([live], () => undefined, { onAnswer }), field('live'));
      await this.check(env, 'before');
      await execute(plan([promotion], () => undefined, { onAnswer }), field('promote'));
    } else {
      await execute(plan(live ? [live, promotion] : [promotion], () => undefined, { onAnswer }), field('promote'));
    }
    this.promoted.push(env);
    await this.verifyServed(env);
    if (r.check) await this.check(env, 'after');
  }

  /** The version's record on the wave's channel, with its download URL. */
  private async servedUrl(env: string): Promise<string> {
    const r = this.rollout;
    const [record] = await versionRecords(this.api, r.assetId, r.versionId, { platform: r.platform, envId: env });
    if (!record?.downloadUrl) throw new UsageError(`${r.versionId} has no download URL on ${channelName({ assetId: r.assetId, platform: r.platform, envId: env })} (${record?.state ?? 'not deployed'})`);
    return new URL(record.downloadUrl, this.api.baseUrl).toString();
  }

  private async sha256Served(env: string): Promise<{ sha256: string; bytes: number }> {
    const url = await this.servedUrl(env);
    const summary = await hashServed(this.ctx, [{ id: `${this.rollout.versionId}@${env}`, name: `${this.rollout.versionId} (${env})`, url }], { label: `verifying ${this.rollout.versionId} on ${env}` });
    const hashed = summary.hashed[0];
    if (!hashed) {
      const failed = summary.failed[0];
      throw new PartialFailureError(`${this.rollout.versionId} on ${env}: what is served could not be read (${failed?.error ?? 'no answer'}); the promotion stands: check with ahs verify, or abort: ${this.abortCommand()}`, failed?.network ? ExitCode.network : ExitCode.rejected);
    }
    return hashed;
  }

  /** After a promotion: what the wave serves is the uploaded file (its size on record, and the bytes an earlier wave serves). */
  private async verifyServed(env: string): Promise<void> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const served = await this.sha256Served(env);
    const mismatch = (what: string) => {
      const text = `${r.versionId} on ${env} is not what was uploaded: ${what}; halted: to put back the waves this rollout promoted: ${this.abortCommand()}`;
      return new PartialFailureError(text, ExitCode.rejected, { type: 'urn:ahs:mismatch', title: text, status: null, detail: text });
    };
    if (this.version && !sizeAgrees(this.version.size, served.bytes)) throw mismatch(`${served.bytes} bytes served, the version's size is ${this.version.size}`);
    if (!this.reference) {
      // The wave before this one is done (that is why this one was promoted): it serves the same version.
      const earlier = r.waves[r.waves.indexOf(env) - 1];
      this.reference = earlier === undefined ? { env, sha256: served.sha256 } : { env: earlier, sha256: (await this.sha256Served(earlier)).sha256 };
    }
    if (this.reference.sha256 !== served.sha256) throw mismatch(`SHA-256 ${served.sha256}, while ${this.reference.env} serves ${this.reference.sha256}`);
    out.info(`${env} serves ${r.versionId} byte for byte (${served.bytes} bytes, SHA-256 ${served.sha256.slice(0, 12)}…${this.reference.env === env ? '' : `, as ${this.reference.env}`})`);
  }

  /** --check: 0 passes, 1 fails (halt, exit 1), anything else is inconclusive (exit 11). */
  private async check(env: string, phase: 'before' | 'after'): Promise<void> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const url = await this.servedUrl(env);
    const wave = r.waves.indexOf(env) + 1;
    out.info(`check ${phase} promoting ${env}: ${r.check}`);
    const code = await runCheck(this.ctx, r.check!, { AHS_ROLLOUT_ENV: env, AHS_ROLLOUT_WAVE: String(wave), AHS_ROLLOUT_URL: url, AHS_ROLLOUT_PHASE: phase });
    if (code === 0) return;
    const promotedNote = phase === 'after' ? `${env} is promoted` : `${env} is not promoted`;
    if (code === 1) {
      const text = `the check failed ${phase} promoting ${env} (exit 1): the rollout of ${this.name} halts (${promotedNote}); to put back the waves it promoted: ${this.abortCommand()}`;
      throw new PartialFailureError(text, ExitCode.rejected, { type: 'urn:ahs:rejected', title: text, status: null, detail: text });
    }
    throw new WaitingError(`the check was inconclusive ${phase} promoting ${env} (exit ${code ?? 'by a signal'}): ${promotedNote}; run the same command again later`);
  }

  /** --wait: sleeps until the soak ends (service time), a countdown in a terminal, a line a minute elsewhere. */
  private async sleep(ms: number, next: Extract<Next, { for: 'soak' }>, now: number): Promise<void> {
    const out = await this.ctx.output();
    const io = this.ctx.io;
    const end = Date.now() + ms;
    const live = io.errIsTTY && !this.ctx.globals.quiet;
    let lastLine = 0;
    for (;;) {
      const left = end - Date.now();
      if (left <= 0) break;
      const text = `waiting: ${next.soaking} soaks until ${formatClock(next.until, now)}, ${formatDuration(left)} left`;
      if (live) io.err.write(`\r\x1b[2K${text}`);
      else if (Date.now() - lastLine >= 60_000 || lastLine === 0) {
        out.info(text);
        lastLine = Date.now();
      }
      await delay(Math.min(left, live ? 1000 : 5000), this.ctx.signal);
    }
    if (live) io.err.write('\r\x1b[2K');
  }

  async abort(): Promise<void> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const user = await this.ctx.setting('user', { message: 'Acting user e-mail' });
    const snapshot = await this.read();
    const decided = decideAbort(r.versionId, snapshot.facts);
    const restored: string[] = [];
    const left: AbortStep[] = [];
    const requests: DryRunDocument[] = [];
    for (const step of decided) {
      const name = channelName({ assetId: r.assetId, platform: r.platform, envId: step.env });
      if (step.action === 'nothing') continue;
      if (step.action === 'moved') {
        out.warn(`${name}: left alone, someone moved its Default to ${step.found ?? 'none'} since this rollout made it ${r.versionId}`);
        left.push(step);
        continue;
      }
      if (step.action === 'no-previous') {
        out.warn(`${name}: had no Default before this rollout; left as is (nothing is deleted: undeploy it with ahs asset undeploy if needed)`);
        left.push(step);
        continue;
      }
      // The Default and the target's own record (it must be LIVE there to be the Default again).
      const { channel } = await readVersionOnChannel(this.api, { assetId: r.assetId, platform: r.platform, envId: step.env }, step.to, { version: false });
      const promotion = steps.versionPromote(
        { assetId: r.assetId, platform: r.platform, envId: step.env, versionId: step.to, user, channel, expected: r.versionId },
        { refuse: { hint: `${step.to} is ${channel.records[step.to] ?? 'not deployed'} on ${name}: it cannot be made the Default again as it is` } },
      );
      if (this.ctx.globals.dryRun) {
        const kind = KINDS[promotion.kind];
        requests.push(dryRunDocument(kind.request(promotion.params, this.api), await kind.predict(promotion.params, this.api)));
        continue;
      }
      const { executePlan } = await import('../plan/execute.js');
      const field: RolloutField = { asset: r.assetId, version: r.versionId, platform: r.platform, waves: r.waves, wave: step.env, action: 'abort', previousDefault: r.versionId };
      try {
        await executePlan(appendRolloutEntry(plan([promotion], () => undefined), field), this.ctx);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        out.warn(`${name}: left alone, its Default moved since this rollout made it ${r.versionId} (${error.message})`);
        left.push({ env: step.env, action: 'moved', found: null });
        continue;
      }
      out.info(`${name}: ${step.to} is the Default again (was ${r.versionId})`);
      restored.push(step.env);
    }
    if (this.ctx.globals.dryRun) {
      // One document: where the rollout stands and the promotions an abort would send, newest wave first.
      out.print(this.document(snapshot, { dryRun: true, requests }), (d, kit) =>
        [kit.style.bold('Dry run: nothing was sent.'), ...(d.requests ?? []).map((q) => `  ${q.request.method} ${q.request.path} ${JSON.stringify(q.request.body)} → ${q.predicted.status}${q.predicted.error ? ` ${q.predicted.error.title}` : ''}`)].join('\n'),
      );
      return;
    }
    const after = await this.read();
    await this.print({ ...this.document(after), promoted: [], ...({ restored } as object) });
    const moved = left.filter((s) => s.action === 'moved');
    if (moved.length > 0) throw new ConflictError(`abort of ${this.name}: restored ${restored.length > 0 ? restored.join(', ') : 'nothing'}; left alone, moved by someone else since: ${moved.map((s) => s.env).join(', ')}`);
    out.success(`abort of ${this.name}: ${restored.length > 0 ? `restored ${restored.join(', ')}` : 'nothing to put back'}`);
  }
}

function nextDocument(next: Next): Record<string, unknown> {
  if (next.action === 'wait' && next.for === 'soak') return { action: 'wait', for: 'soak', env: next.env, soaking: next.soaking, until: new Date(next.until).toISOString() };
  return { ...next };
}

/** What the rollout does next, for a person: "staging soaks until 14:32Z, 1h12m left (then prod)". */
export function sentence(next: Next, now: number): string {
  switch (next.action) {
    case 'complete':
      return 'the rollout is complete';
    case 'promote':
      return `${next.env} is promoted next`;
    case 'aborted':
      return 'the rollout was aborted (the journal says so)';
    case 'halt':
      if (next.reason === 'unmeasured') return `halted: ${next.env}'s soak (${formatDuration(next.soak ?? 0)}) cannot be measured: ${next.found} is its Default, but the journal has no entry of this rollout promoting it (promoted outside the rollout, or its entry was not recorded), and an absent entry proves nothing; the waves after it are not promoted. To go on without that soak, run again without --soak ${next.env}=...`;
      return `halted: ${next.env}'s Default is ${next.found ?? 'none'} now, moved by someone else since this rollout promoted it`;
    case 'wait':
      if (next.for === 'approval') return `${next.env} waits for approval: run with --approved ${next.env}`;
      return `${next.soaking} soaks until ${formatClock(next.until, now)}, ${formatDuration(next.until - now)} left${next.env ? ` (then ${next.env})` : ''}`;
  }
}

/** Runs the check through the shell, its output on stderr (stdout is ahs's data); its exit code, null when killed. */
export function runCheck(ctx: Context, command: string, env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, env: { ...ctx.io.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], signal: ctx.signal });
    // As text, so that ahs's redacting stderr keeps the key out of what a check prints (it inherits AHS_API_KEY, for an ahs inside the check).
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => ctx.io.err.write(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => ctx.io.err.write(chunk));
    // The shell could not be started: neither a pass nor a fail (inconclusive), as a shell's own 127.
    child.on('error', () => (ctx.signal.aborted ? reject(ctx.signal.reason) : resolve(127)));
    child.on('close', (code) => (ctx.signal.aborted ? reject(ctx.signal.reason) : resolve(code)));
  });
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
