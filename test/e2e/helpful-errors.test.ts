// Errors that say what to do next (issue 24): each names what is wrong and
// the command or setting that fixes it, with the exit code of cli.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, runInProcess, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

const NOWHERE = { AHS_CONFIG_DIR: '/nonexistent-ahs-config', CI: '1', NO_COLOR: '1' };

describe('usage errors that point somewhere', () => {
  it.each([
    [['asset', 'list', '--api-key', 'sekrit-value-1'], false],
    [['--api-key=sekrit-value-1', 'asset', 'list', '--json'], true],
  ])('%j: the key goes in AHS_API_KEY or a profile; the value is never echoed', async (args, json) => {
    const r = await runInProcess(args, NOWHERE);
    expect(r.exitCode).toBe(2);
    const message = json ? r.errJson().title : r.stderr;
    expect(message).toContain("unknown option '--api-key'");
    expect(message).toContain('AHS_API_KEY');
    expect(message).toContain('ahs profile add NAME --api-key-stdin');
    expect(r.stdout + r.stderr).not.toContain('sekrit-value-1');
  });

  it('deploy --state DEFAULT: names the flag and suggests promote-default', async () => {
    const r = await runInProcess(['deploy', 'app', 'IOS1', '--state', 'DEFAULT'], NOWHERE);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: --state must be LIVE or OFFLINE (got DEFAULT): the Default is set with ahs promote-default ASSET_ID VERSION_ID (add --make-live when the version is not LIVE yet); run with --help for usage');
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('a bad choice names its flag: --state SIDEWAYS, -o xml', async () => {
    const state = await runInProcess(['collection-deploy', 'c1', '--state', 'SIDEWAYS'], NOWHERE);
    expect(state.exitCode).toBe(2);
    expect(state.stderr).toBe('error: --state must be LIVE or OFFLINE (got SIDEWAYS); run with --help for usage');
    const output = await runInProcess(['asset', 'list', '-o', 'xml'], NOWHERE);
    expect(output.stderr).toBe('error: --output must be one of table, wide, json, yaml (got xml); run with --help for usage');
    // commander's own sentence, its full stop left out before the hint.
    const shell = await runInProcess(['completion', 'powershell'], NOWHERE);
    expect(shell.exitCode).toBe(2);
    expect(shell.stderr).toBe("error: command-argument value 'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish; run with --help for usage");
  });

  it('missing settings are named all at once', async () => {
    const r = await runInProcess(['asset', 'delete', 'a1', '--yes'], NOWHERE);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      'error: --base-url, --domain and --user are required (API base URL, domain, acting user e-mail): pass them, set AHS_BASE_URL, AHS_DOMAIN and AHS_USER, or set baseUrl, domainId and user in a profile (ahs profile add)',
    );
  });
});

describe("the service's refusals, with the way out", () => {
  it('a deploy already in the target state mentions --idempotent; with it the re-run exits 0', async () => {
    const id = uid('err');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    const CH = [id, v, '--platform', 'ios', '--env', 'prod'];
    expect((await h.ahs(['deploy', ...CH])).exitCode).toBe(0);
    const again = await h.ahs(['deploy', ...CH]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`hint: ${v} is already LIVE on ${id}/ios/prod; with --idempotent`);
    expect((await h.ahs(['deploy', ...CH, '--idempotent'])).exitCode).toBe(0);
    expect(await h.records(id)).toEqual([`ios/prod/${v}=LIVE`]);
  });

  it('an inactive asset: the command that reactivates it', async () => {
    const id = uid('err');
    await h.createAsset(id);
    expect((await h.call('PUT', `/va/${id}`, { assetType: '1001', updatedBy: 'owner@demo.test', active: false })).status).toBe(200);
    const r = await h.ahs(['version', 'list', id]);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(`ahs asset update ${id} --active`);
  });

  it('a version of another platform: "an ios version"', async () => {
    const id = uid('err');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    const r = await h.ahs(['deploy', id, v, '--platform', 'android', '--env', 'prod']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('(it is an ios version)');
  });

  it('an item type a collection does not allow: each allowed type named once', async () => {
    const id = uid('err');
    expect((await h.ahs(['collection', 'create', id, '--name', 'n', '--allowed-types', '9999'])).exitCode).toBe(0);
    const r = await h.ahs(['item', 'upload', id, await h.file('x.json', '{}'), '--type', '1001']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/use one of 9999\b/);
    expect(r.stderr).not.toContain('9999, 9999');
  });
});
