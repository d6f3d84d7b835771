// The man page: structure from the tree, and a clean render by groff when it is installed
// (the test does not need man or groff).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateMan, roff } from '../../src/docs/man.js';
import { generateReference, insertReference, REFERENCE_BEGIN, REFERENCE_END } from '../../src/docs/markdown.js';
import { allCommands, describeCommand } from '../../src/docs/model.js';
import { docsProgram } from '../../src/docs/program.js';

const root = describeCommand(docsProgram());
const page = generateMan(root, { version: '9.9.9', date: '2030-01-02' });

function has(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('man page', () => {
  it('has the sections of a man page, in order', () => {
    const sections = [...page.matchAll(/^\.SH (.+)$/gm)].map((match) => match[1]);
    expect(sections).toEqual(['NAME', 'SYNOPSIS', 'DESCRIPTION', 'GLOBAL OPTIONS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS', 'FILES', 'EXAMPLES', 'SEE ALSO']);
    expect(page).toMatch(/^\.TH AHS 1 2030-01-02 "ahs 9\.9\.9" /m);
    expect(page).toMatch(/^ahs \\- /m);
  });

  it('documents every command with its arguments and options, and every global option', () => {
    for (const command of allCommands(root)) {
      if (command === root || command.implicitHelp) continue;
      const heading = `.SS "${['ahs', ...command.path].join(' ').replace(/-/g, '\\-')}"`;
      expect(page, heading).toContain(heading);
      for (const option of command.options) {
        if (option.long && option.long !== '--help') expect(page).toContain(`\\fB${option.long.replace(/-/g, '\\-')}\\fR`);
      }
    }
    for (const option of root.options) {
      if (option.long) expect(page).toContain(`\\fB${option.long.replace(/-/g, '\\-')}\\fR`);
    }
  });

  it('lists the AHS_* environment and every exit status of cli.md', () => {
    for (const name of ['AHS_PROFILE', 'AHS_BASE_URL', 'AHS_DELIVERY_URL', 'AHS_DOMAIN', 'AHS_ENV', 'AHS_PLATFORM', 'AHS_USER', 'AHS_API_KEY', 'AHS_CONFIG_DIR']) {
      expect(page).toContain(`\\fB${name}\\fR`);
    }
    const exit = page.slice(page.indexOf('.SH EXIT STATUS'), page.indexOf('.SH FILES'));
    const codes = [...exit.matchAll(/^\\fB(\d+)\\fR$/gm)].map((match) => Number(match[1]));
    expect(codes).toEqual([0, 1, 2, 3, 4, 5, 6, 130]);
  });

  it('escapes roff: no text line starts a request by accident', () => {
    expect(roff('.hidden\n\'quote\nback\\slash')).toBe('\\&.hidden\n\\&\'quote\nback\\eslash');
    const requests = new Set(['TH', 'SH', 'SS', 'TP', 'PP', 'RS', 'RE', 'nf', 'fi', 'BR', 'B', 'I', '\\"']);
    for (const line of page.split('\n')) {
      if (line.startsWith('.')) expect(requests.has(line.slice(1).split(' ')[0] ?? ''), line).toBe(true);
    }
  });

  it.skipIf(!has('groff'))('renders with groff without warnings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ahs-man-'));
    try {
      const file = join(dir, 'ahs.1');
      writeFileSync(file, page);
      // grotty marks bold and underline by overstriking: drop the marks
      const text = execFileSync('groff', ['-man', '-Tutf8', '-ww', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).replace(/.\x08/g, '');
      const warnings = execFileSync('sh', ['-c', `groff -man -Tutf8 -ww -z "${file}" 2>&1`], { encoding: 'utf8' });
      expect(warnings).toBe('');
      expect(text).toContain('GLOBAL OPTIONS');
      expect(text).toContain('EXIT STATUS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('README command reference', () => {
  it('replaces only the text between the markers', () => {
    const reference = generateReference(root);
    const readme = `# t\n\nbefore\n\n${REFERENCE_BEGIN}\nold\n${REFERENCE_END}\n\nafter\n`;
    const updated = insertReference(readme, reference);
    expect(updated.startsWith('# t\n\nbefore\n\n')).toBe(true);
    expect(updated.endsWith('\n\nafter\n')).toBe(true);
    expect(updated).not.toContain('\nold\n');
    expect(insertReference(updated, reference)).toBe(updated);
  });

  it('names every command of the tree', () => {
    const reference = generateReference(root);
    for (const command of allCommands(root)) {
      if (command === root || command.implicitHelp) continue;
      expect(reference).toContain(['ahs', ...command.path].join(' '));
    }
  });
});
