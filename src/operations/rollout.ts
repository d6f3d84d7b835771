// Rollouts as operations (cli.md "Rollouts across environments"; issue 34):
// `ahs rollout start|status|abort` and the library's client.rollout,
// rolloutStatus and rolloutAbort call startRollout, rolloutStatus and
// abortRollout with the options already resolved (the platform, the acting
// user, a desired-state file's defaults: src/commands/rollout/). Each reads
// the version, each wave's channel and the rollout's journal entries; a
// wave's writes are one plan of the one executor (the LIVE deploy, the
// check, the promotion as a compare-and-set on the Default read: one
// journal entry), then the served bytes are verified and the check run
// again. Any number of runs of the same rollout at once agree: each write
// that another run's identical write already made is settled by a read
// (the steps' converge) and recorded only by the run that made it; a run
// killed at any step leaves what the next run recognises (the intent
// written before each promotion: src/rules/rollout.ts says how). Each
// answers the rollout document
// and, when the run stops short (a wait, a halt), the error the command
// exits with once it has printed the document. The state machine itself is
// src/rules/rollout.ts; the tables are src/io/views/rollout.ts's.
import { spawn } from 'node:child_process';
import type { PlanContext } from '../plan/context.js';
import type { ApiClient } from '../http/client.js';
import { randomUUID } from 'node:crypto';
import type { ControlFacts } from '../rules/change-control.js';
import { AhsError, BlockedError, CancelledError, ConflictError, NotFoundError, OutcomeUnknownError, PartialFailureError, ExitCode, UsageError, WaitingError } from '../errors.js';
import { defaultOf, type ChannelSnapshot } from '../rules/index.js';
import { decideAbort, decideRollout, formatClock, formatDuration, parseDuration, type AbortFacts, type Halt, type InFlight, type Next, type RolloutEvent, type RolloutStatus, type WaveFacts, type WaveState } from '../rules/rollout.js';
import type { AssetUrl, DeployBody, Version } from '../rules/schemas.js';
import { channelOf, findVersion, listAllVersions, readChannel, readDefaults, readVersionOnChannel, versionNotFound, versionRecordOnChannel, versionRecords } from '../service/assets.js';
import { channelName } from '../service/promote.js';
import { sizeAgrees } from '../service/size.js';
import { hashServed, servedUrl as deliveredUrl } from '../service/delivery.js';
import { journalOf, rolloutEntries, rolloutEntriesByVersion, type RolloutEntry, type RolloutField } from '../service/rollout-journal.js';
import type { KnownChain } from '../service/journal.js';
import { appendRolloutEntry, recordRolloutEvent } from '../plan/journal-record.js';
import { prefetchControl } from '../plan/change-control.js';
import { isByAnother, type DeployResponse } from '../plan/answers.js';
import type { PromoteResult } from '../plan/kinds/versions.js';
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
  /** The version, or `name` on the platform. */
  versionId?: string | undefined;
  name?: string | undefined;
  platform: string;
  waves?: string[] | undefined;
  /** ENV=DURATION, each. */
  soak?: string[] | undefined;
  /** A shell command run before and after each promotion (`--check`). */
  check?: string | undefined;
  approve?: string[] | undefined;
  approved?: string[] | undefined;
  wait?: boolean | undefined;
  /** A halt by a failed check does not stop this run: it runs that check again and goes on when it passes (`--resume`). */
  resume?: boolean | undefined;
  /** Another version's rollout in flight on the asset and platform ends here (recorded), instead of blocking this one (a BlockedError, exit 12; `--supersede`). */
  supersede?: boolean | undefined;
  /** abort: ENV=VERSION, each: the Default a wave gets back when the journal does not prove it. */
  to?: string[] | undefined;
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
  resume: boolean;
  supersede: boolean;
  to: Record<string, string>;
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

/** A failed check, as the document says it: when (ISO), which check, its exit code, who ran it. */
export interface HaltDocument {
  env: string;
  at: string;
  by: string;
  check: string;
  phase: 'before' | 'after';
  exitCode: number;
}

/** What the rollout does next (src/rules/rollout.ts's Next, its times ISO). */
export type NextDocument =
  | { action: 'promote'; env: string }
  | { action: 'record'; env: string }
  | { action: 'wait'; for: 'soak'; env: string | null; soaking: string; until: string }
  | { action: 'wait'; for: 'entry'; env: string | null; recording: string; until: string }
  | { action: 'wait'; for: 'approval'; env: string }
  | { action: 'halt'; env: string; found: string | null }
  | { action: 'halt'; env: string; found: string | null; reason: 'check'; halt: HaltDocument }
  | { action: 'blocked'; by: InFlight }
  | { action: 'superseded'; version: string; by: string; at: string }
  | { action: 'aborted' }
  | { action: 'complete' };

/** Where a rollout stands: each wave, and what comes next. The JSON document of `ahs rollout` (a run, its status, its abort, a dry run; cli.md), and what rollout(), rolloutStatus() and rolloutAbort() resolve to. */
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
  /** abort: the waves it could not put back: moved by someone else since, or no previous Default proven (with the --to that would). */
  left?: Array<{ env: string; why: 'moved' | 'unknown'; found?: string | null; to?: string }>;
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
  if (mode === 'abort' && !journal && Object.keys(rollout.to).length === 0) throw new UsageError('abort puts back the Default each wave had before, which only the journal knows, and none is set: start one with `ahs journal init` (or name each wave\'s with --to ENV=VERSION)');
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
  const run = new RolloutRun(ctx, api, { ...key, waves: defaults.waves, soakMs, approve, approved: [], wait: false, resume: false, supersede: false, to: {} }, await journalOf(ctx), '(acting user)');
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
  const to: Record<string, string> = {};
  for (const raw of options.to ?? []) {
    const at = raw.indexOf('=');
    const env = at < 0 ? '' : raw.slice(0, at).trim();
    const target = at < 0 ? '' : raw.slice(at + 1).trim();
    if (!env || !target) throw new UsageError(`--to takes ENV=VERSION_ID, e.g. --to prod=WEB6 (got ${raw})`);
    inWaves('--to', env);
    to[env] = target;
  }
  return { assetId: options.assetId, versionId, platform, waves, soakMs, check: options.check, approve, approved, wait: options.wait === true, resume: options.resume === true, supersede: options.supersede === true, to };
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
  /** --resume: the halt by a failed check that still holds, which the status (decided with --resume) passes over. */
  halt?: Halt | undefined;
}

/** How much longer than its --timeout a run that wrote an intent has to record its promotion (the entry's own append). */
const RECORD_MARGIN_MS = 60_000;

class RolloutRun {
  private readonly promoted: string[] = [];
  private version: Version | undefined;
  /** The version's download URL in each wave read so far (servedUrl). */
  private readonly urls = new Map<string, Promise<string>>();
  /** The journal's collections as the last read found them (the intent's append goes out without reading them again). */
  private chain: KnownChain | undefined;
  /** The SHA-256 of what an earlier wave serves, once read in this run. */
  private reference: { env: string; sha256: string } | undefined;
  private actingUser: Promise<string> | undefined;
  /** This run, in its intents: a wave whose intent is its own is not another run's promotion in flight. */
  private readonly runId = randomUUID();
  /** The waves whose promotion this run recorded for another (recordFound): once each. */
  private readonly recorded = new Set<string>();
  /** The end of this run's --timeout (a start's), for --wait. */
  private deadline = Number.NEGATIVE_INFINITY;

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

  /** The rollout field of an entry of this rollout. */
  private field(wave: string, action: RolloutField['action'], extra: Partial<RolloutField> = {}): RolloutField {
    const r = this.rollout;
    return { asset: r.assetId, version: r.versionId, platform: r.platform, waves: r.waves, wave, action, ...extra };
  }

  /** Where the rollout stands, read only (plan's view). */
  snapshot(): Promise<Snapshot> {
    return this.read({ records: false });
  }

  /**
   * The version and every wave's Default (one listing of the platform's
   * Defaults: cli.md's "rollout status in at most 8 requests"), then the
   * rollout's journal entries: the journal after the channels, so that a
   * promotion the channels show has its intent (written before it was
   * sent) in what is read. `records` (a run that may write: start, its
   * dry run): the version's own record on each wave's channel too, in the
   * same round, which the wave's LIVE deploy and promotion are predicted
   * from; a status decides from the Defaults alone. `resume: false`: decided
   * as a run without --resume would (the document after a wave that failed:
   * a halt it recorded holds until a run given --resume checks again).
   */
  private async read(options: { records: boolean; resume?: boolean }): Promise<Snapshot> {
    const r = this.rollout;
    // The version (once): entries older than its upload cannot be of its rollout. Beside it, the Defaults.
    const versionRead = this.version ? Promise.resolve(this.version) : findVersion(this.api, r.assetId, r.versionId);
    const defaultsRead = readDefaults(this.api, r.assetId, r.platform);
    // Each wave's own record and, beside it, the channel's OFFLINE records (a record the first cannot show): one round.
    const recordsRead = options.records ? Promise.all(r.waves.map((env) => versionRecordOnChannel(this.api, { assetId: r.assetId, platform: r.platform, envId: env }, r.versionId, true))) : undefined;
    // A missing version is said as such, whichever read fails first.
    defaultsRead.catch(() => undefined);
    recordsRead?.catch(() => undefined);
    const version = await versionRead;
    if (!version) throw await versionNotFound(this.api, r.assetId, r.versionId);
    if (version.targetPlatform !== r.platform) throw new UsageError(`${r.versionId} is a ${version.targetPlatform} version of ${r.assetId}, not ${r.platform}: give --platform ${version.targetPlatform}`);
    const [defaults, records] = await Promise.all([defaultsRead, recordsRead]);
    const waves: WaveRead[] = r.waves.map((env, i) => ({ env, channel: channelOf([defaults.get(env), records?.[i]]) }));
    // A run that may write: change control's reads for the wave it would promote next (the first whose Default is not
    // this version), sent now beside the journal's, so that the wave's gate finds them read (cli.md: at most one
    // round, beside the first reads). Another wave's plan, or none, reads its own.
    const nextWave = options.records && !this.ctx.globals.dryRun ? waves.find((w) => defaultOf(w.channel) !== r.versionId) : undefined;
    if (nextWave) await prefetchControl(this.ctx, [{ kind: 'channel', assetId: r.assetId, platform: r.platform, env: nextWave.env }]);
    // The journal's collections, read once for this read's ranges (this rollout's, another in flight's).
    const chain: KnownChain = {};
    this.chain = chain;
    const read = this.journal ? await this.readEntries(version, waves, chain) : undefined;
    const entries = read ? entriesSince(read.byVersion.get(r.versionId) ?? [], rangeStart(version)) : [];
    this.version = version;
    // A wave whose promotion the journal has while its channel, read before the journal, did not show it: another
    // run promoted it between the two reads; read that channel again (once), or the wave would look moved.
    for (const wave of waves) {
      const newest = entries.find((e) => e.rollout.wave === wave.env && (e.rollout.action === 'promote' || e.rollout.action === 'abort'));
      if (newest?.rollout.action === 'promote' && defaultOf(wave.channel) !== r.versionId) {
        const again = await readVersionOnChannel(this.api, { assetId: r.assetId, platform: r.platform, envId: wave.env }, r.versionId, { version: false });
        wave.channel = again.channel;
        if (again.defaultRecord) defaults.set(wave.env, again.defaultRecord);
        else defaults.delete(wave.env);
      }
    }
    const facts = factsOf(waves, entries, r.versionId, this.runId);
    const events = eventsOf(entries);
    // The service's clock is at least the time of the newest entry it wrote: a tighter lower end than its Date
    // header's (a second's resolution, late on a loaded machine), so a soak just started says 1h left, not 1h1s.
    const now = Math.max(this.api.serviceNow(), ...entries.map((e) => e.at).filter(Number.isFinite));
    const inFlight = read ? await this.inFlight(waves, entries, events, defaults, chain, read) : undefined;
    const succeeded = read && !events.some((e) => e.action === 'supersede') ? await this.succeededBy(facts, chain, read) : undefined;
    if (succeeded) events.push(succeeded);
    const resume = options.resume ?? r.resume;
    const input = { versionId: r.versionId, waves: facts, soakMs: r.soakMs, approve: r.approve, approved: r.approved, now, events, resume, inFlight };
    const status = decideRollout(input);
    // --resume runs a check that failed after a promotion again (resumeAfterCheck): the halt as a run without it decides.
    const halt = resume ? newestHalt(decideRollout({ ...input, resume: false }).next) : undefined;
    return { waves, facts, status, now, halt };
  }

  /**
   * This rollout's entries, and, when this version is the Default of none
   * of its waves (a rollout not started, a hotfix before its first
   * promotion, one superseded everywhere), those of the versions that are:
   * such a read looks at their rollouts (inFlight, succeededBy), so their
   * uploads are read first and one listing from the oldest serves every
   * range (cli.md's "rollout status in at most 8 requests": a hotfix's
   * status read the journal's listing twice). A rollout under way (its
   * version the Default of a wave) reads its own range only.
   */
  private async readEntries(version: Version, waves: WaveRead[], chain: KnownChain): Promise<EntriesRead> {
    const r = this.rollout;
    const defaults = [...new Set(waves.map((w) => defaultOf(w.channel)).filter((v): v is string => v !== undefined))];
    const others = defaults.includes(r.versionId) ? [] : defaults;
    const versions = new Map<string, Version>([[r.versionId, version]]);
    for (const other of await Promise.all(others.map((id) => findVersion(this.api, r.assetId, id)))) if (other) versions.set(other.versionId, other);
    const since = new Date(Math.min(...[...versions.values()].map((v) => rangeStart(v).getTime())));
    const byVersion = await rolloutEntriesByVersion(this.ctx, this.journal!, { asset: r.assetId, platform: r.platform }, [...versions.keys()], since, chain);
    return { since, versions, byVersion };
  }

  /** Another version's upload and rollout entries: from this read's listing when it covers their range, else read now. */
  private async entriesOf(versionId: string, chain: KnownChain, read: EntriesRead): Promise<{ version: Version; entries: RolloutEntry[] } | undefined> {
    const r = this.rollout;
    const version = read.versions.get(versionId) ?? (await findVersion(this.api, r.assetId, versionId));
    if (!version) return undefined;
    const from = rangeStart(version);
    const listed = read.byVersion.get(versionId);
    if (listed && read.since.getTime() <= from.getTime()) return { version, entries: entriesSince(listed, from) };
    return { version, entries: await rolloutEntries(this.ctx, this.journal!, { asset: r.assetId, version: versionId, platform: r.platform }, from, chain) };
  }

  /**
   * Another version's rollout in flight on this asset and platform: a
   * version that is the Default of one of the waves, whose own entries say
   * a rollout promoted it and has not ended (aborted, superseded), and that
   * is not yet the Default of every one of its waves. Looked for only while
   * this rollout has promoted nothing (once it has, it took over).
   */
  private async inFlight(waves: WaveRead[], entries: RolloutEntry[], events: RolloutEvent[], defaults: Map<string, AssetUrl>, chain: KnownChain, read: EntriesRead): Promise<InFlight | undefined> {
    const r = this.rollout;
    if (entries.some((e) => e.rollout.action === 'promote' || e.rollout.action === 'intent') || events.some((e) => e.action === 'supersede')) return undefined;
    const others = [...new Set(waves.map((w) => defaultOf(w.channel)).filter((v): v is string => v !== undefined && v !== r.versionId))];
    for (const other of others) {
      const found = await this.rolloutOf(other, defaults, chain, read);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * A wave this rollout promoted whose Default is now another version that
   * the journal shows another rollout promoting there afterwards: that
   * rollout took over (a release train's next version), on the record; not
   * "moved by someone else". Read only when a wave looks moved.
   */
  private async succeededBy(facts: WaveFacts[], chain: KnownChain, read: EntriesRead): Promise<RolloutEvent | undefined> {
    const r = this.rollout;
    for (const wave of facts) {
      const found = wave.currentDefault;
      if (wave.entry?.action !== 'promote' || found === null || found === r.versionId) continue;
      const theirs = (await this.entriesOf(found, chain, read))?.entries;
      if (!theirs) continue;
      const promotion = theirs.find((e) => e.rollout.wave === wave.env && e.rollout.action === 'promote' && e.at >= wave.entry!.at);
      if (promotion) return { action: 'supersede', at: promotion.at, by: promotion.actor, version: found };
    }
    return undefined;
  }

  /**
   * The rollout of `versionId` when one is in flight: its waves' states in
   * words. Its waves' Defaults are those this read listed (every
   * environment of the platform), its entries read over the chain this
   * read already has.
   */
  private async rolloutOf(versionId: string, platformDefaults: Map<string, AssetUrl>, chain: KnownChain, read: EntriesRead): Promise<(InFlight & { waves: string[] }) | undefined> {
    const entries = (await this.entriesOf(versionId, chain, read))?.entries;
    if (!entries) return undefined;
    const newest = entries.find((e) => e.rollout.action !== 'live' && e.rollout.action !== 'intent');
    if (!newest || newest.rollout.action === 'abort' || entries.some((e) => e.rollout.action === 'supersede')) return undefined;
    const waves = newest.rollout.waves;
    const defaults = waves.map((env) => platformDefaults.get(env)?.versionId ?? null);
    if (defaults.every((d) => d === versionId)) return undefined;
    const halted = newest.rollout.action === 'halt' ? ` (halted by a failed check on ${newest.rollout.wave})` : '';
    return { version: versionId, state: `${waves.map((env, i) => `${env} ${defaults[i] === versionId ? 'done' : 'pending'}`).join(', ')}${halted}`, waves };
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

  /** Where the rollout stands; it ends as a run would when a person must act (halted: 1, moved: 5, blocked or superseded: 12). */
  async status(): Promise<RolloutResult> {
    // The freezes and blocks a run would meet (one listing, beside the status's own reads). Not the lock cells: a lock
    // is a moment's, a run meets it at its gate, and its reads would take status past cli.md's 8 requests.
    const { readControlFacts } = await import('../service/change-control.js');
    const control = readControlFacts(this.api, []);
    control.catch(() => undefined);
    const snapshot = await this.read({ records: false });
    const next = snapshot.status.next;
    const needsPerson = next.action === 'halt' || next.action === 'blocked' || next.action === 'superseded';
    if (needsPerson) return this.result(snapshot, {}, this.stopOf(next, snapshot.now));
    // The wave it promotes next, as a run would meet it: a freeze or a blocked version (exit 12).
    return this.result(snapshot, {}, next.action === 'promote' ? await this.controlBlock(next.env, control) : undefined);
  }

  /** What change control would refuse of this rollout's promotion of `env` now (blockOf: nothing waited for, nothing sent). */
  private async controlBlock(env: string, read?: Promise<ControlFacts>): Promise<BlockedError | undefined> {
    const r = this.rollout;
    const { blockOf } = await import('../plan/change-control.js');
    const blocked = await blockOf(this.ctx, { scopes: [{ kind: 'channel', assetId: r.assetId, platform: r.platform, env }], promotes: [{ assetId: r.assetId, versionId: r.versionId }] }, 'rollout', read);
    return blocked ? new BlockedError(`${this.name}: ${env} is promoted next, but ${blocked.message}`, blocked.blockedBy, blocked.until) : undefined;
  }

  async start(hooks: RolloutHooks): Promise<RolloutResult> {
    const out = await this.ctx.output();
    const deadline = Date.now() + (await this.ctx.settings()).timeoutMs;
    this.deadline = deadline;
    for (;;) {
      const snapshot = await this.read({ records: true });
      const next = snapshot.status.next;
      if (this.ctx.globals.dryRun) return this.dryRun(snapshot);
      try {
        // --resume after a check failed once its wave was promoted: that check again before anything else is sent.
        if (this.rollout.resume && (await this.resumeAfterCheck(snapshot))) continue;
        if (next.action === 'blocked' && this.rollout.supersede) {
          await this.supersede(next.by);
          continue;
        }
        if (next.action === 'promote') {
          await this.promote(next.env, snapshot);
          continue;
        }
        if (next.action === 'record') {
          await this.recordFound(next.env, snapshot);
          continue;
        }
      } catch (error) {
        // A halt (a check, the served bytes) or a wait (a check, the journal): the document still says where the rollout
        // stands, as a run without --resume sees it (a check that failed again under --resume halted it again).
        if (!(error instanceof AhsError) || error instanceof CancelledError) throw error;
        const after = await this.read({ records: false, resume: false }).catch(() => undefined);
        if (!after) throw error;
        return this.result(after, {}, error);
      }
      if (next.action === 'wait' && next.for !== 'approval' && this.rollout.wait) {
        const left = next.until - snapshot.now;
        if (Date.now() + left <= deadline) {
          const what = next.for === 'soak' ? `${next.soaking} soaks` : `the run that promoted ${next.recording} records it`;
          const line = (ms: number) => `waiting: ${what} until ${formatClock(next.until, snapshot.now)}, ${formatDuration(ms)} left`;
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

  /** How a run that cannot go on ends: complete (none), waiting (11), halted (1 by a check, 5 moved), blocked or superseded (12), aborted (5). */
  private stopOf(next: Next, now: number): AhsError | undefined {
    const text = `${this.name}: ${sentence(next, now)}`;
    if (next.action === 'complete' || next.action === 'promote' || next.action === 'record') return undefined;
    if (next.action === 'wait') return new WaitingError(text, next.for === 'approval' ? null : new Date(next.until).toISOString());
    if (next.action === 'halt' && 'reason' in next) {
      const full = `${text}; to put back the waves it promoted: ${this.abortCommand()}; to run the check again and go on: the same command with --resume`;
      return new PartialFailureError(full, ExitCode.rejected, { type: 'urn:ahs:rejected', title: full, status: null, detail: full });
    }
    if (next.action === 'halt') return new ConflictError(`${text}; to put back the waves this rollout promoted: ${this.abortCommand()}`);
    if (next.action === 'blocked') return new BlockedError(`${text}; to end it there and roll out ${this.rollout.versionId} instead: the same command with --supersede`, 'rollout');
    if (next.action === 'superseded') return new BlockedError(`${text}; nothing was sent`, 'rollout');
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
    // What a real run would meet at that wave: said, and the dry run ends as the run would (exit 12).
    const blocked = next.action === 'promote' ? await this.controlBlock(next.env) : undefined;
    if (blocked) (await this.ctx.output()).warn(`a real run would be refused: ${blocked.message}`);
    const result = this.result(snapshot, { dryRun: true, requests }, blocked ?? this.stopOf(next, snapshot.now));
    // A dry run that would promote says nothing after its document.
    if (next.action === 'promote' && !blocked) delete result.summary;
    return result;
  }

  /**
   * The wave's writes: LIVE (when the version is not yet), then the
   * promotion as a compare-and-set on the Default read. Both converge:
   * another run's identical write (the service's "already in the target
   * state", a 409 or a moved Default now this version) is settled by a read
   * of the channel and is that run's change, not this one's.
   */
  private waveSteps(env: string, channel: ChannelSnapshot, user = '(acting user)'): { live?: Step<DeployResponse>; promotion: Step<PromoteResult>; all: Step[] } {
    const r = this.rollout;
    const state = channel.records[r.versionId];
    const liveBody: DeployBody = { envId: env, intent: 'LIVE', createdBy: user, updatedBy: user };
    const needsLive = state !== 'LIVE' && state !== 'DEFAULT';
    const live = needsLive ? steps.versionDeploy({ assetId: r.assetId, versionId: r.versionId, platform: r.platform, body: liveBody, channel, version: this.version ?? null, notes: [`rollout: ${r.versionId} is deployed LIVE on ${env} first`], converge: true }) : undefined;
    const expected = defaultOf(channel) ?? null;
    const promotion = steps.versionPromote(
      { assetId: r.assetId, platform: r.platform, envId: env, versionId: r.versionId, user, channel, expected, ...(needsLive ? { afterLive: liveBody } : {}), version: this.version ?? null, converge: true },
      { refuse: { hint: `the rollout's promotion of ${env} would be refused` } },
    );
    return { ...(live ? { live } : {}), promotion, all: live ? [live, promotion] : [promotion] };
  }

  /**
   * One wave: LIVE, the check, the intent, the promotion (a compare-and-set
   * on the Default read) as one plan and one journal entry; then the served
   * bytes verified and the check again. The check and the intent run
   * between the plan's two steps: when the check fails or is inconclusive,
   * or the journal does not take the intent, the run stops there and the
   * entry records the LIVE deploy alone (action `live`, or `halt` for a
   * failed check); otherwise it records both (action `promote`, the soak's
   * start). A wave another run promoted meanwhile is that run's: this run
   * records none of it and checks nothing more there.
   */
  private async promote(env: string, snapshot: Snapshot): Promise<void> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const user = await this.user();
    const channel = snapshot.waves.find((w) => w.env === env)!.channel;
    // The version's own record may be read later than the channel's Default (sent at once): either one showing it DEFAULT is the later truth.
    const readDefault = channel.records[r.versionId] === 'DEFAULT' ? r.versionId : (defaultOf(channel) ?? null);
    // The channel as read (a re-read included) already has the version as its Default: another run of this rollout
    // promoted it meanwhile. Its promotion is that run's to record; sending ours would be the service's "already in
    // the target state" 400, which the prediction refuses (exit 1), though the rollout stands where it should.
    if (readDefault === r.versionId) {
      out.info(`${env}: another run of this rollout promoted ${r.versionId} meanwhile; it records and checks that wave`);
      return;
    }
    const { live, promotion, all } = this.waveSteps(env, channel, user);
    let failed: { code: number; phase: 'before' } | undefined;
    // The promotion was made by this run, or may have been (its answer lost): the entry is the wave's promotion.
    const made = (results: Results) => (results.has(promotion) && !isByAnother(results.of(promotion))) || results.failureOf(promotion)?.error instanceof OutcomeUnknownError;
    const field = (results: Results): RolloutField => {
      const previousDefault = results.of(promotion)?.previousDefault !== undefined ? results.of(promotion)!.previousDefault : readDefault;
      if (failed) return this.field(env, 'halt', { previousDefault, check: { command: r.check!, phase: failed.phase, exitCode: failed.code } });
      return this.field(env, made(results) ? 'promote' : 'live', { previousDefault });
    };
    let haltRecorded = false;
    const name = channelName({ assetId: r.assetId, platform: r.platform, envId: env });
    const wave: Plan = plan(all, () => undefined, {
      onAnswer: (step, results) => {
        if (step === live && !isByAnother(results.of(live))) out.info(`${r.versionId} deployed LIVE on ${name}`);
        if (step === promotion && !isByAnother(results.of(promotion))) {
          out.info(`${r.versionId} is now the Default of ${name}${readDefault ? ` (previous Default ${readDefault}, now LIVE)` : ''}`);
          // What it serves is verified next: its URL read now, beside the promotion's entry.
          this.servedUrl(env).catch(() => undefined);
        }
      },
      beforeSend: async (step: Step) => {
        if (step !== promotion) return;
        if (r.check) {
          const code = await this.runCheck(env, 'before');
          if (code === 1) failed = { code, phase: 'before' };
          this.checkOutcome(env, 'before', code);
        }
        await this.intent(env, readDefault);
      },
    });
    const recording: Plan = appendRolloutEntry(wave, (results) => {
      haltRecorded = failed !== undefined;
      return field(results);
    });
    const { executePlan } = await import('../plan/execute.js');
    let results: Results | undefined;
    // --wait: a wave locked by another run of the rollout is waited for (as --lock-timeout, within --timeout), then read again.
    const left = this.deadline - Date.now();
    const ctx = r.wait && this.ctx.globals.lockTimeout === undefined && left >= 1000 ? { ...this.ctx, globals: { ...this.ctx.globals, lockTimeout: `${Math.floor(left / 1000)}s` } } : this.ctx;
    try {
      await executePlan({ ...recording, done: (res: Results) => void (results = res) }, ctx);
    } catch (error) {
      if (failed && !haltRecorded) await this.recordHalt(env, 'before', failed.code);
      // The wave's channel locked by another run of a rollout (change control: a rollout holds its wave's lock while it
      // writes it): that run is promoting this wave, or was killed doing so (its lease ends by itself). Not a refusal
      // of this rollout: it waits (exit 11) and the next run reads what that one did.
      if (error instanceof BlockedError && error.blockedBy === 'lock') {
        const { lockStatus, describeHolder } = await import('../service/change-control.js');
        const status = await lockStatus(this.ctx, this.api, { kind: 'channel', assetId: r.assetId, platform: r.platform, env }).catch(() => undefined);
        if (status?.held && (status.command === 'rollout start' || status.command === 'rollout')) {
          throw new WaitingError(`${env} is being written by another run of a rollout (${describeHolder(status)}): run the same command again once it is done${status.leaseEnd ? ` (its lease ends ${status.leaseEnd} at the latest)` : ''}`, status.leaseEnd);
        }
      }
      // The compare-and-set on the Default read did not hold: another writer moved it meanwhile (to another version).
      if (error instanceof ConflictError) throw new ConflictError(`${env}'s Default moved while this rollout was promoting ${r.versionId} there (${error.message}); run the same command again to see where the rollout stands`);
      throw error;
    }
    if (results && !made(results)) {
      out.info(`${env}: another run of this rollout promoted ${r.versionId} meanwhile; it records and checks that wave`);
      return;
    }
    this.promoted.push(env);
    await this.verifyServed(env);
    if (r.check) {
      const code = await this.runCheck(env, 'after');
      if (code === 1) await this.recordHalt(env, 'after', code);
      this.checkOutcome(env, 'after', code);
    }
  }

  /**
   * The record of intent before a promotion is sent: the wave's Default
   * before it, and by when this run records the promotion itself. Without
   * it an abort could not prove what to put back, so a journal that refuses
   * it stops the run before the promotion (exit 11: the next run tries again).
   */
  private async intent(env: string, previousDefault: string | null): Promise<void> {
    if (!this.journal) return;
    const recordBy = new Date(this.api.serviceNow() + (await this.ctx.settings()).timeoutMs + RECORD_MARGIN_MS).toISOString();
    const known = this.chain?.links?.find((link) => link.collectionId === this.journal)?.collection;
    const ok = await recordRolloutEvent(this.ctx, this.journal, this.field(env, 'intent', { previousDefault, recordBy, run: this.runId }), 0, [], known);
    if (!ok) throw new WaitingError(`the journal did not take the record of ${env}'s promotion before it (see the warning above): ${env} is not promoted; run the same command again once the journal takes entries`);
  }

  /**
   * A wave that is the Default with a soak to keep and no entry of its
   * promotion (its run was killed before recording it, or its append was
   * refused, or it was promoted outside the rollout): recorded now, its soak
   * measured from this entry: later than the promotion, so never shorter.
   */
  private async recordFound(env: string, snapshot: Snapshot): Promise<void> {
    const out = await this.ctx.output();
    // Recorded by this run already, and still not in what the journal lists: not again (the next run reads it).
    if (this.recorded.has(env)) throw new WaitingError(`${env}'s promotion was recorded, but the journal does not list the entry yet: run the same command again`);
    this.recorded.add(env);
    const facts = snapshot.facts.find((f) => f.env === env)!;
    const previous = facts.intent ? { previousDefault: facts.intent.previousDefault } : {};
    const ok = this.journal ? await recordRolloutEvent(this.ctx, this.journal, this.field(env, 'promote', { ...previous, recovered: true })) : false;
    if (!ok) {
      throw new WaitingError(`${this.name.replace(/ of .*/, '')} is the Default of ${env}, but the journal did not take the record of its promotion (see the warning above): its soak starts once a run records it; run the same command again`);
    }
    out.info(`${env}: ${this.rollout.versionId} is the Default without an entry of its promotion (its run stopped before recording it, or it was promoted outside the rollout): recorded now; its soak of ${formatDuration(this.rollout.soakMs[env] ?? 0)} starts here`);
  }

  /** --supersede: the rollout in flight ends here, on its own record (its status then says superseded). */
  private async supersede(other: InFlight): Promise<void> {
    const r = this.rollout;
    const out = await this.ctx.output();
    await this.user();
    const field: RolloutField = { asset: r.assetId, version: other.version, platform: r.platform, waves: r.waves, wave: '*', action: 'supersede', by: r.versionId };
    const ok = await recordRolloutEvent(this.ctx, this.journal!, field);
    if (!ok) throw new WaitingError(`the journal did not take the record that ${other.version}'s rollout ends here (see the warning above): nothing was sent; run the same command again once the journal takes entries`);
    out.info(`the rollout of ${other.version} (${other.state}) ends here: superseded by ${r.versionId}'s, on the record`);
  }

  /** --resume of a rollout halted by a check after a promotion: that check again; when it passes the halt ends (recorded). */
  private async resumeAfterCheck(snapshot: Snapshot): Promise<boolean> {
    const r = this.rollout;
    const facts = snapshot.facts;
    const halt = snapshot.halt;
    if (!halt || halt.phase !== 'after' || !r.check) return false;
    if (facts.find((f) => f.env === halt.env)?.currentDefault !== r.versionId) return false;
    const code = await this.runCheck(halt.env, 'after');
    if (code === 1) await this.recordHalt(halt.env, 'after', code);
    this.checkOutcome(halt.env, 'after', code);
    await this.user();
    const ok = await recordRolloutEvent(this.ctx, this.journal!, this.field(halt.env, 'resume', { check: { command: r.check, phase: 'after', exitCode: 0 } }));
    // Not on the record, the halt would still hold for the next read (and this run would check again, and again).
    if (!ok) throw new WaitingError(`the check passed after promoting ${halt.env} again, but the journal did not take the record that the halt ends (see the warning above): run the same command again once the journal takes entries`);
    return true;
  }

  private async recordHalt(env: string, phase: 'before' | 'after', code: number): Promise<void> {
    if (!this.journal) return;
    await this.user();
    await recordRolloutEvent(this.ctx, this.journal, this.field(env, 'halt', { check: { command: this.rollout.check!, phase, exitCode: code } }), ExitCode.rejected);
  }

  /** The version's record on the wave's channel, with its download URL. */
  /**
   * The version's download URL in `env` (the same path LIVE or DEFAULT),
   * read once a run: the check before a promotion and the verification
   * after it share it, and a promotion's answer starts its read beside the
   * promotion's entry.
   */
  private servedUrl(env: string): Promise<string> {
    let url = this.urls.get(env);
    if (!url) {
      url = this.readServedUrl(env);
      this.urls.set(env, url);
      url.catch(() => this.urls.delete(env));
    }
    return url;
  }

  private async readServedUrl(env: string): Promise<string> {
    const r = this.rollout;
    const [record] = await versionRecords(this.api, r.assetId, r.versionId, { platform: r.platform, envId: env });
    if (!record?.downloadUrl) throw new UsageError(`${r.versionId} has no download URL on ${channelName({ assetId: r.assetId, platform: r.platform, envId: env })} (${record?.state ?? 'not deployed'})`);
    // Where the delivery network serves it: a relative download URL (or one on another host) on the delivery URL set, as verify reads it.
    return (await deliveredUrl(this.ctx, this.api, record.downloadUrl)).url;
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

  /**
   * --check, with the run's own settings in its environment (the service,
   * the delivery host, the domain, the key, the acting user, the journal;
   * AHS_PLATFORM and AHS_ENV of the wave): an `ahs version download
   * "$AHS_ROLLOUT_ASSET" "$AHS_ROLLOUT_VERSION"` or another ahs inside it
   * reads a secured asset as this run does, the key on no command line.
   * Its exit code (null: killed).
   */
  private async runCheck(env: string, phase: 'before' | 'after'): Promise<number | null> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const url = await this.servedUrl(env);
    const wave = r.waves.indexOf(env) + 1;
    out.info(`check ${phase} promoting ${env}: ${r.check}`);
    const settings = await this.ctx.settings();
    const own: Record<string, string> = {};
    for (const [name, variable] of [['baseUrl', 'AHS_BASE_URL'], ['deliveryUrl', 'AHS_DELIVERY_URL'], ['domainId', 'AHS_DOMAIN'], ['apiKey', 'AHS_API_KEY'], ['user', 'AHS_USER'], ['journal', 'AHS_JOURNAL']] as const) {
      const value = settings.get(name);
      if (value) own[variable] = value;
    }
    return runCheck(this.ctx, r.check!, { ...own, AHS_PLATFORM: r.platform, AHS_ENV: env, AHS_ROLLOUT_ASSET: r.assetId, AHS_ROLLOUT_VERSION: r.versionId, AHS_ROLLOUT_ENV: env, AHS_ROLLOUT_WAVE: String(wave), AHS_ROLLOUT_URL: url, AHS_ROLLOUT_PHASE: phase });
  }

  /** A check's exit code: 0 passes, 1 fails (halt, exit 1), anything else is inconclusive (exit 11). */
  private checkOutcome(env: string, phase: 'before' | 'after', code: number | null): void {
    if (code === 0) return;
    const promotedNote = phase === 'after' ? `${env} is promoted` : `${env} is not promoted`;
    if (code === 1) {
      const text = `the check failed ${phase} promoting ${env} (exit 1): the rollout of ${this.name} halts (${promotedNote}); to put back the waves it promoted: ${this.abortCommand()}; to run the check again and go on: the same command with --resume`;
      throw new PartialFailureError(text, ExitCode.rejected, { type: 'urn:ahs:rejected', title: text, status: null, detail: text });
    }
    throw new WaitingError(`the check was inconclusive ${phase} promoting ${env} (exit ${code ?? 'by a signal'}): ${promotedNote}; run the same command again later`);
  }

  async abort(): Promise<RolloutResult> {
    const r = this.rollout;
    const out = await this.ctx.output();
    const user = await this.user();
    const snapshot = await this.read({ records: false });
    const facts: AbortFacts[] = await Promise.all(
      snapshot.facts.map(async (f) => {
        // The versions LIVE there, for the --to of a wave whose previous Default nothing proves.
        const unproven = f.currentDefault === r.versionId && r.to[f.env] === undefined && !f.intent && (f.entry?.action !== 'promote' || f.entry.previousDefault === undefined);
        if (!unproven) return f;
        const { channel } = await readChannel(this.api, r.assetId, r.platform, f.env);
        return { ...f, live: Object.entries(channel.records).filter(([, state]) => state === 'LIVE').map(([v]) => v) };
      }),
    );
    const decided = decideAbort(r.versionId, facts, r.to);
    const restored: string[] = [];
    const left: NonNullable<RolloutDocument['left']> = [];
    const requests: DryRunDocument[] = [];
    const stillLive: string[] = [];
    const noPrevious: string[] = [];
    for (const step of decided) {
      const name = channelName({ assetId: r.assetId, platform: r.platform, envId: step.env });
      if (step.action === 'nothing') continue;
      if (step.action === 'moved') {
        out.warn(`${name}: left alone, someone moved its Default to ${step.found ?? 'none'} since this rollout made it ${r.versionId}`);
        left.push({ env: step.env, why: 'moved', found: step.found });
        continue;
      }
      if (step.action === 'no-previous') {
        out.warn(`${name}: had no Default before this rollout; left as is (nothing is deleted: undeploy it with ahs asset undeploy if needed)`);
        noPrevious.push(step.env);
        continue;
      }
      if (step.action === 'unknown') {
        const to = `--to ${step.env}=${step.candidates.length === 1 ? step.candidates[0] : 'VERSION_ID'}`;
        out.warn(`${name}: left alone: ${r.versionId} is its Default, and neither the journal nor --to says what was before (${step.candidates.length > 0 ? `LIVE there: ${step.candidates.join(', ')}` : 'no other version is LIVE there'}); to put one back: ${this.abortCommand()} ${to}`);
        left.push({ env: step.env, why: 'unknown', to });
        continue;
      }
      // The Default and the target's own record (it must be LIVE there to be the Default again).
      const { channel } = await readVersionOnChannel(this.api, { assetId: r.assetId, platform: r.platform, envId: step.env }, step.to, { version: false });
      // Either read (the Default's, the target's own record: sent at once, answered at two moments) may be the later one.
      if ((defaultOf(channel) === step.to || channel.records[step.to] === 'DEFAULT') && !this.ctx.globals.dryRun) {
        // Another abort of this rollout put it back since this run's first read: that abort's change, not this one's.
        out.info(`${name}: ${step.to} is the Default again: another abort put it back meanwhile`);
        stillLive.push(step.env);
        continue;
      }
      // Converges: another abort that put the same Default back meanwhile did this wave.
      const promotion = steps.versionPromote(
        { assetId: r.assetId, platform: r.platform, envId: step.env, versionId: step.to, user, channel, expected: r.versionId, converge: true },
        { refuse: { hint: `${step.to} is ${channel.records[step.to] ?? 'not deployed'} on ${name}: it cannot be made the Default again as it is` } },
      );
      if (this.ctx.globals.dryRun) {
        const kind = KINDS[promotion.kind];
        requests.push(dryRunDocument(kind.request(promotion.params, this.api), await kind.predict(promotion.params, this.api)));
        continue;
      }
      const { executePlan } = await import('../plan/execute.js');
      let answer: PromoteResult | undefined;
      try {
        await executePlan(appendRolloutEntry(plan([promotion], (results) => void (answer = results.of(promotion))), this.field(step.env, 'abort', { previousDefault: r.versionId })), this.ctx);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        out.warn(`${name}: left alone, its Default moved since this rollout made it ${r.versionId} (${error.message})`);
        left.push({ env: step.env, why: 'moved', found: error.actual ?? null });
        continue;
      }
      stillLive.push(step.env);
      if (answer && isByAnother(answer)) {
        out.info(`${name}: ${step.to} is the Default again: another abort put it back meanwhile`);
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
    // Nothing is deleted: the version stays LIVE where it was the Default (issue 48: said, with the command that takes it offline).
    if (stillLive.length > 0) out.info(`${r.versionId} stays LIVE on ${stillLive.join(', ')} (abort deletes nothing); to take it offline there: ${stillLive.map((env) => `ahs deploy ${r.assetId} ${r.versionId} --platform ${r.platform} --env ${env} --state OFFLINE`).join('; ')}`);
    // An abort that puts nothing back (no wave had a Default before this rollout, or none was promoted yet: a halt
    // before the first) still ends the rollout, on its record: later runs exit 5 (aborted) instead of going on, and its
    // status no longer says to abort it. Only when no abort of this run or another one is on the record already.
    if (restored.length === 0 && left.length === 0 && stillLive.length === 0 && snapshot.status.next.action !== 'aborted' && this.journal) {
      await this.user();
      const wave = noPrevious[0] ?? r.waves[0]!;
      const ok = await recordRolloutEvent(this.ctx, this.journal, this.field(wave, 'abort', { previousDefault: r.versionId }));
      if (!ok) throw new WaitingError(`abort of ${this.name}: nothing to put back, but the journal did not take the record that the rollout ends here (see the warning above): run the same command again once the journal takes entries`);
      out.info(`the rollout of ${this.name} ends here, on the record: a later run of it exits 5 (aborted)`);
    }
    const after = await this.read({ records: false });
    const stop =
      left.length > 0
        ? new ConflictError(
            `abort of ${this.name}: restored ${restored.length > 0 ? restored.join(', ') : 'nothing'}; left alone: ${left.map((l) => (l.why === 'moved' ? `${l.env} (moved by someone else since)` : `${l.env} (its previous Default is not proven: ${l.to})`)).join(', ')}`,
          )
        : undefined;
    const result = this.result(after, { promoted: [], restored, left }, stop);
    return stop ? result : { ...result, summary: `abort of ${this.name}: ${restored.length > 0 ? `restored ${restored.join(', ')}` : 'nothing to put back'}` };
  }
}

/** The newest halt of the rollout, when it still holds (src/rules/rollout.ts decided it). */
function newestHalt(next: Next): Halt | undefined {
  return next.action === 'halt' && 'reason' in next ? next.halt : undefined;
}

/** Each wave's channel and its newest entries of this rollout (promote or abort; intent), as the rules take them. */
function factsOf(waves: WaveRead[], entries: RolloutEntry[], versionId: string, runId: string): WaveFacts[] {
  return waves.map(({ env, channel }) => {
    const entry = entries.find((e) => e.rollout.wave === env && (e.rollout.action === 'promote' || e.rollout.action === 'abort'));
    const intent = entries.find((e) => e.rollout.wave === env && e.rollout.action === 'intent');
    const recordBy = intent?.rollout.recordBy ? Date.parse(intent.rollout.recordBy) : NaN;
    return {
      env,
      currentDefault: defaultOf(channel) ?? null,
      ...(entry ? { entry: { action: entry.rollout.action as 'promote' | 'abort', at: entry.at, previousDefault: entry.rollout.previousDefault } } : {}),
      ...(intent ? { intent: { at: intent.at, previousDefault: intent.rollout.previousDefault ?? null, recordBy: Number.isNaN(recordBy) ? intent.at : recordBy, own: intent.rollout.run === runId } } : {}),
    };
  });
  void versionId;
}

/** The rollout's halts, resumes and supersedes. */
function eventsOf(entries: RolloutEntry[]): RolloutEvent[] {
  return entries.flatMap((e): RolloutEvent[] => {
    const f = e.rollout;
    if (f.action === 'halt' && f.check) return [{ action: 'halt', env: f.wave, at: e.at, by: e.actor, check: f.check.command, phase: f.check.phase, exitCode: f.check.exitCode }];
    if (f.action === 'resume') return [{ action: 'resume', env: f.wave, at: e.at, by: e.actor }];
    if (f.action === 'supersede' && f.by) return [{ action: 'supersede', at: e.at, by: e.actor, version: f.by }];
    return [];
  });
}

/** What the rollout does next, as the document says it (times ISO). */
function nextDocument(next: Next): NextDocument {
  const iso = (ms: number) => new Date(ms).toISOString();
  if (next.action === 'wait' && next.for === 'soak') return { ...next, until: iso(next.until) };
  if (next.action === 'wait' && next.for === 'entry') return { ...next, until: iso(next.until) };
  if (next.action === 'halt' && 'reason' in next) return { ...next, halt: { ...next.halt, at: iso(next.halt.at) } };
  if (next.action === 'superseded') return { ...next, at: iso(next.at) };
  return { ...next } as NextDocument;
}

/** What the rollout does next, for a person: "staging soaks until 14:32Z, 1h12m left (then prod)". */
export function sentence(next: Next, now: number): string {
  switch (next.action) {
    case 'complete':
      return 'the rollout is complete';
    case 'promote':
      return `${next.env} is promoted next`;
    case 'record':
      return `${next.env} is the Default without an entry of its promotion in the journal: the next run records it, and its soak starts then`;
    case 'aborted':
      return 'the rollout was aborted (the journal says so)';
    case 'blocked':
      return `blocked: the rollout of ${next.by.version} is in flight on this asset and platform (${next.by.state})`;
    case 'superseded':
      return `superseded: ${next.by} started the rollout of ${next.version} in its place at ${formatClock(next.at, now)}`;
    case 'halt':
      if ('reason' in next) {
        const h = next.halt;
        return `halted: the check failed ${h.phase} promoting ${h.env} (exit ${h.exitCode}) at ${formatClock(h.at, now)}, run by ${h.by}: ${h.check}`;
      }
      return `halted: ${next.env}'s Default is ${next.found ?? 'none'} now, moved by someone else since this rollout promoted it`;
    case 'wait':
      if (next.for === 'approval') return `${next.env} waits for approval: run with --approved ${next.env}`;
      if (next.for === 'entry') return `${next.recording} was promoted by another run, which records it by ${formatClock(next.until, now)} (${formatDuration(next.until - now)} left); its soak is measured from that record${next.env ? ` (then ${next.env})` : ''}`;
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


/** What one read of a rollout took from the journal: the range's start, the versions it covers, their entries. */
interface EntriesRead {
  since: Date;
  versions: Map<string, Version>;
  byVersion: Map<string, RolloutEntry[]>;
}

/** Where a version's rollout entries can start: a minute before its upload (no rollout of it is older). */
function rangeStart(version: Version): Date {
  return new Date(Date.parse(version.createdAt) - 60_000);
}

/** The entries at or after `from` (newest first, as given). */
function entriesSince(entries: RolloutEntry[], from: Date): RolloutEntry[] {
  return entries.filter((entry) => entry.at >= from.getTime());
}
