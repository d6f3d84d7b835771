// Rollouts (src/operations/rollout.ts) against a service that answers
// otherwise than the emulator does by itself, below the commands: a real
// run context over the emulator on port 0 whose API client and delivery
// clients go through a hook that sees each request first and may answer in
// the service's place, send another in its place, or do another run's write
// before sending it (test/unit/journal-store.test.ts's "the journal against
// a service that answers otherwise"). Each row asserts the answer (the
// document, how the run stops, its exit code and message), what the run
// said, and the channels or journal entries afterwards.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, uid, type Harness } from '../e2e/helpers.js';
import { ENVS, seededRollout, waveDefaults } from '../e2e/rollout-fixture.js';
import { runContexts, type RunContext } from '../support/run-contexts.js';
import type { ApiClient, RawResponse, RequestOptions } from '../../src/http/client.js';
import type { GlobalOptions } from '../../src/options.js';
import { ApiError, CancelledError, NetworkError } from '../../src/errors.js';
import { abortRollout, rolloutStatus, runCheck, startRollout, type RolloutOptions, type RolloutResult } from '../../src/operations/rollout.js';
import { rolloutEntries } from '../../src/service/rollout-journal.js';
import { acquireLock, releaseHeld } from '../../src/service/change-control.js';
import { recordRolloutEvent } from '../../src/plan/journal-record.js';
import { failure } from '../support/failure.js';
import { lines, scripted, type Hook } from '../support/scripted-client.js';

const runs = runContexts('rollout-faults');
let h: Harness;
let journal: string;
beforeAll(async () => {
  h = runs.h;
  journal = uid('jr');
  const init = await h.ahs(['journal', 'init', journal, '--env', 'dev']);
  expect(init.exitCode, init.stderr).toBe(0);
});

type DeliveryHook = (request: RequestOptions, send: (instead?: RequestOptions) => Promise<RawResponse>) => Promise<RawResponse>;
const pass: Hook = (_request, send) => send();

type Through = RunContext & {
  /** Each request sent to the API, in order, as `GET /va/ID/asset-urls` (the domain's prefix left out). */
  sent: string[];
};

/** A run's context (the journal on or off) whose API client goes through `hook` and whose delivery clients through `onDelivery`. */
async function through(hook: Hook = pass, options: { journal?: boolean; globals?: GlobalOptions; onDelivery?: DeliveryHook; signal?: AbortSignal } = {}): Promise<Through> {
  const ctx = await runs.context({ AHS_JOURNAL: options.journal === false ? '' : journal }, options.globals ?? {}, { command: 'rollout start', arguments: [] }, options.signal);
  const client = scripted(await ctx.api(), hook);
  const onDelivery = options.onDelivery;
  const deliveryClient = async (base: string, connections?: number) => {
    const real = await ctx.deliveryClient(base, connections);
    if (!onDelivery) return real;
    const hooked = Object.create(real) as ApiClient;
    hooked.send = ((request: RequestOptions) => onDelivery(request, (instead = request) => real.send(instead))) as ApiClient['send'];
    return hooked;
  };
  return { ...ctx, api: async () => client, deliveryClient, get sent() { return lines(client); } } as Through;
}

const options = (assetId: string, versionId: string, extra: Partial<RolloutOptions> = {}): RolloutOptions => ({ assetId, versionId, platform: 'web', waves: ENVS, user: DEMO_USER, ...extra });
const abortLine = (id: string, v: string) => `ahs rollout abort ${id} ${v} --platform web --waves dev,staging,prod`;
const defaults = (id: string) => waveDefaults(h, id);
const stopOf = (result: RolloutResult) => (result.stop ? { type: result.stop.constructor.name, exitCode: result.stop.exitCode, message: result.stop.message } : undefined);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A deploy of `env` with this intent (the promotion: DEFAULT). */
const isDeploy = (r: RequestOptions, env: string, intent: 'LIVE' | 'DEFAULT') => r.method === 'POST' && r.path.endsWith('/deploy') && (r.body as { envId?: string; intent?: string } | undefined)?.envId === env && (r.body as { intent?: string }).intent === intent;
const isAppend = (r: RequestOptions) => r.method === 'POST' && r.path.endsWith(`/vc/${journal}/items`);
const refusal = (status: number, title: string) => new ApiError(status, { type: 'about:blank', title, status, detail: title });

/** A version of the asset with these bytes (the seeded ones are all `payload`), LIVE on `env` when given: served at its own URL. */
async function versionWith(id: string, content: string, env?: string): Promise<string> {
  const form = new FormData();
  form.set('versionName', 'other bytes');
  form.set('createdBy', DEMO_USER);
  form.set('assetFile', new Blob([content]), 'bundle.zip');
  const r = await h.call('POST', `/va/${id}/versions?targetPlatformId=web`, form);
  expect(r.status).toBe(201);
  const versionId = r.body.versionId as string;
  if (env) expect((await h.deploy(id, versionId, 'web', env, 'LIVE')).status).toBe(201);
  return versionId;
}

/** The rollout's journal entries of `wave`, newest first, as `[action, previousDefault]`. */
async function entriesOf(id: string, v: string, wave: string): Promise<Array<[string, string | null | undefined]>> {
  const all = await rolloutEntries(await runs.context({ AHS_JOURNAL: journal }), journal, { asset: id, version: v, platform: 'web' }, new Date(Date.now() - 24 * 3_600_000));
  return all.filter((e) => e.rollout.wave === wave).map((e) => [e.rollout.action, e.rollout.previousDefault]);
}

describe('rollout start: what is served, verified after each promotion', () => {
  it('a wave whose record has no download URL: exit 2 naming the channel and the record\'s state; the promotion stands', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    let promoted = false;
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'dev', 'DEFAULT')) promoted = true;
      const answer = (await send()) as { results?: Array<Record<string, unknown>> };
      if (!promoted || request.method !== 'GET' || !request.path.endsWith(`/versions/${v2}/asset-urls`)) return answer;
      return { ...answer, results: answer.results!.map(({ downloadUrl: _, ...record }) => record) };
    });
    const r = await startRollout(ctx, options(id, v2));
    expect(stopOf(r)).toEqual({ type: 'UsageError', exitCode: 2, message: `${v2} has no download URL on ${id}/web/dev (DEFAULT)` });
    expect(r.document.promoted).toEqual(['dev']);
    expect(r.document.next).toEqual({ action: 'promote', env: 'staging' });
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('a wave whose record the service no longer lists: exit 2, "not deployed"', async () => {
    const { id, v2 } = await seededRollout(h);
    let promoted = false;
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'dev', 'DEFAULT')) promoted = true;
      const answer = (await send()) as { results?: unknown[] };
      if (!promoted || request.method !== 'GET' || !request.path.endsWith(`/versions/${v2}/asset-urls`)) return answer;
      return { ...answer, results: [], totalResults: 0 };
    });
    const r = await startRollout(ctx, options(id, v2, { waves: ['dev'] }));
    expect(stopOf(r)).toEqual({ type: 'UsageError', exitCode: 2, message: `${v2} has no download URL on ${id}/web/dev (not deployed)` });
  });

  const unread: Array<[string, number, DeliveryHook, RegExp]> = [
    ['answered 404', 1, (request, send) => send({ ...request, path: request.path.replace(/\/WEB\d+\//, '/WEB404/') }), /\(.*404.*\)/],
    ['lost on the network', 6, () => Promise.reject(new NetworkError('the connection was reset')), /\(.*the connection was reset.*\)/],
  ];
  it.each(unread)('a download %s: the promotion stands, the run halts (exit %s) with the abort that puts it back', async (_name, exitCode, onDelivery, why) => {
    const { id, v1, v2 } = await seededRollout(h);
    const ctx = await through(pass, { journal: false, onDelivery });
    const r = await startRollout(ctx, options(id, v2));
    expect(stopOf(r)).toMatchObject({ type: 'PartialFailureError', exitCode });
    expect(r.stop!.message).toMatch(new RegExp(`^${v2} on dev: what is served could not be read `));
    expect(r.stop!.message).toMatch(why);
    expect(r.stop!.message.endsWith(`; the promotion stands: check with ahs verify, or abort: ${abortLine(id, v2)}`)).toBe(true);
    expect(r.document.promoted).toEqual(['dev']);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('a wave that serves other bytes than the version\'s size: halted (exit 1, a mismatch), the next wave untouched', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const longer = await versionWith(id, 'payload, but longer', 'dev');
    const r = await startRollout(await through(pass, { journal: false, onDelivery: (request, send) => send({ ...request, path: request.path.replace(`/${v2}/`, `/${longer}/`) }) }), options(id, v2));
    const text = `${v2} on dev is not what was uploaded: 19 bytes served, the version's size is 7 B; halted: to put back the waves this rollout promoted: ${abortLine(id, v2)}`;
    expect(stopOf(r)).toEqual({ type: 'PartialFailureError', exitCode: 1, message: text });
    expect(r.stop!.toBody()).toMatchObject({ type: 'urn:ahs:mismatch', title: text, detail: text });
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('a later wave that serves other bytes of the same size: halted naming both digests; the earlier wave read by a later run is the reference', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const other = await versionWith(id, 'PAYLOAD', 'staging');
    const swap = (env: string, to: string): DeliveryHook => (request, send) => send({ ...request, path: request.path.replace(`/web/${env}/${v2}/`, `/web/${env}/${to}/`) });
    const r = await startRollout(await through(pass, { journal: false, onDelivery: swap('staging', other) }), options(id, v2));
    expect(stopOf(r)).toEqual({ type: 'PartialFailureError', exitCode: 1, message: `${v2} on staging is not what was uploaded: SHA-256 ${sha256('PAYLOAD')}, while dev serves ${sha256('payload')}; halted: to put back the waves this rollout promoted: ${abortLine(id, v2)}` });
    expect(r.document.promoted).toEqual(['dev', 'staging']);
    expect(await defaults(id)).toEqual([v2, v2, v1]);

    // The next run promotes prod: dev (the first wave) is its reference, read now, here serving the other bytes.
    await h.deploy(id, other, 'web', 'dev', 'LIVE');
    const ctx = await through(pass, { journal: false, onDelivery: swap('dev', other) });
    const again = await startRollout(ctx, options(id, v2, { waves: ['dev', 'prod'] }));
    expect(stopOf(again)?.message).toBe(`${v2} on prod is not what was uploaded: SHA-256 ${sha256('payload')}, while dev serves ${sha256('PAYLOAD')}; halted: to put back the waves this rollout promoted: ahs rollout abort ${id} ${v2} --platform web --waves dev,prod`);
    // Unaltered, the wave before it is read as the reference and named.
    const { id: id2, v2: w2 } = await seededRollout(h);
    await startRollout(await through(pass, { journal: false }), options(id2, w2, { waves: ['dev'] }));
    const plain = await through(pass, { journal: false });
    expect((await startRollout(plain, options(id2, w2, { waves: ['dev', 'staging'] }))).stop).toBeUndefined();
    expect(plain.io.err.text).toContain(`staging serves ${w2} byte for byte (7 bytes, SHA-256 ${sha256('payload').slice(0, 12)}…, as dev)\n`);
  });
});

describe('rollout start: a promotion the service would refuse', () => {
  it('a version read as inactive: refused before anything is sent (the service\'s 404, exit 4), naming the wave', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const ctx = await through(async (request, send) => {
      const answer = await send();
      return request.method === 'GET' && request.path.endsWith(`/va/${id}/versions/${v2}`) ? { ...(answer as object), active: false } : answer;
    }, { journal: false });
    const r = await startRollout(ctx, options(id, v2));
    expect(stopOf(r)).toEqual({ type: 'PredictedRejection', exitCode: 4, message: `nothing was sent: the service would answer 404: Version ${v2} not found for platform web under Virtual Asset ${id}; the rollout's promotion of dev would be refused` });
    expect(ctx.sent.filter((line) => line.startsWith('POST '))).toEqual([]);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });
});

describe('rollout start: another writer between this run\'s read and its send', () => {
  it('another run promotes the wave first: that run\'s promotion, not this one\'s (recorded as its LIVE deploy only, not verified here); a LIVE deploy made first is not said as this run\'s', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'dev', 'DEFAULT')) expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
      if (isDeploy(request, 'staging', 'LIVE')) expect((await h.deploy(id, v2, 'web', 'staging', 'LIVE')).status).toBe(201);
      return send();
    });
    const r = await startRollout(ctx, options(id, v2, { waves: ['dev', 'staging'] }));
    expect(r.stop).toBeUndefined();
    expect(r.document.promoted).toEqual(['staging']);
    const err = ctx.io.err.text;
    expect(err).toContain(`dev: another run of this rollout promoted ${v2} meanwhile; it records and checks that wave\n`);
    expect(err).not.toContain(`${v2} is now the Default of ${id}/web/dev`);
    expect(err).not.toMatch(/^dev serves/m);
    expect(err).toContain(`${v2} deployed LIVE on ${id}/web/dev\n`);
    expect(err).not.toContain(`${v2} deployed LIVE on ${id}/web/staging\n`);
    expect(err).toContain(`${v2} is now the Default of ${id}/web/staging (previous Default ${v1}, now LIVE)\n`);
    expect(await entriesOf(id, v2, 'dev')).toEqual([['live', v1], ['intent', v1]]);
    expect(await entriesOf(id, v2, 'staging')).toEqual([['promote', v1], ['intent', v1]]);
  });

  it('another writer makes another version the Default first: the compare-and-set does not hold (exit 5), the wave LIVE only, the document read again', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const v3 = await versionWith(id, 'payload', 'dev');
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'dev', 'DEFAULT')) expect((await h.deploy(id, v3, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
      return send();
    });
    const r = await startRollout(ctx, options(id, v2));
    expect(stopOf(r)).toEqual({ type: 'ConflictError', exitCode: 5, message: `dev's Default moved while this rollout was promoting ${v2} there (the compare-and-set did not hold: the Default of ${id}/web/dev is ${v3}, not ${v1} as expected; nothing was written); run the same command again to see where the rollout stands` });
    expect(r.document.promoted).toEqual([]);
    expect(r.document.waves.map((w) => w.state)).toEqual(['next', 'pending', 'pending']);
    expect(await entriesOf(id, v2, 'dev')).toEqual([['live', v1], ['intent', v1]]);
    expect(await defaults(id)).toEqual([v3, v1, v1]);
  });
});

describe('rollout start: a journal that does not take the entry', () => {
  /** Every append to the journal refused (a 403: not retried), the rest sent. */
  const refusing: Hook = (request, send) => (isAppend(request) ? Promise.reject(refusal(403, 'Forbidden')) : send());
  const rows: Array<[string, (id: string, v1: string, v2: string) => Promise<RolloutOptions>, (v2: string) => string, (v1: string, v2: string) => string[]]> = [
    [
      'the intent before a promotion: the wave is not promoted (LIVE only)',
      async (id, _v1, v2) => options(id, v2),
      () => "the journal did not take the record of dev's promotion before it (see the warning above): dev is not promoted; run the same command again once the journal takes entries",
      (v1) => [v1, v1, v1],
    ],
    [
      'the end of another rollout in flight (--supersede): nothing sent',
      async (id, _v1, v2) => {
        const v3 = await h.uploadVersion(id, 'web', '3.0');
        expect((await startRollout(await through(), options(id, v2, { waves: ['dev', 'staging'], approve: ['staging'] }))).document.promoted).toEqual(['dev']);
        return options(id, v3, { waves: ['dev', 'staging'], supersede: true });
      },
      (v2) => `the journal did not take the record that ${v2}'s rollout ends here (see the warning above): nothing was sent; run the same command again once the journal takes entries`,
      (v1, v2) => [v2, v1, v1],
    ],
    [
      'the end of a halt (--resume, the check passing now)',
      async (id, _v1, v2) => {
        const halted = await startRollout(await through(), options(id, v2, { waves: ['dev'], check: '[ "$AHS_ROLLOUT_PHASE" != after ]' }));
        expect(stopOf(halted)?.exitCode).toBe(1);
        return options(id, v2, { waves: ['dev'], check: 'true', resume: true });
      },
      () => 'the check passed after promoting dev again, but the journal did not take the record that the halt ends (see the warning above): run the same command again once the journal takes entries',
      (v1, v2) => [v2, v1, v1],
    ],
    [
      'a promotion found without its entry (made outside the rollout, a soak to keep)',
      async (id, v1, v2) => {
        await h.deploy(id, v2, 'web', 'dev', 'LIVE');
        expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
        return options(id, v2, { soak: ['dev=1h'] });
      },
      (v2) => `${v2} is the Default of dev, but the journal did not take the record of its promotion (see the warning above): its soak starts once a run records it; run the same command again`,
      (v1, v2) => [v2, v1, v1],
    ],
  ];
  it.each(rows)('%s: a wait (exit 11), said with the journal\'s warning', async (_name, setUp, message, after) => {
    const { id, v1, v2 } = await seededRollout(h);
    const given = await setUp(id, v1, v2);
    const ctx = await through(refusing);
    const r = await startRollout(ctx, given);
    expect(stopOf(r)).toEqual({ type: 'WaitingError', exitCode: 11, message: message(v2) });
    expect(r.document.promoted).toEqual([]);
    expect(ctx.io.err.text).toMatch(new RegExp(`^warning: the journal ${journal} did not record this rollout start .*: Forbidden;`, 'm'));
    expect(await defaults(id)).toEqual(after(v1, v2));
  });

  it('this run\'s own promotion, its intent taken and its entry not: the run records it itself at once (no wait for another run), then a wait (exit 11)', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    let appends = 0;
    const ctx = await through((request, send) => (isAppend(request) && ++appends > 1 ? Promise.reject(refusal(403, 'Forbidden')) : send()));
    const r = await startRollout(ctx, options(id, v2, { waves: ['dev', 'staging'], soak: ['dev=1h'] }));
    expect(stopOf(r)).toEqual({ type: 'WaitingError', exitCode: 11, message: `${v2} is the Default of dev, but the journal did not take the record of its promotion (see the warning above): its soak starts once a run records it; run the same command again` });
    expect(appends).toBe(3);
    expect(r.document.promoted).toEqual(['dev']);
    expect(await entriesOf(id, v2, 'dev')).toEqual([['intent', v1]]);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('a promotion found in a later wave, whose intent another run wrote: recorded with that wave\'s previous Default, not an earlier wave\'s', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    // staging's Default was another version when the other run (an older ahs: no time to record by) wrote its intent.
    const v3 = await versionWith(id, 'payload', 'staging');
    expect(await recordRolloutEvent(await through(), journal, { asset: id, version: v2, platform: 'web', waves: ENVS, wave: 'staging', action: 'intent', previousDefault: v3, run: 'an-older-run' })).toBe(true);
    await h.deploy(id, v2, 'web', 'staging', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'staging', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const r = await startRollout(await through(), options(id, v2, { soak: ['staging=1h'] }));
    expect(r.document.promoted).toEqual(['dev']);
    expect(r.document.next).toMatchObject({ action: 'wait', for: 'soak', soaking: 'staging', env: 'prod' });
    expect((await entriesOf(id, v2, 'staging'))[0]).toEqual(['promote', v3]);
    expect((await entriesOf(id, v2, 'dev'))[0]).toEqual(['promote', v1]);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
  });

  it('a promotion found and recorded, which the journal then does not list: recorded once, then a wait (exit 11)', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    // Each listing of the journal's items answered as the first was: what this run appends is never listed.
    let first: Promise<unknown> | undefined;
    const ctx = await through((request, send) => (request.method === 'GET' && request.path.endsWith(`/vc/${journal}/items`) ? (first ??= send()) : send()));
    const r = await startRollout(ctx, options(id, v2, { soak: ['dev=1h'] }));
    expect(stopOf(r)).toEqual({ type: 'WaitingError', exitCode: 11, message: "dev's promotion was recorded, but the journal does not list the entry yet: run the same command again" });
    expect(ctx.io.err.text.match(/recorded now; its soak of 1h starts here$/gm)).toHaveLength(1);
    expect(await entriesOf(id, v2, 'dev')).toEqual([['promote', undefined]]);
    const [found] = await rolloutEntries(await runs.context({ AHS_JOURNAL: journal }), journal, { asset: id, version: v2, platform: 'web' }, new Date(Date.now() - 3_600_000));
    expect(found!.rollout).toMatchObject({ action: 'promote', wave: 'dev', recovered: true, waves: ENVS });
  });
});

describe('rollout start: a wave that fails, then the read after it', () => {
  it('the read after a failed check fails too: the check\'s failure is the error (no document)', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    let failing = false;
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'staging', 'LIVE')) failing = true;
      if (failing && request.method === 'GET' && request.query?.state === 'DEFAULT' && request.path.endsWith(`/va/${id}/asset-urls`)) throw refusal(403, 'Forbidden');
      return send();
    }, { journal: false });
    const error = await failure(startRollout(ctx, options(id, v2, { check: '[ "$AHS_ROLLOUT_ENV" != staging ]' })));
    expect(error.constructor.name).toBe('PartialFailureError');
    expect(error.message).toMatch(/^the check failed before promoting staging \(exit 1\)/);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('an error that is not ahs\'s, and an interruption: thrown as they are, no document', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const boom = new TypeError('not an answer');
    const odd = await failure(startRollout(await through((request, send) => (isDeploy(request, 'dev', 'LIVE') ? Promise.reject(boom) : send()), { journal: false }), options(id, v2)));
    expect(odd).toBe(boom);
    const controller = new AbortController();
    const interrupted = await failure(
      startRollout(
        await through(async (request, send) => {
          const answer = await send();
          if (isDeploy(request, 'dev', 'LIVE')) controller.abort(new CancelledError('interrupted'));
          return answer;
        }, { journal: false, signal: controller.signal }),
        options(id, v2, { check: 'true' }),
      ),
    );
    expect(interrupted).toBeInstanceOf(CancelledError);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });
});

describe('rollout abort against other writers', () => {
  it('nothing promoted: nothing to put back, nothing said to stay LIVE', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const ctx = await through();
    const r = await abortRollout(ctx, options(id, v2));
    expect(r.summary).toBe(`abort of ${v2} of ${id} (web): nothing to put back`);
    expect(r.document).toMatchObject({ restored: [], left: [] });
    expect(ctx.io.err.text).not.toContain('stays LIVE');
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });

  it('prod put back by another abort before this one reads it, staging before this one sends, dev moved to another version: restored nothing (exit 5), prod and staging said to stay LIVE', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const v3 = await versionWith(id, 'payload', 'dev');
    expect((await startRollout(await through(), options(id, v2))).document.promoted).toEqual(ENVS);
    const back = (env: string) => h.deploy(id, v1, 'web', env, 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' });
    let prodRead = false;
    let prodSent = 0;
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'prod', 'DEFAULT')) prodSent += 1;
      if (!prodRead && request.method === 'GET' && request.query?.envId === 'prod' && request.query.state === 'DEFAULT') {
        prodRead = true;
        expect((await back('prod')).status).toBe(201);
      }
      if (isDeploy(request, 'staging', 'DEFAULT')) expect((await back('staging')).status).toBe(201);
      if (isDeploy(request, 'dev', 'DEFAULT')) expect((await h.deploy(id, v3, 'web', 'dev', 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' })).status).toBe(201);
      return send();
    });
    const r = await abortRollout(ctx, options(id, v2));
    expect(stopOf(r)).toEqual({ type: 'ConflictError', exitCode: 5, message: `abort of ${v2} of ${id} (web): restored nothing; left alone: dev (moved by someone else since)` });
    expect(r.document).toMatchObject({ restored: [], left: [{ env: 'dev', why: 'moved', found: v3 }] });
    const err = ctx.io.err.text;
    expect(err).toContain(`${id}/web/prod: ${v1} is the Default again: another abort put it back meanwhile\n`);
    expect(err).toContain(`${id}/web/staging: ${v1} is the Default again: another abort put it back meanwhile\n`);
    expect(err).toMatch(new RegExp(`^warning: ${id}/web/dev: left alone, its Default moved since this rollout made it ${v2} \\(.*${v3}.*\\)$`, 'm'));
    expect(err).not.toContain('is the Default again (was');
    expect(err).toContain(`${v2} stays LIVE on prod, staging (abort deletes nothing); to take it offline there: ahs deploy ${id} ${v2} --platform web --env prod --state OFFLINE; ahs deploy ${id} ${v2} --platform web --env staging --state OFFLINE\n`);
    expect(await defaults(id)).toEqual([v3, v1, v1]);
    // prod, found put back by the read, was sent nothing.
    expect(prodSent).toBe(0);
  });
});

describe('rollout abort: its reads', () => {
  it('its round trips: the version, the Defaults and the journal; for each wave it puts back, that wave\'s Default and the target\'s own record, then the promotion; the same read again after', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    expect((await startRollout(await through(), options(id, v2, { waves: ['dev'] }))).stop).toBeUndefined();
    const ctx = await through();
    const r = await abortRollout(ctx, options(id, v2, { waves: ['dev'] }));
    expect(r.document).toMatchObject({ restored: ['dev'], left: [] });
    const sent = ctx.sent;
    const read = (version: string) => [`GET /va/${id}/versions/${version}`, `GET /va/${id}/asset-urls`, `GET /vc/${journal}/items`, `GET /vc/${journal}`];
    // No record of the version per wave in the first read (a status's read: the Defaults decide), none in the last.
    expect(sent.slice(0, 4)).toEqual(read(v2));
    expect(sent.slice(4, 6)).toEqual([`GET /va/${id}/asset-urls`, `GET /va/${id}/versions/${v1}/asset-urls`]);
    // Its version is not read there (the promotion's own plan reads it), change control's reads next.
    expect(sent[6]).toMatch(/^GET \/va\/ahs-control/);
    const append = sent.lastIndexOf(`POST /vc/${journal}/items`);
    expect(sent[append - 1]).toBe(`POST /va/${id}/versions/${v1}/deploy`);
    // After: dev's Default is the version before, read as another version's.
    expect(sent.slice(append + 1)).toEqual([`GET /va/${id}/asset-urls`, `GET /va/${id}/versions/${v1}`, `GET /vc/${journal}/items`, `GET /vc/${journal}`]);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
    // A status reads the same (the Default's version besides: v1's range), and no record of the version per wave.
    const status = await through();
    await rolloutStatus(status, options(id, v2, { waves: ['dev'] }));
    expect(status.sent).toEqual(expect.arrayContaining([...read(v2), `GET /va/${id}/versions/${v1}`]));
    expect(status.sent.filter((line) => line.startsWith(`GET /va/${id}/versions/${v2}/`))).toEqual([]);
  });

  it('a wave put back by another abort between its two reads (the Default read before it, the target\'s record after): that abort\'s, nothing sent or recorded', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    expect((await startRollout(await through(), options(id, v2, { waves: ['dev'] }))).stop).toBeUndefined();
    let defaultRead: Promise<unknown> | undefined;
    let deploys = 0;
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'dev', 'DEFAULT')) deploys += 1;
      if (request.method === 'GET' && request.path.endsWith(`/va/${id}/asset-urls`) && request.query?.envId === 'dev' && request.query.state === 'DEFAULT') return (defaultRead = send());
      if (defaultRead && request.method === 'GET' && request.path.endsWith(`/versions/${v1}/asset-urls`)) {
        await defaultRead;
        expect((await h.deploy(id, v1, 'web', 'dev', 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' })).status).toBe(201);
      }
      return send();
    });
    const r = await abortRollout(ctx, options(id, v2, { waves: ['dev'] }));
    expect(r.stop).toBeUndefined();
    expect(r.document).toMatchObject({ restored: [], left: [] });
    expect(ctx.io.err.text).toContain(`${id}/web/dev: ${v1} is the Default again: another abort put it back meanwhile\n`);
    expect(deploys).toBe(0);
    expect((await entriesOf(id, v2, 'dev'))[0]).toEqual(['promote', v1]);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });

  it('two waves put back and one moved at its send: exit 5 naming both restored, newest first', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const v3 = await versionWith(id, 'payload', 'dev');
    expect((await startRollout(await through(), options(id, v2))).document.promoted).toEqual(ENVS);
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'dev', 'DEFAULT')) expect((await h.deploy(id, v3, 'web', 'dev', 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' })).status).toBe(201);
      return send();
    });
    const r = await abortRollout(ctx, options(id, v2));
    expect(stopOf(r)).toEqual({ type: 'ConflictError', exitCode: 5, message: `abort of ${v2} of ${id} (web): restored prod, staging; left alone: dev (moved by someone else since)` });
    expect(await defaults(id)).toEqual([v3, v1, v1]);
  });

  it('a wave the service lists no Default for: left alone, said moved to none (exit 5)', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    expect((await startRollout(await through(), options(id, v2, { waves: ['dev', 'staging'] }))).document.promoted).toEqual(['dev', 'staging']);
    // Every read of the asset's records answered without dev's Default (a service that lost it).
    const ctx = await through(async (request, send) => {
      const answer = (await send()) as { results?: Array<{ envId?: string; state?: string }> };
      const records = request.method === 'GET' && request.path.startsWith(`/api/v2/demo/va/${id}/`) && request.path.endsWith('/asset-urls');
      if (!records) return answer;
      const results = answer.results!.filter((record) => record.envId !== 'dev' || record.state !== 'DEFAULT');
      return { ...answer, results, totalResults: results.length };
    });
    const r = await abortRollout(ctx, options(id, v2, { waves: ['dev', 'staging'] }));
    expect(stopOf(r)).toEqual({ type: 'ConflictError', exitCode: 5, message: `abort of ${v2} of ${id} (web): restored staging; left alone: dev (moved by someone else since)` });
    expect(r.document).toMatchObject({ restored: ['staging'], left: [{ env: 'dev', why: 'moved', found: null }] });
    expect(ctx.io.err.text).toContain(`warning: ${id}/web/dev: left alone, someone moved its Default to none since this rollout made it ${v2}\n`);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });
});

describe('rollout abort: a wave that nothing proves', () => {
  it('the versions LIVE there are its candidates (an OFFLINE one listed by the service is not); a wave the journal proves reads no channel more', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const v3 = await versionWith(id, 'payload', 'dev');
    const v4 = await versionWith(id, 'payload', 'dev');
    await h.deploy(id, v4, 'web', 'dev', 'OFFLINE');
    // prod waits for its approval: promoted nowhere, nothing of it in the journal.
    expect((await startRollout(await through(), options(id, v2, { approve: ['prod'] }))).document.promoted).toEqual(['staging']);
    // A service that lists OFFLINE records in a channel's listing too (the spec leaves it open).
    let channelReads = 0;
    const ctx = await through(async (request, send) => {
      const whole = request.method === 'GET' && request.path.endsWith(`/va/${id}/asset-urls`) && request.query?.envId !== undefined && request.query.state === undefined;
      if (!whole) return send();
      channelReads += 1;
      const answer = (await send()) as { results: Array<Record<string, unknown>> };
      return { ...answer, results: [...answer.results, { ...answer.results[0], versionId: v4, state: 'OFFLINE' }] };
    });
    const r = await abortRollout(ctx, options(id, v2));
    // dev's alone: prod (promoted nowhere) and staging (the journal has its intent) read none.
    expect(channelReads).toBe(1);
    expect(r.document).toMatchObject({ restored: ['staging'], left: [{ env: 'dev', why: 'unknown', to: '--to dev=VERSION_ID' }] });
    const line = ctx.io.err.text.split('\n').find((l) => l.startsWith(`warning: ${id}/web/dev: left alone`));
    const candidates = /\(LIVE there: ([^)]*)\)/.exec(line ?? '')?.[1]?.split(', ');
    expect([...(candidates ?? [])].sort()).toEqual([v1, v3].sort());
    expect(line).toBe(`warning: ${id}/web/dev: left alone: ${v2} is its Default, and neither the journal nor --to says what was before (LIVE there: ${candidates!.join(', ')}); to put one back: ${abortLine(id, v2)} --to dev=VERSION_ID`);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
    // The restored wave's entry: its abort, from this rollout's version.
    expect((await entriesOf(id, v2, 'staging'))[0]).toEqual(['abort', v2]);
    // Given --to, dev reads no channel either: put back to what it names.
    const again = await abortRollout(ctx, options(id, v2, { to: [`dev=${v3}`] }));
    expect(channelReads).toBe(1);
    expect(again.document).toMatchObject({ restored: ['dev'], left: [] });
    expect(await defaults(id)).toEqual([v3, v1, v1]);
  });

  it('a wave whose newest entry is a promotion with no intent before it: one that names its previous Default is proven by it (no channel read); one recorded as found (none named) is not', async () => {
    // Recorded by another ahs, which wrote no intent: the promotion and the Default before it.
    const { id, v1, v2 } = await seededRollout(h);
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    expect(await recordRolloutEvent(await through(), journal, { asset: id, version: v2, platform: 'web', waves: ['dev'], wave: 'dev', action: 'promote', previousDefault: v1, run: 'an-older-run' })).toBe(true);
    const channelRead = (request: RequestOptions) => request.method === 'GET' && request.path.endsWith('/asset-urls') && request.query?.envId !== undefined && request.query.state === undefined && !request.path.includes('/versions/');
    let reads = 0;
    const counting: Hook = (request, send) => {
      if (channelRead(request)) reads += 1;
      return send();
    };
    const proven = await abortRollout(await through(counting), options(id, v2, { waves: ['dev'] }));
    expect(proven.document).toMatchObject({ restored: ['dev'], left: [] });
    expect(reads).toBe(0);
    expect(await defaults(id)).toEqual([v1, v1, v1]);

    // Found by a run (made outside the rollout) and recorded then: no Default before it on the record.
    const { id: id2, v1: w1, v2: w2 } = await seededRollout(h);
    await h.deploy(id2, w2, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id2, w2, 'web', 'dev', 'DEFAULT', { currentVersionId: w1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const two = { waves: ['dev', 'staging'] };
    expect(stopOf(await startRollout(await through(), options(id2, w2, { ...two, soak: ['dev=1h'] })))?.exitCode).toBe(11);
    expect(await entriesOf(id2, w2, 'dev')).toEqual([['promote', undefined]]);
    const ctx = await through(counting);
    const found = await abortRollout(ctx, options(id2, w2, two));
    expect(reads).toBe(1);
    expect(found.document).toMatchObject({ restored: [], left: [{ env: 'dev', why: 'unknown', to: `--to dev=${w1}` }] });
    expect(ctx.io.err.text).toContain(`warning: ${id2}/web/dev: left alone: ${w2} is its Default, and neither the journal nor --to says what was before (LIVE there: ${w1}); to put one back: ahs rollout abort ${id2} ${w2} --platform web --waves dev,staging --to dev=${w1}\n`);
    expect(await defaults(id2)).toEqual([w2, w1, w1]);
  });
});

describe('rollout start: --wait', () => {
  it('with no sleep of the caller\'s: the line said, then a wait that Ctrl-C ends (the interruption, no document)', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const controller = new AbortController();
    const ctx = await through(pass, { signal: controller.signal, globals: { timeout: 7200 } });
    const write = ctx.io.err._write.bind(ctx.io.err);
    ctx.io.err._write = (chunk, encoding, done) => {
      if (String(chunk).startsWith('waiting: ')) controller.abort(new CancelledError('interrupted'));
      write(chunk, encoding, done);
    };
    const error = await failure(startRollout(ctx, options(id, v2, { soak: ['dev=1h'], wait: true })));
    expect(error).toBeInstanceOf(CancelledError);
    expect(ctx.io.err.text).toMatch(/^waiting: dev soaks until \d\d:\d\dZ, (1h|59m\d+s) left$/m);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('a wave locked by another holder is waited for as --lock-timeout, within what --timeout leaves; promoted once the lock is released', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const scope = { kind: 'channel' as const, assetId: id, platform: 'web', env: 'dev' };
    const holder = await through();
    const held = await acquireLock(holder, await holder.api(), { scope, lockId: 'someone-deploying', ttlMs: 600_000, user: DEMO_USER, command: 'deploy', env: {}, reason: 'holding', waitMs: 0, signal: new AbortController().signal });
    // Released when the waiting run reads the lock the second time.
    let lockReads = 0;
    const ctx = await through(async (request, send) => {
      if (request.method === 'GET' && /\/va\/ahs-control-lock-[0-9a-f]+\/asset-urls$/.test(request.path) && ++lockReads === 2) await releaseHeld(await holder.api(), held, DEMO_USER);
      return send();
    }, { journal: false, globals: { timeout: 30 } });
    const r = await startRollout(ctx, options(id, v2, { waves: ['dev'], wait: true }));
    expect(r.stop, ctx.io.err.text).toBeUndefined();
    expect(r.document.promoted).toEqual(['dev']);
    expect(ctx.io.err.text).toMatch(new RegExp(`^${id}/web/dev is locked by another run: waiting for it \\(--lock-timeout 2\\ds\\)$`, 'm'));
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });
});

describe('the check\'s process', () => {
  it('its output as text (a character split between two writes is kept whole); an interruption ends it with the signal\'s reason', async () => {
    const ctx = await through();
    expect(await runCheck(ctx, "printf 'caf\\303'; sleep 0.1; printf '\\251 \\342\\202'; sleep 0.1; printf '\\254\\n'; exit 4", {})).toBe(4);
    expect(ctx.io.err.text).toBe('café €\n');
    const controller = new AbortController();
    const reason = new CancelledError('interrupted');
    const running = runCheck({ io: ctx.io, signal: controller.signal }, 'sleep 30', {});
    controller.abort(reason);
    expect(await failure(running)).toBe(reason);
  });

  it('its input is empty (none of ahs\'s): a check that reads it ends at once', async () => {
    const ctx = await through();
    expect(await runCheck(ctx, 'timeout 5 cat; echo "cat: $?" >&2', {})).toBe(0);
    expect(ctx.io.err.text).toBe('cat: 0\n');
  });
});

describe('rollout start: the reads it decides on', () => {
  it('another run promotes a wave between the Defaults\' listing and the version\'s own record: that run\'s, nothing sent there', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    // The listing answered first, then dev promoted, then the version's record on dev read (DEFAULT).
    let listing: Promise<unknown> | undefined;
    let promoted = false;
    const ctx = await through(async (request, send) => {
      if (!listing && request.method === 'GET' && request.path.endsWith(`/va/${id}/asset-urls`) && request.query?.state === 'DEFAULT') return (listing = send());
      if (!promoted && request.method === 'GET' && request.path.endsWith(`/versions/${v2}/asset-urls`) && request.query?.envId === 'dev') {
        promoted = true;
        await listing;
        expect((await h.deploy(id, v2, 'web', 'dev', 'LIVE')).status).toBe(201);
        expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
      }
      return send();
    });
    const r = await startRollout(ctx, options(id, v2, { waves: ['dev', 'staging'] }));
    expect(r.stop).toBeUndefined();
    expect(r.document.promoted).toEqual(['staging']);
    expect(ctx.io.err.text.startsWith(`dev: another run of this rollout promoted ${v2} meanwhile; it records and checks that wave\n${v2} deployed LIVE on ${id}/web/staging\n`)).toBe(true);
    expect(await entriesOf(id, v2, 'dev')).toEqual([]);
  });

  it('another run\'s intent with no time to record by (an older ahs): its promotion is recorded by the next run at once, not waited for', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    expect(await recordRolloutEvent(await through(), journal, { asset: id, version: v2, platform: 'web', waves: ENVS, wave: 'dev', action: 'intent', previousDefault: v1, run: 'an-older-run' })).toBe(true);
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const r = await rolloutStatus(await through(), options(id, v2, { soak: ['dev=10m'] }));
    expect(r.document.next).toEqual({ action: 'record', env: 'dev' });
    expect(r.document.waves[0]).toMatchObject({ state: 'unrecorded', previousDefault: v1 });
    expect(r.stop).toBeUndefined();
    // A dry run of it: what the next run does, no stop (nothing recorded).
    const dry = await startRollout(await through(pass, { globals: { dryRun: true } }), options(id, v2, { soak: ['dev=10m'] }));
    expect(dry.document).toMatchObject({ dryRun: true, requests: [], next: { action: 'record', env: 'dev' } });
    expect(dry.stop).toBeUndefined();
    expect(await entriesOf(id, v2, 'dev')).toEqual([['intent', v1]]);
  });

  it('a version of an asset that does not exist: not found (exit 4), its other reads\' failures left unsaid', async () => {
    const error = await failure(rolloutStatus(await through(), options(uid('none'), 'WEB1')));
    expect(error.constructor.name).toBe('NotFoundError');
    expect(error.message).toMatch(/^asset none-[\w-]+ not found$/);
    const start = await failure(startRollout(await through(), options(uid('none'), 'WEB1')));
    expect(start.constructor.name).toBe('NotFoundError');
  });

  it('a wave\'s round trips: change control read beside the first reads; the intent appended without reading the journal again; the served URL read beside the promotion\'s entry', async () => {
    const { id, v2 } = await seededRollout(h);
    const ctx = await through();
    expect((await startRollout(ctx, options(id, v2, { waves: ['dev'] }))).stop).toBeUndefined();
    const sent = ctx.sent;
    const first = (line: string) => sent.findIndex((s) => s.startsWith(line));
    expect(first('GET /va/ahs-control')).toBeGreaterThan(-1);
    expect(first('GET /va/ahs-control')).toBeLessThan(first(`GET /vc/${journal}/items`));
    const deploys = sent.flatMap((s, i) => (s === `POST /va/${id}/versions/${v2}/deploy` ? [i] : []));
    expect(deploys).toHaveLength(2);
    expect(sent.slice(deploys[0]! + 1, deploys[1])).toEqual([`POST /vc/${journal}/items`]);
    expect(sent.slice(deploys[1]! + 1, deploys[1]! + 3)).toEqual([`GET /va/${id}/versions/${v2}/asset-urls`, `POST /vc/${journal}/items`]);
    // That URL serves the verification too: read once, up to the next read of the rollout.
    const nextRead = sent.indexOf(`GET /va/${id}/asset-urls`, deploys[1]);
    expect(sent.slice(deploys[1]! + 1, nextRead).filter((s) => s === `GET /va/${id}/versions/${v2}/asset-urls`)).toHaveLength(1);
  });

  it('the served URL\'s read beside the entry fails: read again for the verification, which passes', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    let promoted = false;
    let failed = 0;
    const ctx = await through(async (request, send) => {
      if (isDeploy(request, 'dev', 'DEFAULT')) {
        const answer = await send();
        promoted = true;
        return answer;
      }
      if (promoted && !failed && request.method === 'GET' && request.path.endsWith(`/versions/${v2}/asset-urls`)) {
        failed += 1;
        throw refusal(403, 'Forbidden');
      }
      return send();
    }, { journal: false });
    const r = await startRollout(ctx, options(id, v2, { waves: ['dev'] }));
    expect(failed).toBe(1);
    expect(r.stop).toBeUndefined();
    expect(ctx.io.err.text).toMatch(/^dev serves WEB\d+ byte for byte/m);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('a halt that --resume ended, the next wave waiting for its approval: a run and the status after say it waits, not halted', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const waves = { waves: ['dev', 'staging'], approve: ['staging'] };
    expect(stopOf(await startRollout(await through(), options(id, v2, { ...waves, check: '[ "$AHS_ROLLOUT_PHASE" != after ]' })))?.exitCode).toBe(1);
    const resumed = await startRollout(await through(), options(id, v2, { ...waves, check: 'true', resume: true }));
    expect(resumed.document.next).toEqual({ action: 'wait', for: 'approval', env: 'staging' });
    expect((await entriesOf(id, v2, 'dev'))[0]).toEqual(['resume', undefined]);
    const status = await rolloutStatus(await through(), options(id, v2, waves));
    expect(status.stop).toBeUndefined();
    expect(status.document.next).toEqual({ action: 'wait', for: 'approval', env: 'staging' });
    expect(status.document.waves.map((w) => w.state)).toEqual(['done', 'waiting-approval']);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('--resume of a halt whose wave was moved since: no check run, the rollout halted there (exit 5)', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const v3 = await versionWith(id, 'payload', 'dev');
    const waves = { waves: ['dev', 'staging'] };
    const halted = await startRollout(await through(), options(id, v2, { ...waves, check: '[ "$AHS_ROLLOUT_PHASE" != after ]' }));
    expect(stopOf(halted)?.exitCode).toBe(1);
    expect((await h.deploy(id, v3, 'web', 'dev', 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const ctx = await through();
    const r = await startRollout(ctx, options(id, v2, { ...waves, check: 'true', resume: true }));
    expect(stopOf(r)).toMatchObject({ type: 'ConflictError', exitCode: 5 });
    expect(r.document.next).toEqual({ action: 'halt', env: 'dev', found: v3 });
    expect(ctx.io.err.text).toBe('');
    expect(await defaults(id)).toEqual([v3, v1, v1]);
    // Its newest entry is still the halt (no resume recorded).
    expect((await entriesOf(id, v2, 'dev'))[0]).toEqual(['halt', undefined]);
  });
});
