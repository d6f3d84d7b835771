// The library as a package (issue 35): what importing the built dist/lib.mjs
// evaluates. `require()` from CommonJS, a script bundled by esbuild and
// scripts compiled strict run from the installed release in packaging.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ROOT, assertFreshBuild } from './helpers.js';

beforeAll(() => assertFreshBuild());

describe('the library as a package', () => {
  it('importing it evaluates neither zod nor undici: they are chunks that a call loads with import() when it needs them', async () => {
    // The files an import evaluates: the entry and its static imports, transitively (esbuild marks each
    // bundled file with a "// node_modules/..." comment in unminified output).
    const seen = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = await readFile(file, 'utf8');
      for (const [, spec] of text.matchAll(/^import\s[^'"]*['"](\.{1,2}\/[^'"]+)['"]/gm)) await visit(join(dirname(file), spec!));
    };
    await visit(join(ROOT, 'dist', 'lib.mjs'));
    const eager = await Promise.all([...seen].map((file) => readFile(file, 'utf8')));
    expect(eager.join('\n')).not.toMatch(/\/\/ node_modules\/(zod|undici)\//);
    const all = await Promise.all((await readdir(join(ROOT, 'dist', 'lib-chunks'))).filter((name) => name.endsWith('.mjs')).map((name) => readFile(join(ROOT, 'dist', 'lib-chunks', name), 'utf8')));
    expect(all.join('\n')).toMatch(/\/\/ node_modules\/zod\//);
    expect(all.join('\n')).toMatch(/\/\/ node_modules\/undici\//);
  });
});
