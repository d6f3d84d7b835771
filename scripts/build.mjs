// Bundles src/ into dist/ with esbuild. Code splitting keeps each command's
// module (and undici, zod, inquirer, ora, conf) off the --help/--version path.
// Then writes dist/answers.json: the version and every command's --help text,
// printed by the built bundle itself, which bin/ahs.js answers with without
// loading the bundle (issue 14).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const version = process.env.npm_package_version ?? (await import(`${root}package.json`, { with: { type: 'json' } })).default.version;
await rm(`${root}dist`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  // CommonJS dependencies inside an ESM bundle need a require of their own.
  banner: {
    js: "import { createRequire as __ahsCreateRequire } from 'node:module'; const require = __ahsCreateRequire(import.meta.url);",
  },
  define: { AHS_VERSION: JSON.stringify(version) },
  plugins: [englishOnlyZod()],
});
await writeAnswers();

/**
 * zod's namespace (`import { z } from 'zod'`) carries its 50 message
 * locales: 361 KB of the 756 KB zod chunk, compiled on every command that
 * checks an answer. ahs speaks English only (zod's default), so the locales
 * index keeps `en` alone: the chunk costs about half.
 */
function englishOnlyZod() {
  return {
    name: 'english-only-zod',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer) ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: "export { default as en } from './en.js';", resolveDir: join(args.path, '..'), loader: 'js' }));
    },
  };
}

/** Every command path of the tree (src/commands/index.ts): [], ['asset'], ['asset', 'list'], ... */
async function commandPaths() {
  // The declarations only: each command's module is a dynamic import, left out.
  const bundled = await build({
    absWorkingDir: root,
    stdin: { contents: "export { commandTree } from './src/commands/index.ts';", resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
    plugins: [{ name: 'skip-command-modules', setup: (b) => b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined)) }],
  });
  const { commandTree } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].contents).toString('base64')}`);
  return [[], ...commandTree.flatMap((node) => (node.kind === 'group' ? [[node.name], ...node.commands.map((leaf) => [node.name, leaf.spec.name])] : [[node.spec.name]]))];
}

/**
 * dist/answers.json: `{ version, help: { "": root help, "asset": ..., "asset
 * list": ..., "help globals": ... } }`. Each text is what `main([...path,
 * '--help'])` of dist/main.js writes when stdout is not a terminal (commander
 * wraps at 80 columns then), captured in a child whose stdout is a pipe.
 */
async function writeAnswers() {
  const script = `
    import { writeFileSync } from 'node:fs';
    import { Writable } from 'node:stream';
    const [file, paths] = [process.argv[1], JSON.parse(process.argv[2])];
    const { main } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'main.js')).href)});
    const capture = async (argv) => {
      let text = '';
      const out = new Writable({ write(chunk, _encoding, done) { text += chunk; done(); } });
      const err = new Writable({ write(_chunk, _encoding, done) { done(); } });
      const io = { out, err, in: process.stdin, outIsTTY: false, errIsTTY: false, inIsTTY: false, color: false, errColor: false, canPrompt: false, ci: false, env: {} };
      const code = await main(argv, { io });
      if (code !== 0) throw new Error('ahs ' + argv.join(' ') + ' exited ' + code);
      return text;
    };
    const help = {};
    for (const path of paths) help[path.join(' ')] = await capture([...path, '--help']);
    help['help globals'] = await capture(['help', 'globals']);
    writeFileSync(file, JSON.stringify({ version: ${JSON.stringify(version)}, help }));
  `;
  const paths = JSON.stringify(await commandPaths());
  execFileSync(process.execPath, ['--input-type=module', '-e', script, join(root, 'dist', 'answers.json'), paths], { stdio: ['ignore', 'pipe', 'inherit'] });
}
