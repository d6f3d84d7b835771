// Change control end to end (cli.md, "Change control: locks, freezes and
// blocked versions"): leased locks by compare-and-set on a sentinel asset,
// freezes that still let rollbacks through, blocked versions every
// promotion path refuses. Against the emulator over real HTTP; the races
// and the killed holder with the built binary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { assertFreshBuild, BIN, harness, uid, type Harness } from './helpers.js';

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
