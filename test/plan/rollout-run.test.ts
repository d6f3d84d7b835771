// Rollouts as operations (src/operations/rollout.ts), below the commands:
// startRollout, rolloutStatus and abortRollout called with a real run
// context over the emulator on port 0 (test/support/run-contexts.ts), with
// and without the journal. Each test asserts the answer (the document, the
// line for people, how the run stops and its exit code), what the run said
// on stderr, and the service's channels afterwards. Soaks are passed by
// moving the emulator's clock (emulator.md, "A clock of its own"), never by
// sleeping.
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, uid, type Harness } from '../e2e/helpers.js';
import { ENVS, seededRollout, waveDefaults } from '../e2e/rollout-fixture.js';
import { runContexts, type RunContext } from '../support/run-contexts.js';
import type { GlobalOptions } from '../../src/options.js';
import { abortRollout, rolloutStanding, rolloutStatus, sentence, startRollout, type RolloutOptions, type RolloutResult } from '../../src/operations/rollout.js';
import { AhsError, UsageError, type BlockedError, type WaitingError } from '../../src/errors.js';
import type { Next } from '../../src/rules/rollout.js';
import { recordRolloutEvent } from '../../src/plan/journal-record.js';
import { acquireLock, lockStatus } from '../../src/service/change-control.js';
import { rolloutEntries } from '../../src/service/rollout-journal.js';
import { failure } from '../support/failure.js';

const runs = runContexts('rollout-run');
let h: Harness;
let journal: string;
beforeAll(async () => {
  h = runs.h;
  journal = uid('jr');
  const init = await h.ahs(['journal', 'init', journal, '--env', 'dev']);
  expect(init.exitCode, init.stderr).toBe(0);
});

/** A run's context: the journal on (`true`) or off, the run named as `ahs rollout start` names itself. */
function context(withJournal: boolean, globals: GlobalOptions = {}, env: Record<string, string | undefined> = {}): Promise<RunContext> {
  return runs.context({ AHS_JOURNAL: withJournal ? journal : '', ...env }, globals, { command: 'rollout start', arguments: [] });
}

/** How far this file moved the service's clock ahead of the machine's (its emulator is the file's own). */
let clockMoved = 0;
function advanceClock(ms: number): void {
  clockMoved += ms;
  h.emu.advanceClock(ms);
}

const seeded = () => seededRollout(h);
const defaults = (id: string) => waveDefaults(h, id);
const options = (assetId: string, versionId: string | undefined, extra: Partial<RolloutOptions> = {}): RolloutOptions => ({ assetId, versionId, platform: 'web', waves: ENVS, user: DEMO_USER, ...extra });
const abortLine = (id: string, v: string) => `ahs rollout abort ${id} ${v} --platform web --waves dev,staging,prod`;

/** The stop's class, exit code and message. */
function stopOf(result: RolloutResult): { type: string; exitCode: number; message: string } | undefined {
  const stop = result.stop;
  return stop ? { type: stop.constructor.name, exitCode: stop.exitCode, message: stop.message } : undefined;
}

describe('what comes next, for a person', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const halt = { env: 'staging', at: now - 3_600_000, by: 'ana', check: './smoke.sh', phase: 'after' as const, exitCode: 1 };
  const rows: Array<[Next, string]> = [
    [{ action: 'complete' }, 'the rollout is complete'],
    [{ action: 'promote', env: 'prod' }, 'prod is promoted next'],
    [{ action: 'record', env: 'staging' }, 'staging is the Default without an entry of its promotion in the journal: the next run records it, and its soak starts then'],
    [{ action: 'aborted' }, 'the rollout was aborted (the journal says so)'],
    [{ action: 'blocked', by: { version: 'WEB2', state: 'dev done, prod pending' } }, 'blocked: the rollout of WEB2 is in flight on this asset and platform (dev done, prod pending)'],
    [{ action: 'superseded', version: 'WEB3', by: 'ana', at: now - 600_000 }, 'superseded: ana started the rollout of WEB3 in its place at 11:50:00Z'],
    [{ action: 'halt', env: 'staging', found: 'WEB1', reason: 'check', halt }, 'halted: the check failed after promoting staging (exit 1) at 11:00:00Z, run by ana: ./smoke.sh'],
    [{ action: 'halt', env: 'dev', found: 'WEB9' }, "halted: dev's Default is WEB9 now, moved by someone else since this rollout promoted it"],
    [{ action: 'halt', env: 'dev', found: null }, "halted: dev's Default is none now, moved by someone else since this rollout promoted it"],
    [{ action: 'wait', for: 'approval', env: 'prod' }, 'prod waits for approval: run with --approved prod'],
    [{ action: 'wait', for: 'entry', env: 'prod', recording: 'staging', until: now + 90_000 }, 'staging was promoted by another run, which records it by 12:01:30Z (1m30s left); its soak is measured from that record (then prod)'],
    [{ action: 'wait', for: 'entry', env: null, recording: 'prod', until: now + 3_600_000 }, 'prod was promoted by another run, which records it by 13:00Z (1h left); its soak is measured from that record'],
    [{ action: 'wait', for: 'soak', env: 'prod', soaking: 'staging', until: now + 4_320_000 }, 'staging soaks until 13:12Z, 1h12m left (then prod)'],
    [{ action: 'wait', for: 'soak', env: null, soaking: 'prod', until: now + 30_000 }, 'prod soaks until 12:00:30Z, 30s left'],
  ];
  it.each(rows)('%j', (next, text) => {
    expect(sentence(next, now)).toBe(text);
  });
});

describe('the options, refused before anything is sent', () => {
  let id: string;
  let v1: string;
  let v2: string;
  beforeAll(async () => {
    ({ id, v1, v2 } = await seeded());
  });
  const rows: Array<[string, (id: string, v2: string) => RolloutOptions, 'start' | 'status' | 'abort', boolean, string, string]> = [
    ['no waves', (a, v) => options(a, v, { waves: [] }), 'start', false, 'UsageError', '--waves is required: the environments in order, e.g. --waves dev,staging,prod'],
    ['waves not given', (a, v) => options(a, v, { waves: undefined }), 'status', false, 'UsageError', '--waves is required: the environments in order, e.g. --waves dev,staging,prod'],
    ['a soak with no time', (a, v) => options(a, v, { soak: ['staging'] }), 'start', true, 'UsageError', '--soak takes ENV=DURATION, e.g. --soak staging=30m (units ms, s, m, h, d; got staging)'],
    ['a soak with no wave', (a, v) => options(a, v, { soak: [' =30m'] }), 'start', true, 'UsageError', '--soak takes ENV=DURATION, e.g. --soak staging=30m (units ms, s, m, h, d; got  =30m)'],
    ['a soak of no duration', (a, v) => options(a, v, { soak: ['staging=soon'] }), 'start', true, 'UsageError', '--soak takes ENV=DURATION, e.g. --soak staging=30m (units ms, s, m, h, d; got staging=soon)'],
    ['a soak of another environment', (a, v) => options(a, v, { soak: ['qa=30m'] }), 'start', true, 'UsageError', '--soak qa: not one of --waves (dev,staging,prod)'],
    ['a soak given twice, two times', (a, v) => options(a, v, { soak: ['staging=30m', ' staging =1h'] }), 'start', true, 'UsageError', '--soak staging given twice with different times'],
    ['an approval of another environment', (a, v) => options(a, v, { approve: ['prod,qa'] }), 'start', false, 'UsageError', '--approve qa: not one of --waves (dev,staging,prod)'],
    ['an approved of another environment', (a, v) => options(a, v, { approved: [' qa '] }), 'start', false, 'UsageError', '--approved qa: not one of --waves (dev,staging,prod)'],
    ['a version and a name', (a, v) => options(a, v, { name: '2.0' }), 'start', false, 'UsageError', 'give VERSION_ID or --name, not both'],
    ['neither a version nor a name', (a) => options(a, undefined), 'status', false, 'UsageError', 'VERSION_ID or --name VERSION_NAME is required: the version to roll out'],
    ['a name no version has', (a) => options(a, undefined, { name: '9.9' }), 'status', false, 'NotFoundError', '{id} has no web version named 9.9'],
    ['a name of another platform only', (a) => options(a, undefined, { name: '2.0', platform: 'ios' }), 'status', false, 'NotFoundError', '{id} has no ios version named 2.0'],
    ['an empty check', (a, v) => options(a, v, { check: '  ' }), 'start', false, 'UsageError', '--check must not be empty'],
    ['a --to with no version', (a, v) => options(a, v, { to: ['prod='] }), 'abort', true, 'UsageError', '--to takes ENV=VERSION_ID, e.g. --to prod=WEB6 (got prod=)'],
    ['a --to with no wave', (a, v) => options(a, v, { to: ['WEB1'] }), 'abort', true, 'UsageError', '--to takes ENV=VERSION_ID, e.g. --to prod=WEB6 (got WEB1)'],
    ['a --to of another environment', (a, v) => options(a, v, { to: ['qa=WEB1'] }), 'abort', true, 'UsageError', '--to qa: not one of --waves (dev,staging,prod)'],
    ['a soak without the journal', (a, v) => options(a, v, { soak: ['staging=30m'] }), 'start', false, 'UsageError', 'a soak time needs the journal (the service\'s own record of when each wave was promoted), and none is set: start one with `ahs journal init`, or run without --soak'],
    ['an abort without the journal', (a, v) => options(a, v), 'abort', false, 'UsageError', 'abort puts back the Default each wave had before, which only the journal knows, and none is set: start one with `ahs journal init` (or name each wave\'s with --to ENV=VERSION)'],
    ['a version of another platform', (a, v) => options(a, v, { platform: 'ios' }), 'status', false, 'UsageError', '{v2} is a web version of {id}, not ios: give --platform web'],
    ['a version the asset does not have', (a) => options(a, 'WEB404'), 'status', false, 'NotFoundError', 'WEB404'],
  ];
  it.each(rows)('%s', async (_name, make, mode, withJournal, type, message) => {
    const ctx = await context(withJournal);
    const call = mode === 'start' ? startRollout : mode === 'status' ? rolloutStatus : abortRollout;
    const error = await failure(call(ctx, make(id, v2)));
    expect(error.constructor.name).toBe(type);
    const text = message.replace('{id}', id).replace('{v2}', v2);
    if (type === 'NotFoundError' && text === 'WEB404') expect(error.message).toContain('WEB404');
    else expect(error.message).toBe(text);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });

  it('a status with a soak and no journal reads as a start would (nothing to refuse: it writes nothing)', async () => {
    const r = await rolloutStatus(await context(false), options(id, v2, { soak: ['staging=30m'] }));
    expect(r.document.next).toEqual({ action: 'promote', env: 'dev' });
  });

  it('two versions of the name on the platform: the name is not enough (exit 2, naming both)', async () => {
    const twice = uid('ro');
    await h.createAsset(twice);
    const a = await h.uploadVersion(twice, 'web', '5.0');
    const b = await h.uploadVersion(twice, 'web', '5.0');
    await h.uploadVersion(twice, 'ios', '5.0');
    const error = await failure(rolloutStatus(await context(false), options(twice, undefined, { name: '5.0' })));
    expect(error).toEqual(new UsageError(`${twice} has 2 web versions named 5.0 (${a}, ${b}): name one by VERSION_ID`));
  });

  it('the acting user is asked for only once a wave is written, and once', async () => {
    let asked = 0;
    const user = async () => {
      asked += 1;
      return DEMO_USER;
    };
    await rolloutStatus(await context(false), options(id, v2, { user }));
    await startRollout(await context(false, { dryRun: true }), options(id, v2, { user }));
    expect(asked).toBe(0);
    const other = await seeded();
    const r = await startRollout(await context(false), options(other.id, other.v2, { user }));
    expect(r.document.promoted).toEqual(ENVS);
    expect(asked).toBe(1);
  });

  it('the same soak given twice, and an approval given twice or as a list, are taken once; a version found by its name', async () => {
    const ctx = await context(true);
    const r = await rolloutStatus(ctx, options(id, undefined, { name: '2.0', soak: ['staging=30m', 'staging=30m'], approve: ['prod', 'prod,staging', ''] }));
    expect(r.document.version).toBe(v2);
    expect(r.document.waves.map((w) => w.gate)).toEqual([null, 'approval', 'after staging soaks 30m, approval']);
  });
});

describe('rollout start', () => {
  it('with no gates: every wave promoted in order, LIVE first, each verified; complete; a re-run sends nothing', async () => {
    const { id, v1, v2 } = await seeded();
    const ctx = await context(false);
    const r = await startRollout(ctx, options(id, v2));
    expect(r.stop).toBeUndefined();
    expect(r.name).toBe(`${v2} of ${id} (web)`);
    expect(r.next).toBe('the rollout is complete');
    expect(r.summary).toBe(`${v2} of ${id} (web): the rollout is complete`);
    expect(r.document).toEqual({
      asset: id,
      version: v2,
      platform: 'web',
      waves: ENVS.map((env) => ({ env, state: 'done', gate: null, since: null, until: null, previousDefault: null })),
      next: { action: 'complete' },
      promoted: ['dev', 'staging', 'prod'],
    });
    expect(await defaults(id)).toEqual([v2, v2, v2]);
    const records = await h.records(id);
    for (const env of ENVS) expect(records).toContain(`web/${env}/${v1}=LIVE`);
    const err = ctx.io.err.text;
    for (const env of ENVS) {
      expect(err).toContain(`${v2} deployed LIVE on ${id}/web/${env}\n`);
      expect(err).toContain(`${v2} is now the Default of ${id}/web/${env} (previous Default ${v1}, now LIVE)\n`);
    }
    expect(err).toMatch(/^dev serves WEB\d+ byte for byte \(7 bytes, SHA-256 [0-9a-f]{12}…\)$/m);
    expect(err).toMatch(/^staging serves WEB\d+ byte for byte \(7 bytes, SHA-256 [0-9a-f]{12}…, as dev\)$/m);
    expect(err).toMatch(/^prod serves WEB\d+ byte for byte \(7 bytes, SHA-256 [0-9a-f]{12}…, as dev\)$/m);

    const again = await startRollout(await context(false), options(id, v2));
    expect(again.document.promoted).toEqual([]);
    expect(again.summary).toBe(`${v2} of ${id} (web): the rollout is complete`);
  });

  it('a wave where the version is LIVE already gets only its promotion; a wave with no Default before says none', async () => {
    const id = uid('ro');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'web', '1.0');
    await h.deploy(id, v1, 'web', 'dev', 'LIVE');
    const ctx = await context(true);
    const r = await startRollout(ctx, options(id, v1, { waves: ['dev'] }));
    expect(r.stop).toBeUndefined();
    expect(ctx.io.err.text).not.toContain('deployed LIVE');
    expect(ctx.io.err.text).toContain(`${v1} is now the Default of ${id}/web/dev\n`);
    expect(await h.records(id)).toEqual([`web/dev/${v1}=DEFAULT`]);
    // Abort: nothing to put back there (nothing is deleted).
    const abortCtx = await context(true);
    const abort = await abortRollout(abortCtx, options(id, v1, { waves: ['dev'] }));
    expect(abort.document).toMatchObject({ restored: [], left: [] });
    expect(abort.summary).toBe(`abort of ${v1} of ${id} (web): nothing to put back`);
    expect(abortCtx.io.err.text).toContain(`${id}/web/dev: had no Default before this rollout; left as is (nothing is deleted: undeploy it with ahs asset undeploy if needed)\n`);
    expect(await h.records(id)).toEqual([`web/dev/${v1}=DEFAULT`]);
  });

  it('--approve prod stops before prod (exit 11, no time to resume at) until a run with --approved prod', async () => {
    const { id, v1, v2 } = await seeded();
    const r = await startRollout(await context(false), options(id, v2, { approve: ['prod'] }));
    expect(stopOf(r)).toEqual({ type: 'WaitingError', exitCode: 11, message: `${v2} of ${id} (web): prod waits for approval: run with --approved prod` });
    expect((r.stop as WaitingError).resumeAfter).toBeNull();
    expect(r.summary).toBeUndefined();
    expect(r.document.next).toEqual({ action: 'wait', for: 'approval', env: 'prod' });
    expect(r.document.waves.map((w) => [w.state, w.gate])).toEqual([['done', null], ['done', null], ['waiting-approval', 'approval']]);
    expect(r.document.promoted).toEqual(['dev', 'staging']);
    expect(await defaults(id)).toEqual([v2, v2, v1]);

    // plan's one line of it, the gates as a desired-state file declares them (an approval of another environment left out).
    const standing = (approve?: string[]) => context(false).then(async (ctx) => rolloutStanding(ctx, await ctx.api(), { assetId: id, versionId: v2, platform: 'web' }, { waves: ENVS, ...(approve ? { approve } : {}) }));
    expect(await standing(['prod', 'qa'])).toBe('dev done, staging done, prod waiting-approval: prod waits for approval: run with --approved prod');
    expect(await standing()).toBe('dev done, staging done, prod next: prod is promoted next');

    // --wait does not wait for a person, nor says it would.
    const noSleep = { sleep: () => Promise.reject(new Error('slept')) };
    const waitingCtx = await context(false);
    const waiting = await startRollout(waitingCtx, options(id, v2, { approve: ['prod'], wait: true }), noSleep);
    expect(stopOf(waiting)?.exitCode).toBe(11);
    expect(waitingCtx.io.err.text).not.toContain('--wait');

    // Nor once the rollout is complete.
    const approvedCtx = await context(false);
    const approved = await startRollout(approvedCtx, options(id, v2, { approve: ['prod'], approved: ['prod'], wait: true }), noSleep);
    expect(approved.stop).toBeUndefined();
    expect(approved.document.promoted).toEqual(['prod']);
    expect(approvedCtx.io.err.text).not.toContain('--wait');
    expect(await defaults(id)).toEqual([v2, v2, v2]);
  });

  it('a blocked version: status says the next wave is blocked, and a dry run that a real run would be refused', async () => {
    const { id, v1, v2 } = await seeded();
    expect((await h.ahs(['version', 'block', id, v2, '--reason', 'crash on start'])).exitCode).toBe(0);
    try {
      const status = await rolloutStatus(await context(false), options(id, v2));
      expect(stopOf(status)).toMatchObject({ type: 'BlockedError', exitCode: 12, message: expect.stringMatching(new RegExp(`^${v2} of ${id} \\(web\\): dev is promoted next, but version ${v2} of ${id} is blocked by `)) });
      const ctx = await context(false, { dryRun: true });
      await startRollout(ctx, options(id, v2)).catch(() => undefined);
      expect(ctx.io.err.text).toMatch(new RegExp(`a real run would be refused: ${v2} of ${id} \\(web\\): dev is promoted next, but version ${v2} of ${id} is blocked by \\S+ at \\S+: crash on start`));
      expect(await defaults(id)).toEqual([v1, v1, v1]);
    } finally {
      expect((await h.ahs(['version', 'unblock', id, v2])).exitCode).toBe(0);
    }
  });

  it('--dry-run: the next wave\'s requests, each with its prediction; nothing sent, no line after the document', async () => {
    const { id, v1, v2 } = await seeded();
    const r = await startRollout(await context(false, { dryRun: true }), options(id, v2));
    expect(r.document.dryRun).toBe(true);
    expect(r.document.next).toEqual({ action: 'promote', env: 'dev' });
    expect(r.document.requests?.map((q) => [q.request.method, q.request.path, (q.request.body as { intent: string }).intent, q.predicted.status])).toEqual([
      ['POST', expect.stringMatching(new RegExp(`/va/${id}/versions/${v2}/deploy$`)), 'LIVE', 201],
      ['POST', expect.stringMatching(new RegExp(`/va/${id}/versions/${v2}/deploy$`)), 'DEFAULT', 201],
    ]);
    expect(r.document.requests?.map((q) => (q.request.body as { createdBy: string }).createdBy)).toEqual([DEMO_USER, DEMO_USER]);
    expect(r.stop).toBeUndefined();
    expect(r.summary).toBeUndefined();
    // With no acting user set, a dry run asks none: the requests say so.
    const anonymous = await startRollout(await context(false, { dryRun: true }, { AHS_USER: undefined }), options(id, v2, { user: () => Promise.reject(new Error('asked')) }));
    expect(anonymous.document.requests?.map((q) => (q.request.body as { createdBy: string }).createdBy)).toEqual(['(acting user)', '(acting user)']);
    expect(r.document.promoted).toEqual([]);
    expect(await defaults(id)).toEqual([v1, v1, v1]);

    // A dry run of a rollout that waits says so, as a run would.
    const approvals = await startRollout(await context(false, { dryRun: true }), options(id, v2, { approve: ['dev'] }));
    expect(approvals.document.requests).toEqual([]);
    expect(stopOf(approvals)?.type).toBe('WaitingError');
    // A wave where the version is LIVE already: its promotion alone.
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    const promotionOnly = await startRollout(await context(false, { dryRun: true }), options(id, v2));
    expect(promotionOnly.document.requests?.map((q) => (q.request.body as { intent: string }).intent)).toEqual(['DEFAULT']);
    const complete = await startRollout(await context(false, { dryRun: true }), options(id, v1));
    expect(complete.summary).toBe(`${v1} of ${id} (web): the rollout is complete`);
    // A later wave's, from its own channel: dev done, staging's LIVE deploy and promotion.
    expect((await startRollout(await context(false), options(id, v2, { waves: ['dev'] }))).stop).toBeUndefined();
    const later = await startRollout(await context(false, { dryRun: true }), options(id, v2));
    expect(later.document.next).toEqual({ action: 'promote', env: 'staging' });
    expect(later.document.requests?.map((q) => [(q.request.body as { envId: string }).envId, (q.request.body as { intent: string }).intent])).toEqual([['staging', 'LIVE'], ['staging', 'DEFAULT']]);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });
});

describe('rollout start: --check', () => {
  it('the check runs before and after each promotion with the run\'s own settings and the wave in its environment; its output on stderr', async () => {
    const { id, v2 } = await seeded();
    const log = join(h.dir, `${id}.env`);
    // The run's own settings (its --user, --journal), not the environment it was started in.
    const elsewhere = 'http://127.0.0.1:9';
    const ctx = await context(false, { user: DEMO_USER, journal, baseUrl: h.emu.baseUrl, deliveryUrl: h.emu.deliveryUrl, domain: 'demo' }, { AHS_USER: 'someone.else@example.com', AHS_BASE_URL: elsewhere, AHS_DELIVERY_URL: elsewhere, AHS_DOMAIN: 'nowhere' });
    const check = `echo "$AHS_ROLLOUT_PHASE $AHS_ROLLOUT_ENV $AHS_ROLLOUT_WAVE $AHS_ENV $AHS_PLATFORM $AHS_ROLLOUT_ASSET $AHS_ROLLOUT_VERSION $AHS_USER $AHS_JOURNAL $AHS_DOMAIN $AHS_ROLLOUT_URL" >> ${log}; echo "$AHS_BASE_URL $AHS_DELIVERY_URL" > ${log}.urls; echo checked-out; echo checked-err >&2`;
    const r = await startRollout(ctx, options(id, v2, { waves: ['dev', 'staging'], check }));
    expect(r.stop, ctx.io.err.text).toBeUndefined();
    const url = (env: string) => `${h.emu.deliveryUrl}/api/vi/demo/va/${id}/web/${env}/${v2}/bundle.zip`;
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      `before dev 1 dev web ${id} ${v2} ${DEMO_USER} ${journal} demo ${url('dev')}`,
      `after dev 1 dev web ${id} ${v2} ${DEMO_USER} ${journal} demo ${url('dev')}`,
      `before staging 2 staging web ${id} ${v2} ${DEMO_USER} ${journal} demo ${url('staging')}`,
      `after staging 2 staging web ${id} ${v2} ${DEMO_USER} ${journal} demo ${url('staging')}`,
    ]);
    expect(readFileSync(`${log}.urls`, 'utf8').trim()).toBe(`${h.emu.baseUrl} ${h.emu.deliveryUrl}`);
    expect(ctx.io.err.text).toContain(`check before promoting dev: ${check}\n`);
    expect(ctx.io.err.text).toContain(`check after promoting staging: ${check}\n`);
    expect(ctx.io.err.text.match(/^checked-out$/gm)).toHaveLength(4);
    expect(ctx.io.err.text.match(/^checked-err$/gm)).toHaveLength(4);
    expect(ctx.io.out.text).toBe('');
  });

  it('what the journal records of each wave: the intent before its promotion (the Default before, by when it is recorded), the promotion, a failed check\'s halt (the LIVE deploy alone), a resume', async () => {
    const { id, v1, v2 } = await seeded();
    const started = Date.now() + clockMoved;
    const halted = await startRollout(await context(true, { timeout: 120 }), options(id, v2, { check: '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/before ]' }));
    expect(stopOf(halted)?.exitCode).toBe(1);
    const entries = async (wave: string) => (await rolloutEntries(await context(true), journal, { asset: id, version: v2, platform: 'web' }, new Date(started - 120_000))).filter((e) => e.rollout.wave === wave);
    const dev = await entries('dev');
    expect(dev.map((e) => [e.rollout.action, e.rollout.previousDefault, e.actor])).toEqual([['promote', v1, DEMO_USER], ['intent', v1, DEMO_USER]]);
    const recordBy = Date.parse(dev[1]!.rollout.recordBy!);
    // Its run's --timeout (120 s) and a minute more, from the service's now.
    expect(recordBy - dev[1]!.at).toBeGreaterThanOrEqual(180_000 - 2_000);
    expect(recordBy - dev[1]!.at).toBeLessThanOrEqual(180_000 + 2_000);
    expect(dev[1]!.rollout.run).toMatch(/^[0-9a-f-]{36}$/);
    const staging = await entries('staging');
    expect(staging.map((e) => [e.rollout.action, e.rollout.previousDefault, e.rollout.check])).toEqual([['halt', v1, { command: '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/before ]', phase: 'before', exitCode: 1 }]]);

    // Halted after a promotion, then resumed: the halt, then the resume with the check that passed.
    const failing = '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/after ]';
    await startRollout(await context(true), options(id, v2, { check: failing, resume: true }));
    expect((await entries('staging')).map((e) => [e.rollout.action, e.rollout.check?.phase ?? null])).toEqual([['halt', 'after'], ['promote', null], ['intent', null], ['halt', 'before']]);
    await startRollout(await context(true), options(id, v2, { check: 'true', resume: true, waves: ['dev', 'staging'] }));
    expect((await entries('staging'))[0]!.rollout).toMatchObject({ action: 'resume', check: { command: 'true', phase: 'after', exitCode: 0 } });
    expect(await defaults(id)).toEqual([v2, v2, v1]);
  });

  it('a check failing before a promotion halts there (exit 1, that wave LIVE only); an inconclusive one waits (exit 11); a killed one too', async () => {
    const { id, v1, v2 } = await seeded();
    const failedCtx = await context(false);
    const failed = await startRollout(failedCtx, options(id, v2, { check: '[ "$AHS_ROLLOUT_ENV" != staging ]' }));
    expect(stopOf(failed)).toEqual({
      type: 'PartialFailureError',
      exitCode: 1,
      message: `the check failed before promoting staging (exit 1): the rollout of ${v2} of ${id} (web) halts (staging is not promoted); to put back the waves it promoted: ${abortLine(id, v2)}; to run the check again and go on: the same command with --resume`,
    });
    expect(failed.document.promoted).toEqual(['dev']);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
    expect(await h.records(id)).toContain(`web/staging/${v2}=LIVE`);
    expect(failed.stop!.toBody()).toMatchObject({ type: 'urn:ahs:rejected', title: failed.stop!.message, detail: failed.stop!.message });
    // No journal: nothing tried to record the halt.
    expect(failedCtx.io.err.text).not.toMatch(/^warning:/m);

    const unsure = await startRollout(await context(false), options(id, v2, { check: 'exit 3' }));
    expect(stopOf(unsure)).toEqual({ type: 'WaitingError', exitCode: 11, message: 'the check was inconclusive before promoting staging (exit 3): staging is not promoted; run the same command again later' });
    const killed = await startRollout(await context(false), options(id, v2, { check: 'kill -9 $$' }));
    expect(stopOf(killed)?.message).toBe('the check was inconclusive before promoting staging (exit by a signal): staging is not promoted; run the same command again later');
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });

  it('with the journal: a check failing after staging halts (exit 1, prod untouched); status says halted (exit 1); --resume runs it again and goes on; abort then restores newest first', async () => {
    const { id, v1, v2 } = await seeded();
    const failing = '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/after ]';
    const halted = await startRollout(await context(true), options(id, v2, { check: failing }));
    expect(stopOf(halted)).toEqual({
      type: 'PartialFailureError',
      exitCode: 1,
      message: `the check failed after promoting staging (exit 1): the rollout of ${v2} of ${id} (web) halts (staging is promoted); to put back the waves it promoted: ${abortLine(id, v2)}; to run the check again and go on: the same command with --resume`,
    });
    expect(halted.document.next).toMatchObject({ action: 'halt', env: 'staging', reason: 'check', halt: { env: 'staging', by: DEMO_USER, check: failing, phase: 'after', exitCode: 1, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } });
    // The document's times are the entries' own: the halt's, each promotion's (the wave's since).
    const recorded = await rolloutEntries(await context(true), journal, { asset: id, version: v2, platform: 'web' }, new Date(Date.now() + clockMoved - 600_000));
    const at = (action: string, wave: string) => new Date(recorded.find((e) => e.rollout.action === action && e.rollout.wave === wave)!.at).toISOString();
    expect((halted.document.next as { halt: { at: string } }).halt.at).toBe(at('halt', 'staging'));
    expect(halted.document.waves.map((w) => w.since)).toEqual([at('promote', 'dev'), at('promote', 'staging'), null]);
    expect(await defaults(id)).toEqual([v2, v2, v1]);

    const status = await rolloutStatus(await context(true), options(id, v2, { check: failing }));
    expect(stopOf(status)).toMatchObject({ type: 'PartialFailureError', exitCode: 1 });
    expect(status.stop!.toBody()).toMatchObject({ type: 'urn:ahs:rejected', title: status.stop!.message, detail: status.stop!.message });
    expect(status.stop?.message).toMatch(new RegExp(`^${v2} of ${id} \\(web\\): halted: the check failed after promoting staging \\(exit 1\\) at \\d\\d:\\d\\d:\\d\\dZ, run by ${DEMO_USER.replace('.', '\\.')}: .*; to put back the waves it promoted: ${abortLine(id, v2)}; to run the check again and go on: the same command with --resume$`));
    expect(status.document.waves.map((w) => w.state)).toEqual(['done', 'halted', 'pending']);

    const standing = await rolloutStanding(await context(true), await (await context(true)).api(), { assetId: id, versionId: v2, platform: 'web' }, { waves: ENVS });
    expect(standing).toMatch(/^dev done, staging halted, prod pending: halted: the check failed after promoting staging \(exit 1\) at /);

    // A run without --resume stays halted and sends nothing.
    const rerun = await startRollout(await context(true), options(id, v2, { check: 'true' }));
    expect(stopOf(rerun)?.type).toBe('PartialFailureError');
    expect(await defaults(id)).toEqual([v2, v2, v1]);

    // --resume with the check still failing: halted again.
    // --resume runs staging's check again, first: still failing, halted again (prod untouched); inconclusive, a wait.
    const stillFailing = await startRollout(await context(true), options(id, v2, { check: failing, resume: true }));
    expect(stopOf(stillFailing)?.message).toBe(halted.stop?.message);
    // Recorded as a halt again (the newest of staging's entries), not as its end.
    const stagingEntries = async () => (await rolloutEntries(await context(true), journal, { asset: id, version: v2, platform: 'web' }, new Date(Date.now() + clockMoved - 600_000))).filter((e) => e.rollout.wave === 'staging');
    const [newest, first] = await stagingEntries();
    expect(newest!.rollout).toMatchObject({ action: 'halt', check: { command: failing, phase: 'after', exitCode: 1 } });
    // A halt of its own, after the first.
    expect((await stagingEntries()).map((e) => e.rollout.action)).toEqual(['halt', 'halt', 'promote', 'intent']);
    expect(newest!.at).toBeGreaterThan(first!.at);
    // The document says so too: halted there by the check that failed again (not where --resume would go next).
    expect(stillFailing.document.waves.map((w) => w.state)).toEqual(['done', 'halted', 'pending']);
    expect(stillFailing.document.next).toMatchObject({ action: 'halt', env: 'staging', reason: 'check', halt: { phase: 'after', exitCode: 1, at: new Date(newest!.at).toISOString() } });
    const unsure = await startRollout(await context(true), options(id, v2, { check: '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/after ] || exit 3', resume: true }));
    expect(stopOf(unsure)).toEqual({ type: 'WaitingError', exitCode: 11, message: 'the check was inconclusive after promoting staging (exit 3): staging is promoted; run the same command again later' });
    // Inconclusive: no halt recorded.
    expect((await stagingEntries()).map((e) => e.rollout.action)).toEqual(['halt', 'halt', 'promote', 'intent']);
    expect(await defaults(id)).toEqual([v2, v2, v1]);

    // Passing, the halt ends on the record and the rollout goes on: each check in order, staging's again first.
    const log = join(h.dir, `${id}.resume`);
    const resumed = await startRollout(await context(true), options(id, v2, { check: `echo "$AHS_ROLLOUT_PHASE $AHS_ROLLOUT_ENV" >> ${log}`, resume: true }));
    expect(resumed.stop).toBeUndefined();
    expect(resumed.document.promoted).toEqual(['prod']);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['after staging', 'before prod', 'after prod']);
    expect(await defaults(id)).toEqual([v2, v2, v2]);
    // The halt ended: a run without --resume goes on (complete) and runs no check.
    const done = await startRollout(await context(true), options(id, v2, { check: 'false' }));
    expect(done.summary).toBe(`${v2} of ${id} (web): the rollout is complete`);

    const dry = await abortRollout(await context(true, { dryRun: true }), options(id, v2));
    expect(dry.document).toMatchObject({ dryRun: true, next: { action: 'complete' } });
    expect(dry.document.requests?.map((q) => [(q.request.body as { intent: string; envId: string }).envId, (q.request.body as { intent: string }).intent])).toEqual([['prod', 'DEFAULT'], ['staging', 'DEFAULT'], ['dev', 'DEFAULT']]);
    expect(dry.summary).toBeUndefined();
    expect(await defaults(id)).toEqual([v2, v2, v2]);

    const ctx = await context(true);
    const abort = await abortRollout(ctx, options(id, v2));
    expect(abort.stop).toBeUndefined();
    expect(abort.document).toMatchObject({ restored: ['prod', 'staging', 'dev'], left: [], promoted: [], next: { action: 'aborted' } });
    expect(abort.summary).toBe(`abort of ${v2} of ${id} (web): restored prod, staging, dev`);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
    expect(ctx.io.err.text).toContain(`${id}/web/prod: ${v1} is the Default again (was ${v2})\n`);
    expect(ctx.io.err.text).toContain(`${v2} stays LIVE on prod, staging, dev (abort deletes nothing); to take it offline there: ahs deploy ${id} ${v2} --platform web --env prod --state OFFLINE; ahs deploy ${id} ${v2} --platform web --env staging --state OFFLINE; ahs deploy ${id} ${v2} --platform web --env dev --state OFFLINE\n`);

    const again = await abortRollout(await context(true), options(id, v2));
    expect(again.summary).toBe(`abort of ${v2} of ${id} (web): nothing to put back`);
    const after = await startRollout(await context(true), options(id, v2));
    expect(stopOf(after)).toEqual({ type: 'ConflictError', exitCode: 5, message: `${v2} of ${id} (web): the rollout was aborted (the journal says so); nothing was sent` });
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });
});

describe('rollout start: soaks on the service\'s clock', () => {
  it('--soak staging=30m: exit 11 until the soak ends (the time to resume at); status reads the same; --wait sleeps it out within --timeout', async () => {
    const { id, v1, v2 } = await seeded();
    const soak = options(id, v2, { soak: ['staging=30m'] });
    const first = await startRollout(await context(true), soak);
    expect(stopOf(first)?.type).toBe('WaitingError');
    expect(first.stop?.message).toMatch(new RegExp(`^${v2} of ${id} \\(web\\): staging soaks until (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\dZ, (30m(1s)?|29m\\d+s) left \\(then prod\\)$`));
    const staging = first.document.waves[1]!;
    expect(staging).toMatchObject({ env: 'staging', state: 'soaking', previousDefault: v1 });
    expect(Date.parse(staging.until!) - Date.parse(staging.since!)).toBe(1_800_000);
    expect((first.stop as WaitingError).resumeAfter).toBe(staging.until);
    expect(first.document.next).toEqual({ action: 'wait', for: 'soak', env: 'prod', soaking: 'staging', until: staging.until });
    expect(first.document.waves[2]).toMatchObject({ state: 'pending', gate: 'after staging soaks 30m' });
    expect(await defaults(id)).toEqual([v2, v2, v1]);

    const status = await rolloutStatus(await context(true), soak);
    expect(status.stop).toBeUndefined();
    expect(status.summary).toBe(`${v2} of ${id} (web): ${status.next}`);
    expect(status.document.next).toEqual(first.document.next);
    expect(await rolloutStanding(await context(true), await (await context(true)).api(), { assetId: id, versionId: v2, platform: 'web' }, { waves: ENVS, soak: { staging: '30m', qa: '1h', prod: 'later' } })).toMatch(/^dev done, staging soaking until \d\d:\d\dZ, prod pending: staging soaks until \d\d:\d\dZ, (30m(\d+s)?|29m\d+s) left \(then prod\)$/);

    // --wait beyond what --timeout leaves: said, and the run waits no more.
    const short = await context(true, { timeout: 60 });
    const tooLong = await startRollout(short, { ...soak, wait: true }, { sleep: () => Promise.reject(new Error('slept')) });
    expect(stopOf(tooLong)?.exitCode).toBe(11);
    expect(short.io.err.text).toMatch(/--wait: staging soaks until .*, longer than what --timeout leaves \((1m|\d+s)\)/);

    // --wait: the run's sleep moves the service's clock on by what it is asked to wait.
    const slept: string[] = [];
    const ctx = await context(true, { timeout: 3600 });
    const waited = await startRollout(ctx, { ...soak, wait: true }, {
      sleep: async (ms, line) => {
        slept.push(line(ms));
        advanceClock(ms + 1000);
      },
    });
    expect(slept).toEqual([expect.stringMatching(/^waiting: staging soaks until \d\d:\d\dZ, (30m(\d+s)?|29m\d+s) left$/)]);
    expect(waited.stop).toBeUndefined();
    expect(waited.document.promoted).toEqual(['prod']);
    expect(await defaults(id)).toEqual([v2, v2, v2]);
  });

  it('a soaking wave made the Default outside the rollout is recorded by the next run and soaks from that record', async () => {
    const { id, v1, v2 } = await seeded();
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const soak = options(id, v2, { soak: ['dev=1h'] });
    const status = await rolloutStatus(await context(true), soak);
    expect(status.document.next).toEqual({ action: 'record', env: 'dev' });
    const ctx = await context(true);
    const r = await startRollout(ctx, soak);
    expect(ctx.io.err.text).toContain(`dev: ${v2} is the Default without an entry of its promotion (its run stopped before recording it, or it was promoted outside the rollout): recorded now; its soak of 1h starts here\n`);
    expect(stopOf(r)?.message).toMatch(/: dev soaks until .*, (1h(\d+s)?|59m\d+s) left \(then staging\)$/);
    expect(Date.parse(r.document.waves[0]!.until!) - Date.parse(r.document.waves[0]!.since!)).toBe(3_600_000);
    expect(r.document.waves[0]).toMatchObject({ state: 'soaking', previousDefault: null });
    expect(r.document.promoted).toEqual([]);
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });
});

describe('rollout start: another run of the same rollout', () => {
  it('a wave another run promoted, whose entry that run records by its time: status and start wait for it (exit 11, until then); past that time, the next run records it', async () => {
    const { id, v1, v2 } = await seeded();
    const soak = options(id, v2, { soak: ['dev=10m'] });
    // Another run's intent (written before its promotion of dev), then its promotion: its own entry is still due.
    const recordBy = new Date(Date.now() + clockMoved + 300_000).toISOString();
    const intent = { asset: id, version: v2, platform: 'web', waves: ENVS, wave: 'dev', action: 'intent' as const, previousDefault: v1, recordBy, run: 'another-run' };
    expect(await recordRolloutEvent(await context(true), journal, intent)).toBe(true);
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);

    const status = await rolloutStatus(await context(true), soak);
    expect(status.document.next).toEqual({ action: 'wait', for: 'entry', env: 'staging', recording: 'dev', until: recordBy });
    expect(status.document.waves[0]).toMatchObject({ env: 'dev', state: 'unrecorded', until: recordBy, previousDefault: v1 });
    expect(status.next).toMatch(/^dev was promoted by another run, which records it by \d\d:\d\d(:\d\d)?Z \((5m(\d+s)?|4m\d+s) left\); its soak is measured from that record \(then staging\)$/);
    const standing = await rolloutStanding(await context(true), await (await context(true)).api(), { assetId: id, versionId: v2, platform: 'web' }, { waves: ENVS, soak: { dev: '10m' } });
    expect(standing).toMatch(/^dev unrecorded, staging pending, prod pending: dev was promoted by another run, which records it by /);
    const start = await startRollout(await context(true), soak);
    expect(stopOf(start)?.type).toBe('WaitingError');
    expect((start.stop as WaitingError).resumeAfter).toBe(recordBy);
    expect(start.document.promoted).toEqual([]);

    // --wait: the run waits for the other run's entry as for a soak.
    const lines: string[] = [];
    const waited = await startRollout(await context(true, { timeout: 3600 }), { ...soak, wait: true }, {
      sleep: async (ms, line) => {
        lines.push(line(ms));
        advanceClock(ms + 1000);
      },
    });
    expect(lines[0]).toMatch(/^waiting: the run that promoted dev records it until \d\d:\d\d(:\d\d)?Z, (5m(\d+s)?|4m\d+s) left$/);
    // Past its time, that run's entry never came: this one records the promotion (the intent's previous Default kept), and its soak starts then.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^waiting: dev soaks until \d\d:\d\d(:\d\d)?Z, (10m(\d+s)?|9m\d+s) left$/);
    expect(waited.stop).toBeUndefined();
    expect(waited.document.waves[0]).toMatchObject({ state: 'done', previousDefault: v1 });
    expect(await defaults(id)).toEqual([v2, v2, v2]);
  });
});

describe('rollout status: another run promotes between the two reads', () => {
  /** The emulator behind a proxy that runs `once` (another run's promotion) before the first read of the journal's collections goes through. */
  async function racing(once: () => Promise<void>): Promise<{ url: string; close(): Promise<void> }> {
    let fired = false;
    const server = createServer((req, res) => {
      const forward = async () => {
        if (!fired && req.url?.includes('/vc/')) {
          fired = true;
          await once();
        }
        const upstream = new URL(req.url ?? '/', h.emu.baseUrl);
        const out = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => res.writeHead(502).end());
        req.pipe(out);
      };
      void forward();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  it('the journal (read after the channels) has the promotion the channels did not show yet: that channel is read again, and the wave is done, not moved', async () => {
    const { id, v1, v2 } = await seeded();
    // Another run's intent and its entry of dev's promotion are on the record; its promotion lands between this run's two reads.
    const field = { asset: id, version: v2, platform: 'web', waves: ENVS, wave: 'dev', previousDefault: v1 };
    expect(await recordRolloutEvent(await context(true), journal, { ...field, action: 'intent', recordBy: new Date(Date.now() + clockMoved + 300_000).toISOString(), run: 'another-run' })).toBe(true);
    expect(await recordRolloutEvent(await context(true), journal, { ...field, action: 'promote' })).toBe(true);
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    const proxy = await racing(async () => {
      expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    });
    try {
      const r = await rolloutStatus(await context(true, {}, { AHS_BASE_URL: proxy.url }), options(id, v2));
      expect(r.document.waves.map((w) => w.state)).toEqual(['done', 'next', 'pending']);
      expect(r.document.next).toEqual({ action: 'promote', env: 'staging' });
      expect(r.stop).toBeUndefined();
    } finally {
      await proxy.close();
    }
    expect(await defaults(id)).toEqual([v2, v1, v1]);
  });
});

describe('rollout start: a wave locked by another holder', () => {
  async function lock(id: string, command: string, lockId: string): Promise<string> {
    const ctx = await context(false);
    const held = await acquireLock(ctx, await ctx.api(), { scope: { kind: 'channel', assetId: id, platform: 'web', env: 'dev' }, lockId, ttlMs: 600_000, user: DEMO_USER, command, env: {}, reason: 'holding', waitMs: 0, signal: new AbortController().signal });
    return (await lockStatus(ctx, await ctx.api(), held.scope)).leaseEnd!;
  }

  it('by another run of a rollout: it waits (exit 11, until that lease ends), nothing promoted; by any other command: blocked (exit 12)', async () => {
    const { id, v1, v2 } = await seeded();
    const leaseEnd = await lock(id, 'rollout start', 'other-rollout-run');
    const r = await startRollout(await context(false), options(id, v2, { waves: ['dev'] }));
    expect(stopOf(r)?.type).toBe('WaitingError');
    expect(r.stop?.message).toMatch(new RegExp(`^dev is being written by another run of a rollout \\(.*rollout start.*\\): run the same command again once it is done \\(its lease ends ${leaseEnd.replace(/[.]/g, '\\.')} at the latest\\)$`));
    expect((r.stop as WaitingError).resumeAfter).toBe(leaseEnd);
    expect(r.document.promoted).toEqual([]);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
    // The library's rollout() holds it as `rollout`: the same.
    const library = await seeded();
    await lock(library.id, 'rollout', 'library-rollout-run');
    const byLibrary = await startRollout(await context(false), options(library.id, library.v2, { waves: ['dev'] }));
    expect(stopOf(byLibrary)?.message).toMatch(/^dev is being written by another run of a rollout \(/);

    const other = await seeded();
    await lock(other.id, 'deploy', 'someone-deploying');
    const blocked = await startRollout(await context(false), options(other.id, other.v2, { waves: ['dev'] }));
    expect(stopOf(blocked)).toMatchObject({ type: 'BlockedError', exitCode: 12 });
    expect((blocked.stop as BlockedError).blockedBy).toBe('lock');
    expect(blocked.document.next).toEqual({ action: 'promote', env: 'dev' });
    expect(await defaults(other.id)).toEqual([other.v1, other.v1, other.v1]);
  });
});

describe('rollout start: another rollout in flight, a Default moved', () => {
  it('a hotfix while another rollout is in flight: blocked (exit 12, nothing sent); --supersede ends that one on the record, whose status then says superseded', async () => {
    const { id, v1, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    const first = await startRollout(await context(true), options(id, v2, { approve: ['prod'] }));
    expect(first.document.promoted).toEqual(['dev', 'staging']);

    const blocked = await startRollout(await context(true), options(id, v3));
    expect(stopOf(blocked)).toEqual({ type: 'BlockedError', exitCode: 12, message: `${v3} of ${id} (web): blocked: the rollout of ${v2} is in flight on this asset and platform (dev done, staging done, prod pending); to end it there and roll out ${v3} instead: the same command with --supersede` });
    expect((blocked.stop as BlockedError).blockedBy).toBe('rollout');
    expect(blocked.document.next).toEqual({ action: 'blocked', by: { version: v2, state: 'dev done, staging done, prod pending', waves: ENVS } });
    expect(await defaults(id)).toEqual([v2, v2, v1]);
    const status = await rolloutStatus(await context(true), options(id, v3));
    expect(stopOf(status)?.type).toBe('BlockedError');

    const ctx = await context(true);
    const hotfix = await startRollout(ctx, options(id, v3, { supersede: true }));
    expect(ctx.io.err.text).toContain(`the rollout of ${v2} (dev done, staging done, prod pending) ends here: superseded by ${v3}'s, on the record\n`);
    expect(hotfix.stop).toBeUndefined();
    expect(hotfix.document.promoted).toEqual(['dev', 'staging', 'prod']);
    expect(await defaults(id)).toEqual([v3, v3, v3]);

    const earlier = await rolloutStatus(await context(true), options(id, v2, { approve: ['prod'] }));
    expect(earlier.document.next).toMatchObject({ action: 'superseded', version: v3, by: DEMO_USER, at: expect.stringMatching(/^\d{4}-/) });
    // Its time is that of the supersede entry (on v2's record).
    const ended = (await rolloutEntries(await context(true), journal, { asset: id, version: v2, platform: 'web' }, new Date(Date.now() + clockMoved - 600_000))).find((e) => e.rollout.action === 'supersede')!;
    expect(ended.rollout).toMatchObject({ wave: '*', by: v3 });
    expect((earlier.document.next as { at: string }).at).toBe(new Date(ended.at).toISOString());
    expect(stopOf(earlier)).toMatchObject({ type: 'BlockedError', exitCode: 12 });
    expect(earlier.stop?.message).toMatch(new RegExp(`: superseded: ${DEMO_USER.replace('.', '\\.')} started the rollout of ${v3} in its place at \\d\\d:\\d\\d(:\\d\\d)?Z; nothing was sent$`));
    // Its error body says by what: a rollout (as a blocked one's does).
    expect(earlier.stop!.toBody()).toMatchObject({ type: 'urn:ahs:blocked', blockedBy: 'rollout' });
    const rerun = await startRollout(await context(true), options(id, v2, { approve: ['prod'], approved: ['prod'] }));
    expect(stopOf(rerun)?.type).toBe('BlockedError');
    expect(await defaults(id)).toEqual([v3, v3, v3]);
  });

  it('a complete rollout that the next version\'s rollout moved on from says superseded by it (exit 12, nothing sent), never moved; a wave moved by a plain promotion is still moved', async () => {
    const { id, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    const v4 = await h.uploadVersion(id, 'web', '4.0');
    expect((await startRollout(await context(true), options(id, v2))).stop).toBeUndefined();
    // The next release train: v3 takes dev and staging; prod waits for its approval. Nothing blocks it.
    const next = await startRollout(await context(true), options(id, v3, { approve: ['prod'] }));
    expect(next.document.promoted).toEqual(['dev', 'staging']);
    const earlier = await rolloutStatus(await context(true), options(id, v2));
    expect(earlier.document.next).toEqual({ action: 'superseded', version: v3, by: DEMO_USER, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(stopOf(earlier)).toMatchObject({ type: 'BlockedError', exitCode: 12 });
    const rerun = await startRollout(await context(true), options(id, v2));
    expect(stopOf(rerun)?.message).toMatch(new RegExp(`superseded: ${DEMO_USER.replace('.', '\\.')} started the rollout of ${v3} in its place at .*; nothing was sent$`));
    expect(await defaults(id)).toEqual([v3, v3, v2]);

    // v3's prod made v4's Default by hand (no rollout of v4 on the record): v3's rollout is halted there, moved.
    await h.deploy(id, v4, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id, v4, 'web', 'dev', 'DEFAULT', { currentVersionId: v3, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const moved = await rolloutStatus(await context(true), options(id, v3, { approve: ['prod'] }));
    expect(moved.document.next).toEqual({ action: 'halt', env: 'dev', found: v4 });
  });

  it('which rollout is in flight: a superseded one blocks nothing though its version still serves a wave; one behind a plain Default is found, its waves with no Default pending', async () => {
    const { id, v1, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    const v4 = await h.uploadVersion(id, 'web', '4.0');
    await startRollout(await context(true), options(id, v2, { approve: ['prod'] }));
    const hotfix = await startRollout(await context(true), options(id, v3, { waves: [...ENVS, 'qa'], approve: ['staging'], supersede: true }));
    expect(hotfix.document.promoted).toEqual(['dev']);
    expect(await defaults(id)).toEqual([v3, v2, v1]);
    // staging still serves v2, whose rollout v3's superseded: nothing in flight there.
    const free = await rolloutStatus(await context(true), options(id, v4, { waves: ['staging', 'prod'] }));
    expect(free.document.next).toEqual({ action: 'promote', env: 'staging' });
    // prod's Default (v1) has no rollout; dev's (v3) has, in flight: that one blocks.
    const blocked = await rolloutStatus(await context(true), options(id, v4, { waves: ['prod', 'dev'] }));
    expect(blocked.document.next).toEqual({ action: 'blocked', by: { version: v3, state: 'dev done, staging pending, prod pending, qa pending', waves: [...ENVS, 'qa'] } });
  });

  it('a rollout that has promoted a wave is not blocked by another version\'s rollout started since', async () => {
    const { id, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    expect((await startRollout(await context(true), options(id, v3, { waves: ['dev', 'staging'], approve: ['staging'] }))).document.promoted).toEqual(['dev']);
    expect((await startRollout(await context(true), options(id, v2, { waves: ['staging', 'prod'], approve: ['prod'] }))).document.promoted).toEqual(['staging']);
    const status = await rolloutStatus(await context(true), options(id, v3, { waves: ['dev', 'staging'], approve: ['staging'] }));
    expect(status.document.next.action).not.toBe('blocked');
    expect(status.document.next).toEqual({ action: 'wait', for: 'approval', env: 'staging' });
  });

  it('an aborted rollout that left a wave alone (nothing proved its previous Default) blocks nothing, though its version is still that wave\'s Default', async () => {
    const { id, v1, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    // dev made v2's Default by hand: no entry proves what was there before.
    await h.deploy(id, v2, 'web', 'dev', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'dev', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const waves = { waves: ['dev', 'staging'] };
    expect((await startRollout(await context(true), options(id, v2, waves))).document.promoted).toEqual(['staging']);
    const abort = await abortRollout(await context(true), options(id, v2, waves));
    expect(abort.document).toMatchObject({ restored: ['staging'], left: [{ env: 'dev', why: 'unknown', to: `--to dev=${v1}` }] });
    expect(await defaults(id)).toEqual([v2, v1, v1]);
    const next = await rolloutStatus(await context(true), options(id, v3, waves));
    expect(next.document.next).toEqual({ action: 'promote', env: 'dev' });
  });

  it('a halted rollout blocks another, its state saying so; an aborted or a complete one blocks nothing', async () => {
    const { id, v1, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    await startRollout(await context(true), options(id, v2, { check: '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != dev/after ]' }));
    const blocked = await rolloutStatus(await context(true), options(id, v3));
    expect(blocked.document.next).toEqual({ action: 'blocked', by: { version: v2, state: 'dev done, staging pending, prod pending (halted by a failed check on dev)', waves: ENVS } });
    await abortRollout(await context(true), options(id, v2));
    expect(await defaults(id)).toEqual([v1, v1, v1]);
    const free = await rolloutStatus(await context(true), options(id, v3));
    expect(free.document.next).toEqual({ action: 'promote', env: 'dev' });
  });

  it('a wave whose Default someone moved since: the rollout halts (exit 5) naming what is there; abort leaves that wave alone (exit 5) and restores the others', async () => {
    const { id, v1, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    await startRollout(await context(true), options(id, v2, { approve: ['prod'] }));
    await h.deploy(id, v3, 'web', 'staging', 'LIVE');
    expect((await h.deploy(id, v3, 'web', 'staging', 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const r = await startRollout(await context(true), options(id, v2, { approve: ['prod'], approved: ['prod'] }));
    expect(stopOf(r)).toEqual({ type: 'ConflictError', exitCode: 5, message: `${v2} of ${id} (web): halted: staging's Default is ${v3} now, moved by someone else since this rollout promoted it; to put back the waves this rollout promoted: ${abortLine(id, v2)}` });
    expect(r.document.next).toEqual({ action: 'halt', env: 'staging', found: v3 });
    expect(r.document.waves[1]!.state).toBe('moved');
    expect(await defaults(id)).toEqual([v2, v3, v1]);
    const status = await rolloutStatus(await context(true), options(id, v2));
    expect(stopOf(status)?.type).toBe('ConflictError');

    const ctx = await context(true);
    const abort = await abortRollout(ctx, options(id, v2));
    expect(stopOf(abort)).toEqual({ type: 'ConflictError', exitCode: 5, message: `abort of ${v2} of ${id} (web): restored dev; left alone: staging (moved by someone else since)` });
    expect(abort.document).toMatchObject({ restored: ['dev'], left: [{ env: 'staging', why: 'moved', found: v3 }] });
    expect(abort.summary).toBeUndefined();
    expect(ctx.io.err.text).toContain(`${id}/web/staging: left alone, someone moved its Default to ${v3} since this rollout made it ${v2}\n`);
    expect(await defaults(id)).toEqual([v1, v3, v1]);
  });
});

describe('rollout abort without the journal', () => {
  it('--to names what a wave gets back; a wave that nothing proves is left alone naming the --to that would (the one version LIVE there)', async () => {
    const { id, v1, v2 } = await seeded();
    await startRollout(await context(false), options(id, v2));
    const ctx = await context(false);
    const abort = await abortRollout(ctx, options(id, v2, { to: [` prod = ${v1} `] }));
    expect(abort.document.restored).toEqual(['prod']);
    expect(abort.document.left).toEqual([
      { env: 'staging', why: 'unknown', to: `--to staging=${v1}` },
      { env: 'dev', why: 'unknown', to: `--to dev=${v1}` },
    ]);
    expect(stopOf(abort)).toEqual({ type: 'ConflictError', exitCode: 5, message: `abort of ${v2} of ${id} (web): restored prod; left alone: staging (its previous Default is not proven: --to staging=${v1}), dev (its previous Default is not proven: --to dev=${v1})` });
    expect(ctx.io.err.text).toContain(`${id}/web/dev: left alone: ${v2} is its Default, and neither the journal nor --to says what was before (LIVE there: ${v1}); to put one back: ${abortLine(id, v2)} --to dev=${v1}\n`);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
  });

  it('a wave with no other version LIVE names VERSION_ID; a --to of a version not LIVE there is refused, nothing sent', async () => {
    const id = uid('ro');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'web', '1.0');
    const v2 = await h.uploadVersion(id, 'web', '2.0');
    await startRollout(await context(false), options(id, v2, { waves: ['dev'] }));
    const ctx = await context(false);
    const abort = await abortRollout(ctx, options(id, v2, { waves: ['dev', 'staging'], to: ['staging=' + v1] }));
    expect(abort.document.left).toEqual([{ env: 'dev', why: 'unknown', to: '--to dev=VERSION_ID' }]);
    expect(ctx.io.err.text).toContain('(no other version is LIVE there)');
    const refused = await failure(abortRollout(await context(false), options(id, v2, { waves: ['dev'], to: ['dev=' + v1] })));
    expect(refused).toBeInstanceOf(AhsError);
    expect(refused.message).toContain(`${v1} is not deployed on ${id}/web/dev: it cannot be made the Default again as it is`);
    expect(await h.records(id)).toEqual([`web/dev/${v2}=DEFAULT`]);
  });
});
