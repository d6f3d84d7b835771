// Rollouts as operations (cli.md "Rollouts across environments"; issue 34):
// `ahs rollout start|status|abort` and the library's client.rollout,
// rolloutStatus and rolloutAbort call startRollout, rolloutStatus and
// abortRollout with the options already resolved (the platform, the acting
// user, a desired-state file's defaults: src/commands/rollout/). Each reads
// the version, each wave's channel and the rollout's journal entries; a
// wave's writes are one plan of the one executor (the LIVE deploy, the
// check, the promotion as a compare-and-set on the Default read: one
// journal entry), then the served bytes are verified and the check run
// again. Each answers the rollout document
// and, when the run stops short (a wait, a halt), the error the command
// exits with once it has printed the document. The state machine itself is
// src/rules/rollout.ts; the tables are src/io/views/rollout.ts's.
import { spawn } from 'node:child_process';
import type { PlanContext } from '../plan/context.js';
import type { ApiClient } from '../http/client.js';
import { AhsError, CancelledError, ConflictError, NotFoundError, OutcomeUnknownError, PartialFailureError, ExitCode, UsageError, WaitingError } from '../errors.js';
import { defaultOf, type ChannelSnapshot } from '../rules/index.js';
import { decideAbort, decideRollout, formatClock, formatDuration, parseDuration, type AbortStep, type Next, type RolloutStatus, type WaveFacts, type WaveState } from '../rules/rollout.js';
import type { DeployBody, Version } from '../rules/schemas.js';
import { findVersion, listAllVersions, readVersionOnChannel, versionRecords } from '../service/assets.js';
import { channelName } from '../service/promote.js';
import { sizeAgrees } from '../service/size.js';
import { hashServed } from '../service/delivery.js';
import { journalOf, rolloutEntries, type RolloutField } from '../service/rollout-journal.js';
import { appendRolloutEntry } from '../plan/journal-record.js';
import { plan, type Plan, type Results, type Step } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import { KINDS } from '../plan/kinds/index.js';
import { dryRunDocument, type DryRunDocument } from '../plan/dryrun.js';
import { delay } from '../util/delay.js';

/**
 * A rollout as every run of it gives it (the command line, or the library's
 * parameters), resolved: the platform and the acting user are known, and a
 * desired-state file's defaults already applied.
 */
export interface RolloutOptions {
  assetId: string;
  versionId?: string | undefined;
  name?: string | undefined;
  platform: string;
  waves?: string[] | undefined;
  /** ENV=DURATION, each. */
  soak?: string[] | undefined;
  check?: string | undefined;
  approve?: string[] | undefined;
  approved?: string[] | undefined;
  wait?: boolean | undefined;
  /** The acting user of the writes, or how to get it: asked for only once a wave is written (a status, a dry run or a run with nothing to promote asks nothing). */
  user: string | (() => Promise<string>);
}

/** What a run may be told to do by its caller. */
export interface RolloutHooks {
  /**
   * --wait: sleeps `ms`, until a soak ends; `line(left)` says what it waits
   * for. The command draws a countdown in a terminal, a line a minute
   * elsewhere; by default, one line through the output's info.
   */
  sleep?(ms: number, line: (leftMs: number) => string, signal: AbortSignal): Promise<void>;
}

/** The options checked: what every run derives the same state from. */
interface Rollout {
  assetId: string;
  versionId: string;
  platform: string;
  waves: string[];
  soakMs: Record<string, number>;
  check?: string | undefined;
  approve: string[];
  approved: string[];
  wait: boolean;
}

/** A wave of the rollout document. */
export interface RolloutWaveDocument {
  env: string;
  state: WaveState;
  gate: string | null;
  /** The service's time of this rollout's promotion of it (ISO). */
  since: string | null;
  /** Until when it soaks (ISO), while it does. */
  until: string | null;
  previousDefault: string | null;
}

/** What the rollout does next (src/rules/rollout.ts's Next, its times ISO). */
export type NextDocument =
  | { action: 'promote'; env: string }
  | { action: 'wait'; for: 'soak'; env: string | null; soaking: string; until: string }
  | { action: 'wait'; for: 'approval'; env: string }
  | { action: 'halt'; env: string; found: string | null; reason?: 'unmeasured'; soak?: number }
  | { action: 'aborted' }
  | { action: 'complete' };

/** The JSON document of a rollout run, status, abort and dry run (cli.md). */
export interface RolloutDocument {
  asset: string;
  version: string;
  platform: string;
  waves: RolloutWaveDocument[];
  next: NextDocument;
  /** The waves this run promoted, in order. */
  promoted: string[];
  /** abort: the waves whose previous Default it put back, newest first. */
  restored?: string[];
  dryRun?: true;
  /** --dry-run: the requests of the next wave (of an abort: its promotions), each with the rules' prediction. */
  requests?: DryRunDocument[];
}

/** What a rollout run, status or abort answers. */
export interface RolloutResult {
  /** Printed (--json: as is); the library's answer. */
  document: RolloutDocument;
  /** `WEB2 of my-bundle (web)`. */
  name: string;
  /** What comes next, for a person: "staging soaks until 14:32Z, 1h12m left (then prod)". */
  next: string;
  /** The line said after the document when the run does not stop short ("... the rollout is complete"); none when a dry run would promote. */
  summary?: string;
  /**
   * The run stops short: the command throws it once the document is printed
   * (a wait: exit 11; a check that failed or a halt: exit 1 or 5; a channel
   * moved since: 5). The library answers a wait with the document and
   * throws the others.
   */
  stop?: AhsError;
}

/** `ahs rollout start`: promotes each wave whose gates hold (--wait: sleeps out a soak within --timeout); a dry run says which wave and its requests. */
export async function startRollout(ctx: PlanContext, options: RolloutOptions, hooks: RolloutHooks = {}): Promise<RolloutResult> {
  return (await prepare(ctx, 'start', options)).start(hooks);
}

/** `ahs rollout status`: where the rollout stands. Reads only. */
export async function rolloutStatus(ctx: PlanContext, options: RolloutOptions): Promise<RolloutResult> {
  return (await prepare(ctx, 'status', options)).status();
}

/** `ahs rollout abort`: each wave's previous Default back (from the journal), newest wave first, each a compare-and-set on the rollout's version. */
export async function abortRollout(ctx: PlanContext, options: RolloutOptions): Promise<RolloutResult> {
  return (await prepare(ctx, 'abort', options)).abort();
}

async function prepare(ctx: PlanContext, mode: 'start' | 'status' | 'abort', options: RolloutOptions): Promise<RolloutRun> {
  const api = await ctx.api();
  const rollout = await checkOptions(api, options);
  const journal = await journalOf(ctx);
  if (mode !== 'status' && Object.keys(rollout.soakMs).length > 0 && !journal) {
    throw new UsageError(`a soak time needs the journal (the service's own record of when each wave was promoted), and none is set: start one with \`ahs journal init\`, or run without --soak`);
  }
  if (mode === 'abort' && !journal) throw new UsageError('abort puts back the Default each wave had before, which only the journal knows, and none is set: start one with `ahs journal init`');
  return new RolloutRun(ctx, api, rollout, journal, options.user);
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
export async function rolloutStanding(ctx: PlanContext, api: ApiClient, key: { assetId: string; versionId: string; platform: string }, defaults: RolloutDefaults): Promise<string> {
  const soakMs: Record<string, number> = {};
  for (const [env, text] of Object.entries(defaults.soak ?? {})) {
    const ms = parseDuration(text);
    if (ms !== undefined && defaults.waves.includes(env)) soakMs[env] = ms;
  }
  const approve = (defaults.approve ?? []).filter((env) => defaults.waves.includes(env));
  const run = new RolloutRun(ctx, api, { ...key, waves: defaults.waves, soakMs, approve, approved: [], wait: false }, await journalOf(ctx), '(acting user)');
  const { status, now } = await run.snapshot();
  const waves = status.waves.map((wave) => `${wave.env} ${wave.state === 'soaking' && wave.until !== null ? `soaking until ${formatClock(wave.until, now)}` : wave.state}`);
  return `${waves.join(', ')}: ${sentence(status.next, now)}`;
}

async function checkOptions(api: ApiClient, options: RolloutOptions): Promise<Rollout> {
  const platform = options.platform;
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
  private actingUser: Promise<string> | undefined;

  constructor(
    private readonly ctx: PlanContext,
    private readonly api: ApiClient,
    private readonly rollout: Rollout,
    private readonly journal: string | undefined,
    private readonly givenUser: RolloutOptions['user'],
  ) {}

  private get name(): string {
    return `${this.rollout.versionId} of ${this.rollout.assetId} (${this.rollout.platform})`;
  }

  /** The acting user, asked for once, when a wave is first written. */
  private user(): Promise<string> {
    const given = this.givenUser;
    this.actingUser ??= typeof given === 'string' ? Promise.resolve(given) : given();
    return this.actingUser;
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

  /** The answer of a run that read `snapshot` last: the document, and how it ends. */
  private result(snapshot: Snapshot, extra: Partial<RolloutDocument> = {}, stop?: AhsError): RolloutResult {
    const next = sentence(snapshot.status.next, snapshot.now);
    return { document: this.document(snapshot, extra), name: this.name, next, ...(stop ? { stop } : { summary: `${this.name}: ${next}` }) };
  }

  status(): Promise<RolloutResult> {
    return this.read().then((snapshot) => this.result(snapshot));
  }

  async start(hooks: RolloutHooks): Promise<RolloutResult> {
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
          if (!(error instanceof AhsError) || error instanceof CancelledError) throw error;
          const after = await this.read().catch(() => undefined);
          if (!after) throw error;
          return this.result(after, {}, error);
        }
        continue;
      }
      if (next.action === 'wait' && next.for === 'soak' && this.rollout.wait) {
        const left = next.until - snapshot.now;
        if (Date.now() + left <= deadline) {
          const line = (ms: number) => `waiting: ${next.soaking} soaks until ${formatClock(next.until, snapshot.now)}, ${formatDuration(ms)} left`;
          if (hooks.sleep) await hooks.sleep(left, line, this.ctx.signal);
          else {
            out.info(line(left));
            await delay(left, this.ctx.signal);
          }
          continue;
        }
        out.warn(`--wait: ${sentence(next, snapshot.now)}, longer than what --timeout leaves (${formatDuration(deadline - Date.now())})`);
      }
      return this.result(snapshot, {}, this.stopOf(next, snapshot.now));
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

  /** How a run that cannot go on ends: complete (none), waiting (11), halted (5) or aborted (5). */
  private stopOf(next: Next, now: number): AhsError | undefined {
    const text = `${this.name}: ${sentence(next, now)}`;
    if (next.action === 'complete' || next.action === 'promote') return undefined;
    if (next.action === 'wait') return new WaitingError(text, next.for === 'soak' ? new Date(next.until).toISOString() : null);
    if (next.action === 'halt') return new ConflictError(`${text}; to put back the waves this rollout promoted: ${this.abortCommand()}`);
    return new ConflictError(`${text}; nothing was sent`);
  }

  private async dryRun(snapshot: Snapshot): Promise<RolloutResult> {
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
    const result = this.result(snapshot, { dryRun: true, requests }, this.stopOf(next, snapshot.now));
    // A dry run that would promote says nothing after its document.
    if (next.action === 'promote') delete result.summary;
    return result;
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

  /**
   * One wave: LIVE, the check, the promotion (a compare-and-set on the
   * Default read) as one plan and one journal entry; then the served bytes
   * verified and the check again. The check runs between the plan's two
   * steps: when it fails or is inconclusive the run stops there, and the
   * entry records the LIVE deploy alone (action `live`); otherwise it records
   * both (action `promote`, the soak's start).
   */
  private async promote(env: string, snapshot: Snapshot): Promise<void> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const user = await this.user();
    const channel = snapshot.waves.find((w) => w.env === env)!.channel;
    const previousDefault = defaultOf(channel) ?? null;
    const { live, promotion, all } = this.waveSteps(env, channel, user);
    // The promotion was made, or may have been (its answer lost): the entry is the wave's promotion.
    const field = (results: Results): RolloutField => {
      const sent = results.has(promotion) || results.failureOf(promotion)?.error instanceof OutcomeUnknownError;
      return { asset: r.assetId, version: r.versionId, platform: r.platform, waves: r.waves, wave: env, action: sent ? 'promote' : 'live', previousDefault };
    };
    const name = channelName({ assetId: r.assetId, platform: r.platform, envId: env });
    const wave: Plan = plan(all, () => undefined, {
      onAnswer: (step) => {
        if (step === live) out.info(`${r.versionId} deployed LIVE on ${name}`);
        if (step === promotion) out.info(`${r.versionId} is now the Default of ${name}${previousDefault ? ` (previous Default ${previousDefault}, now LIVE)` : ''}`);
      },
      ...(r.check ? { beforeSend: async (step: Step) => (step === promotion ? this.check(env, 'before') : undefined) } : {}),
    });
    const { executePlan } = await import('../plan/execute.js');
    try {
      await executePlan(appendRolloutEntry(wave, field), this.ctx);
    } catch (error) {
      // The compare-and-set on the Default read did not hold: another writer moved it meanwhile.
      if (error instanceof ConflictError) throw new ConflictError(`${env}'s Default moved while this rollout was promoting ${r.versionId} there (${error.message}); run the same command again to see where the rollout stands`);
      throw error;
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

  async abort(): Promise<RolloutResult> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const user = await this.user();
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
    // A dry run: where the rollout stands and the promotions an abort would send, newest wave first.
    if (this.ctx.globals.dryRun) {
      const { summary: _, ...result } = this.result(snapshot, { dryRun: true, requests });
      return result;
    }
    const after = await this.read();
    const moved = left.filter((s) => s.action === 'moved');
    const stop = moved.length > 0 ? new ConflictError(`abort of ${this.name}: restored ${restored.length > 0 ? restored.join(', ') : 'nothing'}; left alone, moved by someone else since: ${moved.map((s) => s.env).join(', ')}`) : undefined;
    const result = this.result(after, { promoted: [], restored }, stop);
    return stop ? result : { ...result, summary: `abort of ${this.name}: ${restored.length > 0 ? `restored ${restored.join(', ')}` : 'nothing to put back'}` };
  }
}

/** What the rollout does next, as the document says it (times ISO). */
function nextDocument(next: Next): NextDocument {
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
export function runCheck(ctx: Pick<PlanContext, 'io' | 'signal'>, command: string, env: Record<string, string>): Promise<number | null> {
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

