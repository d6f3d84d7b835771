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
