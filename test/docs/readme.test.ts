// The README keeps its promises: a quick start of exactly two commands after
// cloning, scripts for the commands it names, links that lead somewhere, and
// the exit codes and JSON errors of cli.md. It is short (issue 36); the long
// material is in docs/, whose promises are checked here too.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTPUTS, SUMMARIES } from '../../src/io/github.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const docs = Object.fromEntries(readdirSync(join(root, 'docs')).map((name) => [`docs/${name}`, readFileSync(join(root, 'docs', name), 'utf8')]));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

function section(title: string, text = readme): string {
  const start = text.indexOf(`\n## ${title}\n`);
  expect(start, `section "${title}"`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The rows of the first table under a line that starts the table's header. */
function tableRows(text: string, header: string): string[] {
  const at = text.search(new RegExp(`\\n *${header.replace(/[|]/g, '\\|')}`));
  expect(at, `a table headed ${header}`).toBeGreaterThanOrEqual(0);
  const lines = text.slice(at + 1).split('\n').map((line) => line.trim());
  const end = lines.findIndex((line) => !line.startsWith('|'));
  return lines.slice(2, end < 0 ? undefined : end);
}

/**
 * cli.md, the contract, in shared/product/ beside the repository: a sibling
 * of the clone (CI), or of a folder above it (a worktree). Where no copy is
 * beside it (a clone on its own), its tables cannot be compared.
 */
function findCliMd(): string | undefined {
  for (let dir = join(root, '..'); ; dir = dirname(dir)) {
    const path = join(dir, 'shared', 'product', 'cli.md');
    if (existsSync(path)) return path;
    if (dirname(dir) === dir) return undefined;
  }
}
const CLI_MD = findCliMd();

describe('README', () => {
  it('has a quick start of exactly two commands: the demo and the tests', () => {
    const block = /```sh\n([\s\S]*?)```/.exec(section('Quick start'))?.[1] ?? '';
    expect(block.trim().split('\n')).toEqual(['npm ci && npm run demo', 'npm test']);
  });

  it('names only npm scripts that exist', () => {
    for (const text of [readme, ...Object.values(docs)]) {
      for (const [, name] of text.matchAll(/npm run ([\w:-]+)/g)) expect(Object.keys(pkg.scripts), `npm run ${name}`).toContain(name);
    }
  });

  it('covers what a newcomer and a CI engineer need', () => {
    for (const title of ['Quick start', 'Install', 'Connecting: profiles and settings', 'A release, by hand', 'CI example (GitHub Actions)', 'Release workflows', 'Desired state', 'Memory: the journal and `ahs history`', 'Rollouts across environments', 'Library', 'Dry run', 'Exit codes', 'The emulator', 'Troubleshooting', 'Command reference']) {
      section(title);
    }
    const ci = section('CI example (GitHub Actions)');
    for (const word of ['ahs release', 'promote-default', '--query', 'shell: bash']) expect(ci).toContain(word);
    // A pipe into jq hides a failure from GitHub's default shell (no pipefail).
    expect(ci).not.toMatch(/\|\s*jq/);
  });

  it('is read in ten minutes: at most 450 lines, the long material in docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(450);
    for (const doc of ['docs/commands.md', 'docs/workflows.md', 'docs/scripting.md', 'docs/ci.md', 'docs/desired-state.md', 'docs/library.md', 'docs/emulator.md', 'docs/development.md']) {
      expect(readme, `a link to ${doc}`).toContain(`](${doc}`);
    }
  });

  it('links only to files that exist, and to headings that exist', () => {
    for (const [file, text] of [['README.md', readme], ...Object.entries(docs)] as const) {
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https?:/.test(target!)) continue;
        const [path, anchor] = target!.split('#');
        const resolved = path ? join(root, file.includes('/') ? 'docs' : '', path) : join(root, file);
        expect(existsSync(resolved), `${file} links ${target}`).toBe(true);
        if (!anchor) continue;
        const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.*)$/gm)].map(([, heading]) => heading!.toLowerCase().replace(/[^\w\s-]/g, '').replace(/\s/g, '-'));
        expect(headings, `${file} links ${target}`).toContain(anchor);
      }
    }
  });

  it.skipIf(!CLI_MD)("has cli.md's exit codes and JSON error types, row for row", () => {
    const cli = readFileSync(CLI_MD!, 'utf8');
    expect(tableRows(section('Exit codes'), '| code | meaning |')).toEqual(tableRows(cli, '| code | meaning |'));
    // cli.md says "as exit 5 below"; the README's table comes after its exit codes.
    const types = (text: string) => tableRows(text, '| type | exit | when |').map((row) => row.replace('as exit 5 below', 'as exit 5 above'));
    expect(types(section('Exit codes'))).toEqual(types(cli));
    expect(types(cli).length).toBeGreaterThan(5);
  });

  it('documents the GitHub Actions outputs of every command that sets them, and the commands that write a summary (docs/ci.md)', () => {
    const outputs = section('GitHub Actions outputs', docs['docs/ci.md']);
    const rows = outputs.split('\n').filter((line) => line.startsWith('| `ahs '));
    for (const [command, spec] of Object.entries(OUTPUTS)) {
      const row = rows.find((line) => line.split(' | ')[0]!.includes(`\`ahs ${command}\``));
      expect(row, `a row for ahs ${command}`).toBeDefined();
      // `changed` is described once for every write.
      for (const name of Object.keys(spec.outputs).filter((name) => name !== 'changed')) expect(row, `ahs ${command}: ${name}`).toContain(`\`${name}\``);
    }
    for (const command of Object.keys(SUMMARIES)) expect(outputs).toContain(`\`${command}\``);
    for (const common of ['exit-code', 'changed', 'dry-run', 'predicted-status', '::add-mask::', '::error']) expect(outputs).toContain(common);
    expect(section('A results file: `AHS_OUTPUT_FILE`', docs['docs/ci.md'])).toContain('AHS_OUTPUT_FILE=PATH');
  });

  it('installs without the npm registry, where ahs is not published: no line of the README or docs/ installs ahs-cli by name', () => {
    const install = section('Install');
    for (const line of ['npm install --global "git+', 'npm install --save-dev "git+', 'npm install --global ./ahs-cli-', 'npm install --global .', 'npm link', 'npm/cli#8440']) expect(install).toContain(line);
    for (const [file, text] of [['README.md', readme], ...Object.entries(docs)]) {
      expect(text, file).not.toMatch(/npm (install|i) (-g|--global) ahs-cli\b/);
    }
  });
});
