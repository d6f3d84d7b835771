// Change control end to end (cli.md, "Change control: locks, freezes and
// blocked versions"): leased locks by compare-and-set on a sentinel asset,
// freezes that still let rollbacks through, blocked versions every
// promotion path refuses. Against the emulator over real HTTP; the races
// and the killed holder with the built binary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { assertFreshBuild, BIN, harness, hasScript, runInPty, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const PROD = ['--platform', 'ios', '--env', 'prod'];

/** An asset with two LIVE versions on ios/prod, the first the Default. */
async function channel() {
  const id = uid('cc');
  await h.createAsset(id);
  const v1 = await h.uploadVersion(id, 'ios', '1.0');
  const v2 = await h.uploadVersion(id, 'ios', '1.1');
  await h.deploy(id, v1, 'ios', 'prod', 'LIVE');
  await h.deploy(id, v1, 'ios', 'prod', 'DEFAULT');
  return { id, v1, v2 };
}

describe('locks', () => {
  it('a deploy to prod by another holder exits 12, nothing sent; after release it goes through', async () => {
    const { id, v2 } = await channel();
    const before = await h.records(id);
    const acquired = await h.ahs(['lock', 'acquire', 'prod', '--ttl', '10m', '--reason', 'release train', '--json']);
    expect(acquired.exitCode, acquired.stderr).toBe(0);
    const { lockId } = acquired.json();
    expect(lockId).toMatch(/^[0-9a-f]{12}$/);
    const refused = await h.ahs(['deploy', id, v2, ...PROD]);
    expect(refused.exitCode, refused.stderr).toBe(12);
    expect(refused.stderr).toMatch(/prod is locked: held by .*lock id [0-9a-f]{12}.*reason: release train/);
    expect(await h.records(id)).toEqual(before);
    // --lock-timeout 0s, as Terraform's: no wait, the same refusal (not "is not a duration").
    const noWait = await h.ahs(['deploy', id, v2, ...PROD, '--lock-timeout', '0s']);
    expect(noWait.exitCode, noWait.stderr).toBe(12);
    expect(noWait.stderr).toMatch(/prod is locked: held by /);
    const mine = await h.ahs(['deploy', id, v2, ...PROD, '--lock-id', lockId]);
    expect(mine.exitCode, mine.stderr).toBe(0);
    const released = await h.ahs(['lock', 'release', 'prod', '--lock-id', lockId, '--json']);
    expect(released.exitCode, released.stderr).toBe(0);
    expect(released.json()).toMatchObject({ released: true });
    const after = await h.ahs(['deploy', id, v2, ...PROD, '--state', 'OFFLINE']);
    expect(after.exitCode, after.stderr).toBe(0);
  });
});

describe('a lease', () => {
  it('a --ttl 2s lock whose holder was killed lets a deploy through once the lease ended on the service clock, without break', async () => {
    const { id, v2 } = await channel();
    const taken = await h.ahs(['lock', 'acquire', 'prod', '--ttl', '2s', '--json']);
    expect(taken.exitCode, taken.stderr).toBe(0);
    const refused = await h.ahs(['deploy', id, v2, ...PROD]);
    expect(refused.exitCode).toBe(12);
    // The holder is gone (nobody renews): 3 s pass on the service's clock, not on this one.
    h.emu.advanceClock(3000);
    try {
      const status = await h.ahs(['lock', 'status', 'prod', '--json']);
      expect(status.json()).toMatchObject({ held: false, expired: true, lockId: taken.json().lockId });
      const through = await h.ahs(['deploy', id, v2, ...PROD]);
      expect(through.exitCode, through.stderr).toBe(0);
      // The next acquirer's compare-and-set is against the stale holder's version.
      const next = await h.ahs(['lock', 'acquire', 'prod', '--ttl', '1m', '--json']);
      expect(next.exitCode, next.stderr).toBe(0);
      expect((await h.ahs(['lock', 'release', 'prod', '--lock-id', next.json().lockId])).exitCode).toBe(0);
    } finally {
      h.emu.setClockOffset(0);
    }
  });

  it('--lock-timeout 5s waits for a holder that releases', async () => {
    const { id, v2 } = await channel();
    const held = (await h.ahs(['lock', 'acquire', 'prod', '--json'])).json().lockId;
    assertFreshBuild();
    const waiter = execa('node', [BIN, 'lock', 'acquire', 'prod', '--lock-timeout', '5s', '--json'], { env: { ...process.env, ...h.env }, reject: false, stdin: 'ignore' });
    // Released once the waiter says it waits: the event, not a sleep.
    await new Promise<void>((resolve) => {
      let seen = '';
      waiter.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('waiting')) resolve();
      });
    });
    expect((await h.ahs(['lock', 'release', 'prod', '--lock-id', held])).exitCode).toBe(0);
    const r = await waiter;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toMatch(/prod is locked by another run: waiting up to 5s/);
    const lockId = JSON.parse(String(r.stdout)).lockId;
    expect(lockId).not.toBe(held);
    expect((await h.ahs(['lock', 'release', 'prod', '--lock-id', lockId])).exitCode).toBe(0);
    expect((await h.ahs(['deploy', id, v2, ...PROD])).exitCode).toBe(0);
  });
});

describe('10 lock acquire prod at once (built binary, processes)', () => {
  it('exactly one exits 0; the others exit 12 naming it', async () => {
    const runs = await Promise.all(Array.from({ length: 10 }, () => h.ahs(['lock', 'acquire', 'prod', '--ttl', '1m', '--json'], { binary: true })));
    const codes = runs.map((r) => r.exitCode).sort();
    expect(codes, runs.map((r) => r.stderr).join('\n')).toEqual([0, 12, 12, 12, 12, 12, 12, 12, 12, 12]);
    const winner = runs.find((r) => r.exitCode === 0)!.json().lockId;
    for (const r of runs.filter((r) => r.exitCode === 12)) expect(r.stderr).toContain(`lock id ${winner}`);
    const status = await h.ahs(['lock', 'status', 'prod', '--json']);
    expect(status.json()).toMatchObject({ held: true, lockId: winner });
    expect((await h.ahs(['lock', 'release', 'prod', '--lock-id', winner])).exitCode).toBe(0);
  });
});

describe('what change control names must exist (a typo protects nothing)', () => {
  let n: Harness;
  beforeAll(async () => {
    n = await harness();
  });
  afterAll(async () => n?.close());

  it('a freeze of an unknown environment, a block of an unknown version or asset, a lock of an unknown asset or collection: exit 4, nothing recorded; a freeze that ended already: exit 2', async () => {
    const id = uid('nx');
    await n.createAsset(id);
    const v1 = await n.uploadVersion(id, 'ios', '1.0');
    const cases: Array<[string[], number, RegExp]> = [
      [['freeze', 'prdo', '--for', '1h', '--reason', 'typo'], 4, /^error: Environment prdo not found in domain demo/],
      [['freeze', 'dev', '--until', '2020-01-01T00:00:00Z', '--reason', 'past'], 2, /^error: --until 2020-01-01T00:00:00Z is in the past \(the service's clock says 20\d\d-/],
      [['version', 'block', id, 'IOS77', '--reason', 'x'], 4, new RegExp(`^error: version IOS77 of ${id} not found$`)],
      [['version', 'block', 'no-such-asset', v1, '--reason', 'x'], 4, /^error: asset no-such-asset not found$/],
      [['lock', 'acquire', 'no-such-asset/ios/prod'], 4, /^error: asset no-such-asset not found: a channel's lock names an existing asset/],
      [['lock', 'acquire', 'no-such-pack@prod'], 4, /^error: collection no-such-pack not found: a collection's lock names an existing one/],
    ];
    for (const [args, exitCode, said] of cases) {
      const run = await n.ahs(args);
      expect(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBe(exitCode);
      expect(run.stderr.trim(), args.join(' ')).toMatch(said);
    }
    // Nothing of them is on the service: no freeze, no block, no lock, no sentinel version left behind.
    expect((await n.ahs(['freeze', 'list', '--json'])).json()).toMatchObject({ results: [] });
    expect((await n.ahs(['lock', 'status', '--json'])).json()).toMatchObject({ totalResults: 0 });
    const control = await n.call('GET', '/va/ahs-control/versions');
    expect(control.status === 404 ? [] : control.body.results).toEqual([]);
    // What exists is taken: the same commands on real names go through.
    expect((await n.ahs(['version', 'block', id, v1, '--reason', 'real'])).exitCode).toBe(0);
    expect((await n.ahs(['lock', 'acquire', `${id}/ios/prod`, '--ttl', '1m'])).exitCode).toBe(0);
    expect((await n.ahs(['freeze', 'prod', '--for', '1h', '--reason', 'real'])).exitCode).toBe(0);
  });
});

describe('freezes', () => {
  let f: Harness;
  beforeAll(async () => {
    f = await harness();
  });
  afterAll(async () => f?.close());

  async function released() {
    const id = uid('fz');
    await f.createAsset(id);
    const v1 = await f.uploadVersion(id, 'ios', '1.0');
    const v2 = await f.uploadVersion(id, 'ios', '1.1');
    for (const v of [v1, v2]) await f.deploy(id, v, 'ios', 'prod', 'LIVE');
    await f.deploy(id, v1, 'ios', 'prod', 'DEFAULT');
    await f.deploy(id, v2, 'ios', 'prod', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' });
    return { id, v1, v2 };
  }

  it('a freeze on prod: a deploy exits 12 naming it; rollback passes; --break-glass passes and history shows it', async () => {
    const journal = uid('jr');
    expect((await f.ahs(['journal', 'init', journal, '--env', 'prod'])).exitCode).toBe(0);
    const env = { AHS_JOURNAL: journal };
    const { id, v1, v2 } = await released();
    const frozen = await f.ahs(['freeze', 'prod', '--for', '2h', '--reason', 'holiday', '--json'], { env });
    expect(frozen.exitCode, frozen.stderr).toBe(0);
    expect(frozen.json()).toMatchObject({ env: 'prod', until: expect.any(String) });
    // For a person: its end, once.
    const told = await f.ahs(['freeze', 'dev', '--for', '1h', '--reason', 'audit'], { env });
    expect(told.stderr.trim()).toMatch(/^✓ froze dev \(until 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z\)$/);
    expect((await f.ahs(['unfreeze', 'dev'], { env })).exitCode).toBe(0);
    const before = await f.records(id);
    const refused = await f.ahs(['deploy', id, v1, ...PROD, '--state', 'OFFLINE', '--json'], { env });
    expect(refused.exitCode).toBe(12);
    expect(refused.errJson()).toMatchObject({ type: 'urn:ahs:blocked', blockedBy: 'freeze', until: frozen.json().until });
    expect(refused.errJson().detail).toMatch(/prod is frozen .* by owner@demo\.test .*: holiday; frozen until/);
    expect(await f.records(id)).toEqual(before);
    // The way out of an incident goes through.
    const back = await f.ahs(['rollback', id, ...PROD, '--to', v1], { env });
    expect(back.exitCode, back.stderr).toBe(0);
    // One write through the freeze, recorded as such.
    const glass = await f.ahs(['deploy', id, v2, ...PROD, '--state', 'OFFLINE', '--break-glass', '--reason', 'INC-7 hotfix'], { env });
    expect(glass.exitCode, glass.stderr).toBe(0);
    expect(glass.stderr).toContain('--break-glass: going through the freeze of prod');
    const history = await f.ahs(['history', id, '--env', 'prod', '--json'], { env });
    expect(history.exitCode, history.stderr).toBe(0);
    expect(history.json().results[0]).toMatchObject({ command: 'deploy', control: { action: 'break-glass', target: 'prod', reason: 'INC-7 hotfix' } });
    // And for a person: the table's command says it went through with --break-glass, and why.
    const table = await f.ahs(['history', id, '--env', 'prod'], { env });
    expect(table.stdout.split('\n')[1]).toContain('\tdeploy --break-glass (INC-7 hotfix)\t');
    const list = await f.ahs(['freeze', 'list', '--json']);
    expect(list.json().results).toEqual([expect.objectContaining({ env: 'prod', active: true, reason: 'holiday', actor: 'owner@demo.test' })]);
    expect((await f.ahs(['unfreeze', 'prod'], { env })).exitCode).toBe(0);
    expect((await f.ahs(['deploy', id, v2, ...PROD, '--state', 'LIVE'])).exitCode).toBe(0);
  });

  it.skipIf(!hasScript)('in a terminal, a frozen environment refuses a write that asks for confirmation (exit 12) before asking: asset undeploy, collection undeploy', async () => {
    const { id } = await released();
    const collection = uid('frozen-pack');
    expect((await f.ahs(['collection', 'create', collection, '--name', collection, '--allowed-types', '9999'])).exitCode).toBe(0);
    expect((await f.ahs(['freeze', 'prod', '--for', '1h', '--reason', 'launch day'])).exitCode).toBe(0);
    let asked = false;
    const onScreen = (shown: string) => {
      asked ||= /Undeploy (every version|collection)/.test(shown);
    };
    try {
      // Before, the question came first: a yes was then refused (exit 12), a no was exit 2.
      const undeploy = await runInPty(f.env, ['asset', 'undeploy', id, '--platform', 'ios', '--env', 'prod'], [], { onScreen });
      expect(undeploy.code, undeploy.screen).toBe(12);
      expect(undeploy.screen).toMatch(/prod is frozen .*: launch day; frozen until .*; nothing was sent/);
      const offline = await runInPty(f.env, ['collection', 'undeploy', collection, '--env', 'prod'], [], { onScreen });
      expect(offline.code, offline.screen).toBe(12);
      expect(asked).toBe(false);
    } finally {
      await f.ahs(['unfreeze', 'prod']);
    }
    // Unfrozen, the question is asked; answered no, nothing is sent.
    const asks = await runInPty(f.env, ['asset', 'undeploy', id, '--platform', 'ios', '--env', 'prod'], [[/Undeploy every version of [\s\S]*\(y\/N\)/, 'n\r']]);
    expect(asks.code, asks.screen).toBe(2);
    expect((await f.ahs(['version', 'list', id, '--json'])).exitCode).toBe(0);
  });

  it('a weekly window, on the service\'s clock moved into and out of it', async () => {
    const { id, v1 } = await released();
    // The emulator's clock on Saturday 12:00 in Berlin, then on Monday 09:00.
    const at = (iso: string) => f.emu.setClockOffset(Date.parse(iso) - Date.now());
    try {
      at('2026-12-05T11:00:00Z');
      const set = await f.ahs(['freeze', 'prod', '--weekly', 'Fri 16:00-Mon 08:00', '--zone', 'Europe/Berlin', '--reason', 'no weekend deploys', '--json']);
      expect(set.exitCode, set.stderr).toBe(0);
      expect(set.json()).toMatchObject({ until: '2026-12-07T07:00:00.000Z' });
      const weekend = await f.ahs(['deploy', id, v1, ...PROD, '--state', 'OFFLINE']);
      expect(weekend.exitCode).toBe(12);
      expect(weekend.stderr).toContain('weekly Fri 16:00-Mon 08:00 Europe/Berlin');
      // The table's NOW says what the window does not: this weekend's end; a freeze until a time, "frozen" (its
      // window says until when), then "ended"; a weekly window outside it, "not in force".
      expect((await f.ahs(['freeze', 'staging', '--until', '2026-12-06T00:00:00Z', '--reason', 'audit'])).exitCode).toBe(0);
      const rows = (await f.ahs(['freeze', 'list'])).stdout.split('\n');
      expect(rows.find((row) => row.startsWith('prod'))).toMatch(/^prod\s+weekly Fri 16:00-Mon 08:00 Europe\/Berlin\s+frozen until 2026-12-07T07:00:00.000Z\s+owner@demo\.test\s+no weekend deploys\s*$/);
      expect(rows.find((row) => row.startsWith('staging'))).toMatch(/^staging\s+until 2026-12-06T00:00:00.000Z\s+frozen\s+owner@demo\.test\s+audit\s*$/);
      at('2026-12-07T08:00:00Z');
      const monday = await f.ahs(['deploy', id, v1, ...PROD, '--state', 'OFFLINE']);
      expect(monday.exitCode, monday.stderr).toBe(0);
      const later = (await f.ahs(['freeze', 'list'])).stdout.split('\n');
      expect(later.find((row) => row.startsWith('prod'))).toMatch(/^prod\s+weekly Fri 16:00-Mon 08:00 Europe\/Berlin\s+not in force\s+/);
      expect(later.find((row) => row.startsWith('staging'))).toMatch(/^staging\s+until 2026-12-06T00:00:00.000Z\s+ended\s+/);
    } finally {
      f.emu.setClockOffset(0);
      await f.ahs(['unfreeze', 'prod']);
      await f.ahs(['unfreeze', 'staging']);
    }
  });
});

describe('blocked versions', () => {
  let b: Harness;
  beforeAll(async () => {
    b = await harness();
  });
  afterAll(async () => b?.close());

  it.each([
    ['deploy LIVE', (id: string, v: string) => ['deploy', id, v, ...PROD]],
    ['promote-default', (id: string, v: string) => ['promote-default', id, v, ...PROD, '--make-live']],
    ['rollback --to', (id: string, v: string) => ['rollback', id, ...PROD, '--to', v]],
  ])('%s of a blocked version is refused, exit 12 naming who and why; accepted after unblock', async (_what, args) => {
    const id = uid('bl');
    await b.createAsset(id);
    const good = await b.uploadVersion(id, 'ios', '1.0');
    const bad = await b.uploadVersion(id, 'ios', '1.1');
    await b.deploy(id, good, 'ios', 'prod', 'LIVE');
    await b.deploy(id, good, 'ios', 'prod', 'DEFAULT');
    await b.deploy(id, bad, 'ios', 'prod', 'OFFLINE');
    if (_what === 'rollback --to') await b.deploy(id, bad, 'ios', 'prod', 'LIVE');
    const blocked = await b.ahs(['version', 'block', id, bad, '--reason', 'crash on start', '--env', 'prod']);
    expect(blocked.exitCode, blocked.stderr).toBe(0);
    const before = await b.records(id);
    const refused = await b.ahs([...args(id, bad), '--json']);
    expect(refused.exitCode, refused.stderr).toBe(12);
    expect(refused.errJson()).toMatchObject({ blockedBy: 'version', until: null });
    expect(refused.errJson().detail).toMatch(new RegExp(`version ${bad} of ${id} is blocked by owner@demo\\.test at \\S+: crash on start`));
    expect(await b.records(id)).toEqual(before);
    // A blocked version stays downloadable where it is deployed: nothing was deleted.
    expect((await b.call('GET', `/va/${id}/versions/${bad}`)).status).toBe(200);
    expect((await b.ahs(['version', 'unblock', id, bad])).exitCode).toBe(0);
    const through = await b.ahs(args(id, bad));
    expect(through.exitCode, through.stderr).toBe(0);
  });

  it('version list says which versions are blocked (who, when, why) under its table and in its JSON; after unblock, none', async () => {
    const id = uid('bv');
    await b.createAsset(id);
    const good = await b.uploadVersion(id, 'ios', '1.0');
    const bad = await b.uploadVersion(id, 'ios', '1.1');
    expect((await b.ahs(['version', 'block', id, bad, '--reason', 'crash on start'])).exitCode).toBe(0);
    const table = await b.ahs(['version', 'list', id]);
    expect(table.exitCode, table.stderr).toBe(0);
    // stdout keeps the service's columns (a script's TSV); the block is said on stderr.
    expect(table.stdout.split('\n')[0]).toBe('VERSION ID\tNAME\tPLATFORM\tFILE\tSIZE\tACTIVE\tCREATED');
    expect(table.stderr).toMatch(new RegExp(`^! ${bad} is blocked \\(by owner@demo\\.test at \\S+Z: crash on start\\): promotions refuse it until ahs version unblock ${id} ${bad}; it stays downloadable$`, 'm'));
    expect(table.stderr).not.toContain(`! ${good} `);
    const json = await b.ahs(['version', 'list', id, '--platform', 'ios', '--json']);
    expect(json.json().blocked).toEqual([{ versionId: bad, actor: 'owner@demo.test', createdAt: expect.stringMatching(/Z$/), reason: 'crash on start' }]);
    expect((await b.ahs(['version', 'unblock', id, bad])).exitCode).toBe(0);
    const after = await b.ahs(['version', 'list', id, '--json']);
    expect(after.json()).not.toHaveProperty('blocked');
    expect(after.stderr).not.toContain('is blocked');
  });

  it('release reusing a blocked version is refused; rollback --block blocks the version it moves away from', async () => {
    const id = uid('br');
    await b.createAsset(id);
    const file = await b.file(`${id}.zip`, 'build one');
    const first = await b.ahs(['release', id, file, ...PROD, '--name', '1.0', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    const v1 = first.json().version.versionId;
    const file2 = await b.file(`${id}-2.zip`, 'build two');
    const second = await b.ahs(['release', id, file2, ...PROD, '--name', '2.0', '--json']);
    const v2 = second.json().version.versionId;
    const back = await b.ahs(['rollback', id, ...PROD, '--to', v1, '--block', '--reason', 'INC-9']);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(back.stderr).toContain(`blocked ${v2}`);
    const again = await b.ahs(['release', id, file2, ...PROD, '--name', '2.0']);
    expect(again.exitCode, again.stderr).toBe(12);
    expect(again.stderr).toMatch(/is blocked by .*: INC-9/);
    expect((await b.ahs(['version', 'unblock', id, v2])).exitCode).toBe(0);
  });
});

describe('the sentinel is not content', () => {
  it('asset list marks it, export leaves it out, asset delete refuses it without --yes saying the locks go with it', async () => {
    const s = await harness();
    try {
      const taken = await s.ahs(['lock', 'acquire', 'prod', '--json']);
      expect(taken.exitCode, taken.stderr).toBe(0);
      await s.createAsset('content');
      const list = await s.ahs(['asset', 'list']);
      expect(list.stdout).toMatch(/ahs-control-lock\s.*\bahs change control: a lock \(not content\)/);
      expect(list.stdout).not.toMatch(/change control.*change control/);
      const exported = await s.ahs(['export']);
      expect(exported.exitCode, exported.stderr).toBe(0);
      expect(exported.stdout).toContain('content');
      expect(exported.stdout).not.toContain('ahs-control');
      const refused = await s.ahs(['asset', 'delete', 'ahs-control-lock']);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('deleting it drops every lock, freeze and block it holds (they go with it); pass --yes');
      expect((await s.call('GET', '/va/ahs-control-lock')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

// The journal is not content (cli.md "Memory"), and change control keeps its record there.
describe('the journal under change control', () => {
  let j: Harness;
  beforeAll(async () => {
    j = await harness();
  });
  afterAll(async () => j?.close());

  it('journal init goes through a lock another run holds and a freeze of its environment: the memory is never locked out', async () => {
    const lock = await j.ahs(['lock', 'acquire', 'prod', '--ttl', '10m', '--reason', 'release train', '--json']);
    expect(lock.exitCode, lock.stderr).toBe(0);
    const freeze = await j.ahs(['freeze', 'prod', '--for', '2h', '--reason', 'launch']);
    expect(freeze.exitCode, freeze.stderr).toBe(0);
    const init = await j.ahs(['journal', 'init', 'team-journal', '--env', 'prod', '--json']);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.json()).toMatchObject({ journal: 'team-journal', envId: 'prod', created: true, deployed: true });
    // Content is still refused: the lock and the freeze stand.
    const id = uid('cj');
    await j.createAsset(id);
    const v = await j.uploadVersion(id, 'ios', '1.0');
    const deploy = await j.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'prod', '--state', 'LIVE']);
    expect(deploy.exitCode).toBe(12);
    expect(await j.records(id)).toEqual([]);
  });
});

describe('a blocked version refused', () => {
  it('names who, when and why, for a block made with no environment set (its record deployed nowhere)', async () => {
    const { id, v2 } = await channel();
    const block = await h.ahs(['version', 'block', id, v2, '--reason', 'crashes on start — see INC-42']);
    expect(block.exitCode, block.stderr).toBe(0);
    const refused = await h.ahs(['deploy', id, v2, ...PROD, '--state', 'LIVE']);
    expect(refused.exitCode).toBe(12);
    expect(refused.stderr).toMatch(new RegExp(`^error: version ${v2} of ${id} is blocked by owner@demo\\.test at \\S+: crashes on start — see INC-42; nothing was sent`, 'm'));
    expect((await h.ahs(['version', 'unblock', id, v2, '--reason', 'fixed'])).exitCode).toBe(0);
  });
});

describe('lock status without a scope', () => {
  let s: Harness;
  beforeAll(async () => {
    s = await harness();
  });
  afterAll(async () => s?.close());

  it('lists every lock held now, of every scope (no --env needed, as in CI); --env narrows it to that environment', async () => {
    const none = await s.ahs(['lock', 'status', '--json']);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.json()).toMatchObject({ totalResults: 0, results: [] });
    // For a person, one line that says so (not "no results" beside it).
    const noneText = await s.ahs(['lock', 'status', '--env', 'dev']);
    expect(noneText.exitCode, noneText.stderr).toBe(0);
    expect(noneText.stdout).toBe('');
    expect(noneText.stderr.trim()).toBe('no lock is held in dev');
    // What a channel's and a collection's lock name exists.
    await s.createAsset('my-bundle');
    expect((await s.call('POST', '/vc', { collectionId: 'pack', collectionName: 'pack', allowedAssetTypes: ['1001'], createdBy: 'owner@demo.test' })).status).toBe(201);
    const acquired: Array<{ scope: string; lockId: string; since: string; leaseEnd: string }> = [];
    for (const [scope, reason] of [['prod', 'release train'], ['my-bundle/ios/staging', 'hotfix'], ['pack@dev', 'content freeze']]) {
      const taken = await s.ahs(['lock', 'acquire', scope!, '--ttl', '10m', '--reason', reason!, '--json']);
      expect(taken.exitCode, taken.stderr).toBe(0);
      acquired.push(taken.json());
    }
    const all = await s.ahs(['lock', 'status', '--json']);
    expect(all.exitCode, all.stderr).toBe(0);
    // What acquire said of each lock is what status reads back: since and the lease's end to the second, as recorded.
    for (const lock of acquired) {
      expect(lock.since).toMatch(/:\d\d\.000Z$/);
      expect(all.json().results.find((l: { scope: string }) => l.scope === lock.scope)).toMatchObject({ lockId: lock.lockId, since: lock.since, leaseEnd: lock.leaseEnd });
    }
    expect(all.json().results.map((l: { scope: string; reason: string; held: boolean }) => [l.scope, l.reason, l.held])).toEqual([
      ['my-bundle/ios/staging', 'hotfix', true],
      ['pack@dev', 'content freeze', true],
      ['prod', 'release train', true],
    ]);
    const staging = await s.ahs(['lock', 'status', '--env', 'staging', '--json']);
    expect(staging.json().results.map((l: { scope: string }) => l.scope)).toEqual(['my-bundle/ios/staging']);
    const table = await s.ahs(['lock', 'status']);
    expect(table.stdout.split('\n')[0]).toBe('SCOPE\tHOLDER\tCOMMAND\tLOCK ID\tSINCE\tLEASE ENDS\tREASON');
    expect(table.stdout).toContain('prod\towner@demo.test\tlock acquire');
  });
});
