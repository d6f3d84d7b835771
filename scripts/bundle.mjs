// What both bundles of src/ share: dist/main.js (scripts/build.mjs, run by
// bin/ahs.js) and the single executable's script (scripts/build-sea.mjs):
// esbuild's options, and the one plugin that leaves out a module ahs never
// uses (no library's source is rewritten: issue 30).
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const version = process.env.npm_package_version ?? (await import(`${root}package.json`, { with: { type: 'json' } })).default.version;

export const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  // import() of a built-in (node:https, node:v8) becomes a require: neither a
  // script compiled by node:vm nor a single executable's has a loader for
  // import() (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
  supported: { 'dynamic-import': false },
  // Every start reads and decodes the whole file: 3.7 -> 2.6 MB took 6 ms off
  // `ahs asset list --json`. Names stay (stack traces with AHS_DEBUG).
  minifyWhitespace: true,
  minifySyntax: true,
};

/**
 * @inquirer/prompts re-exports its editor prompt, which brings iconv-lite and
 * chardet: 540 KB of the bundle (read and decoded on every start), for a
 * prompt ahs never shows (src/io/prompt.ts, commands/fetch/browse.ts).
 */
export function noEditorPrompt() {
  return {
    name: 'no-editor-prompt',
    setup(b) {
      b.onResolve({ filter: /^@inquirer\/editor$/ }, () => ({ path: 'editor', namespace: 'no-editor-prompt' }));
      b.onLoad({ filter: /.*/, namespace: 'no-editor-prompt' }, () => ({
        contents: "export default function editor() { throw new Error('the editor prompt is not part of the ahs bundle (scripts/bundle.mjs)'); }",
        loader: 'js',
      }));
    },
  };
}

/**
 * Two modules every read evaluated and no read runs (issue 46, a read in 2x
 * `node -e 0`): commander's `node:child_process` (for executable
 * subcommands, which ahs has none of: 9 ms of CPU of a loaded machine's
 * `node -e "require('node:child_process')"`, 3 quiet) and undici's HTTP/2
 * client with `node:http2` (for a server that offers h2 by ALPN, which
 * undici asks for only with `allowH2`, never set here: 20 and 6 ms). Each
 * stays in the bundle, its source as it is, and is evaluated on its first
 * use instead of at load: commander gets an object that requires
 * child_process when a property is read, undici's client a connectH2 that
 * requires its module when called.
 */
export function lazyUnusedModules() {
  return {
    name: 'lazy-unused-modules',
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
        contents: "let loaded; const get = () => (loaded ??= require('node:child_process')); module.exports = new Proxy({}, { get: (_, key) => get()[key], has: (_, key) => key in get() });",
        loader: 'js',
      }));
      b.onResolve({ filter: /^\.\/client-h2\.js$/ }, async (args) => {
        if (args.namespace === 'lazy-h2' || !/[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)) return undefined;
        const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, namespace: 'lazy-h2-real' });
        return { path: real.path, namespace: 'lazy-h2' };
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (args) => ({
        contents: `module.exports = function connectH2(...args) { return require(${JSON.stringify(args.path)})(...args); };`,
        loader: 'js',
        resolveDir: args.path.replace(/[\\/][^\\/]*$/, ''),
      }));
    },
  };
}
