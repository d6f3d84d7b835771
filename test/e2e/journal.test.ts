// The journal (cli.md, "Memory"): journal init, one entry per write, history,
// and rollback without --to proven by the journal: main() against the
// emulator over real HTTP, and two built binaries at once where two CI jobs
// race for the journal (issue 34: a process per command was most of this
// file's time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDirs } from '../support/temp-dir.js';
import { DEMO_API_KEY, DEMO_USER, harness, runInPty, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());
/** The runners' files and a private TMPDIR, removed after the file. */
const temp = tempDirs();

const CH = ['--platform', 'ios', '--env', 'prod'];
/** Two CI jobs: processes of their own, as they race for the journal. */
const twoJobs = { binary: true } as const;

/** A GitHub Actions runner: its files in a temp folder, its variables set. */
async function actions(runId: string) {
  const dir = await temp('ahs-gh-');
  const output = join(dir, 'output');
  const summary = join(dir, 'summary');
  await writeFile(output, '');
  await writeFile(summary, '');
  return {
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_RUN_ID: runId,
    GITHUB_SHA: 'abc123',
    GITHUB_REF: 'refs/heads/main',
  };
}

/** A journal of its own, started with `journal init` through a profile. */
async function startJournal() {
  const journal = uid('jr');
  const init = await h.ahs(['journal', 'init', journal, '--env', 'prod', '--json']);
  expect(init.exitCode, init.stderr).toBe(0);
  expect(init.json()).toMatchObject({ journal, envId: 'prod', created: true, deployed: true });
  return journal;
}

describe('ahs journal and history', () => {
  it('journal init in a terminal calls its first entry that, not by its file name (the whole entry, hundreds of characters)', async () => {
    const { code, screen } = await runInPty(h.env, ['journal', 'init', uid('jr'), '--env', 'prod'], [], { columns: 60 });
    expect(code, screen).toBe(0);
    expect(screen).toContain("Uploading the journal's first entry");
    expect(screen).not.toContain('ahs2.');
  });

  it('journal init, release 1.0, release 1.1, rollback in CI without --to: back to 1.0, proven by the journal; history lists all three with the service times, actors and run URL', async () => {
    const journal = await startJournal();
    const env = { AHS_JOURNAL: journal };
    const id = uid('jb');
    await h.createAsset(id);
    const r1 = await h.ahs(['release', id, await h.file(`${id}-1.zip`, 'one'), ...CH, '--name', '1.0', '--json'], { env });
    expect(r1.exitCode, r1.stderr).toBe(0);
    const r2 = await h.ahs(['release', id, await h.file(`${id}-2.zip`, 'two'), ...CH, '--name', '1.1', '--json'], { env });
    expect(r2.exitCode, r2.stderr).toBe(0);
    const v1 = r1.json().version.versionId;
    const v2 = r2.json().version.versionId;
    const gh = await actions('4242');
    const rb = await h.ahs(['rollback', id, ...CH, '--json'], { env: { ...env, ...gh } });
    expect(rb.exitCode, rb.stderr).toBe(0);
    const records = await h.records(id);
    const def = records.find((r) => r.endsWith('=DEFAULT'))!;
    expect(rb.stderr).toContain(`rolling back ${id}/ios/prod to ${v1}: the journal proves it: its entry of `);
    expect(rb.stderr).toMatch(new RegExp(`its entry of \\S+Z by ${DEMO_USER} \\(release\\) made ${v2} the Default in place of ${v1}`));
    expect(rb.json()).toMatchObject({ assetVersion: { versionId: v1, state: 'DEFAULT' }, previousDefault: v2 });
    expect(def).toBe(`ios/prod/${v1}=DEFAULT`);

    const hist = await h.ahs(['history', id, '--env', 'prod', '--json'], { env });
    expect(hist.exitCode, hist.stderr).toBe(0);
    const doc = hist.json();
    expect(doc).toMatchObject({ totalResults: 3, pageNumber: 1, pageSize: 3 });
    expect(doc.results.map((e: any) => e.command)).toEqual(['rollback', 'release', 'release']);
    // The service's own time and author of each entry item.
    const items = (await h.call('GET', `/vc/${journal}/items?pageSize=100`)).body.results;
    for (const entry of doc.results) {
      const item = items.find((i: any) => i.assetItemId === entry.itemId);
      expect(entry.createdAt).toBe(item.createdAt);
      expect(entry.createdBy).toBe(item.createdBy);
      expect(entry.createdBy).toBe(DEMO_USER);
    }
    expect(doc.results[0].ci).toEqual({ runUrl: 'https://github.example/acme/app/actions/runs/4242', sha: 'abc123', ref: 'refs/heads/main' });
    expect(doc.results[1].ci).toBeUndefined();
    const rollbackChange = doc.results[0].changes.find((c: any) => c.address === `channel.${id}.ios.prod`);
    expect(rollbackChange).toMatchObject({ after: { default: def.split('/')[2]!.split('=')[0] }, disagrees: false });
    expect(JSON.stringify(doc)).not.toContain(DEMO_API_KEY);
    // For people: one row per change, before → after, the run URL.
    const table = await h.ahs(['history', id, '--env', 'prod'], { env });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toContain(`channel.${id}.ios.prod: ${v2} → ${v1}`);
    expect(table.stdout).toContain('https://github.example/acme/app/actions/runs/4242');
    expect(table.stdout).not.toContain('changed outside ahs');
    // Given on the command line, a filter goes unsaid; taken from the environment (or a profile), history says it narrows.
    expect(table.stderr).not.toContain('history narrowed');
    const implied = await h.ahs(['history', id], { env: { ...env, AHS_ENV: 'prod' } });
    expect(implied.exitCode, implied.stderr).toBe(0);
    expect(implied.stderr).toContain('history narrowed to the changes of environment prod (from AHS_ENV); --env names another');
  });

  it('two journal init started together (two CI jobs\' first runs): both exit 0, the journal LIVE once, its history readable', async () => {
    // One pair is enough: without the fix, one of the two failed every time (exit 5 or 1).
    for (let round = 0; round < 1; round++) {
      const journal = uid('jt');
      const [a, b] = await Promise.all([0, 1].map(() => h.ahs(['journal', 'init', journal, '--env', 'prod', '--json'], twoJobs)));
      for (const run of [a!, b!]) {
        expect(run.exitCode, run.stderr).toBe(0);
        expect(run.json()).toMatchObject({ journal, envId: 'prod' });
      }
      // One of them made it; the other made it or found it made.
      expect([a!.json().created, b!.json().created].filter(Boolean)).toHaveLength(1);
      expect((await h.call('GET', `/vc/${journal}/deployments/prod`)).status).toBe(200);
      const history = await h.ahs(['history', '--journal', journal, '--env', 'prod', '--json']);
      expect(history.exitCode, history.stderr).toBe(0);
    }
  });

  it('journal init --dry-run on a half-made journal (created, never given its entry) predicts the entry and the deployment; it writes no profile', async () => {
    const journal = uid('jhalf');
    expect((await h.call('POST', '/vc', { collectionId: journal, collectionName: 'ahs journal', description: 'ahs journal; env=prod', allowedAssetTypes: ['9999'], createdBy: DEMO_USER })).status).toBe(201);
    const dry = await h.ahs(['journal', 'init', journal, '--env', 'prod', '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.json()).toMatchObject({ request: { path: `/api/v2/demo/vc/${journal}/deployments` }, predicted: { status: 201, state: 'LIVE' } });
    expect((await h.call('GET', `/vc/${journal}/items`)).body.totalResults).toBe(0);
    // With a profile in use, a dry run that has nothing to send leaves the profile as it was.
    const profileEnv = { AHS_CONFIG_DIR: join(h.dir, `cfg-${journal}`) };
    expect((await h.ahs(['profile', 'add', 'dry', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--user', DEMO_USER, '--api-key-stdin'], { input: `${DEMO_API_KEY}\n`, env: profileEnv, bare: true })).exitCode).toBe(0);
    expect((await h.ahs(['journal', 'init', journal, '--env', 'prod'], { env: profileEnv, bare: true })).exitCode).toBe(0);
    const other = uid('jother');
    expect((await h.ahs(['journal', 'init', other, '--env', 'prod'])).exitCode).toBe(0);
    const again = await h.ahs(['journal', 'init', other, '--env', 'prod', '--dry-run'], { env: profileEnv, bare: true });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain(`profile dry would record its writes in ${other} (setting journal); dry run: not written`);
    expect((await h.ahs(['profile', 'show', 'dry', '--json'], { env: profileEnv, bare: true })).json()).toMatchObject({ journal });
  });

  it('an empty collection of the team\'s own is not taken over: exit 2, nothing sent', async () => {
    const id = uid('jteam');
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: 'launch', description: 'launch assets (empty for now)', allowedAssetTypes: ['1001'], createdBy: DEMO_USER })).status).toBe(201);
    const r = await h.ahs(['journal', 'init', id, '--env', 'prod']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`the collection ${id} already exists and is not an ahs journal (its description does not say "ahs journal")`);
    expect((await h.call('GET', `/vc/${id}`)).body.description).toBe('launch assets (empty for now)');
  });

  it('journal init --dry-run on a new journal predicts the create, the first entry and the deployment to succeed; nothing is sent', async () => {
    const journal = uid('jdry');
    const dry = await h.ahs(['journal', 'init', journal, '--env', 'prod', '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const doc = dry.json();
    expect(doc.before.map((b: { predicted: { status: number } }) => b.predicted.status)).toEqual([201, 201]);
    expect(doc).toMatchObject({ dryRun: true, request: { method: 'POST', path: `/api/v2/demo/vc/${journal}/deployments` }, predicted: { status: 201, state: 'LIVE', error: null } });
    expect((await h.call('GET', `/vc/${journal}`)).status).not.toBe(200);
  });

  it('under GitHub Actions, journal init sets its outputs: journal, env-id, created, deployed, changed', async () => {
    const journal = uid('jgh');
    const gh = await actions('9');
    const r = await h.ahs(['journal', 'init', journal, '--env', 'prod'], { env: gh });
    expect(r.exitCode, r.stderr).toBe(0);
    // Read as the runner reads $GITHUB_OUTPUT: name<<DELIMITER, the value, DELIMITER.
    const outputs = async (file: string) => Object.fromEntries([...(await readFile(file, 'utf8')).matchAll(/^(.+?)<<(ghadelimiter_[^\n]+)\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1], m[3]]));
    expect(await outputs(gh.GITHUB_OUTPUT)).toEqual({ 'exit-code': '0', journal, 'env-id': 'prod', created: 'true', deployed: 'true', changed: 'true' });
    const again = await actions('10');
    expect((await h.ahs(['journal', 'init', journal, '--env', 'prod'], { env: again })).exitCode).toBe(0);
    expect(await outputs(again.GITHUB_OUTPUT)).toMatchObject({ created: 'false', deployed: 'false', changed: 'false' });
  });

  it('journal init leaves nothing in the temporary folder (its first entry names the actor and the command line)', async () => {
    const tmp = await temp('ahs-init-tmp-');
    const init = await h.ahs(['journal', 'init', uid('jtmp'), '--env', 'prod'], { binary: true, env: { TMPDIR: tmp } });
    expect(init.exitCode, init.stderr).toBe(0);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('two releases started together both leave their entry', async () => {
    const journal = await startJournal();
    const env = { AHS_JOURNAL: journal };
    const [a, b] = [uid('ja'), uid('jb')];
    await h.createAsset(a);
    await h.createAsset(b);
    const [ra, rb] = await Promise.all([
      h.ahs(['release', a, await h.file(`${a}.zip`, 'a'), ...CH, '--name', '1.0'], { ...twoJobs, env }),
      h.ahs(['release', b, await h.file(`${b}.zip`, 'b'), ...CH, '--name', '1.0'], { ...twoJobs, env }),
    ]);
    expect(ra.exitCode, ra.stderr).toBe(0);
    expect(rb.exitCode, rb.stderr).toBe(0);
    expect(ra.stderr + rb.stderr).not.toContain('did not record');
    // history from the built bundle too: it reads, pages, queries and exits on its own.
    const hist = await h.ahs(['history', '--json', '--query', 'results[].changes[].address'], { ...twoJobs, env });
    expect(hist.exitCode, hist.stderr).toBe(0);
    const addresses: string[] = hist.json();
    expect(addresses.filter((x) => x === `channel.${a}.ios.prod`)).toHaveLength(2);
    expect(addresses.filter((x) => x === `channel.${b}.ios.prod`)).toHaveLength(2);
  });

  it('a journal that refuses writes leaves every exit code as it was, with one warning (and ::warning under Actions)', async () => {
    const journal = await startJournal();
    const env = { AHS_JOURNAL: journal };
    expect((await h.call('PATCH', `/vc/${journal}`, { editable: false, updatedBy: DEMO_USER })).status).toBe(200);
    const id = uid('jw');
    await h.createAsset(id);
    const ok = await h.ahs(['release', id, await h.file(`${id}.zip`, 'w'), ...CH, '--name', '1.0', '--json'], { env: { ...env, ...(await actions('7')) } });
    expect(ok.exitCode).toBe(0);
    expect(ok.json().assetVersion.state).toBe('DEFAULT');
    const warnings = ok.stderr.split('\n').filter((line) => line.startsWith('warning: the journal'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^warning: the journal ${journal} did not record this release \\(version\\.${id}\\.\\w+, channel\\.${id}\\.ios\\.prod, channel\\.${id}\\.ios\\.prod\\): `));
    expect(ok.stderr).toMatch(/^::warning title=ahs journal::the journal .* did not record this release/m);
    // A command that fails after a write keeps its own exit code: release of another file under the same name (exit 1, mismatch) writes nothing;
    // a deploy that the service refuses keeps its exit code, and records nothing (nothing applied).
    const refused = await h.ahs(['deploy', id, 'IOS999', ...CH], { env });
    const without = await h.ahs(['deploy', id, 'IOS999', ...CH], { env: { AHS_JOURNAL: undefined } });
    expect(refused.exitCode).toBe(without.exitCode);
    expect(refused.stderr).not.toContain('did not record');
    const undeploy = await h.ahs(['asset', 'undeploy', id, ...CH, '--yes'], { env });
    expect(undeploy.exitCode, undeploy.stderr).toBe(0);
    expect(undeploy.stderr).toContain(`warning: the journal ${journal} did not record this asset undeploy`);
  });

  it('a promotion made outside ahs shows in history as a disagreement, and rollback without --to then asks for --to', async () => {
    const journal = await startJournal();
    const env = { AHS_JOURNAL: journal };
    const id = uid('jo');
    await h.createAsset(id);
    const r1 = await h.ahs(['release', id, await h.file(`${id}-1.zip`, '1'), ...CH, '--name', '1.0', '--json'], { env });
    const r2 = await h.ahs(['release', id, await h.file(`${id}-2.zip`, '2'), ...CH, '--name', '1.1', '--json'], { env });
    const [v1, v2] = [r1.json().version.versionId, r2.json().version.versionId];
    // Someone promotes 1.0 again with another tool.
    expect((await h.deploy(id, v1, 'ios', 'prod', 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const hist = await h.ahs(['history', id, ...CH, '--json'], { env });
    expect(hist.exitCode, hist.stderr).toBe(0);
    const newest = hist.json().results[0].changes.find((c: any) => c.address === `channel.${id}.ios.prod` && 'default' in c.after);
    expect(newest).toMatchObject({ after: { default: v2 }, current: { default: v1 }, disagrees: true });
    const table = await h.ahs(['history', id, ...CH], { env });
    expect(table.stdout).toContain(`! channel.${id}.ios.prod: the journal's last change made the Default ${v2}, the service shows ${v1}: changed outside ahs`);
    const rb = await h.ahs(['rollback', id, ...CH], { env });
    expect(rb.exitCode).toBe(2);
    expect(rb.stderr).toMatch(new RegExp(`^error: the Default of ${id}/ios/prod is ${v1}, but the journal's last change of it .* made it ${v2}: it was moved outside ahs.*name the version with --to VERSION_ID$`, 'm'));
    expect(await h.records(id)).toContain(`ios/prod/${v1}=DEFAULT`);
  });

  it('without a journal, history says so and how to start one; writes work as before', async () => {
    const r = await h.ahs(['history', '--json']);
    expect(r.exitCode).toBe(2);
    expect(r.errJson().title).toMatch(/history needs a journal, and none is set: start one with `ahs journal init --env ENV`/);
  });

  it('a journal named that does not exist is not found (exit 4), naming how to start it', async () => {
    const r = await h.ahs(['history', '--journal', 'no-such-journal', '--json']);
    expect(r.exitCode).toBe(4);
    expect(r.errJson()).toMatchObject({ type: 'urn:ahs:not-found', title: expect.stringMatching(/^the journal no-such-journal does not exist: start it with `ahs journal init no-such-journal`/) });
  });

  it('journal init on an existing collection that is not a journal refuses (exit 2), and leaves it as it was', async () => {
    const id = uid('jc');
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: 'Launch pack', description: 'the launch pack', allowedAssetTypes: ['9999'], createdBy: DEMO_USER })).status).toBe(201);
    const file = await h.file(`${id}.txt`, 'x');
    expect((await h.ahs(['item', 'upload', id, file, '--type', '9999'])).exitCode).toBe(0);
    const r = await h.ahs(['journal', 'init', id, '--env', 'dev', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: the collection ${id} already exists and is not an ahs journal \\(it holds 1 item\\(s\\) and its description does not say "ahs journal"\\): name another journal, e\\.g\\. ahs journal init ahs-journal$`, 'm'));
    expect(r.stderr).not.toMatch(/> (POST|PATCH|PUT) /);
    const after = await h.call('GET', `/vc/${id}`);
    expect(after.body).toMatchObject({ description: 'the launch pack' });
  });

  it('journal init in an environment that does not exist leaves a journal that a run with the right --env takes over; one LIVE elsewhere is refused', async () => {
    const journal = uid('jt');
    const wrong = await h.ahs(['journal', 'init', journal, '--env', 'nosuchenv']);
    expect(wrong.exitCode).not.toBe(0);
    expect(wrong.stderr).toMatch(/^error: .*nosuchenv/m);
    const right = await h.ahs(['journal', 'init', journal, '--env', 'dev', '--json']);
    expect(right.exitCode, right.stderr).toBe(0);
    expect(right.json()).toMatchObject({ journal, envId: 'dev', created: false, deployed: true });
    expect((await h.call('GET', `/vc/${journal}`)).body).toMatchObject({ description: 'ahs journal; env=dev' });
    // The init's change is of the collection, of no environment: --env dev would leave it out.
    const history = await h.ahs(['history', '--journal', journal, '--json']);
    expect(history.exitCode, history.stderr).toBe(0);
    expect(history.json().results[0]).toMatchObject({ command: 'journal init', changes: [{ address: `collection.${journal}`, before: { description: 'ahs journal; env=nosuchenv' }, after: { description: 'ahs journal; env=dev' } }] });
    // No entry says the journal went LIVE where the service refused it.
    expect(JSON.stringify(history.json().results)).not.toContain('deployment.nosuchenv');
    const elsewhere = await h.ahs(['journal', 'init', journal, '--env', 'staging']);
    expect(elsewhere.exitCode).toBe(2);
    expect(elsewhere.stderr).toContain(`error: the journal ${journal} is read in dev, not staging: run again with --env dev`);
  });

  it('journal init records the journal in the profile; run again it changes nothing', async () => {
    const profileEnv = { AHS_JOURNAL: undefined };
    const add = await h.ahs(['profile', 'add', 'jp', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--user', DEMO_USER, '--use'], { env: profileEnv });
    expect(add.exitCode, add.stderr).toBe(0);
    const journal = uid('jp');
    const init = await h.ahs(['journal', 'init', journal, '--env', 'prod'], { env: { ...profileEnv, AHS_BASE_URL: undefined, AHS_DOMAIN: undefined } });
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stderr).toContain(`profile jp records its writes in ${journal}`);
    const again = await h.ahs(['journal', 'init', journal, '--env', 'prod', '--json'], { env: profileEnv });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ journal, created: false, deployed: false, profile: 'jp' });
    const show = await h.ahs(['profile', 'show', 'jp', '--json']);
    expect(show.json().journal).toBe(journal);
    const check = await h.ahs(['profile', 'check', '--json'], { env: profileEnv });
    expect(check.exitCode, check.stderr).toBe(0);
    expect(check.json().journal).toEqual({ id: journal, why: `${journal} (from profile jp's key journal)`, reachable: true, envId: 'prod', problem: null });
    const elsewhere = await h.ahs(['profile', 'check', '--journal', 'no-such-journal'], { env: profileEnv });
    expect(elsewhere.exitCode).toBe(0);
    expect(elsewhere.stderr).toContain('warning: the journal no-such-journal is not reachable: no collection no-such-journal: start it with ahs journal init no-such-journal --env ENV');
    const added = await h.ahs(['profile', 'add', 'jq', '--base-url', h.emu.baseUrl, '--domain', 'demo'], { env: profileEnv });
    // No journal setting: the domain's ahs-journal, when it is one (a new teammate is recorded with no set-up).
    expect(added.stderr).toContain("journal: no journal setting, so the domain's ahs-journal when it exists and is marked as a journal (whether it does: ahs profile check jq;");
    await h.ahs(['profile', 'remove', 'jq', '--yes']);
    await h.ahs(['profile', 'remove', 'jp', '--yes']);
  });
});
