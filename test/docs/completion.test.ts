// The completion scripts complete in real shells: bash always (CI has it),
// zsh and fish when installed. Checked against the whole tree, so the checks
// follow the tree as commands are added.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Argument, Command, Option } from 'commander';
import { generateCompletion } from '../../src/docs/completion.js';
import { allCommands, describeCommand, optionNames, type CommandModel } from '../../src/docs/model.js';
import { docsProgram } from '../../src/docs/program.js';

const dir = mkdtempSync(join(tmpdir(), 'ahs-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Whether the shell's tests run: always under CI, which installs zsh and fish
 * (.ci/run), so that a missing shell fails there instead of skipping; on a
 * developer's machine, when the shell is installed.
 */
function has(shell: string): boolean {
  if (process.env.CI) return true;
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs each line (words; a trailing space means an empty current word) through the bash completion; returns the candidates. */
function bashComplete(root: CommandModel, lines: string[]): string[][] {
  const script = join(dir, `ahs-${Math.random().toString(36).slice(2)}.bash`);
  writeFileSync(script, generateCompletion('bash', root));
  const driver = [
    `source ${JSON.stringify(script)}`,
    't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _ahs; echo "${COMPREPLY[*]}"; }',
    ...lines.map((line) => `t ${line.split(' ').map((word) => `'${word}'`).join(' ')}`),
  ].join('\n');
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', driver], { encoding: 'utf8' });
  return out.split('\n').slice(0, lines.length).map((row) => row.split(' ').filter(Boolean));
}

function fishComplete(root: CommandModel, lines: string[]): string[][] {
  const script = join(dir, 'ahs.fish');
  writeFileSync(script, generateCompletion('fish', root));
  const driver = [
    `source ${JSON.stringify(script)}`,
    ...lines.map((line) => `echo (complete -C ${JSON.stringify(line)} | string replace -r '\\t.*' '')`),
  ].join('\n');
  const out = execFileSync('fish', ['--no-config', '-c', driver], { encoding: 'utf8' });
  return out.split('\n').slice(0, lines.length).map((row) => row.split(' ').filter(Boolean));
}

// zsh's completion builtins only work inside the line editor; stand-ins print what would be offered.
function zshComplete(root: CommandModel, lines: string[]): string[][] {
  const script = join(dir, '_ahs');
  writeFileSync(script, generateCompletion('zsh', root));
  const driver = [
    'compdef() { :; }',
    `source ${JSON.stringify(script)}`,
    // like the real ones, offer only the candidates that start with the current word
    'compadd() { local a=${@[-1]}; print -r -- ${(M)${(P)a}:#${PREFIX}*}; }',
    '_describe() { local a=${@[-1]}; local -a names=(${(@)${(P)a}%%:*}); print -r -- ${(M)names:#${PREFIX}*}; }',
    '_files() { print; }',
    'compset() { :; }',
    't() { words=("$@"); CURRENT=$#words; PREFIX=${words[CURRENT]}; _ahs; }',
    ...lines.map((line) => `t ${line.split(' ').map((word) => `'${word}'`).join(' ')}`),
  ].join('\n');
  const out = execFileSync('zsh', ['-f', '-c', driver], { encoding: 'utf8' });
  return out.split('\n').slice(0, lines.length).map((row) => row.split(' ').filter(Boolean));
}

function sampleTree(): CommandModel {
  const program = new Command('ahs')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json']))
    .option('--json', 'short for -o json')
    .option('--profile <name>', 'profile');
  const asset = program.command('asset').description('assets');
  asset
    .command('status')
    .argument('<assetId>')
    .addOption(new Option('--state <state>', 'state').choices(['LIVE', 'OFFLINE', 'DEFAULT']))
    .option('--env <id>', 'environment')
    .action(() => {});
  asset.command('create').argument('<assetId>').option('--name <name>', 'name').action(() => {});
  program
    .command('deploy')
    .argument('<assetId>')
    .argument('<versionId>')
    .addOption(new Option('--state <state>', 'state').choices(['LIVE', 'OFFLINE']))
    .action(() => {});
  program
    .command('completion')
    .addArgument(new Argument('<shell>', 'shell').choices(['bash', 'zsh', 'fish']))
    .action(() => {});
  return describeCommand(program);
}

const cases: Array<[string, string[]]> = [
  ['ahs ', ['asset', 'deploy', 'completion', 'help']],
  ['ahs as', ['asset']],
  ['ahs asset ', ['status', 'create', 'help']],
  ['ahs --profile asset asset st', ['status']],
  ['ahs asset status a1 --state ', ['LIVE', 'OFFLINE', 'DEFAULT']],
  ['ahs asset status a1 --state L', ['LIVE']],
  ['ahs deploy a1 v1 --state ', ['LIVE', 'OFFLINE']],
  ['ahs -o ', ['table', 'json']],
  ['ahs deploy --output ', ['table', 'json']],
  ['ahs completion ', ['bash', 'zsh', 'fish']],
  ['ahs completion z', ['zsh']],
  ['ahs asset create --n', ['--name']],
  ['ahs asset status --', ['--state', '--env', '--output', '--json', '--profile', '--help']],
];

const sorted = (words: string[]) => [...words].sort();

describe.each([
  ['bash', bashComplete],
  ['zsh', zshComplete],
  ['fish', fishComplete],
] as const)('%s completion', (shell, complete) => {
  it.skipIf(!has(shell))('completes commands, subcommands, flags and fixed values of a sample tree', () => {
    const results = complete(sampleTree(), cases.map(([line]) => line));
    cases.forEach(([line, expected], index) => {
      expect(sorted(results[index] ?? []), line).toEqual(sorted(expected));
    });
  });

  it.skipIf(!has(shell))('completes every command, flag and fixed value of the ahs tree', () => {
    const root = describeCommand(docsProgram());
    const lines: string[] = [];
    const expected: Array<(got: string[]) => void> = [];
    for (const command of allCommands(root)) {
      if (command.implicitHelp) continue;
      const prefix = ['ahs', ...command.path].join(' ');
      if (command.commands.length > 0) {
        lines.push(`${prefix} `);
        const names = command.commands.map((sub) => sub.name);
        expected.push((got) => expect(sorted(got), `${prefix} <TAB>`).toEqual(sorted(names)));
      }
      lines.push(`${prefix} --`);
      const longs = command.options.map((option) => option.long).filter((name): name is string => Boolean(name));
      expected.push((got) => expect(got, `${prefix} --<TAB>`).toEqual(expect.arrayContaining([...longs, '--json', '--output'])));
      for (const option of command.options) {
        if (!option.choices) continue;
        for (const name of optionNames(option)) {
          lines.push(`${prefix} ${name} `);
          const choices = option.choices;
          expected.push((got) => expect(sorted(got), `${prefix} ${name} <TAB>`).toEqual(sorted(choices)));
        }
      }
      command.arguments.forEach((argument, index) => {
        if (!argument.choices || index > 0) return;
        lines.push(`${prefix} `);
        const choices = argument.choices;
        expected.push((got) => expect(sorted(got), `${prefix} <TAB>`).toEqual(sorted(choices)));
      });
    }
    const results = complete(root, lines);
    expected.forEach((check, index) => check(results[index] ?? []));
  });
});
