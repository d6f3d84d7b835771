// The lock a run takes for itself (cli.md, "Change control"): apply and
// rollout take their scope's lock by default, renew it while they run and
// release it at the end, through a run longer than the lease; a killed
// run's lease is watched out by the next run, not refused. Against the
// emulator over real HTTP. Nothing sleeps: the run is held in the middle
// of its promotion (the emulator's deployment hold, narrowed to the asset's
// own channel so that the lock's renewals go through), and the service's
// clock is moved on past the lease, each move waiting for the renewal it
// forces.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, uid, type Harness } from './helpers.js';

let h: Harness;
/** Woken by each write the emulator has answered to a lock's asset (a take, a renewal, a release). */
let lockWritten: Array<() => void> = [];
beforeAll(async () => {
  h = await harness({
    log: (line) => {
      if (!/^(POST|PUT|PATCH|DELETE) \S*\/va\/ahs-control-lock/.test(line)) return;
      const woken = lockWritten;
      lockWritten = [];
      for (const wake of woken) wake();
    },
  });
});
afterAll(async () => h?.close());

/** The run's lease: renewed every third of it (1 s), so that the file waits seconds, not tens of them. */
const LEASE_MS = 3000;
const TTL = ['--lock-ttl', `${LEASE_MS / 1000}s`];
/** The asset's own deployments (not the lock's). */
const ofAsset = (id: string) => (key: string) => JSON.parse(key)[2] === id;

async function status(scope: string): Promise<{ held: boolean; lockId: string | null; since: string | null; leaseEnd: string | null; command: string | null; expired: boolean }> {
  const read = await h.ahs(['lock', 'status', scope, '--json']);
  expect(read.exitCode, read.stderr).toBe(0);
  return read.json();
}

/** The next write answered to a lock's asset; rejects after 20 s without one. */
function nextLockWrite(scope: string, after: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the lock of ${scope} was never renewed past ${new Date(after).toISOString()}: no write to a lock in 20 s`)), 20_000).unref();
    lockWritten.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Waits until the lock of `scope` is held with a lease that ends after `after` (the first take, or a renewal):
 * `lock status` read again after each write to a lock, not in a loop of reads (one main() each, ~90% of this
 * file's CPU when it read as fast as it could).
 */
async function leasePast(scope: string, after: number): Promise<Awaited<ReturnType<typeof status>>> {
  for (let reads = 0; reads < 400; reads++) {
    // Listening before the read: a renewal answered while it runs wakes the next one.
    const written = nextLockWrite(scope, after);
    written.catch(() => undefined);
    const now = await status(scope);
    if (now.held && Date.parse(now.leaseEnd!) > after) return now;
    await written;
  }
  throw new Error(`the lock of ${scope} was never renewed past ${new Date(after).toISOString()}`);
}

/**
 * While the run is held mid-promotion: the service's clock moved on four
 * times by 0.8 s (3.2 s in all, past the 3 s lease), each time waiting for
 * a renewal (the lease end moves on); a renewal comes every second, so a
 * lease never lapses between two unless the run is 1.2 s late. The same
 * holder throughout, since the first take: a lease that lapsed and was
 * taken again would start anew.
 */
async function outliveTheLease(scope: string): Promise<Awaited<ReturnType<typeof status>>> {
  const first = await leasePast(scope, 0);
  let last = first;
  let clock = 0;
  for (let move = 0; move < 4; move++) {
    clock += 800;
    h.emu.setClockOffset(clock);
    last = await leasePast(scope, Date.parse(last.leaseEnd!));
  }
  expect(last).toMatchObject({ held: true, lockId: first.lockId, since: first.since });
  // Held for longer than its lease on the service's clock, by renewals.
  expect(Date.parse(last.leaseEnd!) - Date.parse(last.since!)).toBeGreaterThan(LEASE_MS + 3200);
  return last;
}

describe('a run holds its scope\'s lock by default, renewed through a run longer than its lease', () => {
  it('a run that does not coordinate through locks (no --lock-ttl, --lock-timeout or --lock-id) takes none: its channel has no lock asset, and another holder\'s lock still refuses it', async () => {
    const id = uid('nolock');
    await h.createAsset(id);
    const lockAssets = async () => ((await h.call('GET', '/va?pageSize=500')).body.results as Array<{ assetId: string }>).filter((a) => a.assetId.startsWith('ahs-control-lock')).length;
    const before = await lockAssets();
    const release = await h.ahs(['release', id, await h.file(`${id}-1.zip`, 'no lock taken'), '--name', '1.0', '--platform', 'web', '--env', 'dev', '--no-journal']);
    expect(release.exitCode, release.stderr).toBe(0);
    expect(await lockAssets()).toBe(before);
    expect((await h.ahs(['lock', 'status', `${id}/web/dev`, '--json'])).json()).toMatchObject({ held: false });
    const lock = await h.ahs(['lock', 'acquire', `${id}/web/dev`, '--ttl', '10m', '--reason', 'hands off', '--json']);
    expect(lock.exitCode, lock.stderr).toBe(0);
    const refused = await h.ahs(['release', id, await h.file(`${id}-2.zip`, 'the next one'), '--name', '1.1', '--platform', 'web', '--env', 'dev', '--no-journal']);
    expect(refused.exitCode, refused.stderr).toBe(12);
    expect(refused.stderr).toContain('hands off');
    expect((await h.ahs(['lock', 'release', `${id}/web/dev`, '--lock-id', lock.json().lockId])).exitCode).toBe(0);
  });

  it('apply: another lock acquire during the run exits 12 naming it; after the run the lock is free', async () => {
    const id = uid('hold');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    const v2 = await h.uploadVersion(id, 'ios', '1.1');
    await h.deploy(id, v1, 'ios', 'prod', 'LIVE');
    await h.deploy(id, v1, 'ios', 'prod', 'DEFAULT');
    await h.deploy(id, v2, 'ios', 'prod', 'LIVE');
    const dir = join(h.dir, id);
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'ahs.yaml');
    await writeFile(file, `apiVersion: ahs/v1\nassets:\n  ${id}:\n    name: ${id}\n    type: "1001"\n    channels:\n      ios:\n        prod: { default: { versionId: ${v2} }, live: [{ versionId: ${v1} }] }\n`);
    const scope = `${id}/ios/prod`;
    const hold = h.emu.holdDeployments(ofAsset(id));
    try {
      const applying = h.ahs(['apply', '-f', file, '--yes', ...TTL, '--timeout', '60']);
      await hold.held(1);
      const held = await outliveTheLease(scope);
      expect(held.lockId).toMatch(/^run-[0-9a-f]{12}$/);
      expect(held.command).toBe('apply');
      const other = await h.ahs(['lock', 'acquire', scope, '--ttl', '1m']);
      expect(other.exitCode, other.stderr).toBe(12);
      expect(other.stderr).toContain(`${scope} is locked: held by`);
      expect(other.stderr).toContain(`(apply), lock id ${held.lockId}`);
      // A write that would take no lock watches the run's lease: it renews, so its holder is alive: exit 12, nothing sent.
      const deploy = await h.ahs(['deploy', id, v1, '--platform', 'ios', '--env', 'prod', '--state', 'OFFLINE']);
      expect(deploy.exitCode, deploy.stderr).toBe(12);
      expect(deploy.stderr).toContain(`waiting to see whether it renews it`);
      expect(deploy.stderr).toContain(`${scope} is locked by a run that is alive (it renewed its lease): held by`);
      hold.release();
      const applied = await applying;
      expect(applied.exitCode, applied.stderr).toBe(0);
    } finally {
      hold.release();
      h.emu.setClockOffset(0);
    }
    expect(await status(scope)).toMatchObject({ held: false, expired: false });
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=LIVE`, `ios/prod/${v2}=DEFAULT`]);
  });

  it('rollout: another lock acquire on the wave during the run exits 12 naming it; after the run the lock is free', async () => {
    const id = uid('holdro');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'web', '1.0');
    const v2 = await h.uploadVersion(id, 'web', '2.0');
    await h.deploy(id, v1, 'web', 'dev', 'LIVE');
    await h.deploy(id, v1, 'web', 'dev', 'DEFAULT');
    const journal = uid('jh');
    expect((await h.ahs(['journal', 'init', journal, '--env', 'dev'])).exitCode).toBe(0);
    const scope = `${id}/web/dev`;
    const hold = h.emu.holdDeployments(ofAsset(id));
    try {
      const rolling = h.ahs(['rollout', id, v2, '--platform', 'web', '--waves', 'dev', '--journal', journal, ...TTL, '--timeout', '60']);
      await hold.held(1);
      const held = await outliveTheLease(scope);
      expect(held.lockId).toMatch(/^run-[0-9a-f]{12}$/);
      expect(held.command).toMatch(/^rollout( start)?$/);
      const other = await h.ahs(['lock', 'acquire', scope, '--ttl', '1m']);
      expect(other.exitCode, other.stderr).toBe(12);
      expect(other.stderr).toContain(`lock id ${held.lockId}`);
      hold.release();
      const rolled = await rolling;
      expect(rolled.exitCode, rolled.stderr).toBe(0);
    } finally {
      hold.release();
      h.emu.setClockOffset(0);
    }
    expect(await status(scope)).toMatchObject({ held: false, expired: false });
    expect(await h.records(id)).toEqual([`web/dev/${v1}=LIVE`, `web/dev/${v2}=DEFAULT`]);
  });
});

describe('a killed run\'s lease', () => {
  it('is watched out by the next run (a deploy goes through once the lease ends); a live run\'s renewal refuses at once', async () => {
    const id = uid('dead');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    const v2 = await h.uploadVersion(id, 'ios', '1.1');
    await h.deploy(id, v1, 'ios', 'prod', 'LIVE');
    await h.deploy(id, v2, 'ios', 'prod', 'LIVE');
    const scope = `${id}/ios/prod`;
    // A run's lock left by a holder that is gone: taken as a run takes it, never renewed.
    const left = await h.ahs(['lock', 'acquire', scope, '--ttl', '1s', '--lock-id', 'run-0123456789ab']);
    expect(left.exitCode, left.stderr).toBe(0);
    const through = await h.ahs(['deploy', id, v1, '--platform', 'ios', '--env', 'prod', '--state', 'OFFLINE']);
    expect(through.exitCode, through.stderr).toBe(0);
    expect(through.stderr).toContain(`${scope} is locked by another run (lock id run-0123456789ab, lease ends `);
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=OFFLINE`, `ios/prod/${v2}=LIVE`]);
  });
});

describe('under GitHub Actions', () => {
  const job = (attempt: number) => ({ GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/app', GITHUB_RUN_ID: '4242', GITHUB_JOB: 'release', GITHUB_RUN_ATTEMPT: String(attempt) });
  const acquire = (attempt: number) => h.ahs(['lock', 'acquire', 'staging', '--ttl', '1h', '--json'], { env: job(attempt) });

  it('a re-run of the job (a later attempt) takes over the lock its cancelled attempt left, whatever its lease; the same attempt (a matrix leg) does not', async () => {
    const first = await acquire(1);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.json().lockId).toMatch(/^gh-[0-9a-f]{10}-1-[0-9a-f]{6}$/);
    const leg = await acquire(1);
    expect(leg.exitCode).toBe(12);
    expect(leg.stderr).toContain(`lock id ${first.json().lockId}`);
    const rerun = await acquire(2);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.json().lockId).toMatch(/^gh-[0-9a-f]{10}-2-[0-9a-f]{6}$/);
    expect(await status('staging')).toMatchObject({ held: true, lockId: rerun.json().lockId });
    // The cancelled attempt's late release is refused, naming the re-run's lock, which stays.
    const late = await h.ahs(['lock', 'release', 'staging', '--lock-id', first.json().lockId], { env: job(1) });
    expect(late.exitCode).toBe(12);
    expect((await h.ahs(['lock', 'release', 'staging', '--lock-id', rerun.json().lockId], { env: job(2) })).exitCode).toBe(0);
  });
});
