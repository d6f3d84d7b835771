// cli.md "Output": a setting given as a flag shapes the command's requests or
// is refused. A flag the command has no use for is exit 2 naming it, before
// anything is sent; the same setting from the environment or a profile is
// simply not used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, uid, type Harness } from './helpers.js';
import { commandTree } from '../../src/commands/index.js';
import { flagName, SETTING_FLAGS, type Leaf } from '../../src/commands/define.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const VALUES: Record<string, string> = {
  '--profile': 'nope',
  '--base-url': 'http://127.0.0.1:9',
  '--delivery-url': 'http://127.0.0.1:9',
  '--domain': 'demo',
  '--env': 'prod',
  '--platform': 'ios',
  '--user': 'someone@example.test',
};

/** Every command of the tree, as the words that run it and a positional for each declared argument. */
function leaves(): Array<{ words: string[]; leaf: Leaf }> {
  return commandTree.flatMap((node) =>
    node.kind === 'command' ? [{ words: [node.spec.name], leaf: node }] : node.commands.map((leaf) => ({ words: [node.name, leaf.spec.name], leaf })),
  );
}

function argsOf(leaf: Leaf): string[] {
  return Object.values(leaf.spec.args ?? {}).map((declared) => declared.choices?.[0] ?? 'x');
}

describe('a setting flag the command does not use is refused (exit 2, one line naming it)', () => {
  it.each([
    [['asset', 'get', 'app', '--platform', 'android'], '--platform', 'asset get'],
    [['asset', 'list', '--env', 'prod'], '--env', 'asset list'],
    [['version', 'get', 'app', 'IOS1', '--env', 'prod'], '--env', 'version get'],
    [['version', 'delete', 'app', 'IOS1', '--platform', 'ios', '--yes'], '--platform', 'version delete'],
    [['collection', 'list', '--user', 'x@example.test'], '--user', 'collection list'],
    [['collection', 'status', 'c', '--env', 'prod'], '--env', 'collection status'],
    [['item', 'list', 'c', '--platform', 'ios'], '--platform', 'item list'],
    [['deploy', 'app', 'IOS1', '--platform', 'ios', '--env', 'prod', '--delivery-url', 'http://cdn.example.test'], '--delivery-url', 'deploy'],
    [['fetch', 'c', '--platform', 'ios'], '--platform', 'fetch'],
    [['profile', 'list', '--base-url', 'http://x.example.test'], '--base-url', 'profile list'],
    [['emulator', 'env', '--port', '4010', '--domain', 'demo'], '--domain', 'emulator env'],
  ])('%j', async (args, flag, path) => {
    const r = await h.ahs(args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([expect.stringMatching(new RegExp(`^error: ${flag}: not used by \`ahs ${path}\`; remove it \\(`))]);
  });

  it('every command × every setting flag it does not declare: exit 2 naming the flag, nothing sent (json)', async () => {
    const before = (await h.call('GET', '/va?pageSize=1')).body.totalResults;
    const refused: string[] = [];
    for (const { words, leaf } of leaves()) {
      const used = new Set<string>(leaf.spec.uses ?? []);
      for (const key of SETTING_FLAGS.filter((k) => !used.has(k))) {
        const flag = flagName(key);
        const r = await h.ahs([...words, ...argsOf(leaf), flag, VALUES[flag]!, '--json']);
        expect(r.exitCode, `${words.join(' ')} ${flag}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.errJson().title).toMatch(new RegExp(`^${flag}: not used by \`ahs ${words.join(' ')}\``));
        refused.push(`${words.join(' ')} ${flag}`);
      }
    }
    // The declarations are real: read-only commands refuse --user, offline ones the connection.
    expect(refused).toEqual(expect.arrayContaining(['asset get --user', 'version list --env', 'emulator start --base-url', 'profile use --domain', 'collection get --platform']));
    expect((await h.call('GET', '/va?pageSize=1')).body.totalResults).toBe(before);
  });

  it('several unused flags are named together', async () => {
    const r = await h.ahs(['asset', 'get', 'app', '--platform', 'ios', '--env', 'prod']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: --env, --platform: not used by `ahs asset get`; remove them \(it takes --profile, --base-url, --domain\)$/);
  });

  it('the same settings from the environment are simply not used', async () => {
    const id = uid('flags');
    await h.createAsset(id);
    const r = await h.ahs(['asset', 'get', id, '--json'], { env: { AHS_PLATFORM: 'android', AHS_ENV: 'prod', AHS_DELIVERY_URL: 'http://127.0.0.1:9' } });
    expect(r.exitCode).toBe(0);
    expect(r.json().assetId).toBe(id);
  });

  it('a flag the command uses is accepted', async () => {
    const id = uid('flags');
    await h.createAsset(id);
    const r = await h.ahs(['asset', 'status', id, '--platform', 'ios', '--env', 'prod', '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.json().totalResults).toBe(0);
  });
});

describe('settings that shape the request', () => {
  it('version list --platform lists that platform only: results[-1] is the newest android version', async () => {
    const id = uid('plat');
    await h.createAsset(id);
    await h.uploadVersion(id, 'android', 'a1');
    await h.uploadVersion(id, 'ios', 'i1');
    await h.uploadVersion(id, 'android', 'a2');
    await h.uploadVersion(id, 'ios', 'i2');
    const last = await h.ahs(['version', 'list', id, '--platform', 'android', '--query', 'results[-1].versionId']);
    expect(last.exitCode).toBe(0);
    expect(last.stdout).toBe('AND2');
    const doc = (await h.ahs(['version', 'list', id, '--platform', 'android', '--json'])).json();
    expect(doc).toMatchObject({ totalResults: 2, pageNumber: 1, pageSize: 2, filter: { targetPlatform: 'android' } });
    expect(doc.results.map((v: { versionId: string }) => v.versionId)).toEqual(['AND1', 'AND2']);
    // --page-size pages the filtered list, totalResults counting it
    const page = (await h.ahs(['version', 'list', id, '--platform', 'android', '--page', '2', '--page-size', '1', '--json'])).json();
    expect(page).toMatchObject({ totalResults: 2, pageNumber: 2, pageSize: 1, results: [{ versionId: 'AND2' }] });
    const table = await h.ahs(['version', 'list', id, '--platform', 'android']);
    expect(table.stdout).not.toMatch(/IOS\d/);
    expect(table.stderr).toMatch(/2 android version\(s\) of 4 \(filtered by ahs/);
    // AHS_PLATFORM means what --platform means (cli.md); only a profile's platform is not a filter.
    const fromEnv = await h.ahs(['version', 'list', id, '--json'], { env: { AHS_PLATFORM: 'android' } });
    expect(fromEnv.json()).toEqual(doc);
    const unfiltered = await h.ahs(['version', 'list', id, '--json']);
    expect(unfiltered.json().totalResults).toBe(4);
  });

  it('version list --platform IOS where the versions say ios: exit 2, did you mean', async () => {
    const id = uid('plat');
    await h.createAsset(id);
    await h.uploadVersion(id, 'ios', 'i1');
    const r = await h.ahs(['version', 'list', id, '--platform', 'IOS']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: --platform IOS matches nothing in the versions of asset ${id}; did you mean --platform ios? (ids are case-sensitive)`);
  });

  it('asset status --env PROD where the environment is prod: exit 2, did you mean prod', async () => {
    const id = uid('case');
    await h.createAsset(id);
    const versionId = await h.uploadVersion(id, 'ios', 'i1');
    expect((await h.deploy(id, versionId, 'ios', 'prod', 'LIVE')).status).toBeLessThan(300);
    const r = await h.ahs(['asset', 'status', id, '--env', 'PROD']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: --env PROD matches nothing in the environments of asset ${id}'s records; did you mean --env prod? (ids are case-sensitive)`);
    const json = await h.ahs(['asset', 'status', id, '--env', 'PROD', '--json']);
    expect(json.exitCode).toBe(2);
    expect(json.errJson()).toMatchObject({ type: 'urn:ahs:usage', title: expect.stringMatching(/did you mean --env prod\?/) });
    const right = await h.ahs(['asset', 'status', id, '--env', 'prod', '--json']);
    expect(right.exitCode).toBe(0);
    expect(right.json().results).toEqual([expect.objectContaining({ versionId, envId: 'prod', state: 'LIVE' })]);
    // A filter that matches no record and no spelling: still the plain answer.
    const none = await h.ahs(['asset', 'status', id, '--env', 'staging']);
    expect(none.exitCode).toBe(0);
    expect(none.stderr).toMatch(/no deployment records matching the filters/);
  });
});

it('fetch --url with --env: refused (the URL names the environment), nothing downloaded', async () => {
  const r = await h.ahs(['fetch', '--url', 'http://127.0.0.1:9/api/vi/x', '--env', 'prod', '--dir', `${h.dir}/never`]);
  expect(r.exitCode).toBe(2);
  expect(r.stderr).toBe('error: --env: not used with --url (the URL names the environment); remove it');
});

describe('a setting flag given more than once (cli.md: export --platform P... --env E...)', () => {
  it('export keeps every --platform and --env given: the channels of those platforms in those environments, no other', async () => {
    const id = uid('several');
    await h.createAsset(id);
    const deployed: Array<[string, string]> = [['ios', 'prod'], ['ios', 'staging'], ['ios', 'dev'], ['android', 'prod'], ['web', 'prod']];
    for (const [platform, env] of deployed) {
      const versionId = await h.uploadVersion(id, platform, `${platform}-${env}`);
      expect((await h.deploy(id, versionId, platform, env, 'LIVE')).status).toBe(201);
    }
    const r = await h.ahs(['export', '--asset', id, '--platform', 'ios', '--env', 'prod', '--platform', 'android', '--env', 'staging', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json().assets[id].channels).toEqual({
      android: { prod: { live: ['android-prod'], exclusive: true } },
      ios: { prod: { live: ['ios-prod'], exclusive: true }, staging: { live: ['ios-staging'], exclusive: true } },
    });
    // One of each is asked of the service as before.
    const one = await h.ahs(['export', '--asset', id, '--platform', 'web', '--json']);
    expect(one.json().assets[id].channels).toEqual({ web: { prod: { live: ['web-prod'], exclusive: true } } });
  });

  it('a command that takes one value refuses two (exit 2, nothing sent) rather than dropping one', async () => {
    const id = uid('twice');
    await h.createAsset(id);
    const versionId = await h.uploadVersion(id, 'ios', 'v1');
    expect((await h.deploy(id, versionId, 'ios', 'prod', 'LIVE')).status).toBe(201);
    const r = await h.ahs(['asset', 'undeploy', id, '--env', 'prod', '--platform', 'android', '--platform', 'ios', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --platform given 2 different values (android, ios): `ahs asset undeploy` takes one; give it once');
    expect(await h.records(id)).toEqual([`ios/prod/${versionId}=LIVE`]);
    // The same value twice says one thing: accepted.
    const same = await h.ahs(['asset', 'status', id, '--env', 'prod', '--env', 'prod', '--json']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.json().totalResults).toBe(1);
  });
});
