// The state of a rollout (cli.md "Rollouts across environments"), as a pure
// function of what a run read: each wave's channel (is the version its
// Default?) and the rollout's own journal entries (when each wave was
// promoted, on the service's clock, and what its Default was before).
// Nothing is kept locally: every run derives the same state from the same
// reads, so the same command line in the next CI job moves the rollout on.

/** A wave as read: its channel and the newest journal entry of this rollout for it. */
export interface WaveFacts {
  env: string;
  /** The channel's Default now (null: none). */
  currentDefault: string | null;
  /** The newest entry of this rollout for this wave, when the journal has one. */
  entry?: { action: 'promote' | 'abort'; at: number; previousDefault: string | null };
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
}

export type WaveState = 'done' | 'soaking' | 'next' | 'waiting-approval' | 'pending' | 'moved' | 'aborted';

export interface WaveStatus {
  env: string;
  state: WaveState;
  /** The gates of this wave, in words ("after dev soaks 30m", "approval"), null when none. */
  gate: string | null;
  /** When this rollout promoted it (service time, ms), when the journal says. */
  since: number | null;
  /** Until when it soaks (ms), while it does. */
  until: number | null;
  /** Its Default before this rollout promoted it (from the journal), null when none or unknown. */
  previousDefault: string | null;
}

export type Next =
  | { action: 'promote'; env: string }
  | { action: 'wait'; for: 'soak'; env: string | null; soaking: string; until: number }
  | { action: 'wait'; for: 'approval'; env: string }
  | { action: 'halt'; env: string; found: string | null; reason?: 'unmeasured'; soak?: number }
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
  const waves: WaveStatus[] = [];
  const aborted = newestEntry(input.waves)?.action === 'abort';
  let blocked = false;
  // A wave that is the Default with a soak to keep, and no entry of this rollout promoting it (promoted
  // outside the rollout, or its entry was not recorded): its soak cannot be measured, and an absent entry
  // proves nothing about how long it has been the Default, so the waves after it wait.
  let unmeasured: { env: string; found: string; soak: number } | undefined;
  for (const [index, facts] of input.waves.entries()) {
    const previous = index > 0 ? waves[index - 1]! : undefined;
    const soak = soakMs[facts.env];
    const isDefault = facts.currentDefault === versionId;
    const promoted = facts.entry?.action === 'promote' ? facts.entry : undefined;
    const since = isDefault && promoted ? promoted.at : null;
    const until = since !== null && soak !== undefined ? since + soak : null;
    let state: WaveState;
    if (facts.entry?.action === 'abort' && !isDefault && aborted) state = 'aborted';
    else if (isDefault) state = until !== null && now < until ? 'soaking' : 'done';
    else if (promoted) state = 'moved';
    else if (blocked || unmeasured || (previous && previous.state === 'soaking')) state = 'pending';
    else if (approveSet.has(facts.env) && !approvedSet.has(facts.env)) state = 'waiting-approval';
    else state = 'next';
    if (state !== 'done' && state !== 'soaking') blocked = true;
    if (isDefault && !promoted && soak !== undefined && !unmeasured) unmeasured = { env: facts.env, found: versionId, soak };
    waves.push({ env: facts.env, state, gate: gateText(previous?.env, previous ? soakMs[previous.env] : undefined, approveSet.has(facts.env)), since, until: state === 'soaking' ? until : null, previousDefault: promoted?.previousDefault ?? null });
  }
  const next: Next = aborted ? { action: 'aborted' } : nextOf(waves, input.waves);
  // Only a wave still to promote after the unmeasured one makes it a halt (a last wave's soak gates nothing).
  const after = unmeasured ? waves.slice(waves.findIndex((w) => w.env === unmeasured!.env) + 1) : [];
  const halts = unmeasured && after.some((w) => w.state !== 'done' && w.state !== 'soaking') && (next.action === 'wait' || next.action === 'complete');
  return { waves, next: halts ? { action: 'halt', env: unmeasured!.env, found: unmeasured!.found, reason: 'unmeasured', soak: unmeasured!.soak } : next };
}

/** The rollout's newest journal entry over all its waves. */
function newestEntry(facts: readonly WaveFacts[]): WaveFacts['entry'] {
  return facts
    .map((f) => f.entry)
    .filter((e) => e !== undefined)
    .sort((a, b) => b.at - a.at)[0];
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
  | { env: string; action: 'nothing'; why: string };

/**
 * `rollout abort`: each wave this rollout promoted, newest wave first: its
 * previous Default goes back when the rollout's version is still the
 * Default (a compare-and-set on it); a channel moved by someone else since
 * is left alone and named.
 */
export function decideAbort(versionId: string, waves: readonly WaveFacts[]): AbortStep[] {
  return [...waves].reverse().map((wave): AbortStep => {
    const entry = wave.entry;
    if (!entry) return { env: wave.env, action: 'nothing', why: wave.currentDefault === versionId ? `${versionId} was not made the Default here by this rollout (no journal entry)` : 'not promoted by this rollout' };
    if (entry.action === 'abort') return { env: wave.env, action: 'nothing', why: 'already put back by an abort' };
    if (wave.currentDefault !== versionId) {
      if (wave.currentDefault === entry.previousDefault) return { env: wave.env, action: 'nothing', why: `its previous Default ${entry.previousDefault} is the Default again` };
      return { env: wave.env, action: 'moved', found: wave.currentDefault };
    }
    if (entry.previousDefault === null) return { env: wave.env, action: 'no-previous' };
    return { env: wave.env, action: 'restore', to: entry.previousDefault };
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
