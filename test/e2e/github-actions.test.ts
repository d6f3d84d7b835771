// Under GitHub Actions (GITHUB_ACTIONS=true), with no flag (cli.md, "In CI,
// and from code"): the key values go to $GITHUB_OUTPUT in the runner's
// heredoc format, a Markdown table of what was done to $GITHUB_STEP_SUMMARY,
// a failure is one ::error line, a key from a profile file is masked first,
// and the key is in none of it. The runner's files are in a temporary folder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_USER, harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const CH = ['--platform', 'ios', '--env', 'prod'];

/** A fresh runner: GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as the runner makes them (empty files). */
async function runner() {
  const dir = await mkdtemp(join(h.dir, 'runner-'));
  const output = join(dir, 'output');
  const summary = join(dir, 'summary');
  await writeFile(output, '');
  await writeFile(summary, '');
  const env = { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary };
  return {
    env,
    outputs: async () => parseOutputs(await readFile(output, 'utf8')),
    rawOutputs: () => readFile(output, 'utf8'),
    summary: () => readFile(summary, 'utf8'),
    done: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * $GITHUB_OUTPUT read as the runner reads it: `name<<DELIMITER`, the value's
 * lines, `DELIMITER`. A name set twice keeps the last value.
 */
function parseOutputs(text: string): Record<string, string> {
  const lines = text.split('\n');
  const outputs: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([\w-]+)<<(ghadelimiter_[0-9a-f-]{36})$/.exec(line);
    if (!heredoc) throw new Error(`not the runner's format at line ${i + 1}: ${JSON.stringify(line)}`);
    const end = lines.indexOf(heredoc[2]!, i + 1);
    if (end < 0) throw new Error(`no closing delimiter for ${heredoc[1]}`);
    outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

const errorLines = (text: string) => text.split('\n').filter((line) => line.startsWith('::error'));

describe('under GitHub Actions', () => {
  it('release: the version, state and previous Default as outputs, the stages as a summary table, no ::error', async () => {
    const id = uid('gha');
    await h.createAsset(id);
    const gh = await runner();
    try {
      await h.ahs(['release', id, await h.file('gha-1.zip', 'one'), ...CH, '--name', '1.0'], { env: gh.env });
      const run = await h.ahs(['release', id, await h.file('gha-2.zip', 'two two'), ...CH, '--name', '2.0'], { env: gh.env });
      expect(run.exitCode, run.stderr).toBe(0);
      // Table mode on stdout, unchanged: the outputs come from the document --json would print.
      expect(run.stdout).toBe(`IOS2 (2.0) is DEFAULT on ${id}/ios/prod`);
      expect(await gh.outputs()).toEqual({
        'exit-code': '0',
        'version-id': 'IOS2',
        'version-name': '2.0',
        'version-number': '2',
        state: 'DEFAULT',
        'previous-default': 'IOS1',
        changed: 'true',
      });
      const summary = await gh.summary();
      expect(summary).toContain('### ahs release\n');
      for (const row of ['| version | IOS2 (2.0) |', '| now | DEFAULT on ios in prod |', '| previous Default | IOS1 |', '| upload | sent |', '| promote | sent |']) {
        expect(summary).toContain(row);
      }
      expect(errorLines(run.stdout + run.stderr)).toEqual([]);

      // A re-run: nothing sent, said in the outputs and the summary; the first release had no previous Default.
      const again = await h.ahs(['release', id, await h.file('gha-2.zip', 'two two'), ...CH, '--name', '2.0', '--json'], { env: gh.env });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(await gh.outputs()).toMatchObject({ 'version-id': 'IOS2', changed: 'false', 'previous-default': '' });
      expect(await gh.summary()).toContain('| upload | already done, nothing sent (matched by content) |');

      const rollback = await h.ahs(['rollback', id, ...CH, '--to', 'IOS1'], { env: gh.env });
      expect(rollback.exitCode, rollback.stderr).toBe(0);
      expect(await gh.outputs()).toMatchObject({ 'version-id': 'IOS1', state: 'DEFAULT', 'previous-default': 'IOS2', changed: 'true' });
      expect(await gh.summary()).toContain('### ahs rollback\n\n|  |  |\n|---|---|\n| version | IOS1 (1.0) |\n| now | DEFAULT on ios in prod |\n| previous Default | IOS2 (now LIVE) |');
    } finally {
      await gh.done();
    }
  });

  it('a failing deploy: exactly one ::error line on stderr, escaped as the runner reads it; exit-code as an output', async () => {
    const id = uid('gha');
    await h.createAsset(id);
    const versionId = await h.uploadVersion(id, 'ios');
    const gh = await runner();
    try {
      // An environment id with a newline, a % and a colon ends up in the service's error title.
      const run = await h.ahs(['deploy', id, versionId, '--platform', 'ios', '--env', 'no\nsuch:env,%'], { env: gh.env });
      expect(run.exitCode).toBe(4);
      expect(errorLines(run.stdout)).toEqual([]);
      const lines = errorLines(run.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^::error title=ahs deploy failed \(exit 4%2C HTTP 404\)::Environment no%0Asuch:env,%25 not found/);
      expect(await gh.outputs()).toEqual({ 'exit-code': '4' });
      // deploy has no summary table: only the commands of a release workflow write one.
      expect(await gh.summary()).toBe('');

      // Outside GitHub Actions: no workflow command, nothing written.
      const elsewhere = await h.ahs(['deploy', id, versionId, '--platform', 'ios', '--env', 'nowhere'], { env: { ...gh.env, GITHUB_ACTIONS: undefined } });
      expect(elsewhere.exitCode).toBe(4);
      expect(elsewhere.stderr).not.toContain('::');
      expect(await gh.outputs()).toEqual({ 'exit-code': '4' });
    } finally {
      await gh.done();
    }
  });

  it('item sync: the counts and the new item ids (one per line) as outputs, what was done as a summary table', async () => {
    const collectionId = uid('ghc');
    expect((await h.ahs(['collection', 'create', collectionId, '--name', 'c', '--allowed-types', '9999'])).exitCode).toBe(0);
    const dir = join(h.dir, collectionId);
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'a');
    writeFileSync(join(dir, 'b|pipe.txt'), 'bb');
    const gh = await runner();
    try {
      const run = await h.ahs(['item', 'sync', collectionId, dir, '--type', '9999'], { env: gh.env });
      expect(run.exitCode, run.stderr).toBe(0);
      const outputs = await gh.outputs();
      expect(outputs).toMatchObject({ 'exit-code': '0', uploaded: '2', replaced: '0', removed: '0', unchanged: '0', failed: '0', changed: 'true' });
      const items = (await h.call('GET', `/vc/${collectionId}/items`)).body.results.map((i: { assetItemId: string }) => i.assetItemId).sort();
      expect(outputs['item-ids']!.split('\n').sort()).toEqual(items);
      const summary = await gh.summary();
      expect(summary).toContain(`### ahs item sync\n\n| result | count | items |\n|---|---|---|\n`);
      expect(summary).toMatch(/\| uploaded \| 2 \| a\.txt \(item-\d+\), b\\\|pipe\.txt \(item-\d+\) \|/);
      expect(summary).toContain('| unchanged | 0 |  |');

      // Deployed, then fetched: the download URL, then the files written.
      const deploy = await h.ahs(['collection-deploy', collectionId, '--env', 'prod'], { env: gh.env });
      expect(deploy.exitCode, deploy.stderr).toBe(0);
      expect((await gh.outputs())['download-url']).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/vi/demo/vc/${collectionId}/prod$`));
      const into = join(h.dir, `${collectionId}-fetched`);
      const fetch = await h.ahs(['fetch', collectionId, '--env', 'prod', '--dir', into], { env: gh.env });
      expect(fetch.exitCode, fetch.stderr).toBe(0);
      expect(await gh.outputs()).toMatchObject({ dir: into, downloaded: '2', skipped: '0', failed: '0', files: `${join(into, 'a.txt')}\n${join(into, 'b|pipe.txt')}` });
      expect(await gh.summary()).toContain(`### ahs fetch\n\n${collectionId} (prod) → ${into}\n\n| result | count | files |\n|---|---|---|\n| downloaded | 2 | a.txt, b\\|pipe.txt |`);

      // With --dry-run: what it would send, nothing changed.
      writeFileSync(join(dir, 'c.txt'), 'c');
      const dry = await h.ahs(['item', 'sync', collectionId, dir, '--type', '9999', '--dry-run'], { env: gh.env });
      expect(dry.exitCode, dry.stderr).toBe(0);
      expect(await gh.outputs()).toMatchObject({ 'dry-run': 'true', 'predicted-status': '201', changed: 'false' });
      expect(await gh.summary()).toContain(`### ahs item sync: dry run, nothing was sent\n\n| request | predicted |\n|---|---|\n| POST /api/v2/demo/vc/${collectionId}/items | 201 |`);
    } finally {
      await gh.done();
    }
  });

  it('a key from a profile file: ::add-mask:: before anything else, and the key nowhere else (outputs, summary, error, results file)', async () => {
    const id = uid('gha');
    await h.createAsset(id);
    const gh = await runner();
    const results = join(h.dir, `${id}.jsonl`);
    const bare = { bare: true as const };
    try {
      const add = await h.ahs(['profile', 'add', 'ci', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--user', DEMO_USER, '--api-key-stdin'], { ...bare, input: `${DEMO_API_KEY}\n` });
      expect(add.exitCode, add.stderr).toBe(0);
      const env = { ...gh.env, AHS_OUTPUT_FILE: results };
      const release = await h.ahs(['release', id, await h.file('gha-p.zip', 'p'), ...CH, '--name', '1.0'], { ...bare, env });
      expect(release.exitCode, release.stderr).toBe(0);
      expect(release.stderr.split('\n')[0]).toBe(`::add-mask::${DEMO_API_KEY}`);
      expect(await gh.outputs()).toMatchObject({ 'version-id': 'IOS1' });
      const failed = await h.ahs(['deploy', id, 'NOPE', ...CH], { ...bare, env });
      expect(failed.exitCode).toBe(4);
      expect(failed.stderr.split('\n')[0]).toBe(`::add-mask::${DEMO_API_KEY}`);
      expect(errorLines(failed.stderr)).toHaveLength(1);
      // A failure whose message would echo the key: commander's line for an option ahs does not have
      // (the command never runs, so the profile is not read and there is nothing to mask).
      const echoed = await h.ahs(['deploy', id, 'IOS1', ...CH, `--api-key=${DEMO_API_KEY}`], { ...bare, env });
      expect(echoed.exitCode).toBe(2);
      expect(errorLines(echoed.stderr)).toEqual(["::error title=ahs deploy failed (exit 2)::unknown option '--api-key': the API key is never given on the command line (shell history, process list); set AHS_API_KEY, or keep it in a profile: ahs profile add NAME --api-key-stdin"]);

      const masked = (text: string) => text.split('\n').slice(1).join('\n');
      const everything = [release.stdout, masked(release.stderr), failed.stdout, masked(failed.stderr), echoed.stdout, echoed.stderr, await gh.rawOutputs(), await gh.summary(), await readFile(results, 'utf8')];
      for (const text of everything) expect(text).not.toContain(DEMO_API_KEY);
      // And the env key (already masked by the runner as a secret) is not announced.
      const fromEnv = await h.ahs(['asset', 'get', id], { env: gh.env });
      expect(fromEnv.stderr).not.toContain('::add-mask::');
    } finally {
      await gh.done();
    }
  });

});

describe('desired state under GitHub Actions', () => {
  it('plan: the counts as outputs and the changes as a table; apply: each step and its outcome', async () => {
    const gh = await runner();
    const id = uid('gitops');
    const dir = await mkdtemp(join(h.dir, 'gitops-'));
    await writeFile(join(dir, 'app.zip'), 'the build');
    const file = join(dir, 'ahs.yaml');
    await writeFile(file, `apiVersion: ahs/v1\nassets:\n  ${id}:\n    name: GitOps\n    type: "1001"\n    versions:\n      ios:\n        "1.0": app.zip\n    channels:\n      ios:\n        prod: { default: "1.0" }\n`);
    const planned = await h.ahs(['plan', '-f', file, '--detailed-exitcode'], { env: gh.env });
    expect(planned.exitCode, planned.stderr).toBe(10);
    expect(await gh.outputs()).toMatchObject({ 'to-create': '2', 'to-change': '2', 'to-remove': '0', requests: '4', 'has-changes': 'true' });
    // Exit 10 says changes are pending: no failure, no ::error.
    expect(planned.stderr).not.toContain('::error');
    // Rendered from the changes' values, as the text view is.
    expect(await gh.summary()).toContain(`### ahs plan\n\nPlan: 2 to create, 2 to change, 0 to remove (4 request(s)).\n\n|  | address | action | what |\n|---|---|---|---|\n| + | asset.${id} | create | assetName: GitOps; assetType: 1001 |`);
    expect(await gh.summary()).toContain(`| ~ | channel.${id}.ios.prod | promote 1.0 | default: (none) → (known after apply) |`);
    const applied = await h.ahs(['apply', '-f', file, '--yes'], { env: gh.env });
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(await gh.outputs()).toMatchObject({ sent: '4', failed: '0' });
    expect(await gh.summary()).toContain(`### ahs apply\n\n| resource | action | outcome |\n|---|---|---|\n| asset.${id} | + create | done |`);
  });
});
