// The command tree as the generators see it: built with a runner that never
// runs anything.
import type { Command } from 'commander';
import { buildProgram } from '../program.js';

export function docsProgram(): Command {
  return buildProgram(async () => {
    throw new Error('the docs program does not run commands');
  });
}
