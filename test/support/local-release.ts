// A local stand-in for the project's git host: a repository holding the
// project as it is now (the files of its working tree that git would
// commit), with a release tag made by scripts/release-tag.mjs, as a release
// engineer tags one. The README's recipes name the repository as
// `git+https://git.example.com/tools/ahs-cli.git#vX.Y.Z`; tests run them
// as printed with that URL replaced by this repository's `file://` URL.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, cp, mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { inject } from 'vitest';
import { ROOT, assertFreshBuild } from '../e2e/helpers.js';

/** The repository's URL in the README's recipes. */
export const README_REPO_URL = 'https://git.example.com/tools/ahs-cli.git';
export const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const GIT_ENV = { GIT_AUTHOR_NAME: 'ahs tests', GIT_AUTHOR_EMAIL: 'tests@ahs.invalid', GIT_COMMITTER_NAME: 'ahs tests', GIT_COMMITTER_EMAIL: 'tests@ahs.invalid', GIT_CONFIG_NOSYSTEM: '1' };

export interface LocalRelease {
  /** The repository's working tree (node_modules a link to the project's, for scripts that build). */
  dir: string;
  /** `file://DIR`: README_REPO_URL's stand-in. */
  url: string;
  /** The release tag, v<version>. */
  tag: string;
}

/**
 * Makes DIR (under `work`) a repository of the project on branch main, and
 * tags v<version> with scripts/release-tag.mjs --no-build, its dist/ being
 * the project's fresh build (assertFreshBuild): no build runs here.
 */
export async function localRelease(work: string): Promise<LocalRelease> {
  assertFreshBuild();
  const dir = join(work, 'ahs-cli');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    // A file deleted in the working tree but not yet from the index.
    if (!existsSync(join(ROOT, file))) continue;
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await cp(join(ROOT, file), join(dir, file));
  }
  await cp(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true, filter: (source) => !/ahs-linux-/.test(source) });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  // Objects stored and served uncompressed, without deltas: npm clones the
  // tag twice per install (its manifest, then the files), and zlib and the
  // delta search over dist/ were a third of each install's CPU (issue 34).
  for (const [key, value] of [['core.compression', '0'], ['pack.compression', '0'], ['pack.window', '0']]) git('config', key!, value!);
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await appendFile(join(dir, '.git', 'info', 'exclude'), 'node_modules\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'ahs as tested');
  execFileSync(process.execPath, [join(dir, 'scripts', 'release-tag.mjs'), '--no-build'], { cwd: dir, env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
  return { dir, url: `file://${dir}`, tag: `v${VERSION}` };
}

/**
 * The one local release of the whole run (issue 34: copying the project,
 * committing it and tagging it was done by each packaging file), in the
 * suite's shared folder (test/support/shared-tmp.ts). Callers may run their
 * own commands in its working tree (npm pack, the link) but leave its
 * branch, tag and tracked files as they were.
 */
export function sharedRelease(): Promise<LocalRelease> {
  return oncePerRun('release', (dir) => localRelease(dir));
}

/** What a global install printed, and the prefix it installed into. */
export interface GlobalInstall {
  line: string;
  prefix: string;
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/**
 * One global install from the release tag for the whole run (issue 34): the
 * README's Install line (packaging.test.ts) and the CI example's install
 * step (docs/ci-example.test.ts) are the same line, `npm install --global
 * "git+URL#vX.Y.Z"`; it is run once, as printed (the URL replaced by the
 * local release's), under bash, into a prefix of its own, and both files
 * read what it printed and run the `ahs` it installed. A line that differs
 * is another install of its own. Nothing writes into the prefix afterwards.
 */
export function sharedGlobalInstall(line: string): Promise<GlobalInstall> {
  const key = createHash('sha256').update(line).digest('hex').slice(0, 12);
  return oncePerRun(`global-install-${key}`, async (dir) => {
    const release = await sharedRelease();
    const prefix = join(dir, 'prefix');
    const env = { ...process.env, ...NPM_ENV, npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` };
    const run = await execa('bash', ['-eo', 'pipefail', '-c', line.replaceAll(README_REPO_URL, release.url)], { cwd: dir, env, reject: false, stdin: 'ignore' });
    return { line, prefix, exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr };
  });
}

/**
 * `make(dir)` run once for the whole run of the suite, whichever worker asks
 * first, in DIR = the shared folder's `name`: its mkdir is the lock; the
 * other callers poll for the file it writes when done, with the value or
 * the error, and get the same value.
 */
async function oncePerRun<T>(name: string, make: (dir: string) => Promise<T>): Promise<T> {
  const shared = join(inject('sharedTmp'), name);
  const done = join(shared, 'done');
  let mine = true;
  try {
    await mkdir(shared);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    mine = false;
  }
  // Written whole, then renamed: a reader never sees half of it.
  const answer = async (value: object) => {
    await writeFile(`${done}.part`, JSON.stringify(value));
    await rename(`${done}.part`, done);
  };
  if (mine) {
    try {
      const value = await make(shared);
      await answer({ value });
      return value;
    } catch (error) {
      await answer({ error: String((error as Error).stack ?? error) });
      throw error;
    }
  }
  // Polled, not slept on: the state is the file; 10 minutes is far past the ~2 s to ~20 s these take.
  for (const start = Date.now(); Date.now() - start < 600_000; await delay(50)) {
    const text = await readFile(done, 'utf8').catch(() => null);
    if (text === null) continue;
    const made = JSON.parse(text) as { value?: T; error?: string };
    if ('value' in made) return made.value as T;
    throw new Error(`the shared ${name} failed in another test file: ${made.error}`);
  }
  throw new Error(`the shared ${name} was not ready in 10 minutes (${done})`);
}

/** The environment of an npm run by a test: no update check, audit or fund notice, the cache preferred to the registry. */
export const NPM_ENV = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_prefer_offline: 'true' };
