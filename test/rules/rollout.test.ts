// The rollout's wave-state machine (src/rules/rollout.ts): where a rollout
// stands from what a run read, what it does next, and what an abort does.
// Every rule is called inside an `it` (the mutation run counts it then).
import { describe, expect, it } from 'vitest';
import { decideAbort, decideRollout, formatClock, formatDuration, parseDuration, type RolloutInput, type WaveFacts } from '../../src/rules/rollout.js';

const V = 'WEB2';
const T = Date.parse('2026-11-27T14:00:00.000Z');
const S = 1000;

/** A wave: `d` the version is the Default, `o` another one (`WEB1`), `-` none; `p@t` promoted by the rollout at T+t s (previous WEB1); `a@t` an abort. */
function wave(env: string, spec: string): WaveFacts {
  const [now, entry] = spec.split(' ');
  const currentDefault = now === 'd' ? V : now === 'o' ? 'WEB1' : now === '-' ? null : now!;
  if (!entry) return { env, currentDefault };
  const [action, at] = entry.split('@');
  return { env, currentDefault, entry: { action: action === 'p' ? 'promote' : 'abort', at: T + Number(at) * S, previousDefault: 'WEB1' } };
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
    ['a soak with no entry (done outside) is not measured: held', ['d', 'o', 'o'], { soakMs: { dev: 60 * S } }, ['done', 'pending', 'pending'], { action: 'halt', env: 'dev', found: V, reason: 'unmeasured', soak: 60 * S }],
    ['an unmeasured soak ahead of a wave not yet promoted: that wave goes first', ['o', 'd', 'o'], { soakMs: { staging: 60 * S } }, ['next', 'done', 'pending'], { action: 'promote', env: 'dev' }],
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

describe('decideAbort: newest wave first', () => {
  it.each([
    ['each promoted wave gets its previous Default back, prod first', ['d p@0', 'd p@1', 'd p@2'], [{ env: 'prod', action: 'restore', to: 'WEB1' }, { env: 'staging', action: 'restore', to: 'WEB1' }, { env: 'dev', action: 'restore', to: 'WEB1' }]],
    ['a wave moved since is left alone and named', ['d p@0', 'WEB9 p@1', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'moved', found: 'WEB9' }, { env: 'dev', action: 'restore', to: 'WEB1' }]],
    ['a wave already back to its previous Default needs nothing', ['o p@0', 'o', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'dev', action: 'nothing', why: 'its previous Default WEB1 is the Default again' }]],
    ['an abort run again sends nothing', ['o a@3', 'o a@2', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'nothing', why: 'already put back by an abort' }, { env: 'dev', action: 'nothing', why: 'already put back by an abort' }]],
    ['the version Default without an entry of this rollout is left', ['d', 'o', 'o'], [{ env: 'prod', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'staging', action: 'nothing', why: 'not promoted by this rollout' }, { env: 'dev', action: 'nothing', why: 'WEB2 was not made the Default here by this rollout (no journal entry)' }]],
  ] as const)('%s', (_case, specs, steps) => {
    expect(decideAbort(V, input([...specs]).waves)).toEqual(steps);
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
