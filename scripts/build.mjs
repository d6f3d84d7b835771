// Bundles src/ into dist/main.js with esbuild: one CommonJS file, which
// bin/ahs.js compiles with V8's code cache (issue 14: split ES modules cost
// `ahs asset list --json` 32 ms of compiling; a code cache needs a script).
// Each command's module stays unevaluated until the command runs (esbuild
// wraps it in a lazy initialiser); the libraries only some commands use
// (undici, zod, conf, inquirer, ora, busboy, jmespath) are files of their own
// in dist/vendor/, read only when first required (VENDORS below).
// Then, loading the bundle as bin/ahs.js does, writes dist/answers.json (the
// version and every command's --help text, which bin/ahs.js prints without
// loading the bundle) and a code cache beside each script
// (dist/main-NODEVERSION-ARCH.v8cache, dist/vendor/zod-NODEVERSION-ARCH.v8cache...),
// for this checkout's own runs. A tarball and a release tag leave the caches
// out (package.json's files, scripts/release-tag.mjs): made for one Node on
// one CPU, they are dead weight elsewhere; a user's first run makes its own.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { common, lazyUnusedModules, noEditorPrompt, root, version } from './bundle.mjs';
import { writeSbom } from './sbom.mjs';
import { writeLibraryDeclarations } from './library-declarations.mjs';

await rm(`${root}dist`, { recursive: true, force: true });
await mkdir(`${root}dist`);
// The package is "type": "module"; the bundle is CommonJS.
await writeFile(`${root}dist/package.json`, '{ "type": "commonjs" }\n');
/**
 * The libraries only some commands use, each built into a file of its own,
 * dist/vendor/NAME.js, which the main bundle requires when a command first
 * imports it: every start reads, and V8 deserialises the code cache of, the
 * main bundle whole. Out of it, 1.72 -> 0.9 MB, `ahs asset list --json` took
 * ~6 ms less (issue 14). Each is self-contained (a library shares no state
 * with src/); the one module of ours among them, src/http/undici.ts, only
 * re-exports undici's parts. The CommonJS loader compiles them when needed.
 */
const VENDORS = {
  undici: { entry: 'src/http/undici.ts', imported: (path, resolveDir) => /[\\/]src[\\/]http$/.test(resolveDir) ? path === './undici.js' : path === '../http/undici.js' },
  conf: { entry: 'conf' },
  prompts: { entry: '@inquirer/prompts' },
  ora: { entry: 'ora' },
  busboy: { entry: 'busboy' },
  jmespath: { entry: 'jmespath' },
  // Requests are checked with it before sending; a read checks its list
  // envelope without it (http/paging.ts).
  zod: { entry: 'zod' },
  // The desired-state file's parser (ahs plan, apply, export): 100 kB that no other command loads.
  yaml: { entry: 'yaml' },
};

// The CLI's bundle (its libraries, then its answers and code caches, which
// load both) and the library's bundle and declarations at the same time:
// 2.0 -> 1.7 s of `npm test`'s wall time before the suite starts (issue 34).
// Both to their end before a failure is reported: the other half's writes never outlive the build.
const halves = await Promise.allSettled([buildCli(), buildLibrary()]);
const failure = halves.find((half) => half.status === 'rejected');
if (failure) throw failure.reason;
// What dist/ bundles, from the bundles' inputs and the lockfile: dist/sbom.cdx.json (npm run audit reads it).
await writeSbom(halves.flatMap((half) => half.value));

/** The CLI's bundles; resolves with their esbuild metafiles. */
async function buildCli() {
  // The main bundle reads the built libraries' exports (vendorsApart).
  const vendors = await buildVendors();
  const main = await buildMain();
  await mustBeAscii('dist/main.js');
  await writeAnswersAndCache();
  return [vendors.metafile, main.metafile];
}

function buildVendors() {
  return build({
    ...common,
    entryPoints: Object.fromEntries(Object.entries(VENDORS).map(([name, { entry }]) => [name, entry])),
    outdir: 'dist/vendor',
    metafile: true,
    // No rewriting of a library's source to save a millisecond or two (issue 30): zod's locales left out
    // and undici without node:http2 measured 1.7 and 3 ms of CPU of `ahs asset list --json`, under the
    // 5 ms that would keep them; commander's eager node:child_process, 1 to 3 ms, went with them.
    plugins: [noEditorPrompt(), lazyUnusedModules()],
  });
}

function buildMain() {
  return build({
    ...common,
    entryPoints: ['src/main.ts'],
    outfile: 'dist/main.js',
    // AHS_BUILD_SOURCEMAP=1: dist/main.js.map, to read a --cpu-prof of the bundle by source file (bench/README.md).
    sourcemap: process.env.AHS_BUILD_SOURCEMAP ? 'external' : false,
    metafile: true,
    define: { AHS_VERSION: JSON.stringify(version) },
    plugins: [lazyUnusedModules(), vendorsApart()],
  });
}

/** Runs node ARGS to its end; rejects naming `what` when it fails. */
function runNode(what, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, options);
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} ended with ${signal ?? `exit ${code}`}`))));
  });
}

/** bin/ahs.js reads the bundle as latin1, which is right only for ASCII: a character beyond it would be read as two or three wrong ones. */
async function mustBeAscii(path) {
  const bytes = await readFile(join(root, path));
  const at = bytes.findIndex((byte) => byte > 0x7f);
  if (at >= 0) throw new Error(`${path} has a character beyond ASCII at byte ${at} (near ${JSON.stringify(bytes.subarray(Math.max(0, at - 40), at + 10).toString('utf8'))}): write it as a \\u escape in the source (esbuild escapes those of strings, not of regular expressions)`);
}

function vendorsApart() {
  const byPackage = new Map(Object.entries(VENDORS).filter(([, { imported }]) => !imported).map(([name, { entry }]) => [entry, name]));
  const requireBuilt = createRequire(join(root, 'dist', 'main.js'));
  return {
    name: 'vendors-apart',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === 'vendor') return { path: args.path, external: true };
        const name = byPackage.get(args.path) ?? Object.entries(VENDORS).find(([, { imported }]) => imported?.(args.path, args.resolveDir))?.[0];
        return name ? { path: name, namespace: 'vendor' } : undefined;
      });
      // An ES module of the library's exports over its file: the importers
      // (ES modules) get `default` and the named exports as they would from
      // the package itself, whatever esbuild's CommonJS interop makes of it.
      b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => {
        const file = `./vendor/${args.path}.js`;
        const names = Object.keys(requireBuilt(file)).filter((name) => name !== 'default' && name !== '__esModule' && /^[A-Za-z_$][\w$]*$/.test(name));
        return {
          contents: [
            `const library = require(${JSON.stringify(file)});`,
            'export default library.__esModule ? library.default : library;',
            names.length ? `export const { ${names.join(', ')} } = library;` : '',
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}

/**
 * The library (`import { createClient } from 'ahs-cli'`, package.json
 * "exports"): dist/lib.mjs, an ES module of src/library/ that a person can
 * read and a bundler can take (issue 35): self-contained (its libraries
 * bundled in, no require of dist/vendor/), unminified with a source map,
 * split so that what a call needs (zod, undici, a command's plan) is a chunk
 * of dist/lib-chunks/ loaded by import() when first used (importing it
 * takes ~15 ms). No top-level await: `require('ahs-cli')` loads it too
 * (Node >= 20.19). It never loads commander or the CLI's start-up (checked
 * here), and its declarations in dist/types/ are emitted from the public
 * types alone (a whole-program emit took 30 s): every file they import must
 * be one of them, so that no internal module or bundled package leaks in.
 */
async function buildLibrary() {
  const bundled = await build({
    ...common,
    minifyWhitespace: false,
    minifySyntax: false,
    // error.name is the class's own (ConflictError, not _ConflictError) in a caller's logs.
    keepNames: true,
    supported: {},
    format: 'esm',
    splitting: true,
    // Lines of the bundle map to src/ (node --enable-source-maps); the sources themselves are not shipped.
    sourcemap: 'linked',
    sourcesContent: false,
    entryPoints: { lib: 'src/library/index.ts' },
    outdir: 'dist',
    chunkNames: 'lib-chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    define: { AHS_VERSION: JSON.stringify(version) },
    // The bundled CommonJS libraries require Node's built-in modules; an ES module has no require of its own.
    banner: { js: "import { createRequire as createRequireOfAhs } from 'node:module'; const require = createRequireOfAhs(import.meta.url);" },
    metafile: true,
    plugins: [noEditorPrompt()],
  });
  // `require('ahs-cli')` (package.json "exports" "require", and "main" for node10): the ES module itself,
  // which Node >= 20.19 requires (no top-level await), behind a file of CommonJS that TypeScript and attw see as such.
  await writeFile(join(root, 'dist', 'lib.cjs'), "'use strict';\nmodule.exports = require('./lib.mjs');\n");
  const staticallyLoaded = staticInputs(bundled.metafile, 'src/library/index.ts');
  const eager = [...staticallyLoaded].filter((input) => input.includes('node_modules/'));
  if (eager.length > 0) throw new Error(`importing dist/lib.mjs would load ${eager.join(', ')} at once: load it with import() where it is used (src/library/ imports only what every call needs)`);
  const cli = Object.keys(bundled.metafile.inputs).filter((input) => /node_modules[\\/]commander[\\/]|^src[\\/](main|program)\.ts$|^src[\\/]commands[\\/]tree\.ts$/.test(input));
  if (cli.length > 0) throw new Error(`dist/lib.mjs would load the CLI's parser or start-up: ${cli.join(', ')} (src/library/ must not import them)`);
  const PUBLIC = ['src/library/index.ts', 'src/library/client.ts', 'src/library/types.ts', 'src/errors.ts'];
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const types = join(root, 'dist', 'types');
  await runNode('the declarations (tsc)', [tsc, '--ignoreConfig', '--declaration', '--emitDeclarationOnly', '--stripInternal', '--noResolve', '--noCheck', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--types', 'node', '--rootDir', 'src', '--outDir', types, ...PUBLIC], { cwd: root, stdio: 'inherit' });
  // types.ts re-exports the operations' types: written out whole, so that nothing below names an internal module.
  await writeLibraryDeclarations(root);
  for (const file of await declarationFiles(types)) {
    const text = await readFile(file, 'utf8');
    for (const [, specifier] of text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)) {
      const target = specifier.startsWith('.') ? relative(root, resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts'))) : specifier;
      const shipped = PUBLIC.map((path) => join('dist', 'types', path.slice('src/'.length).replace(/\.ts$/, '.d.ts')));
      if (!shipped.includes(target)) throw new Error(`${relative(root, file)} imports ${specifier}: the library's declarations may name only ${PUBLIC.join(', ')}`);
    }
  }
  await declarationScopes(types);
  return [bundled.metafile];
}

/**
 * The declarations in the module system of the file each describes (issue
 * 47; attw's "Masquerading as CJS"): dist/package.json makes dist/ CommonJS
 * for the CLI's bundle, so dist/types/ gets a scope of its own, "type":
 * "module", where the .d.ts describe dist/lib.mjs (`import`: a default
 * import is a compile-time error, never a run-time crash); and each has a
 * .d.cts twin, its imports of ./X.js turned to ./X.cjs, for dist/lib.cjs
 * (`require`, and node10's "types").
 */
async function declarationScopes(types) {
  await writeFile(join(types, 'package.json'), '{ "type": "module" }\n');
  for (const file of await declarationFiles(types)) {
    if (!file.endsWith('.d.ts')) continue;
    const text = await readFile(file, 'utf8');
    const cjs = text.replace(/(\bfrom\s+['"]\.{1,2}\/[^'"]+)\.js(['"])/g, '$1.cjs$2');
    await writeFile(file.replace(/\.d\.ts$/, '.d.cts'), cjs);
  }
}

/** The inputs an entry loads when it is imported: its static imports, transitively (not those behind import()). */
function staticInputs(metafile, entry) {
  const seen = new Set();
  const stack = [entry];
  while (stack.length > 0) {
    const input = stack.pop();
    if (seen.has(input)) continue;
    seen.add(input);
    for (const target of metafile.inputs[input]?.imports ?? []) if (!target.external && target.kind !== 'dynamic-import') stack.push(target.path);
  }
  return seen;
}

async function declarationFiles(folder) {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
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
 * client, zod's schemas; and the bench's read, `asset list` (--json and the
 * table), answered by a server of its own with a page of two assets, so that
 * it holds what a read compiles after the request too: reading the answer,
 * paging, printing, redacting (issue 46: a read 4% less CPU than with the
 * refused one alone). Then it loads each library of dist/vendor/ and
 * writes a cache beside each script (dist/main-NODE-ARCH.v8cache,
 * dist/vendor/zod-NODE-ARCH.v8cache...). Its requests leave V8's flags as
 * they are (AHS_BUILD_WARM_UP: no --liftoff-only), since V8 refuses a cache
 * made under other flags.
 */
async function writeAnswersAndCache() {
  const script = `
    const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
    const { tmpdir } = require('node:os');
    const { join } = require('node:path');
    const { Writable } = require('node:stream');
    const [dist, paths, vendors] = [process.argv[1], JSON.parse(process.argv[2]), JSON.parse(process.argv[3])];
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
        // A list (its envelope checked without zod), then a read whose module builds the zod schemas.
        for (const argv of [['asset', 'list', '--json'], ['asset', 'get', 'A']]) {
          const refused = await capture([...argv, '--retries', '0', '--timeout', '5', '--base-url', 'http://127.0.0.1:1', '--domain', 'd'], { AHS_CONFIG_DIR: config, AHS_API_KEY: 'build-key', AHS_BUILD_WARM_UP: '1' });
          if (refused.code !== 6) throw new Error('the warm-up ahs ' + argv.join(' ') + ' exited ' + refused.code + ', expected 6 (connection refused)');
        }
        // And a read that gets its answer (a page of two assets from a server of this process): what a
        // read runs after the request (the answer's reading, paging, printing, the redactor) compiled too.
        const page = JSON.stringify({ totalResults: 2, pageNumber: 1, pageSize: 50, results: [0, 1].map((n) => ({ assetId: 'a-' + n, assetName: 'A ' + n, assetType: '1001', secured: true, localCacheControl: false, localCacheMaxAge: 30, createdBy: 'build@ahs.test' })) });
        const server = require('node:http').createServer((request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(page));
        await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          for (const argv of [['asset', 'list', '--json'], ['asset', 'list']]) {
            const read = await capture([...argv, '--base-url', 'http://127.0.0.1:' + server.address().port, '--domain', 'd'], { AHS_CONFIG_DIR: config, AHS_API_KEY: 'build-key', AHS_BUILD_WARM_UP: '1' });
            if (read.code !== 0 || !read.text.includes('a-1')) throw new Error('the warm-up ahs ' + argv.join(' ') + ' exited ' + read.code + ': ' + read.text);
          }
        } finally {
          server.close();
        }
      } finally {
        rmSync(config, { recursive: true, force: true });
      }
      for (const name of vendors) bundle.load('./vendor/' + name + '.js');
      bundle.writeCaches();
    })().catch((error) => { console.error(error); process.exitCode = 1; });
  `;
  const paths = JSON.stringify(await commandPaths());
  // Without the builder's NODE_OPTIONS: V8 refuses a cache made under other flags (--max-old-space-size...), and every user would.
  const env = { ...process.env, NODE_OPTIONS: '' };
  await runNode('the answers and code caches', ['-e', script, join(root, 'dist'), paths, JSON.stringify(Object.keys(VENDORS))], { stdio: ['ignore', 'ignore', 'inherit'], env });
}
