// Fails when a committed generated file differs from what the command tree
// generates now. Fix: `npm run gen`, then commit completions/, man/ and docs/commands.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedFiles, readmeWithReference } from '../../src/docs/index.js';
import { REFERENCE_BEGIN } from '../../src/docs/markdown.js';
import { docsProgram } from '../../src/docs/program.js';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => {
  try {
    return readFileSync(join(root, path), 'utf8');
  } catch {
    return '(missing)';
  }
};
const { version } = JSON.parse(read('package.json')) as { version: string };
const files = generatedFiles(docsProgram(), version);

describe('generated files match the command tree (run `npm run gen` when this fails)', () => {
  it.each(Object.keys(files))('%s', (path) => {
    expect(read(path), `${path} is out of date: run npm run gen`).toBe(files[path]);
  });

  it('docs/commands.md: the command reference between its markers', () => {
    const reference = read('docs/commands.md');
    expect(reference).toContain(REFERENCE_BEGIN);
    expect(reference, 'docs/commands.md is out of date: run npm run gen').toBe(readmeWithReference(reference, docsProgram()));
  });

  it('the README links the reference and holds none of it', () => {
    const readme = read('README.md');
    expect(readme).toContain('](docs/commands.md)');
    expect(readme).not.toContain(REFERENCE_BEGIN);
  });
});
