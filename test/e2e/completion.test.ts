// `ahs completion <shell>` from the built binary prints what the generators make
// from the tree (the same text as completions/, see test/docs/drift.test.ts),
// and the bash script it prints completes in a real bash.
import { execa } from 'execa';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCompletion } from '../../src/docs/completion.js';
import { describeCommand } from '../../src/docs/model.js';
import { docsProgram } from '../../src/docs/program.js';
import { SHELLS } from '../../src/docs/shells.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'ahs.js');

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
    expect(formats).toBe('table json');
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
        `source <(node ${JSON.stringify(bin)} completion bash)`,
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
