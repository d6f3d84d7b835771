// Desired state (issue 20): ahs plan / apply / show / export against the
// emulator, as a user sees them: exit codes, stdout/stderr, the writes the
// emulator received and the state it holds afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, DEMO_USER, type Harness } from './helpers.js';
import { SPARE_CONTROL, startFaultProxy } from '../support/fault-proxy.js';
import { lockAssetOf, parseScope, type Scope } from '../../src/rules/change-control.js';
import type { EmulatorOptions } from '../../src/emulator/index.js';

/** cli.md's example, with the versions its channels name given files (a fresh emulator has none). */
const EXAMPLE = `apiVersion: ahs/v1
assets:
  my-bundle:
    name: My bundle
    type: "1001"
    localCacheControl: true
    versions:
      ios:
        "1.3.0": build/1.3.0.zip
        "1.4.1": build/1.4.1.zip
        "1.4.2": build/1.4.2.zip
        "1.5.0": build/ios.zip
    channels:
      ios:
        prod:    { default: "1.4.2", live: ["1.4.1"], offline: ["1.3.0"] }
        staging: { default: "1.5.0" }
collections:
  launch-pack:
    name: Launch pack
    allowedTypes: ["9999"]
    maxAssets: 200
    items: { dir: ./launch-pack, type: "9999", prune: true }
    deployments: { prod: LIVE, staging: OFFLINE }
`;

interface Setup {
  h: Harness;
  /** Every write the emulator received, in order ("POST /api/v2/demo/va 201"). */
  writes: string[];
  file: string;
}

async function setup(options: EmulatorOptions = {}, yaml = EXAMPLE): Promise<Setup> {
  const writes: string[] = [];
  // The content's writes (a run's change-control lock, on its sentinel asset, is not content).
  const h = await harness({ ...options, log: (line) => void (line.startsWith('GET ') || line.includes('/va/ahs-control') ? undefined : writes.push(line.replace(/ \d+ms$/, ''))) });
  await mkdir(join(h.dir, 'build'));
  await mkdir(join(h.dir, 'launch-pack'));
  for (const name of ['1.3.0', '1.4.1', '1.4.2']) await writeFile(join(h.dir, 'build', `${name}.zip`), `ios ${name}`);
  await writeFile(join(h.dir, 'build', 'ios.zip'), 'ios 1.5.0 bytes');
  await writeFile(join(h.dir, 'launch-pack', 'intro.png'), 'png');
  await writeFile(join(h.dir, 'launch-pack', 'level1.json'), '{"level":1}');
  const file = join(h.dir, 'ahs.yaml');
  await writeFile(file, yaml);
  // Change control's sentinels made beforehand (an apply takes the lock of its environment, channel or collection,
  // whose first use creates the sentinel asset: a POST /va that is not the file's).
  for (const scope of ['prod', 'my-bundle/ios/prod', 'launch-pack@prod']) await h.createAsset(lockAssetOf(parseScope(scope) as Scope));
  writes.length = 0;
  return { h, writes, file };
}

const EXAMPLE_RECORDS = ['ios/prod/IOS1=OFFLINE', 'ios/prod/IOS2=LIVE', 'ios/prod/IOS3=DEFAULT', 'ios/staging/IOS4=DEFAULT'];

/** The service holds exactly the example's state: versions once each, the channels, the items once each, the deployments. */
async function expectExampleState(h: Harness): Promise<void> {
  expect(await h.records('my-bundle')).toEqual(EXAMPLE_RECORDS);
  const versions = await h.call('GET', '/va/my-bundle/versions?pageSize=100');
  expect(versions.body.results.map((v: { versionName: string }) => v.versionName).sort()).toEqual(['1.3.0', '1.4.1', '1.4.2', '1.5.0']);
  const asset = await h.call('GET', '/va/my-bundle');
  expect(asset.body).toMatchObject({ assetName: 'My bundle', assetType: '1001', localCacheControl: true });
  const items = await h.call('GET', '/vc/launch-pack/items?pageSize=100');
  expect(items.body.results.map((i: { assetItemName: string }) => i.assetItemName).sort()).toEqual(['intro.png', 'level1.json']);
  const collection = await h.call('GET', '/vc/launch-pack');
  expect(collection.body).toMatchObject({ collectionName: 'Launch pack', allowedAssetTypes: ['9999'], maxAssets: 200 });
  const status = await h.call('GET', '/vc/launch-pack/deployments');
  const byEnv = Object.fromEntries(status.body.items.filter((row: { live: string[]; offline: string[] }) => row.live.length + row.offline.length > 0).map((row: { envId: string; live: string[]; offline: string[] }) => [row.envId, row.live.length ? 'LIVE' : row.offline.length ? 'OFFLINE' : 'none']));
  expect(byEnv).toEqual({ prod: 'LIVE', staging: 'OFFLINE' });
}

describe('ahs plan and apply: cli.md example on a fresh emulator', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });
  afterAll(() => s.h.close());

  it('plan --detailed-exitcode exits 10 sending no write; apply --yes holds the file; plan then exits 0; export plans as unchanged', async () => {
    const { h, writes, file } = s;
    const planned = await h.ahs(['plan', '-f', file, '--detailed-exitcode']);
    expect(planned.exitCode).toBe(10);
    expect(planned.stderr).toBe('');
    expect(writes).toEqual([]);
    // Rendered from the changes' values; an id the service will assign is never guessed.
    expect(planned.stdout).toContain('~ channel.my-bundle.ios.prod deploy 1.4.2\n    version: (known after apply)\n    state: (none) → LIVE\n      deploy (known after apply) LIVE on my-bundle/ios/prod (predicted to succeed)\n');
    expect(planned.stdout).toContain('- channel.my-bundle.ios.prod deploy 1.3.0\n    version: (known after apply)\n    state: (none) → OFFLINE\n');
    // The rules' prediction in words; the arrow only for a change (old → new), never for an answer's status.
    expect(planned.stdout).toContain('~ channel.my-bundle.ios.prod promote 1.4.2\n    default: (none) → (known after apply)\n      make (known after apply) the Default of my-bundle/ios/prod (predicted to succeed)\n');
    expect(planned.stdout).not.toMatch(/IOS\d/);
    expect(planned.stdout).toContain('      create collection launch-pack (predicted to succeed)');
    for (const line of planned.stdout.split('\n')) expect(line).not.toMatch(/→ \d{3}\b/);
    expect(planned.stdout).toContain('~ collection.launch-pack.deployment.staging deploy (deployed LIVE first: only a deployment can be taken OFFLINE)\n    state: (none) → LIVE\n');
    expect(planned.stdout).toMatch(/Plan: 8 to create, 9 to change, 0 to remove \(18 request\(s\)\)\.$/);

    const json = await h.ahs(['plan', '-f', file, '--json']);
    const doc = json.json();
    expect(doc).toMatchObject({ formatVersion: 2, baseUrl: h.emu.baseUrl, domainId: 'demo', file: { path: file } });
    expect(doc.files).toHaveLength(6);
    expect(doc.steps).toHaveLength(18);
    expect(json.stdout).not.toContain(h.env.AHS_API_KEY);

    const refused = await h.ahs(['apply', '-f', file]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe('error: apply needs confirmation: pass --yes (CI is set: no prompts)');
    expect(writes).toEqual([]);

    const applied = await h.ahs(['apply', '-f', file, '--yes', '--json']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    // No preview and no step lines in JSON mode (upload progress is progress, on stderr as everywhere).
    expect(applied.stderr).not.toContain('Plan:');
    expect(applied.stderr).not.toContain('create asset');
    expect(applied.stderr).not.toContain('✓');
    const result = applied.json();
    expect(result.changed).toBe(18);
    expect(result.failed).toEqual([]);
    expect(result.steps[0]).toEqual({ resource: 'asset.my-bundle', action: 'create', request: { method: 'POST', path: '/api/v2/demo/va', query: {}, body: { assetId: 'my-bundle', assetName: 'My bundle', assetType: '1001', createdBy: DEMO_USER, localCacheControl: true } }, outcome: 'done' });

    expect(writes).toHaveLength(17); // the settling of copies is a read
    await expectExampleState(h);

    const again = await h.ahs(['plan', '-f', file, '--detailed-exitcode']);
    expect(again.exitCode).toBe(0);
    // Which rule decided, as item sync says it.
    expect(again.stdout).toContain("note: collection launch-pack: items 2 compared by size: an edit that keeps a file's size is not seen (--checksum compares content)\n");
    expect(again.stdout).toContain('note: asset my-bundle: versions compared by content (SHA-256 of what is served): ios/1.4.1 (IOS2), ios/1.4.2 (IOS3), ios/1.5.0 (IOS4)\n');
    expect(again.stdout).toContain('note: asset my-bundle: versions compared by file name and size (LIVE or DEFAULT nowhere, so not downloadable): ios/1.3.0 (IOS1)\n');
    expect(again.stdout.split('\n').at(-1)).toBe('No changes: the service holds what the file says.');

    const exported = await h.ahs(['export']);
    expect(exported.exitCode).toBe(0);
    const exportedFile = await h.file('exported.yaml', exported.stdout);
    const roundTrip = await h.ahs(['plan', '-f', exportedFile, '--detailed-exitcode']);
    expect(roundTrip.exitCode, roundTrip.stdout).toBe(0);
    expect(writes).toHaveLength(17); // the settling of copies is a read
  });

  it('a saved plan is refused (exit 5, nothing sent) after a promotion made outside it, and after a change to a file it would upload; ahs show renders it offline', async () => {
    const { h, writes } = s;
    const next = EXAMPLE.replace('default: "1.4.2", live: ["1.4.1"]', 'default: "1.5.0", live: ["1.4.1", "1.4.2"]').replace('"1.5.0": build/ios.zip', '"1.5.0": build/ios.zip\n        "1.6.0": build/1.6.0.zip');
    await writeFile(join(h.dir, 'build', '1.6.0.zip'), 'ios 1.6.0');
    const file = await h.file('next.yaml', next);
    const planFile = join(h.dir, 'next.plan');
    const saved = await h.ahs(['plan', '-f', file, '--out', planFile]);
    expect(saved.exitCode, saved.stderr).toBe(0);
    expect(saved.stderr).toContain(`saved the plan to ${planFile}`);

    const shown = await h.ahs(['show', planFile], { env: { AHS_BASE_URL: 'http://127.0.0.1:1' } });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('~ channel.my-bundle.ios.prod deploy 1.5.0\n    version: IOS4\n    state: (none) → LIVE\n');
    expect(shown.stdout).toContain('~ channel.my-bundle.ios.prod promote 1.5.0\n    default: IOS3 → IOS4\n');
    // A request the rules predict the service refuses says so, with the service's answer.
    const refusedPlan = JSON.parse(await readFile(planFile, 'utf8'));
    const promote = refusedPlan.steps.find((step: { kind: string }) => step.kind === 'version.promote');
    promote.prediction.decision = { ok: false, status: 400, title: 'Version is not LIVE', kind: 'state', code: 'versionNotLive' };
    const refusedFile = await h.file('refused.plan', JSON.stringify(refusedPlan));
    const refusedShown = await h.ahs(['show', refusedFile], { env: { AHS_BASE_URL: 'http://127.0.0.1:1' } });
    expect(refusedShown.exitCode, refusedShown.stderr).toBe(0);
    expect(refusedShown.stdout).toContain('      make IOS4 the Default of my-bundle/ios/prod (predicted to be refused: 400 Version is not LIVE)');

    // Another writer promotes 1.4.1 on prod between plan and apply.
    expect((await h.deploy('my-bundle', 'IOS2', 'ios', 'prod', 'DEFAULT', { currentVersionId: 'IOS3', currentAssetIntent: 'LIVE' })).status).toBe(201);
    const before = writes.length;
    const stale = await h.ahs(['apply', planFile, '--yes']);
    expect(stale.exitCode).toBe(5);
    expect(stale.stderr).toBe(
      'error: the plan is stale: GET /va/my-bundle/asset-urls (channel ios/prod): was 2 result(s): IOS2@ios/prod=LIVE IOS3@ios/prod=DEFAULT, now 2 result(s): IOS2@ios/prod=DEFAULT IOS3@ios/prod=LIVE; nothing was sent; run ahs plan again',
    );
    expect(writes.length).toBe(before);
    // Put it back, as planned: the plan is fresh again, except for the file about to change.
    expect((await h.deploy('my-bundle', 'IOS3', 'ios', 'prod', 'DEFAULT', { currentVersionId: 'IOS2', currentAssetIntent: 'LIVE' })).status).toBe(201);
    const replanned = await h.ahs(['plan', '-f', file, '--out', planFile]);
    expect(replanned.exitCode).toBe(0);
    await writeFile(join(h.dir, 'build', '1.6.0.zip'), 'ios 1.6.0, rebuilt');
    const changed = await h.ahs(['apply', planFile, '--yes']);
    expect(changed.exitCode).toBe(5);
    expect(changed.stderr).toContain(`error: the plan is stale: ${join(h.dir, 'build', '1.6.0.zip')} changed since the plan (SHA-256 `);
    expect(writes.length).toBe(before + 1); // the promotion put back by hand, nothing of the plan

    // A fresh plan applies; the file holds again; and a plan for another service is refused.
    await writeFile(join(h.dir, 'build', '1.6.0.zip'), 'ios 1.6.0');
    expect((await h.ahs(['plan', '-f', file, '--out', planFile])).exitCode).toBe(0);
    const elsewhere = await h.ahs(['apply', planFile, '--yes', '--domain', 'other']);
    expect(elsewhere.exitCode).toBe(2);
    const ok = await h.ahs(['apply', planFile, '--yes']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(await h.records('my-bundle')).toEqual(['ios/prod/IOS1=OFFLINE', 'ios/prod/IOS2=LIVE', 'ios/prod/IOS3=LIVE', 'ios/prod/IOS4=DEFAULT', 'ios/staging/IOS4=DEFAULT']);
    expect((await h.ahs(['plan', '-f', file, '--detailed-exitcode'])).exitCode).toBe(0);
  });
});

describe('ahs export then plan under a page cap of 20', () => {
  it('more than 20 versions on a channel: the exported file plans as unchanged', async () => {
    const { h } = await setup({ variation: { maxPageSize: 20 } });
    try {
      await h.createAsset('big');
      const ids: string[] = [];
      for (let n = 0; n < 24; n++) ids.push(await h.uploadVersion('big', 'ios', `v${n}`));
      for (const id of ids.slice(0, 22)) expect((await h.deploy('big', id, 'ios', 'prod', 'LIVE')).status).toBe(201);
      for (const id of ids.slice(22)) expect((await h.deploy('big', id, 'ios', 'prod', 'OFFLINE')).status).toBe(201);
      expect((await h.deploy('big', ids[21]!, 'ios', 'prod', 'DEFAULT')).status).toBe(201);
      const exported = await h.ahs(['export', '--asset', 'big']);
      expect(exported.exitCode, exported.stderr).toBe(0);
      expect(exported.stdout).toContain('default: v21');
      const file = await h.file('big.yaml', exported.stdout);
      const planned = await h.ahs(['plan', '-f', file, '--detailed-exitcode']);
      expect(planned.exitCode, planned.stdout).toBe(0);
    } finally {
      await h.close();
    }
  });
});

describe('errors the file can hold: file:line:col, exit 2, nothing sent', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
    const { h } = s;
    await h.createAsset('app');
    const ios = await h.uploadVersion('app', 'ios', '1.0');
    await h.uploadVersion('app', 'ios', 'twice');
    await h.uploadVersion('app', 'ios', 'twice');
    await h.uploadVersion('app', 'android', 'droid');
    await h.deploy('app', ios, 'ios', 'prod', 'LIVE');
    await h.deploy('app', ios, 'ios', 'prod', 'DEFAULT');
    expect((await h.call('POST', '/vc', { collectionId: 'pack', collectionName: 'Pack', allowedAssetTypes: ['9999'], createdBy: DEMO_USER })).status).toBe(201);
  });
  afterAll(() => s.h.close());

  const asset = (body: string) => `apiVersion: ahs/v1\nassets:\n  app:\n    name: App\n    type: "1001"\n${body}`;
  const cases: Array<[string, string, string]> = [
    ['YAML syntax', 'apiVersion: ahs/v1\nassets: [\n', ':3:1: '],
    ['not a mapping (another file given)', 'release notes\n', ':1:1: not a desired-state file: expected a YAML mapping that starts with apiVersion: ahs/v1 (see ahs schema, or write one with ahs export)'],
    ['apiVersion', 'apiVersion: v2\n', ':1:13: apiVersion: must be ahs/v1'],
    ['unknown field', asset('    colour: red\n'), ':6:5: assets.app.colour: unknown field'],
    ['an unquoted type code', 'apiVersion: ahs/v1\nassets:\n  app:\n    name: App\n    type: 1001\n', ':5:11: assets.app.type: 1001 is read by YAML as the number 1001, where text is expected; quote it: "1001"'],
    ['asset type change', 'apiVersion: ahs/v1\nassets:\n  app:\n    name: App\n    type: "9999"\n', ':5:11: assets.app.type: the asset type cannot change (app is of type 1001)'],
    ['no such version', asset('    channels:\n      ios:\n        prod: { live: ["9.9"] }\n'), ':8:24: assets.app.channels.ios.prod.live.0: app has no ios version named 9.9; add it under versions.ios to upload it'],
    ['a version of another platform', asset('    channels:\n      ios:\n        prod: { live: [{ versionId: AND1 }] }\n'), "AND1 is a android version: a version's platform cannot change"],
    ['an ambiguous name', asset('    channels:\n      ios:\n        prod: { live: ["twice"] }\n'), ':8:24: assets.app.channels.ios.prod.live.0: 2 ios versions of app are named twice (IOS2, IOS3): pin one as { versionId: ID }'],
    ['clearing a Default', asset('    channels:\n      ios:\n        prod: { live: ["1.0"] }\n'), ':8:24: assets.app.channels.ios.prod.live.0: 1.0 (IOS1) is the Default of app/ios/prod: a Default cannot be made LIVE without another one'],
    ['two states of one version', asset('    channels:\n      ios:\n        prod: { default: "1.0", live: ["1.0"] }\n'), 'assets.app.channels.ios.prod.live.0: 1.0 (IOS1) is also DEFAULT in this channel'],
    ['a missing file', asset('    versions:\n      ios:\n        "2.0": build/none.zip\n'), ':8:16: assets.app.versions.ios.2.0: cannot read build/none.zip'],
    ['allowed types change', 'apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["1001"]\n', ":5:19: collections.pack.allowedTypes: a collection's allowed types cannot change (pack allows 9999)"],
    ['platform change', 'apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["9999"]\n    platform: ios\n', ":6:15: collections.pack.platform: a collection's platform cannot change (pack is generic)"],
    ['a missing items folder', 'apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["9999"]\n    items: { dir: ./nowhere, type: "9999" }\n', ':6:19: collections.pack.items.dir: cannot read the folder'],
    ['an anchor with no item', 'apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["9999"]\n    anchor: intro.png\n', ':6:13: collections.pack.anchor: no item named intro.png in pack'],
  ];

  it.each(cases)('%s', async (_name, yaml, expected) => {
    const { h, writes } = s;
    const before = writes.length;
    const file = await h.file('bad.yaml', yaml);
    const result = await h.ahs(['plan', '-f', file]);
    expect(result.exitCode, result.stdout).toBe(2);
    expect(result.stderr).toContain(`error: ${file}${expected.startsWith(':') ? expected : ''}`);
    expect(result.stderr).toContain(expected);
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(writes.length).toBe(before);
  });
});

describe('an apply cut after each of its writes, then run again', () => {
  const SMALL = `apiVersion: ahs/v1
assets:
  my-bundle:
    name: My bundle
    type: "1001"
    versions:
      ios:
        "1.5.0": build/ios.zip
    channels:
      ios:
        prod: { default: "1.5.0" }
collections:
  launch-pack:
    name: Launch pack
    allowedTypes: ["9999"]
    items: { dir: ./launch-pack, type: "9999" }
    deployments: { prod: LIVE }
`;
  const WRITES = 8;

  it.each(Array.from({ length: WRITES }, (_, index) => index + 1))('cut after write %i: the re-run ends in the file\'s state, no duplicate version or item', async (cutAfter) => {
    const { h, file, writes } = await setup({}, SMALL);
    const proxy = await startFaultProxy(h.emu.baseUrl, { cutAfterWrites: cutAfter, spare: SPARE_CONTROL });
    try {
      const cut = await h.ahs(['apply', '-f', file, '--yes', '--retries', '0', '--timeout', '2'], { env: { AHS_BASE_URL: proxy.url } });
      expect(cut.exitCode, cut.stderr).not.toBe(0);
      expect(writes).toHaveLength(cutAfter);
      const rerun = await h.ahs(['apply', '-f', file, '--yes']);
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      expect(writes, cut.stderr + rerun.stderr).toHaveLength(WRITES);
      expect(await h.records('my-bundle')).toEqual(['ios/prod/IOS1=DEFAULT']);
      const items = await h.call('GET', '/vc/launch-pack/items');
      expect(items.body.results.map((i: { assetItemName: string }) => i.assetItemName).sort()).toEqual(['intro.png', 'level1.json']);
      expect((await h.ahs(['plan', '-f', file, '--detailed-exitcode'])).exitCode).toBe(0);
    } finally {
      await proxy.close();
      await h.close();
    }
  });
});

describe('a version the file names with another file than the one uploaded', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => h?.close());

  it('is a plan error at its line, not "no changes"; the same file plans nothing', async () => {
    const dir = join(h.dir, 'swapped');
    await mkdir(join(dir, 'build'), { recursive: true });
    await writeFile(join(dir, 'build', 'app.zip'), 'first build');
    const file = join(dir, 'ahs.yaml');
    const yaml = (name: string) => `apiVersion: ahs/v1\nassets:\n  swapped:\n    name: Swapped\n    type: "1001"\n    versions:\n      ios:\n        "1.0": build/${name}\n`;
    await writeFile(file, yaml('app.zip'));
    expect((await h.ahs(['apply', '-f', file, '--yes'])).exitCode).toBe(0);
    expect((await h.ahs(['plan', '-f', file, '--detailed-exitcode'])).exitCode).toBe(0);
    await writeFile(join(dir, 'build', 'other.zip'), 'a second, longer build');
    await writeFile(file, yaml('other.zip'));
    const swapped = await h.ahs(['plan', '-f', file, '--detailed-exitcode']);
    expect(swapped.exitCode).toBe(2);
    expect(swapped.stderr).toMatch(/^error: .*ahs\.yaml:8:\d+: assets\.swapped\.versions\.ios\.1\.0: build\/other\.zip \(22 bytes\) is not the file this version was uploaded from: IOS1 \(app\.zip, [^)]+\); a version's file cannot change/m);
  });
});

describe('apply without --json says what it did on stdout (cli.md "Output": data on stdout)', () => {
  it('each request with its outcome, then "Apply complete" with the resources added, changed, removed; a failure shows what was not done', async () => {
    const yaml = (name: string) => `apiVersion: ahs/v1\nassets:\n  said:\n    name: ${name}\n    type: "1001"\ncollections:\n  said-pack:\n    name: Said\n    allowedTypes: ["9999"]\n`;
    const { h, file, writes } = await setup({}, yaml('Said'));
    try {
      const applied = await h.ahs(['apply', '-f', file, '--yes']);
      expect(applied.exitCode, applied.stderr).toBe(0);
      expect(applied.stdout.split('\n')).toEqual([
        'RESOURCE\tREQUEST\tOUTCOME',
        'asset.said\tcreate asset said\tdone',
        'collection.said-pack\tcreate collection said-pack\tdone',
        'Apply complete: 2 added, 0 changed, 0 removed (2 request(s) sent).',
      ]);
      const again = await h.ahs(['apply', '-f', file, '--yes']);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toBe('Apply complete: no changes, nothing sent (the service holds what the file says).');

      // The service refuses one of two item uploads (sent together): the table says which, and what was done.
      await writeFile(file, `${yaml('Said')}    items: { dir: ./launch-pack, type: "9999" }\n`);
      const proxy = await startFaultProxy(h.emu.baseUrl);
      proxy.inject({ kind: 'answer', status: 422, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Unprocessable', status: 422, detail: 'no' }) }, { method: 'POST', path: '/vc/said-pack/items' });
      try {
        const before = writes.length;
        const failed = await h.ahs(['apply', '-f', file, '--yes'], { env: { AHS_BASE_URL: proxy.url } });
        expect(failed.exitCode).toBe(1);
        const rows = failed.stdout.split('\n').slice(1, -1);
        expect(rows).toHaveLength(3);
        expect(rows[2]).toMatch(/^item\.converge\tremove copies another run uploaded to said-pack at the same time\t/);
        expect(rows).toEqual(expect.arrayContaining([
          expect.stringMatching(/^item\.said-pack\.(intro\.png|level1\.json)\tupload (intro\.png|level1\.json) to said-pack\tdone$/),
          expect.stringMatching(/^item\.said-pack\.(intro\.png|level1\.json)\tupload (intro\.png|level1\.json) to said-pack\tfailed$/),
        ]));
        expect(failed.stdout.split('\n').at(-1)).toBe('Apply incomplete: 1 added, 0 changed, 0 removed; 2 of 3 request(s) done, 1 failed, 0 not sent.');
        // In words the CLI and the library share (client.apply throws the same PartialFailureError).
        expect(failed.stderr).toMatch(/^error: applied 2 of 3 request\(s\); failed: item\.said-pack\.\S+: upload \S+ to said-pack \(Unprocessable\); apply again once fixed: it sends only what is left$/m);
        expect(writes.length).toBe(before + 1);
      } finally {
        await proxy.close();
      }
    } finally {
      await h.close();
    }
  });

  it('a refused request on its own stops the run, and the JSON and the table still say what was done and what was not sent', async () => {
    const yaml = `apiVersion: ahs/v1\nassets:\n  stopped:\n    name: Stopped\n    type: "1001"\ncollections:\n  stopped-pack:\n    name: Stopped\n    allowedTypes: ["9999"]\n`;
    const { h, file, writes } = await setup({}, yaml);
    const proxy = await startFaultProxy(h.emu.baseUrl);
    try {
      const forbidden = JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, detail: 'no rights on assets' });
      proxy.inject({ kind: 'answer', status: 403, contentType: 'application/problem+json', body: forbidden }, { method: 'POST', path: '/va' });
      const json = await h.ahs(['apply', '-f', file, '--yes', '--json'], { env: { AHS_BASE_URL: proxy.url } });
      expect(json.exitCode, json.stderr).toBe(3);
      expect(json.json()).toMatchObject({
        changed: 0,
        steps: [
          { resource: 'asset.stopped', action: 'create', outcome: 'failed' },
          { resource: 'collection.stopped-pack', action: 'create', outcome: 'not sent' },
        ],
        failed: [{ resource: 'asset.stopped', error: { status: 403, title: 'Forbidden' } }],
      });
      expect(json.errJson()).toMatchObject({ status: 403, title: 'Forbidden' });
      // Only the one JSON error object on stderr: no plan preview, no step lines before it.
      expect(json.stderr.trim().split('\n')).toHaveLength(1);
      expect(writes).toEqual([]);

      proxy.inject({ kind: 'answer', status: 403, contentType: 'application/problem+json', body: forbidden }, { method: 'POST', path: '/va' });
      const table = await h.ahs(['apply', '-f', file, '--yes'], { env: { AHS_BASE_URL: proxy.url } });
      expect(table.exitCode).toBe(3);
      expect(table.stdout.split('\n')).toEqual([
        'RESOURCE\tREQUEST\tOUTCOME',
        'asset.stopped\tcreate asset stopped\tfailed',
        'collection.stopped-pack\tcreate collection stopped-pack\tnot sent',
        'Apply incomplete: 0 added, 0 changed, 0 removed; 0 of 2 request(s) done, 1 failed, 1 not sent.',
      ]);
      expect(writes).toEqual([]);
    } finally {
      await proxy.close();
      await h.close();
    }
  });

  it('a write whose answer a gateway lost and whose settling read failed is "unknown", never "failed"; the next plan reads whether it took', async () => {
    const yaml = `apiVersion: ahs/v1\nassets:\n  lost:\n    name: Lost\n    type: "1001"\ncollections:\n  lost-pack:\n    name: Lost\n    allowedTypes: ["9999"]\n`;
    const { h, file } = await setup({}, yaml);
    const proxy = await startFaultProxy(h.emu.baseUrl);
    try {
      // Forwarded, then a 504: the asset is created; the read that would tell fails too.
      proxy.inject({ kind: 'gateway' }, { method: 'POST', path: '/va' });
      proxy.inject({ kind: 'pass' }, { method: 'GET', path: '/va/lost' }); // the plan's own read
      proxy.inject({ kind: 'status', status: 503 }, { method: 'GET', path: '/va/lost', times: 5 });
      const json = await h.ahs(['apply', '-f', file, '--yes', '--json', '--retries', '0'], { env: { AHS_BASE_URL: proxy.url } });
      expect(json.exitCode, json.stderr).toBe(6);
      expect(json.json()).toMatchObject({
        changed: 0,
        steps: [
          { resource: 'asset.lost', outcome: 'unknown' },
          { resource: 'collection.lost-pack', outcome: 'not sent' },
        ],
        failed: [{ resource: 'asset.lost', error: { type: 'urn:ahs:unknown-outcome', detail: expect.stringContaining('the write may have been applied, and the read that would tell failed') } }],
      });
      const planned = await h.ahs(['plan', '-f', file, '--json']);
      expect(planned.exitCode, planned.stderr).toBe(0);
      expect(planned.stdout).not.toContain('"asset.lost"');
      expect(planned.stdout).toContain('collection.lost-pack');
    } finally {
      await proxy.close();
      await h.close();
    }
  });
});

describe('items: one planner with item sync (issue 31)', () => {
  const pack = (items: string, deployments = '') => `apiVersion: ahs/v1\ncollections:\n  race-pack:\n    name: Race\n    allowedTypes: ["9999"]\n${items}${deployments}`;

  it('two applies started together leave one copy of each item; a symbolic link is skipped and named; a same-size edit is a change with compare: checksum, and said to be unseen by size', async () => {
    const { h, file, writes } = await setup({}, pack(''));
    try {
      await symlink('intro.png', join(h.dir, 'launch-pack', 'link.png'));
      expect((await h.ahs(['apply', '-f', file, '--yes'])).exitCode).toBe(0);
      await writeFile(file, pack('    items: { dir: ./launch-pack, type: "9999" }\n'));
      const [one, two] = await Promise.all([h.ahs(['apply', '-f', file, '--yes']), h.ahs(['apply', '-f', file, '--yes'])]);
      expect(one.exitCode, one.stderr).toBe(0);
      expect(two.exitCode, two.stderr).toBe(0);
      expect(one.stderr).toContain('skipped 1 symbolic link(s) in ./launch-pack, not followed without followLinks: true: link.png');
      // In JSON too, where no preview is printed.
      const appliedJson = await h.ahs(['apply', '-f', file, '--yes', '--json']);
      expect(appliedJson.json().notes).toContain('collection race-pack: skipped 1 symbolic link(s) in ./launch-pack, not followed without followLinks: true: link.png');
      const names = async () => (await h.call('GET', '/vc/race-pack/items?pageSize=100')).body.results.map((i: { assetItemName: string }) => i.assetItemName).sort();
      expect(await names()).toEqual(['intro.png', 'level1.json']);
      expect(writes.filter((w) => w.startsWith('POST /api/v2/demo/vc/race-pack/items')).length).toBeGreaterThanOrEqual(2);

      // Live in prod: what it serves can be compared.
      await writeFile(file, pack('    items: { dir: ./launch-pack, type: "9999", compare: checksum }\n', '    deployments: { prod: LIVE }\n'));
      expect((await h.ahs(['apply', '-f', file, '--yes'])).exitCode).toBe(0);
      expect((await h.ahs(['plan', '-f', file, '--detailed-exitcode'])).exitCode).toBe(0);
      await writeFile(join(h.dir, 'launch-pack', 'intro.png'), 'PNG'); // one byte, same size
      const text = await h.ahs(['plan', '-f', file, '--detailed-exitcode']);
      expect(text.exitCode, text.stderr).toBe(10);
      expect(text.stdout).toContain('items 2 compared by content, 0 by size');
      const json = await h.ahs(['plan', '-f', file, '--json']);
      const upload = json.json().steps.find((s: { kind: string }) => s.kind === 'item.upload');
      expect(upload.params.fields.assetItemName).toBe('intro.png');
      // By size, the same edit is not seen, and the plan says so.
      await writeFile(file, pack('    items: { dir: ./launch-pack, type: "9999" }\n', '    deployments: { prod: LIVE }\n'));
      const bySize = await h.ahs(['plan', '-f', file, '--detailed-exitcode']);
      expect(bySize.exitCode).toBe(0);
      expect(bySize.stdout).toContain("items 2 compared by size: an edit that keeps a file's size is not seen (--checksum compares content)");
      expect((await h.ahs(['plan', '-f', file, '--checksum', '--detailed-exitcode'])).exitCode).toBe(10);
    } finally {
      await h.close();
    }
  });
});

describe('versions compared by content, and exclusive channels (issue 31)', () => {
  const BUNDLE = `apiVersion: ahs/v1
assets:
  ex:
    name: Ex
    type: "1001"
    versions:
      ios:
        "3.0.0": build/rel.zip
    channels:
      ios:
        staging: { default: "3.0.0" }
`;

  it('a one-byte, same-size change to a Default version\'s file is a plan error naming both SHA-256, in text, JSON and --detailed-exitcode', async () => {
    const { h, file } = await setup({}, BUNDLE);
    try {
      await writeFile(join(h.dir, 'build', 'rel.zip'), 'release 3.0.0');
      expect((await h.ahs(['apply', '-f', file, '--yes'])).exitCode).toBe(0);
      expect((await h.ahs(['plan', '-f', file, '--detailed-exitcode'])).exitCode).toBe(0);
      await writeFile(join(h.dir, 'build', 'rel.zip'), 'release 3.0.1');
      for (const extra of [[], ['--json'], ['--detailed-exitcode']]) {
        const planned = await h.ahs(['plan', '-f', file, ...extra]);
        expect(planned.exitCode, extra.join(' ')).toBe(2);
        const message = extra[0] === '--json' ? planned.errJson().detail : planned.stderr;
        expect(message).toMatch(/ahs\.yaml:8:\d+: assets\.ex\.versions\.ios\.3\.0\.0: build\/rel\.zip is not the content of IOS1: it serves SHA-256 [0-9a-f]{64}, the file is [0-9a-f]{64}; a version's file cannot change/);
        expect(planned.stdout).toBe('');
      }
    } finally {
      await h.close();
    }
  });

  it('a version made Live outside the file: drift on an exclusive channel (exit 10, planned OFFLINE), "not managed by the file" otherwise; export then plan is 0', async () => {
    const { h, file, writes } = await setup({}, BUNDLE);
    try {
      await writeFile(join(h.dir, 'build', 'rel.zip'), 'release 3.0.0');
      expect((await h.ahs(['apply', '-f', file, '--yes'])).exitCode).toBe(0);
      const exported = await h.ahs(['export', '--asset', 'ex']);
      expect(exported.stdout).toContain('exclusive: true');
      const exportedFile = await h.file('exported.yaml', exported.stdout);
      const hotfix = await h.uploadVersion('ex', 'ios', 'hotfix');
      expect((await h.deploy('ex', hotfix, 'ios', 'staging', 'LIVE')).status).toBe(201);
      const before = writes.length;

      const drift = await h.ahs(['plan', '-f', exportedFile, '--detailed-exitcode']);
      expect(drift.exitCode, drift.stderr).toBe(10);
      expect(drift.stdout).toContain(`deploy ${hotfix} OFFLINE on ex/ios/staging`);
      const loose = await h.ahs(['plan', '-f', file, '--detailed-exitcode']);
      expect(loose.exitCode, loose.stdout).toBe(0);
      expect(loose.stdout).toContain(`note: channel ex/ios/staging: not managed by the file (Live, not listed; exclusive: true takes them OFFLINE): hotfix (${hotfix})`);

      const again = await h.ahs(['export', '--asset', 'ex']);
      const againFile = await h.file('again.yaml', again.stdout);
      expect((await h.ahs(['plan', '-f', againFile, '--detailed-exitcode'])).exitCode).toBe(0);
      expect(writes.length).toBe(before);
      // Applied, the exclusive file takes it OFFLINE.
      expect((await h.ahs(['apply', '-f', exportedFile, '--yes'])).exitCode).toBe(0);
      expect(await h.records('ex')).toEqual(['ios/staging/IOS1=DEFAULT', `ios/staging/${hotfix}=OFFLINE`]);
    } finally {
      await h.close();
    }
  });
});

describe('the plan document is values (issue 31)', () => {
  const FILE = (name: string, prodDefault: string, live = prodDefault === '1.0' ? '2.0' : '1.0') => `apiVersion: ahs/v1
assets:
  vals:
    name: ${name}
    type: "1001"
    versions:
      ios:
        "1.0": build/1.3.0.zip
        "2.0": build/1.4.1.zip
    channels:
      ios:
        prod: { default: "${prodDefault}", live: ["${live}"] }
collections:
  vals-pack:
    name: Vals
    allowedTypes: ["9999"]
    items: { dir: ./launch-pack, type: "9999" }
`;

  it('plan --json has before/after values for an asset field change, a promotion and an item replacement, each with its request and prediction, and no rendered arrows; ahs schema --plan describes it', async () => {
    const { h, file } = await setup({}, FILE('Vals', '1.0'));
    try {
      expect((await h.ahs(['apply', '-f', file, '--yes'])).exitCode).toBe(0);
      await writeFile(file, FILE('Values', '2.0'));
      await writeFile(join(h.dir, 'launch-pack', 'intro.png'), 'a bigger png');
      const planned = await h.ahs(['plan', '-f', file, '--json']);
      expect(planned.exitCode, planned.stderr).toBe(0);
      expect(planned.stdout).not.toContain('→');
      const doc = planned.json();
      const find = (address: string, action: string) => doc.changes.find((c: { address: string; action: string }) => c.address === address && c.action === action);
      expect(find('asset.vals', 'update')).toMatchObject({ before: { assetName: 'Vals' }, after: { assetName: 'Values' }, request: { method: 'PUT', path: '/api/v2/demo/va/vals' }, prediction: { ok: true } });
      expect(find('channel.vals.ios.prod', 'promote')).toMatchObject({ before: { default: 'IOS1' }, after: { default: 'IOS2' }, name: '2.0', request: { method: 'POST', path: '/api/v2/demo/va/vals/versions/IOS2/deploy' }, prediction: { ok: true } });
      const replaced = find('item.vals-pack.intro.png', 'upload');
      expect(replaced).toMatchObject({ before: { itemId: expect.any(String), size: 3 }, after: { itemId: null, size: 12 }, unknownAfter: ['itemId'], compared: 'size', request: { method: 'POST', path: '/api/v2/demo/vc/vals-pack/items' } });
      expect(find('item.vals-pack.intro.png', 'remove')).toMatchObject({ before: { itemId: replaced.before.itemId, size: 3 }, after: null });

      const schema = await h.ahs(['schema', '--plan']);
      expect(schema.exitCode).toBe(0);
      expect(Object.keys(schema.json().properties.changes.items.properties)).toEqual(expect.arrayContaining(['address', 'action', 'before', 'after', 'request', 'prediction']));
    } finally {
      await h.close();
    }
  });

  it('an id the service will assign is "(known after apply)", never guessed: after IOS2 was deleted, the next upload is not called IOS2', async () => {
    const yaml = `apiVersion: ahs/v1\nassets:\n  guess:\n    name: Guess\n    type: "1001"\n    versions:\n      ios:\n        "1.0": build/1.3.0.zip\n    channels:\n      ios:\n        prod: { default: "1.0" }\n`;
    const { h, file } = await setup({}, yaml);
    try {
      await h.createAsset('guess');
      await h.uploadVersion('guess', 'ios', 'old-1');
      const deleted = await h.uploadVersion('guess', 'ios', 'old-2');
      expect((await h.call('DELETE', `/va/guess/versions/${deleted}`, { deletedBy: DEMO_USER })).status).toBeLessThan(300);
      const text = await h.ahs(['plan', '-f', file]);
      expect(text.stdout).toContain('~ channel.guess.ios.prod promote 1.0\n    default: (none) → (known after apply)\n      make (known after apply) the Default of guess/ios/prod');
      expect(text.stdout).not.toMatch(/IOS[23]\b/);
      const doc = (await h.ahs(['plan', '-f', file, '--json'])).json();
      expect(doc.changes.find((c: { action: string }) => c.action === 'upload')).toMatchObject({ after: { versionId: null }, unknownAfter: ['versionId'] });
      expect(JSON.stringify(doc)).not.toMatch(/IOS[23]\b/);
      const applied = await h.ahs(['apply', '-f', file, '--yes', '--json']);
      expect(applied.exitCode, applied.stderr).toBe(0);
      expect(await h.records('guess')).toEqual(['ios/prod/IOS3=DEFAULT']);
    } finally {
      await h.close();
    }
  });
});

describe('saved plans turn stale per channel (issue 31)', () => {
  it('a plan for prod survives a promotion on staging of the same asset, and is refused (exit 5, naming what moved) after one on prod', async () => {
    const yaml = (prod: string) => `apiVersion: ahs/v1\nassets:\n  fp:\n    name: Fp\n    type: "1001"\n    versions:\n      ios:\n        "1.0": build/1.3.0.zip\n        "2.0": build/1.4.1.zip\n    channels:\n      ios:\n        prod: { default: "${prod}" }\n`;
    const { h, file, writes } = await setup({}, yaml('1.0'));
    try {
      expect((await h.ahs(['apply', '-f', file, '--yes'])).exitCode).toBe(0);
      expect((await h.deploy('fp', 'IOS1', 'ios', 'staging', 'LIVE')).status).toBe(201);
      expect((await h.deploy('fp', 'IOS1', 'ios', 'staging', 'DEFAULT')).status).toBe(201);
      await writeFile(file, yaml('2.0'));
      const planFile = join(h.dir, 'fp.plan');
      expect((await h.ahs(['plan', '-f', file, '--out', planFile])).exitCode).toBe(0);
      expect(JSON.parse(await readFile(planFile, 'utf8')).reads.find((r: { path: string }) => r.path.endsWith('/va/fp/asset-urls')).scope).toEqual(['ios/prod']);

      // Another channel of the same asset moves: the plan still holds.
      expect((await h.deploy('fp', 'IOS2', 'ios', 'staging', 'LIVE')).status).toBe(201);
      expect((await h.deploy('fp', 'IOS2', 'ios', 'staging', 'DEFAULT', { currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' })).status).toBe(201);
      const fresh = await h.ahs(['apply', planFile, '--yes']);
      expect(fresh.exitCode, fresh.stderr).toBe(0);
      expect(await h.records('fp')).toContain('ios/prod/IOS2=DEFAULT');

      // Its own channel moves: refused, naming what moved, nothing sent.
      await writeFile(file, yaml('1.0'));
      expect((await h.ahs(['plan', '-f', file, '--out', planFile])).exitCode).toBe(0);
      expect((await h.deploy('fp', 'IOS1', 'ios', 'prod', 'OFFLINE')).status).toBe(201);
      const before = writes.length;
      const stale = await h.ahs(['apply', planFile, '--yes']);
      expect(stale.exitCode).toBe(5);
      expect(stale.stderr).toMatch(/^error: the plan is stale: GET \/va\/fp\/asset-urls \(channel ios\/prod\): was .*IOS1@ios\/prod=LIVE.*, now .*IOS1@ios\/prod=OFFLINE.*; nothing was sent; run ahs plan again$/);
      expect(stale.stderr).not.toContain('staging');
      expect(writes.length).toBe(before);
    } finally {
      await h.close();
    }
  });
});

describe('plan -out (Terraform\'s spelling)', () => {
  it('is a usage error suggesting --out; nothing is written', async () => {
    const { h, file } = await setup({}, 'apiVersion: ahs/v1\n');
    try {
      const result = await h.ahs(['plan', '-f', file, '-out', join(h.dir, 'r.plan')]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe('error: --output must be one of table, wide, json, yaml (got ut): did you mean --out? (-out is read as -o ut; ahs plan --out PLAN saves the plan); run with --help for usage');
      await expect(readFile(join(h.dir, 'r.plan'))).rejects.toThrow();
    } finally {
      await h.close();
    }
  });
});
