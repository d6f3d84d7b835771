// The rollout's wave-state machine (src/rules/rollout.ts): where a rollout
// stands from what a run read, what it does next, and what an abort does.
// Every rule is called inside an `it` (the mutation run counts it then).
import { describe, expect, it } from 'vitest';
import { decideAbort, decideRollout, formatClock, formatDuration, parseDuration, type RolloutInput, type WaveFacts } from '../../src/rules/rollout.js';

const V = 'WEB2';
const T = Date.parse('2026-11-27T14:00:00.000Z');
const S = 1000;

/**
 * A wave: `d` the version is the Default, `o` another one (`WEB1`), `-` none; then entries: `p@t` promoted by the
 * rollout at T+t s (previous WEB1), `r@t` a promotion recorded by a later run (previous unknown), `a@t` an abort;
 * `i@t` another run's intent at T+t s (previous WEB1, to be recorded by T+t+30 s), `I@t` this run's own.
 */
function wave(env: string, spec: string): WaveFacts {
  const [now, ...entries] = spec.split(' ');
  const currentDefault = now === 'd' ? V : now === 'o' ? 'WEB1' : now === '-' ? null : now!;
  const facts: WaveFacts = { env, currentDefault };
  for (const entry of entries) {
    const [action, at] = entry.split('@');
    const time = T + Number(at) * S;
    if (action === 'i' || action === 'I') facts.intent = { at: time, previousDefault: 'WEB1', recordBy: time + 30 * S, own: action === 'I' };
    else if (action === 'r') facts.entry = { action: 'promote', at: time };
    else facts.entry = { action: action === 'p' ? 'promote' : 'abort', at: time, previousDefault: 'WEB1' };
  }
  return facts;
}

function input(specs: string[], extra: Partial<RolloutInput> = {}): RolloutInput {
  const envs = ['dev', 'staging', 'prod'];
  return { versionId: V, waves: specs.map((spec, i) => wave(envs[i]!, spec)), soakMs: {}, approve: [], approved: [], now: T + 10 * S, ...extra };
}

describe('decideRollout: each wave and what a run does next', () => {
  it.each([
    ['nothing done: dev is next', ['o', 'o', 'o'], {}, ['next', 'pending', 'pending'], { action: 'promote', env: 'dev' }],
    ['no Default anywhere yet: dev is next', ['-', '-', '-'], {}, ['next', 'pending', 'pending'], { action: 'promote', env: 'dev' }],
    ['dev done, no gate: staging next', ['d p@0', 'o', 'o'], {}, ['done', 'next', 'pending'], { action: 'promote', env: 'staging' }],
    ['all done: complete', ['d p@0', 'd p@1', 'd p@2'], {}, ['done', 'done', 'done'], { action: 'complete' }],
    ['done outside the rollout (no entry) counts as done', ['d', 'd', 'o'], {}, ['done', 'done', 'next'], { action: 'promote', env: 'prod' }],
    ['staging soaking: prod waits until its end', ['d p@0', 'd p@5', 'o'], { soakMs: { staging: 2 * S } }, ['done', 'done', 'next'], { action: 'promote', env: 'prod' }],
    ['staging soaks 10s from T+5s, now T+10s: prod waits', ['d p@0', 'd p@5', 'o'], { soakMs: { staging: 10 * S } }, ['done', 'soaking', 'pending'], { action: 'wait', for: 'soak', env: 'prod', soaking: 'staging', until: T + 15 * S }],
    ['a soak ending exactly now holds no more', ['d p@0', 'd p@0', 'o'], { soakMs: { staging: 10 * S } }, ['done', 'done', 'next'], { action: 'promote', env: 'prod' }],
    ['a soak on the last wave: waits before complete', ['d p@0', 'd p@1', 'd p@8'], { soakMs: { prod: 5 * S } }, ['done', 'done', 'soaking'], { action: 'wait', for: 'soak', env: null, soaking: 'prod', until: T + 13 * S }],
    ['all done: only the last wave\'s soak holds', ['d p@0', 'd p@9', 'd p@9'], { soakMs: { dev: 60 * S, staging: 3 * S, prod: 2 * S } }, ['soaking', 'soaking', 'soaking'], { action: 'wait', for: 'soak', env: null, soaking: 'prod', until: T + 11 * S }],
    ['a soak with no entry (its run killed before recording, or done outside): this run records it', ['d', 'o', 'o'], { soakMs: { dev: 60 * S } }, ['unrecorded', 'pending', 'pending'], { action: 'record', env: 'dev' }],
    ['an unrecorded soak ahead of a wave not yet promoted: that wave goes first', ['o', 'd', 'o'], { soakMs: { staging: 60 * S } }, ['next', 'unrecorded', 'pending'], { action: 'promote', env: 'dev' }],
    ["another run's intent still due: wait for its entry, not record it twice", ['d i@5', 'o', 'o'], { soakMs: { dev: 60 * S } }, ['unrecorded', 'pending', 'pending'], { action: 'wait', for: 'entry', env: 'staging', recording: 'dev', until: T + 35 * S }],
    ["another run's intent past its time: that run is gone, this one records it", ['d i@5', 'o', 'o'], { soakMs: { dev: 60 * S }, now: T + 35 * S }, ['unrecorded', 'pending', 'pending'], { action: 'record', env: 'dev' }],
    ["this run's own intent (its append of the entry failed): it records it", ['d I@5', 'o', 'o'], { soakMs: { dev: 60 * S } }, ['unrecorded', 'pending', 'pending'], { action: 'record', env: 'dev' }],
    ['an unrecorded last wave, waited for: the wait names no next wave', ['d p@0', 'd p@1', 'd i@5'], { soakMs: { staging: 1 * S, prod: 60 * S } }, ['done', 'done', 'done'], { action: 'complete' }],
    ['an unrecorded wave before another unrecorded one: the first is recorded first', ['d', 'd', 'o'], { soakMs: { dev: 60 * S, staging: 60 * S } }, ['unrecorded', 'unrecorded', 'pending'], { action: 'record', env: 'dev' }],
    ['an intent without its promotion (the run died before sending it): the wave is next', ['o i@5', 'o', 'o'], { soakMs: { dev: 60 * S } }, ['next', 'pending', 'pending'], { action: 'promote', env: 'dev' }],
    ['a promotion recorded by a later run soaks from that entry', ['d r@5', 'o', 'o'], { soakMs: { dev: 60 * S } }, ['soaking', 'pending', 'pending'], { action: 'wait', for: 'soak', env: 'staging', soaking: 'dev', until: T + 65 * S }],
    ['an unmeasured soak on the last wave gates nothing: complete', ['d p@0', 'd p@1', 'd'], { soakMs: { prod: 60 * S } }, ['done', 'done', 'done'], { action: 'complete' }],
    ['an unmeasured soak whose later waves are all done: complete', ['d p@0', 'd', 'd p@2'], { soakMs: { staging: 60 * S } }, ['done', 'done', 'done'], { action: 'complete' }],
    ['--approve prod without --approved: waits for approval', ['d p@0', 'd p@1', 'o'], { approve: ['prod'] }, ['done', 'done', 'waiting-approval'], { action: 'wait', for: 'approval', env: 'prod' }],
    ['--approve prod with --approved prod: promoted', ['d p@0', 'd p@1', 'o'], { approve: ['prod'], approved: ['prod'] }, ['done', 'done', 'next'], { action: 'promote', env: 'prod' }],
    ['--approved of another wave approves nothing here', ['d p@0', 'd p@1', 'o'], { approve: ['prod'], approved: ['staging'] }, ['done', 'done', 'waiting-approval'], { action: 'wait', for: 'approval', env: 'prod' }],
    ['approval of a later wave does not hold an earlier one', ['o', 'o', 'o'], { approve: ['prod'] }, ['next', 'pending', 'pending'], { action: 'promote', env: 'dev' }],
    ['a wave moved by someone else since: halt naming it', ['d p@0', 'o p@1', 'o'], {}, ['done', 'moved', 'pending'], { action: 'halt', env: 'staging', found: 'WEB1' }],
    ['moved to no Default', ['d p@0', '- p@1', 'o'], {}, ['done', 'moved', 'pending'], { action: 'halt', env: 'staging', found: null }],
    ['aborted: the newest entry is an abort', ['o a@5', 'o a@4', 'o'], {}, ['aborted', 'aborted', 'pending'], { action: 'aborted' }],
    ['an older abort of another wave: the newest entry decides, not the first wave', ['o a@4', 'd p@6', 'o'], {}, ['next', 'done', 'pending'], { action: 'promote', env: 'dev' }],
    ['an earlier wave still soaking once the later ones are done: complete', ['d p@9', 'd p@0', 'd p@0'], { soakMs: { dev: 2 * S, staging: 30 * S } }, ['soaking', 'soaking', 'done'], { action: 'complete' }],
    ['promoted again after an abort (newest entry a promote)', ['d p@6', 'o a@4', 'o'], {}, ['done', 'next', 'pending'], { action: 'promote', env: 'staging' }],
  ] as const)('%s', (_case, specs, extra, states, next) => {
    const status = decideRollout(input([...specs], extra as Partial<RolloutInput>));
    expect(status.waves.map((w) => w.state)).toEqual(states);
    expect(status.next).toEqual(next);
  });

  it('gives each wave its gates, since, until and previous Default', () => {
    const status = decideRollout(input(['d p@0', 'd p@5', 'o'], { soakMs: { staging: 10 * S }, approve: ['prod'] }));
    expect(status.waves).toEqual([
      { env: 'dev', state: 'done', gate: null, since: T, until: null, previousDefault: 'WEB1' },
      { env: 'staging', state: 'soaking', gate: null, since: T + 5 * S, until: T + 15 * S, previousDefault: 'WEB1' },
      { env: 'prod', state: 'pending', gate: 'after staging soaks 10s, approval', since: null, until: null, previousDefault: null },
    ]);
  });

  it('a wave not the Default has no since; a done wave past its soak has no until', () => {
    const status = decideRollout(input(['d p@0', 'o', 'o'], { soakMs: { dev: 1 * S } }));
    expect(status.waves[0]).toMatchObject({ state: 'done', since: T, until: null });
    expect(status.waves[1]).toMatchObject({ state: 'next', gate: 'after dev soaks 1s', since: null });
  });
});

describe('decideRollout: halts, resumes, supersedes and blocks', () => {
  const halt = (env: string, at: number, phase: 'before' | 'after' = 'after') => ({ action: 'halt' as const, env, at: T + at * S, by: 'ana@acme.test', check: './smoke.sh', phase, exitCode: 1 });
  it('a failed check after staging\'s promotion halts the rollout: staging halted, prod pending', () => {
    const status = decideRollout(input(['d p@0', 'd p@1', 'o'], { events: [halt('staging', 2)] }));
    expect(status.waves.map((w) => w.state)).toEqual(['done', 'halted', 'pending']);
    expect(status.next).toEqual({ action: 'halt', env: 'staging', found: V, reason: 'check', halt: { env: 'staging', at: T + 2 * S, by: 'ana@acme.test', check: './smoke.sh', phase: 'after', exitCode: 1 } });
  });
  it('a failed check before a promotion: that wave halted, not its Default', () => {
    const status = decideRollout(input(['d p@0', 'o', 'o'], { events: [halt('staging', 2, 'before')] }));
    expect(status.waves.map((w) => w.state)).toEqual(['done', 'halted', 'pending']);
    expect(status.next).toMatchObject({ action: 'halt', env: 'staging', found: 'WEB1', reason: 'check' });
  });
  it('--resume: the halt does not stop this run', () => {
    expect(decideRollout(input(['d p@0', 'o', 'o'], { events: [halt('staging', 2, 'before')], resume: true })).next).toEqual({ action: 'promote', env: 'staging' });
  });
  it('a promotion or a resume newer than the halt ends it', () => {
    expect(decideRollout(input(['d p@0', 'd p@3', 'o'], { events: [halt('staging', 2, 'before')] })).next).toEqual({ action: 'promote', env: 'prod' });
    expect(decideRollout(input(['d p@0', 'd p@1', 'o'], { events: [halt('staging', 2), { action: 'resume', env: 'staging', at: T + 3 * S, by: 'x' }] })).next).toEqual({ action: 'promote', env: 'prod' });
    expect(decideRollout(input(['d p@0', 'd p@1', 'o'], { events: [{ action: 'resume', env: 'staging', at: T + 1 * S, by: 'x' }, halt('staging', 2)] })).next).toMatchObject({ action: 'halt' });
  });
  it('superseded by another version\'s rollout: over, whatever else', () => {
    const status = decideRollout(input(['d p@0', 'o', 'o'], { events: [{ action: 'supersede', at: T + 5 * S, by: 'bo@acme.test', version: 'WEB3' }, halt('dev', 6)], inFlight: { version: 'WEB1', state: '' } }));
    expect(status.next).toEqual({ action: 'superseded', version: 'WEB3', by: 'bo@acme.test', at: T + 5 * S });
  });
  it('another version\'s rollout in flight blocks this one, over a halt too', () => {
    const inFlight = { version: 'WEB1', state: 'dev done, staging pending' };
    expect(decideRollout(input(['o', 'o', 'o'], { inFlight })).next).toEqual({ action: 'blocked', by: inFlight });
    expect(decideRollout(input(['o', 'o', 'o'], { inFlight, events: [halt('dev', 1, 'before')] })).next).toEqual({ action: 'blocked', by: inFlight });
  });
  it('aborted wins over a block', () => {
    expect(decideRollout(input(['o a@5', 'o', 'o'], { inFlight: { version: 'WEB1', state: '' } })).next).toEqual({ action: 'aborted' });
  });
  it('an unrecorded wave shows until when its entry is due, and the Default its intent names', () => {
    const status = decideRollout(input(['d i@5', 'o', 'o'], { soakMs: { dev: 60 * S } }));
    expect(status.waves[0]).toEqual({ env: 'dev', state: 'unrecorded', gate: null, since: null, until: T + 35 * S, previousDefault: 'WEB1' });
    expect(decideRollout(input(['d I@5', 'o', 'o'], { soakMs: { dev: 60 * S } })).waves[0]).toMatchObject({ state: 'unrecorded', until: null });
  });
});

describe('decideAbort: newest wave first', () => {
  it.each([
    ['each promoted wave gets its previous Default back, prod first', ['d p@0', 'd p@1', 'd p@2'], [{ env: 'prod', action: 'restore', to: 'WEB1' }, { env: 'staging', action: 'restore', to: 'WEB1' }, { env: 'dev', action: 'restore', to: 'WEB1' }]],
    ['a wave moved since is left alone and named', ['d p@0', 'WEB9 p@1', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'moved', found: 'WEB9' }, { env: 'dev', action: 'restore', to: 'WEB1' }]],
    ['a wave already back to its previous Default needs nothing', ['o p@0', 'o', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'dev', action: 'nothing', why: 'its previous Default WEB1 is the Default again' }]],
    ['an abort run again sends nothing', ['o a@3', 'o a@2', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'nothing', why: 'already put back by an abort' }, { env: 'dev', action: 'nothing', why: 'already put back by an abort' }]],
    ['the version Default without an entry of this rollout: named, its previous Default not proven', ['d', 'o', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'dev', action: 'unknown', candidates: [] }]],
    ['a promotion whose entry was lost: its intent proves the previous Default', ['d i@1', 'd r@3', 'o i@4'], [{ env: 'prod', action: 'nothing', why: 'its promotion was not made' }, { env: 'staging', action: 'unknown', candidates: [] }, { env: 'dev', action: 'restore', to: 'WEB1' }]],
    ['a recovered entry after an intent: the intent proves it', ['d i@1 r@3', 'o', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'dev', action: 'restore', to: 'WEB1' }]],
    ['an aborted wave promoted again is the Default: abort it again', ['d a@3 i@1', 'o', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'dev', action: 'restore', to: 'WEB1' }]],
  ] as const)('%s', (_case, specs, steps) => {
    expect(decideAbort(V, input([...specs]).waves)).toEqual(steps);
  });

  it('--to names the Default of a wave nothing proves, and wins over what the journal says', () => {
    const facts = input(['d', 'd p@1', 'o']).waves.map((f) => ({ ...f, live: ['WEB1', V] }));
    expect(decideAbort(V, facts)).toEqual([
      { env: 'prod', action: 'nothing', why: 'not promoted by this rollout' },
      { env: 'staging', action: 'restore', to: 'WEB1' },
      { env: 'dev', action: 'unknown', candidates: ['WEB1'] },
    ]);
    expect(decideAbort(V, facts, { dev: 'WEB0', staging: 'WEB9' })).toEqual([
      { env: 'prod', action: 'nothing', why: 'not promoted by this rollout' },
      { env: 'staging', action: 'restore', to: 'WEB9' },
      { env: 'dev', action: 'restore', to: 'WEB0' },
    ]);
    // A wave put back by hand to the --to given: nothing to do.
    expect(decideAbort(V, input(['WEB0 p@1', 'o', 'o']).waves, { dev: 'WEB0' })[2]).toEqual({ env: 'dev', action: 'nothing', why: 'its previous Default WEB0 is the Default again' });
  });

  it('no Default before the rollout: nothing to put back', () => {
    const facts: WaveFacts[] = [{ env: 'dev', currentDefault: V, entry: { action: 'promote', at: T, previousDefault: null } }];
    expect(decideAbort(V, facts)).toEqual([{ env: 'dev', action: 'no-previous' }]);
  });
});

describe('durations and clocks', () => {
  it.each([
    ['2s', 2000],
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['1d', 86_400_000],
    ['500ms', 500],
    ['1.5s', 1500],
    ['1.25s', 1250],
    ['2sx', undefined],
    ['1m30s', 90_000],
    [' 90S ', 90_000],
    ['2', undefined],
    ['', undefined],
    ['0s', undefined],
    ['h', undefined],
    ['2 h', undefined],
    ['-2s', undefined],
    ['2x', undefined],
  ])('parseDuration(%j) = %j', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    [0, '0s'],
    [1, '1s'],
    [1000, '1s'],
    [1001, '2s'],
    [59_000, '59s'],
    [60_000, '1m'],
    [4_320_000, '1h12m'],
    [4_325_000, '1h12m'],
    [90_061_000, '1d1h'],
    [-5, '0s'],
  ])('formatDuration(%d) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([
    [T + 3_600_000, T, '15:00Z'],
    [T + 30_000, T, '14:00:30Z'],
    [T + 119_000, T, '14:01:59Z'],
    [T + 120_000, T, '14:02Z'],
    [T + 86_400_000, T, '2026-11-28 14:00Z'],
  ])('formatClock(%d) = %s', (ms, now, text) => {
    expect(formatClock(ms, now)).toBe(text);
  });
});
