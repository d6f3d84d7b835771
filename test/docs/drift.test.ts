// Fails when a committed generated file differs from what the command tree
// generates now. Fix: `npm run gen`, then commit completions/, man/ and README.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedFiles, readmeWithReference } from '../../src/docs/index.js';
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

  it('README.md command reference', () => {
    const readme = read('README.md');
    expect(readme, 'README.md command reference is out of date: run npm run gen').toBe(readmeWithReference(readme, docsProgram()));
  });
});
