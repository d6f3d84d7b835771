// ahs rollout (cli.md "Rollouts across environments"): the built binary
// against the emulator. Each run reads the channels (and the journal) and
// moves the rollout on from where it stands; nothing is kept locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const ENVS = ['dev', 'staging', 'prod'];
const WAVES = ['--platform', 'web', '--waves', ENVS.join(',')];

/** An asset whose 1.0 (WEB1) is the Default of dev, staging and prod, and a 2.0 (WEB2) uploaded, not deployed. */
async function seeded() {
  const id = uid('ro');
  await h.createAsset(id);
  const v1 = await h.uploadVersion(id, 'web', '1.0');
  const v2 = await h.uploadVersion(id, 'web', '2.0');
  for (const env of ENVS) {
    await h.deploy(id, v1, 'web', env, 'LIVE');
    await h.deploy(id, v1, 'web', env, 'DEFAULT');
  }
  return { id, v1, v2 };
}

/** The Default of each wave, in order. */
async function defaults(id: string): Promise<string[]> {
  const records = await h.records(id);
  return ENVS.map((env) => records.find((r) => r.startsWith(`web/${env}/`) && r.endsWith('=DEFAULT'))?.split('/')[2]?.split('=')[0] ?? 'none');
}

const ahs = (args: string[], env: Record<string, string> = {}) => h.ahs(args, { binary: true, env });

describe('ahs rollout: approvals, checks', () => {
  it('--approve prod stops before prod with exit 11 until a run with --approved prod; then complete, and a re-run sends nothing', async () => {
    const { id, v1, v2 } = await seeded();
    const first = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod', '--json']);
    expect(first.exitCode, first.stderr).toBe(11);
    expect(first.errJson()).toMatchObject({ type: 'urn:ahs:waiting', status: null, title: `${v2} of ${id} (web): prod waits for approval: run with --approved prod` });
    expect(first.json()).toMatchObject({
      asset: id,
      version: v2,
      waves: [
        { env: 'dev', state: 'done', gate: null },
        { env: 'staging', state: 'done', gate: null },
        { env: 'prod', state: 'waiting-approval', gate: 'approval' },
      ],
      next: { action: 'wait', for: 'approval', env: 'prod' },
      promoted: ['dev', 'staging'],
    });
    expect(await defaults(id)).toEqual([v2, v2, v1]);

    // The same command line again (the staging job re-run): still waiting, nothing sent.
    const again = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod', '--verbose']);
    expect(again.exitCode).toBe(11);
    expect(again.stderr).toMatch(/^waiting: .*prod waits for approval: run with --approved prod$/m);
    expect(again.stderr).not.toMatch(/> POST /);

    const approved = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod', '--approved', 'prod']);
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(`${v2} is now the Default of ${id}/web/prod (previous Default ${v1}, now LIVE)`);
    expect(approved.stderr).toMatch(/prod serves WEB2 byte for byte \(7 bytes, SHA-256 [0-9a-f]{12}…, as staging\)/);
    expect(approved.stderr).toContain('the rollout is complete');
    expect(await defaults(id)).toEqual([v2, v2, v2]);
    expect(await h.records(id)).toContain(`web/prod/${v1}=LIVE`);

    const done = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod', '--approved', 'prod', '--verbose', '--json']);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).not.toMatch(/> POST /);
    expect(done.json()).toMatchObject({ next: { action: 'complete' }, promoted: [] });
  });

  it('a --check that fails on staging halts with exit 1 naming the abort command, prod untouched; the check sees its wave and the version\'s own URL', async () => {
    const { id, v1, v2 } = await seeded();
    const log = join(h.dir, `${id}.log`);
    // Fails after staging's promotion; records every call.
    const check = `echo "$AHS_ROLLOUT_PHASE $AHS_ROLLOUT_ENV $AHS_ROLLOUT_WAVE $AHS_ROLLOUT_URL" >> ${log}; [ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/after ]`;
    const r = await ahs(['rollout', id, v2, ...WAVES, '--check', check]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`error: the check failed after promoting staging (exit 1): the rollout of ${v2} of ${id} (web) halts (staging is promoted); to put back the waves it promoted: ahs rollout abort ${id} ${v2} --platform web --waves dev,staging,prod`);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
    expect(await h.records(id)).not.toContain(`web/prod/${v2}=LIVE`);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toEqual([
      `before dev 1 ${h.emu.deliveryUrl}/api/vi/demo/va/${id}/web/dev/${v2}/bundle.zip`,
      `after dev 1 ${h.emu.deliveryUrl}/api/vi/demo/va/${id}/web/dev/${v2}/bundle.zip`,
      `before staging 2 ${h.emu.deliveryUrl}/api/vi/demo/va/${id}/web/staging/${v2}/bundle.zip`,
      `after staging 2 ${h.emu.deliveryUrl}/api/vi/demo/va/${id}/web/staging/${v2}/bundle.zip`,
    ]);
  });

  it('a --check that fails before a promotion leaves that wave unpromoted; an inconclusive one (exit 3) waits with exit 11', async () => {
    const { id, v1, v2 } = await seeded();
    const failing = await ahs(['rollout', id, v2, ...WAVES, '--check', '[ "$AHS_ROLLOUT_ENV" != dev ]']);
    expect(failing.exitCode).toBe(1);
    expect(failing.stderr).toContain('the check failed before promoting dev (exit 1)');
    expect(failing.stderr).toContain('(dev is not promoted)');
    expect(await defaults(id)).toEqual([v1, v1, v1]);
    const unsure = await ahs(['rollout', id, v2, ...WAVES, '--check', 'exit 3', '--json']);
    expect(unsure.exitCode).toBe(11);
    expect(unsure.errJson()).toMatchObject({ type: 'urn:ahs:waiting', title: 'the check was inconclusive before promoting dev (exit 3): dev is not promoted; run the same command again later' });
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });

  it('bad input: one line naming the fix, exit 2, nothing sent', async () => {
    const { id, v2 } = await seeded();
    const cases: Array<[string[], RegExp]> = [
      [['rollout', id, v2, '--platform', 'web'], /^error: --waves is required: the environments in order, e\.g\. --waves dev,staging,prod$/m],
      [['rollout', id, v2, ...WAVES, '--soak', 'qa=2s'], /^error: --soak qa: not one of --waves \(dev,staging,prod\)$/m],
      [['rollout', id, v2, ...WAVES, '--soak', 'staging'], /^error: --soak takes ENV=DURATION, e\.g\. --soak staging=30m/m],
      [['rollout', id, v2, '--platform', 'web', '--waves', 'dev,dev'], /--waves names dev twice/],
      [['rollout', id, '--platform', 'web', '--waves', 'dev'], /^error: VERSION_ID or --name VERSION_NAME is required/m],
      [['rollout', id, v2, ...WAVES, '--approve', 'qa'], /^error: --approve qa: not one of --waves/m],
    ];
    for (const [args, message] of cases) {
      const r = await ahs(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const unknown = await ahs(['rollout', id, '--name', '9.9', ...WAVES]);
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toContain(`${id} has no web version named 9.9`);
  });

  it('a soak without a journal is exit 2 naming ahs journal init', async () => {
    const { id, v1, v2 } = await seeded();
    const r = await ahs(['rollout', id, v2, ...WAVES, '--soak', 'staging=2s']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: a soak time needs the journal .*start one with `ahs journal init`/m);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });

  it('--dry-run says which wave, which gates hold and the requests; sends nothing', async () => {
    const { id, v1, v2 } = await seeded();
    const r = await ahs(['rollout', id, '--name', '2.0', ...WAVES, '--approve', 'prod', '--dry-run', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = r.json();
    expect(doc).toMatchObject({ dryRun: true, next: { action: 'promote', env: 'dev' }, waves: [{ env: 'dev', state: 'next' }, { env: 'staging', state: 'pending' }, { env: 'prod', state: 'pending', gate: 'approval' }] });
    expect(doc.requests.map((q: any) => [q.request.method, q.request.path, q.request.body.intent, q.predicted.status])).toEqual([
      ['POST', `/api/v2/demo/va/${id}/versions/${v2}/deploy`, 'LIVE', 201],
      ['POST', `/api/v2/demo/va/${id}/versions/${v2}/deploy`, 'DEFAULT', 201],
    ]);
    expect(doc.requests[1].request.body).toMatchObject({ currentVersionId: v1, currentAssetIntent: 'LIVE' });
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });

  it('under GitHub Actions: outputs next-wave, waiting-for, resume-after; the waves as a table in the step summary; a wait is a notice, not an error', async () => {
    const { id, v2 } = await seeded();
    const output = join(h.dir, `${id}.out`);
    const summary = join(h.dir, `${id}.md`);
    const r = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod'], { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary });
    expect(r.exitCode).toBe(11);
    expect(r.stderr).not.toContain('::error');
    expect(r.stderr).toContain('::notice title=ahs rollout start waits (exit 11)::');
    const outputs = Object.fromEntries([...readFileSync(output, 'utf8').matchAll(/^(.+?)<<(ghadelimiter_[^\n]+)\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1], m[3]]));
    expect(outputs).toMatchObject({ 'exit-code': '11', 'next-wave': 'prod', 'waiting-for': 'approval', 'resume-after': '', state: 'wait', promoted: 'dev\nstaging', changed: 'true' });
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('### ahs rollout start: waiting (exit 11)');
    expect(md).toContain('| wave | state | gate | since | until | previous Default |');
    expect(md).toContain('| prod | waiting-approval | approval |  |  |  |');
    expect(md).toContain('next: prod waits for approval (a run with --approved prod); promoted by this run: dev, staging');
  });
});
