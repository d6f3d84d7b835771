#!/usr/bin/env node
// `npm run demo`: a whole release through the real `ahs` binary against the
// embedded emulator. Starts `ahs emulator start --port 0 --json`, points ahs at
// it through AHS_* variables (demo key, temporary config folder), prints each
// command before its output, and leaves nothing behind: the emulator is
// stopped and the temporary folder removed, even on failure or Ctrl-C.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'ahs.js');
const tty = Boolean(process.stdout.isTTY) && process.env.NO_COLOR === undefined;
const bold = (text) => (tty ? `\x1b[1m${text}\x1b[22m` : text);
const dim = (text) => (tty ? `\x1b[2m${text}\x1b[22m` : text);
const cyan = (text) => (tty ? `\x1b[36m${text}\x1b[39m` : text);

const work = await mkdtemp(join(tmpdir(), 'ahs-demo-'));
let emulator;
let stopping = false;

async function cleanup() {
  if (stopping) return;
  stopping = true;
  if (emulator && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator.once('exit', resolve));
    emulator.kill('SIGTERM');
    const timer = setTimeout(() => emulator.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  await rm(work, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanup().finally(() => process.exit(130));
  });
}

function heading(text) {
  process.stdout.write(`\n${bold(cyan(`## ${text}`))}\n`);
}

function quote(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Shows a path in the temporary folder as `$DEMO/...`. */
function shown(word) {
  return word.startsWith(work) ? `$DEMO${word.slice(work.length)}` : word;
}

function shownArg(word) {
  return word.startsWith(work) ? `$DEMO${quote(word.slice(work.length))}` : quote(word);
}

/**
 * Runs `ahs ARGS` with the demo environment, printing the command first.
 * Output goes straight to the terminal unless `capture` (then it is echoed and returned).
 */
function ahs(args, { env, capture = false, expectExit = 0 } = {}) {
  process.stdout.write(`\n${bold(`$ ahs ${args.map(shownArg).join(' ')}`)}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== expectExit) reject(new Error(`ahs ${args.join(' ')} exited ${code}, expected ${expectExit}`));
      else {
        if (expectExit !== 0) process.stdout.write(dim(`(exit status ${code}, as predicted)\n`));
        resolve(stdout);
      }
    });
  });
}

async function startEmulator() {
  process.stdout.write(`${bold('$ ahs emulator start --port 0 --json')}  ${dim('(in the background)')}\n`);
  emulator = spawn(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the emulator did not report ready within 30 s')), 30_000);
    emulator.once('exit', (code) => reject(new Error(`the emulator exited early (${code})`)));
    createInterface({ input: emulator.stdout }).once('line', (text) => {
      clearTimeout(timer);
      resolve(text);
    });
  });
  process.stdout.write(`${line}\n`);
  return JSON.parse(line);
}

async function main() {
  heading('Start the embedded emulator (demo domain, key and user built in)');
  const { baseUrl, deliveryUrl } = await startEmulator();

  const configDir = join(work, 'config');
  const files = join(work, 'files');
  await mkdir(configDir);
  await mkdir(files);
  const settings = {
    AHS_BASE_URL: baseUrl,
    AHS_DELIVERY_URL: deliveryUrl,
    AHS_DOMAIN: 'demo',
    AHS_API_KEY: 'demo-key',
    AHS_USER: 'owner@demo.test',
    AHS_ENV: 'prod',
    AHS_CONFIG_DIR: configDir,
  };
  const env = { ...process.env, ...settings };
  for (const name of ['AHS_PROFILE', 'AHS_PLATFORM']) delete env[name];
  process.stdout.write(`\n${dim('Settings come from the environment for this demo ($DEMO is a temporary folder):')}\n`);
  for (const [name, value] of Object.entries(settings)) process.stdout.write(dim(`  export ${name}=${shown(value)}\n`));

  heading('Create an asset and upload a first version for iOS');
  await ahs(['asset', 'create', 'hello-bundle', '--name', 'Hello bundle', '--type', '1001', '--description', 'the demo app bundle'], { env });
  const v1File = join(files, 'hello-1.0.0.zip');
  const v2File = join(files, 'hello-1.1.0.zip');
  await writeFile(v1File, Buffer.alloc(48 * 1024, 1));
  await writeFile(v2File, Buffer.alloc(64 * 1024, 2));
  const first = JSON.parse(await ahs(['version', 'upload', 'hello-bundle', v1File, '--platform', 'ios', '--name', '1.0.0', '--json'], { env, capture: true }));

  heading('Deploy it LIVE in prod, then make it the Default of the channel');
  await ahs(['deploy', 'hello-bundle', first.versionId, '--platform', 'ios', '--env', 'prod'], { env });
  await ahs(['promote-default', 'hello-bundle', first.versionId, '--platform', 'ios', '--env', 'prod'], { env });

  heading('Ship 1.1.0: upload and promote it; the previous Default is demoted to LIVE');
  const second = JSON.parse(await ahs(['version', 'upload', 'hello-bundle', v2File, '--platform', 'ios', '--name', '1.1.0', '--json'], { env, capture: true }));
  await ahs(['promote-default', 'hello-bundle', second.versionId, '--platform', 'ios', '--env', 'prod', '--make-live'], { env });

  heading('Every deployment record of the asset');
  await ahs(['asset', 'status', 'hello-bundle'], { env });

  heading('A collection: create it, upload three items, deploy it, fetch it');
  await ahs(['collection', 'create', 'launch-pack', '--name', 'Launch pack', '--allowed-types', '9999', '--description', 'files for the launch'], { env });
  const items = [
    ['config.json', '{"feature":"launch","enabled":true}\n'],
    ['banner.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n'],
    ['notes.txt', 'Release notes for 1.1.0\n'],
  ];
  for (const [name, text] of items) await writeFile(join(files, name), text);
  await ahs(['item', 'upload', 'launch-pack', ...items.map(([name]) => join(files, name)), '--type', '9999'], { env });
  await ahs(['collection-deploy', 'launch-pack', '--env', 'prod'], { env });
  const downloads = join(work, 'downloads');
  await ahs(['fetch', 'launch-pack', '--env', 'prod', '--dir', downloads], { env });
  const fetched = (await readdir(downloads, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  process.stdout.write(dim(`fetched: ${fetched.map((entry) => relative(downloads, join(entry.parentPath ?? entry.path, entry.name))).sort().join(', ')}\n`));

  heading('Dry run: would taking the Default back to LIVE be accepted? (no: the service answers 400)');
  await ahs(['deploy', 'hello-bundle', second.versionId, '--platform', 'ios', '--env', 'prod', '--state', 'LIVE', '--dry-run'], { env, expectExit: 1 });

  heading('Done');
  process.stdout.write('The emulator is stopped and the temporary folder removed. Next: `npm test`, `ahs --help`, `man ./man/ahs.1`.\n');
}

try {
  await main();
  await cleanup();
} catch (error) {
  process.stderr.write(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  await cleanup();
  process.exitCode = 1;
}
