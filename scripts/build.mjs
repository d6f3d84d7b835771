// Bundles src/ into dist/main.js with esbuild: one CommonJS file, which
// bin/ahs.js compiles with V8's code cache (issue 14: split ES modules cost
// `ahs asset list --json` 32 ms of compiling; a code cache needs a script).
// Each command's module, undici, zod, inquirer, ora and conf stay unevaluated
// until a command imports them (esbuild wraps them in lazy initialisers).
// Then, loading the bundle as bin/ahs.js does, writes dist/answers.json (the
// version and every command's --help text, which bin/ahs.js prints without
// loading the bundle) and dist/main-NODEVERSION-ARCH.v8cache (the code cache).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const version = process.env.npm_package_version ?? (await import(`${root}package.json`, { with: { type: 'json' } })).default.version;
await rm(`${root}dist`, { recursive: true, force: true });
await mkdir(`${root}dist`);
// The package is "type": "module"; the bundle is CommonJS.
await writeFile(`${root}dist/package.json`, '{ "type": "commonjs" }\n');
await build({
  absWorkingDir: root,
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  define: { AHS_VERSION: JSON.stringify(version) },
  // import() of a built-in (node:https, node:v8) becomes a require: a script
  // compiled by node:vm has no loader for import() (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
  supported: { 'dynamic-import': false },
  // Every start reads and decodes the whole file: 3.7 -> 2.6 MB took 6 ms off
  // `ahs asset list --json`. Names stay (stack traces with AHS_DEBUG).
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [englishOnlyZod(), noEditorPrompt()],
});
await writeAnswersAndCache();

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

/**
 * @inquirer/prompts re-exports its editor prompt, which brings iconv-lite and
 * chardet: 540 KB of the bundle (read and decoded on every start), for a
 * prompt ahs never shows (src/io/prompt.ts, commands/fetch/browse.ts).
 */
function noEditorPrompt() {
  return {
    name: 'no-editor-prompt',
    setup(b) {
      b.onResolve({ filter: /^@inquirer\/editor$/ }, () => ({ path: 'editor', namespace: 'no-editor-prompt' }));
      b.onLoad({ filter: /.*/, namespace: 'no-editor-prompt' }, () => ({
        contents: "export default function editor() { throw new Error('the editor prompt is not part of the ahs bundle (scripts/build.mjs)'); }",
        loader: 'js',
      }));
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
 * The same child then starts a read that is refused (nothing listens on port
 * 1), so the code cache it writes last holds what every command compiles on
 * its way to the network: main, commander, the context, settings, the HTTP
 * client. Undici is not loaded: its --liftoff-only would change V8's flags,
 * and V8 refuses a cache made under other flags.
 */
async function writeAnswersAndCache() {
  const script = `
    const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
    const { tmpdir } = require('node:os');
    const { join } = require('node:path');
    const { Writable } = require('node:stream');
    const [dist, paths] = [process.argv[1], JSON.parse(process.argv[2])];
    const launcher = require(${JSON.stringify(join(root, 'bin', 'ahs.js'))});
    const bundle = launcher.loadBundle({ cache: false });
    const capture = async (argv, env = {}) => {
      let text = '';
      const out = new Writable({ write(chunk, _encoding, done) { text += chunk; done(); } });
      const err = new Writable({ write(_chunk, _encoding, done) { done(); } });
      const io = { out, err, in: process.stdin, outIsTTY: false, errIsTTY: false, inIsTTY: false, color: false, errColor: false, canPrompt: false, ci: false, env };
      return { code: await bundle.main(argv, { io }), text };
    };
    const help = async (argv) => {
      const { code, text } = await capture(argv);
      if (code !== 0) throw new Error('ahs ' + argv.join(' ') + ' exited ' + code);
      return text;
    };
    (async () => {
      const answers = {};
      for (const path of paths) answers[path.join(' ')] = await help([...path, '--help']);
      answers['help globals'] = await help(['help', 'globals']);
      writeFileSync(join(dist, 'answers.json'), JSON.stringify({ version: ${JSON.stringify(version)}, help: answers }));
      const config = mkdtempSync(join(tmpdir(), 'ahs-build-'));
      try {
        const refused = await capture(['asset', 'list', '--json', '--retries', '0', '--base-url', 'http://127.0.0.1:1', '--domain', 'd'], { AHS_CONFIG_DIR: config, AHS_API_KEY: 'build-key' });
        if (refused.code !== 6) throw new Error('the warm-up read exited ' + refused.code + ', expected 6 (connection refused)');
      } finally {
        rmSync(config, { recursive: true, force: true });
      }
      bundle.writeCache(join(dist, launcher.builtCacheName()));
    })().catch((error) => { console.error(error); process.exitCode = 1; });
  `;
  const paths = JSON.stringify(await commandPaths());
  execFileSync(process.execPath, ['-e', script, join(root, 'dist'), paths], { stdio: ['ignore', 'pipe', 'inherit'] });
}
