#!/usr/bin/env node
// Round trips of the workflows of issue 21: each runs through the built
// binary against the emulator behind bench/latency-proxy.mjs, once with no
// delay and once with DELAY ms each way, on state seeded alike for both.
// For each it prints the requests sent, the longest chain of requests that
// waited for one another (from the proxy's log), the rounds waited - (wall
// at DELAY minus wall at 0) over the round trip, so start-up and CPU do not
// count - and their ratio to the floor, the fewest rounds a careful client
// needs (the table). Target: every ratio at most 1.3.
//
//   npm run build && node bench/rounds.mjs [--delay 50] [--runs 3] [--only KEY,...] [--record] [--log] [--memory] [--setup-round-trips N]
//   (--log prints each request of the runs at DELAY: when it started and ended, from the first, how long
//   its body took to arrive after its headers, and the emulator's own time to answer it)
//   (--memory: the emulator keeps its state in memory, no --data-dir: no fsync in each write's answer)
//   (--setup-round-trips N: a new connection pays N round trips before its first request: 1 for TCP, 2 with TLS 1.3)
//   (medians of --runs runs at each delay, alternated: a busy machine moves a single run's wall by more than a round)
//   (`npm run bench` runs it as its `rounds` part)
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync as readFileSyncNow, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { longestChain, startLatencyProxy } from './latency-proxy.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'ahs.js');
const { values: flags } = parseArgs({
  options: { delay: { type: 'string', default: '50' }, runs: { type: 'string', default: '3' }, only: { type: 'string' }, record: { type: 'boolean', default: false }, log: { type: 'boolean', default: false }, memory: { type: 'boolean', default: false }, 'setup-round-trips': { type: 'string', default: '0' } },
});
const DELAY = Number(flags.delay);
const RTT = 2 * DELAY;
const RUNS = Number(flags.runs);
const TARGET = 1.3;
const DOMAIN = 'demo';
const KEY = 'demo-key';
const USER = 'owner@demo.test';
const ENV = 'dev';
const PLATFORM = 'generic';
const log = (text) => process.stderr.write(`${text}\n`);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// ------------------------------------------------------------------ the emulator, seeded over HTTP

async function startEmulator(dataDir) {
  const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--json', ...(flags.memory ? [] : ['--data-dir', dataDir])], { stdio: ['ignore', 'pipe', 'ignore'] });
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the emulator exited ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  });
  // Whatever ends this process (an uncaught error included), the emulator does not outlive it.
  process.once('exit', () => child.kill('SIGKILL'));
  return { ...ready, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))) };
}

let emulator;
async function api(method, path, body, query = '') {
  const headers = { apikey: KEY };
  let payload = body;
  if (body !== undefined && !(body instanceof FormData)) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${emulator.baseUrl}/api/v2/${DOMAIN}${path}${query}`, { method, headers, body: payload });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`seed ${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** `work` over `items`, `width` at a time. */
async function limited(items, width, work) {
  let next = 0;
  const results = [];
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  }));
  return results;
}

/** A collection of `count` items of `bytes` each, uploaded straight to the emulator (not measured). */
async function seedItems(collectionId, count, bytes, create) {
  if (create) await api('POST', '/vc', { collectionId, collectionName: collectionId, allowedAssetTypes: ['1001'], maxAssets: 500, createdBy: USER });
  await limited(Array.from({ length: count }, (_, i) => i), 8, (i) => {
    const form = new FormData();
    form.set('assetItemName', `file-${String(i).padStart(3, '0')}.bin`);
    form.set('assetType', '1001');
    form.set('createdBy', USER);
    form.set('assetFile', new Blob([Buffer.alloc(bytes, i % 251)]), `file-${i}.bin`);
    return api('POST', `/vc/${collectionId}/items`, form);
  });
}

const createAsset = (assetId) => api('POST', '/va', { assetId, assetName: assetId, assetType: '1001', createdBy: USER });
async function uploadVersion(assetId, name) {
  const form = new FormData();
  form.set('versionName', name);
  form.set('createdBy', USER);
  form.set('assetFile', new Blob([`payload ${name}`]), `${name}.zip`);
  return (await api('POST', `/va/${assetId}/versions`, form, `?targetPlatformId=${PLATFORM}`)).versionId;
}
const deploy = (assetId, versionId, intent) =>
  api('POST', `/va/${assetId}/versions/${versionId}/deploy`, { envId: ENV, intent, createdBy: USER, updatedBy: USER }, `?targetPlatformId=${PLATFORM}`);

/** The versions seedChannel made, by asset: a later workflow names them. */
const seeded = new Map();

/** An asset whose channel holds `live` LIVE versions, the first of them the Default; `extra` more versions not deployed. */
async function seedChannel(assetId, live, extra = 0) {
  await createAsset(assetId);
  const versions = await limited(Array.from({ length: live + extra }, (_, i) => i), 8, (i) => uploadVersion(assetId, `seed-${i}`));
  await limited(versions.slice(0, live), 8, (versionId) => deploy(assetId, versionId, 'LIVE'));
  if (live > 0) await deploy(assetId, versions[0], 'DEFAULT');
  seeded.set(assetId, versions);
  return versions;
}

// ------------------------------------------------------------------ running ahs through the proxy

let proxy;
let work;
let env;

function ahs(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`ahs ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
      else resolve(ms);
    });
  });
}

/** One measured run at `delay`: wall time, and the proxy's log of it. */
async function measured(delay, pageCap, args) {
  proxy.delayMs = delay;
  proxy.pageCap = pageCap;
  proxy.reset();
  const ms = await ahs(args);
  if (flags.log && delay > 0) printLog(proxy.log);
  return { ms, requests: proxy.log.length, chain: longestChain(proxy.log) };
}

/** --log: each request of a run at DELAY, from the command's first request: start and end in ms, the body's and the emulator's time, method and path. */
function printLog(entries) {
  const origin = Math.min(...entries.map((entry) => entry.start));
  for (const entry of [...entries].sort((a, b) => a.start - b.start)) {
    const body = `body +${Math.round(entry.bodyAt - entry.start)}`.padEnd(9);
    const target = `emulator ${Math.round(entry.answeredAt - entry.bodyAt - DELAY)}`.padEnd(12);
    log(`  ${String(Math.round(entry.start - origin)).padStart(6)} ${String(Math.round(entry.end - origin)).padStart(6)}  ${body} ${target} ${entry.method} ${entry.path}`);
  }
}

async function files(dir, count, bytes, tag = '') {
  // The first `count` files of the folder, `bytes` each.
  await mkdir(dir, { recursive: true });
  await limited(Array.from({ length: count }, (_, i) => i), 16, (i) => writeFile(join(dir, `f${String(i).padStart(3, '0')}.bin`), Buffer.alloc(bytes, `${tag}${i}`)));
}

// ------------------------------------------------------------------ the workflows (issue 21's table)

// Each: key (for --only), floor (the fewest rounds), pageCap, prepare(suffix) -> args: each
// run at 0 ms and at DELAY gets state prepared alike under its own suffix
// (a workflow may build on the state of the one before it under the same
// suffix: rollback after the release); `shared`: a read, one state for all.
const workflows = [
  {
    name: 'release of a new file, small channel',
    key: 'release',
    floor: 4,
    prepare: async (s) => {
      await seedChannel(`rel-small-${s}`, 2);
      const file = join(work, `rel-small-${s}.zip`);
      await writeFile(file, `new ${s}`);
      return ['release', `rel-small-${s}`, file, '--platform', PLATFORM, '--env', ENV, '--name', 'new'];
    },
  },
  {
    // Issue 44: a rollout's first run over one wave, with its journal (the soak's and the crash's record) and the
    // change-control checks in place. The floor, as cli.md has a rollout work: the channels (1), then the journal
    // from the uploads of the versions they name, change control beside it (1); the LIVE deploy (1); the promotion's
    // intent, written ahead (1); the promotion (1); what the wave serves: its URL beside the entry (1), its bytes
    // (1); then "the rollout's state as it finds it after its own work": the channels, then the journal (2: read at
    // once, a promotion the channels show could lack its entry, which the run would then record as its own). 9.
    name: 'rollout of one wave, with a journal',
    key: 'rollout',
    floor: 9,
    prepare: async (s) => {
      const assetId = `ro-${s}`;
      const [, version] = await seedChannel(assetId, 1, 1);
      const journal = `ro-journal-${s}`;
      await api('POST', '/vc', { collectionId: journal, collectionName: journal, description: `ahs journal; env=${ENV}`, allowedAssetTypes: ['9999'], createdBy: USER });
      const form = new FormData();
      form.set('assetItemName', `${new Date().toISOString()} journal init`);
      form.set('assetType', '9999');
      form.set('createdBy', USER);
      // Its first entry as ahs writes it (ahs/journal/v2, the document carried in its file's name).
      const doc = { apiVersion: 'ahs/journal/v2', id: `bench${s.replace(/[^A-Za-z0-9]/g, '')}0000`, command: 'journal init', arguments: [journal], actor: USER, changes: [], outcome: 'applied', exitCode: 0 };
      form.set('assetFile', new Blob([JSON.stringify(doc)]), `ahs2.${doc.id}.${Buffer.from(JSON.stringify(doc)).toString('base64url')}.json`);
      await api('POST', `/vc/${journal}/items`, form);
      await api('POST', `/vc/${journal}/deployments`, { envId: ENV, state: 'LIVE', createdBy: USER });
      return ['rollout', assetId, version, '--platform', PLATFORM, '--waves', ENV, '--journal', journal];
    },
  },
  {
    name: 'rollback --to',
    key: 'rollback',
    floor: 2,
    // After the release above: the Default goes back to the one before (named: the service keeps no history).
    prepare: async (s) => ['rollback', `rel-small-${s}`, '--to', seeded.get(`rel-small-${s}`)[0], '--platform', PLATFORM, '--env', ENV],
  },
  {
    name: 'release, channel of 120 versions, page cap 20',
    key: 'release-big',
    floor: 5,
    pageCap: 20,
    prepare: async (s) => {
      await seedChannel(`rel-big-${s}`, 120);
      const file = join(work, `rel-big-${s}.zip`);
      await writeFile(file, `new big ${s}`);
      return ['release', `rel-big-${s}`, file, '--platform', PLATFORM, '--env', ENV, '--name', 'new'];
    },
  },
  {
    name: 're-run of a finished release, 121 versions, cap 20',
    key: 'rerun',
    floor: 2,
    pageCap: 20,
    prepare: async (s) => ['release', `rel-big-${s}`, join(work, `rel-big-${s}.zip`), '--platform', PLATFORM, '--env', ENV, '--name', 'new'],
  },
  {
    name: 'promote-default --expect-current, 121 versions, cap 20',
    key: 'promote',
    floor: 2,
    pageCap: 20,
    // After the release above: the Default is the released version; another LIVE one takes its place.
    prepare: async (s) => {
      const versions = seeded.get(`rel-big-${s}`);
      const { results } = await api('GET', `/va/rel-big-${s}/asset-urls`, undefined, `?targetPlatform=${PLATFORM}&envId=${ENV}&state=DEFAULT`);
      return ['promote-default', `rel-big-${s}`, versions[1], '--expect-current', results[0].versionId, '--platform', PLATFORM, '--env', ENV];
    },
  },
  {
    name: 'deploy --idempotent, 121 versions, cap 20',
    key: 'deploy',
    floor: 2,
    pageCap: 20,
    prepare: async (s) => ['deploy', `rel-big-${s}`, seeded.get(`rel-big-${s}`)[2], '--state', 'OFFLINE', '--idempotent', '--platform', PLATFORM, '--env', ENV],
  },
  {
    name: 'asset status, 121 records, cap 20',
    key: 'status',
    floor: 2,
    pageCap: 20,
    prepare: async (s) => ['asset', 'status', `rel-big-${s}`, '--platform', PLATFORM, '--env', ENV, '--json'],
  },
  {
    name: '--dry-run of a promotion, 1,000 versions',
    key: 'dry-run',
    floor: 1,
    shared: true,
    prepare: async (s) => {
      const versions = await seedChannel(`dry-${s}`, 2, 998);
      return ['promote-default', `dry-${s}`, versions[1], '--platform', PLATFORM, '--env', ENV, '--dry-run'];
    },
  },
  {
    name: 'item sync, 200 new files',
    key: 'sync-new',
    floor: 26,
    prepare: async (s) => {
      await api('POST', '/vc', { collectionId: `sync-${s}`, collectionName: `sync-${s}`, allowedAssetTypes: ['1001'], maxAssets: 500, createdBy: USER });
      await files(join(work, `sync-${s}`), 200, 4096);
      return ['item', 'sync', `sync-${s}`, join(work, `sync-${s}`), '--type', '1001'];
    },
  },
  {
    name: 'item sync, 10 changed files',
    key: 'sync-changed',
    floor: 4,
    prepare: async (s) => {
      // Another size: item sync tells a changed file by its name and size.
      await files(join(work, `sync-${s}`), 10, 4100, 'changed');
      return ['item', 'sync', `sync-${s}`, join(work, `sync-${s}`), '--type', '1001'];
    },
  },
  {
    name: 'fetch, 200 x 4 KiB',
    key: 'fetch',
    floor: 27,
    prepare: async (s) => {
      // The collection the item sync rows filled; made here when they did not run (--only fetch).
      const held = await api('GET', `/vc/sync-${s}/items`, undefined, '?pageSize=1').then((page) => page.totalResults, () => undefined);
      if (!held) await seedItems(`sync-${s}`, 200, 4096, held === undefined);
      await api('POST', `/vc/sync-${s}/deployments`, { envId: ENV, state: 'LIVE', createdBy: USER });
      return ['fetch', `sync-${s}`, '--env', ENV, '--dir', join(work, `fetched-${s}`)];
    },
  },
  {
    // Issue 32: a journal of 5,000 entries; the range holds the last 30 (a day of a busy team's writes).
    name: 'history of one channel, 30 entries in range of a journal of 5,000',
    key: 'history',
    floor: 4,
    shared: true,
    prepare: async () => {
      const journal = 'bench-journal';
      const assetId = 'bench-history';
      await createAsset(assetId);
      await api('POST', '/vc', { collectionId: journal, collectionName: journal, description: `ahs journal; env=${ENV}`, allowedAssetTypes: ['9999'], maxAssets: 5000, createdBy: USER });
      const entry = (i) => {
        const form = new FormData();
        const doc = {
          apiVersion: 'ahs/journal/v1',
          command: 'promote-default',
          arguments: [],
          actor: USER,
          changes: [{ address: `channel.${assetId}.${PLATFORM}.${ENV}`, before: { default: `V${i}` }, after: { default: `V${i + 1}` } }],
          outcome: 'applied',
          exitCode: 0,
        };
        form.set('assetItemName', `${new Date().toISOString()} promote-default ${i}`);
        form.set('assetType', '9999');
        form.set('createdBy', USER);
        form.set('assetFile', new Blob([JSON.stringify(doc)]), 'entry.json');
        return api('POST', `/vc/${journal}/items`, form);
      };
      await limited(Array.from({ length: 4970 }, (_, i) => i), 16, entry);
      await api('POST', `/vc/${journal}/deployments`, { envId: ENV, state: 'LIVE', createdBy: USER });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const since = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await limited(Array.from({ length: 30 }, (_, i) => 4970 + i), 16, entry);
      return ['history', assetId, '--journal', journal, '--since', since, '--platform', PLATFORM, '--env', ENV, '--json'];
    },
  },
  {
    name: 'asset list --all, 1,000 assets, page cap 20',
    key: 'list-all',
    floor: 8,
    pageCap: 20,
    shared: true,
    prepare: async () => {
      const { totalResults } = await api('GET', '/va', undefined, '?pageSize=1');
      await limited(Array.from({ length: Math.max(0, 1000 - totalResults) }, (_, i) => i), 16, (i) => createAsset(`many-${String(i).padStart(4, '0')}`));
      return ['asset', 'list', '--all', '--json'];
    },
  },
];

// ------------------------------------------------------------------ main

const only = flags.only ? new Set(flags.only.split(',').map((name) => name.trim())) : undefined;
work = await mkdtemp(join(tmpdir(), 'ahs-bench-rounds-'));
const rows = [];
try {
  emulator = await startEmulator(join(work, 'emulator-data'));
  proxy = await startLatencyProxy(emulator.baseUrl, { delayMs: 0, setupRoundTrips: Number(flags['setup-round-trips']) });
  const configDir = join(work, 'config');
  await mkdir(configDir);
  env = {
    ...process.env,
    CI: '1',
    NO_COLOR: '1',
    AHS_CONFIG_DIR: configDir,
    AHS_BASE_URL: proxy.url,
    AHS_DELIVERY_URL: proxy.url,
    AHS_DOMAIN: DOMAIN,
    AHS_API_KEY: KEY,
    AHS_USER: USER,
    AHS_ENV: ENV,
    AHS_PLATFORM: PLATFORM,
  };
  for (const workflow of workflows) {
    const skipped = only && !only.has(workflow.key) && !only.has(workflow.name);
    const suffixes = Array.from({ length: RUNS }, (_, run) => [`d0-${run}`, `dn-${run}`]);
    const prepared = new Map();
    const prepare = (suffix) => {
      const key = workflow.shared ? 'shared' : suffix;
      if (!prepared.has(key)) prepared.set(key, workflow.prepare(key));
      return prepared.get(key);
    };
    try {
      // A skipped workflow's state is prepared all the same: the next may build on it.
      if (skipped) {
        for (const pair of suffixes) for (const suffix of pair) await prepare(suffix);
        continue;
      }
      const at0 = [];
      const atDelay = [];
      for (const [zero, delayed] of suffixes) {
        at0.push(await measured(0, workflow.pageCap, await prepare(zero)));
        atDelay.push(await measured(DELAY, workflow.pageCap, await prepare(delayed)));
      }
      const wall0 = median(at0.map((run) => run.ms));
      const wall = median(atDelay.map((run) => run.ms));
      const rounds = (wall - wall0) / RTT;
      const last = atDelay[atDelay.length - 1];
      rows.push({ ...workflow, requests: last.requests, chain: last.chain, wall0, wall, rounds, ratio: rounds / workflow.floor });
      log(`${workflow.name}: ${last.requests} requests, chain ${last.chain}, ${rounds.toFixed(1)} rounds`);
    } catch (error) {
      rows.push({ ...workflow, failed: error.message });
      log(`${workflow.name}: FAILED: ${error.message}`);
    }
  }
} finally {
  await proxy?.close();
  await emulator?.stop();
  await rm(work, { recursive: true, force: true });
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const lines = [
  `| workflow | requests | longest chain | wall at 0 ms | wall at ${DELAY} ms | rounds waited | floor | ratio | target (at most ${TARGET}x) |`,
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map((row) =>
    row.failed
      ? `| ${row.name} | failed: ${row.failed.split('\n')[0].slice(0, 120)} | | | | | ${row.floor} | | |`
      : `| ${row.name} | ${row.requests} | ${row.chain} | ${seconds(row.wall0)} | ${seconds(row.wall)} | ${row.rounds.toFixed(1)} | ${row.floor} | ${row.ratio.toFixed(2)}x | ${row.ratio <= TARGET ? 'met' : 'MISSED'} |`,
  ),
];
const table = lines.join('\n');
console.log(`\nRound trips at ${DELAY} ms each way (RTT ${RTT} ms), through bench/latency-proxy.mjs:\n\n${table}\n`);
if (flags.record) {
  const readme = join(root, 'bench', 'README.md');
  const text = readFileSyncNow(readme, 'utf8');
  const begin = '<!-- BEGIN ROUNDS (bench/rounds.mjs --record) -->';
  const end = '<!-- END ROUNDS -->';
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error('bench/README.md has no ROUNDS markers');
  writeFileSync(readme, `${text.slice(0, from + begin.length)}\nRecorded ${new Date().toISOString().slice(0, 10)}, delay ${DELAY} ms each way.\n\n${table}\n${text.slice(to)}`);
  log('rounds written to bench/README.md');
}
process.exitCode = rows.some((row) => row.failed) ? 1 : 0;
