// Bundles src/ into dist/ with esbuild. Code splitting keeps each command's
// module (and undici, zod, inquirer, ora, conf) off the --help/--version path.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
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
  define: { AHS_VERSION: JSON.stringify(process.env.npm_package_version ?? (await import(`${root}package.json`, { with: { type: 'json' } })).default.version) },
});
