// ahs rollout (cli.md "Rollouts across environments"): main() against the
// emulator over real HTTP (the built binary's exit 11 is the first test's).
// Each run reads the channels (and the journal) and moves the rollout on
// from where it stands; nothing is kept locally.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO_API_KEY, DEMO_USER, assertFreshBuild, harness, uid, type Harness } from './helpers.js';
import { WAVES, seededRollout, waveDefaults } from './rollout-fixture.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const seeded = () => seededRollout(h);
const defaults = (id: string) => waveDefaults(h, id);
const ahs = (args: string[], env: Record<string, string> = {}) => h.ahs(args, { env });

/** The emulator behind a proxy whose Date headers are `shift` ms ahead: the service's clock, moved on without waiting. */
async function shiftedClock(shift: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const upstream = new URL(req.url ?? '/', h.emu.baseUrl);
    const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, date: new Date(Date.now() + shift).toUTCString() });
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
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

describe('ahs rollout: approvals, checks', () => {
  it('--approve prod stops before prod with exit 11 until a run with --approved prod; then complete, and a re-run sends nothing', async () => {
    const { id, v1, v2 } = await seeded();
    // A CI job's exit 11 is the built binary's process exit code.
    const first = await h.ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod', '--json'], { binary: true });
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

  it('what a --check prints reaches stderr with the API key redacted (the check inherits it, for an ahs inside the check)', async () => {
    const { id, v2 } = await seeded();
    const r = await ahs(['rollout', id, v2, '--platform', 'web', '--waves', 'dev', '--check', 'echo "out key=$AHS_API_KEY"; echo "err key=$AHS_API_KEY" >&2']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^out key=\*+$/m);
    expect(r.stderr).toMatch(/^err key=\*+$/m);
    expect(r.stderr + r.stdout).not.toContain(DEMO_API_KEY);
  });

  it('a check reads the secured asset with the run\'s own settings (a profile here): ahs version download inside it gets the version, the key on no command line', async () => {
    assertFreshBuild();
    const { id, v1, v2 } = await seeded();
    const config = join(h.dir, `${id}-config`);
    const bare = { bare: true, env: { AHS_CONFIG_DIR: config } };
    // The current profile has no key that works; the run is given another one (--profile ci): only what the run passes to the check reads the asset.
    const other = await h.ahs(['profile', 'add', 'other', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--api-key-stdin'], { ...bare, input: 'not-a-key\n' });
    expect(other.exitCode, other.stderr).toBe(0);
    const add = await h.ahs(['profile', 'add', 'ci', '--base-url', h.emu.baseUrl, '--delivery-url', h.emu.deliveryUrl, '--domain', 'demo', '--platform', 'web', '--user', DEMO_USER, '--api-key-stdin'], { ...bare, input: `${DEMO_API_KEY}\n` });
    expect(add.exitCode, add.stderr).toBe(0);
    const out = join(h.dir, `${id}-fetched`);
    // Without the run's settings in its environment, the check's ahs would have no key: the asset is secured (403).
    const refused = await h.ahs(['fetch', '--url', `${h.emu.deliveryUrl}/api/vi/demo/va/${id}/web/dev/${v1}/bundle.zip`, '--dir', out], { bare: true, env: { AHS_CONFIG_DIR: join(h.dir, `${id}-none`) } });
    expect(refused.exitCode).not.toBe(0);
    const check = `mkdir -p "${out}/$AHS_ROLLOUT_PHASE-$AHS_ROLLOUT_ENV" && node '${BIN}' version download "$AHS_ROLLOUT_ASSET" "$AHS_ROLLOUT_VERSION" -O "${out}/$AHS_ROLLOUT_PHASE-$AHS_ROLLOUT_ENV/bundle.zip" --quiet`;
    const r = await h.ahs(['rollout', id, v2, '--waves', 'dev,staging', '--check', check, '--profile', 'ci'], bare);
    expect(r.exitCode, r.stderr).toBe(0);
    for (const where of ['before-dev', 'after-dev', 'before-staging', 'after-staging']) expect(readFileSync(join(out, where, 'bundle.zip'), 'utf8')).toBe('payload');
    expect(r.stderr + r.stdout).not.toContain(DEMO_API_KEY);
  });

  it('a check fetches what it checks: ahs fetch --url "$AHS_ROLLOUT_URL" --dir "$DIR" inside it downloads the secured version file with the run\'s own settings (a profile here), the key on no command line', async () => {
    assertFreshBuild();
    const { id, v1, v2 } = await seeded();
    const config = join(h.dir, `${id}-config`);
    const bare = { bare: true, env: { AHS_CONFIG_DIR: config } };
    const add = await h.ahs(['profile', 'add', 'ci', '--base-url', h.emu.baseUrl, '--delivery-url', h.emu.deliveryUrl, '--domain', 'demo', '--platform', 'web', '--user', DEMO_USER, '--api-key-stdin'], { ...bare, input: `${DEMO_API_KEY}\n` });
    expect(add.exitCode, add.stderr).toBe(0);
    const out = join(h.dir, `${id}-fetched-url`);
    // Without the run's settings, the same fetch of the secured file is refused: the service's 403 (exit 3), nothing saved.
    const refused = await h.ahs(['fetch', '--url', `${h.emu.deliveryUrl}/api/vi/demo/va/${id}/web/dev/${v1}/bundle.zip`, '--dir', join(out, 'refused')], { bare: true, env: { AHS_CONFIG_DIR: join(h.dir, `${id}-none`) } });
    expect(refused.exitCode, refused.stderr).toBe(3);
    expect(existsSync(join(out, 'refused'))).toBe(false);
    const check = `node '${BIN}' fetch --url "$AHS_ROLLOUT_URL" --dir "${out}/$AHS_ROLLOUT_PHASE-$AHS_ROLLOUT_ENV" --quiet`;
    const r = await h.ahs(['rollout', id, v2, '--waves', 'dev,staging', '--check', check, '--profile', 'ci'], bare);
    expect(r.exitCode, r.stderr).toBe(0);
    // Before a promotion the check reads the version LIVE there, after it the Default: the same file, byte for byte.
    for (const where of ['before-dev', 'after-dev', 'before-staging', 'after-staging']) {
      expect(readdirSync(join(out, where))).toEqual(['bundle.zip']);
      expect(readFileSync(join(out, where, 'bundle.zip'), 'utf8')).toBe('payload');
    }
    expect(r.stderr + r.stdout).not.toContain(DEMO_API_KEY);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
  });

  it('status and --dry-run say what change control would refuse at the next wave (a freeze, a blocked version): exit 12, nothing sent; 0 once lifted', async () => {
    const { id, v1, v2 } = await seeded();
    expect((await ahs(['version', 'block', id, v2, '--reason', 'INC-9 crash'])).exitCode).toBe(0);
    const status = await ahs(['rollout', 'status', id, v2, ...WAVES]);
    expect(status.exitCode, status.stderr).toBe(12);
    expect(status.stderr).toContain(`error: ${v2} of ${id} (web): dev is promoted next, but version ${v2} of ${id} is blocked by owner@demo.test`);
    expect(status.stderr).toContain('INC-9 crash');
    const dry = await ahs(['rollout', id, v2, ...WAVES, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(12);
    expect(dry.stderr).toContain('warning: a real run would be refused:');
    expect(JSON.parse(dry.stderr.trim().split('\n').pop()!)).toMatchObject({ type: 'urn:ahs:blocked', blockedBy: 'version' });
    expect((await ahs(['version', 'unblock', id, v2, '--reason', 'fixed'])).exitCode).toBe(0);
    expect((await ahs(['freeze', 'dev', '--for', '1h', '--reason', 'holiday'])).exitCode).toBe(0);
    try {
      const frozen = await ahs(['rollout', 'status', id, v2, ...WAVES, '--json']);
      expect(frozen.exitCode, frozen.stderr).toBe(12);
      expect(frozen.errJson()).toMatchObject({ type: 'urn:ahs:blocked', blockedBy: 'freeze', until: expect.stringMatching(/^20\d\d-/) });
    } finally {
      expect((await ahs(['unfreeze', 'dev'])).exitCode).toBe(0);
    }
    const open = await ahs(['rollout', 'status', id, v2, ...WAVES]);
    expect(open.exitCode, open.stderr).toBe(0);
    expect(open.stderr).toContain('dev is promoted next');
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

  it('the desired-state file declares the asset\'s rollout: the command line names only the asset and the version; flags override it', async () => {
    const { id, v1, v2 } = await seeded();
    const file = await h.file(`${id}.yaml`, `apiVersion: ahs/v1\nassets:\n  ${id}:\n    name: ${id}\n    type: "1001"\n    rollout:\n      waves: [dev, staging, prod]\n      approve: [prod]\n`);
    const r = await ahs(['rollout', id, v2, '--platform', 'web', '--file', file, '--json']);
    expect(r.exitCode, r.stderr).toBe(11);
    expect(r.json()).toMatchObject({ promoted: ['dev', 'staging'], next: { action: 'wait', for: 'approval', env: 'prod' } });
    expect(await defaults(id)).toEqual([v2, v2, v1]);
    // A flag given wins over the file's value.
    const only = await ahs(['rollout', 'status', id, v2, '--platform', 'web', '--file', file, '--waves', 'dev', '--json']);
    expect(only.json().waves.map((w: { env: string }) => w.env)).toEqual(['dev']);
    const none = await ahs(['rollout', id, v2, '--platform', 'web', '--file', await h.file(`${id}-none.yaml`, 'apiVersion: ahs/v1\n')]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain(`declares no rollout for ${id} (assets.${id}.rollout: {waves, soak, check, approve})`);
    const bad = await ahs(['rollout', id, v2, '--platform', 'web', '--file', await h.file(`${id}-bad.yaml`, `apiVersion: ahs/v1\nassets:\n  ${id}:\n    name: x\n    type: "1001"\n    rollout: { waves: [] }\n`)]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/-bad\.yaml:6:\d+: assets\..*\.rollout\.waves: must name at least one environment/);
  });

  it('plan says where each version the file names stands in the rollout its asset declares, and sends nothing', async () => {
    const { id, v1 } = await seeded();
    const build = await h.file(`${id}-3.0.zip`, 'the 3.0 build');
    const uploaded = await ahs(['version', 'upload', id, build, '--platform', 'web', '--name', '3.0', '--json']);
    expect(uploaded.exitCode, uploaded.stderr).toBe(0);
    const v3 = uploaded.json().versionId as string;
    const file = await h.file(
      `${id}-plan.yaml`,
      `apiVersion: ahs/v1\nassets:\n  ${id}:\n    name: ${id}\n    type: "1001"\n    versions:\n      web:\n        "3.0": ${build}\n    rollout:\n      waves: [dev, staging, prod]\n      approve: [prod]\n`,
    );
    const before = await ahs(['plan', '-f', file]);
    expect(before.exitCode, before.stderr).toBe(0);
    expect(before.stdout + before.stderr).toContain(`rollout of web/3.0 (${v3}) through dev,staging,prod: dev next, staging pending, prod pending: dev is promoted next`);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
    const moved = await ahs(['rollout', id, v3, '--platform', 'web', '--file', file]);
    expect(moved.exitCode, moved.stderr).toBe(11);
    const after = await ahs(['plan', '-f', file, '--json']);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(JSON.stringify(after.json().notes)).toContain(`rollout of web/3.0 (${v3}) through dev,staging,prod: dev done, staging done, prod waiting-approval: prod waits for approval: run with --approved prod`);
    expect(await defaults(id)).toEqual([v3, v3, v1]);
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

describe('ahs rollout with the journal: soak, abort', () => {
  let journal: Record<string, string>;
  beforeAll(async () => {
    const id = uid('jr');
    const init = await ahs(['journal', 'init', id, '--env', 'dev']);
    expect(init.exitCode, init.stderr).toBe(0);
    journal = { AHS_JOURNAL: id };
  });

  it('--soak staging=1h, run four times: dev and staging then exit 11 naming the soak; 11 with the time left and no write; prod once the service\'s clock is past it; then nothing', async () => {
    const { id, v1, v2 } = await seeded();
    const line = ['rollout', id, v2, ...WAVES, '--soak', 'staging=1h'];
    const first = await ahs([...line, '--json'], journal);
    expect(first.exitCode, first.stderr).toBe(11);
    const err = first.errJson();
    expect(err).toMatchObject({ type: 'urn:ahs:waiting', status: null });
    // The clock time, with the date when the soak ends on another day (run after 23:00Z).
    expect(err.title).toMatch(new RegExp(`^${v2} of ${id} \\(web\\): staging soaks until (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\dZ, (1h|59m\\d+s) left \\(then prod\\)$`));
    const doc = first.json();
    expect(doc).toMatchObject({
      promoted: ['dev', 'staging'],
      next: { action: 'wait', for: 'soak', env: 'prod', soaking: 'staging' },
      waves: [
        { env: 'dev', state: 'done', previousDefault: v1 },
        { env: 'staging', state: 'soaking', previousDefault: v1 },
        { env: 'prod', state: 'pending', gate: 'after staging soaks 1h' },
      ],
    });
    // The soak is the journal entry's service time plus 1 h.
    const staging = doc.waves[1];
    expect(Date.parse(staging.until) - Date.parse(staging.since)).toBe(3_600_000);
    expect(doc.next.until).toBe(staging.until);
    expect(await defaults(id)).toEqual([v2, v2, v1]);

    const second = await ahs([...line, '--verbose'], journal);
    expect(second.exitCode, second.stderr).toBe(11);
    expect(second.stderr).toMatch(/^waiting: .*staging soaks until (\d{4}-\d\d-\d\d )?\d\d:\d\dZ, (1h|59m\d+s) left \(then prod\)$/m);
    expect(second.stderr).not.toMatch(/> POST /);

    // The Date headers 3 s late (a loaded gateway, a second's resolution): the service's clock is still at least the
    // time of the newest entry it wrote, so the soak never reads longer than asked ("1h3s left" before).
    const late = await shiftedClock(-3_000);
    try {
      const status = await ahs(['rollout', 'status', id, v2, ...WAVES, '--soak', 'staging=1h'], { ...journal, AHS_BASE_URL: late.url });
      expect(status.exitCode, status.stderr).toBe(0);
      expect(status.stderr).toMatch(/staging soaks until .*, (1h|59m\d+s) left \(then prod\)/);
      const again = await ahs([...line, '--json'], { ...journal, AHS_BASE_URL: late.url });
      expect(again.exitCode, again.stderr).toBe(11);
      expect(again.errJson().title).toMatch(/, (1h|59m\d+s) left \(then prod\)$/);
    } finally {
      await late.close();
    }

    // An hour later on the service's clock (its Date headers; this machine's clock has not moved): prod is promoted.
    const later = await shiftedClock(3_601_000);
    try {
      const third = await ahs(line, { ...journal, AHS_BASE_URL: later.url });
      expect(third.exitCode, third.stderr).toBe(0);
      expect(third.stderr).toContain(`${v2} is now the Default of ${id}/web/prod (previous Default ${v1}, now LIVE)`);
      expect(third.stderr).toContain('the rollout is complete');
    } finally {
      await later.close();
    }
    expect(await defaults(id)).toEqual([v2, v2, v2]);

    const fourth = await ahs([...line, '--verbose', '--json'], journal);
    expect(fourth.exitCode, fourth.stderr).toBe(0);
    expect(fourth.stderr).not.toMatch(/> POST /);
    expect(fourth.json()).toMatchObject({ next: { action: 'complete' }, promoted: [], waves: [{ state: 'done' }, { state: 'soaking' }, { state: 'done', previousDefault: v1 }] });
  });

  it('a soaking wave promoted outside the rollout (no entry of it in the journal) is recorded by the next run and soaks from that record: exit 11, prod untouched', async () => {
    const { id, v1, v2 } = await seeded();
    // staging made v2's Default by hand: the journal has no entry of this rollout promoting it.
    await h.deploy(id, v2, 'web', 'staging', 'LIVE');
    expect((await h.deploy(id, v2, 'web', 'staging', 'DEFAULT', { currentVersionId: v1, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const line = ['rollout', id, v2, ...WAVES, '--soak', 'staging=1h'];
    const run = await ahs([...line, '--json'], journal);
    expect(run.exitCode, run.stderr).toBe(11);
    expect(run.stderr).toContain(`staging: ${v2} is the Default without an entry of its promotion (its run stopped before recording it, or it was promoted outside the rollout): recorded now; its soak of 1h starts here`);
    const doc = run.json();
    expect(doc).toMatchObject({ promoted: ['dev'], next: { action: 'wait', for: 'soak', env: 'prod', soaking: 'staging' }, waves: [{ state: 'done' }, { state: 'soaking' }, { state: 'pending' }] });
    // The soak runs from the record, made after the promotion: never shorter than asked.
    expect(Date.parse(doc.next.until) - Date.parse(doc.waves[1].since)).toBe(3_600_000);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
    const entries = await waveEntries(id, 'staging');
    expect(entries.map((e) => [e.rollout.action, e.rollout.recovered])).toEqual([['promote', true]]);
    // A re-run records nothing more.
    const again = await ahs([...line, '--verbose'], journal);
    expect(again.exitCode, again.stderr).toBe(11);
    expect(again.stderr).not.toMatch(/> POST /);
  });

  it('a journal that refuses entries stops the run before a promotion (exit 11: its previous Default would not be on record); once it takes them the same command goes on', async () => {
    const { id, v1, v2 } = await seeded();
    const own = uid('jn');
    expect((await ahs(['journal', 'init', own, '--env', 'dev'])).exitCode).toBe(0);
    const env = { AHS_JOURNAL: own };
    expect((await h.call('PATCH', `/vc/${own}`, { editable: false, updatedBy: DEMO_USER })).status).toBe(200);
    const line = ['rollout', id, v2, ...WAVES, '--soak', 'staging=1h'];
    const first = await ahs([...line, '--json'], env);
    expect(first.exitCode, first.stderr).toBe(11);
    expect(first.errJson()).toMatchObject({ type: 'urn:ahs:waiting', title: "the journal did not take the record of dev's promotion before it (see the warning above): dev is not promoted; run the same command again once the journal takes entries" });
    expect(await defaults(id)).toEqual([v1, v1, v1]);
    expect((await h.call('PATCH', `/vc/${own}`, { editable: true, updatedBy: DEMO_USER })).status).toBe(200);
    const again = await ahs(line, env);
    expect(again.exitCode, again.stderr).toBe(11);
    expect(again.stderr).toContain('staging soaks until');
    expect(await defaults(id)).toEqual([v2, v2, v1]);
  });

  it('a check failing on staging halts (exit 1, prod untouched); abort restores dev\'s and staging\'s previous Defaults, newest first; abort again sends nothing', async () => {
    const { id, v1, v2 } = await seeded();
    const halted = await ahs(['rollout', id, v2, ...WAVES, '--check', '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/after ]'], journal);
    expect(halted.exitCode).toBe(1);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
    const dry = await ahs(['rollout', 'abort', id, v2, ...WAVES, '--dry-run', '--json'], journal);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.json().requests.map((q: any) => [q.request.body.envId, q.request.body.intent, q.request.body.currentVersionId, q.predicted.status])).toEqual([
      ['staging', 'DEFAULT', v2, 201],
      ['dev', 'DEFAULT', v2, 201],
    ]);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
    const abort = await ahs(['rollout', 'abort', id, v2, ...WAVES], journal);
    expect(abort.exitCode, abort.stderr).toBe(0);
    const restored = [...abort.stderr.matchAll(/^(\S+): (\S+) is the Default again \(was (\S+)\)$/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(restored).toEqual([
      [`${id}/web/staging`, v1, v2],
      [`${id}/web/dev`, v1, v2],
    ]);
    expect(await defaults(id)).toEqual([v1, v1, v1]);
    expect(await h.records(id)).toContain(`web/dev/${v2}=LIVE`);
    const again = await ahs(['rollout', 'abort', id, v2, ...WAVES, '--verbose'], journal);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/> POST /);
    // The rollout stays aborted: a re-run of the pipeline does not promote it again.
    const rerun = await ahs(['rollout', id, v2, ...WAVES, '--verbose'], journal);
    expect(rerun.exitCode).toBe(5);
    expect(rerun.stderr).toContain('the rollout was aborted');
    expect(rerun.stderr).not.toMatch(/> POST /);
  });

  it('an abort with nothing to put back still ends the rollout on the record: a first rollout (no wave had a Default) and one halted before its first wave; later runs exit 5, status says aborted', async () => {
    // A first rollout: the version is the first Default of dev and staging, prod not reached (a check fails before it).
    const id = uid('ro');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'web', '1.0');
    const halted = await ahs(['rollout', id, v1, ...WAVES, '--check', '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != prod/before ]'], journal);
    expect(halted.exitCode, halted.stderr).toBe(1);
    expect(await defaults(id)).toEqual([v1, v1, 'none']);
    const abort = await ahs(['rollout', 'abort', id, v1, ...WAVES], journal);
    expect(abort.exitCode, abort.stderr).toBe(0);
    expect(abort.stderr).toContain(`${id}/web/staging: had no Default before this rollout; left as is`);
    expect(abort.stderr).toContain('a later run of it exits 5 (aborted)');
    expect(await defaults(id)).toEqual([v1, v1, 'none']);
    const status = await ahs(['rollout', 'status', id, v1, ...WAVES, '--json'], journal);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.json().next).toEqual({ action: 'aborted' });
    const rerun = await ahs(['rollout', id, v1, ...WAVES, '--verbose'], journal);
    expect(rerun.exitCode).toBe(5);
    expect(rerun.stderr).toContain('the rollout was aborted');
    expect(rerun.stderr).not.toMatch(/> POST /);
    // A second abort finds it aborted: nothing recorded again.
    const again = await ahs(['rollout', 'abort', id, v1, ...WAVES, '--verbose'], journal);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/> POST /);

    // Halted before its first wave: nothing promoted, the abort ends it all the same.
    const { id: other, v1: before, v2 } = await seeded();
    const first = await ahs(['rollout', other, v2, ...WAVES, '--check', 'exit 1'], journal);
    expect(first.exitCode, first.stderr).toBe(1);
    expect((await ahs(['rollout', 'status', other, v2, ...WAVES], journal)).exitCode).toBe(1);
    const stop = await ahs(['rollout', 'abort', other, v2, ...WAVES], journal);
    expect(stop.exitCode, stop.stderr).toBe(0);
    const after = await ahs(['rollout', 'status', other, v2, ...WAVES, '--json'], journal);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(after.json().next).toEqual({ action: 'aborted' });
    expect((await ahs(['rollout', other, v2, ...WAVES], journal)).exitCode).toBe(5);
    expect(await defaults(other)).toEqual([before, before, before]);
  });

  it('after someone else promotes on staging, abort leaves staging alone, names it and exits 5; dev is restored', async () => {
    const { id, v1, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '3.0');
    const r = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod'], journal);
    expect(r.exitCode).toBe(11);
    await h.deploy(id, v3, 'web', 'staging', 'LIVE');
    expect((await h.deploy(id, v3, 'web', 'staging', 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const status = await ahs(['rollout', 'status', id, v2, ...WAVES, '--approve', 'prod', '--json'], journal);
    expect(status.json()).toMatchObject({ next: { action: 'halt', env: 'staging', found: v3 }, waves: [{ state: 'done' }, { state: 'moved' }, { state: 'pending' }] });
    const run = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod', '--approved', 'prod'], journal);
    expect(run.exitCode).toBe(5);
    expect(run.stderr).toContain(`halted: staging's Default is ${v3} now, moved by someone else since this rollout promoted it`);
    const abort = await ahs(['rollout', 'abort', id, v2, ...WAVES, '--json'], journal);
    expect(abort.exitCode).toBe(5);
    expect(abort.stderr).toContain(`${id}/web/staging: left alone, someone moved its Default to ${v3} since this rollout made it ${v2}`);
    expect(abort.errJson()).toMatchObject({ type: 'urn:ahs:conflict', title: expect.stringContaining('left alone: staging (moved by someone else since)') });
    expect(abort.json()).toMatchObject({ restored: ['dev'], left: [{ env: 'staging', why: 'moved', found: v3 }] });
    expect(await defaults(id)).toEqual([v1, v3, v1]);
  });

  /** The rollout's journal entries of one wave, as `ahs history --json` lists them (newest first). */
  async function waveEntries(id: string, env: string): Promise<any[]> {
    // The whole journal: a rollout's own records (a promotion recorded by a later run, a halt) change no address.
    const hist = await ahs(['history', '--json'], journal);
    expect(hist.exitCode, hist.stderr).toBe(0);
    // Its intents (written before each promotion is sent) aside: test/e2e/rollout-races.test.ts counts them.
    return hist.json().results.filter((entry: any) => entry.rollout?.asset === id && entry.rollout.wave === env && entry.rollout.action !== 'intent');
  }

  it('with --check, a wave that passes is one journal entry holding its LIVE deploy and its promotion; the soak and the previous Default are read from it', async () => {
    const { id, v1, v2 } = await seeded();
    const r = await ahs(['rollout', id, v2, '--platform', 'web', '--waves', 'dev,staging', '--soak', 'dev=1h', '--check', 'true', '--json'], journal);
    expect(r.exitCode, r.stderr).toBe(11);
    const entries = await waveEntries(id, 'dev');
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({ command: 'rollout start', outcome: 'applied', exitCode: 0, rollout: { wave: 'dev', action: 'promote', previousDefault: v1 } });
    expect(entry.changes).toEqual([
      expect.objectContaining({ address: `channel.${id}.web.dev`, before: { version: v2, state: null }, after: { version: v2, state: 'LIVE' } }),
      expect.objectContaining({ address: `channel.${id}.web.dev`, before: { default: v1 }, after: { default: v2 } }),
    ]);
    // The soak starts at that entry's service time.
    expect(r.json().waves[0]).toMatchObject({ env: 'dev', state: 'soaking', since: entry.createdAt, previousDefault: v1 });
    expect(await defaults(id)).toEqual([v2, v1, v1]);
    // rollback without --to finds the Default it replaced in the same entry.
    const back = await ahs(['rollback', id, '--platform', 'web', '--env', 'dev'], journal);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(back.stderr).toMatch(new RegExp(`the journal proves it: its entry of \\S+ by \\S+ \\(rollout start\\) made ${v2} the Default in place of ${v1}`));
    expect(await defaults(id)).toEqual([v1, v1, v1]);
  });

  it('with --check, a check that fails before a promotion leaves one entry recording the LIVE deploy; an inconclusive one too; abort still restores the waves promoted', async () => {
    const { id, v1, v2 } = await seeded();
    const halted = await ahs(['rollout', id, v2, ...WAVES, '--check', '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/before ]'], journal);
    expect(halted.exitCode, halted.stderr).toBe(1);
    expect(halted.stderr).toContain('the check failed before promoting staging (exit 1)');
    expect(await defaults(id)).toEqual([v2, v1, v1]);
    expect(await h.records(id)).toContain(`web/staging/${v2}=LIVE`);
    expect(await waveEntries(id, 'dev')).toHaveLength(1);
    const staging = await waveEntries(id, 'staging');
    expect(staging).toHaveLength(1);
    // The LIVE deploy and the failed check, in one entry (its rollout action halt: the rollout halts there).
    expect(staging[0]).toMatchObject({ outcome: 'applied', exitCode: 1, rollout: { wave: 'staging', action: 'halt', previousDefault: v1, check: { phase: 'before', exitCode: 1 } } });
    expect(staging[0].changes).toEqual([expect.objectContaining({ address: `channel.${id}.web.staging`, after: { version: v2, state: 'LIVE' } })]);

    // Halted: the same command exits 1 again, sending nothing, and so does status, naming the check, when and who.
    const still = await ahs(['rollout', id, v2, ...WAVES, '--check', 'true', '--verbose'], journal);
    expect(still.exitCode).toBe(1);
    expect(still.stderr).not.toMatch(/> POST /);
    const status = await ahs(['rollout', 'status', id, v2, ...WAVES, '--json'], journal);
    expect(status.exitCode).toBe(1);
    expect(status.json()).toMatchObject({ waves: [{ state: 'done' }, { state: 'halted' }, { state: 'pending' }], next: { action: 'halt', reason: 'check', env: 'staging', halt: { env: 'staging', phase: 'before', exitCode: 1, by: DEMO_USER, check: '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/before ]' } } });
    expect(status.errJson().title).toMatch(new RegExp(`: halted: the check failed before promoting staging \\(exit 1\\) at \\S+Z, run by ${DEMO_USER.replace('.', '\\.')}: `));
    // Under GitHub Actions, status's outputs name the halt: the wave, the check, its exit code, when and who.
    const output = join(h.dir, `${id}.status.out`);
    const summary = join(h.dir, `${id}.status.md`);
    const gh = await ahs(['rollout', 'status', id, v2, ...WAVES], { ...journal, GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary });
    expect(gh.exitCode).toBe(1);
    const outputs = Object.fromEntries([...readFileSync(output, 'utf8').matchAll(/^(.+?)<<(ghadelimiter_[^\n]+)\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1], m[3]]));
    expect(outputs).toMatchObject({ 'exit-code': '1', state: 'halt', 'halted-wave': 'staging', 'halt-exit-code': '1', 'halted-by': DEMO_USER, 'halt-check': '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/before ]' });
    expect(outputs['halted-at']).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(readFileSync(summary, 'utf8')).toContain(`| staging | halted |`);
    expect(readFileSync(summary, 'utf8')).toMatch(/next: halted: the check failed before promoting staging \(exit 1\) at \S+, run by /);

    // --resume: the check again. Inconclusive (exit 3) before prod's promotion, staging passed on this run: prod's LIVE deploy is one entry, exit 11.
    const unsure = await ahs(['rollout', id, v2, ...WAVES, '--resume', '--check', '[ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != prod/before ] || exit 3'], journal);
    expect(unsure.exitCode, unsure.stderr).toBe(11);
    expect(await defaults(id)).toEqual([v2, v2, v1]);
    expect((await waveEntries(id, 'staging')).map((e) => e.rollout.action)).toEqual(['promote', 'halt']);
    const prod = await waveEntries(id, 'prod');
    expect(prod).toHaveLength(1);
    expect(prod[0]).toMatchObject({ exitCode: 11, rollout: { action: 'live' } });

    const abort = await ahs(['rollout', 'abort', id, v2, ...WAVES], journal);
    expect(abort.exitCode, abort.stderr).toBe(0);
    expect(await defaults(id)).toEqual([v1, v1, v1]);

    // History says what the rollout's own records did (no row reads "-", an applied change of nothing):
    // the intent written before each promotion, the halt with its check, the abort beside the Defaults it put back.
    const whole = await ahs(['history'], journal);
    const of = `rollout of ${v2} (${id}/web)`;
    expect(whole.stdout).toContain(`\t${of}: promoting dev, its Default was ${v1} (the promotion's own entry follows)\tapplied\t`);
    // The asset's: its halts and aborts, not the intents (each promotion's own entry is there).
    const table = await ahs(['history', id], journal);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).not.toContain(`${of}: promoting`);
    expect(table.stdout).toContain(`\t${of}: halted at staging (the check before promoting exited 1: [ "$AHS_ROLLOUT_ENV/$AHS_ROLLOUT_PHASE" != staging/before ])\t`);
    expect(table.stdout).toMatch(new RegExp(`\\t${of.replace(/[()/]/g, '\\$&')}: aborted at (dev|staging)\\t`));
    expect(table.stdout).not.toMatch(/\t-\tapplied/);
  });

  it("a hotfix's rollout while another is in flight: exit 12 naming it and its state, nothing sent; --supersede ends the earlier one on the record (its status: superseded, exit 12); rollback is never gated", async () => {
    const { id, v1, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '2.0.1');
    const first = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod'], journal);
    expect(first.exitCode, first.stderr).toBe(11);
    const refused = await ahs(['rollout', id, v3, ...WAVES, '--json', '--verbose'], journal);
    expect(refused.exitCode, refused.stderr).toBe(12);
    expect(refused.errJson()).toMatchObject({ type: 'urn:ahs:blocked', title: `${v3} of ${id} (web): blocked: the rollout of ${v2} is in flight on this asset and platform (dev done, staging done, prod pending); to end it there and roll out ${v3} instead: the same command with --supersede` });
    expect(refused.json()).toMatchObject({ next: { action: 'blocked', by: { version: v2 } }, promoted: [] });
    expect(refused.stderr).not.toMatch(/> POST /);
    const blocked = await ahs(['rollout', 'status', id, v3, ...WAVES], journal);
    expect(blocked.exitCode).toBe(12);

    // rollback (the way out of an incident) is never gated by a rollout.
    const back = await ahs(['rollback', id, '--platform', 'web', '--env', 'dev'], journal);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(await defaults(id)).toEqual([v1, v2, v1]);

    const hotfix = await ahs(['rollout', id, v3, ...WAVES, '--supersede'], journal);
    expect(hotfix.exitCode, hotfix.stderr).toBe(0);
    expect(hotfix.stderr).toContain(`the rollout of ${v2} (`);
    expect(hotfix.stderr).toContain(`ends here: superseded by ${v3}'s, on the record`);
    expect(await defaults(id)).toEqual([v3, v3, v3]);
    const earlier = await ahs(['rollout', 'status', id, v2, ...WAVES, '--approve', 'prod', '--json'], journal);
    expect(earlier.exitCode).toBe(12);
    expect(earlier.json().next).toMatchObject({ action: 'superseded', version: v3, by: DEMO_USER });
    expect(earlier.errJson().title).toMatch(new RegExp(`: superseded: ${DEMO_USER.replace('.', '\\.')} started the rollout of ${v3} in its place at `));
    // The earlier rollout's own line: over, nothing sent.
    const rerun = await ahs(['rollout', id, v2, ...WAVES, '--approve', 'prod', '--approved', 'prod', '--verbose'], journal);
    expect(rerun.exitCode).toBe(12);
    expect(rerun.stderr).not.toMatch(/> POST /);
    // A complete rollout blocks nothing: the next version goes without --supersede.
    const v4 = await h.uploadVersion(id, 'web', '2.0.2');
    const next = await ahs(['rollout', id, v4, '--platform', 'web', '--waves', 'dev'], journal);
    expect(next.exitCode, next.stderr).toBe(0);
  });

  it("a complete rollout that the next version's rollout moved on from: its status and a re-run say superseded by that rollout (exit 12, nothing sent), never \"moved by someone else\"", async () => {
    const { id, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '2.1.0');
    expect((await ahs(['rollout', id, v2, ...WAVES], journal)).exitCode).toBe(0);
    // The next release train: v3 takes dev; prod waits for its approval.
    const next = await ahs(['rollout', id, v3, ...WAVES, '--approve', 'prod'], journal);
    expect(next.exitCode, next.stderr).toBe(11);
    expect(await defaults(id)).toEqual([v3, v3, v2]);
    const earlier = await ahs(['rollout', 'status', id, v2, ...WAVES, '--json'], journal);
    expect(earlier.exitCode, earlier.stderr).toBe(12);
    expect(earlier.json().next).toMatchObject({ action: 'superseded', version: v3, by: DEMO_USER });
    expect(earlier.errJson().title).not.toContain('moved by someone else');
    // An old pipeline re-run: over, nothing sent, prod left to v3's rollout.
    const rerun = await ahs(['rollout', id, v2, ...WAVES, '--verbose'], journal);
    expect(rerun.exitCode).toBe(12);
    expect(rerun.stderr).toContain(`superseded: ${DEMO_USER} started the rollout of ${v3} in its place at `);
    expect(rerun.stderr).not.toMatch(/> POST /);
    expect(await defaults(id)).toEqual([v3, v3, v2]);
  });

  it("a wave moved by a plain promotion (no rollout of the version on the record) is still halted, naming the version found", async () => {
    const { id, v2 } = await seeded();
    const v3 = await h.uploadVersion(id, 'web', '2.2.0');
    expect((await ahs(['rollout', id, v2, ...WAVES], journal)).exitCode).toBe(0);
    expect((await ahs(['promote-default', id, v3, '--platform', 'web', '--env', 'dev', '--make-live'], journal)).exitCode).toBe(0);
    const status = await ahs(['rollout', 'status', id, v2, ...WAVES], journal);
    expect(status.exitCode).toBe(5);
    expect(status.stderr).toContain(`halted: dev's Default is ${v3} now, moved by someone else since this rollout promoted it`);
  });

  it('abort without a journal is exit 2 naming ahs journal init', async () => {
    const { id, v2 } = await seeded();
    const r = await ahs(['rollout', 'abort', id, v2, ...WAVES]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('`ahs journal init`');
  });
});
