// What a rollout reads (src/operations/rollout.ts's read, readEntries,
// entriesOf, inFlight, succeededBy, rolloutOf), below the commands: a real
// run context over the emulator on port 0 whose API client records each
// request (test/support/scripted-client.ts). Two kinds of rows: the
// requests a status, plan's line or a run's first reads send (cli.md:
// "rollout status in at most 8 requests whatever the journal's size";
// change control "at most one round, sent beside its first reads"), and
// what another rollout's entries in the same journal decide (another
// version of the asset and platform: in flight or not, taking over a wave
// or not). Each row asserts the document or the requests, and the
// channels where a run wrote.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, uid, type Harness } from '../e2e/helpers.js';
import { ENVS, seededRollout, waveDefaults } from '../e2e/rollout-fixture.js';
import { runContexts, type RunContext } from '../support/run-contexts.js';
import type { RequestOptions } from '../../src/http/client.js';
import type { GlobalOptions } from '../../src/options.js';
import { abortRollout, rolloutStanding, rolloutStatus, startRollout, type RolloutOptions, type RolloutResult } from '../../src/operations/rollout.js';
import type { RolloutField } from '../../src/service/rollout-journal.js';
import { recordRolloutEvent } from '../../src/plan/journal-record.js';
import { scripted, type Hook, type Scripted } from '../support/scripted-client.js';

const runs = runContexts('rollout-reads');
let h: Harness;
let journal: string;
beforeAll(async () => {
  h = runs.h;
  journal = uid('jr');
  const init = await h.ahs(['journal', 'init', journal, '--env', 'dev']);
  expect(init.exitCode, init.stderr).toBe(0);
});

type Through = RunContext & { client: Scripted };

/** A run's context with the journal whose API client goes through `hook` and records what it sends. */
async function through(hook: Hook = (_request, send) => send(), globals: GlobalOptions = {}): Promise<Through> {
  const ctx = await runs.context({ AHS_JOURNAL: journal }, globals, { command: 'rollout start', arguments: [] });
  const client = scripted(await ctx.api(), hook);
  return { ...ctx, api: async () => client, client } as Through;
}

/** A request as `GET /va/ID/asset-urls envId=dev state=DEFAULT` (the domain's prefix, the paging and the range's start left out). */
function said(request: RequestOptions): string {
  const query = Object.entries(request.query ?? {}).filter(([key, value]) => value !== undefined && (key === 'envId' || key === 'state'));
  return [`${request.method} ${request.path.replace(/^\/api\/v2\/demo/, '')}`, ...query.map(([key, value]) => `${key}=${String(value)}`)].join(' ');
}

const options = (assetId: string, versionId: string, extra: Partial<RolloutOptions> = {}): RolloutOptions => ({ assetId, versionId, platform: 'web', waves: ENVS, user: DEMO_USER, ...extra });
const defaults = (id: string) => waveDefaults(h, id);
const stopOf = (result: RolloutResult) => (result.stop ? { type: result.stop.constructor.name, exitCode: result.stop.exitCode } : undefined);

/** Another run's entry (another ahs, or a run killed after it), a second after the newest. */
async function entry(field: RolloutField): Promise<void> {
  h.emu.advanceClock(1000);
  expect(await recordRolloutEvent(await through(), journal, field)).toBe(true);
  h.emu.advanceClock(1000);
}

/** `version` made the Default of `env` by hand (no rollout's entry), `from` being the Default there. */
async function byHand(id: string, version: string, env: string, from: string): Promise<void> {
  expect((await h.deploy(id, version, 'web', env, 'LIVE')).status).toBeLessThan(300);
  expect((await h.deploy(id, version, 'web', env, 'DEFAULT', { currentVersionId: from, currentAssetIntent: 'LIVE' })).status).toBe(201);
}

describe('rollout status: its requests (at most 8, whatever the journal holds)', () => {
  const control = 'GET /va/ahs-control/versions';
  const listing = (j: string) => [`GET /vc/${j}/items`, `GET /vc/${j}`];
  type Row = [string, () => Promise<{ ctx: Through; result: RolloutResult | string; expected: string[]; next?: unknown }>];
  const rows: Row[] = [
    [
      'a rollout under way: the version, the Defaults\' listing, the journal; no record of the version per wave, no wave read again, no other upload',
      async () => {
        const { id, v2 } = await seededRollout(h);
        expect((await startRollout(await through(), options(id, v2, { approve: ['prod'] }))).document.promoted).toEqual(['dev', 'staging']);
        const ctx = await through();
        const result = await rolloutStatus(ctx, options(id, v2, { approve: ['prod'] }));
        return { ctx, result, expected: [control, `GET /va/${id}/versions/${v2}`, `GET /va/${id}/asset-urls state=DEFAULT`, ...listing(journal)], next: { action: 'wait', for: 'approval', env: 'prod' } };
      },
    ],
    [
      'plan\'s line of it: the same reads, without change control\'s',
      async () => {
        const { id, v2 } = await seededRollout(h);
        expect((await startRollout(await through(), options(id, v2, { approve: ['prod'] }))).document.promoted).toEqual(['dev', 'staging']);
        const ctx = await through();
        const result = await rolloutStanding(ctx, ctx.client, { assetId: id, versionId: v2, platform: 'web' }, { waves: ENVS, approve: ['prod'] });
        expect(result).toBe('dev done, staging done, prod waiting-approval: prod waits for approval: run with --approved prod');
        return { ctx, result, expected: [`GET /va/${id}/versions/${v2}`, `GET /va/${id}/asset-urls state=DEFAULT`, ...listing(journal)] };
      },
    ],
    [
      'a hotfix while another rollout is in flight: the Defaults\' uploads, then one listing for both rollouts',
      async () => {
        const { id, v1, v2 } = await seededRollout(h);
        const v3 = await h.uploadVersion(id, 'web', '3.0');
        await startRollout(await through(), options(id, v2, { approve: ['prod'] }));
        const ctx = await through();
        const result = await rolloutStatus(ctx, options(id, v3));
        return { ctx, result, expected: [control, `GET /va/${id}/versions/${v3}`, `GET /va/${id}/asset-urls state=DEFAULT`, `GET /va/${id}/versions/${v2}`, `GET /va/${id}/versions/${v1}`, ...listing(journal)], next: { action: 'blocked', by: { version: v2, state: 'dev done, staging done, prod pending', waves: ENVS } } };
      },
    ],
    [
      'a hotfix whose first wave has no Default yet: nothing read of it',
      async () => {
        const { id, v1, v2 } = await seededRollout(h);
        const v3 = await h.uploadVersion(id, 'web', '3.0');
        await startRollout(await through(), options(id, v2, { approve: ['prod'] }));
        const ctx = await through();
        const result = await rolloutStatus(ctx, options(id, v3, { waves: ['qa', ...ENVS] }));
        return { ctx, result, expected: [control, `GET /va/${id}/versions/${v3}`, `GET /va/${id}/asset-urls state=DEFAULT`, `GET /va/${id}/versions/${v2}`, `GET /va/${id}/versions/${v1}`, ...listing(journal)], next: { action: 'blocked', by: { version: v2, state: 'dev done, staging done, prod pending', waves: ENVS } } };
      },
    ],
    [
      'a hotfix over the in-flight rollout\'s first two waves: the listing starts where that rollout\'s range does, read once',
      async () => {
        const { id, v2 } = await seededRollout(h);
        const v3 = await h.uploadVersion(id, 'web', '3.0');
        await startRollout(await through(), options(id, v2, { approve: ['prod'] }));
        const ctx = await through();
        const result = await rolloutStatus(ctx, options(id, v3, { waves: ['dev', 'staging'] }));
        return { ctx, result, expected: [control, `GET /va/${id}/versions/${v3}`, `GET /va/${id}/asset-urls state=DEFAULT`, `GET /va/${id}/versions/${v2}`, ...listing(journal)], next: { action: 'blocked', by: { version: v2, state: 'dev done, staging done, prod pending', waves: ENVS } } };
      },
    ],
    [
      'a rollout superseded on a wave: that wave\'s channel read again (its Default, the version\'s record there; not the version again)',
      async () => {
        const { id, v1, v2 } = await seededRollout(h);
        const v3 = await h.uploadVersion(id, 'web', '3.0');
        await startRollout(await through(), options(id, v2, { approve: ['prod'] }));
        expect((await startRollout(await through(), options(id, v3, { waves: ['dev'], supersede: true }))).document.promoted).toEqual(['dev']);
        expect(await defaults(id)).toEqual([v3, v2, v1]);
        const ctx = await through();
        const result = await rolloutStatus(ctx, options(id, v2, { approve: ['prod'] }));
        return {
          ctx,
          result,
          expected: [control, `GET /va/${id}/versions/${v2}`, `GET /va/${id}/asset-urls state=DEFAULT`, ...listing(journal), `GET /va/${id}/asset-urls envId=dev state=DEFAULT`, `GET /va/${id}/versions/${v2}/asset-urls envId=dev`],
          next: { action: 'superseded', version: v3, by: DEMO_USER, at: expect.any(String) },
        };
      },
    ],
  ];
  it.each(rows)('%s', async (_name, make) => {
    const { ctx, result, expected, next } = await make();
    expect(ctx.client.sent.map(said)).toEqual(expected);
    expect(expected.length).toBeLessThanOrEqual(8);
    if (next !== undefined) expect((result as RolloutResult).document.next).toEqual(next);
  });
});

describe('rollout start: its first reads', () => {
  it('one round: the version\'s record on each wave and each wave\'s OFFLINE records, all sent before any answer (a wave where it is LIVE too)', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    expect((await h.deploy(id, v2, 'web', 'dev', 'LIVE')).status).toBe(201);
    let answered = 0;
    const early: string[] = [];
    const ctx = await through(async (request, send) => {
      if (answered === 0) early.push(said(request));
      const answer = await send();
      answered += 1;
      return answer;
    }, { dryRun: true });
    const r = await startRollout(ctx, options(id, v2));
    expect(r.document.next).toEqual({ action: 'promote', env: 'dev' });
    for (const env of ENVS) expect(early).toEqual(expect.arrayContaining([`GET /va/${id}/versions/${v2}/asset-urls envId=${env}`, `GET /va/${id}/asset-urls envId=${env} state=OFFLINE`]));
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });

  it('change control\'s reads are of the wave it promotes next (not a wave done), sent before the journal\'s listing; none after', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    expect((await startRollout(await through(), options(id, v2, { waves: ['dev'] }))).stop).toBeUndefined();
    const ctx = await through();
    const r = await startRollout(ctx, options(id, v2, { waves: ['dev', 'staging'] }));
    expect(r.document.promoted).toEqual(['staging']);
    const sent = ctx.client.sent.map(said);
    const firstListing = sent.indexOf(`GET /vc/${journal}/items`);
    const controlReads = sent.flatMap((line, i) => (line.startsWith('GET /va/ahs-control') ? [i] : []));
    expect(controlReads.length).toBeGreaterThan(0);
    expect(controlReads.filter((i) => i > firstListing)).toEqual([]);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
  });
});

describe('another rollout\'s entries in the same journal', () => {
  it('a rollout whose run wrote its intent (its promotion not recorded yet) has started: another version\'s rollout in flight does not block it', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    expect((await startRollout(await through(), options(id, v2, { approve: ['prod'] }))).document.promoted).toEqual(['dev', 'staging']);
    // v3's run wrote its intent for dev and promoted it (v3 superseding there), then was killed before its entry.
    await entry({ asset: id, version: v3, platform: 'web', waves: ['dev'], wave: 'dev', action: 'intent', previousDefault: v2, run: 'a-killed-run' });
    await byHand(id, v3, 'dev', v2);
    const r = await rolloutStatus(await through(), options(id, v3, { waves: ['dev', 'staging'] }));
    expect(r.document.next).toEqual({ action: 'promote', env: 'staging' });
    expect(r.stop).toBeUndefined();
    expect(await defaults(id)).toEqual([v3, v2, v1]);
  });

  it('its own version already the Default of a wave (made by hand) is no other rollout: a halted rollout says halted, not blocked by itself', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    await byHand(id, v2, 'dev', v1);
    const halted = await startRollout(await through(), options(id, v2, { check: '[ "$AHS_ROLLOUT_ENV" != staging ]' }));
    expect(stopOf(halted)).toEqual({ type: 'PartialFailureError', exitCode: 1 });
    const r = await rolloutStatus(await through(), options(id, v2));
    expect(r.document.next).toMatchObject({ action: 'halt', env: 'staging', reason: 'check' });
    expect(stopOf(r)).toEqual({ type: 'PartialFailureError', exitCode: 1 });
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  const after: Array<[string, RolloutField['action']]> = [
    ['a LIVE deploy recorded alone (an inconclusive check)', 'live'],
    ['an intent (a run killed before its promotion)', 'intent'],
  ];
  it.each(after)('the rollout in flight halted, %s newer than its halt: still halted, as the blocked rollout says', async (_name, action) => {
    const { id, v1, v2 } = await seededRollout(h);
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    const halted = await startRollout(await through(), options(id, v2, { check: '[ "$AHS_ROLLOUT_ENV" != staging ]' }));
    expect(stopOf(halted)?.exitCode).toBe(1);
    await entry({ asset: id, version: v2, platform: 'web', waves: ENVS, wave: 'staging', action, previousDefault: v1, ...(action === 'intent' ? { run: 'a-killed-run' } : {}) });
    const r = await rolloutStatus(await through(), options(id, v3));
    expect(r.document.next).toEqual({ action: 'blocked', by: { version: v2, state: 'dev done, staging pending, prod pending (halted by a failed check on staging)', waves: ENVS } });
    expect(stopOf(r)).toEqual({ type: 'BlockedError', exitCode: 12 });
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('an aborted rollout whose wave the next version\'s rollout promoted since: still aborted, not superseded', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    const dev = { waves: ['dev'] };
    expect((await startRollout(await through(), options(id, v2, dev))).document.promoted).toEqual(['dev']);
    expect((await abortRollout(await through(), options(id, v2, dev))).document.restored).toEqual(['dev']);
    expect((await startRollout(await through(), options(id, v3, dev))).document.promoted).toEqual(['dev']);
    const r = await rolloutStatus(await through(), options(id, v2, dev));
    expect(r.document.next).toEqual({ action: 'aborted' });
    expect(r.document.waves.map((w) => w.state)).toEqual(['aborted']);
    expect(r.stop).toBeUndefined();
    expect(await defaults(id)).toEqual([v3, v1, v1]);
  });

  // dev promoted by this rollout, then made v3's Default by hand: superseded only when v3's own rollout promoted dev after this one did.
  type Theirs = { before?: Partial<RolloutField>; since?: Partial<RolloutField> };
  const theirs: Array<[string, 'moved' | 'superseded', Theirs]> = [
    ['its promotion of dev since', 'superseded', { since: { wave: 'dev', action: 'promote' } }],
    ['its promotion of dev before this rollout\'s', 'moved', { before: { wave: 'dev', action: 'promote' } }],
    ['its promotion of another wave since', 'moved', { since: { wave: 'staging', action: 'promote' } }],
    ['its intent on dev since, no promotion', 'moved', { since: { wave: 'dev', action: 'intent', run: 'a-killed-run' } }],
  ];
  it.each(theirs)('another version\'s rollout with %s: this one is %s there', async (_name, outcome, entries) => {
    const { id, v1, v2 } = await seededRollout(h);
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    const field = (extra: Partial<RolloutField>): RolloutField => ({ asset: id, version: v3, platform: 'web', waves: ['dev', 'staging'], wave: 'dev', action: 'promote', previousDefault: v1, ...extra });
    if (entries.before) await entry(field(entries.before));
    expect((await startRollout(await through(), options(id, v2, { waves: ['dev'] }))).document.promoted).toEqual(['dev']);
    if (entries.since) await entry(field(entries.since));
    await byHand(id, v3, 'dev', v2);
    const r = await rolloutStatus(await through(), options(id, v2, { waves: ['dev'] }));
    if (outcome === 'superseded') {
      expect(r.document.next).toEqual({ action: 'superseded', version: v3, by: DEMO_USER, at: expect.any(String) });
      expect(stopOf(r)).toEqual({ type: 'BlockedError', exitCode: 12 });
    } else {
      expect(r.document.next).toEqual({ action: 'halt', env: 'dev', found: v3 });
      expect(stopOf(r)).toEqual({ type: 'ConflictError', exitCode: 5 });
    }
    expect(await defaults(id)).toEqual([v3, v1, v1]);
  });
});
