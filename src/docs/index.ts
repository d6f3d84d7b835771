// Everything `npm run gen` writes, from one command tree. The drift tests in
// test/docs/ compare the committed files with this.
import type { Command } from 'commander';
import { generateCompletion } from './completion.js';
import { generateMan, releaseDate } from './man.js';
import { generateReference, insertReference } from './markdown.js';
import { describeCommand } from './model.js';
import { SHELLS } from './shells.js';

export { describeCommand } from './model.js';
export { generateCompletion } from './completion.js';
export { generateMan } from './man.js';
export { generateReference, insertReference } from './markdown.js';

/** Generated files by path relative to the repository root (README.md excluded: see readmeWithReference). */
export function generatedFiles(program: Command, version: string): Record<string, string> {
  const root = describeCommand(program);
  const files: Record<string, string> = {};
  for (const shell of SHELLS) files[`completions/${root.name}.${shell}`] = generateCompletion(shell, root);
  files[`man/${root.name}.1`] = generateMan(root, { version, date: releaseDate(version) });
  return files;
}

/** The README with its command reference section regenerated. */
export function readmeWithReference(readme: string, program: Command): string {
  return insertReference(readme, generateReference(describeCommand(program)));
}
