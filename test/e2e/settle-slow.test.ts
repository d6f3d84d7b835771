// A deploy whose answer times out while the service is still deploying
// (issue 30): never reported "not applied" or "safe to retry"; the outcome
// agrees with the emulator's state once the deployment lands. A file of its
// own (settle.test.ts has the rest), so that its waits on a 4 s deployment
// run beside the other files; its three tests wait at the same time
// (describe.concurrent: one asset each, so they share nothing but the
// emulator), ~4.5 s in all instead of ~13 s one after the other (issue 34).
// Beside them, on an emulator of its own, concurrent promotions of one
// channel mid-deployment (from settle.test.ts), whose contention backoff
// (~4.5 s) is a wait too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { assertBuiltFromSources, harness, uid, DEMO_API_KEY, DEMO_USER, ROOT, type Harness } from './helpers.js';
import { DEMO_FIXTURE } from '../../src/emulator/fixture.js';
import type * as Library from '../../src/library/index.js';

describe.concurrent('a deploy whose answer times out while the service is still deploying', () => {
  let slow: Harness;
  beforeAll(async () => {
    slow = await harness({ config: { ...DEMO_FIXTURE, deployDelayMs: 4000 } });
  });
  afterAll(async () => slow?.close());

  async function oneSlowVersion() {
    const id = uid('slow');
    await slow.createAsset(id);
    return { id, v: await slow.uploadVersion(id, 'ios') };
  }

  /** The channel's records once the deployment in progress has ended (the emulator's state, polled over HTTP every 50 ms, not in a busy loop). */
  async function settledRecords(id: string, expected: string[]): Promise<string[]> {
    for (;;) {
      const records = await slow.records(id);
      if (JSON.stringify(records) === JSON.stringify(expected)) return records;
      await delay(50);
    }
  }

  it('--timeout 1: no read shows it within the re-reads: exit 6, unknown, naming the command that checks; the deployment then lands', async () => {
    const { id, v } = await oneSlowVersion();
    const run = await slow.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'dev', '--timeout', '1', '--json']);
    expect(run.exitCode, run.stderr).toBe(6);
    const error = run.errJson();
    expect(error).toMatchObject({ type: 'urn:ahs:unknown-outcome', status: null });
    const check = `ahs asset status ${id} --platform ios --env dev`;
    expect(error.detail).toContain(`the write may have been applied: check with \`${check}\``);
    expect(run.stderr).not.toMatch(/safe to retry|not applied|try again/);
    // The outcome said is "unknown", and the service does finish the deployment: the two agree.
    expect(await settledRecords(id, [`ios/dev/${v}=LIVE`])).toEqual([`ios/dev/${v}=LIVE`]);
    const checked = await slow.ahs(check.split(' ').slice(1).concat('--json'));
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(checked.json().results).toMatchObject([{ versionId: v, state: 'LIVE' }]);
  });

  it('--timeout 3: a re-read within --timeout shows the deployment done: exit 0, reported applied, sent once', async () => {
    const { id, v } = await oneSlowVersion();
    const run = await slow.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'dev', '--timeout', '3', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ assetVersion: { versionId: v, state: 'LIVE' } });
    expect(run.stderr).toMatch(/the answer was lost, but a read confirms the write was applied \(the channel .* shows .* LIVE\)/);
    expect(await slow.records(id)).toEqual([`ios/dev/${v}=LIVE`]);
  });

  it('the library: the deploy rejects with OutcomeUnknownError (mayHaveApplied, exit 6), never "not applied"', async () => {
    assertBuiltFromSources(join(ROOT, 'dist', 'lib.mjs'), 'npm run build', 'npm test');
    const lib = (await import(pathToFileURL(join(ROOT, 'dist', 'lib.mjs')).href)) as typeof Library;
    const client = lib.createClient({ baseUrl: slow.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, timeoutMs: 1000 });
    try {
      const { id, v } = await oneSlowVersion();
      // The library's code loaded first, by a dry run of the same deploy (reads only) with the default budget: after
      // another file in this worker (isolate: false), vitest's module runner loads dist's chunks on the first call, and
      // on a loaded machine that kept even a GET of the emulator in this process unanswered for 1 s. The 1 s below is
      // for the service's answer.
      const warm = lib.createClient({ baseUrl: slow.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER });
      await (await warm.deploy({ assetId: id, versionId: v, platform: 'ios', envId: 'dev' })).predict().finally(() => warm.close());
      const error = await (await client.deploy({ assetId: id, versionId: v, platform: 'ios', envId: 'dev' })).apply().then(
        () => undefined,
        (e: unknown) => e as InstanceType<typeof lib.OutcomeUnknownError>,
      );
      expect(error).toBeInstanceOf(lib.OutcomeUnknownError);
      expect(error).toMatchObject({ mayHaveApplied: true, exitCode: 6, kind: 'network' });
      expect(error!.toBody().type).toBe('urn:ahs:unknown-outcome');
      expect(error!.message).not.toMatch(/safe to retry|not applied/);
      expect(await settledRecords(id, [`ios/dev/${v}=LIVE`])).toEqual([`ios/dev/${v}=LIVE`]);
    } finally {
      await client.close();
    }
  });
});

describe.concurrent('concurrent promotions of one channel, the emulator mid-deployment for a while', () => {
  it('10 at once: each ends 0 or 5 (never 1), and the channel has one Default', async () => {
    const slow = await harness({ config: { ...DEMO_FIXTURE, deployDelayMs: 30 } });
    try {
      const id = uid('race');
      await slow.createAsset(id);
      const versions: string[] = [];
      for (let i = 0; i < 10; i++) {
        const v = await slow.uploadVersion(id, 'ios', `1.${i}`);
        versions.push(v);
        const live = await slow.deploy(id, v, 'ios', 'prod', 'LIVE');
        expect(live.status).toBe(201);
      }
      const runs = await Promise.all(versions.map((v) => slow.ahs(['promote-default', id, v, '--platform', 'ios', '--env', 'prod'])));
      for (const run of runs) expect([0, 5], run.stderr).toContain(run.exitCode);
      expect(runs.some((run) => run.exitCode === 0)).toBe(true);
      expect((await slow.records(id)).filter((r) => r.endsWith('=DEFAULT'))).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});
