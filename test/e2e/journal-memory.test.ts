// Memory that never misleads (issue 42, cli.md "Memory"): entries read as
// untrusted input, a journal that writes only to itself, the domain's
// ahs-journal with no set-up, values the service held, appends that lose
// nothing at a full journal, and history's flags. main() against the
// emulator over real HTTP; the emulator's state checked directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { DEMO_USER, harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const CH = ['--platform', 'ios', '--env', 'prod'];

/** A journal of its own, started with `journal init`. */
async function startJournal(id = uid('jm')) {
  const init = await h.ahs(['journal', 'init', id, '--env', 'prod', '--json']);
  expect(init.exitCode, init.stderr).toBe(0);
  return id;
}

/** Uploads an item whose file is `content`, named as an entry would be (the service's item, not ahs's). */
async function plant(collectionId: string, content: string, fileName = 'entry.json') {
  const form = new FormData();
  form.set('assetItemName', `${new Date().toISOString()} planted`);
  form.set('assetType', '9999');
  form.set('createdBy', DEMO_USER);
  form.set('assetFile', new Blob([content], { type: 'application/json' }), fileName);
  const answer = await h.call('POST', `/vc/${collectionId}/items`, form);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.assetItemId as string;
}

async function items(collectionId: string) {
  const answer = await h.call('GET', `/vc/${collectionId}/items?pageSize=1000`);
  return answer.status === 200 ? (answer.body.results as Array<{ assetItemId: string; fileName: string; assetItemName: string }>) : [];
}

const base = { apiVersion: 'ahs/journal/v1', command: 'promote-default', arguments: [], actor: DEMO_USER, outcome: 'applied', exitCode: 0 };
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** The malformed shapes of issue 42: each shown as unreadable, none deciding anything. */
const MALFORMED: Array<[string, string]> = [
  ['a null change', JSON.stringify({ ...base, changes: [null] })],
  ['an address that is not a string', JSON.stringify({ ...base, changes: [{ address: 123, before: null, after: null }] })],
  ['a deep nesting in a value', `{"apiVersion":"ahs/journal/v1","command":"x","arguments":[],"actor":"a","outcome":"applied","exitCode":0,"changes":[{"address":"asset.A","before":null,"after":{"x":${deep(5000)}}}]}`],
  ['a deep nesting as the document', deep(20000)],
  ['a Default that is an object', JSON.stringify({ ...base, changes: [{ address: 'channel.A.ios.prod', before: { default: 'V1' }, after: { default: { id: 'V2' } } }] })],
  ['changes that are not a list', JSON.stringify({ ...base, changes: 'everything' })],
  ['a command that is a number', JSON.stringify({ ...base, command: 42, changes: [] })],
  ['an exit code that is text', JSON.stringify({ ...base, exitCode: '0', changes: [] })],
  ['an outcome of its own', JSON.stringify({ ...base, outcome: 'maybe', changes: [] })],
  ['no apiVersion', JSON.stringify({ command: 'x', changes: [] })],
  ['null', 'null'],
  ['not JSON', '{"apiVersion": "ahs/journal/v1", '],
];

describe('entries are untrusted input', () => {
  it('history and rollback --dry-run exit 0 over a journal holding each malformed shape, each shown as unreadable with its item id, none used', async () => {
    const journal = await startJournal();
    const env = { AHS_JOURNAL: journal };
    const id = uid('ju');
    await h.createAsset(id);
    for (const name of ['1.0', '1.1']) {
      const r = await h.ahs(['release', id, await h.file(`${id}-${name}.zip`, name), ...CH, '--name', name, '--json'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const planted = new Map<string, string>();
    for (const [what, content] of MALFORMED) planted.set(await plant(journal, content), what);
    // A name that looks like an entry's but does not decode: read from the content (here malformed too).
    planted.set(await plant(journal, JSON.stringify({ ...base, changes: [null] }), 'ahs2.abcdefgh12345678.bm90LWpzb24.json'), 'a name that does not decode');
    // A value holding terminal controls: readable, but never reaching the terminal raw.
    await plant(journal, JSON.stringify({ ...base, command: 'evil\u001b[2J\u001b]52;c;aGk=\u0007', changes: [] }));

    const history = await h.ahs(['history'], { env });
    expect(history.exitCode, history.stderr).toBe(0);
    for (const [itemId, what] of planted) expect(history.stderr, what).toContain(`unreadable entry ${itemId} in ${journal}`);
    expect(history.stdout + history.stderr).not.toContain('\u001b');
    expect(history.stdout).toContain('evil\\e[2J');
    expect(history.stdout).toContain('release');

    const json = await h.ahs(['history', '--json'], { env });
    expect(json.exitCode).toBe(0);
    expect(json.json().unreadable.map((e: { itemId: string }) => e.itemId).sort()).toEqual([...planted.keys()].sort());

    const rollback = await h.ahs(['rollback', id, ...CH, '--dry-run'], { env });
    expect(rollback.exitCode, rollback.stderr).toBe(0);
    expect(rollback.stderr).toContain('unreadable entry');
    expect(rollback.stderr).toContain('the journal proves it');
  });
});

describe('journal identity', () => {
  it('AHS_JOURNAL naming a content collection: the deploy exits 0, warns once naming the setting, and adds nothing to it', async () => {
    const content = uid('launch');
    expect((await h.call('POST', '/vc', { collectionId: content, collectionName: 'launch pack', description: 'launch assets', allowedAssetTypes: ['9999'], createdBy: DEMO_USER })).status).toBe(201);
    await plant(content, '{"hello": "world"}', 'hello.json');
    const before = await items(content);
    const id = uid('jd');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    const r = await h.ahs(['deploy', id, v, ...CH, '--state', 'LIVE'], { env: { AHS_JOURNAL: content } });
    expect(r.exitCode, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`the journal setting (AHS_JOURNAL) names ${content}, and ${content} is not an ahs journal`);
    expect(warnings[0]).toContain('nothing was added to it');
    expect(await items(content)).toEqual(before);
    expect(await h.records(id)).toContain(`ios/prod/${v}=LIVE`);
  });

  it('asset update --name records exactly {assetName} before and after', async () => {
    const journal = await startJournal();
    const id = uid('jn');
    await h.createAsset(id);
    const r = await h.ahs(['asset', 'update', id, '--name', 'Other 3'], { env: { AHS_JOURNAL: journal } });
    expect(r.exitCode, r.stderr).toBe(0);
    const history = await h.ahs(['history', id, '--json'], { env: { AHS_JOURNAL: journal } });
    expect(history.json().results[0]).toMatchObject({ command: 'asset update', changes: [{ address: `asset.${id}`, before: { assetName: id }, after: { assetName: 'Other 3' } }] });
    expect(Object.keys(history.json().results[0].changes[0])).toEqual(['address', 'before', 'after']);
  });

  it('history --env staging lists no upload, and AHS_ENV=staging means the same; --limit counts what is kept', async () => {
    const journal = await startJournal();
    const env = { AHS_JOURNAL: journal };
    const id = uid('je');
    await h.createAsset(id);
    for (const name of ['1', '2', '3']) {
      expect((await h.ahs(['version', 'upload', id, await h.file(`${id}-${name}.zip`, name), '--platform', 'ios', '--name', name], { env })).exitCode).toBe(0);
    }
    const [v] = (await h.ahs(['version', 'list', id, '--json'], { env })).json().results.map((x: { versionId: string }) => x.versionId);
    expect((await h.ahs(['deploy', id, v, '--platform', 'ios', '--env', 'staging', '--state', 'LIVE'], { env })).exitCode).toBe(0);
    expect((await h.ahs(['version', 'upload', id, await h.file(`${id}-4.zip`, '4'), '--platform', 'ios', '--name', '4'], { env })).exitCode).toBe(0);
    const byFlag = await h.ahs(['history', id, '--env', 'staging', '--limit', '3', '--json'], { env });
    expect(byFlag.exitCode, byFlag.stderr).toBe(0);
    expect(byFlag.json().results.map((e: { command: string }) => e.command)).toEqual(['deploy']);
    expect(byFlag.json().results[0].changes.map((c: { address: string }) => c.address)).toEqual([`channel.${id}.ios.staging`]);
    const byVariable = await h.ahs(['history', id, '--limit', '3', '--json'], { env: { ...env, AHS_ENV: 'staging' } });
    expect(byVariable.json().results).toEqual(byFlag.json().results);
    // Without --env: the newest three, uploads included.
    const all = await h.ahs(['history', id, '--limit', '3', '--json'], { env: { ...env, AHS_ENV: undefined } });
    expect(all.json().results.map((e: { command: string }) => e.command)).toEqual(['version upload', 'deploy', 'version upload']);
  });
});

describe('ahs api', () => {
  it('a write is recorded as the raw request; a read is not', async () => {
    const journal = await startJournal();
    const env = { AHS_JOURNAL: journal };
    const id = uid('jq');
    const write = await h.ahs(['api', 'POST', '/va', '--field', `assetId=${id}`, '--field', `assetName=${id}`, '--field', 'assetType=1001', '--field', `createdBy=${DEMO_USER}`], { env });
    expect(write.exitCode, write.stderr).toBe(0);
    expect((await h.ahs(['api', 'GET', `/va/${id}`], { env })).exitCode).toBe(0);
    const history = await h.ahs(['history', '--json'], { env });
    const [entry] = history.json().results;
    expect(entry).toMatchObject({ command: 'api', arguments: ['api', 'POST', '/va', '--field', `assetId=${id}`, '--field', `assetName=${id}`, '--field', 'assetType=1001', '--field', `createdBy=${DEMO_USER}`], outcome: 'applied', exitCode: 0, changes: [{ address: 'request.POST', before: null, after: { method: 'POST', path: '/api/v2/demo/va' } }] });
    expect(JSON.parse(entry.changes[0].after.body)).toMatchObject({ assetId: id, assetType: '1001' });
    expect(history.json().results.filter((e: { command: string }) => e.command === 'api')).toHaveLength(1);
  });
});

describe('the domain\'s ahs-journal, with no set-up', () => {
  let d: Harness;
  beforeAll(async () => {
    d = await harness();
  });
  afterAll(async () => d?.close());

  it('a fresh config folder and no setting: a marked ahs-journal records a release that history lists; --no-journal and AHS_JOURNAL= record nothing', async () => {
    const init = await d.ahs(['journal', 'init', '--env', 'prod']);
    expect(init.exitCode, init.stderr).toBe(0);
    const id = uid('jf');
    await d.createAsset(id);
    const fresh = { AHS_CONFIG_DIR: `${d.dir}/fresh-${id}` };
    const r = await d.ahs(['release', id, await d.file(`${id}.zip`, 'x'), ...CH, '--name', '1.0'], { env: fresh });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning');
    const history = await d.ahs(['history', id, '--json'], { env: fresh });
    expect(history.exitCode, history.stderr).toBe(0);
    expect(history.json().results.map((e: { command: string }) => e.command)).toEqual(['release']);
    const count = async () => (await d.call('GET', '/vc/ahs-journal/items?pageSize=1000')).body.totalResults as number;
    const before = await count();
    expect((await d.ahs(['asset', 'update', id, '--name', 'n1', '--no-journal'], { env: fresh })).exitCode).toBe(0);
    expect((await d.ahs(['asset', 'update', id, '--name', 'n2'], { env: { ...fresh, AHS_JOURNAL: '' } })).exitCode).toBe(0);
    expect(await count()).toBe(before);
    const check = await d.ahs(['profile', 'check', '--json'], { env: fresh });
    expect(check.json().journal).toMatchObject({ id: 'ahs-journal', why: expect.stringContaining("no journal setting: the domain's ahs-journal"), reachable: true });
  });
});

describe('the journal is not content', () => {
  let d: Harness;
  beforeAll(async () => {
    d = await harness();
  });
  afterAll(async () => d?.close());

  it('export leaves it out, a saved plan applies after a write appended an entry, collection list marks it, and delete|purge|item remove|sync --delete refuse without --yes saying history is erased', async () => {
    expect((await d.ahs(['journal', 'init', '--env', 'prod'])).exitCode).toBe(0);
    const id = uid('jc');
    await d.createAsset(id);
    expect((await d.ahs(['asset', 'update', id, '--name', 'first'])).exitCode).toBe(0);
    const exported = await d.ahs(['export']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(id);
    expect(exported.stdout).not.toContain('ahs-journal');
    const file = await d.file(`${id}.yaml`, exported.stdout);
    const planFile = `${d.dir}/${id}.plan`;
    expect((await d.ahs(['plan', '-f', file, '--out', planFile])).exitCode).toBe(0);
    // An unrelated write: its entry is appended to the journal.
    const other = uid('jo');
    expect((await d.ahs(['asset', 'create', other, '--name', other, '--type', '1001'])).exitCode).toBe(0);
    const applied = await d.ahs(['apply', planFile, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).not.toContain('stale');

    const list = await d.ahs(['collection', 'list']);
    expect(list.stdout).toMatch(/^ahs-journal\t[^\n]*\tactive \(ahs journal\)\t/m);

    const items = async () => (await d.call('GET', '/vc/ahs-journal/items?pageSize=1000')).body.totalResults as number;
    const held = await items();
    const firstItem = (await d.call('GET', '/vc/ahs-journal/items?pageSize=1')).body.results[0].assetItemId as string;
    const refusals = [
      ['collection', 'delete', 'ahs-journal'],
      ['collection', 'purge', 'ahs-journal'],
      ['item', 'remove', 'ahs-journal', firstItem],
    ];
    for (const args of refusals) {
      const r = await d.ahs(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/ahs journal: it erases .*history of writes.* needs confirmation: pass --yes/);
    }
    const empty = `${d.dir}/empty-${id}`;
    await mkdir(empty);
    await writeFile(`${empty}/keep.txt`, 'x');
    const sync = await d.ahs(['item', 'sync', 'ahs-journal', empty, '--delete', '--type', '9999']);
    expect(sync.exitCode).not.toBe(0);
    expect(sync.stderr).toMatch(/erases that part of the team's history of writes/);
    expect(await items()).toBe(held);
  });
});

describe('appends lose nothing', () => {
  it('eight writers at once on a journal one entry from its maxAssets: every entry stored once, in ID--2, and no warning (ten rounds)', async () => {
    for (let round = 0; round < 10; round++) {
      const journal = await startJournal(uid(`jx${round}`));
      // The first entry is in: room for one more.
      expect((await h.call('PATCH', `/vc/${journal}`, { maxAssets: 2, updatedBy: DEMO_USER })).status).toBe(200);
      const ids = Array.from({ length: 8 }, (_, n) => uid(`jw${round}-${n}`));
      const runs = await Promise.all(ids.map((id) => h.ahs(['asset', 'create', id, '--name', id, '--type', '1001'], { env: { AHS_JOURNAL: journal } })));
      for (const r of runs) {
        expect(r.exitCode, r.stderr).toBe(0);
        expect(r.stderr).not.toContain('warning');
      }
      const first = await items(journal);
      const next = await items(`${journal}--2`);
      expect(first).toHaveLength(2);
      expect(next).toHaveLength(7);
      const history = await h.ahs(['history', '--json'], { env: { AHS_JOURNAL: journal } });
      const created = history.json().results.filter((e: { command: string }) => e.command === 'asset create').map((e: { changes: Array<{ address: string }> }) => e.changes[0]!.address);
      expect(created.sort()).toEqual(ids.map((id) => `asset.${id}`).sort());
    }
  }, 300_000);
});
