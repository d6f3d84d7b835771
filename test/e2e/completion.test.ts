// `ahs completion <shell>` from the built binary prints what the generators make
// from the tree (the same text as completions/, see test/docs/drift.test.ts),
// and the bash script it prints completes in a real bash.
import { execa } from 'execa';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCompletion } from '../../src/docs/completion.js';
import { describeCommand } from '../../src/docs/model.js';
import { docsProgram } from '../../src/docs/program.js';
import { SHELLS } from '../../src/docs/shells.js';
import { assertFreshBuild, DEMO_API_KEY, harness, stubServer, uid, type Harness } from './helpers.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'ahs.js');
const hasBashPty = Boolean(process.env.CI) || (process.platform === 'linux' && spawnSync('script', ['--version']).status === 0);

/**
 * The script `ahs completion bash` prints, printed once and kept in a file
 * that the bashes below source: the same bytes as `source <(ahs completion
 * bash)` (which its own test runs), one start of ahs fewer per bash.
 */
let printedBashScript: Promise<string> | undefined;
const scriptDir = mkdtempSync(join(tmpdir(), 'ahs-complete-script-'));
afterAll(() => rmSync(scriptDir, { recursive: true, force: true }));
function bashScript(): Promise<string> {
  printedBashScript ??= (async () => {
    const printed = await execa('node', [bin, 'completion', 'bash'], { stripFinalNewline: false });
    const file = join(scriptDir, 'ahs.bash');
    await writeFile(file, printed.stdout);
    return file;
  })();
  return printedBashScript;
}

/** Each line completed in a real bash by the script `ahs completion bash` prints; `ahs` is the built binary. */
async function complete(lines: string[], env: Record<string, string>): Promise<string[]> {
  const script = [
    `ahs() { node ${JSON.stringify(bin)} "$@"; }`,
    `source ${JSON.stringify(await bashScript())}`,
    't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _ahs; echo "${COMPREPLY[*]}"; }',
    ...lines.map((line) => `t ${line.split(' ').map((word) => `'${word}'`).join(' ')}`),
  ].join('\n');
  const result = await execa('bash', ['--norc', '--noprofile', '-c', script], { env: { PATH: process.env.PATH ?? '', ...env }, extendEnv: false });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n');
}

describe('ahs completion', () => {
  it.each(SHELLS)('%s prints the generated script', async (shell) => {
    const result = await execa('node', [bin, 'completion', shell]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout + '\n').toBe(generateCompletion(shell, describeCommand(docsProgram())));
  });

  it('rejects an unknown shell with a usage error (exit 2)', async () => {
    const result = await execa('node', [bin, 'completion', 'tcsh'], { reject: false });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/bash, zsh, fish|"bash", "zsh", "fish"/);
  });

  it('completes in a real bash after `source <(ahs completion bash)`', async () => {
    const script = [
      `source <(node ${JSON.stringify(bin)} completion bash)`,
      'complete -p ahs',
      'COMP_WORDS=(ahs completion ""); COMP_CWORD=2; _ahs; echo "${COMPREPLY[*]}"',
      'COMP_WORDS=(ahs --output ""); COMP_CWORD=2; _ahs; echo "${COMPREPLY[*]}"',
      'COMP_WORDS=(ahs ""); COMP_CWORD=1; _ahs; echo "${COMPREPLY[*]}"',
    ].join('\n');
    const result = await execa('bash', ['--norc', '--noprofile', '-c', script]);
    const [registered, shells, formats, commands] = result.stdout.split('\n');
    expect(registered).toBe('complete -o default -F _ahs ahs');
    expect(shells).toBe('bash zsh fish');
    expect(formats).toBe('table wide json yaml');
    expect(commands?.split(' ')).toEqual(expect.arrayContaining(['completion', 'help']));
  });

  it('--profile <TAB> completes the profile names of the config (ahs is asked; no network)', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'ahs-complete-'));
    try {
      await writeFile(join(configDir, 'config.json'), JSON.stringify({ current: 'prod', profiles: { prod: { domainId: 'acme' }, staging: { domainId: 'acme' }, 'dev-eu': {} } }));
      const direct = await execa('node', [bin, 'completion', 'bash', '--candidates', 'profiles'], { env: { AHS_CONFIG_DIR: configDir } });
      expect(direct.stdout.split('\n')).toEqual(['dev-eu', 'prod', 'staging']);
      const script = [
        `ahs() { node ${JSON.stringify(bin)} "$@"; }`,
        `source ${JSON.stringify(await bashScript())}`,
        'COMP_WORDS=(ahs asset list --profile ""); COMP_CWORD=4; _ahs; echo "${COMPREPLY[*]}"',
        'COMP_WORDS=(ahs --profile s); COMP_CWORD=2; _ahs; echo "${COMPREPLY[*]}"',
        'COMP_WORDS=(ahs fetch --profile = d); COMP_CWORD=4; _ahs; echo "${COMPREPLY[*]}"',
      ].join('\n');
      const result = await execa('bash', ['--norc', '--noprofile', '-c', script], { env: { AHS_CONFIG_DIR: configDir } });
      expect(result.stdout.split('\n')).toEqual(['dev-eu prod staging', 'staging', 'dev-eu']);
    } finally {
      await rm(configDir, { recursive: true, force: true });
    }
  });
});

/** The same through zsh (its completion builtins replaced by stand-ins that print) and fish, when installed. */
async function completeIn(shell: 'zsh' | 'fish', lines: string[], env: Record<string, string>): Promise<string[]> {
  const script =
    shell === 'zsh'
      ? [
          `ahs() { node ${JSON.stringify(bin)} "$@"; }`,
          'compdef() { :; }',
          `source <(node ${JSON.stringify(bin)} completion zsh)`,
          'compadd() { local a=${@[-1]}; print -r -- ${(M)${(P)a}:#${PREFIX}*}; }',
          // Subcommands (with descriptions) are left out: the lines show the values compadd offers.
          '_describe() { :; }',
          '_files() { print; }',
          // One line a completion, empty when nothing is offered.
          't() { words=("$@"); CURRENT=$#words; PREFIX=${words[CURRENT]}; print -r -- "$(_ahs)"; }',
          ...lines.map((line) => `t ${line.split(' ').map((word) => `'${word}'`).join(' ')}`),
        ]
      : [
          `function ahs; node ${JSON.stringify(bin)} $argv; end`,
          `node ${JSON.stringify(bin)} completion fish | source`,
          ...lines.map((line) => `echo (complete -C ${JSON.stringify(line)} | string replace -r '\\t.*' '')`),
        ];
  const args = shell === 'zsh' ? ['-f', '-c', script.join('\n')] : ['--no-config', '-c', script.join('\n')];
  const result = await execa(shell, args, { env: { PATH: process.env.PATH ?? '', ...env }, extendEnv: false });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n');
}

// Under CI (which installs zsh and fish: .ci/run) a missing shell fails its test instead of skipping it.
const installed = (shell: string) => Boolean(process.env.CI) || spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

describe('ids complete through the service (ahs is asked at <TAB>)', () => {
  let h: Harness;
  let asset: string;
  beforeAll(async () => {
    assertFreshBuild();
    h = await harness();
    asset = uid('tab');
    await h.createAsset(asset);
    await h.uploadVersion(asset, 'ios');
    await h.uploadVersion(asset, 'android');
    expect((await h.ahs(['collection', 'create', 'tab-pack', '--name', 'Tab', '--allowed-types', '1001'])).exitCode).toBe(0);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('asset, version and collection ids from the AHS_* settings; nothing for the id a create names', async () => {
    const env = { ...h.env, CI: '' };
    const lines = await complete(
      [`ahs asset get `, `ahs deploy ${asset} `, `ahs version get ${asset} I`, `ahs collection status `, `ahs item list t`, `ahs collection create `],
      env,
    );
    expect(lines).toEqual([asset, 'AND1 IOS1', 'IOS1', 'tab-pack', 'tab-pack', '']);
  });

  for (const shell of ['zsh', 'fish'] as const) {
    it.skipIf(!installed(shell))(`${shell}: the same ids`, async () => {
      const lines = await completeIn(shell, [`ahs asset status `, `ahs --profile nope deploy ${asset} `, `ahs deploy ${asset} `, `ahs fetch t`], { ...h.env, CI: '' });
      expect(lines.slice(0, 4)).toEqual([asset, '', 'AND1 IOS1', 'tab-pack']);
    });
  }

  it('history, verify and rollout complete asset and collection ids; after an asset id, the versions of the platform of the line or the profile', async () => {
    const env = { ...h.env, CI: '' };
    const lines = await complete(
      [`ahs history `, `ahs verify t`, `ahs rollout `, `ahs rollout ${asset} `, `ahs rollout status ${asset} `, `ahs --platform ios deploy ${asset} `, `ahs deploy ${asset} --platform=android `],
      env,
    );
    expect(lines.slice(0, 7)).toEqual([`${asset} tab-pack`, `${asset} tab-pack`, `start status abort help ${asset}`, 'AND1 IOS1', 'AND1 IOS1', 'IOS1', 'AND1']);
    // The profile's platform (here AHS_PLATFORM): what ahs deploy would take.
    expect((await complete([`ahs deploy ${asset} `, `ahs rollout ${asset} `], { ...env, AHS_PLATFORM: 'android' })).slice(0, 2)).toEqual(['AND1', 'AND1']);
  });

  it('--env and --platform complete what the service shows beside what the config names, and print nothing else', async () => {
    await h.deploy(asset, 'IOS1', 'ios', 'staging', 'LIVE');
    const env = { ...h.env, CI: '', AHS_ENV: 'qa' };
    const lines = await complete([`ahs deploy ${asset} IOS1 --env `, `ahs --platform `, `ahs release --platform=a`], env);
    expect(lines.slice(0, 3)).toEqual(['qa staging', 'android generic ios', 'android']);
    const direct = await execa('node', [bin, 'completion', 'bash', '--candidates', 'envs'], { env, reject: false });
    expect({ exitCode: direct.exitCode, stdout: direct.stdout, stderr: direct.stderr }).toEqual({ exitCode: 0, stdout: 'qa\nstaging', stderr: '' });
    expect(direct.stdout + direct.stderr).not.toContain(h.env.AHS_API_KEY);
  });

  for (const shell of ['zsh', 'fish'] as const) {
    it.skipIf(!installed(shell))(`${shell}: history and rollout ids, versions of the line's platform, environments from the service`, async () => {
      await h.deploy(asset, 'IOS1', 'ios', 'staging', 'LIVE');
      const lines = await completeIn(shell, [`ahs history `, `ahs rollout ${asset} `, `ahs --platform ios deploy ${asset} `, `ahs deploy --env `], { ...h.env, CI: '' });
      expect(lines.slice(0, 4)).toEqual([`${asset} tab-pack`, 'AND1 IOS1', 'IOS1', 'staging']);
    });
  }

  it('--profile on the line is the profile asked; an unreachable current profile offers nothing, silently', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'ahs-complete-'));
    try {
      const emu = { baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY };
      // The current profile points at a closed port.
      const dead = { ...emu, baseUrl: 'http://127.0.0.1:9' };
      await writeFile(join(configDir, 'config.json'), JSON.stringify({ current: 'dead', profiles: { dead, emu } }));
      const lines = await complete([`ahs version list `, `ahs --profile emu version list `, `ahs version list --profile=emu `], { AHS_CONFIG_DIR: configDir });
      expect(lines).toEqual(['', asset, asset]);
    } finally {
      await rm(configDir, { recursive: true, force: true });
    }
  });

  it('a service that does not answer offers nothing once the short timeout is past', async () => {
    const hanging = await stubServer(() => new Promise<boolean>(() => {}));
    try {
      const direct = await execa('node', [bin, 'completion', 'bash', '--candidates', 'assets'], {
        env: { AHS_CONFIG_DIR: join(h.dir, 'none'), AHS_BASE_URL: hanging.url, AHS_DOMAIN: 'demo', AHS_API_KEY: DEMO_API_KEY },
        reject: false,
      });
      expect({ exitCode: direct.exitCode, stdout: direct.stdout, stderr: direct.stderr }).toEqual({ exitCode: 0, stdout: '', stderr: '' });
      expect(hanging.requests).toHaveLength(1);
    } finally {
      await hanging.close();
    }
  });
});

/**
 * An interactive bash in a pty with the script loaded, in `cwd`: each line is
 * typed (ending in two TABs), and the screen is read once the marker echoed
 * after it shows; no timing.
 */
/** Each line typed, then two TABs; `waitFor`: words the listing must show before the line is dropped (under load, bash may still be listing). */
async function interactiveBash(cwd: string, env: Record<string, string>, lines: Array<string | { line: string; waitFor: string }>): Promise<string[]> {
  const script = await bashScript();
  const ahsFunction = `ahs() { node ${JSON.stringify(bin)} "$@"; }`;
  const child = spawn('script', ['-qfec', 'bash --norc --noprofile -i', '/dev/null'], { cwd, env: { PATH: process.env.PATH ?? '', TERM: 'xterm', PS1: '$ ', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  const screens: string[] = [];
  let waiting: { marker: string; from: number; resolve: () => void } | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    // Only what came since the line was typed: an earlier listing of the same name is not this one.
    if (waiting && screen.slice(waiting.from).includes(waiting.marker)) waiting.resolve();
  });
  const until = (marker: string, from = 0) => new Promise<void>((resolve) => (screen.slice(from).includes(marker) ? resolve() : (waiting = { marker, from, resolve })));
  return (async () => {
    child.stdin.write(`${ahsFunction}; source ${JSON.stringify(script)}; echo "READY""-0"\n`);
    await until('READY-0\r\n');
    for (const [index, entry] of lines.entries()) {
      const start = screen.length;
      const { line, waitFor } = typeof entry === 'string' ? { line: entry, waitFor: undefined } : entry;
      // Two TABs list the candidates; Ctrl-U drops the line; the marker says the listing is on screen.
      child.stdin.write(`${line}\t\t`);
      if (waitFor) await until(waitFor, start);
      else await new Promise((resolve) => setImmediate(resolve));
      // Quoted apart, so the echo of the typed line is not the marker.
      child.stdin.write(`\x15echo "DONE""-${index + 1}"\n`);
      await until(`DONE-${index + 1}\r\n`);
      screens.push(screen.slice(start));
    }
    child.stdin.write('exit\n');
    await new Promise((resolve) => child.once('exit', resolve));
    return screens;
  })();
}

describe('a value is offered as it is: never globbed, never run', () => {
  it('a profile named g* completes to itself, not to the file names of the folder; one named $(...) runs nothing', async () => {
    const work = await mkdtemp(join(tmpdir(), 'ahs-complete-'));
    try {
      await writeFile(join(work, 'gamma.txt'), 'x');
      await writeFile(join(work, 'config.json'), JSON.stringify({ profiles: { 'g*': {}, '$(touch ran)': {} } }));
      const script = [
        `ahs() { node ${JSON.stringify(bin)} "$@"; }`,
        `source ${JSON.stringify(await bashScript())}`,
        't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _ahs; printf "%s|" "${COMPREPLY[@]}"; echo; }',
        "t ahs --profile g",
        "t ahs --profile ''",
      ].join('\n');
      const result = await execa('bash', ['--norc', '--noprofile', '-c', script], { cwd: work, env: { PATH: process.env.PATH ?? '', AHS_CONFIG_DIR: work }, extendEnv: false });
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\n')).toEqual(['g*|', '$(touch ran)|g*|']);
      await expect(readFile(join(work, 'ran'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe('--env and --platform complete the values of the profiles and the environment, never file names', () => {
  it('--candidates envs|platforms: from every profile and AHS_ENV / AHS_PLATFORM, each once, sorted', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'ahs-complete-'));
    try {
      await writeFile(join(configDir, 'config.json'), JSON.stringify({ current: 'a', profiles: { a: { envId: 'prod', platform: 'ios' }, b: { envId: 'staging' }, c: { envId: 'prod' } } }));
      const envs = await execa('node', [bin, 'completion', 'bash', '--candidates', 'envs'], { env: { AHS_CONFIG_DIR: configDir, AHS_ENV: 'qa' } });
      expect(envs.stdout.split('\n')).toEqual(['prod', 'qa', 'staging']);
      const lines = await complete(['ahs deploy --env ', 'ahs deploy --platform ', 'ahs release --platform=a'], { AHS_CONFIG_DIR: configDir, AHS_PLATFORM: 'android' });
      expect(lines).toEqual(['prod staging', 'android ios', 'android']);
    } finally {
      await rm(configDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasBashPty)('in an interactive bash: no values is nothing, where --dir and a PATH still offer file names', async () => {
    const work = await mkdtemp(join(tmpdir(), 'ahs-complete-'));
    try {
      await writeFile(join(work, 'zz-local-file.txt'), 'x');
      await writeFile(join(work, 'config.json'), JSON.stringify({ profiles: {} }));
      const [env, platform, dir, history, verifyId, verifyPath] = await interactiveBash(work, { AHS_CONFIG_DIR: work }, [
        'ahs deploy app IOS1 --env ',
        'ahs deploy app IOS1 --platform ',
        { line: 'ahs fetch c1 --dir ', waitFor: 'zz-local-file' },
        'ahs history ',
        'ahs verify ',
        { line: 'ahs verify c1 ', waitFor: 'zz-local-file' },
      ]);
      expect(env).not.toContain('zz-local-file');
      expect(platform).not.toContain('zz-local-file');
      expect(dir).toContain('zz-local-file');
      // An id the service would list (none here: no settings): never a file name; verify's PATH is one.
      expect(history).not.toContain('zz-local-file');
      expect(verifyId).not.toContain('zz-local-file');
      expect(verifyPath).toContain('zz-local-file');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
