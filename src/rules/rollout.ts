// The state of a rollout (cli.md "Rollouts across environments"), as a pure
// function of what a run read: each wave's channel (is the version its
// Default?) and the rollout's own journal entries (when each wave was
// promoted, on the service's clock, and what its Default was before; a
// failed check; a supersede). Nothing is kept locally: every run derives the
// same state from the same reads, so the same command line in the next CI
// job moves the rollout on, and any number of runs at once agree on it.
//
// The states are Argo Rollouts' (an AnalysisRun's three outcomes): a check
// that passes goes on, one that fails halts the rollout until a person acts
// (Argo's abort: `rollout abort`, or a run given --resume, Argo's retry),
// one that is inconclusive pauses it (exit 11, the next run checks again).
//
// Crash safety (house style: record intent before the act): before a wave's
// promotion is sent, the run appends an `intent` entry holding the wave's
// Default before it and the time by which the run will have recorded the
// promotion itself (`recordBy`: its --timeout on). A wave that is the
// Default without a `promote` entry is either another run's promotion whose
// entry is still due (an intent of another run, before its recordBy: the
// run waits for it rather than record the same promotion twice), or a
// promotion whose run died before recording it (or one made outside the
// rollout): the run records it then (`record`), and its soak is measured
// from that entry, later than the promotion itself: never shorter than asked.

/** An entry of this rollout for one wave, as read (service time, ms). */
export interface WaveEntry {
  action: 'promote' | 'abort';
  at: number;
  /** The wave's Default before the promotion (null: none); undefined when not known (a promotion recorded by a later run with no intent before it). */
  previousDefault?: string | null | undefined;
}

/** A run's record of intent, written before its promotion of the wave was sent. */
export interface WaveIntent {
  at: number;
  previousDefault: string | null;
  /** By when the run that wrote it records the promotion itself (service time, ms). */
  recordBy: number;
  /** Written by this run. */
  own: boolean;
}

/** A wave as read: its channel and the newest journal entries of this rollout for it. */
export interface WaveFacts {
  env: string;
  /** The channel's Default now (null: none). */
  currentDefault: string | null;
  /** The newest promote or abort entry of this rollout for this wave, when the journal has one. */
  entry?: WaveEntry | undefined;
  /** The newest intent of this rollout for this wave. */
  intent?: WaveIntent | undefined;
}

/** What a check's failure, a resume or a supersede recorded (the entry's actor is `by`). */
export type RolloutEvent =
  | { action: 'halt'; env: string; at: number; by: string; check: string; phase: 'before' | 'after'; exitCode: number }
  | { action: 'resume'; env: string; at: number; by: string }
  | { action: 'supersede'; at: number; by: string; version: string };

/** Another version's rollout in flight on the same asset and platform. */
export interface InFlight {
  version: string;
  /** Its waves in words: "dev done, staging soaking, prod pending". */
  state: string;
}

export interface RolloutInput {
  versionId: string;
  waves: WaveFacts[];
  /** Soak after a wave's promotion, by env, in ms. */
  soakMs: Readonly<Record<string, number>>;
  /** Waves promoted only by a run given --approved ENV. */
  approve: readonly string[];
  approved: readonly string[];
  /** Now, on the service's clock (ms). */
  now: number;
  /** The rollout's halts, resumes and supersedes, any order. */
  events?: readonly RolloutEvent[];
  /** --resume: a halt by a failed check does not stop this run (it checks again). */
  resume?: boolean;
  /** Another version's rollout in flight: this one is blocked by it (a run given --supersede ends it, on the record, and reads again). */
  inFlight?: InFlight | undefined;
}

export type WaveState = 'done' | 'soaking' | 'unrecorded' | 'next' | 'waiting-approval' | 'pending' | 'moved' | 'halted' | 'aborted';

export interface WaveStatus {
  env: string;
  state: WaveState;
  /** The gates of this wave, in words ("after dev soaks 30m", "approval"), null when none. */
  gate: string | null;
  /** When this rollout promoted it (service time, ms), when the journal says. */
  since: number | null;
  /** Until when it soaks (ms), while it does; of an unrecorded wave, until when the run that promoted it records it. */
  until: number | null;
  /** Its Default before this rollout promoted it (from the journal), null when none or unknown. */
  previousDefault: string | null;
}

/** A failed check that halted the rollout. */
export interface Halt {
  env: string;
  at: number;
  by: string;
  check: string;
  phase: 'before' | 'after';
  exitCode: number;
}

export type Next =
  | { action: 'promote'; env: string }
  /** The wave is the Default without an entry of its promotion: this run records it (its soak starts then). */
  | { action: 'record'; env: string }
  | { action: 'wait'; for: 'soak'; env: string | null; soaking: string; until: number }
  /** Another run promoted `recording` and records it by `until`. */
  | { action: 'wait'; for: 'entry'; env: string | null; recording: string; until: number }
  | { action: 'wait'; for: 'approval'; env: string }
  | { action: 'halt'; env: string; found: string | null }
  | { action: 'halt'; env: string; found: string | null; reason: 'check'; halt: Halt }
  | { action: 'blocked'; by: InFlight }
  | { action: 'superseded'; version: string; by: string; at: number }
  | { action: 'aborted' }
  | { action: 'complete' };

export interface RolloutStatus {
  waves: WaveStatus[];
  next: Next;
}

/** Where a rollout stands and what a run does next. */
export function decideRollout(input: RolloutInput): RolloutStatus {
  const { versionId, soakMs, now } = input;
  const approvedSet = new Set(input.approved);
  const approveSet = new Set(input.approve);
  const events = input.events ?? [];
  const newest = newestOf(input.waves, events);
  const aborted = newest?.action === 'abort';
  const halt = newest?.action === 'halt' && !input.resume ? (newest as Halt & { action: 'halt' }) : undefined;
  const waves: WaveStatus[] = [];
  let blocked = false;
  for (const [index, facts] of input.waves.entries()) {
    const previous = index > 0 ? waves[index - 1]! : undefined;
    const soak = soakMs[facts.env];
    const isDefault = facts.currentDefault === versionId;
    const promoted = facts.entry?.action === 'promote' ? facts.entry : undefined;
    const since = isDefault && promoted ? promoted.at : null;
    let until = since !== null && soak !== undefined ? since + soak : null;
    let state: WaveState;
    if (facts.entry?.action === 'abort' && !isDefault && aborted) state = 'aborted';
    else if (halt && halt.env === facts.env) state = 'halted';
    else if (isDefault && !promoted && soak !== undefined) {
      state = 'unrecorded';
      until = facts.intent && !facts.intent.own && now < facts.intent.recordBy ? facts.intent.recordBy : null;
    } else if (isDefault) state = until !== null && now < until ? 'soaking' : 'done';
    else if (promoted) state = 'moved';
    else if (blocked || (previous && (previous.state === 'soaking' || previous.state === 'unrecorded'))) state = 'pending';
    else if (approveSet.has(facts.env) && !approvedSet.has(facts.env)) state = 'waiting-approval';
    else state = 'next';
    if (state !== 'done' && state !== 'soaking' && state !== 'unrecorded') blocked = true;
    const previousDefault = promoted || isDefault ? (promoted?.previousDefault ?? facts.intent?.previousDefault ?? null) : null;
    waves.push({ env: facts.env, state, gate: gateText(previous?.env, previous ? soakMs[previous.env] : undefined, approveSet.has(facts.env)), since, until: state === 'soaking' || state === 'unrecorded' ? until : null, previousDefault });
  }
  // An unrecorded soak whose later waves are all done gates nothing: that wave is done.
  let later = true;
  for (let index = waves.length - 1; index >= 0; index--) {
    if (waves[index]!.state === 'unrecorded' && later) waves[index] = { ...waves[index]!, state: 'done', until: null };
    later &&= waves[index]!.state === 'done' || waves[index]!.state === 'soaking';
  }
  const superseded = events.filter((e) => e.action === 'supersede').sort((a, b) => b.at - a.at)[0];
  const next: Next = superseded
    ? { action: 'superseded', version: superseded.version, by: superseded.by, at: superseded.at }
    : aborted
      ? { action: 'aborted' }
      : input.inFlight
        ? { action: 'blocked', by: input.inFlight }
        : halt
          ? { action: 'halt', env: halt.env, found: input.waves.find((w) => w.env === halt.env)?.currentDefault ?? null, reason: 'check', halt: { env: halt.env, at: halt.at, by: halt.by, check: halt.check, phase: halt.phase, exitCode: halt.exitCode } }
          : nextOf(waves, input.waves);
  return { waves, next };
}

/** The rollout's newest entry over all its waves and events (a halt, a resume, a promotion, an abort). */
function newestOf(facts: readonly WaveFacts[], events: readonly RolloutEvent[]): { action: string; at: number } | undefined {
  const all: Array<{ action: string; at: number }> = [...facts.flatMap((f) => (f.entry ? [f.entry] : [])), ...events.filter((e) => e.action !== 'supersede')];
  return all.sort((a, b) => b.at - a.at)[0];
}

function nextOf(waves: WaveStatus[], facts: WaveFacts[]): Next {
  const moved = waves.find((w) => w.state === 'moved');
  if (moved) return { action: 'halt', env: moved.env, found: facts.find((f) => f.env === moved.env)!.currentDefault };
  const first = waves.findIndex((w) => w.state !== 'done' && w.state !== 'soaking');
  if (first < 0) {
    // Every wave is done: only the last one's soak still holds (an earlier soak gated a wave that is done).
    const last = waves[waves.length - 1];
    return last?.state === 'soaking' ? { action: 'wait', for: 'soak', env: null, soaking: last.env, until: last.until! } : { action: 'complete' };
  }
  const wave = waves[first]!;
  if (wave.state === 'next') return { action: 'promote', env: wave.env };
  if (wave.state === 'waiting-approval') return { action: 'wait', for: 'approval', env: wave.env };
  if (wave.state === 'unrecorded') {
    const then = waves[first + 1]?.env ?? null;
    return wave.until !== null ? { action: 'wait', for: 'entry', env: then, recording: wave.env, until: wave.until } : { action: 'record', env: wave.env };
  }
  const before = waves[first - 1]!;
  return { action: 'wait', for: 'soak', env: wave.env, soaking: before.env, until: before.until! };
}

function gateText(previous: string | undefined, soak: number | undefined, approval: boolean): string | null {
  const parts = [...(previous !== undefined && soak !== undefined ? [`after ${previous} soaks ${formatDuration(soak)}`] : []), ...(approval ? ['approval'] : [])];
  return parts.length > 0 ? parts.join(', ') : null;
}

/** What an abort does on a wave: put its previous Default back, or leave it alone and say why. */
export type AbortStep =
  | { env: string; action: 'restore'; to: string }
  | { env: string; action: 'moved'; found: string | null }
  | { env: string; action: 'no-previous' }
  /** The version is the Default, and neither the journal nor --to says what was before: named with the --to that would. */
  | { env: string; action: 'unknown'; candidates: string[] }
  | { env: string; action: 'nothing'; why: string };

/** A wave for an abort: its facts and the versions LIVE on its channel (the --to candidates). */
export interface AbortFacts extends WaveFacts {
  live?: readonly string[];
}

/**
 * `rollout abort`: each wave this rollout promoted, newest wave first: its
 * previous Default goes back when the rollout's version is still the
 * Default (a compare-and-set on it). The previous Default is the one the
 * journal proves (the promotion's entry, or the intent written before it),
 * or the one `to` names for that wave; a wave neither proves is named (with
 * the versions LIVE there, for the --to). A channel moved by someone else
 * since is left alone and named.
 */
export function decideAbort(versionId: string, waves: readonly AbortFacts[], to: Readonly<Record<string, string>> = {}): AbortStep[] {
  return [...waves].reverse().map((wave): AbortStep => {
    const entry = wave.entry;
    const given = to[wave.env];
    if (entry?.action === 'abort' && wave.currentDefault !== versionId) return { env: wave.env, action: 'nothing', why: 'already put back by an abort' };
    const previous = entry?.action === 'promote' && entry.previousDefault !== undefined ? entry.previousDefault : wave.intent ? wave.intent.previousDefault : undefined;
    if (wave.currentDefault !== versionId) {
      if (!entry && !wave.intent) return { env: wave.env, action: 'nothing', why: 'not promoted by this rollout' };
      if (!entry && wave.intent && wave.currentDefault === wave.intent.previousDefault) return { env: wave.env, action: 'nothing', why: 'its promotion was not made' };
      if (wave.currentDefault === (given ?? previous)) return { env: wave.env, action: 'nothing', why: `its previous Default ${wave.currentDefault ?? 'none'} is the Default again` };
      return { env: wave.env, action: 'moved', found: wave.currentDefault };
    }
    if (given !== undefined) return { env: wave.env, action: 'restore', to: given };
    if (previous === undefined) return { env: wave.env, action: 'unknown', candidates: (wave.live ?? []).filter((v) => v !== versionId) };
    if (previous === null) return { env: wave.env, action: 'no-previous' };
    return { env: wave.env, action: 'restore', to: previous };
  });
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "30m", "2h", "1h30m", "90s", "2d" as ms; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) total += Number(amount) * UNITS[unit!]!;
  return total > 0 ? Math.round(total) : undefined;
}

/** "1h12m", "45s", "2d3h": the two largest units, rounded up to the second. */
export function formatDuration(ms: number): string {
  let seconds = Math.max(0, Math.ceil(ms / 1000));
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)}${unit}`);
      seconds %= size;
    }
  }
  return parts.length === 0 ? '0s' : parts.slice(0, 2).join('');
}

/** "14:32Z" for a time today (UTC), else "2026-11-28 14:32Z". */
export function formatClock(ms: number, now: number): string {
  const iso = new Date(ms).toISOString();
  const sameDay = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  const clock = ms - now < 120_000 ? iso.slice(11, 19) : iso.slice(11, 16);
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${clock}Z`;
}
