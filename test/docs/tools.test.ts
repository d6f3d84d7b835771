// The generated scripts and page held to the tools their ecosystems use
// (issue 47): shellcheck on the bash completion, `zsh -n` and `fish -n` on
// theirs, `mandoc -T lint` on the man page, each with no warning. Under CI
// (.ci/run installs shellcheck, mandoc, zsh and fish) a missing tool fails
// its test; on a developer's machine without it, the test is skipped saying
// which tool to install.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { generatedFiles } from '../../src/docs/index.js';
import { docsProgram } from '../../src/docs/program.js';
import { VERSION } from '../support/local-release.js';

const dir = mkdtempSync(join(tmpdir(), 'ahs-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files = generatedFiles(docsProgram(), VERSION);

function file(name: string): string {
  const path = join(dir, name.replace(/\//g, '-'));
  writeFileSync(path, files[name]!);
  return path;
}

/** Runs TOOL ARGS; skips the test (outside CI) when the tool is not installed. */
function run(ctx: TestContext, tool: string, args: string[], apt: string): { status: number | null; output: string } {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
  if (!found && !process.env.CI) ctx.skip(`${tool} is not installed: apt-get install ${apt} (CI installs it: .ci/run)`);
  const result = spawnSync(tool, args, { encoding: 'utf8' });
  return { status: result.status, output: `${result.error ? `${tool}: ${result.error.message}\n` : ''}${result.stdout ?? ''}${result.stderr ?? ''}` };
}

describe('the generated files pass the linters of their kind', () => {
  it('shellcheck: the bash completion, no warning of any level', (ctx) => {
    const result = run(ctx, 'shellcheck', ['--shell=bash', '--severity=style', file('completions/ahs.bash')], 'shellcheck');
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('zsh -n: the zsh completion parses', (ctx) => {
    const result = run(ctx, 'zsh', ['-n', file('completions/ahs.zsh')], 'zsh');
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('fish -n: the fish completion parses', (ctx) => {
    const result = run(ctx, 'fish', ['--no-execute', file('completions/ahs.fish')], 'fish');
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('mandoc -T lint: the man page, no warning (its style notes of long source lines aside)', (ctx) => {
    const result = run(ctx, 'mandoc', ['-T', 'lint', '-W', 'warning', file('man/ahs.1')], 'mandoc');
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });
});
