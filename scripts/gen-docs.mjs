#!/usr/bin/env node
// `npm run gen`: writes completions/ahs.{bash,zsh,fish}, man/ahs.1 and the
// command reference, docs/commands.md, from the commander tree (src/program.ts).
// The reference is the text between the markers of docs/commands.md (its
// head is written by hand); the README links it.
// `--check` writes nothing and exits 1 when a committed file is out of date.
import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

// Bundle the generators with the tree (dependencies stay in node_modules) and load them.
const outfile = join(root, 'node_modules', '.cache', 'ahs-gen', 'docs.mjs');
await build({
  absWorkingDir: root,
  stdin: {
    contents: "export { docsProgram } from './src/docs/program.ts'; export { generatedFiles, readmeWithReference } from './src/docs/index.ts';",
    resolveDir: root,
    sourcefile: 'gen-docs-entry.ts',
    loader: 'ts',
  },
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  define: { AHS_VERSION: 'undefined' },
  // Commands' modules are loaded only when they run, which the generators never do.
  plugins: [
    {
      name: 'skip-command-modules',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
      },
    },
  ],
});
const { docsProgram, generatedFiles, readmeWithReference } = await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);

const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const files = generatedFiles(docsProgram(), version);
const reference = await readFile(join(root, 'docs', 'commands.md'), 'utf8').catch(() => '# ahs command reference\n');
files['docs/commands.md'] = readmeWithReference(reference, docsProgram());

const stale = [];
for (const [path, text] of Object.entries(files)) {
  const full = join(root, path);
  const current = await readFile(full, 'utf8').catch(() => null);
  if (current === text) continue;
  stale.push(path);
  if (!check) {
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, text);
  }
}
if (check) {
  if (stale.length) {
    console.error(`out of date (run npm run gen): ${stale.join(', ')}`);
    process.exit(1);
  }
  console.log('generated files are up to date');
} else {
  console.log(stale.length ? `wrote ${stale.join(', ')}` : 'generated files already up to date');
}
