// The README keeps its promises: a quick start of exactly two commands after
// cloning, and scripts for the commands it names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTPUTS, SUMMARIES } from '../../src/io/github.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README section "${title}"`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('README', () => {
  it('has a quick start of exactly two commands: the demo and the tests', () => {
    const block = /```sh\n([\s\S]*?)```/.exec(section('Quick start'))?.[1] ?? '';
    expect(block.trim().split('\n')).toEqual(['npm ci && npm run demo', 'npm test']);
  });

  it('names only npm scripts that exist', () => {
    for (const [, name] of readme.matchAll(/npm run ([\w:-]+)/g)) expect(Object.keys(pkg.scripts), `npm run ${name}`).toContain(name);
  });

  it('covers what a newcomer and a CI engineer need', () => {
    for (const title of ['Install', 'Connecting: profiles and settings', 'CI example (GitHub Actions)', 'Release workflows', 'Dry run', 'Exit codes', 'The emulator', 'Troubleshooting', 'Command reference']) {
      section(title);
    }
    const ci = section('CI example (GitHub Actions)');
    for (const word of ['ahs release', 'promote-default', '--query', 'shell: bash']) expect(ci).toContain(word);
    // A pipe into jq hides a failure from GitHub's default shell (no pipefail).
    expect(ci).not.toMatch(/\|\s*jq/);
  });

  it('documents the GitHub Actions outputs of every command that sets them, and the commands that write a summary', () => {
    const outputs = section('GitHub Actions outputs');
    const rows = outputs.split('\n').filter((line) => line.startsWith('| `ahs '));
    for (const [command, spec] of Object.entries(OUTPUTS)) {
      const row = rows.find((line) => line.split(' | ')[0]!.includes(`\`ahs ${command}\``));
      expect(row, `a row for ahs ${command}`).toBeDefined();
      // `changed` is described once for every write.
      for (const name of Object.keys(spec.outputs).filter((name) => name !== 'changed')) expect(row, `ahs ${command}: ${name}`).toContain(`\`${name}\``);
    }
    for (const command of Object.keys(SUMMARIES)) expect(outputs).toContain(`\`${command}\``);
    for (const common of ['exit-code', 'changed', 'dry-run', 'predicted-status', 'AHS_OUTPUT_FILE', '::add-mask::', '::error']) expect(outputs).toContain(common);
  });

  it('shows an install that works without the npm registry, and says what `npm install --global .` is', () => {
    const install = section('Install');
    expect(install).not.toContain('npm install --global ahs-cli\n');
    for (const line of ['npm install --global .', 'npm link', 'npm install --global ./ahs-cli-', '#v']) expect(install).toContain(line);
  });

  it("lists every error type ahs prints in json mode, with its exit code, as cli.md's table does", () => {
    const rows = [...section('Output and scripting').matchAll(/^\| `(urn:ahs:[a-z-]+)` \| ([^|]+) \|/gm)].map(([, type, exit]) => [type, exit!.trim()]);
    expect(Object.fromEntries(rows)).toEqual({
      'urn:ahs:usage': '2',
      'urn:ahs:not-found': '4',
      'urn:ahs:predicted': "the real answer's",
      'urn:ahs:rejected': '1',
      'urn:ahs:mismatch': '1',
      'urn:ahs:conflict': '5',
      'urn:ahs:network': '6',
      'urn:ahs:unknown-outcome': '6',
      'urn:ahs:unexpected-answer': '1',
      'urn:ahs:waiting': '11',
      'urn:ahs:interrupted': '130',
    });
    const codes = [...section('Exit codes').matchAll(/^\| (\d+) \|/gm)].map(([, code]) => Number(code));
    expect(codes).toEqual([0, 1, 2, 3, 4, 5, 6, 10, 11, 130]);
  });
});
