// Missing ASSET_ID / VERSION_ID (issue 4: "in a terminal, a missing required
// argument is asked for"): without a terminal, with CI or --no-input they are
// a usage error (exit 2) naming the argument, never commander's "missing
// required argument"; in a terminal they are picked from lists (assets; the
// asset's versions with their state). The terminal runs go through a real
// pty (util-linux `script`); keystrokes are sent only once their prompt is on
// screen: no timing asserts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, hasScript, runInPty, uid, type Harness, type PtyStep } from './helpers.js';

let h: Harness;
let asset: string;
beforeAll(async () => {
  h = await harness();
  asset = uid('pick');
  await h.createAsset(asset);
  await h.uploadVersion(asset, 'ios'); // IOS1
  await h.uploadVersion(asset, 'ios'); // IOS2
  await h.deploy(asset, 'IOS1', 'ios', 'staging', 'LIVE');
});
afterAll(async () => {
  await h?.close();
});

describe('a missing ASSET_ID / VERSION_ID without a terminal is exit 2 naming it', () => {
  it.each([
    [['deploy'], 'ASSET_ID'],
    [['deploy', '__ASSET__'], 'VERSION_ID'],
    [['asset', 'get'], 'ASSET_ID'],
    [['asset', 'status'], 'ASSET_ID'],
    [['asset', 'update', '--name', 'x'], 'ASSET_ID'],
    [['asset', 'delete', '--yes'], 'ASSET_ID'],
    [['asset', 'undeploy', '--yes'], 'ASSET_ID'],
    [['asset', 'version-count'], 'ASSET_ID'],
    [['version', 'get'], 'ASSET_ID'],
    [['version', 'get', '__ASSET__'], 'VERSION_ID'],
    [['version', 'list'], 'ASSET_ID'],
    [['version', 'delete', '__ASSET__', '--yes'], 'VERSION_ID'],
    [['version', 'urls', '__ASSET__'], 'VERSION_ID'],
  ])('ahs %j', async (argv, name) => {
    const args = argv.map((a) => (a === '__ASSET__' ? asset : a));
    // The channel from the environment: a flag the command does not use would be refused first.
    const channel = { AHS_PLATFORM: 'ios', AHS_ENV: 'staging' };
    const r = await h.ahs(args, { env: channel });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(`error: ${name} is required (CI is set: no prompts)`);
    const j = await h.ahs([...args, '--json', '--no-input'], { env: { ...channel, CI: '' } });
    expect(j.exitCode).toBe(2);
    expect(j.errJson()).toMatchObject({ type: 'urn:ahs:usage', title: `${name} is required (no terminal to prompt in)`, status: null });
  });
});



const DOWN = '\x1b[B';

describe.skipIf(!hasScript)('in a terminal, missing arguments are picked from lists', () => {
  it('ahs deploy: asset, platform, environment and version (with its state) from lists', async () => {
    const { code, screen } = await inPty(
      ['deploy'],
      [
        // This file's emulator holds one asset: it is the first (and only) choice.
        [new RegExp(`Asset[\\s\\S]*❯ ${asset}[\\s\\S]*navigate`), '\r'],
        [/Target platform[\s\S]*❯ ios[\s\S]*navigate/, '\r'],
        [/Environment[\s\S]*❯ staging[\s\S]*other…[\s\S]*navigate/, '\r'],
        [/Version to deploy LIVE[\s\S]*IOS2 [^\r\n]*not deployed in staging[\s\S]*IOS1 [^\r\n]*LIVE[\s\S]*navigate/, '\r'],
      ],
    );
    expect(screen).toMatch(/IOS2 is now LIVE on .*\/ios\/staging/);
    expect(code).toBe(0);
    expect(await h.records(asset)).toEqual(['ios/staging/IOS1=LIVE', 'ios/staging/IOS2=LIVE']);
  });

  it('ahs version get ASSET_ID: the version is picked from the asset\'s versions', async () => {
    const { code, screen } = await inPty(
      ['version', 'get', asset],
      [[/Version[\s\S]*❯ IOS2 [^\r\n]*ios[^\r\n]*staging LIVE[\s\S]*IOS1[\s\S]*navigate/, `${DOWN}`], [/❯ IOS1/, '\r']],
    );
    expect(code).toBe(0);
    expect(screen).toMatch(/version id\s*│\s*IOS1/);
  });

  it('a blocked version is marked in the list, with its reason (a promotion of it is refused, exit 12)', async () => {
    const id = uid('pickbl');
    await h.createAsset(id);
    await h.uploadVersion(id, 'ios', '1.0');
    const bad = await h.uploadVersion(id, 'ios', '1.1');
    expect((await h.ahs(['version', 'block', id, bad, '--reason', 'crash on start'])).exitCode).toBe(0);
    const { code, screen } = await inPty(['version', 'get', id], [[new RegExp(`❯ ${bad} [^\r\n]*BLOCKED \\(crash on start\\)[\\s\\S]*navigate`), '\r']]);
    expect(code, screen).toBe(0);
  });
});

describe.skipIf(!hasScript)('promote-default in a terminal, a version not LIVE on the channel', () => {
  it('answering No to --make-live sends nothing and exits 2', async () => {
    const id = uid('decline');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    const { code, screen } = await runInPty(h.env, ['promote-default', id, v, '--platform', 'ios', '--env', 'prod'], [[/\(--make-live\)\? \(Y\/n\)/, 'n\r']]);
    expect(screen).toContain('not confirmed');
    expect(code).toBe(2);
    expect(await h.records(id)).toEqual([]);
  });

  it('a channel another holder has locked: refused (exit 12) before the question, nothing sent', async () => {
    const id = uid('locked');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    const lock = await h.ahs(['lock', 'acquire', `${id}/ios/prod`, '--ttl', '10m', '--reason', 'maintenance']);
    expect(lock.exitCode, lock.stderr).toBe(0);
    let asked = false;
    const { code, screen } = await runInPty(h.env, ['promote-default', id, v, '--platform', 'ios', '--env', 'prod'], [], {
      onScreen: (shown) => {
        asked ||= /\(--make-live\)\?/.test(shown);
      },
    });
    expect(code, screen).toBe(12);
    expect(asked, screen).toBe(false);
    expect(screen).toMatch(new RegExp(`${id}/ios/prod is locked: held by [^ ]+ \\(lock acquire\\), lock id ${lock.stdout.trim()}, .*reason: maintenance; nothing was sent`));
    expect(await h.records(id)).toEqual([]);
  });

  it('answering Yes deploys it LIVE, then promotes it', async () => {
    const id = uid('accept');
    await h.createAsset(id);
    const v = await h.uploadVersion(id, 'ios');
    const { code, screen } = await runInPty(h.env, ['promote-default', id, v, '--platform', 'ios', '--env', 'prod'], [[/\(--make-live\)\? \(Y\/n\)/, 'y\r']]);
    expect(code, screen).toBe(0);
    expect(screen).toContain(`${v} deployed LIVE on ${id}/ios/prod (--make-live)`);
    expect(screen).toContain(`${v} is now the Default of ${id}/ios/prod; there was no Default before`);
    expect(await h.records(id)).toEqual([`ios/prod/${v}=DEFAULT`]);
  });
});

describe.skipIf(!hasScript)('rollback in a terminal, with nothing to prove which was the Default before', () => {
  it('offers the LIVE versions; the one picked becomes the Default, and the output says it was picked', async () => {
    const id = uid('pickback');
    await h.createAsset(id);
    const [v1, v2, v3] = [await h.uploadVersion(id, 'ios'), await h.uploadVersion(id, 'ios'), await h.uploadVersion(id, 'ios')];
    for (const v of [v1, v2, v3]) await h.deploy(id, v, 'ios', 'prod', 'LIVE');
    await h.deploy(id, v3, 'ios', 'prod', 'DEFAULT');
    // The newest LIVE version first: one step down picks the older.
    const { code, screen } = await runInPty(h.env, ['rollback', id, '--platform', 'ios', '--env', 'prod'], [[new RegExp(`Roll ${id}/ios/prod back from ${v3} \\(Default\\)[\\s\\S]*❯ ${v2}[\\s\\S]*${v1}`), DOWN], [new RegExp(`❯ ${v1}`), '\r']]);
    expect(code, screen).toBe(0);
    expect(screen).toContain(`rolling back ${id}/ios/prod to ${v1}: picked`);
    expect(screen).toContain(`${v1} is now the Default of ${id}/ios/prod; ${v3} is now LIVE`);
    expect((await h.records(id)).sort()).toEqual([`ios/prod/${v1}=DEFAULT`, `ios/prod/${v2}=LIVE`, `ios/prod/${v3}=LIVE`]);
  });
});

describe.skipIf(!hasScript)('rollback in a terminal, when the journal disagrees with the channel', () => {
  it('offers the picker too, saying why the journal does not prove the target', async () => {
    const journal = uid('jr');
    const init = await h.ahs(['journal', 'init', journal, '--env', 'prod', '--json']);
    expect(init.exitCode, init.stderr).toBe(0);
    const id = uid('pickjr');
    await h.createAsset(id);
    const env = { AHS_JOURNAL: journal };
    const CH = ['--platform', 'ios', '--env', 'prod'];
    const r1 = await h.ahs(['release', id, await h.file(`${id}-1.zip`, '1'), ...CH, '--name', '1.0', '--json'], { env });
    const r2 = await h.ahs(['release', id, await h.file(`${id}-2.zip`, '2'), ...CH, '--name', '1.1', '--json'], { env });
    const [v1, v2] = [r1.json().version.versionId, r2.json().version.versionId];
    // Someone promotes 1.0 again with another tool: the journal's last change says v2.
    expect((await h.deploy(id, v1, 'ios', 'prod', 'DEFAULT', { currentVersionId: v2, currentAssetIntent: 'LIVE' })).status).toBe(201);
    const { code, screen } = await runInPty({ ...h.env, ...env }, ['rollback', id, ...CH], [[new RegExp(`Roll ${id}/ios/prod back\\s+from\\s+${v1}\\s+\\(Default\\)\\s+to\\s+\\(the\\s+journal\\s+does\\s+not\\s+prove\\s+which\\s+was\\s+the\\s+Default\\s+before\\)[\\s\\S]*❯ ${v2}`), '\r']]);
    expect(code, screen).toBe(0);
    expect(screen).toMatch(new RegExp(`warning: the journal does not prove the target, so it is yours to pick: the Default of ${id}/ios/prod is ${v1}, but the journal's last change of it .* made it ${v2}: it was moved outside ahs`));
    expect(screen).toContain(`rolling back ${id}/ios/prod to ${v2}: picked (the journal does not prove it)`);
    expect(await h.records(id)).toContain(`ios/prod/${v2}=DEFAULT`);
  });
});

describe.skipIf(!hasScript)('in a terminal, a missing profile NAME is picked from the profiles', () => {
  it('ahs profile use: pick a profile from the list', async () => {
    for (const name of ['alpha', 'beta']) {
      expect((await h.ahs(['profile', 'add', name, '--base-url', h.emu.baseUrl, '--domain', 'demo'])).exitCode).toBe(0);
    }
    const { code, screen } = await inPty(['profile', 'use'], [[/Profile to use[\s\S]*❯ alpha  \(current\)[\s\S]*beta[\s\S]*navigate/, DOWN], [/❯ beta/, '\r']]);
    expect(code).toBe(0);
    expect(screen).toContain('Now using profile beta');
    expect((await h.ahs(['profile', 'show', '--json'])).json().name).toBe('beta');
  });
});

/** Platform and environment are left out of the settings, so they are asked for too. */
function inPty(args: string[], steps: PtyStep[]) {
  return runInPty(h.env, args, steps, { unset: ['AHS_ENV', 'AHS_PLATFORM'] });
}
