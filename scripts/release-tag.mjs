// `npm run release:tag`: tags a release whose commit carries its build, so
// that `npm install --global "git+URL#vX.Y.Z"` works (issue 36).
//
// npm installs a git dependency by running `prepare` in a clone, and a
// global install gives that clone no devDependencies (npm/cli#8440, npm 10
// and 11): our build (esbuild) cannot run there. So a release tag does not
// point at a commit of the branch but at one made from it: the same tree,
// plus dist/ as `npm run build` makes it, and a package.json without the
// scripts that make npm prepare a git dependency (prepare, prepack,
// postpack, build: pacote runs `npm install` in the clone when any of
// prepare, prepack, build or an install script is there). Installing such a
// tag builds nothing, needs no devDependency and adds one package, like a
// tarball. The branch, the index and the working tree are left as they are
// (the commit is made through a temporary index); the tag is local until
// pushed (`git push origin vX.Y.Z`).
//
//   node scripts/release-tag.mjs [TAG] [--no-build]
//   TAG: default v<version of package.json>; --no-build: tag the dist/ of
//   the last `npm run build` (`npm test` builds it) instead of building.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The scripts that make npm prepare a git dependency (pacote's git fetcher), and postpack, which goes with prepack. */
const PREPARING = ['prepare', 'prepack', 'postpack', 'build', 'preinstall', 'install', 'postinstall'];

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const named = args.filter((arg) => arg !== '--no-build');
try {
  const unknown = named.filter((arg) => arg.startsWith('-'));
  if (unknown.length > 0 || named.length > 1) throw new Error(`usage: node scripts/release-tag.mjs [TAG] [--no-build] (not ${[...unknown, ...named.slice(1)].join(' ')})`);
  console.log(await releaseTag(named[0], { build }));
} catch (error) {
  console.error(`error: release:tag: ${error.message.trim()}`);
  process.exit(1);
}

async function releaseTag(tagName, options) {
  const git = (gitArgs, extra = {}) => execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], ...extra }).trim();
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const tag = tagName ?? `v${manifest.version}`;
  if (git(['status', '--porcelain', '--untracked-files=no'])) throw new Error('the working tree has changes: commit them first (the tag is made from HEAD)');
  if (git(['tag', '--list', tag])) throw new Error(`the tag ${tag} exists already: bump the version in package.json, or delete the tag (git tag -d ${tag})`);
  if (options.build) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(join(root, 'dist', 'main.js'))) throw new Error('dist/ has no build: run npm run build, or leave out --no-build');

  for (const name of PREPARING) delete manifest.scripts?.[name];
  const work = await mkdtemp(join(tmpdir(), 'ahs-release-'));
  try {
    const env = { ...process.env, GIT_INDEX_FILE: join(work, 'index') };
    git(['read-tree', 'HEAD'], { env });
    // Not the single executable (dist/ahs-linux-x64, 130 MB), which npm never installs, nor the code
    // caches, good for the builder's Node and CPU only (each user's first run makes its own).
    git(['add', '--force', '--', 'dist', ':(exclude)dist/ahs-linux-*', ':(exclude)dist/**/*.v8cache', ':(exclude)dist/*.v8cache'], { env });
    const blob = git(['hash-object', '-w', '--stdin'], { input: `${JSON.stringify(manifest, null, 2)}\n` });
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},package.json`], { env });
    const tree = git(['write-tree'], { env });
    const head = git(['rev-parse', 'HEAD']);
    const commit = git(['commit-tree', tree, '-p', head, '-m', `release ${tag}: ${head.slice(0, 12)} with its build (dist/), installable from git with no build step`]);
    git(['tag', tag, commit]);
    return `tagged ${tag} (${commit.slice(0, 12)}: ${head.slice(0, 12)} and its dist/); publish it with: git push origin ${tag}`;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
