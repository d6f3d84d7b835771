#!/usr/bin/env node
// The journal's reads cost pages, not entries (issue 42, cli.md "Memory"):
// journals of 1,000 and 5,000 entries in the emulator (in memory), read
// through bench/latency-proxy.mjs by the built binary: `ahs history` of the
// whole journal, a day's range (--since 1d, measured on the service's
// clock), and `ahs rollout status` of a version uploaded after them. For
// each: the requests sent (at no delay) and the rounds (the longest chain of
// requests that waited for one another, at --delay ms each way).
// Targets: history of 5,000 <= 20 requests; a day's range <= 4 rounds;
// rollout status <= 8 requests on 5,000.
//
//   npm run build && node bench/journal.mjs [--delay 50] [--sizes 1000,5000] [--requests]
// (--requests prints each request of the runs on stderr: at no delay, and at the delay with their times.)
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { longestChain, startLatencyProxy } from './latency-proxy.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'ahs.js');
const { values: flags } = parseArgs({
  options: { delay: { type: 'string', default: '50' }, sizes: { type: 'string', default: '1000,5000' }, requests: { type: 'boolean', default: false } },
});
const DELAY = Number(flags.delay);
const SIZES = flags.sizes.split(',').map(Number);
const KEY = 'demo-key';
const USER = 'owner@demo.test';
const log = (text) => process.stderr.write(`${text}\n`);

async function startEmulator() {
  const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the emulator exited ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return { ...ready, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))) };
}

function ahs(env, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`ahs ${args.join(' ')} exited ${code}: ${stderr.trim()}`))));
  });
}

/** An entry as ahs writes it (src/service/journal-format.ts): its document in the file's name and content. */
function entryForm(n, rollout) {
  const id = `bench${String(n).padStart(11, '0')}`;
  const doc = {
    apiVersion: 'ahs/journal/v2',
    id,
    command: 'deploy',
    arguments: ['bench-asset', `V${n}`, '--platform', 'generic', '--env', 'dev'],
    actor: USER,
    changes: [{ address: 'channel.bench-asset.generic.dev', before: { version: `V${n}`, state: null }, after: { version: `V${n}`, state: 'LIVE' } }],
    outcome: 'applied',
    exitCode: 0,
    ...(rollout ? { rollout } : {}),
  };
  const text = JSON.stringify(doc);
  const form = new FormData();
  form.set('assetItemName', `${new Date().toISOString()} deploy`);
  form.set('assetType', '9999');
  form.set('createdBy', USER);
  form.set('assetFile', new Blob([text], { type: 'application/json' }), `ahs2.${id}.${Buffer.from(text).toString('base64url')}.json`);
  return form;
}

async function seed(baseUrl, journal, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const answer = await fetch(`${baseUrl}/api/v2/demo/vc/${journal}/items`, { method: 'POST', headers: { apikey: KEY }, body: entryForm(n) });
      if (answer.status !== 201) throw new Error(`seeding entry ${n}: ${answer.status} ${await answer.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function measure(proxy, env, args) {
  const rows = {};
  for (const delay of [0, DELAY]) {
    proxy.delayMs = delay;
    proxy.reset();
    const started = performance.now();
    await ahs(env, args);
    rows[delay] = { ms: performance.now() - started, requests: proxy.log.length, chain: longestChain(proxy.log) };
    // --requests: each request of the run at no delay, to see where they go.
    if (flags.requests && delay === 0) for (const entry of proxy.log) log(`  ${entry.method} ${entry.path}`);
    // --requests: the run at the delay too, each request's start and end (ms from the first), to see its chain.
    if (flags.requests && delay !== 0) {
      const t0 = Math.min(...proxy.log.map((entry) => entry.start));
      for (const entry of [...proxy.log].sort((a, b) => a.start - b.start)) log(`  @${Math.round(entry.start - t0)}..${Math.round(entry.end - t0)} ${entry.method} ${entry.path.slice(0, 110)}`);
    }
  }
  return { requests: rows[0].requests, rounds: rows[DELAY].chain, msAtDelay: Math.round(rows[DELAY].ms) };
}

const work = await mkdtemp(join(tmpdir(), 'ahs-bench-journal-'));
const emulator = await startEmulator();
const proxy = await startLatencyProxy(emulator.baseUrl, { delayMs: 0 });
const results = [];
try {
  const env = { ...process.env, CI: '1', NO_COLOR: '1', AHS_CONFIG_DIR: join(work, 'config'), AHS_BASE_URL: proxy.url, AHS_DELIVERY_URL: proxy.url, AHS_DOMAIN: 'demo', AHS_API_KEY: KEY, AHS_USER: USER, AHS_ENV: 'dev', AHS_PLATFORM: 'generic' };
  for (const size of SIZES) {
    await ahs(env, ['journal', 'init', `bench-journal-${size}`, '--env', 'dev']);
    // The first entry is journal init's.
    await seed(emulator.baseUrl, `bench-journal-${size}`, size - 1);
  }
  // rollout status reads the entries made since the version was uploaded (less a minute): the version comes
  // after the journal's entries, as a release after weeks of writes does. The emulator has no clock to move: wait.
  log('waiting 61 s so that the entries predate the rollout\'s version by more than a minute');
  await new Promise((resolve) => setTimeout(resolve, 61_000));
  for (const size of SIZES) {
    const journal = `bench-journal-${size}`;
    const asset = `bench-rollout-${size}`;
    const withJournal = { ...env, AHS_JOURNAL: journal };
    await ahs(withJournal, ['asset', 'create', asset, '--name', asset, '--type', '1001']);
    const file = join(work, `${asset}.zip`);
    await writeFile(file, 'bench');
    await ahs(withJournal, ['version', 'upload', asset, file, '--platform', 'generic', '--name', '1.0']);
    const versionId = JSON.parse(await ahs(withJournal, ['version', 'list', asset, '--json'])).results[0].versionId;
    // A hotfix's status: the previous version (uploaded after the entries too) is the Default of every wave, so the
    // rollout looks for that version's rollout in flight (its version and its entries) before it promotes anything.
    // Its set-up is not journaled (AHS_JOURNAL=): the journal's history rows read the same entries as before.
    const hotfixAsset = `bench-hotfix-${size}`;
    const unjournaled = { ...env, AHS_JOURNAL: '' };
    await ahs(unjournaled, ['asset', 'create', hotfixAsset, '--name', hotfixAsset, '--type', '1001']);
    await ahs(unjournaled, ['version', 'upload', hotfixAsset, file, '--platform', 'generic', '--name', '1.0']);
    const previous = JSON.parse(await ahs(unjournaled, ['version', 'list', hotfixAsset, '--json'])).results[0].versionId;
    for (const wave of ['dev', 'staging', 'prod']) {
      await ahs(unjournaled, ['deploy', hotfixAsset, previous, '--env', wave, '--state', 'LIVE']);
      await ahs(unjournaled, ['promote-default', hotfixAsset, previous, '--env', wave]);
    }
    await ahs(unjournaled, ['version', 'upload', hotfixAsset, file, '--platform', 'generic', '--name', '1.0.1']);
    const hotfix = JSON.parse(await ahs(unjournaled, ['version', 'list', hotfixAsset, '--json'])).results.find((v) => v.versionId !== previous).versionId;
    const history = await measure(proxy, withJournal, ['history', '--json']);
    const day = await measure(proxy, withJournal, ['history', '--since', '1d', '--json']);
    const status = await measure(proxy, withJournal, ['rollout', 'status', asset, versionId, '--platform', 'generic', '--waves', 'dev,staging,prod', '--json']);
    const hotfixStatus = await measure(proxy, withJournal, ['rollout', 'status', hotfixAsset, hotfix, '--platform', 'generic', '--waves', 'dev,staging,prod', '--json']);
    results.push({ size, history, day, status, hotfixStatus });
    log(`journal of ${size}: history ${history.requests} requests, ${history.rounds} rounds; --since 1d ${day.requests} requests, ${day.rounds} rounds; rollout status ${status.requests} requests, ${status.rounds} rounds; a hotfix's ${hotfixStatus.requests} requests, ${hotfixStatus.rounds} rounds`);
  }
} finally {
  await proxy.close?.();
  await emulator.stop();
  await rm(work, { recursive: true, force: true });
}
const line = (what, pick, target) => `| ${what} | ${results.map((r) => `${pick(r).requests} req, ${pick(r).rounds} rounds`).join(' | ')} | ${target} |`;
process.stdout.write(
  [
    `| read (${DELAY} ms each way) | ${results.map((r) => `${r.size.toLocaleString('en')} entries`).join(' | ')} | target |`,
    `|---|${results.map(() => '---|').join('')}---|`,
    line('`ahs history` (all)', (r) => r.history, '<= 20 requests at 5,000'),
    line('`ahs history --since 1d`', (r) => r.day, '<= 4 rounds'),
    line('`ahs rollout status` (3 waves)', (r) => r.status, '<= 8 requests at 5,000'),
    line('`ahs rollout status` of a hotfix (the previous version the Default of each wave)', (r) => r.hotfixStatus, '<= 8 requests at 5,000'),
  ].join('\n') + '\n',
);
