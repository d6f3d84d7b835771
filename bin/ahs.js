#!/usr/bin/env node
// Launcher: everything lives in the bundle; the exit code is main's answer.
// CommonJS (bin/package.json): Node starts a CommonJS file about 7 ms sooner
// than an ES module. Start-up figures of issue 14 (bench/README.md):
// - `--version`, and a command's help when stdout is not a terminal, come
//   from dist/answers.json (written at build time by the bundle itself, see
//   scripts/build.mjs) without loading the bundle. In a terminal commander
//   wraps help to its width, so the bundle prints it.
// - The bundle (one CommonJS file) is compiled with V8's code cache made at
//   build time (dist/main-NODEVERSION-ARCH.v8cache): `ahs asset list --json`
//   took 100 ms, 32 of them compiling the split ES modules; with the cache,
//   73 ms. The libraries of dist/vendor/ are compiled the same way, each
//   with its own cache, when the bundle first requires one. Under another
//   Node, the first run leaves caches in the user's cache folder
//   (~/.cache/ahs) for the next ones.
'use strict';
const { fstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, writeSync } = require('node:fs');
const { dirname, join } = require('node:path');

const DIST = join(__dirname, '..', 'dist');
const MAIN = join(DIST, 'main.js');

if (require.main === module) {
  const argv = process.argv.slice(2);
  const answer = quickAnswer(argv);
  if (answer !== undefined) {
    printQuickly(answer);
  } else {
    const bundle = loadBundle();
    bundle.main(argv).then((code) => {
      process.exitCode = code;
      bundle.keepCache();
    });
  }
} else {
  // scripts/build.mjs loads the bundle the same way to write the answers and the cache.
  module.exports = { loadBundle };
}

/** The text main() would print for `--version` or a command's help, or undefined. */
function quickAnswer(args) {
  // Every run appends its line to AHS_OUTPUT_FILE, --version and help included: main() writes it.
  if (process.env.AHS_OUTPUT_FILE) return undefined;
  const version = args.length === 1 && (args[0] === '--version' || args[0] === '-V');
  const key = helpKey(args);
  if (!version && (key === undefined || isTerminal(1))) return undefined;
  const answers = JSON.parse(readFileSync(join(DIST, 'answers.json'), 'utf8'));
  if (version) return `${answers.version}\n`;
  const text = answers.help[key];
  // main() redacts the API key from every line it prints.
  const apiKey = process.env.AHS_API_KEY?.trim();
  return apiKey && apiKey.length >= 4 && text?.includes(apiKey) ? undefined : text;
}

/**
 * Whether `fd` is a terminal. A pipe, a file or /dev/null is told by fstat;
 * only another character device needs the tty module, whose loading (with
 * net and stream) was 2 ms of a 20 ms `ahs --help` (issue 14).
 */
function isTerminal(fd) {
  const info = fstatSync(fd);
  if (!info.isCharacterDevice()) return false;
  try {
    if (info.rdev === statSync('/dev/null').rdev) return false;
  } catch {}
  return require('node:tty').isatty(fd);
}

/** `ahs help [COMMAND...]`, `ahs [COMMAND...] --help|-h`: "COMMAND..." ("" for the root). */
function helpKey(args) {
  if (args[0] === 'help') return args.length === 2 && args[1] === 'globals' ? 'help globals' : args.slice(1).join(' ');
  const last = args[args.length - 1];
  return last === '--help' || last === '-h' ? args.slice(0, -1).join(' ') : undefined;
}

/** Writes all of it, as main() does; a closed pipe (`ahs --help | head -1`) ends quietly, exit 0. */
function printQuickly(text) {
  const bytes = Buffer.from(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset);
  } catch (error) {
    // A non-blocking stdout that is full: let the stream wait for it.
    if (error.code === 'EAGAIN') process.stdout.write(bytes.subarray(offset));
    else if (error.code !== 'EPIPE') {
      // A full disk (`ahs --help > /dev/full`): one line and exit 1, as main() does.
      process.stderr.write(`error: cannot write the output: ${error.message}\n`);
      process.exitCode = 1;
    }
  }
}

/**
 * Runs dist/main.js as Node would, compiled with a V8 code cache, and each
 * library of dist/vendor/ (see scripts/build.mjs) the same way when the
 * bundle first requires it. Returns main's exports; `load(id)`, the bundle's
 * require; `writeCaches()`, which saves what V8 compiled so far of every
 * script loaded, next to it (the build does); and `keepCache()`, which saves
 * that, for the next run, into the user's cache folder for every script
 * whose cache was missing or refused.
 */
function loadBundle({ cache = true } = {}) {
  const vm = require('node:vm');
  const nodeRequire = require('node:module').createRequire(MAIN);
  const scripts = [];
  const vendors = new Map();
  const load = (id) => {
    if (!id.startsWith('./vendor/')) return nodeRequire(id);
    if (!vendors.has(id)) vendors.set(id, run(join(DIST, id)));
    return vendors.get(id);
  };
  const run = (file) => {
    // dist/main.js is ASCII (scripts/build.mjs checks): read as latin1, a copy,
    // where UTF-8 is decoded and checked: 0.45 of its 1.5 ms, on every start.
    const source = wrap(readFileSync(file, file === MAIN ? 'latin1' : 'utf8'));
    // A cache is tried only for this Node: a rejected one costs a whole compile.
    // The built cache is part of the install, like the script; the user's own
    // is looked for only when the built one is missing or refused, and checked.
    const candidates = cache ? [() => readIfThere(builtCachePath(file)), () => readIfMine(fallbackCachePath(file))] : [];
    let script;
    for (const read of candidates) {
      const cachedData = read();
      if (!cachedData) continue;
      script = new vm.Script(source, { filename: file, cachedData });
      if (!script.cachedDataRejected) break;
      script = undefined;
    }
    scripts.push({ file, accepted: script !== undefined, script: (script ??= new vm.Script(source, { filename: file })) });
    const module = { exports: {} };
    script.runInThisContext()(module.exports, load, module, file, dirname(file));
    return module.exports;
  };
  const exports = run(MAIN);
  const writeCache = (script, path) => {
    const temporary = `${path}.${process.pid}`;
    try {
      writeFileSync(temporary, script.createCachedData(), { mode: 0o644, flag: 'wx' });
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  };
  const writeCaches = () => {
    for (const { file, script } of scripts) writeCache(script, builtCachePath(file));
  };
  const keepCache = () => {
    // Not after undici set --liftoff-only: V8 refuses a cache made under other flags.
    if (!cache || globalThis[Symbol.for('ahs.v8-flags-changed')]) return;
    for (const { file, script, accepted } of scripts) {
      if (accepted) continue;
      try {
        const path = fallbackCachePath(file);
        makeCacheFolder(dirname(path));
        writeCache(script, path);
        removeOlderCaches(path);
      } catch {}
    }
  };
  /** Which scripts ran, and whether V8 took a cache for each (test/e2e/launcher.test.ts). */
  const cacheReport = () => scripts.map(({ file, accepted }) => ({ file, accepted }));
  return { ...exports, load, writeCaches, keepCache, cacheReport };
}

/** The cache scripts/build.mjs writes beside a script, for the Node that built it: dist/main-v20.20.2-x64.v8cache. */
function builtCachePath(file) {
  return `${file.replace(/\.js$/, '')}-${process.version}-${process.arch}.v8cache`;
}

/** CommonJS's module wrapper, so the bundle runs exactly as `require` would run it. */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
}

/**
 * One per Node and build of a script (V8 checks its own version and flags,
 * but of the source only its length), in the user's own cache folder: never
 * a shared one such as /tmp, where another user could plant code for V8 to run.
 */
function fallbackCachePath(file) {
  const { homedir } = require('node:os');
  const { basename, isAbsolute } = require('node:path');
  const { size, mtimeMs } = statSync(file);
  // The XDG spec: a relative XDG_CACHE_HOME is ignored.
  const xdg = process.env.XDG_CACHE_HOME;
  const folder = join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'ahs');
  return join(folder, `${size}-${Math.round(mtimeMs)}-${basename(builtCachePath(file))}`);
}

/** The cache folder and its parent, one at a time: a recursive mkdirSync under /proc never returns (Node 20). */
function makeCacheFolder(folder) {
  for (const path of [dirname(folder), folder]) {
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
}

/** The caches of earlier builds of the same script for this Node: one per script is kept. */
function removeOlderCaches(path) {
  const { basename } = require('node:path');
  const name = basename(path);
  const script = name.slice(name.indexOf('-', name.indexOf('-') + 1));
  for (const other of readdirSync(dirname(path))) {
    if (other !== name && other.endsWith(script) && /^\d+-\d+-/.test(other)) rmSync(join(dirname(path), other), { force: true });
  }
}

function readIfThere(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** The file, when it is this user's and nobody else may write it (a cache is code V8 runs). */
function readIfMine(path) {
  try {
    const info = statSync(path);
    const mine = typeof process.getuid !== 'function' || info.uid === process.getuid();
    return mine && (info.mode & 0o022) === 0 ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}
