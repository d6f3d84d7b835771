// Change control from code (cli.md, "Change control"; the library's
// client.locks, client.freezes, client.versions.block|unblock): the same
// operations as `ahs lock|freeze|unfreeze|version block|unblock`, and every
// library write obeys them (the executor's gate): a lock another holder has,
// a freeze, a blocked version are a BlockedError (exit 12) with nothing sent;
// a write given the lock's id (CallOptions.lockId) goes through it, one given
// breakGlass through a freeze. Against the emulator over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, uid, DEMO_API_KEY, DEMO_USER, type Harness } from './helpers.js';
import { BlockedError, createClient, UsageError, type Client } from '../../src/library/index.js';

let h: Harness;
let client: Client;
beforeAll(async () => {
  h = await harness();
  client = createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER });
});
afterAll(async () => {
  await client?.close();
  await h?.close();
});

/** An asset with 1.0 the Default and 1.1 LIVE on ios/`env`. */
async function channel(env: string) {
  const id = uid('lcc');
  await h.createAsset(id);
  const v1 = await h.uploadVersion(id, 'ios', '1.0');
  const v2 = await h.uploadVersion(id, 'ios', '1.1');
  await h.deploy(id, v1, 'ios', env, 'LIVE');
  await h.deploy(id, v1, 'ios', env, 'DEFAULT');
  await h.deploy(id, v2, 'ios', env, 'LIVE');
  return { id, v1, v2 };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('client.locks', () => {
  it('acquire, status, a write of another holder refused (nothing sent), the holder\'s write through its lockId, release', async () => {
    const { id, v1, v2 } = await channel('staging');
    const lock = await client.locks.acquire({ scope: 'staging', ttlMs: 10 * 60_000, reason: 'release train' });
    expect(lock).toMatchObject({ scope: 'staging', holder: DEMO_USER, renewed: false });
    expect(lock.lockId).toMatch(/^[0-9a-f]{12}$/);
    expect(await client.locks.status('staging')).toMatchObject({ scope: 'staging', held: true, lockId: lock.lockId, holder: DEMO_USER, reason: 'release train' });

    // The CLI's acquire of the same scope is refused, naming the library's holder.
    const cli = await h.ahs(['lock', 'acquire', 'staging']);
    expect(cli.exitCode).toBe(12);
    expect(cli.stderr).toContain(`lock id ${lock.lockId}`);

    const before = await h.records(id);
    const planned = await client.promoteDefault({ assetId: id, versionId: v2, platform: 'ios', envId: 'staging' });
    const refused = await rejection(planned.apply());
    expect(refused).toBeInstanceOf(BlockedError);
    expect(refused).toMatchObject({ exitCode: 12, blockedBy: 'lock', kind: 'blocked' });
    expect((refused as Error).message).toMatch(/^staging is locked: held by .*lock id [0-9a-f]{12}.*reason: release train/);
    expect(await h.records(id)).toEqual(before);

    const mine = await client.promoteDefault({ assetId: id, versionId: v2, platform: 'ios', envId: 'staging' }, { lockId: lock.lockId });
    await mine.apply();
    expect(await h.records(id)).toEqual([`ios/staging/${v1}=LIVE`, `ios/staging/${v2}=DEFAULT`]);

    expect(await client.locks.release({ scope: 'staging', lockId: lock.lockId })).toEqual({ scope: 'staging', released: true, lockId: lock.lockId });
    expect(await client.locks.status('staging')).toMatchObject({ held: false });
    // Released: a second release says so, and acquiring works again; break ends it with a reason.
    expect(await client.locks.release({ scope: 'staging', lockId: lock.lockId })).toMatchObject({ released: false });
    const again = await client.locks.acquire({ scope: `${id}/ios/staging` });
    expect(await client.locks.break({ scope: `${id}/ios/staging`, reason: 'the job was cancelled' })).toEqual({ scope: `${id}/ios/staging`, broken: true, lockId: again.lockId, holder: DEMO_USER });
  });

  it('an environment lock is seen by a channel lock inside it, and a channel lock by the environment\'s', async () => {
    const { id } = await channel('dev');
    const env = await client.locks.acquire({ scope: 'dev' });
    const inside = await rejection(client.locks.acquire({ scope: `${id}/ios/dev` }));
    expect(inside).toBeInstanceOf(BlockedError);
    expect((inside as Error).message).toContain(`dev is locked: held by ${DEMO_USER}`);
    expect((inside as Error).message).toContain(`lock id ${env.lockId}`);
    await client.locks.release({ scope: 'dev', lockId: env.lockId });

    const channelLock = await client.locks.acquire({ scope: `${id}/ios/dev` });
    const outside = await rejection(client.locks.acquire({ scope: 'dev' }));
    expect(outside).toBeInstanceOf(BlockedError);
    expect((outside as Error).message).toContain(`${id}/ios/dev is locked: held by ${DEMO_USER}`);
    expect((outside as Error).message).toContain(`lock id ${channelLock.lockId}`);
    // Neither was left holding anything: dev is free once the channel's lock is released.
    expect(await client.locks.status('dev')).toMatchObject({ held: false });
    await client.locks.release({ scope: `${id}/ios/dev`, lockId: channelLock.lockId });
    const free = await client.locks.acquire({ scope: 'dev' });
    await client.locks.release({ scope: 'dev', lockId: free.lockId });
  });

  it('bad parameters are a UsageError naming them', async () => {
    await expect(client.locks.acquire({ scope: 'a b' })).rejects.toThrow(UsageError);
    await expect(client.locks.acquire({ scope: 'a b' })).rejects.toThrow(/is not a scope: give an environment/);
    await expect(client.locks.break({ scope: 'prod', reason: '' })).rejects.toThrow(/locks.break: reason is required/);
    await expect(client.locks.release({ scope: 'prod' } as never)).rejects.toThrow(/locks.release: lockId is required/);
  });
});

describe('client.freezes and client.versions.block', () => {
  it('a freeze refuses a library write (BlockedError naming it); breakGlass lets one through; remove lifts it', async () => {
    const { id, v1, v2 } = await channel('prod');
    const set = await client.freezes.set({ envId: 'prod', forMs: 3_600_000, reason: 'launch' });
    expect(set).toMatchObject({ env: 'prod', until: expect.any(String) });
    const listed = await client.freezes.list();
    expect(listed.find((f) => f.env === 'prod')).toMatchObject({ active: true, actor: DEMO_USER, reason: 'launch' });

    const refused = await rejection((await client.deploy({ assetId: id, versionId: v1, platform: 'ios', envId: 'prod', state: 'OFFLINE' })).apply());
    expect(refused).toBeInstanceOf(BlockedError);
    expect(refused).toMatchObject({ blockedBy: 'freeze', until: set.until });
    expect((refused as Error).message).toMatch(/^prod is frozen \(until .*\) by .*: launch; frozen until/);

    const through = await client.promoteDefault({ assetId: id, versionId: v2, platform: 'ios', envId: 'prod' }, { breakGlass: { reason: 'hotfix INC-7' } });
    await through.apply();
    expect(await h.records(id)).toEqual([`ios/prod/${v1}=LIVE`, `ios/prod/${v2}=DEFAULT`]);

    expect(await client.freezes.remove({ envId: 'prod' })).toMatchObject({ env: 'prod', removed: [set.versionId] });
    expect((await client.freezes.list()).some((f) => f.env === 'prod')).toBe(false);
    await expect(client.freezes.set({ envId: 'prod', reason: 'x' })).rejects.toThrow(/a freeze needs exactly one of until, forMs and weekly/);
  });

  it('a blocked version is refused by a library promotion, naming who and why; accepted after unblock', async () => {
    const { id, v1, v2 } = await channel('dev');
    const blocked = await client.versions.block({ assetId: id, versionId: v2, reason: 'crash on start (INC-42)', envId: 'dev' });
    expect(blocked).toMatchObject({ assetId: id, versionId: v2, blocked: true, existed: false });
    const refused = await rejection((await client.promoteDefault({ assetId: id, versionId: v2, platform: 'ios', envId: 'dev' })).apply());
    expect(refused).toBeInstanceOf(BlockedError);
    expect(refused).toMatchObject({ blockedBy: 'version' });
    expect((refused as Error).message).toContain(`version ${v2} of ${id} is blocked by ${DEMO_USER}`);
    expect((refused as Error).message).toContain('crash on start (INC-42)');
    expect(await h.records(id)).toEqual([`ios/dev/${v1}=DEFAULT`, `ios/dev/${v2}=LIVE`]);
    expect(await client.versions.unblock({ assetId: id, versionId: v2 })).toEqual({ assetId: id, versionId: v2, unblocked: true });
    await (await client.promoteDefault({ assetId: id, versionId: v2, platform: 'ios', envId: 'dev' })).apply();
    expect(await h.records(id)).toEqual([`ios/dev/${v1}=LIVE`, `ios/dev/${v2}=DEFAULT`]);
  });
});
