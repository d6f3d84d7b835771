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
