// Change control's rules (src/rules/change-control.ts): scopes, the names a
// lock, a freeze and a block are written as, and what they decide for a
// write. Pure: each row is a fact read and the decision it leads to.
import { describe, expect, it } from 'vitest';
import {
  blockName,
  cellNameSchema,
  cellsToRead,
  ciLockId,
  isEarlierAttempt,
  isRunLock,
  watchesLease,
  watchOutcome,
  coveringScopes,
  describeWindow,
  freezesOf,
  isTimeZone,
  compactTime,
  decideAcquire,
  decideWrite,
  freezeEnd,
  freezeName,
  hash64,
  holderOf,
  isBlockName,
  isLockId,
  isSentinelAsset,
  lockAssetOf,
  lockName,
  parseCellName,
  parseCompactTime,
  parseFreezeName,
  parseScope,
  parseWeekly,
  scopeText,
  type ControlFacts,
  type Scope,
  type WriteIntent,
} from '../../src/rules/change-control.js';

const T = Date.parse('2026-12-04T12:00:00.000Z'); // a Friday
const S = 1000;
const ENV: Scope = { kind: 'env', env: 'prod' };
const CHAN: Scope = { kind: 'channel', assetId: 'app', platform: 'ios', env: 'prod' };
const lock = (id: string, endIn: number) => lockName({ lockId: id, leaseEnd: T + endIn * S, since: T - 60 * S });

describe('scopes', () => {
  it.each([
    ['prod', { kind: 'env', env: 'prod' }],
    ['app/ios/prod', { kind: 'channel', assetId: 'app', platform: 'ios', env: 'prod' }],
    ['pack@prod', { kind: 'collection', collectionId: 'pack', env: 'prod' }],
    [' prod ', { kind: 'env', env: 'prod' }],
  ])('%s', (text, scope) => {
    expect(parseScope(text)).toEqual(scope);
    expect(scopeText(scope as Scope)).toBe(text.trim());
  });
  it.each(['a/b', 'a/b/c/d', 'a@b@c', 'pro d', '', 'a/@/c'])('%j is not a scope', (text) => {
    expect(parseScope(text)).toHaveProperty('error');
  });
  it('each scope has its own cell, the same on every client; an env lock covers its channels', () => {
    expect(lockAssetOf(ENV)).toBe('ahs-control-lock');
    expect(lockAssetOf(CHAN)).toBe(`ahs-control-lock-${hash64('channel:app/ios')}`);
    expect(lockAssetOf({ kind: 'collection', collectionId: 'app', env: 'dev' })).toBe(`ahs-control-lock-${hash64('collection:app')}`);
    expect(hash64('')).toBe('cbf29ce484222325');
    expect(hash64('a')).toBe('af63dc4c8601ec8c');
    expect(cellsToRead([CHAN, { ...CHAN, platform: 'web' }]).map(scopeText)).toEqual(['prod', 'app/ios/prod', 'app/web/prod']);
    for (const id of ['ahs-control', 'ahs-control-lock', `ahs-control-lock-${hash64('x')}`]) expect(isSentinelAsset(id)).toBe(true);
    for (const id of ['ahs-controls', 'my-ahs-control', 'ahs-control-x', 'app']) expect(isSentinelAsset(id)).toBe(false);
  });
});

describe('names read back', () => {
  it('times to the second, UTC; anything else is not a time', () => {
    expect(compactTime(T + 999)).toBe('20261204T120000Z');
    expect(parseCompactTime('20261204T120000Z')).toBe(T);
    for (const bad of ['20261304T120000Z', '20261204T120000', '2026-12-04T12:00:00Z', '20261231T246000Z']) expect(parseCompactTime(bad)).toBeUndefined();
  });
  it.each([
    [lock('abc123', 10), { kind: 'lock', lockId: 'abc123', leaseEnd: T + 10 * S, since: T - 60 * S }],
    ['free', { kind: 'free' }],
    ['lock 20261204T120000Z 20261204T120000Z AB', undefined],
    ['lock 20261204T120000Z abc123', undefined],
    ['lock x y abc123', undefined],
    ['1.4.2', undefined],
  ])('%j', (name, parsed) => {
    expect(parseCellName(name)).toEqual(parsed);
  });
  it('lock ids', () => {
    expect(isLockId('0a1b2c3d4e5f')).toBe(true);
    for (const bad of ['short', 'UPPER123', '-leading', 'a'.repeat(33)]) expect(isLockId(bad)).toBe(false);
  });
});

describe('holders and acquiring', () => {
  it.each([
    ['no Default', undefined, 'mine', { action: 'take', over: null, renew: false }],
    ['free', 'free', 'mine', { action: 'take', over: 'GEN1', renew: false }],
    ['an unreadable Default decides nothing', 'garbage', 'mine', { action: 'take', over: 'GEN1', renew: false }],
    ['another holder, lease running', lock('other1', 10), 'mine01', { action: 'wait' }],
    ['another holder, lease ended exactly now', lock('other1', 0), 'mine01', { action: 'take', over: 'GEN1', renew: false }],
    ['its own lock: renewed, since kept', lock('mine01', 10), 'mine01', { action: 'take', over: 'GEN1', renew: true, since: T - 60 * S }],
  ])('%s', (_what, name, lockId, decision: Record<string, unknown>) => {
    const cell = { scope: ENV, ...(name === undefined ? {} : { defaultName: name, defaultVersionId: 'GEN1' }) };
    expect(decideAcquire(cell, lockId, T)).toMatchObject(decision);
    expect(holderOf(cell, T) === undefined).toBe(decision.action === 'take' && !decision.renew);
  });
});

describe('freezes', () => {
  it.each([
    ['Fri 16:00-Mon 08:00', 'UTC', 'Fri 16:00-Mon 08:00'],
    ['fri 9:05 - sat 10:00', 'Europe/Berlin', 'Fri 09:05-Sat 10:00'],
  ])('%s in %s', (text, zone, shown) => {
    expect(parseWeekly(text, zone)).toMatchObject({ text: shown, zone });
  });
  it.each([['Fri 16:00'], ['Fri 25:00-Mon 08:00'], ['Fri 16:60-Mon 08:00'], ['Xy 16:00-Mon 08:00'], ['Fri 16:00-Fri 16:00']])('%j is refused', (text) => {
    expect(parseWeekly(text)).toHaveProperty('error');
  });
  it('an unknown zone is refused', () => {
    expect(parseWeekly('Fri 16:00-Mon 08:00', 'Mars/Olympus')).toHaveProperty('error');
  });
  const weekly = (text: string, zone = 'UTC') => ({ env: 'prod', window: { kind: 'weekly' as const, window: parseWeekly(text, zone) as Exclude<ReturnType<typeof parseWeekly>, { error: string }> } });
  it.each([
    // [window, zone, now, end or undefined]
    ['Fri 16:00-Mon 08:00', 'UTC', '2026-12-04T15:59:59Z', undefined],
    ['Fri 16:00-Mon 08:00', 'UTC', '2026-12-04T16:00:00Z', '2026-12-07T08:00:00Z'],
    ['Fri 16:00-Mon 08:00', 'UTC', '2026-12-06T23:00:00Z', '2026-12-07T08:00:00Z'],
    ['Fri 16:00-Mon 08:00', 'UTC', '2026-12-07T08:00:00Z', undefined],
    ['Fri 16:00-Mon 08:00', 'UTC', '2026-12-02T12:00:00Z', undefined],
    ['Mon 09:00-Mon 17:00', 'UTC', '2026-12-07T12:30:00Z', '2026-12-07T17:00:00Z'],
    // Berlin is UTC+1 in December: 16:00 there is 15:00Z.
    ['Fri 16:00-Mon 08:00', 'Europe/Berlin', '2026-12-04T15:00:00Z', '2026-12-07T07:00:00Z'],
    ['Fri 16:00-Mon 08:00', 'Europe/Berlin', '2026-12-04T14:59:00Z', undefined],
  ])('%s %s at %s: until %s', (text, zone, now, end) => {
    const got = freezeEnd(weekly(text, zone), Date.parse(now));
    expect(got === undefined ? undefined : new Date(got).toISOString().replace('.000', '')).toBe(end);
  });
  it('until: holds before its end only', () => {
    const f = { env: 'prod', window: { kind: 'until' as const, until: T } };
    expect(freezeEnd(f, T - 1)).toBe(T);
    expect(freezeEnd(f, T)).toBeUndefined();
  });
  it.each([
    [{ kind: 'until', until: T }, 'freeze prod until 20261204T120000Z'],
    [{ kind: 'weekly', window: parseWeekly('Fri 16:00-Mon 08:00') }, 'freeze prod weekly Fri 16:00-Mon 08:00'],
    [{ kind: 'weekly', window: parseWeekly('Fri 16:00-Mon 08:00', 'Europe/Berlin') }, 'freeze prod weekly Fri 16:00-Mon 08:00 Europe/Berlin'],
  ])('written and read back: %j', (window, name) => {
    expect(freezeName('prod', window as never)).toBe(name);
    expect(parseFreezeName(name)).toEqual({ env: 'prod', window });
  });
  it.each(['freeze prod until tomorrow', 'freeze prod weekly Fri 16:00', 'freeze  until 20261204T120000Z', 'block a/b'])('%j is not a freeze', (name) => {
    expect(parseFreezeName(name)).toBeUndefined();
  });
});

describe('blocks', () => {
  it('named by asset and version, hashed past 64 characters', () => {
    expect(blockName('app', 'IOS7')).toBe('block app/IOS7');
    const long = blockName('a'.repeat(60), 'IOS7');
    expect(long).toBe(`block #${hash64(`${'a'.repeat(60)}/IOS7`)}`);
    expect(isBlockName(long) && isBlockName('block app/IOS7')).toBe(true);
    expect(isBlockName('block app') || isBlockName('blocked app/IOS7')).toBe(false);
  });
});

describe('a run\'s own lock, and a holder that may be dead', () => {
  const job = 'abcdef0123';
  const attempt = (n: number, tail = '000000') => ciLockId(job, n, tail);
  it('a run\'s lock is told by its id', () => {
    expect(isRunLock('run-0123456789ab')).toBe(true);
    expect(isRunLock('0123456789ab')).toBe(false);
    expect(isRunLock(attempt(1))).toBe(false);
    expect(isLockId(attempt(12, 'a1b2c3'))).toBe(true);
    expect(isLockId('run-0123456789ab')).toBe(true);
  });

  it.each([
    ['an earlier attempt of the same job', attempt(1, 'aaaaaa'), attempt(2), true],
    ['two attempts earlier', attempt(1, 'aaaaaa'), attempt(3), true],
    ['the same attempt (a matrix leg, another step)', attempt(2, 'aaaaaa'), attempt(2), false],
    ['a later attempt', attempt(3, 'aaaaaa'), attempt(2), false],
    ['another job', ciLockId('0000000000', 1, 'aaaaaa'), attempt(2), false],
    ['not a job\'s lock', 'run-0123456789ab', attempt(2), false],
    ['outside a job', attempt(1, 'aaaaaa'), undefined, false],
    ['attempts compared as numbers, not text', attempt(9, 'aaaaaa'), attempt(10), true],
  ])('%s', (_what, holder, self, earlier) => {
    expect(isEarlierAttempt(holder, self)).toBe(earlier);
  });

  it('an earlier attempt\'s lock is taken over (acquiring) and passes (writing); the same attempt\'s is another holder\'s', () => {
    const cell = { scope: ENV, defaultName: lock(attempt(1, 'aaaaaa'), 600), defaultVersionId: 'GEN4' };
    expect(decideAcquire(cell, attempt(2, 'bbbbbb'), T)).toEqual({ action: 'take', over: 'GEN4', renew: false, since: undefined });
    expect(decideAcquire(cell, attempt(1, 'bbbbbb'), T)).toMatchObject({ action: 'wait' });
    const facts: ControlFacts = { now: T, cells: [cell], records: [] };
    expect(decideWrite(facts, { scopes: [CHAN], promotes: [], ciLockId: attempt(2) })).toMatchObject({ ok: true });
    expect(decideWrite(facts, { scopes: [CHAN], promotes: [], ciLockId: attempt(1) })).toMatchObject({ ok: false, blockedBy: 'lock' });
  });

  it.each([
    ['a run\'s lease ending within the budget is watched', 'run-0123456789ab', 10, 10_000, true],
    ['one ending past it is not', 'run-0123456789ab', 11, 10_000, false],
    ['a lock acquire\'s lease is never watched (only --lock-timeout waits for it)', '0123456789ab', 1, 10_000, false],
  ])('%s', (_what, id, endIn, budget, watched) => {
    const holder = parseCellName(lock(id, endIn));
    expect(holder?.kind).toBe('lock');
    expect(watchesLease(holder as never, T, budget)).toBe(watched);
  });

  it.each([
    ['the same version, its lease running', 'GEN1', lock('run-0123456789ab', 5), 'GEN1', 'watching'],
    ['renewed: another version of a running lease', 'GEN1', lock('run-0123456789ab', 15), 'GEN2', 'alive'],
    ['taken by another run', 'GEN1', lock('run-ffffffffffff', 15), 'GEN3', 'alive'],
    ['its lease ended', 'GEN1', lock('run-0123456789ab', 0), 'GEN1', 'ended'],
    ['released', 'GEN1', 'free', 'GEN5', 'ended'],
    ['no Default any more', 'GEN1', undefined, undefined, 'ended'],
  ])('%s', (_what, first, name, versionId, outcome) => {
    const cell = { scope: CHAN, ...(name === undefined ? {} : { defaultName: name }), ...(versionId === undefined ? {} : { defaultVersionId: versionId }) };
    expect(watchOutcome(first, cell, T)).toBe(outcome);
  });
});

describe('decideWrite: what blocks one write', () => {
  const facts = (over: Partial<ControlFacts> = {}): ControlFacts => ({ now: T, cells: [], records: [], ...over });
  const write = (over: Partial<WriteIntent> = {}): WriteIntent => ({ scopes: [CHAN], promotes: [{ assetId: 'app', versionId: 'IOS7' }], ...over });
  const envHeld = { scope: ENV, defaultName: lock('other1', 60), defaultVersionId: 'GEN9' };
  const chanHeld = { scope: CHAN, defaultName: lock('other2', 60), defaultVersionId: 'GEN3' };
  const frozen = { name: 'freeze prod until 20261205T000000Z', versionId: 'GEN2' };
  const blocked = { name: 'block app/IOS7', versionId: 'GEN5' };
  it.each([
    ['nothing read: ok', facts(), write(), { ok: true, brokenFreezes: [] }],
    ['an env lock of another holder covers the channel', facts({ cells: [envHeld] }), write(), { ok: false, blockedBy: 'lock', scope: ENV, versionId: 'GEN9' }],
    ['the channel\'s own lock', facts({ cells: [{ scope: ENV }, chanHeld] }), write(), { ok: false, blockedBy: 'lock', scope: CHAN }],
    ['its own lock id passes', facts({ cells: [envHeld] }), write({ lockId: 'other1' }), { ok: true }],
    ['an ended lease passes', facts({ cells: [envHeld], now: T + 61 * S }), write(), { ok: true }],
    ['another env\'s lock does not', facts({ cells: [{ ...envHeld, scope: { kind: 'env', env: 'dev' } }] }), write(), { ok: true }],
    ['a freeze of its env', facts({ records: [frozen] }), write(), { ok: false, blockedBy: 'freeze', until: Date.parse('2026-12-05T00:00:00Z') }],
    ['a freeze that ended', facts({ records: [frozen], now: Date.parse('2026-12-05T00:00:00Z') }), write(), { ok: true }],
    ['a freeze of another env', facts({ records: [{ ...frozen, name: 'freeze dev until 20261205T000000Z' }] }), write(), { ok: true }],
    ['a rollback goes through a freeze', facts({ records: [frozen] }), write({ freezeExempt: true }), { ok: true, brokenFreezes: [] }],
    ['--break-glass goes through and names it', facts({ records: [frozen] }), write({ breakGlass: true }), { ok: true, brokenFreezes: [{ env: 'prod', versionId: 'GEN2' }] }],
    ['a blocked version it promotes', facts({ records: [blocked] }), write(), { ok: false, blockedBy: 'version', assetId: 'app', versionId: 'IOS7', blockVersionId: 'GEN5' }],
    ['a blocked version it does not promote', facts({ records: [blocked] }), write({ promotes: [] }), { ok: true }],
    ['a blocked version: not even a rollback or break-glass', facts({ records: [blocked] }), write({ freezeExempt: true, breakGlass: true }), { ok: false, blockedBy: 'version' }],
    ['a lock before a freeze', facts({ cells: [envHeld], records: [frozen, blocked] }), write(), { ok: false, blockedBy: 'lock' }],
    ['a freeze before a block', facts({ records: [blocked, frozen] }), write(), { ok: false, blockedBy: 'freeze' }],
    ['records that are neither decide nothing', facts({ records: [{ name: 'freeze prod', versionId: 'X' }, { name: 'block', versionId: 'Y' }] }), write(), { ok: true }],
  ])('%s', (_what, read, intent, decision) => {
    expect(decideWrite(read, intent)).toMatchObject(decision);
  });
});

describe('the names, read back strictly (rows for what the mutation run found untested)', () => {
  const WHEN = compactTime(T);
  it.each([
    ['a b/ios/prod', 'error'],
    ['app/ios /prod', 'error'],
    ['app /ios/prod', 'error'],
    ['app/ios/prod', 'channel'],
  ])('scope %s: %s', (text, kind) => {
    const scope = parseScope(text);
    expect('error' in scope ? 'error' : scope.kind).toBe(kind);
  });

  it('a scope that is none says what to give', () => {
    expect(parseScope('a b')).toEqual({ error: '"a b" is not a scope: give an environment (prod), a channel (ASSET/PLATFORM/ENV) or a collection in an environment (COLLECTION@ENV)' });
  });

  it('the scopes that cover one: its environment, then itself', () => {
    expect(coveringScopes(ENV)).toEqual([ENV]);
    expect(coveringScopes(CHAN)).toEqual([{ kind: 'env', env: 'prod' }, CHAN]);
  });

  it('a lock name with anything before or after it, a bad time or a bad lock id is no lock', () => {
    const good = lockName({ lockId: 'abcdef', leaseEnd: T, since: T - S });
    expect(parseCellName(good)).toMatchObject({ kind: 'lock', lockId: 'abcdef' });
    expect(parseCellName(`x${good}`)).toBeUndefined();
    expect(parseCellName(`${good} extra`)).toBeUndefined();
    expect(parseCellName(`lock notatime ${WHEN} abcdef`)).toBeUndefined();
    expect(parseCellName(`lock ${WHEN} notatime abcdef`)).toBeUndefined();
    expect(parseCellName(`lock ${WHEN} ${WHEN} BAD!`)).toBeUndefined();
    const refused = cellNameSchema.safeParse('lock x');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('not a lock: "lock x"');
  });

  it('a time zone is one Intl knows', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Nope/Nowhere')).toBe(false);
  });

  it.each([
    ['Fri 16:00-Mon 08:00', 'Fri 16:00-Mon 08:00'],
    ['Friday 16:00-Monday 08:00', 'Fri 16:00-Mon 08:00'],
    ['Sun 00:00-Sun 23:59', 'Sun 00:00-Sun 23:59'],
    ['Fri  16:00 - Mon   08:00', 'Fri 16:00-Mon 08:00'],
    ['Fr 16:00-Mon 08:00', 'error'],
    ['Xyz 16:00-Mon 08:00', 'error'],
    ['Fri 16:00-Xyz 08:00', 'error'],
    ['Fri 24:00-Mon 08:00', 'error'],
    ['Fri 16:60-Mon 08:00', 'error'],
    ['Fri 23:59-Mon 08:00', 'Fri 23:59-Mon 08:00'],
    ['x Fri 16:00-Mon 08:00', 'error'],
    ['Fri 16:00-Mon 08:00 x', 'error'],
  ])('weekly %s: %s', (text, said) => {
    const window = parseWeekly(text);
    expect('error' in window ? 'error' : window.text).toBe(said);
  });

  it('a weekly window: UTC unless a zone is given; what is wrong, said', () => {
    expect(parseWeekly('Fri 16:00-Mon 08:00')).toMatchObject({ zone: 'UTC' });
    expect(parseWeekly('Fri 16:00')).toEqual({ error: `--weekly "Fri 16:00" is not a weekly window: give it as 'Fri 16:00-Mon 08:00' (day, 24-hour time, a dash, day, time)` });
    expect(parseWeekly('Fri 16:00-Fri 16:00')).toEqual({ error: '--weekly "Fri 16:00-Fri 16:00" starts and ends at the same time: a window needs a length' });
    expect(parseWeekly('Fri 16:00-Mon 08:00', 'Mars/Base')).toEqual({ error: '--zone "Mars/Base" is not a time zone: give one such as Europe/Berlin or UTC' });
  });

  const weekly = (text: string, zone = 'UTC') => {
    const window = parseWeekly(text, zone);
    if ('error' in window) throw new Error(window.error);
    return { env: 'prod', versionId: 'F', window: { kind: 'weekly' as const, window } };
  };
  const at = (iso: string) => Date.parse(iso);
  it.each([
    // T is Friday 2026-12-04.
    ['Fri 11:00-Fri 13:00', '2026-12-04T11:00:00.000Z', '2026-12-04T13:00:00.000Z'],
    ['Fri 11:00-Fri 13:00', '2026-12-04T10:59:59.000Z', undefined],
    ['Fri 11:00-Fri 13:00', '2026-12-04T13:00:00.000Z', undefined],
    ['Fri 11:00-Fri 13:00', '2026-12-04T12:00:30.500Z', '2026-12-04T13:00:00.000Z'],
    ['Fri 16:00-Mon 08:00', '2026-12-04T12:00:00.000Z', undefined],
    ['Fri 16:00-Mon 08:00', '2026-12-04T16:00:00.000Z', '2026-12-07T08:00:00.000Z'],
    ['Fri 16:00-Mon 08:00', '2026-12-05T03:00:00.000Z', '2026-12-07T08:00:00.000Z'],
    ['Fri 16:00-Mon 08:00', '2026-12-07T07:59:59.250Z', '2026-12-07T08:00:00.000Z'],
    ['Fri 16:00-Mon 08:00', '2026-12-07T08:00:00.000Z', undefined],
    ['Fri 16:00-Mon 08:00', '2026-12-09T12:00:00.000Z', undefined],
  ])('weekly %s at %s: frozen until %s', (text, now, until) => {
    const end = freezeEnd(weekly(text), at(now));
    expect(end === undefined ? undefined : new Date(end).toISOString()).toBe(until);
  });

  it('a weekly window in a zone ends in that zone\'s time', () => {
    // 12:00Z is 13:00 in Berlin (winter): inside Fri 12:00-14:00 there, ending at 13:00Z.
    expect(freezeEnd(weekly('Fri 12:00-Fri 14:00', 'Europe/Berlin'), T)).toBe(at('2026-12-04T13:00:00.000Z'));
  });

  it('a freeze name read back: the weekly kind and zone kept; anything around it is no freeze', () => {
    const window = weekly('Fri 16:00-Mon 08:00', 'Europe/Berlin').window;
    expect(parseFreezeName(freezeName('prod', window))).toEqual({ env: 'prod', window });
    const until = { kind: 'until' as const, until: T };
    expect(parseFreezeName(freezeName('prod', until))).toEqual({ env: 'prod', window: until });
    expect(parseFreezeName(`x${freezeName('prod', until)}`)).toBeUndefined();
    expect(parseFreezeName(`${freezeName('prod', until)} x`)).toBeUndefined();
    expect(parseFreezeName('freeze prod weekly Fri 16:00-Fri 16:00')).toBeUndefined();
    expect(freezesOf([{ name: 'not a freeze', versionId: 'V' }, { name: freezeName('dev', until), versionId: 'W' }])).toEqual([{ env: 'dev', window: until, versionId: 'W' }]);
  });

  it('a window in words', () => {
    expect(describeWindow({ kind: 'until', until: T })).toBe('until 2026-12-04T12:00:00.000Z');
    expect(describeWindow(weekly('Fri 16:00-Mon 08:00', 'Europe/Berlin').window)).toBe('weekly Fri 16:00-Mon 08:00 Europe/Berlin');
  });

  it('a block name of exactly 64 characters is plain; anything around a block name is none', () => {
    const plain = blockName('a'.repeat(28), 'v'.repeat(29));
    expect(plain).toBe(`block ${'a'.repeat(28)}/${'v'.repeat(29)}`);
    expect(plain.length).toBe(64);
    expect(blockName('a'.repeat(28), 'v'.repeat(30))).toMatch(/^block #[0-9a-f]{16}$/);
    expect(isBlockName('xblock a/b')).toBe(false);
    expect(isBlockName('block a/b x')).toBe(false);
    expect(isBlockName('block a/b')).toBe(true);
  });

  it('hash64 is FNV-1a over the UTF-8 bytes, 16 hex digits', () => {
    expect(hash64('')).toBe('cbf29ce484222325');
    expect(hash64('a')).toBe('af63dc4c8601ec8c');
  });
});
