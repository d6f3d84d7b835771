// ahs profile add|list|show|use|remove|check against the built binary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, hasScript, runInPty, DEMO_API_KEY, DEMO_USER, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

describe('ahs profile', () => {
  it('adds profiles from flags and stdin, first becomes current, file is 0600, key masked everywhere', async () => {
    const add = await h.ahs(['profile', 'add', 'local', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--env', 'staging', '--platform', 'ios', '--user', DEMO_USER, '--api-key-stdin'], {
      bare: true,
      input: `  ${DEMO_API_KEY}  \nignored second line\n`,
    });
    expect(add.exitCode).toBe(0);
    expect(add.stderr).toContain('Added profile local (now the current profile)');
    expect(add.stdout + add.stderr).not.toContain(DEMO_API_KEY);

    const file = join(h.configDir, 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    expect(stored.profiles.local.apiKey).toBe(DEMO_API_KEY); // trimmed, one line
    expect(stored.current).toBe('local');

    const second = await h.ahs(['profile', 'add', 'other', '--base-url', 'http://127.0.0.1:9', '--domain', 'x'], { bare: true });
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toContain('no API key');

    const list = await h.ahs(['profile', 'list', '--json'], { bare: true });
    expect(list.exitCode).toBe(0);
    const profiles = list.json();
    expect(profiles.map((p: any) => [p.name, p.current])).toEqual([
      ['local', true],
      ['other', false],
    ]);
    expect(list.stdout).not.toContain(DEMO_API_KEY);
    expect(profiles[0].apiKey).toMatch(/^\*+/);

    const show = await h.ahs(['profile', 'show'], { bare: true });
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toContain('local (current)');
    expect(show.stdout).not.toContain(DEMO_API_KEY);
    expect(show.stdout).toContain('********');

    const showOther = await h.ahs(['profile', 'show', 'other', '--json'], { bare: true });
    expect(showOther.json()).toMatchObject({ name: 'other', current: false, apiKey: null, domainId: 'x' });
  });

  it('uses the profile for settings, and flag > env > profile', async () => {
    await h.createAsset('prof-asset');
    const viaProfile = await h.ahs(['asset', 'get', 'prof-asset', '--json'], { bare: true, env: {} });
    expect(viaProfile.exitCode).toBe(0);
    expect(viaProfile.json().assetId).toBe('prof-asset');
    // env beats profile: a wrong domain from AHS_DOMAIN is used (403: the key is not for that domain)
    const viaEnv = await h.ahs(['asset', 'get', 'prof-asset'], { bare: true, env: { AHS_DOMAIN: 'nope' } });
    expect(viaEnv.exitCode).toBe(3);
    // flag beats env
    const viaFlag = await h.ahs(['asset', 'get', 'prof-asset', '--domain', 'demo'], { bare: true, env: { AHS_DOMAIN: 'nope' } });
    expect(viaFlag.exitCode).toBe(0);
    // --profile selects another profile (its base URL refuses connections: exit 6)
    const other = await h.ahs(['asset', 'get', 'prof-asset', '--profile', 'other', '--retries', '0'], { bare: true });
    expect(other.exitCode).toBe(6);
    const missing = await h.ahs(['asset', 'get', 'x', '--profile', 'ghost'], { bare: true });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no profile named "ghost"');
  });

  it('checks the key with the service: says what was verified, and claims no environment', async () => {
    const ok = await h.ahs(['profile', 'check'], { bare: true });
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).toContain('API key accepted for domain demo\n');
    expect(ok.stderr).toContain("the key's environment scope is not visible through the API");
    expect(ok.stdout).toMatch(/environment\s+staging \(from profile; not checked against the key\)/);
    const json = await h.ahs(['profile', 'check', 'local', '--json'], { bare: true });
    expect(json.json()).toEqual({ profile: 'local', baseUrl: h.emu.baseUrl, domainId: 'demo', envId: 'staging', apiKeySource: 'profile', accepted: true, envScopeVerified: false, journal: null });

    expect(json.json().apiKeySource).toBe('profile');
    expect(json.stderr).not.toContain('overrides');

    // A key in the environment wins over the profile's own: say which key was checked.
    const viaEnv = await h.ahs(['profile', 'check', 'local', '--json'], { bare: true, env: { AHS_API_KEY: DEMO_API_KEY } });
    expect(viaEnv.exitCode).toBe(0);
    expect(viaEnv.json()).toMatchObject({ profile: 'local', apiKeySource: 'AHS_API_KEY', accepted: true });
    expect(viaEnv.stderr).toMatch(/AHS_API_KEY is set and overrides the key of profile local/);
    expect(viaEnv.stdout + viaEnv.stderr).not.toContain(DEMO_API_KEY);

    const bad = await h.ahs(['profile', 'check', 'local', '--json'], { bare: true, env: { AHS_API_KEY: 'wrong-key-123456' } });
    expect(bad.exitCode).toBe(3);
    expect(bad.errJson()).toMatchObject({ status: 403 });
    expect(bad.stderr + bad.stdout).not.toContain('wrong-key-123456');
    // The key refused is the environment's, not the profile's: the warning names it so.
    expect(bad.stderr).toContain('the service refused the API key from AHS_API_KEY for domain demo');
    expect(bad.stderr).not.toMatch(/refused the API key of profile/);

    const noKey = await h.ahs(['profile', 'check', 'other'], { bare: true });
    expect(noKey.exitCode).toBe(2);
  });

  it('an update says what it changed, and that an AHS_API_KEY in the environment replaced the stored key (never the key itself)', async () => {
    const first = await h.ahs(['profile', 'add', 'upd', '--base-url', 'http://127.0.0.1:9', '--domain', 'demo', '--api-key-stdin'], { bare: true, input: 'stored-key-1\n' });
    expect(first.exitCode, first.stderr).toBe(0);
    const replaced = await h.ahs(['profile', 'add', 'upd', '--env', 'prod'], { bare: true, env: { AHS_API_KEY: 'exported-key-2' } });
    expect(replaced.exitCode, replaced.stderr).toBe(0);
    expect(replaced.stderr).toContain('Updated profile upd: environment (none) → prod, API key replaced (from AHS_API_KEY)');
    expect(replaced.stdout + replaced.stderr).not.toMatch(/stored-key-1|exported-key-2/);
    expect(JSON.parse(await readFile(join(h.configDir, 'config.json'), 'utf8')).profiles.upd.apiKey).toBe('exported-key-2');
    const domain = await h.ahs(['profile', 'add', 'upd', '--domain', 'acme'], { bare: true });
    expect(domain.stderr).toContain('Updated profile upd: domain demo → acme\n');
    const same = await h.ahs(['profile', 'add', 'upd', '--domain', 'acme'], { bare: true });
    expect(same.stderr).toContain('Updated profile upd: nothing changed');
    expect((await h.ahs(['profile', 'remove', 'upd'], { bare: true })).exitCode).toBe(0);
  });

  it('switches and removes profiles', async () => {
    const use = await h.ahs(['profile', 'use', 'other'], { bare: true });
    expect(use.exitCode).toBe(0);
    expect((await h.ahs(['profile', 'show', '--json'], { bare: true })).json().name).toBe('other');
    const useMissing = await h.ahs(['profile', 'use', 'ghost'], { bare: true });
    expect(useMissing.exitCode).toBe(2);
    const remove = await h.ahs(['profile', 'remove', 'other'], { bare: true });
    expect(remove.exitCode).toBe(0);
    const none = await h.ahs(['profile', 'show'], { bare: true });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no current profile');
    expect((await h.ahs(['profile', 'use', 'local'], { bare: true })).exitCode).toBe(0);
  });

  it('a missing NAME is a usage error naming it without a terminal', async () => {
    for (const verb of ['add', 'use', 'remove']) {
      const r = await h.ahs(['profile', verb], { bare: true });
      expect(r.exitCode, verb).toBe(2);
      expect(r.stderr.trim(), verb).toBe('error: NAME is required (CI is set: no prompts)');
    }
  });

  it('refuses an empty key on stdin and never accepts a key flag', async () => {
    const empty = await h.ahs(['profile', 'add', 'empty', '--api-key-stdin'], { bare: true, input: '\n' });
    expect(empty.exitCode).toBe(2);
    const flag = await h.ahs(['profile', 'add', 'flag', '--api-key', 'abc'], { bare: true });
    expect(flag.exitCode).toBe(2);
  });

  it('refuses a key with control characters on stdin: exit 2, one line, the key never echoed, nothing stored', async () => {
    const secret = 'abc\u001b[2Jdef-key-987';
    const run = await h.ahs(['profile', 'add', 'ctl', '--domain', 'demo', '--api-key-stdin'], { bare: true, input: `${secret}\n` });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim()).toBe('error: --api-key-stdin: the key holds control characters (a tab, escape or similar); the key was not stored');
    expect(run.stderr).not.toContain('def-key-987');
    expect(run.stdout).toBe('');
    expect((await h.ahs(['profile', 'show', 'ctl'], { bare: true })).exitCode).toBe(2);
  });
});

describe.skipIf(!hasScript)('ahs profile add in a terminal', () => {
  it('asks for the delivery URL, environment and platform too; Enter skips them', async () => {
    const env = { AHS_CONFIG_DIR: h.configDir, NO_COLOR: '1' };
    const unset = ['AHS_BASE_URL', 'AHS_DELIVERY_URL', 'AHS_DOMAIN', 'AHS_USER', 'AHS_API_KEY', 'AHS_ENV', 'AHS_PLATFORM'];
    const full = await runInPty(
      env,
      ['profile', 'add', 'asked'],
      [
        [/API base URL/, `${h.emu.baseUrl}\r`],
        [/Domain id/, 'demo\r'],
        [/Acting user e-mail/, `${DEMO_USER}\r`],
        [/API key/, `${DEMO_API_KEY}\r`],
        [/Delivery URL \(Enter to skip\)/, `${h.emu.deliveryUrl}\r`],
        [/Environment \(Enter to skip\)/, 'staging\r'],
        [/Target platform \(Enter to skip\)/, 'ios\r'],
      ],
      { unset },
    );
    expect(full.code).toBe(0);
    expect(full.screen).not.toContain(DEMO_API_KEY);
    expect((await h.ahs(['profile', 'show', 'asked', '--json'], { bare: true })).json()).toMatchObject({
      baseUrl: h.emu.baseUrl,
      deliveryUrl: h.emu.deliveryUrl,
      domainId: 'demo',
      envId: 'staging',
      platform: 'ios',
      user: DEMO_USER,
    });

    const skipped = await runInPty(
      env,
      ['profile', 'add', 'skipped', '--base-url', h.emu.baseUrl, '--domain', 'demo', '--user', DEMO_USER],
      [
        [/API key/, `${DEMO_API_KEY}\r`],
        [/Delivery URL \(Enter to skip\)/, '\r'],
        [/Environment \(Enter to skip\)/, '\r'],
        [/Target platform \(Enter to skip\)/, '\r'],
      ],
      { unset },
    );
    expect(skipped.code).toBe(0);
    expect((await h.ahs(['profile', 'show', 'skipped', '--json'], { bare: true })).json()).toMatchObject({ deliveryUrl: null, envId: null, platform: null });
  });
});
