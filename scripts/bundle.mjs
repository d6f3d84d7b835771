// What both bundles of src/ share: dist/main.js (scripts/build.mjs, run by
// bin/ahs.js) and the single executable's script (scripts/build-sea.mjs):
// esbuild's options and the plugins that keep libraries' unused parts out.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
 * zod's namespace (`import { z } from 'zod'`) carries its 50 message
 * locales: 361 KB of the 756 KB zod chunk, compiled on every command that
 * checks an answer. ahs speaks English only (zod's default), so the locales
 * index keeps `en` alone: the chunk costs about half.
 */
export function englishOnlyZod() {
  return {
    name: 'english-only-zod',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer) ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: "export { default as en } from './en.js';", resolveDir: join(args.path, '..'), loader: 'js' }));
    },
  };
}

/**
 * undici requires node:http2 when it loads, for HTTP/2 connections (its
 * `allowH2`), which ahs never asks for; node:http2 brings node:tls with it:
 * about 5 ms of every upload's start, before its connection (bench/README.md,
 * "The upload's pace"). undici keeps going without the module, as on a Node
 * built without it.
 */
export function undiciWithoutHttp2() {
  const eager = "http2 = require('node:http2')";
  return {
    name: 'undici-without-http2',
    setup(b) {
      b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(eager)) throw new Error(`undici changed: ${args.path} no longer has ${eager} (scripts/bundle.mjs)`);
        return { contents: source.replace(eager, "throw new Error('HTTP/2 is not part of the ahs bundle (scripts/bundle.mjs)')"), loader: 'js' };
      });
    },
  };
}

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
